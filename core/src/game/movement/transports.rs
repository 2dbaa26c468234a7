//! Transports: land units boarding from a territory into an adjacent sea zone, and offloading
//! from it (an amphibious assault in combat move, which waits for a sea battle there).

use super::{
    allied, describe, reject, unit, Board, RULE_CAPACITY, RULE_CM_END, RULE_IGNORED_SUBS, RULE_LOAD,
    RULE_NCM_AFTER_COMBAT, RULE_NCM_FRIENDLY, RULE_NEUTRAL, RULE_NO_TRANSPORT, RULE_UNLOAD,
};
use crate::game::command::Move;
use crate::game::state::State;
use crate::game::Rejection;
use crate::rules::{Domain, PowerId, RuleSet, SpaceId};

pub(super) fn load(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    combat: bool,
    m: &Move,
    ids: &[u32],
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let b = Board { rules, s, power };
    if !rules.power_info(power).board_transports {
        return Err(reject(
            RULE_NO_TRANSPORT,
            format!(
                "{}'s units cannot be loaded onto transports",
                rules.power_info(power).name
            ),
        ));
    }
    if b.off_limits(m.to) {
        return Err(b.confined(m.to));
    }
    if !b.adjacent(m.from, m.to) {
        return Err(reject(
            RULE_LOAD,
            format!(
                "{} does not border {}; units board from an adjacent territory",
                b.name(m.from),
                b.name(m.to)
            ),
        ));
    }
    if b.blocked(m.to) {
        return Err(reject(
            RULE_LOAD,
            format!(
                "transports load only in friendly sea zones; {} holds enemy warships",
                b.name(m.to)
            ),
        ));
    }
    for id in ids {
        let u = unit(s, m.from, *id);
        let t = rules.unit(u.kind);
        if t.transport_cost.is_none() {
            return Err(reject(
                RULE_LOAD,
                format!("{} cannot be carried by transports", t.name),
            ));
        }
        if u.moved > 0 || u.marks.combat_moved {
            return Err(reject(
                RULE_LOAD,
                format!(
                    "{} has already moved; boarding a transport takes a land unit's whole move",
                    t.name
                ),
            ));
        }
    }
    // Room on each usable transport in the zone.
    let mut room: Vec<(u32, u32, bool)> = s
        .space(m.to)
        .units
        .iter()
        .filter(|t| {
            let tt = rules.unit(t.kind);
            tt.transport_capacity > 0
                && allied(s, power, t.owner)
                && t.marks.unloaded.is_none()
                && (combat || t.owner != power || !(t.marks.combat_moved || t.marks.fought))
        })
        .map(|t| {
            let used: u32 = s
                .space(m.to)
                .units
                .iter()
                .filter(|c| c.aboard == Some(t.id))
                .filter_map(|c| rules.unit(c.kind).transport_cost)
                .sum();
            (
                t.id,
                rules.unit(t.kind).transport_capacity.saturating_sub(used),
                t.owner == power,
            )
        })
        .collect();
    if room.is_empty() {
        let idle = s
            .space(m.to)
            .units
            .iter()
            .any(|t| rules.unit(t.kind).transport_capacity > 0 && t.owner == power);
        return Err(reject(
            if idle { RULE_NCM_AFTER_COMBAT } else { RULE_LOAD },
            if idle {
                format!(
                    "the transports in {} moved or fought in the combat phases and cannot load now",
                    b.name(m.to)
                )
            } else {
                format!("there is no friendly transport in {} to board", b.name(m.to))
            },
        ));
    }
    // Own transports first, fullest first, so loads fill transports instead of spreading.
    room.sort_by_key(|(id, free, own)| (!*own, *free, *id));
    let mut order: Vec<u32> = ids.to_vec();
    order.sort_by_key(|id| {
        std::cmp::Reverse(rules.unit(unit(s, m.from, *id).kind).transport_cost.unwrap_or(0))
    });
    let mut assign: Vec<(u32, u32)> = Vec::new();
    for id in &order {
        let cost = rules.unit(unit(s, m.from, *id).kind).transport_cost.unwrap_or(0);
        let Some(slot) = room.iter_mut().find(|(_, free, _)| *free >= cost) else {
            return Err(reject(
                RULE_CAPACITY,
                format!(
                    "not enough room on the transports in {} for all of them",
                    b.name(m.to)
                ),
            ));
        };
        slot.1 -= cost;
        assign.push((*id, slot.0));
    }
    let text = describe(rules, s, m.from, ids);
    let mut moving = s.take_units(m.from, |u| ids.contains(&u.id));
    for u in &mut moving {
        let t = rules.unit(u.kind);
        u.aboard = assign.iter().find(|(c, _)| *c == u.id).map(|(_, t)| *t);
        u.moved = t.movement;
        u.marks.loaded = true;
        u.marks.combat_moved |= combat;
    }
    let transports: Vec<u32> = assign.iter().map(|(_, t)| *t).collect();
    for t in s
        .space_mut(m.to)
        .units
        .iter_mut()
        .filter(|t| transports.contains(&t.id))
    {
        if t.owner == power {
            t.marks.loaded = true;
            t.marks.combat_moved |= combat;
        }
    }
    s.space_mut(m.to).units.extend(moving);
    out.push(format!(
        "{} loads {text} from {} onto transports in {}",
        rules.power_info(power).name,
        rules.board.space(m.from).name,
        rules.board.space(m.to).name
    ));
    Ok(())
}

