//! Converters from other engines’ game files into warroom layers.
