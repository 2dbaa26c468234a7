//! Scramble (the 1940 games): when an attacker's combat move is over, fighters and tactical
//! bombers (`scramble = true`) standing in a territory with an operative air base
//! (`scramble_limit`) may rise to defend the sea zones next to it that are attacked, or from
//! which an amphibious assault comes. The defender decides at the start of the attacker's
//! Conduct Combat, before the first battle (`scramble 2 fighter from "United Kingdom" to
//! "SZ 110"`): after that the attacker's moves stand. Scrambled units defend there like any
//! other, fight no other battle, and fly home as Conduct Combat ends, before the attacker's
//! noncombat move; a home lost meanwhile sends them one space to a friendly territory, or they
//! are lost.

use super::state::{Relation, State, Unit};
use super::Rejection;
use crate::rules::{Domain, PhaseKind, PowerId, RuleSet, SpaceId, UnitTypeId};

/// Refusal rule id.
pub const RULE_SCRAMBLE: &str = "scramble";

fn reject(msg: impl Into<String>) -> Rejection {
    Rejection::new(msg).by(RULE_SCRAMBLE)
}

fn at_war(s: &State, a: PowerId, b: PowerId) -> bool {
    s.relations[a.index()][b.index()] == Relation::War
}

fn allied(s: &State, a: PowerId, b: PowerId) -> bool {
    a == b || s.relations[a.index()][b.index()] == Relation::Allied
}

/// How many air units may rise from this territory (its operative facilities' best
/// `scramble_limit`; 0: none).
fn limit(rules: &RuleSet, s: &State, t: SpaceId) -> u32 {
    s.space(t)
        .facilities
        .iter()
        .filter(|f| rules.facilities[f.kind.index()].operative(f.damage))
        .map(|f| rules.facilities[f.kind.index()].scramble_limit)
        .max()
        .unwrap_or(0)
}

/// The defenders decide their scrambles and interceptions now: the attacker's combat move is
/// over (its Conduct Combat has begun) and its battles have not begun (no battle or raid
/// ordered yet: once one is, what `battles_begin` asks, Japan's kamikazes, comes after the
/// scrambles).
pub(super) fn defenders_decide(s: &State, phase: PhaseKind) -> bool {
    phase == PhaseKind::ConductCombat
        && s.combat.is_none()
        && !s.this_turn.battles_begun.0
        && s.this_turn.battles.iter().all(|b| !b.fought)
        && s.this_turn.raids.iter().all(|(_, fought)| !fought)
}

/// Scrambles may be given now.
pub fn open(rules: &RuleSet, s: &State, phase: PhaseKind) -> bool {
    defenders_decide(s, phase) && rules.units.iter().any(|u| u.scramble)
}

/// The sea zones under attack this turn: those with a battle, and those an amphibious assault
/// comes from.
fn attacked_zones(rules: &RuleSet, s: &State) -> Vec<SpaceId> {
    let mut z: Vec<SpaceId> = s
        .this_turn
        .battles
        .iter()
        .flat_map(|b| std::iter::once(b.space).chain(b.amphibious_from.iter().copied()))
        .filter(|sp| rules.board.space(*sp).is_sea())
        .collect();
    z.sort();
    z.dedup();
    z
}

/// Units already scrambled from a territory this turn.
fn scrambled_from(s: &State, t: SpaceId) -> u32 {
    s.spaces
        .iter()
        .flat_map(|sp| sp.units.iter())
        .filter(|u| u.marks.scrambled_from == Some(t))
        .count() as u32
}

