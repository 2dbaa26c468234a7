//! warroom-import: converters from other engines' game files into warroom layers.
//!
//! Kept out of warroom-core on purpose: the converters know other engines' names for powers and
//! units (naming tables, not rules), and the rules engine must stay free of any edition's names.

mod tomlw;
pub mod triplea;
