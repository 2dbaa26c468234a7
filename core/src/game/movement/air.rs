//! Air units' landing: where an air unit may end its move (a territory friendly since the
//! start of the turn, a carrier with room, or one that can still get there), the landing
//! demonstration of combat move, carriers that must meet their fighters, defending fighters
//! stranded at sea, and air units lost with no place to land.

use super::paths::{reachable, Leg};
use super::{allied, reject, remaining, unit, Board, RULE_CARRIER_MEETS};
use crate::game::state::{State, Unit};
use crate::game::Rejection;
use crate::rules::{Domain, PowerId, RuleSet, SpaceId, UnitType};

pub(super) enum Landing {
    Now,
    /// Only on a carrier bought this turn, mobilized in this sea zone.
    NewCarrier(SpaceId),
}

/// Is `space` a place this air unit may end its noncombat move in? With `later`, a sea zone
/// counts when a carrier can still get there this turn (moved by its owner in noncombat move,
/// or bought and mobilized next to a factory).
pub(super) fn landing_place(b: &Board, t: &UnitType, space: SpaceId, later: bool) -> bool {
    if !b.is_sea(space) {
        return b.landing_ground(space) && !b.has_enemies(space);
    }
    let Some(cost) = t.carrier_cost else {
        return false;
    };
    if carrier_room(b, space) >= cost {
        return true;
    }
    later && (own_carrier_can_reach(b, space, true) || new_carrier_possible(b, space))
}

/// Room left on carriers of this power's side in a sea zone.
fn carrier_room(b: &Board, space: SpaceId) -> u32 {
    side_carrier_room(b, space, |_| true)
}

/// Capacity of the side's carriers in a zone less the carrier space of the side's air units
/// there that `occupy` counts.
fn side_carrier_room(b: &Board, space: SpaceId, occupy: impl Fn(&Unit) -> bool) -> u32 {
    let side: Vec<&Unit> =
        b.s.space(space)
            .units
            .iter()
            .filter(|u| b.shares(u.owner))
            .collect();
    let cap: u32 = side.iter().map(|u| u.deck(b.rules)).sum();
    let used: u32 = side
        .iter()
        .filter(|u| b.rules.unit(u.kind).domain == Domain::Air && occupy(u))
        .filter_map(|u| b.rules.unit(u.kind).carrier_cost)
        .sum();
    cap.saturating_sub(used)
}

/// Sea distance for a ship (canals as this power may use them). The combat-move landing
/// demonstration assumes every battle is won (`peaceful` false); a noncombat sailing avoids
/// zones with enemy warships (`peaceful` true).
fn sea_distance(b: &Board, from: SpaceId, to: SpaceId, limit: u32, peaceful: bool) -> Option<u32> {
    let mut seen = vec![from];
    let mut frontier = vec![from];
    for d in 0..=limit {
        if frontier.contains(&to) {
            return Some(d);
        }
        let mut next = Vec::new();
        for here in &frontier {
            for n in &b.rules.board.space(*here).adjacent {
                if b.is_sea(*n)
                    && !seen.contains(n)
                    && b.closed_canal(*here, *n, None).is_none()
                    && !(peaceful && b.blocked(*n))
                {
                    seen.push(*n);
                    next.push(*n);
                }
            }
        }
        frontier = next;
    }
    None
}

/// A carrier of this power elsewhere that has not moved in combat and could still sail here
/// (carriers already in `space` are counted by [`carrier_room`]).
fn own_carrier_can_reach(b: &Board, space: SpaceId, peaceful: bool) -> bool {
    b.rules
        .board
        .ids()
        .filter(|id| b.is_sea(*id) && *id != space)
        .any(|z| {
            b.s.space(z).units.iter().any(|u| {
                u.owner == b.power
                    && u.deck(b.rules) > 0
                    && !u.marks.combat_moved
                    && !u.marks.fought
                    && sea_distance(b, z, space, remaining(b.rules, b.s, u), peaceful).is_some()
            })
        })
}

