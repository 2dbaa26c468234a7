//! Noncombat moves, in this order: aircraft that must land are landed (where the enemies
//! around are unlikely to take them, or in a city that needs defenders; then nearest the
//! front); voyages under way are finished; a capital or victory city whose defenders fall
//! short of what the enemies nearby could throw at it is reinforced; ships ferry troops cut
//! off from the front; land units march towards the front, a stack at a time, from spaces
//! that are not on it already and can spare them, never into a space where the enemies
//! around would likely destroy the stack. A unit that moved in this phase moves no further:
//! that is what makes the phase end (reinforcing a city frees others there to march, but
//! never the one that came in).

use super::sealift;
use super::sight::{Sight, FAR};
use super::Choice;
use crate::game::command::{Command, Move, Pick};
use crate::game::Game;
use crate::rules::{Domain, SpaceId};

pub(super) fn next(game: &mut Game, banned: &[String]) -> Option<Choice> {
    let rules = game.rules().clone();
    let me = game.current_power();
    let s = game.state().clone();
    let sight = Sight::new(&rules, &s, me);
    let front = sight.front();
    if let Some(c) = land_aircraft(game, &sight, &front, banned) {
        return Some(c);
    }
    // A ship under way finishes its voyage before anything else moves; then ships take the
    // troops cut off from the front before those march off along the coast.
    if let Some(c) = ferry(game, &sight, true, banned) {
        return Some(c);
    }
    if let Some(c) = guard(game, &sight, banned) {
        return Some(c);
    }
    if let Some(c) = ferry(game, &sight, false, banned) {
        return Some(c);
    }
    march(game, &sight, &front, banned)
}

/// The first aircraft that must land, landed: where the enemies around are unlikely to take
/// the space, aircraft and all, or in a capital or victory city short of its guard, which
/// the aircraft helps hold; then nearest the front.
fn land_aircraft(game: &mut Game, sight: &Sight, front: &[u32], banned: &[String]) -> Option<Choice> {
    let rules = sight.rules;
    for u in game.unlanded_air() {
        let mut landings = u.landings.clone();
        let exposed = |sp: SpaceId| {
            if sight.guard_need(sp).is_some_and(|(need, defence)| defence < need) {
                return false;
            }
            let (attack, defence) = if sight.is_sea(sp) {
                sight.sea_threat(sp)
            } else {
                sight.threat(sp)
            };
            super::sight::rough_odds(attack, defence + rules.unit(u.kind).defense) >= 0.5
        };
        landings.sort_by_cached_key(|sp| (exposed(*sp), front[sp.index()].saturating_sub(1)));
        for to in landings {
            let c = Command::Move(Move::plain(vec![Pick::Id(u.id)], u.space, to));
            if super::accepts(game, banned, &c) {
                let why = format!(
                    "lands the {} from {} in {}",
                    rules.unit(u.kind).name,
                    rules.board.space(u.space).name,
                    rules.board.space(to).name
                );
                return Some(Choice::new(c, why));
            }
        }
    }
    None
}

