//! A move along a path, over land, sea or air (every move that is not a loading or an
//! offloading): the group, its path, the landing its air units must show, the battles and raids
//! it declares, the territories it blitzes through, and the units (with their cargo) moving.

use super::air::{landing_place, landing_within, Landing};
use super::air_transport::{air_cargo_hint, air_drop, check_drop, AirDrop};
use super::paths::{blitz_goes_on, check_path, find_path, with_reach, Leg, PathPlan};
use super::raids::check_raid;
use super::{
    allied, describe, pair_up, reject, remaining, unit, Board, RULE_AIR_DEMONSTRATE, RULE_AIR_LANDING,
    RULE_AIR_TRANSPORT, RULE_ATTACK_VALUE, RULE_BLITZ, RULE_NO_FRIENDLY_ATTACK, RULE_RAID, RULE_RANGE,
    RULE_STOP_HOSTILE,
};
use crate::game::command::Move;
use crate::game::neutrals;
use crate::game::state::{State, Unit};
use crate::game::{control, Rejection};
use crate::rules::{Domain, PowerId, RuleSet, SpaceId, UnitType};

/// Move a group of units along a path: choose the group and its path, check the landing its
/// air units must show and the battles it starts, then blitz, move and record what the move
/// declared. Returns the path taken.
#[allow(clippy::too_many_arguments)]
pub(super) fn move_along_path(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    combat: bool,
    m: &Move,
    ids: &[u32],
    out: &mut Vec<String>,
    explain: bool,
) -> Result<Vec<SpaceId>, Rejection> {
    let b = Board { rules, s, power };
    take_off(&b, m.from, ids)?;
    let paired = pair_up(rules, s, m.from, ids);
    let blitz_on = combat && blitz_goes_on(rules, s, &b, m, ids, &paired)?;
    let drop = air_drop(rules, s, power, m.from, ids, &paired, combat);
    let rides = |id: &u32| drop.as_ref().is_some_and(|d| d.carries(*id));
    let group = moving_group(rules, s, m.from, ids, &paired, drop.as_ref());
    check_declared(&b, m, ids, combat, drop.as_ref())?;
    let raid_on = if m.bombing {
        let raiders: Vec<u32> = ids.iter().copied().filter(|id| !rides(id)).collect();
        super::raids::raid_target(rules, &b, m, &raiders)?
    } else {
        None
    };
    let leg = Leg {
        combat,
        ignore: m.ignore,
        raid: m.bombing,
        drop: drop.as_ref(),
    };
    let plan = choose_path(&b, m, ids, &group, &leg, explain)?;
    let steps = (plan.path.len() - 1) as u32;
    let end = m.to;
    let promise = check_air_landing(&b, m, ids, steps, combat)?;
    let escaping = combat && b.blocked(m.from);
    let battle = starts_battle(&b, m, ids, combat, drop.is_some());
    check_attack(&b, m, combat, blitz_on, &plan)?;
    check_attack_value(&b, m, ids, combat)?;
    // Apply. Entering an unfriendly neutral attacks it: it joins the other side and its army
    // stands there before anything else happens.
    if combat && !m.bombing {
        for sp in plan.blitzed.iter().chain(std::iter::once(&end)) {
            if neutrals::unfriendly(rules, s, power, *sp) {
                neutrals::attack(rules, s, *sp, power, out);
            }
        }
    }
    blitz_through(rules, s, power, m.from, blitz_on, &plan.blitzed, out);
    let cargo_text = drop
        .as_ref()
        .map(|d| format!(" ({} dropped from the air)", d.cargo))
        .unwrap_or_default();
    let carried = move_units(rules, s, power, m.from, end, ids, steps, combat, escaping);
    for u in s.space_mut(end).units.iter_mut().filter(|u| rides(&u.id)) {
        u.marks.dropped = true;
    }
    if blitz_on || !plan.blitzed.is_empty() {
        for u in s.space_mut(end).units.iter_mut() {
            if ids.contains(&u.id) && rules.unit(u.kind).domain == Domain::Land {
                u.marks.blitzed = true;
            }
        }
    }
    if battle && combat {
        let prev = plan.path[plan.path.len() - 2];
        note_way_back(rules, s, end, ids, prev);
    }
    if m.bombing {
        declare_raid(rules, s, end, ids, &rides, raid_on);
    }
    if let Some(z) = promise {
        promise_carrier(rules, s, z, out);
    }
    let route: Vec<&str> = plan
        .path
        .iter()
        .map(|p| rules.board.space(*p).name.as_str())
        .collect();
    out.push(format!(
        "{} moves {} {}{}{cargo_text}",
        rules.power_info(power).name,
        describe(rules, s, end, ids),
        route.join(" → "),
        if carried > 0 {
            format!(" (with {carried} aboard)")
        } else {
            String::new()
        }
    ));
    Ok(plan.path)
}