/// `scramble COUNT UNIT from TERRITORY to SEA ZONE`, for the attacker `attacker` (the power
/// whose turn it is): the units rise and stand in the zone, marked to fly home.
#[allow(clippy::too_many_arguments)]
pub fn scramble(
    rules: &RuleSet,
    s: &mut State,
    attacker: PowerId,
    phase: PhaseKind,
    (count, kind, whose): (u32, UnitTypeId, Option<PowerId>),
    from: SpaceId,
    to: SpaceId,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let (fname, tname) = (&rules.board.space(from).name, &rules.board.space(to).name);
    let t = rules.unit(kind);
    if !open(rules, s, phase) {
        return Err(reject(
            "air units scramble when the attacker's combat move is over: at the start of its Conduct Combat, before its first battle is ordered",
        ));
    }
    if !t.scramble {
        return Err(reject(format!(
            "a {} does not scramble (fighters and tactical bombers do)",
            t.name
        )));
    }
    if !attacked_zones(rules, s).contains(&to) {
        return Err(reject(format!(
            "{tname} is not attacked this turn: air units scramble to a sea zone with a battle, or one an amphibious assault comes from"
        )));
    }
    if !rules.board.space(from).adjacent.contains(&to) {
        return Err(reject(format!("{fname} does not border {tname}")));
    }
    let Some(holder) = s.space(from).controller.filter(|c| at_war(s, attacker, *c)) else {
        return Err(reject(format!(
            "{fname} is not held by a power at war with the attacker"
        )));
    };
    let cap = limit(rules, s, from);
    if cap == 0 {
        return Err(reject(format!(
            "{fname} has no operative air base: air units scramble only from one"
        )));
    }
    let used = scrambled_from(s, from);
    if used + count > cap {
        return Err(reject(format!(
            "at most {cap} air units scramble from {fname}; {used} have, {count} more would be too many"
        )));
    }
    let ids: Vec<u32> = s
        .space(from)
        .units
        .iter()
        .filter(|u| {
            u.kind == kind
                && whose.is_none_or(|w| u.owner == w)
                && at_war(s, attacker, u.owner)
                && allied(s, u.owner, holder)
                && u.marks.scrambled_from.is_none()
                // A power whose units stay within some spaces (`confined_to`) scrambles none out.
                && rules.power_info(u.owner).may_enter(to)
        })
        .map(|u| u.id)
        .take(count as usize)
        .collect();
    if (ids.len() as u32) < count {
        return Err(reject(format!(
            "{fname} has {} {}{} that may scramble, not {count}",
            ids.len(),
            t.name,
            whose.map_or(String::new(), |w| format!(" of {}", rules.power_info(w).name))
        )));
    }
    let mut rising = s.take_units(from, |u| ids.contains(&u.id));
    for u in &mut rising {
        u.marks.scrambled_from = Some(from);
    }
    let owner = rising[0].owner;
    s.space_mut(to).units.extend(rising);
    out.push(format!(
        "{} scrambles {count} {} from {fname} to {tname}",
        rules.power_info(owner).name,
        t.name
    ));
    // A zone an assault comes from, with no battle yet: the attacker's ships there now fight.
    if s.this_turn.battle(to).is_none() {
        s.this_turn.battle_mut(to);
        note_ways_back(rules, s, attacker, to);
        cargo_back_aboard(rules, s, attacker, to, out);
    }
    Ok(())
}

/// Where the attacker's ships in a zone that only now has a battle may retreat to: a zone they
/// moved in from. Their moves ignored the zone's submarines and recorded no battle, so the way
/// in is read from where each ship began the turn: that zone when it borders this one, else
/// the zones bordering both (a ship that sailed two zones came through one of them).
fn note_ways_back(rules: &RuleSet, s: &mut State, attacker: PowerId, zone: SpaceId) {
    let ships: Vec<u32> = s
        .space(zone)
        .units
        .iter()
        .filter(|u| u.owner == attacker && u.marks.combat_moved && rules.unit(u.kind).domain == Domain::Sea)
        .map(|u| u.id)
        .collect();
    let here = &rules.board.space(zone).adjacent;
    let mut ways: Vec<SpaceId> = Vec::new();
    for start in super::unit_facts::started(s, &ships).into_iter().flatten() {
        if start == zone {
            continue;
        }
        if here.contains(&start) {
            ways.push(start);
        } else {
            let from = &rules.board.space(start).adjacent;
            ways.extend(
                here.iter()
                    .copied()
                    .filter(|b| from.contains(b) && rules.board.space(*b).is_sea()),
            );
        }
    }
    let battle = s.this_turn.battle_mut(zone);
    for w in ways {
        if !battle.entered_from.contains(&w) {
            battle.entered_from.push(w);
        }
    }
}