/// Land stacks march on the enemy: towards its nearest capital or victory city where one can
/// be reached by land, else towards the nearest hostile territory, farthest stacks first. Cut
/// off from every enemy by land, they march to the coast nearest the enemy by sea, where
/// ships can take them.
fn march(game: &mut Game, sight: &Sight, front: &[u32], banned: &[String]) -> Option<Choice> {
    let rules = sight.rules;
    let mv = |units: Vec<Pick>, from: SpaceId, to: SpaceId| Command::Move(Move::plain(units, from, to));
    let goal = sight.objectives();
    let by_sea = sight.front_by_sea();
    let metric = |sp: SpaceId| (goal[sp.index()], front[sp.index()], by_sea[sp.index()]);
    let mut sources: Vec<SpaceId> = rules
        .board
        .ids()
        .filter(|sp| {
            !sight.is_sea(*sp)
                && by_sea[sp.index()] != FAR
                && sight
                    .own_units(*sp)
                    .any(|u| rules.unit(u.kind).domain == Domain::Land)
        })
        .collect();
    sources.sort_by_key(|sp| (std::cmp::Reverse(metric(*sp)), *sp));
    for from in sources {
        let spare = sight.spare(from);
        let here = metric(from);
        // The stack that may march from here, as one: a space where the enemies around would
        // likely destroy it (`sight::rough_odds`) is not marched into.
        let stack: u32 = sight
            .own_units(from)
            .filter(|u| u.moved == 0 && spare.contains(&u.id) && rules.unit(u.kind).domain == Domain::Land)
            .map(|u| rules.unit(u.kind).defense)
            .sum();
        let exposed = |to: SpaceId| {
            let (attack, defence) = sight.threat(to);
            super::sight::rough_odds(attack, defence + stack) >= 0.5
        };
        let mut moves: Vec<((u32, u32, u32), Command, String)> = Vec::new();
        for c in game.candidate_moves_from(from) {
            let Command::Move(m) = &c else { continue };
            let [Pick::Kind { kind, count: 1 }] = m.units[..] else {
                continue;
            };
            let t = rules.unit(kind);
            let there = metric(m.to);
            // A unit that cannot attack (an antiaircraft gun) guards where it stands.
            if t.domain != Domain::Land
                || t.attack == 0
                || sight.is_sea(m.to)
                || there >= here
                || exposed(m.to)
            {
                continue;
            }
            let n = sight
                .own_units(from)
                .filter(|u| u.kind == kind && u.aboard.is_none() && u.moved == 0 && spare.contains(&u.id))
                .count() as u32;
            if n == 0 {
                continue;
            }
            let why = match there.0 {
                FAR if there.1 == FAR => format!(
                    "moves {} to the coast nearest the enemy: {} to {} ({} step(s) from it by sea)",
                    t.name,
                    rules.board.space(from).name,
                    rules.board.space(m.to).name,
                    there.2
                ),
                FAR => format!(
                    "moves {} towards the front: {} to {} ({} step(s) from it)",
                    t.name,
                    rules.board.space(from).name,
                    rules.board.space(m.to).name,
                    there.1
                ),
                d => format!(
                    "moves {} on the enemy: {} to {} ({d} step(s) from a capital or victory city)",
                    t.name,
                    rules.board.space(from).name,
                    rules.board.space(m.to).name
                ),
            };
            moves.push((there, mv(vec![Pick::Kind { kind, count: n }], from, m.to), why));
        }
        moves.sort_by_key(|(d, ..)| *d);
        for (_, c, why) in moves {
            if super::accepts(game, banned, &c) {
                return Some(Choice::new(c, why));
            }
        }
    }
    None
}

/// Reinforcements for the capital or victory city whose defenders fall furthest short of
/// what the enemies nearby could throw at it (`Sight::guard_need`): the land units and
/// aircraft that have not moved this turn, from the nearest spaces that can spare them.
fn guard(game: &mut Game, sight: &Sight, banned: &[String]) -> Option<Choice> {
    let rules = sight.rules;
    let mut short: Vec<(SpaceId, u32)> = rules
        .board
        .ids()
        .filter(|sp| !sight.is_sea(*sp))
        .filter_map(|sp| {
            let (need, defence) = sight.guard_need(sp)?;
            (defence < need).then(|| (sp, need - defence))
        })
        .collect();
    short.sort_by_key(|(sp, by)| (std::cmp::Reverse(*by), *sp));
    let most = rules.units.iter().map(|u| u.movement).max().unwrap_or(1);
    for (city, by) in short {
        let near = sight.steps_from(city, false, most);
        let mut sources: Vec<SpaceId> = rules
            .board
            .ids()
            .filter(|sp| *sp != city && near[sp.index()] != FAR && !sight.is_sea(*sp))
            .filter(|sp| sight.own_units(*sp).any(|u| u.moved == 0))
            .collect();
        sources.sort_by_key(|sp| (near[sp.index()], *sp));
        for from in sources {
            let spare = sight.spare(from);
            for c in game.candidate_moves_from(from) {
                let Command::Move(m) = &c else { continue };
                let [Pick::Kind { kind, count: 1 }] = m.units[..] else {
                    continue;
                };
                let t = rules.unit(kind);
                if m.to != city || t.domain == Domain::Sea || t.defense == 0 {
                    continue;
                }
                let n = sight
                    .own_units(from)
                    .filter(|u| u.kind == kind && u.aboard.is_none() && u.moved == 0 && spare.contains(&u.id))
                    .count() as u32;
                // No more than the shortfall calls for.
                let n = n.min(by.div_ceil(t.defense.max(1)));
                if n == 0 {
                    continue;
                }
                let c = Command::Move(Move::plain(vec![Pick::Kind { kind, count: n }], from, city));
                if super::accepts(game, banned, &c) {
                    let why = format!(
                        "reinforces {}: its defence is {} short of what the enemies nearby call for (`[ai] capital_guard`, `city_guard`)",
                        rules.board.space(city).name,
                        by
                    );
                    return Some(Choice::new(c, why));
                }
            }
        }
    }
    None
}