/// A carrier bought this turn could be mobilized in this sea zone: it borders a factory the
/// power has held since the start of the turn, and a carrier bought is not already promised to
/// another zone (one carrier meets fighters in one place).
fn new_carrier_possible(b: &Board, space: SpaceId) -> bool {
    let bought: u32 = b
        .rules
        .economies(b.power)
        .into_iter()
        .flat_map(|e| b.s.purchased[e.index()].iter())
        .filter(|(p, _)| matches!(p, crate::rules::Piece::Unit(u) if b.rules.unit(*u).carrier_capacity > 0))
        .map(|(_, n)| *n)
        .sum();
    let promised_elsewhere =
        b.s.this_turn
            .carrier_promises
            .iter()
            .filter(|z| **z != space)
            .count();
    bought as usize > promised_elsewhere && factory_next_to(b, space)
}

fn factory_next_to(b: &Board, space: SpaceId) -> bool {
    b.rules.board.space(space).adjacent.iter().any(|t| {
        !b.is_sea(*t)
            && b.s
                .space(*t)
                .controller
                .is_some_and(|c| b.rules.same_power(c, b.power))
            && b.s.this_turn.start_control[t.index()] == b.s.space(*t).controller
            && b.s.space(*t).facilities.iter().any(|f| {
                let ft = &b.rules.facilities[f.kind.index()];
                ft.production.resolve(b.rules.board.space(*t).ipc) > 0
            })
    })
}

/// The landing demonstration of combat move: some landing place within `left` spaces.
pub(super) fn landing_within(b: &Board, t: &UnitType, from: SpaceId, left: u32) -> Option<Landing> {
    let mut seen = vec![from];
    let mut frontier = vec![from];
    let mut new_carrier = None;
    for d in 0..=left {
        for here in &frontier {
            if !b.is_sea(*here) {
                if b.friendly_at_start(*here) || b.landing_ground(*here) {
                    return Some(Landing::Now);
                }
            } else if let Some(cost) = t.carrier_cost {
                if carrier_room(b, *here) >= cost || own_carrier_can_reach(b, *here, false) {
                    return Some(Landing::Now);
                }
                if new_carrier.is_none() && new_carrier_possible(b, *here) {
                    new_carrier = Some(*here);
                }
            }
        }
        if d == left {
            break;
        }
        let mut next = Vec::new();
        for here in &frontier {
            for n in &b.rules.board.space(*here).adjacent {
                if !seen.contains(n) && !b.impassable(*n) && !b.off_limits(*n) {
                    seen.push(*n);
                    next.push(*n);
                }
            }
        }
        frontier = next;
    }
    new_carrier.map(Landing::NewCarrier)
}

/// Stranded defending fighters: after the moving power's battles, another power's air units at
/// sea with no carrier room left (their carrier was sunk) move one space to land — on a
/// territory their power's side holds or a carrier of that side with room — or are lost. This
/// happens before the moving power's noncombat moves. Their owner chooses where when there is
/// more than one place (an engine question); scrambled units fly by their own rule
/// (`scramble::fly_home`).
pub fn strand_defending_air(rules: &RuleSet, s: &mut State, mover: PowerId, out: &mut Vec<String>) {
    for z in rules.board.ids().filter(|z| rules.board.space(*z).is_sea()) {
        let owners: Vec<PowerId> = {
            let mut o: Vec<PowerId> = s
                .space(z)
                .units
                .iter()
                .filter(|u| u.owner != mover && rules.unit(u.kind).domain == Domain::Air)
                .map(|u| u.owner)
                .collect();
            o.sort();
            o.dedup();
            o
        };
        for owner in owners {
            for id in stranded_air(rules, s, z, owner) {
                let u = unit(s, z, id).clone();
                if u.marks.scrambled_from.is_some() {
                    continue;
                }
                let b = Board {
                    rules,
                    s,
                    power: owner,
                };
                let t = rules.unit(u.kind);
                let places = stranded_landings(&b, t, z);
                if places.len() > 1 {
                    let why = format!(
                        "the {} of {} in {}, its carrier gone",
                        t.name,
                        rules.power_info(owner).name,
                        rules.board.space(z).name
                    );
                    crate::game::scramble::ask_landing(rules, s, &u, why, &places, out);
                    continue;
                }
                let gone = s.remove_unit(z, id);
                let Some(mut u) = gone.into_iter().next() else {
                    continue;
                };
                match places.first().copied() {
                    Some(d) => {
                        out.push(format!(
                            "{} {} stranded in {} lands in {}",
                            rules.power_info(owner).name,
                            t.name,
                            rules.board.space(z).name,
                            rules.board.space(d).name
                        ));
                        u.aboard = None;
                        s.space_mut(d).units.push(u);
                    }
                    None => out.push(format!(
                        "{} {} stranded in {} has nowhere to land within one space and is lost",
                        rules.power_info(owner).name,
                        t.name,
                        rules.board.space(z).name
                    )),
                }
            }
        }
    }
}

