//! warroom-core: the rules engine. Layers (TOML + Lua) are resolved into an immutable
//! [`rules::RuleSet`]; a [`game::Game`] holds state and applies commands. Nothing here prints.

pub mod ai;
pub mod combat;
pub mod diag;
pub mod game;
pub mod layers;
pub mod odds;
pub mod reference;
pub mod rules;
pub mod scenario;
pub mod script;
pub mod selfplay;
pub mod soak;
pub mod tree;