/// The units that find the path, each as the type it moves as with its movement left. Cargo
/// flies: its own movement and the land rules of the route do not apply to it.
fn moving_group<'a>(
    rules: &'a RuleSet,
    s: &State,
    from: SpaceId,
    ids: &[u32],
    paired: &'a [Option<(UnitType, u32)>],
    drop: Option<&AirDrop>,
) -> Vec<(&'a UnitType, u32)> {
    ids.iter()
        .zip(paired)
        .filter(|(id, _)| !drop.is_some_and(|d| d.carries(**id)))
        .map(|(id, p)| {
            let u = unit(s, from, *id);
            match p {
                Some((t, left)) => (t, *left),
                None => (
                    rules.unit_for(u.kind, &s.techs[u.owner.index()]),
                    remaining(rules, s, u),
                ),
            }
        })
        .collect()
}

/// What the command declares must fit the move: a bombing raid is a combat move of units that
/// bomb (not carrying cargo, unless their rules allow it); `ignoring` passes submarines and
/// transports at the end of a combat move at sea, never warships; and the destination is one
/// the power's units may enter.
/// Air units at sea take off from working decks only: with a damaged carrier that launches
/// nothing there (`disabled_when_damaged`), no more of them leave than its side's working
/// carriers there hold; the rest are trapped on it until it is repaired.
fn take_off(b: &Board, from: SpaceId, ids: &[u32]) -> Result<(), Rejection> {
    let here = &b.s.space(from).units;
    // Only a damaged carrier of the power's side holds its air units; an enemy's does not
    // keep aircraft that fought over the zone from flying on.
    if !b.is_sea(from)
        || !here.iter().any(|c| {
            c.damage > 0 && b.rules.unit(c.kind).disabled_when_damaged && allied(b.s, b.power, c.owner)
        })
    {
        return Ok(());
    }
    let cost = |u: &Unit| b.rules.unit(u.kind).carrier_cost.unwrap_or(1);
    // Aircraft that flew this turn are in the air, not on the deck: they fly on.
    let leaving: u32 = here
        .iter()
        .filter(|u| ids.contains(&u.id) && b.rules.unit(u.kind).domain == Domain::Air && u.moved == 0)
        .map(cost)
        .sum();
    if leaving == 0 {
        return Ok(());
    }
    let room: u32 = here
        .iter()
        .filter(|u| allied(b.s, b.power, u.owner))
        .map(|u| u.deck(b.rules))
        .sum();
    if leaving > room {
        return Err(reject(
            RULE_AIR_LANDING,
            format!(
                "the air units in {} are on a damaged carrier: none takes off or lands until it is repaired",
                b.name(from)
            ),
        ));
    }
    Ok(())
}