/// Air units of this owner over the zone beyond what its side's carriers hold. Guests already
/// aboard keep their places; an air unit that cannot use a carrier at all is always stranded
/// at sea.
fn stranded_air(rules: &RuleSet, s: &State, z: SpaceId, owner: PowerId) -> Vec<u32> {
    let cap: u32 = s
        .space(z)
        .units
        .iter()
        .filter(|u| allied(s, owner, u.owner))
        .map(|u| u.deck(rules))
        .sum();
    let mut used: u32 = 0;
    let mut stranded: Vec<u32> = Vec::new();
    let air = s
        .space(z)
        .units
        .iter()
        .filter(|u| allied(s, owner, u.owner) && rules.unit(u.kind).domain == Domain::Air);
    for u in air {
        let c = rules.unit(u.kind).carrier_cost.unwrap_or(u32::MAX / 2);
        if used + c <= cap {
            used += c;
        } else if u.owner == owner {
            stranded.push(u.id);
        }
    }
    stranded
}

/// Where a stranded air unit may land, one space away: the territories of its side with no
/// enemy units, then the sea zones with room on a carrier of its side (the first is where the
/// engine landed it before owners chose).
fn stranded_landings(b: &Board, t: &UnitType, z: SpaceId) -> Vec<SpaceId> {
    let next = &b.rules.board.space(z).adjacent;
    let mut out: Vec<SpaceId> = next
        .iter()
        .copied()
        .filter(|n| !b.off_limits(*n) && !b.is_sea(*n) && b.friendly_territory(*n) && !b.has_enemies(*n))
        .collect();
    out.extend(next.iter().copied().filter(|n| {
        !b.off_limits(*n) && b.is_sea(*n) && t.carrier_cost.is_some_and(|c| carrier_room(b, *n) >= c)
    }));
    out
}

/// Noncombat move may not end while a fighter waits at sea for a carrier of this power that can
/// still sail to it: the rulebook obliges the carrier to go ("They must move there, range
/// permitting").
pub fn carriers_meet_fighters(rules: &RuleSet, s: &State, power: PowerId) -> Result<(), Rejection> {
    let b = Board { rules, s, power };
    for z in rules.board.ids().filter(|z| b.is_sea(*z)) {
        let need: u32 = s
            .space(z)
            .units
            .iter()
            .filter(|u| u.owner == power && rules.unit(u.kind).domain == Domain::Air)
            .filter_map(|u| rules.unit(u.kind).carrier_cost)
            .sum();
        if need == 0 || carrier_room_for_owner(&b, z) >= need || new_carrier_possible(&b, z) {
            continue;
        }
        if own_carrier_can_reach(&b, z, true) {
            return Err(reject(
                RULE_CARRIER_MEETS,
                format!(
                    "fighters of yours wait in {} and a carrier of yours can still sail there: move it (or fly the fighters to another landing place) before ending the phase",
                    b.name(z)
                ),
            ));
        }
    }
    Ok(())
}

/// Room on the side's carriers in a zone left for this power's air units once guests of other
/// powers are aboard.
fn carrier_room_for_owner(b: &Board, space: SpaceId) -> u32 {
    side_carrier_room(b, space, |u| u.owner != b.power)
}