/// The distances a voyage is judged by, worked out once per call.
struct Charts {
    /// To the nearest hostile territory over land and sea (`Sight::front_by_sea`).
    far: Vec<u32>,
    /// By sea to the nearest zone beside an objective (`sealift::to_assault`).
    assault: Vec<u32>,
    front: Vec<u32>,
    goal: Vec<u32>,
    /// What each territory of the power can spare.
    spare: std::collections::BTreeMap<SpaceId, Vec<u32>>,
}

impl Charts {
    fn of(sight: &Sight) -> Charts {
        let spare = sight
            .rules
            .board
            .ids()
            .filter(|sp| !sight.is_sea(*sp) && sight.own_units(*sp).next().is_some())
            .map(|sp| (sp, sight.spare(sp)))
            .collect();
        Charts {
            far: sight.front_by_sea(),
            assault: sealift::to_assault(sight),
            front: sight.front(),
            goal: sight.objectives(),
            spare,
        }
    }

    /// Where a ship is bound and why: a zone beside a friendly shore with a land front nearer
    /// the enemy than its troops are now (`now`), or else the muster.
    fn bound(
        &self,
        sight: &Sight,
        ship: &sealift::Ship,
        now: u32,
        loading: bool,
    ) -> Option<(SpaceId, Option<SpaceId>)> {
        if let Some((zone, shore)) = self.landing(sight, ship, now) {
            return Some((zone, Some(shore)));
        }
        self.muster(ship, loading).map(|zone| (zone, None))
    }

    /// The friendly shore with a land front, nearer the enemy than `now`, that the ship can
    /// reach: (its zone, the shore).
    fn landing(&self, sight: &Sight, ship: &sealift::Ship, now: u32) -> Option<(SpaceId, SpaceId)> {
        let board = &sight.rules.board;
        ship.reach
            .iter()
            .flat_map(|(z, steps)| {
                board
                    .space(*z)
                    .adjacent
                    .iter()
                    .map(move |shore| (*z, *steps, *shore))
            })
            .filter(|(_, _, shore)| {
                !sight.is_sea(*shore)
                    && self.goal[shore.index()] != FAR
                    && sight
                        .s
                        .space(*shore)
                        .controller
                        .is_some_and(|c| sight.friendly(c))
                    && self.far[shore.index()] + 1 < now
            })
            .min_by_key(|(z, steps, shore)| (self.far[shore.index()], *steps, *z, *shore))
            .map(|(z, _, shore)| (z, shore))
    }

    /// The muster: a zone one step from a landing, where next turn's combat move reaches it,
    /// not the zone beside the enemy's coast, where the ships would wait under its guns while
    /// the rest of the force comes up. The ship stays where it is (`loading` troops there)
    /// when no zone in reach is nearer; `None` when it has nothing to do.
    fn muster(&self, ship: &sealift::Ship, loading: bool) -> Option<SpaceId> {
        let muster = |z: SpaceId| {
            let a = self.assault[z.index()];
            (a.max(1), a == 0)
        };
        let (z, _) = ship
            .reach
            .iter()
            .min_by_key(|(z, steps)| (muster(**z), **steps, **z))?;
        if muster(*z) < muster(ship.at) {
            Some(*z)
        } else if loading {
            Some(ship.at)
        } else {
            None
        }
    }
}