/// Cargo already put ashore from this zone (past submarines it ignored) goes back aboard its
/// transports: the assault now waits for the sea battle the scramble brought on, and comes
/// ashore only if the zone is cleared (000 · Amphibious Assault Sequence, step 3).
fn cargo_back_aboard(
    rules: &RuleSet,
    s: &mut State,
    attacker: PowerId,
    zone: SpaceId,
    out: &mut Vec<String>,
) {
    let targets: Vec<SpaceId> = s
        .this_turn
        .battles
        .iter()
        .filter(|b| b.amphibious_from.contains(&zone))
        .map(|b| b.space)
        .collect();
    for target in targets {
        let mut room: Vec<(u32, u32)> = s
            .space(zone)
            .units
            .iter()
            // Its own transports that offloaded there, and its allies' (an ally's transport is not
            // marked by the attacker's offload: any with room may have carried it).
            .filter(|t| {
                (t.owner == attacker && t.marks.unloaded == Some(target))
                    || (t.owner != attacker
                        && rules.unit(t.kind).transport_capacity > 0
                        && super::politics::shares(rules, s, attacker, t.owner))
            })
            .map(|t| {
                let used: u32 = s
                    .space(zone)
                    .units
                    .iter()
                    .filter(|c| c.aboard == Some(t.id))
                    .filter_map(|c| rules.unit(c.kind).transport_cost)
                    .sum();
                (t.id, rules.unit(t.kind).transport_capacity.saturating_sub(used))
            })
            .collect();
        if room.is_empty() {
            continue;
        }
        // The attacker's own transports first: the cargo came from them if it could have.
        let own: Vec<u32> = s
            .space(zone)
            .units
            .iter()
            .filter(|t| t.owner == attacker)
            .map(|t| t.id)
            .collect();
        room.sort_by_key(|(id, _)| !own.contains(id));
        let mut ashore: Vec<(u32, u32)> = s
            .space(target)
            .units
            .iter()
            .filter(|u| {
                u.owner == attacker
                    && u.marks.unloaded == Some(target)
                    && u.aboard.is_none()
                    && rules.unit(u.kind).domain == Domain::Land
            })
            .map(|u| (u.id, rules.unit(u.kind).transport_cost.unwrap_or(0)))
            .collect();
        ashore.sort_by_key(|(id, cost)| (std::cmp::Reverse(*cost), *id));
        let mut places: Vec<(u32, u32)> = Vec::new();
        for (id, cost) in ashore {
            if let Some(slot) = room.iter_mut().find(|(_, free)| *free >= cost) {
                slot.1 -= cost;
                places.push((id, slot.0));
            }
        }
        if places.is_empty() {
            continue;
        }
        let mut back = s.take_units(target, |u| places.iter().any(|(id, _)| *id == u.id));
        for u in &mut back {
            u.aboard = places.iter().find(|(id, _)| *id == u.id).map(|(_, t)| *t);
            u.marks.assault = Some(target);
            u.marks.unloaded = None;
        }
        out.push(format!(
            "{} unit(s) bound for {} wait aboard in {}: the assault comes ashore only if the sea zone is cleared",
            back.len(),
            rules.board.space(target).name,
            rules.board.space(zone).name
        ));
        s.space_mut(zone).units.extend(back);
    }
}