/// Air units of `power` with no safe landing place now: (space, unit id). `last`: at the end
/// of mobilization, when a carrier still to be placed no longer spares a fighter at sea.
fn doomed_air(rules: &RuleSet, s: &State, power: PowerId, last: bool) -> Vec<(SpaceId, u32)> {
    let mut lost: Vec<(SpaceId, u32)> = Vec::new();
    for space in rules.board.ids() {
        let b = Board { rules, s, power };
        let units = &s.space(space).units;
        // Most spaces hold none of the power's air units: nothing to judge there.
        if !units
            .iter()
            .any(|u| u.owner == power && rules.unit(u.kind).domain == Domain::Air)
        {
            continue;
        }
        if !b.is_sea(space) {
            let safe = b.landing_ground(space);
            for u in units
                .iter()
                .filter(|u| u.owner == power && rules.unit(u.kind).domain == Domain::Air)
            {
                if !safe {
                    lost.push((space, u.id));
                }
            }
            continue;
        }
        let spare = !last && new_carrier_possible(&b, space);
        // Carriers of the side hold guests first (already aboard), then this power's air units.
        // Those aboard a damaged carrier that launches nothing stay aboard, trapped, not lost.
        // (Aboard as a guest, or the power's own that have not flown this turn.)
        let damaged_deck = units
            .iter()
            .any(|x| x.damage > 0 && rules.unit(x.kind).disabled_when_damaged && allied(s, power, x.owner));
        let trapped = |u: &Unit| {
            u.aboard.is_some_and(|c| {
                units
                    .iter()
                    .any(|x| x.id == c && x.damage > 0 && rules.unit(x.kind).disabled_when_damaged)
            }) || (damaged_deck && u.moved == 0)
        };
        let mut room = carrier_room_for_owner(&b, space);
        for u in units
            .iter()
            .filter(|u| u.owner == power && rules.unit(u.kind).domain == Domain::Air && !trapped(u))
        {
            match rules.unit(u.kind).carrier_cost {
                Some(c) if c <= room => room -= c,
                Some(_) if spare => {}
                _ => lost.push((space, u.id)),
            }
        }
    }
    lost
}

/// An air unit that would be lost if noncombat move ended now, and the territories it could
/// still land in (friendly since the start of the turn, within its movement left), nearest
/// first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unlanded {
    pub space: SpaceId,
    pub id: u32,
    pub kind: crate::rules::UnitTypeId,
    pub landings: Vec<SpaceId>,
}

/// The air units `land_air_units` would remove at the end of noncombat move, so a player can
/// be asked where to land them first.
pub fn unlanded_air(rules: &RuleSet, s: &State, power: PowerId) -> Vec<Unlanded> {
    let b = Board { rules, s, power };
    doomed_air(rules, s, power, false)
        .into_iter()
        .filter_map(|(space, id)| {
            let u = s.space(space).units.iter().find(|u| u.id == id)?;
            let t = rules.unit(u.kind);
            let left = remaining(rules, s, u);
            // `reachable` searches breadth first: the nearest landing places come first.
            let leg = Leg {
                combat: false,
                ignore: false,
                raid: false,
                drop: None,
            };
            let landings: Vec<SpaceId> = reachable(&b, &[(t, left)], space, &leg)
                .into_iter()
                .filter(|sp| !b.is_sea(*sp) && b.landing_ground(*sp))
                .collect();
            Some(Unlanded {
                space,
                id,
                kind: u.kind,
                landings,
            })
        })
        .collect()
}

/// Noncombat move ends only once every air unit that can still land safely has (`[rules]
/// air_units_must_land`: "if you can land them safely in NCM, you must do so"). `unlanded`:
/// [`unlanded_air`], less the landings the rule scripts refuse (`Game::landable_air`).
pub fn no_ditching(rules: &RuleSet, unlanded: &[Unlanded]) -> Result<(), crate::game::Rejection> {
    let Some(u) = unlanded.iter().find(|u| !u.landings.is_empty()) else {
        return Ok(());
    };
    let names: Vec<&str> = u
        .landings
        .iter()
        .map(|sp| rules.board.space(*sp).name.as_str())
        .collect();
    Err(reject(
        super::RULE_NO_DITCHING,
        format!(
            "the {} in {} can still land safely ({}): air units that can land must (`move` it there)",
            rules.unit(u.kind).name,
            rules.board.space(u.space).name,
            crate::rules::name_list(&names, 6)
        ),
    ))
}

/// Air units of `power` with no safe landing place are lost: at the end of noncombat move
/// (sparing fighters over a sea zone where a carrier bought this turn can still be mobilized),
/// and finally at the end of mobilization.
pub fn land_air_units(rules: &RuleSet, s: &mut State, power: PowerId, last: bool, out: &mut Vec<String>) {
    let lost = doomed_air(rules, s, power, last);
    for (space, id) in lost {
        let units = &mut s.space_mut(space).units;
        if let Some(i) = units.iter().position(|u| u.id == id) {
            let u = units.remove(i);
            out.push(format!(
                "{} {} in {} has no safe landing place and is lost",
                rules.power_info(power).name,
                rules.unit(u.kind).name,
                rules.board.space(space).name
            ));
        }
    }
}
