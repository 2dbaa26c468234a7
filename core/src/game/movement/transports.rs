//! Transports: land units boarding from a territory into an adjacent sea zone, and offloading
//! from it (an amphibious assault in combat move, which waits for a sea battle there).

use super::{
    describe, reject, unit, Board, RULE_CAPACITY, RULE_CM_END, RULE_LOAD, RULE_NCM_AFTER_COMBAT,
    RULE_NEUTRAL, RULE_NO_TRANSPORT, RULE_UNLOAD,
};
use crate::game::command::Move;
use crate::game::state::State;
use crate::game::Rejection;
use crate::rules::{Domain, PowerId, RuleSet, SpaceId};

/// Land units board transports in an adjacent sea zone: the power's units may board, the zone
/// is one they may load in, each unit may be carried and has not moved, and every one finds
/// room aboard.
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
    check_boarding(&b, m, ids)?;
    let room = transport_room(&b, m.to, combat)?;
    let assign = assign_places(&b, m, ids, room)?;
    let text = describe(rules, s, m.from, ids);
    board(rules, s, power, m, ids, &assign, combat);
    out.push(format!(
        "{} loads {text} from {} onto transports in {}",
        rules.power_info(power).name,
        rules.board.space(m.from).name,
        rules.board.space(m.to).name
    ));
    Ok(())
}

