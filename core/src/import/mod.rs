//! Converters from other engines’ game files into warroom layers.

mod tomlw;
pub mod triplea;
