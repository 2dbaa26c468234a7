//! Mobilize new units: where purchased units may enter play and how many each factory takes.

use super::state::State;
use super::Rejection;
use crate::rules::{Piece, PowerId, RuleSet, SpaceId};

/// Place `count` purchased pieces in `space`.
pub fn place(
    _rules: &RuleSet,
    _s: &mut State,
    _power: PowerId,
    _piece: Piece,
    _count: u32,
    _space: SpaceId,
    _out: &mut Vec<String>,
) -> Result<(), Rejection> {
    Err(Rejection::new("placing units is not implemented yet"))
}

/// The mobilize phase ends: fighters still at sea without room on a carrier are lost.
pub fn end_mobilize(rules: &RuleSet, s: &mut State, power: PowerId, out: &mut Vec<String>) {
    super::movement::land_air_units(rules, s, power, true, out);
}