pub(super) fn offload(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    combat: bool,
    m: &Move,
    ids: &[u32],
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let b = Board { rules, s, power };
    let (zone, target) = (m.from, m.to);
    if !b.adjacent(zone, target) {
        return Err(reject(
            RULE_UNLOAD,
            format!("{} does not border {}", b.name(target), b.name(zone)),
        ));
    }
    if b.impassable(target) {
        return Err(reject(
            RULE_NEUTRAL,
            format!("{} is neutral and cannot be entered", b.name(target)),
        ));
    }
    if b.off_limits(target) {
        return Err(b.confined(target));
    }
    let transports: Vec<u32> = ids.iter().filter_map(|id| unit(s, zone, *id).aboard).collect();
    for tid in &transports {
        let t = unit(s, zone, *tid);
        if let Some(other) = t.marks.unloaded {
            if other != target {
                return Err(reject(
                    RULE_UNLOAD,
                    format!(
                        "that transport already offloaded into {} this turn; a transport offloads into one territory per turn",
                        b.name(other)
                    ),
                ));
            }
        }
        if !combat && t.owner == power && (t.marks.combat_moved || t.marks.fought) {
            return Err(reject(
                RULE_NCM_AFTER_COMBAT,
                "a transport that loaded, moved, offloaded or fought in the combat phases cannot offload in noncombat move",
            ));
        }
    }
    let mut assault = false;
    if let Some(p) = b
        .peace_holder(target)
        .or_else(|| b.peace_units(target).filter(|_| combat))
    {
        return Err(b.peace(p));
    }
    if combat {
        if !b.hostile_territory(target) {
            return Err(reject(
                RULE_CM_END,
                format!(
                    "combat moves end in a hostile space; offload into friendly {} in noncombat move",
                    b.name(target)
                ),
            ));
        }
        let sea_battle = b.blocked(zone) || s.this_turn.battle(zone).is_some();
        if sea_battle {
            assault = true;
        } else if b.has_enemies(zone) {
            let warship = s.space(zone).units.iter().any(|u| {
                let t = rules.unit(u.kind);
                u.owner == power && t.domain == Domain::Sea && t.attack > 0
            });
            if !warship {
                return Err(reject(
                    RULE_IGNORED_SUBS,
                    format!(
                        "transports may offload past ignored enemy submarines and transports in {} only with a warship of yours there",
                        b.name(zone)
                    ),
                ));
            }
        }
    } else if !b.friendly_territory(target) {
        return Err(reject(
            RULE_NCM_FRIENDLY,
            format!(
                "noncombat moves end in friendly territory; {} is not",
                b.name(target)
            ),
        ));
    }
    let text = describe(rules, s, zone, ids);
    for t in s
        .space_mut(zone)
        .units
        .iter_mut()
        .filter(|t| transports.contains(&t.id))
    {
        if t.owner == power || !combat {
            t.marks.unloaded = Some(target);
        }
        t.marks.combat_moved |= combat && t.owner == power;
    }
    if combat {
        let battle = s.this_turn.battle_mut(target);
        if !battle.amphibious_from.contains(&zone) {
            battle.amphibious_from.push(zone);
        }
    }
    if assault {
        for u in s.space_mut(zone).units.iter_mut().filter(|u| ids.contains(&u.id)) {
            u.marks.assault = Some(target);
            u.marks.combat_moved = true;
        }
        out.push(format!(
            "{} will assault {} from {} with {text} once the sea zone is cleared",
            rules.power_info(power).name,
            rules.board.space(target).name,
            rules.board.space(zone).name
        ));
        return Ok(());
    }
    let mut moving = s.take_units(zone, |u| ids.contains(&u.id));
    for u in &mut moving {
        u.aboard = None;
        u.marks.unloaded = Some(target);
        u.marks.combat_moved |= combat;
    }
    s.space_mut(target).units.extend(moving);
    out.push(format!(
        "{} offloads {text} from {} into {}{}",
        rules.power_info(power).name,
        rules.board.space(zone).name,
        rules.board.space(target).name,
        if combat { " (amphibious assault)" } else { "" }
    ));
    Ok(())
}

/// Cargo that waited for a sea battle comes ashore if its sea zone is now clear.
pub fn land_assault_cargo(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    target: SpaceId,
    out: &mut Vec<String>,
) {
    let zones: Vec<SpaceId> = s
        .this_turn
        .battle(target)
        .map(|b| b.amphibious_from.clone())
        .unwrap_or_default();
    for z in zones {
        let b = Board { rules, s, power };
        if b.blocked(z) {
            continue;
        }
        let mut moving = s.take_units(z, |u| u.owner == power && u.marks.assault == Some(target));
        if moving.is_empty() {
            continue;
        }
        for u in &mut moving {
            u.aboard = None;
            u.marks.assault = None;
            u.marks.unloaded = Some(target);
        }
        out.push(format!(
            "{} units come ashore in {} from {}",
            moving.len(),
            rules.board.space(target).name,
            rules.board.space(z).name
        ));
        s.space_mut(target).units.extend(moving);
    }
}

/// Land units may try to board in this sea zone from `from`: it borders `from`, holds no
/// enemy warships and holds a transport of the power's side (what [`load`] asks first).
pub(crate) fn may_board(rules: &RuleSet, s: &State, power: PowerId, from: SpaceId, zone: SpaceId) -> bool {
    let b = Board { rules, s, power };
    b.adjacent(from, zone)
        && !b.blocked(zone)
        && s.space(zone)
            .units
            .iter()
            .any(|t| rules.unit(t.kind).transport_capacity > 0 && allied(s, power, t.owner))
}
