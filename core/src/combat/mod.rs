//! Battles: one implementation for real play, the Monte Carlo calculator and the exact
//! calculator (principles §9).
//!
//! - `profile`: unit types as the battle sees them, resolved from the rule set once.
//! - `battle`: the battle itself, a small value advanced step by step (`Battle::advance`).
//! - `casualties`: who can take which hits, the default order of loss, checking a choice.
//! - `roll`: where dice faces come from (seeded, scripted, typed at the table).

mod battle;
pub mod casualties;
pub mod profile;
pub mod roll;

pub(crate) use battle::{low_luck_value, FireRoom};
pub use battle::{
    Battle, CasualtyCall, Combatant, Gate, Need, Observer, Outcome, Progress, Quiet, Report, ScriptAction,
    Side, Status, UnitValue, ValueChange,
};
pub use casualties::{CasualtyOrder, HitGroup};
pub use profile::{Profile, Profiles};
pub use roll::{Roller, Scripted, TableDice};