fn check_declared(
    b: &Board,
    m: &Move,
    ids: &[u32],
    combat: bool,
    drop: Option<&AirDrop>,
) -> Result<(), Rejection> {
    if m.bombing {
        if !combat {
            return Err(reject(RULE_RAID, "bombing raids are combat moves"));
        }
        if let Some(d) = drop.filter(|d| !d.raid) {
            return Err(reject(
                RULE_AIR_TRANSPORT,
                format!(
                    "{} carrying {} makes no bombing raid in a turn it carries: raid without the cargo, or drop it without `bombing`",
                    d.carriers, d.cargo
                ),
            ));
        }
        let raiders: Vec<u32> = ids
            .iter()
            .copied()
            .filter(|id| !drop.is_some_and(|d| d.carries(*id)))
            .collect();
        check_raid(b.rules, b, m, &raiders)?;
    }
    if m.ignore && !(combat && b.is_sea(m.to)) {
        return Err(Rejection::new(
            "`ignoring` applies to combat moves into sea zones",
        ));
    }
    if m.ignore && b.blocked(m.to) {
        return Err(reject(
            RULE_STOP_HOSTILE,
            format!(
                "only submarines and transports can be ignored; {} holds enemy warships",
                b.name(m.to)
            ),
        ));
    }
    if b.off_limits(m.to) {
        return Err(b.confined(m.to));
    }
    Ok(())
}

/// The path the group takes: the best one found, or the one given with `via`, checked for each
/// unit type. A refusal says why land units did not fly with the move's air units and, for
/// want of a path, where the group can go instead.
fn choose_path(
    b: &Board,
    m: &Move,
    ids: &[u32],
    group: &[(&UnitType, u32)],
    leg: &Leg,
    explain: bool,
) -> Result<PathPlan, Rejection> {
    // Land units that could not fly with the air units of the move: say why.
    let hinted = |mut e: Rejection| {
        if let Some(h) = air_cargo_hint(b.rules, b.s, b.power, m, ids, leg.drop, leg.combat) {
            e.message.push_str(&format!("; {h}"));
        }
        e
    };
    if m.via.is_empty() {
        return find_path(b, group, m.from, m.to, leg)
            .map_err(|e| with_reach(b, group, m.from, leg, hinted(e), explain));
    }
    let mut path = vec![m.from];
    path.extend(&m.via);
    path.push(m.to);
    let mut blitzed: Vec<SpaceId> = Vec::new();
    for (t, left) in group {
        let bl = check_path(b, t, *left, &path, leg).map_err(|e| {
            if e.rule.as_deref() == Some(RULE_RANGE) {
                with_reach(b, group, m.from, leg, hinted(e), explain)
            } else {
                hinted(e)
            }
        })?;
        if bl.len() > blitzed.len() {
            blitzed = bl;
        }
    }
    if let Some(d) = leg.drop {
        check_drop(b, d, &path, leg.combat)?;
    }
    Ok(PathPlan { path, blitzed })
}