/// What the defenders may scramble now, one line per territory and zone (the REPL's hint).
pub fn options(rules: &RuleSet, s: &State, attacker: PowerId, phase: PhaseKind) -> Vec<String> {
    if !open(rules, s, phase) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let zones = attacked_zones(rules, s);
    for t in rules.board.ids() {
        let cap = limit(rules, s, t);
        let Some(holder) = s.space(t).controller else {
            continue;
        };
        if cap == 0 || !at_war(s, attacker, holder) {
            continue;
        }
        let near: Vec<SpaceId> = zones
            .iter()
            .copied()
            .filter(|z| rules.board.space(t).adjacent.contains(z))
            .collect();
        let ready: Vec<&super::state::Unit> = s
            .space(t)
            .units
            .iter()
            .filter(|u| {
                rules.unit(u.kind).scramble
                    && at_war(s, attacker, u.owner)
                    && u.marks.scrambled_from.is_none()
                    && near.iter().any(|z| rules.power_info(u.owner).may_enter(*z))
            })
            .collect();
        if near.is_empty() || ready.is_empty() {
            continue;
        }
        let left = cap.saturating_sub(scrambled_from(s, t)).min(ready.len() as u32);
        if left == 0 {
            continue;
        }
        let names: Vec<&str> = near.iter().map(|z| rules.board.space(*z).name.as_str()).collect();
        out.push(format!(
            "scramble: up to {left} air unit(s) may rise from {} to {} (`scramble 1 {} from \"{}\" to \"{}\"`), before the first battle",
            rules.board.space(t).name,
            names.join(" or "),
            rules.unit(ready[0].kind).id,
            rules.board.space(t).name,
            names[0]
        ));
    }
    out
}

/// A friendly territory of `owner`'s side.
fn friendly_land(rules: &RuleSet, s: &State, owner: PowerId, t: SpaceId) -> bool {
    !rules.board.space(t).is_sea() && s.space(t).controller.is_some_and(|c| allied(s, owner, c))
}

/// The carriers of `u`'s side in `zone` have room for it besides the air units there.
fn carrier_room(rules: &RuleSet, s: &State, u: &Unit, zone: SpaceId) -> bool {
    let units = &s.space(zone).units;
    let room: u32 = units
        .iter()
        .filter(|c| allied(s, u.owner, c.owner))
        .map(|c| c.deck(rules))
        .sum();
    let used: u32 = units
        .iter()
        .filter(|a| a.id != u.id && allied(s, u.owner, a.owner) && rules.unit(a.kind).domain == Domain::Air)
        .filter_map(|a| rules.unit(a.kind).carrier_cost)
        .sum();
    room >= used + rules.unit(u.kind).carrier_cost.unwrap_or(u32::MAX / 2)
}

/// Where an air unit in `at` whose base is lost may land, one space away at most: the
/// territories its side holds next to `at`, then a carrier of its side with room in `at`
/// itself, then carriers with room in the sea zones next to it. Its owner chooses.
fn landing_places(rules: &RuleSet, s: &State, u: &Unit, at: SpaceId) -> Vec<SpaceId> {
    let around = &rules.board.space(at).adjacent;
    let mut out: Vec<SpaceId> = around
        .iter()
        .copied()
        .filter(|t| friendly_land(rules, s, u.owner, *t))
        .collect();
    if carrier_room(rules, s, u, at) {
        out.push(at);
    }
    out.extend(
        around
            .iter()
            .copied()
            .filter(|z| rules.board.space(*z).is_sea() && carrier_room(rules, s, u, *z)),
    );
    out
}

/// The key of the engine's question "where does this air unit land?".
pub(super) const LANDING: &str = "landing:";

/// An air unit with several places to land: its owner is asked (the unit waits where it is).
pub(crate) fn ask_landing(
    rules: &RuleSet,
    s: &mut State,
    u: &Unit,
    why: String,
    places: &[SpaceId],
    out: &mut Vec<String>,
) {
    let q = super::state::Question {
        power: u.owner,
        by: "engine".into(),
        key: format!("{LANDING}{}", u.id),
        text: format!("{why}: where does it land?"),
        answers: places
            .iter()
            .map(|p| rules.board.space(*p).name.clone())
            .collect(),
    };
    out.push(format!("asks {}", super::questions::prompt(rules, &q)));
    s.questions.0.push(q);
}

/// `answer PLACE` to the landing question about unit `id`: it lands there (a carrier there
/// must still have room).
pub(super) fn land_answered(
    rules: &RuleSet,
    s: &mut State,
    id: u32,
    place: &str,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let Some(to) = rules.board.find(place) else {
        return Err(reject(format!("no space `{place}`")));
    };
    let Some((at, u)) = rules.board.ids().find_map(|sp| {
        s.space(sp)
            .units
            .iter()
            .find(|u| u.id == id)
            .map(|u| (sp, u.clone()))
    }) else {
        return Err(reject("that air unit is no longer on the board"));
    };
    if rules.board.space(to).is_sea() && !carrier_room(rules, s, &u, to) {
        return Err(reject(format!(
            "the carriers in {place} have no room left for it; answer another place"
        )));
    }
    let mut taken = s.take_units(at, |x| x.id == id);
    for x in &mut taken {
        x.marks.scrambled_from = None;
        x.marks.intercepting = false;
        x.aboard = None;
    }
    s.space_mut(to).units.extend(taken);
    out.push(format!(
        "the {} of {} lands in {place}",
        rules.unit(u.kind).name,
        rules.power_info(u.owner).name
    ));
    Ok(())
}

