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
    let kind = |id: &u32| rules.unit(unit(b.s, m.from, *id).kind);
    if let Some(id) = ids
        .iter()
        .find(|id| kind(id).bombing_dice == 0 && !kind(id).intercepts)
    {
        return Err(reject(
            RULE_RAID,
            format!("{} cannot make a bombing raid", kind(id).name),
        ));
    }
    // Escorts (`intercepts`) fly with bombers: in this move, or a raid declared already.
    if ids.iter().all(|id| kind(id).bombing_dice == 0) && !b.s.this_turn.raids.iter().any(|(r, _)| *r == m.to)
    {
        return Err(reject(
            RULE_RAID,
            format!(
                "escorts accompany bombers: move bombers to raid {} first (or with them)",
                b.name(m.to)
            ),
        ));
    }
    if let Some(p) = b.peace_holder(m.to) {
        return Err(b.peace(p));
    }
    raid_target(rules, b, m, ids).map(|_| ())
}

/// The facility a raid is on: the one named (`bombing air_base`), else the only one there that
/// can be damaged; each raider must be one that may raid it (a unit's `raids`).
pub(super) fn raid_target(
    rules: &RuleSet,
    b: &Board,
    m: &Move,
    ids: &[u32],
) -> Result<Option<crate::rules::FacilityTypeId>, Rejection> {
    let ipc = rules.board.space(m.to).ipc;
    let targets: Vec<crate::rules::FacilityTypeId> =
        b.s.space(m.to)
            .facilities
            .iter()
            .map(|f| f.kind)
            .filter(|k| rules.facilities[k.index()].max_damage.resolve(ipc) > 0)
            .collect();
    if !b.hostile_territory(m.to) || targets.is_empty() {
        return Err(reject(
            RULE_RAID,
            format!(
                "a bombing raid needs an enemy territory with a facility that can be damaged; {} is not",
                b.name(m.to)
            ),
        ));
    }
    // Escorts alone join the raid declared there; they bomb nothing.
    if ids
        .iter()
        .all(|id| rules.unit(unit(b.s, m.from, *id).kind).bombing_dice == 0)
    {
        return Ok(None);
    }
    let target = match (m.target, targets.as_slice()) {
        (Some(t), _) if targets.contains(&t) => t,
        (Some(t), _) => {
            return Err(reject(
                RULE_RAID,
                format!(
                    "{} has no {} to raid",
                    b.name(m.to),
                    rules.facilities[t.index()].name
                ),
            ))
        }
        (None, [one]) => *one,
        (None, many) => {
            let names: Vec<&str> = many
                .iter()
                .map(|k| rules.facilities[k.index()].id.as_str())
                .collect();
            return Err(reject(
                RULE_RAID,
                format!(
                    "which facility of {} do they raid? `... bombing FACILITY`, one of {}",
                    b.name(m.to),
                    names.join(", ")
                ),
            ));
        }
    };
    let id = &rules.facilities[target.index()].id;
    for uid in ids {
        let t = rules.unit(unit(b.s, m.from, *uid).kind);
        if !t.raids.is_empty() && !t.raids.contains(id) {
            return Err(reject(
                RULE_RAID,
                format!(
                    "a {} raids only {}, not a {}",
                    t.name,
                    t.raids
                        .iter()
                        .map(|r| rules
                            .facilities
                            .iter()
                            .find(|f| f.id == *r)
                            .map_or(r.as_str(), |f| f.name.as_str()))
                        .collect::<Vec<_>>()
                        .join(" or "),
                    rules.facilities[target.index()].name
                ),
            ));
        }
    }
    Ok(Some(target))
}