/// The next command of a voyage for land units cut off from the front by land (or far from
/// it): to a friendly territory from which they can march on the enemy, when the voyage
/// brings them nearer (`Sight::front_by_sea`); else towards the nearest hostile coast, where
/// next turn's combat move can land them (`sealift::to_assault`). With `under_way`, only ships
/// with cargo aboard already. An empty ship with nothing to carry sails to the coast with the
/// most units waiting; warships then join the transports.
fn ferry(game: &mut Game, sight: &Sight, under_way: bool, banned: &[String]) -> Option<Choice> {
    let charts = Charts::of(sight);
    let ships = sealift::ships(sight, false);
    for ship in &ships {
        if under_way && ship.aboard.is_empty() {
            continue;
        }
        // Units that gain by the voyage: cut off from the front by land, or far from it.
        let loads: Vec<_> = sealift::loads(sight, ship, &charts.spare)
            .into_iter()
            .filter(|(shore, _)| Sight::wants_ship(&charts.front, &charts.goal, *shore))
            .collect();
        let cargo = sealift::fill(sight, ship, &loads);
        let from_far = ship
            .aboard
            .iter()
            .map(|_| charts.far[ship.at.index()])
            .chain(cargo.iter().map(|(shore, _)| charts.far[shore.index()]))
            .max();
        let Some(now) = from_far else {
            if !under_way {
                if let Some(c) = reposition(game, sight, ship, &charts.spare, &charts.front, banned) {
                    return Some(c);
                }
            }
            continue;
        };
        let Some((to, landing)) = charts.bound(sight, ship, now, !cargo.is_empty()) else {
            continue;
        };
        let ride = |board_from| sealift::Ride {
            ship: ship.id,
            board_from,
            at: ship.at,
            to,
        };
        let mut riders: Vec<(crate::rules::UnitTypeId, sealift::Ride)> =
            ship.aboard.iter().map(|&(_, kind)| (kind, ride(None))).collect();
        riders.extend(cargo.iter().map(|(from, u)| (u.kind, ride(Some(*from)))));
        let name = |sp: SpaceId| &sight.rules.board.space(sp).name;
        let steps = match landing {
            Some(shore) => {
                let why = format!(
                    "ferries troops to {} ({} step(s) from the front)",
                    name(shore),
                    charts.far[shore.index()]
                );
                sealift::carry(ship.id, &riders, shore, &why)
            }
            None => {
                let why = format!(
                    "carries troops towards the enemy's coast: {} ({} zone(s) from a landing)",
                    name(to),
                    charts.assault[to.index()]
                );
                sealift::sail(ship.id, &riders, &why)
            }
        };
        // A voyage goes in order: when its first step is refused, the ship stays.
        if let Some(c) = steps.into_iter().next() {
            if super::accepts(game, banned, &c.command) {
                return Some(c);
            }
        }
    }
    if under_way {
        return None;
    }
    if let Some(c) = meet_fighters(game, sight, banned) {
        return Some(c);
    }
    escort(game, sight, &ships, banned)
}

/// Warships join the power's transports: each sails to the zone within its reach holding the
/// most of them, when that is more than where it is.
fn escort(game: &mut Game, sight: &Sight, ships: &[sealift::Ship], banned: &[String]) -> Option<Choice> {
    let rules = sight.rules;
    let mut convoys: std::collections::BTreeMap<SpaceId, usize> = std::collections::BTreeMap::new();
    for sh in ships {
        *convoys.entry(sh.at).or_default() += 1;
    }
    // Transports that already sailed this phase count where they are now.
    for z in rules.board.ids().filter(|z| sight.is_sea(*z)) {
        let n = sight
            .own_units(z)
            .filter(|u| rules.unit(u.kind).transport_capacity > 0)
            .count();
        if n > 0 {
            convoys.insert(z, n);
        }
    }
    if convoys.is_empty() {
        return None;
    }
    for z in rules.board.ids().filter(|z| sight.is_sea(*z)) {
        for u in sight.own_units(z) {
            let t = rules.unit(u.kind);
            if t.domain != Domain::Sea || t.transport_capacity > 0 || t.attack == 0 || u.aboard.is_some() {
                continue;
            }
            let Some(left) = crate::game::movement::movable(rules, sight.s, u, false) else {
                continue;
            };
            if left == 0 {
                continue;
            }
            let here = convoys.get(&z).copied().unwrap_or(0);
            let reach = sealift::sea_reach(sight, z, left);
            let Some((to, n)) = reach
                .keys()
                .filter_map(|r| convoys.get(r).map(|n| (*r, *n)))
                .max_by_key(|(r, n)| (*n, std::cmp::Reverse(reach[r]), std::cmp::Reverse(*r)))
            else {
                continue;
            };
            if n <= here || to == z {
                continue;
            }
            let c = sealift::mv(Pick::Id(u.id), z, to);
            if super::accepts(game, banned, &c) {
                return Some(Choice::new(
                    c,
                    format!(
                        "the {} escorts the {n} transport(s) in {}",
                        t.name,
                        rules.board.space(to).name
                    ),
                ));
            }
        }
    }
    None
}