/// Air units must be able to land after the move. In combat move, each must show a landing
/// place within its movement left (the sea zone where a carrier bought this turn must then be
/// mobilized, if only such a carrier will do, is returned); in noncombat move, the move ends
/// where it may land.
fn check_air_landing(
    b: &Board,
    m: &Move,
    ids: &[u32],
    steps: u32,
    combat: bool,
) -> Result<Option<SpaceId>, Rejection> {
    let (rules, s, end) = (b.rules, b.s, m.to);
    let mut promise = None;
    if combat {
        for id in ids {
            let u = unit(s, m.from, *id);
            let t = rules.unit(u.kind);
            if t.domain != Domain::Air {
                continue;
            }
            let left = remaining(rules, s, u) - steps;
            match landing_within(b, t, end, left) {
                Some(Landing::Now) => {}
                Some(Landing::NewCarrier(z)) => promise = Some(z),
                None => {
                    return Err(reject(
                        RULE_AIR_DEMONSTRATE,
                        format!(
                            "{} would have {left} movement left in {} and no safe landing place within reach",
                            t.name,
                            b.name(end)
                        ),
                    ))
                }
            }
        }
    } else {
        for id in ids {
            let u = unit(s, m.from, *id);
            let t = rules.unit(u.kind);
            if t.domain == Domain::Air && !landing_place(b, t, end, true) {
                return Err(reject(
                    RULE_AIR_LANDING,
                    format!(
                        "{} cannot land in {}: air units land in territories friendly since the start of the turn{}",
                        t.name,
                        b.name(end),
                        if t.carrier_cost.is_some() {
                            ", or where a carrier with room is or will be"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
    }
    Ok(promise)
}

/// The combat move starts a battle where it ends: at sea against enemy units not ignored (by
/// something that can attack, or past warships), on land in a hostile or enemy-held territory
/// (not by a bombing raid alone: cargo dropped into a raided territory attacks it while its
/// carrier raids).
fn starts_battle(b: &Board, m: &Move, ids: &[u32], combat: bool, dropping: bool) -> bool {
    let end = m.to;
    let mut sea_battle = false;
    if combat && b.is_sea(end) && b.has_enemies(end) && !m.ignore {
        // Transports alone cannot attack; anything with an attack value starts the battle.
        sea_battle = ids
            .iter()
            .any(|id| b.rules.unit(unit(b.s, m.from, *id).kind).attack > 0)
            || b.blocked(end);
    }
    let land_battle = combat
        && (!m.bombing || dropping)
        && !b.is_sea(end)
        && (b.hostile_territory(end) || b.has_enemies(end));
    sea_battle || land_battle
}

/// Units with no attack value (transports, a 1940 carrier) attack enemy warships only along
/// with a unit that has one: moved there already, or in the same command.
fn check_attack_value(b: &Board, m: &Move, ids: &[u32], combat: bool) -> Result<(), Rejection> {
    let end = m.to;
    if !combat || !b.is_sea(end) || m.ignore || !b.blocked(end) {
        return Ok(());
    }
    let attacks = |k: crate::rules::UnitTypeId| b.rules.unit(k).attack > 0;
    let moving = ids.iter().any(|id| attacks(unit(b.s, m.from, *id).kind));
    let there =
        b.s.space(end)
            .units
            .iter()
            .any(|u| u.owner == b.power && u.aboard.is_none() && attacks(u.kind));
    if moving || there {
        return Ok(());
    }
    Err(reject(
        RULE_ATTACK_VALUE,
        format!(
            "{}: no attack value; they attack {} only along with a unit that has one (move it there first)",
            describe(b.rules, b.s, m.from, ids),
            b.name(end)
        ),
    ))
}

/// No attack on enemy units in a territory of another power of the side, and a blitz passes
/// one empty enemy territory only, in one command or two.
fn check_attack(b: &Board, m: &Move, combat: bool, blitz_on: bool, plan: &PathPlan) -> Result<(), Rejection> {
    let end = m.to;
    if combat
        && !b.is_sea(end)
        && b.s
            .space(end)
            .controller
            .is_some_and(|c| allied(b.s, b.power, c) && c != b.power)
        && b.has_enemies(end)
    {
        return Err(reject(
            RULE_NO_FRIENDLY_ATTACK,
            "that territory is held by your side",
        ));
    }
    if blitz_on && !plan.blitzed.is_empty() {
        return Err(reject(
            RULE_BLITZ,
            format!(
                "a blitz passes one empty enemy territory; these units already went through {}",
                b.name(m.from)
            ),
        ));
    }
    Ok(())
}

/// Capture the empty enemy territories blitzed: the one the units go on from (taken on the
/// way, so no battle is left there) and those the path passes.
fn blitz_through(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    from: SpaceId,
    goes_on: bool,
    blitzed: &[SpaceId],
    out: &mut Vec<String>,
) {
    if goes_on {
        out.push(format!("blitz through {}", rules.board.space(from).name));
        control::capture(rules, s, from, power, out);
        // Taken on the way: no battle is left there.
        s.this_turn.battles.retain(|bt| bt.space != from);
    }
    for space in blitzed {
        out.push(format!("blitz through {}", rules.board.space(*space).name));
        control::capture(rules, s, *space, power, out);
    }
}

/// Retreats go where an attacking land or sea unit came from; an aircraft's route (over an
/// empty enemy territory, say) is no way back, but land units it dropped came its way.
fn note_way_back(rules: &RuleSet, s: &mut State, end: SpaceId, ids: &[u32], prev: SpaceId) {
    let surface = ids.iter().any(|id| {
        s.space(end)
            .units
            .iter()
            .any(|u| u.id == *id && rules.unit(u.kind).domain != Domain::Air)
    });
    let battle = s.this_turn.battle_mut(end);
    if surface && !battle.entered_from.contains(&prev) {
        battle.entered_from.push(prev);
    }
}

/// The units that moved (not the cargo they dropped) bomb the territory: a raid there.
fn declare_raid(
    rules: &RuleSet,
    s: &mut State,
    end: SpaceId,
    ids: &[u32],
    rides: &impl Fn(&u32) -> bool,
    target: Option<crate::rules::FacilityTypeId>,
) {
    for u in s
        .space_mut(end)
        .units
        .iter_mut()
        .filter(|u| ids.contains(&u.id) && !rides(&u.id))
    {
        u.marks.bombing = true;
        // Escorts bomb nothing.
        if rules.unit(u.kind).bombing_dice > 0 {
            u.marks.raid_target = target;
        }
    }
    if !s.this_turn.raids.iter().any(|(r, _)| *r == end) {
        s.this_turn.raids.push((end, false));
    }
}

/// Fighters count on a carrier bought this turn: it is promised to this sea zone.
fn promise_carrier(rules: &RuleSet, s: &mut State, zone: SpaceId, out: &mut Vec<String>) {
    if !s.this_turn.carrier_promises.contains(&zone) {
        s.this_turn.carrier_promises.push(zone);
        out.push(format!(
            "a carrier bought this turn must be mobilized in {} for the fighters to land",
            rules.board.space(zone).name
        ));
    }
}

/// Move units (with their cargo, and allied fighters riding a carrier) between spaces.
/// Returns how many units rode along.
#[allow(clippy::too_many_arguments)]
fn move_units(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    from: SpaceId,
    to: SpaceId,
    ids: &[u32],
    steps: u32,
    combat: bool,
    escaping: bool,
) -> usize {
    // Allied fighters on a moving carrier are its cargo.
    let mut riders: Vec<(u32, u32)> = Vec::new();
    {
        let units = &s.space(from).units;
        for id in ids {
            let carrier = units.iter().find(|u| u.id == *id).expect("picked");
            let cap = rules.unit(carrier.kind).carrier_capacity;
            if cap == 0 {
                continue;
            }
            let mut used = 0;
            let guests: Vec<&Unit> = units
                .iter()
                .filter(|g| {
                    g.owner != power
                        && allied(s, power, g.owner)
                        && (g.aboard == Some(*id) || g.aboard.is_none())
                        && rules.unit(g.kind).carrier_cost.is_some()
                        && !riders.iter().any(|(r, _)| *r == g.id)
                })
                .collect();
            for g in guests {
                let c = rules.unit(g.kind).carrier_cost.unwrap_or(0);
                if used + c <= cap {
                    used += c;
                    riders.push((g.id, *id));
                }
            }
        }
    }
    let src = &mut s.space_mut(from).units;
    let mut moving = Vec::new();
    let mut i = 0;
    let mut carried = 0;
    while i < src.len() {
        let u = &src[i];
        let picked = ids.contains(&u.id);
        let cargo = u.aboard.is_some_and(|a| ids.contains(&a)) && !picked;
        let rider = riders.iter().find(|(r, _)| *r == u.id).map(|(_, c)| *c);
        if picked || cargo || rider.is_some() {
            let mut u = src.remove(i);
            if picked {
                u.moved += steps;
                u.marks.combat_moved |= combat;
                u.marks.escaped |= escaping;
                // Own air units take off: they are nobody's cargo any more.
                u.aboard = None;
            } else {
                carried += 1;
                if let Some(c) = rider {
                    u.aboard = Some(c);
                }
            }
            moving.push(u);
        } else {
            i += 1;
        }
    }
    s.space_mut(to).units.extend(moving);
    carried
}
