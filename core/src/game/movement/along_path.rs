//! A move along a path, over land, sea or air (every move that is not a loading or an
//! offloading): the group, its path, the landing its air units must show, the battles and raids
//! it declares, the territories it blitzes through, and the units (with their cargo) moving.

use super::air::{landing_place, landing_within, Landing};
use super::air_transport::{air_cargo_hint, air_drop, check_drop};
use super::paths::{blitz_goes_on, check_path, find_path, with_reach, Leg, PathPlan};
use super::raids::check_raid;
use super::{
    allied, describe, pair_up, reject, remaining, unit, Board, RULE_AIR_DEMONSTRATE, RULE_AIR_LANDING,
    RULE_AIR_TRANSPORT, RULE_BLITZ, RULE_NO_FRIENDLY_ATTACK, RULE_RAID, RULE_RANGE, RULE_STOP_HOSTILE,
};
use crate::game::command::Move;
use crate::game::state::{State, Unit};
use crate::game::{control, Rejection};
use crate::rules::{Domain, PowerId, RuleSet, SpaceId, UnitType};

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
    let paired = pair_up(rules, s, m.from, ids);
    let blitz_on = combat && blitz_goes_on(rules, s, &b, m, ids, &paired)?;
    let drop = air_drop(rules, s, power, m.from, ids, &paired, combat);
    let rides = |id: &u32| drop.as_ref().is_some_and(|d| d.carries(*id));
    // Cargo flies: its own movement and the land rules of the route do not apply to it.
    let group: Vec<(&UnitType, u32)> = ids
        .iter()
        .zip(&paired)
        .filter(|(id, _)| !rides(id))
        .map(|(id, p)| {
            let u = unit(s, m.from, *id);
            match p {
                Some((t, left)) => (t, *left),
                None => (
                    rules.unit_for(u.kind, &s.techs[u.owner.index()]),
                    remaining(rules, s, u),
                ),
            }
        })
        .collect();
    if m.bombing {
        if !combat {
            return Err(reject(RULE_RAID, "bombing raids are combat moves"));
        }
        if let Some(d) = drop.as_ref().filter(|d| !d.raid) {
            return Err(reject(
                RULE_AIR_TRANSPORT,
                format!(
                    "{} carrying {} makes no bombing raid in a turn it carries: raid without the cargo, or drop it without `bombing`",
                    d.carriers, d.cargo
                ),
            ));
        }
        let raiders: Vec<u32> = ids.iter().copied().filter(|id| !rides(id)).collect();
        check_raid(rules, &b, m, &raiders)?;
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
    let leg = Leg {
        combat,
        ignore: m.ignore,
        raid: m.bombing,
        drop: drop.as_ref(),
    };
    // Land units that could not fly with the air units of the move: say why.
    let hinted = |mut e: Rejection| {
        if let Some(h) = air_cargo_hint(rules, s, power, m, ids, drop.as_ref(), combat) {
            e.message.push_str(&format!("; {h}"));
        }
        e
    };
    let plan = if m.via.is_empty() {
        find_path(&b, &group, m.from, m.to, &leg)
            .map_err(|e| with_reach(&b, &group, m.from, &leg, hinted(e), explain))?
    } else {
        let mut path = vec![m.from];
        path.extend(&m.via);
        path.push(m.to);
        let mut blitzed: Vec<SpaceId> = Vec::new();
        for (t, left) in &group {
            let bl = check_path(&b, t, *left, &path, &leg).map_err(|e| {
                if e.rule.as_deref() == Some(RULE_RANGE) {
                    with_reach(&b, &group, m.from, &leg, hinted(e), explain)
                } else {
                    hinted(e)
                }
            })?;
            if bl.len() > blitzed.len() {
                blitzed = bl;
            }
        }
        if let Some(d) = &drop {
            check_drop(&b, d, &path, combat)?;
        }
        PathPlan { path, blitzed }
    };
    let steps = (plan.path.len() - 1) as u32;
    let end = m.to;
    // Air units in combat move must be able to reach a landing place afterwards.
    let mut promise = None;
    if combat {
        for id in ids {
            let u = unit(s, m.from, *id);
            let t = rules.unit(u.kind);
            if t.domain != Domain::Air {
                continue;
            }
            let left = remaining(rules, s, u) - steps;
            match landing_within(&b, t, end, left) {
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
            if t.domain == Domain::Air && !landing_place(&b, t, end, true) {
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
    let escaping = combat && b.blocked(m.from);
    let mut sea_battle = false;
    if combat && b.is_sea(end) && b.has_enemies(end) && !m.ignore {
        // Transports alone cannot attack; anything with an attack value starts the battle.
        sea_battle = ids
            .iter()
            .any(|id| rules.unit(unit(s, m.from, *id).kind).attack > 0)
            || b.blocked(end);
    }
    // Cargo dropped into a raided territory attacks it while its carrier raids.
    let land_battle = combat
        && (!m.bombing || drop.is_some())
        && !b.is_sea(end)
        && (b.hostile_territory(end) || b.has_enemies(end));
    if combat
        && !b.is_sea(end)
        && b.s
            .space(end)
            .controller
            .is_some_and(|c| allied(s, power, c) && c != power)
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
    // Apply.
    if blitz_on {
        out.push(format!("blitz through {}", rules.board.space(m.from).name));
        control::capture(rules, s, m.from, power, out);
        // Taken on the way: no battle is left there.
        s.this_turn.battles.retain(|bt| bt.space != m.from);
    }
    for space in &plan.blitzed {
        out.push(format!("blitz through {}", rules.board.space(*space).name));
        control::capture(rules, s, *space, power, out);
    }
    let cargo_text = drop
        .as_ref()
        .map(|d| format!(" ({} dropped from the air)", d.cargo))
        .unwrap_or_default();
    let carried = move_units(rules, s, power, m.from, end, ids, steps, combat, escaping);
    for u in s.space_mut(end).units.iter_mut().filter(|u| rides(&u.id)) {
        u.marks.dropped = true;
    }
    if (sea_battle || land_battle) && combat {
        // Retreats go where an attacking land or sea unit came from; an aircraft's route
        // (over an empty enemy territory, say) is no way back, but land units it dropped came
        // its way.
        let surface = ids.iter().any(|id| {
            s.space(end)
                .units
                .iter()
                .any(|u| u.id == *id && rules.unit(u.kind).domain != Domain::Air)
        });
        let prev = plan.path[plan.path.len() - 2];
        let battle = s.this_turn.battle_mut(end);
        if surface && !battle.entered_from.contains(&prev) {
            battle.entered_from.push(prev);
        }
    }
    if m.bombing {
        for u in s
            .space_mut(end)
            .units
            .iter_mut()
            .filter(|u| ids.contains(&u.id) && !rides(&u.id))
        {
            u.marks.bombing = true;
        }
        if !s.this_turn.raids.iter().any(|(r, _)| *r == end) {
            s.this_turn.raids.push((end, false));
        }
    }
    if let Some(z) = promise {
        if !s.this_turn.carrier_promises.contains(&z) {
            s.this_turn.carrier_promises.push(z);
            out.push(format!(
                "a carrier bought this turn must be mobilized in {} for the fighters to land",
                rules.board.space(z).name
            ));
        }
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
