//! Which units a move takes: the units a command names, and why a unit may not move at all
//! this phase (spent, offloaded, dropped, committed to an assault, or moved in the combat phases).

use super::{
    reject, remaining, RULE_AIR_TRANSPORT, RULE_COMBAT_ONLY, RULE_LOAD, RULE_NCM_AFTER_COMBAT, RULE_RANGE,
    RULE_UNLOAD,
};
use crate::game::command::Pick;
use crate::game::state::{State, Unit};
use crate::game::{neutrals, Rejection};
use crate::rules::{Domain, PowerId, RuleSet, SpaceId, UnitTypeId};

/// Why this unit cannot move at all in this phase, if it cannot. Cargo that boarded this turn
/// has spent its move but may still offload.
pub(super) fn cannot_move(
    rules: &RuleSet,
    s: &State,
    u: &Unit,
    combat: bool,
) -> Option<(&'static str, &'static str)> {
    let t = rules.unit(u.kind);
    if s.neutrals.army_of(u.id).is_some() {
        return Some((
            neutrals::RULE_ARMY,
            "stands for a neutral territory's army: it stays there until a power takes the territory",
        ));
    }
    if u.marks.unloaded.is_some() {
        return Some((RULE_UNLOAD, "has offloaded this turn and moves no further"));
    }
    if u.marks.dropped {
        return Some((
            RULE_AIR_TRANSPORT,
            "was dropped by air this turn and moves no further",
        ));
    }
    if u.aboard.is_some() && t.domain == Domain::Land {
        if u.marks.assault.is_some() {
            return Some((RULE_UNLOAD, "is committed to an amphibious assault"));
        }
        if !combat && u.marks.combat_moved {
            return Some((RULE_NCM_AFTER_COMBAT, "moved in combat move"));
        }
        // Carried in combat move, it stays aboard: it never offloads into a battle.
        if combat && !t.combat_move {
            return Some((
                RULE_COMBAT_ONLY,
                "moves only in noncombat move (aboard a transport it rides along, and stays aboard)",
            ));
        }
        return None;
    }
    if t.domain == Domain::Land && u.marks.loaded {
        return Some((
            RULE_LOAD,
            "boarded a transport this turn (its whole move); it may only offload",
        ));
    }
    if combat && !t.combat_move {
        return Some((RULE_COMBAT_ONLY, "moves only in noncombat move"));
    }
    if !combat && t.domain != Domain::Air && (u.marks.combat_moved || u.marks.fought) {
        return Some((
            RULE_NCM_AFTER_COMBAT,
            "moved or fought in the combat phases; only air units move again in noncombat move",
        ));
    }
    if !combat && u.marks.captured {
        return Some((
            RULE_NCM_AFTER_COMBAT,
            "was captured this turn and cannot move yet",
        ));
    }
    if remaining(rules, s, u) == 0 {
        return Some((RULE_RANGE, "has no movement left"));
    }
    None
}

/// The movement this unit has left to spend in this phase, if it may move at all (for the
/// legal actions: what a move command could take).
pub(crate) fn movable(rules: &RuleSet, s: &State, u: &Unit, combat: bool) -> Option<u32> {
    match cannot_move(rules, s, u, combat) {
        Some(_) => None,
        None => Some(remaining(rules, s, u)),
    }
}

/// Choose the units a move names, in `from`. Cargo is picked only when `cargo` is set (an
/// offload); otherwise units aboard something are left alone.
pub(super) fn pick_units(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    picks: &[Pick],
    combat: bool,
    cargo: bool,
) -> Result<Vec<u32>, Rejection> {
    let units = &s.space(from).units;
    let place = &rules.board.space(from).name;
    if !cargo && rules.board.space(from).is_sea() {
        check_no_cargo_at_sea(rules, units, picks)?;
    }
    // Land units taking a friendly neutral spend the whole phase there (004 · Blitzing). (The
    // neutral's army stays there for its own reason: `cannot_move`.)
    if !combat && neutrals::to_take(rules, s, power, from) {
        let entered = |u: &Unit| {
            u.owner == power
                && rules.unit(u.kind).domain == Domain::Land
                && s.neutrals.army_of(u.id).is_none()
        };
        let named = picks.iter().any(|p| match p {
            Pick::Id(id) => units.iter().any(|u| u.id == *id && entered(u)),
            Pick::Kind { kind, .. } | Pick::All(kind) => units.iter().any(|u| u.kind == *kind && entered(u)),
        });
        if named {
            return Err(reject(
                neutrals::RULE_FRIENDLY,
                format!("land units that entered {place} to take it stay there for the rest of the phase"),
            ));
        }
    }
    let mut chosen: Vec<u32> = Vec::new();
    for p in picks {
        match p {
            Pick::Id(id) => {
                let Some(u) = units.iter().find(|u| u.id == *id) else {
                    return Err(Rejection::new(format!("there is no unit #{id} in {place}")));
                };
                if u.owner != power {
                    return Err(Rejection::new(format!(
                        "unit #{id} belongs to {}",
                        rules.power_info(u.owner).name
                    )));
                }
                if let Some((rule, why)) = cannot_move(rules, s, u, combat) {
                    return Err(reject(rule, format!("{} #{id} {why}", rules.unit(u.kind).name)));
                }
                if chosen.contains(id) {
                    return Err(Rejection::new(format!("unit #{id} is named twice")));
                }
                chosen.push(*id);
            }
            Pick::Kind { kind, .. } | Pick::All(kind) => {
                let more = pick_of_kind(rules, s, power, from, p, *kind, &chosen, combat, cargo)?;
                chosen.extend(more);
            }
        }
    }
    Ok(chosen)
}