/// An empty ship sails towards the nearest coast where units wait to be carried.
fn reposition(
    game: &mut Game,
    sight: &Sight,
    ship: &sealift::Ship,
    spare: &std::collections::BTreeMap<SpaceId, Vec<u32>>,
    front: &[u32],
    banned: &[String],
) -> Option<Choice> {
    let rules = sight.rules;
    let goal = sight.objectives();
    let waiting = |z: SpaceId| -> usize {
        rules
            .board
            .space(z)
            .adjacent
            .iter()
            .filter(|a| !sight.is_sea(**a) && Sight::wants_ship(front, &goal, **a))
            .filter_map(|a| spare.get(a).map(|ids| (a, ids)))
            .map(|(a, ids)| {
                sight
                    .own_units(*a)
                    .filter(|u| {
                        ids.contains(&u.id)
                            && rules.unit(u.kind).domain == Domain::Land
                            && rules.unit(u.kind).transport_cost.is_some()
                    })
                    .count()
            })
            .sum()
    };
    let here = waiting(ship.at);
    if here > 0 {
        return None;
    }
    // The nearest coast where troops wait, however far: the ship sails towards it over as
    // many turns as it takes.
    let zones: Vec<SpaceId> = rules.board.ids().filter(|z| sight.is_sea(*z)).collect();
    let from_here = sealift::sea_reach(sight, ship.at, u32::MAX);
    let (goal, n) = zones
        .iter()
        .filter_map(|z| from_here.get(z).map(|d| (*z, *d, waiting(*z))))
        .filter(|(_, _, n)| *n > 0)
        .min_by_key(|(z, d, n)| (*d, std::cmp::Reverse(*n), *z))
        .map(|(z, _, n)| (z, n))?;
    let to_goal = sealift::sea_reach(sight, goal, u32::MAX);
    let best = ship
        .reach
        .keys()
        .copied()
        .min_by_key(|z| (to_goal.get(z).copied().unwrap_or(u32::MAX), ship.reach[z], *z))?;
    if best == ship.at {
        return None;
    }
    let c = sealift::mv(Pick::Id(ship.id), ship.at, best);
    if !super::accepts(game, banned, &c) {
        return None;
    }
    Some(Choice::new(
        c,
        format!(
            "sends an empty {} towards {}, where {n} unit(s) wait to be carried",
            rules.unit(ship.kind).name,
            rules.board.space(goal).name
        ),
    ))
}

/// Carriers sail to the zones where the power's aircraft wait at sea for a deck (they landed
/// there trusting one could come, and the phase cannot end until it does).
fn meet_fighters(game: &mut Game, sight: &Sight, banned: &[String]) -> Option<Choice> {
    let rules = sight.rules;
    let waiting: Vec<SpaceId> = rules
        .board
        .ids()
        .filter(|z| {
            if !sight.is_sea(*z) {
                return false;
            }
            // Decks that can take aircraft (a damaged carrier that launches nothing cannot),
            // against the aircraft there.
            let mut room: i64 = 0;
            for u in sight.own_units(*z) {
                let t = rules.unit(u.kind);
                if t.carrier_capacity > 0 && !(u.damage > 0 && t.disabled_when_damaged) {
                    room += i64::from(t.carrier_capacity);
                }
                if t.domain == Domain::Air {
                    room -= i64::from(t.carrier_cost.unwrap_or(1));
                }
            }
            room < 0
        })
        .collect();
    // The game knows how far each carrier may sail (a naval base adds to it): ask it.
    for z in rules.board.ids().filter(|z| sight.is_sea(*z)) {
        for u in sight.own_units(z) {
            let t = rules.unit(u.kind);
            if t.carrier_capacity == 0 || (u.damage > 0 && t.disabled_when_damaged) || waiting.contains(&z) {
                continue;
            }
            for &to in &waiting {
                let c = sealift::mv(Pick::Id(u.id), z, to);
                if super::accepts(game, banned, &c) {
                    return Some(Choice::new(
                        c,
                        format!(
                            "the {} sails to {} to take the aircraft waiting there",
                            t.name,
                            rules.board.space(to).name
                        ),
                    ));
                }
            }
        }
    }
    None
}
