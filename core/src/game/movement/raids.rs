//! Strategic bombing raids: who may raid, and what.

use super::{reject, unit, Board, RULE_RAID};
use crate::game::command::Move;
use crate::game::Rejection;
use crate::rules::RuleSet;

/// A strategic bombing raid: combat move, units that bomb, an enemy territory with a facility
/// that can be damaged.
pub(super) fn check_raid(rules: &RuleSet, b: &Board, m: &Move, ids: &[u32]) -> Result<(), Rejection> {
    if !rules
        .combat
        .conduct
        .contains(&crate::rules::ConductStep::BombingRaids)
    {
        return Err(reject(RULE_RAID, "this edition has no strategic bombing raids"));
    }
    if let Some(id) = ids
        .iter()
        .find(|id| rules.unit(unit(b.s, m.from, **id).kind).bombing_dice == 0)
    {
        return Err(reject(
            RULE_RAID,
            format!(
                "{} cannot make a bombing raid",
                rules.unit(unit(b.s, m.from, *id).kind).name
            ),
        ));
    }
    let target = b.s.space(m.to).facilities.iter().any(|f| {
        rules.facilities[f.kind.index()]
            .max_damage
            .resolve(rules.board.space(m.to).ipc)
            > 0
    });
    if let Some(p) = b.peace_holder(m.to) {
        return Err(b.peace(p));
    }
    if !b.hostile_territory(m.to) || !target {
        return Err(reject(
            RULE_RAID,
            format!(
                "a bombing raid needs an enemy territory with an industrial complex; {} is not",
                b.name(m.to)
            ),
        ));
    }
    Ok(())
}