/// May these units board in this zone at all: the power's units ride transports, the zone is
/// within its bounds, next to the territory and free of enemy warships, and each unit is one
/// transports carry and has not moved (boarding takes a land unit's whole move).
fn check_boarding(b: &Board, m: &Move, ids: &[u32]) -> Result<(), Rejection> {
    let rules = b.rules;
    if !rules.power_info(b.power).board_transports {
        return Err(reject(
            RULE_NO_TRANSPORT,
            format!(
                "{}'s units cannot be loaded onto transports",
                rules.power_info(b.power).name
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
    if b.blocked(m.to) && !just_hostile(b, m.to) {
        return Err(reject(
            RULE_LOAD,
            format!(
                "transports load only in friendly sea zones; {} holds enemy warships",
                b.name(m.to)
            ),
        ));
    }
    for id in ids {
        let u = unit(b.s, m.from, *id);
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
    Ok(())
}

/// Room on each transport of the side in the zone that may load now: (transport id, room left,
/// the power's own). Not a transport that offloaded this turn, nor in noncombat move one of the
/// power's that moved or fought in the combat phases.
fn transport_room(b: &Board, zone: SpaceId, combat: bool) -> Result<Vec<(u32, u32, bool)>, Rejection> {
    let (rules, s, power) = (b.rules, b.s, b.power);
    let room: Vec<(u32, u32, bool)> = s
        .space(zone)
        .units
        .iter()
        .filter(|t| {
            let tt = rules.unit(t.kind);
            tt.transport_capacity > 0
                && super::politics::shares(rules, s, power, t.owner)
                && t.marks.unloaded.is_none()
                && (combat || t.owner != power || !(t.marks.combat_moved || t.marks.fought))
        })
        .map(|t| {
            let used: u32 = s
                .space(zone)
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
    if !room.is_empty() {
        return Ok(room);
    }
    let idle = s
        .space(zone)
        .units
        .iter()
        .any(|t| rules.unit(t.kind).transport_capacity > 0 && t.owner == power);
    Err(reject(
        if idle { RULE_NCM_AFTER_COMBAT } else { RULE_LOAD },
        if idle {
            format!(
                "the transports in {} moved or fought in the combat phases and cannot load now",
                b.name(zone)
            )
        } else {
            format!("there is no friendly transport in {} to board", b.name(zone))
        },
    ))
}

/// Which transport each unit boards: (unit id, transport id). Own transports first, fullest
/// first, so loads fill transports instead of spreading; the biggest units find places first.
fn assign_places(
    b: &Board,
    m: &Move,
    ids: &[u32],
    mut room: Vec<(u32, u32, bool)>,
) -> Result<Vec<(u32, u32)>, Rejection> {
    let cost = |id: &u32| {
        b.rules
            .unit(unit(b.s, m.from, *id).kind)
            .transport_cost
            .unwrap_or(0)
    };
    room.sort_by_key(|(id, free, own)| (!*own, *free, *id));
    let mut order: Vec<u32> = ids.to_vec();
    order.sort_by_key(|id| std::cmp::Reverse(cost(id)));
    let mut assign: Vec<(u32, u32)> = Vec::new();
    for id in &order {
        let cost = cost(id);
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
    Ok(assign)
}

/// The units go aboard their transports: boarding spends their whole move, and the power's own
/// transports are marked as having loaded (in combat move, as having combat-moved).
fn board(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    m: &Move,
    ids: &[u32],
    assign: &[(u32, u32)],
    combat: bool,
) {
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
}

/// Land units offload from their transports in a sea zone into an adjacent territory: in combat
/// move an amphibious assault (waiting aboard while a sea battle is to be fought there), in
/// noncombat move into friendly territory.
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
    check_shore(&b, zone, target)?;
    let transports: Vec<u32> = ids.iter().filter_map(|id| unit(s, zone, *id).aboard).collect();
    check_transports_offload(&b, zone, target, &transports, combat)?;
    let assault = check_landing(&b, zone, target, combat)?;
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
        // Announced, an assault attacks a neutral territory even if a sea battle prevents
        // the landing (004 · Neutral Territories › Other).
        if crate::game::neutrals::unfriendly(rules, s, power, target) {
            crate::game::neutrals::attack(rules, s, target, power, out);
        }
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

/// A sea zone that became hostile in this combat move by the power's declaration of war, where
/// a transport of its has stayed since the turn began: it may load there (E40-DOW-TRANSPORT-LOAD:
/// "transports already in sea zones that just became hostile may load there").
fn just_hostile(b: &Board, zone: SpaceId) -> bool {
    let declared = &b.s.this_turn.declared.0;
    let now: Vec<PowerId> = declared
        .iter()
        .filter(|(_, phase)| *phase == b.s.phase)
        .map(|(p, _)| *p)
        .collect();
    if now.is_empty() {
        return false;
    }
    let units = &b.s.space(zone).units;
    let blockers_new = b
        .enemy_units(zone)
        .filter(|u| b.rules.unit(u.kind).blocks_movement)
        .all(|u| now.contains(&u.owner));
    let transport_stayed = units
        .iter()
        .any(|u| u.owner == b.power && u.moved == 0 && b.rules.unit(u.kind).transport_capacity > 0);
    blockers_new && transport_stayed
}

/// The territory offloaded into borders the sea zone, is not neutral and is within the
/// power's bounds.
fn check_shore(b: &Board, zone: SpaceId, target: SpaceId) -> Result<(), Rejection> {
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
    Ok(())
}

/// A transport offloads into one territory per turn, and in noncombat move only if it did
/// nothing in the combat phases.
fn check_transports_offload(
    b: &Board,
    zone: SpaceId,
    target: SpaceId,
    transports: &[u32],
    combat: bool,
) -> Result<(), Rejection> {
    for tid in transports {
        let t = unit(b.s, zone, *tid);
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
        if !combat && t.owner == b.power && (t.marks.combat_moved || t.marks.fought) {
            return Err(reject(
                RULE_NCM_AFTER_COMBAT,
                "a transport that loaded, moved, offloaded or fought in the combat phases cannot offload in noncombat move",
            ));
        }
    }
    Ok(())
}

/// Where the cargo may land: never on a power at peace; in combat move a hostile territory
/// (past enemy submarines and transports only with a warship of the power there), in
/// noncombat move a friendly one. `Ok(true)`: the assault waits for the sea battle in the zone.
fn check_landing(b: &Board, zone: SpaceId, target: SpaceId, combat: bool) -> Result<bool, Rejection> {
    if let Some(p) = b
        .peace_holder(target)
        .or_else(|| b.peace_units(target).filter(|_| combat))
    {
        return Err(b.peace(p));
    }
    if !combat {
        b.ends_friendly(target)?;
        return Ok(false);
    }
    if !b.hostile_territory(target) {
        return Err(reject(
            RULE_CM_END,
            format!(
                "combat moves end in a hostile space; offload into friendly {} in noncombat move",
                b.name(target)
            ),
        ));
    }
    if b.blocked(zone) || b.s.this_turn.battle(zone).is_some() {
        return Ok(true);
    }
    // Past ignored enemy submarines a warship of this power must be there by the end of combat
    // move (`combat_move_end::escorts_past_submarines`): moves are simultaneous.
    Ok(false)
}

/// Whether cargo waiting aboard in `zone` may come ashore: the zone is clear of enemy warships
/// and of air units scrambled to defend it.
pub fn zone_cleared(rules: &RuleSet, s: &State, power: PowerId, zone: SpaceId) -> bool {
    let b = Board { rules, s, power };
    !(b.blocked(zone)
        || b.enemy_units(zone)
            .any(|u| rules.unit(u.kind).domain == Domain::Air))
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
        // Not cleared: enemy warships, or air units scrambled to defend it, still there.
        if !zone_cleared(rules, s, power, z) {
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
        && (!b.blocked(zone) || just_hostile(&b, zone))
        && s.space(zone).units.iter().any(|t| {
            rules.unit(t.kind).transport_capacity > 0 && super::politics::shares(rules, s, power, t.owner)
        })
}