/// Conduct Combat ends: scrambled air units fly home, or, home lost, one space to a territory
/// their side holds or a carrier of their side with room (in the zone, or next to it), their
/// owner choosing where when there is more than one, or are lost.
pub fn fly_home(rules: &RuleSet, s: &mut State, out: &mut Vec<String>) {
    land_interceptors(rules, s, out);
    for z in rules.board.ids().filter(|z| rules.board.space(*z).is_sea()) {
        let back: Vec<Unit> = s
            .space(z)
            .units
            .iter()
            .filter(|u| u.marks.scrambled_from.is_some())
            .cloned()
            .collect();
        for u in back {
            let home = u.marks.scrambled_from.expect("scrambled");
            let (name, whom) = (&rules.unit(u.kind).name, &rules.power_info(u.owner).name);
            let places = if friendly_land(rules, s, u.owner, home) {
                vec![home]
            } else {
                landing_places(rules, s, &u, z)
            };
            if places.len() > 1 {
                let why = format!(
                    "the scrambled {name} of {whom} in {} cannot return to {}, now the enemy's",
                    rules.board.space(z).name,
                    rules.board.space(home).name
                );
                ask_landing(rules, s, &u, why, &places, out);
                continue;
            }
            let mut taken = s.take_units(z, |x| x.id == u.id);
            let Some(&t) = places.first() else {
                out.push(format!(
                    "the scrambled {name} of {whom} has nowhere to land and is lost"
                ));
                continue;
            };
            for x in &mut taken {
                x.marks.scrambled_from = None;
            }
            s.space_mut(t).units.extend(taken);
            out.push(if t == z {
                format!(
                    "the scrambled {name} of {whom} lands on a carrier in {}",
                    rules.board.space(z).name
                )
            } else {
                format!(
                    "the scrambled {name} of {whom} flies back from {} to {}",
                    rules.board.space(z).name,
                    rules.board.space(t).name
                )
            });
        }
    }
}

/// Interceptors whose territory was taken while they were in the air land one space away: a
/// territory their side holds, else a carrier of their side with room in a sea zone next to
/// it, else they are lost. The others stay where they are, their interception done.
fn land_interceptors(rules: &RuleSet, s: &mut State, out: &mut Vec<String>) {
    for t in rules.board.ids().filter(|t| !rules.board.space(*t).is_sea()) {
        let lost_home: Vec<Unit> = s
            .space(t)
            .units
            .iter()
            .filter(|u| u.marks.intercepting && !s.space(t).controller.is_some_and(|c| allied(s, u.owner, c)))
            .cloned()
            .collect();
        for u in lost_home {
            let places = landing_places(rules, s, &u, t);
            let (name, whom) = (&rules.unit(u.kind).name, &rules.power_info(u.owner).name);
            if places.len() > 1 {
                let why = format!(
                    "the intercepting {name} of {whom}, its territory {} taken",
                    rules.board.space(t).name
                );
                ask_landing(rules, s, &u, why, &places, out);
                continue;
            }
            let land = places.first().copied();
            let mut taken = s.take_units(t, |x| x.id == u.id);
            let Some(x) = land else {
                out.push(format!(
                    "the intercepting {name} of {whom}, its territory taken, has nowhere to land and is lost"
                ));
                continue;
            };
            for a in &mut taken {
                a.marks.intercepting = false;
            }
            s.space_mut(x).units.extend(taken);
            out.push(format!(
                "the intercepting {name} of {whom}, its territory taken, lands in {}",
                rules.board.space(x).name
            ));
        }
    }
}