/// Land units at sea move only with their transport (or offload): a move from a sea zone that
/// names them is refused.
fn check_no_cargo_at_sea(rules: &RuleSet, units: &[Unit], picks: &[Pick]) -> Result<(), Rejection> {
    for p in picks {
        let kind = match p {
            Pick::Kind { kind, .. } | Pick::All(kind) => Some(*kind),
            Pick::Id(id) => units.iter().find(|u| u.id == *id).map(|u| u.kind),
        };
        if let Some(k) = kind.filter(|k| rules.unit(*k).domain == Domain::Land) {
            return Err(reject(
                RULE_LOAD,
                format!(
                    "{} at sea moves only with its transport: move the transport, or offload it into an adjacent territory",
                    rules.unit(k).name
                ),
            ));
        }
    }
    Ok(())
}

/// Units of one type named by count (or all of them): those with the most movement left
/// first, then the transports with the most cargo, then the oldest. Too few that can move is
/// refused with why the others cannot.
#[allow(clippy::too_many_arguments)]
fn pick_of_kind(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    p: &Pick,
    kind: UnitTypeId,
    chosen: &[u32],
    combat: bool,
    cargo: bool,
) -> Result<Vec<u32>, Rejection> {
    let units = &s.space(from).units;
    let place = &rules.board.space(from).name;
    let cargo_count = |id: u32| units.iter().filter(|c| c.aboard == Some(id)).count();
    let mine: Vec<&Unit> = units
        .iter()
        .filter(|u| {
            u.owner == power
                && u.kind == kind
                && (u.aboard.is_some() == cargo || rules.unit(u.kind).domain == Domain::Air)
                && !chosen.contains(&u.id)
        })
        .collect();
    // Aboard a side's damaged carrier that launches nothing, air units that have not flown
    // this turn are trapped: a count of them takes those that flew in (and can fly on) first.
    let side = |x: &Unit| {
        x.owner == power
            || s.relations[power.index()][x.owner.index()] == crate::game::state::Relation::Allied
    };
    let trapped_deck = rules.board.space(from).is_sea()
        && units
            .iter()
            .any(|x| side(x) && x.damage > 0 && rules.unit(x.kind).disabled_when_damaged)
        && units
            .iter()
            .filter(|x| side(x))
            .map(|x| x.deck(rules))
            .sum::<u32>()
            == 0;
    let trapped = |u: &Unit| trapped_deck && u.moved == 0 && rules.unit(u.kind).domain == Domain::Air;
    let mut able: Vec<&Unit> = mine
        .iter()
        .copied()
        .filter(|u| cannot_move(rules, s, u, combat).is_none())
        .collect();
    able.sort_by_key(|u| {
        (
            trapped(u),
            std::cmp::Reverse(remaining(rules, s, u)),
            std::cmp::Reverse(cargo_count(u.id)),
            u.id,
        )
    });
    let want = match p {
        Pick::Kind { count, .. } => *count as usize,
        _ => able.len().max(1),
    };
    let name = &rules.unit(kind).name;
    if able.len() < want {
        let reason = mine
            .iter()
            .find_map(|u| cannot_move(rules, s, u, combat))
            .map(|(rule, why)| (rule, format!(" (the others: {why})")));
        let msg = format!(
            "{place} has {} {name} of {} that can make this move; {want} asked{}",
            able.len(),
            rules.power_info(power).name,
            reason.as_ref().map_or("", |r| r.1.as_str())
        );
        return Err(match reason {
            Some((rule, _)) => reject(rule, msg),
            None => Rejection::new(msg),
        });
    }
    Ok(able.iter().take(want).map(|u| u.id).collect())
}
