//! Combat moves. Every space the power's units can attack this turn is a target; targets are
//! weighed richest first (the territory's income, what defends it). For each, the units that
//! can reach it are added cheapest land units first, then aircraft, then warships (at sea,
//! aircraft and warships alike cheapest first), and the smallest force whose exact odds of
//! taking the space reach `[ai] attack_odds` is sent, if the attack's worth (expected TUV
//! swing, plus the territory's income and a victory city's value weighted by the odds of
//! taking it, less what the enemies next to a conquest are expected to destroy when they
//! retake it: `[ai] counter_attack`) is positive. Units guarding a capital or victory city
//! stay (`Sight::spare`); aircraft go only where they can still land afterwards. Bombers no attack
//! took raid enemy facilities where the damage they are expected to do outweighs the bombers
//! expected to be lost (`[ai] bombing`).

use super::sealift::{self, Ride, Ship};
use super::sight::{Sight, FAR};
use super::Choice;
use crate::game::command::{Command, Move, Pick};
use crate::game::Game;
use crate::rules::{Domain, FacilityTypeId, PowerId, RuleSet, SpaceId, UnitTypeId};
use std::collections::BTreeMap;

/// One unit that could join an attack.
#[derive(Clone, Copy, Debug)]
struct Mover {
    from: SpaceId,
    id: u32,
    kind: UnitTypeId,
    cost: u32,
    domain: Domain,
    /// Carried by sea (an amphibious assault).
    ride: Option<Ride>,
}

/// An attack judged.
struct Judged {
    take: f64,
    swing: f64,
    worth: f64,
    /// The IPCs of the units left in the conquest expected to be lost to a counter-attack.
    exposed: f64,
}

pub(super) fn plan(game: &mut Game) -> Vec<(u32, Choice)> {
    let rules = game.rules().clone();
    let me = game.current_power();
    let s = game.state().clone();
    let sight = Sight::new(&rules, &s, me);
    // Who can reach where: the single-unit moves the game proposes.
    let mut reach: BTreeMap<SpaceId, Vec<(SpaceId, UnitTypeId)>> = BTreeMap::new();
    // And who can raid which facility where (strategic bombing).
    let mut raids: BTreeMap<(SpaceId, FacilityTypeId), Vec<(SpaceId, UnitTypeId)>> = BTreeMap::new();
    for c in game.candidate_actions() {
        let Command::Move(m) = c else { continue };
        let [Pick::Kind { kind, count: 1 }] = m.units[..] else {
            continue;
        };
        if let (true, Some(f)) = (m.bombing, m.target) {
            raids.entry((m.to, f)).or_default().push((m.from, kind));
            continue;
        }
        if m.bombing || m.airborne || m.ignore || !m.via.is_empty() {
            continue;
        }
        let target = m.to;
        let enemies = sight.enemy_units(target).next().is_some();
        if !(sight.hostile_land(target) || enemies) {
            continue;
        }
        let list = reach.entry(target).or_default();
        if !list.contains(&(m.from, kind)) {
            list.push((m.from, kind));
        }
    }
    // What each space can spare.
    let mut pool: BTreeMap<SpaceId, Vec<u32>> = BTreeMap::new();
    for sp in rules.board.ids() {
        if sight.own_units(sp).next().is_some() {
            pool.insert(sp, sight.spare(sp));
        }
    }
    // Amphibious assaults reach coasts no land unit can walk to.
    let ships = sealift::ships(&sight, true);
    for ship in &ships {
        for z in ship.reach.keys() {
            for &shore in &rules.board.space(*z).adjacent {
                if sight.hostile_land(shore) {
                    reach.entry(shore).or_default();
                }
            }
        }
    }
    let mut sailed: Vec<u32> = Vec::new();
    // Richest first: income, then what defends it.
    let mut targets: Vec<(SpaceId, u32)> = reach
        .keys()
        .map(|t| {
            let tuv: u32 = sight.enemy_units(*t).map(|u| rules.unit(u.kind).cost).sum();
            (*t, rules.board.space(*t).ipc * rules.ai.territory_value + tuv)
        })
        .collect();
    // Sea battles first: a zone cleared of the enemy's ships this turn is one transports may
    // land troops from.
    targets.sort_by_key(|(t, worth)| (!sight.is_sea(*t), std::cmp::Reverse(*worth), *t));
    let mut cleared: Vec<SpaceId> = Vec::new();
    let mut out = Vec::new();
    for (group, (target, _)) in targets.into_iter().enumerate() {
        let mut movers = movers_for(&sight, &reach[&target], &pool, target);
        if !sight.is_sea(target) {
            let lifted = lifts_for(&sight, &ships, &sailed, &pool, target, &movers, &cleared);
            let at = movers.iter().take_while(|m| m.domain == Domain::Land).count();
            movers.splice(at..at, lifted);
        }
        if movers.is_empty() {
            continue;
        }
        // The enemies that could strike back at a conquest (land only: a sea zone won is left).
        let counter = if sight.is_sea(target) {
            0
        } else {
            sight.threat(target).0
        };
        let aim = Aim {
            game,
            rules: &rules,
            me,
            target,
            counter,
        };
        let Some((n, judged)) = aim.smallest_force(&movers) else {
            continue;
        };
        let sent = &movers[..n];
        if sight.is_sea(target) {
            cleared.push(target);
        }
        for m in sent {
            if let Some(ids) = pool.get_mut(&m.from) {
                ids.retain(|id| *id != m.id);
            }
            if let Some(r) = m.ride {
                sailed.push(r.ship);
            }
        }
        out.extend(
            orders(&rules, &ships, target, sent, &judged)
                .into_iter()
                .map(|c| (group as u32, c)),
        );
    }
    let first = out.iter().map(|(g, _)| g + 1).max().unwrap_or(0);
    for (i, c) in bombing(game, &sight, &raids, &mut pool).into_iter().enumerate() {
        out.push((first + i as u32, c));
    }
    out
}

/// A raid planned: its worth, where, on what, with which bombers (space, id, type), and the
/// damage and bombers lost expected.
struct Raid {
    worth: f64,
    target: SpaceId,
    facility: FacilityTypeId,
    bombers: Vec<(SpaceId, u32, UnitTypeId)>,
    damage: f64,
    lost: f64,
}

/// Strategic bombing raids by the bombers no attack took: for each facility they can raid
/// (and land after), the number of them whose expected damage, weighed by `[ai] bombing`,
/// most exceeds the bombers expected to be lost (`Game::raid_outlook`); best raids first.
fn bombing(
    game: &Game,
    sight: &Sight,
    raids: &BTreeMap<(SpaceId, FacilityTypeId), Vec<(SpaceId, UnitTypeId)>>,
    pool: &mut BTreeMap<SpaceId, Vec<u32>>,
) -> Vec<Choice> {
    let rules = sight.rules;
    let raids_fought = rules
        .combat
        .conduct
        .contains(&crate::rules::ConductStep::BombingRaids);
    if rules.ai.bombing == 0 || !raids_fought {
        return Vec::new();
    }
    let weight = f64::from(rules.ai.bombing) / 100.0;
    // The best number of bombers for each raid, and what it is worth.
    let mut planned: Vec<Raid> = Vec::new();
    for (&(target, facility), froms) in raids {
        let mut bombers: Vec<(SpaceId, u32, UnitTypeId)> = Vec::new();
        for &(from, kind) in froms {
            let t = rules.unit(kind);
            if !lands_after(sight, from, target, t.movement) {
                continue;
            }
            let Some(ids) = pool.get(&from) else { continue };
            for u in sight.own_units(from) {
                if u.kind == kind && ids.contains(&u.id) && !bombers.iter().any(|b| b.1 == u.id) {
                    bombers.push((from, u.id, kind));
                }
            }
        }
        let mut best: Option<(f64, usize, (f64, f64))> = None;
        for n in 1..=bombers.len() {
            let units: Vec<(SpaceId, u32)> = bombers[..n].iter().map(|b| (b.0, b.1)).collect();
            let Some((damage, lost)) = game.raid_outlook(sight.me, target, facility, &units, 60) else {
                break;
            };
            let worth = damage * weight - lost;
            if worth > best.map_or(0.0, |b| b.0) {
                best = Some((worth, n, (damage, lost)));
            }
        }
        if let Some((worth, n, (damage, lost))) = best {
            bombers.truncate(n);
            planned.push(Raid {
                worth,
                target,
                facility,
                bombers,
                damage,
                lost,
            });
        }
    }
    planned.sort_by(|a, b| b.worth.total_cmp(&a.worth).then(a.target.cmp(&b.target)));
    let mut out = Vec::new();
    for Raid {
        target,
        facility,
        bombers,
        damage,
        lost,
        ..
    } in planned
    {
        // A bomber sent on a better raid is gone from the pool.
        if bombers
            .iter()
            .any(|(from, id, _)| !pool.get(from).is_some_and(|ids| ids.contains(id)))
        {
            continue;
        }
        let mut groups: Vec<(SpaceId, UnitTypeId, u32)> = Vec::new();
        for &(from, id, kind) in &bombers {
            if let Some(ids) = pool.get_mut(&from) {
                ids.retain(|x| *x != id);
            }
            match groups.iter_mut().find(|g| g.0 == from && g.1 == kind) {
                Some(g) => g.2 += 1,
                None => groups.push((from, kind, 1)),
            }
        }
        let why = format!(
            "raids the {} in {}: {damage:.1} IPCs of damage expected, {lost:.1} IPCs of bombers expected lost (`[ai] bombing`)",
            rules.facilities[facility.index()].name,
            rules.board.space(target).name
        );
        for (from, kind, count) in groups {
            let mut m = Move::plain(vec![Pick::Kind { kind, count }], from, target);
            m.bombing = true;
            m.target = Some(facility);
            out.push(Choice::new(Command::Move(m), why.clone()));
        }
    }
    out
}

/// The units that can reach `target` and are spare, in the order they join an attack:
/// the cheapest land units first, then aircraft that can land afterwards, then warships.
fn movers_for(
    sight: &Sight,
    froms: &[(SpaceId, UnitTypeId)],
    pool: &BTreeMap<SpaceId, Vec<u32>>,
    target: SpaceId,
) -> Vec<Mover> {
    let rules = sight.rules;
    let sea = sight.is_sea(target);
    let mut out = Vec::new();
    for &(from, kind) in froms {
        let t = rules.unit(kind);
        if t.attack == 0 || (sea && t.domain == Domain::Land) {
            continue;
        }
        if t.domain == Domain::Air && !lands_after(sight, from, target, t.movement) {
            continue;
        }
        let Some(ids) = pool.get(&from) else { continue };
        for u in sight.own_units(from) {
            if u.kind == kind && u.aboard.is_none() && ids.contains(&u.id) {
                out.push(Mover {
                    from,
                    id: u.id,
                    kind,
                    cost: t.cost,
                    domain: t.domain,
                    ride: None,
                });
            }
        }
    }
    // At sea aircraft and warships join cheapest first alike: a fleet battle is not every
    // bomber's before the first destroyer's.
    let order = |d: Domain| match d {
        Domain::Land => 0,
        Domain::Air => 1,
        Domain::Sea if sea => 1,
        Domain::Sea => 2,
    };
    out.sort_by_key(|m| (order(m.domain), m.cost, m.from, m.id));
    out
}

/// Land units the power's transports can carry to `target` this phase: each ship that can
/// reach a zone beside it, with what it carries and what it can board from the coast beside
/// it; one ship after another, none counted twice nor any unit already in `direct`.
fn lifts_for(
    sight: &Sight,
    ships: &[Ship],
    sailed: &[u32],
    pool: &BTreeMap<SpaceId, Vec<u32>>,
    target: SpaceId,
    direct: &[Mover],
    cleared: &[SpaceId],
) -> Vec<Mover> {
    let rules = sight.rules;
    let mut claimed: Vec<u32> = direct.iter().map(|m| m.id).collect();
    let mut out = Vec::new();
    for ship in ships.iter().filter(|sh| !sailed.contains(&sh.id)) {
        let Some(to) = sealift::landing_zone(sight, ship, target, cleared) else {
            continue;
        };
        let ride = |board_from| Ride {
            ship: ship.id,
            board_from,
            at: ship.at,
            to,
        };
        let mut riders: Vec<Mover> = ship
            .aboard
            .iter()
            .map(|&(id, kind)| Mover {
                from: ship.at,
                id,
                kind,
                cost: rules.unit(kind).cost,
                domain: Domain::Land,
                ride: Some(ride(None)),
            })
            .collect();
        let loads: Vec<_> = sealift::loads(sight, ship, pool)
            .into_iter()
            .filter(|(_, u)| !claimed.contains(&u.id))
            .collect();
        for (shore, u) in sealift::fill(sight, ship, &loads) {
            riders.push(Mover {
                from: shore,
                id: u.id,
                kind: u.kind,
                cost: rules.unit(u.kind).cost,
                domain: Domain::Land,
                ride: Some(ride(Some(shore))),
            });
        }
        if riders.iter().all(|r| rules.unit(r.kind).attack == 0) {
            continue;
        }
        claimed.extend(riders.iter().map(|r| r.id));
        out.extend(riders);
    }
    out
}

/// Whether an aircraft flying from `from` to `target` keeps enough movement to reach a
/// territory of its own power, or of an ally at war with the enemies it fights there, that is
/// not the target.
fn lands_after(sight: &Sight, from: SpaceId, target: SpaceId, movement: u32) -> bool {
    let out = sight.steps_from(from, false, movement)[target.index()];
    if out == FAR || out > movement {
        return false;
    }
    let back = sight.steps_from(target, false, movement - out);
    // The enemies fought there: an ally at peace with one of them may keep its territories
    // closed (as the Soviet Union does while neutral on a map).
    let s = sight.s;
    let mut enemies: Vec<PowerId> = sight.enemy_units(target).map(|u| u.owner).collect();
    enemies.extend(s.space(target).controller.filter(|c| sight.at_war(*c)));
    let open_to_us = |c: PowerId| {
        c == sight.me
            || (sight.friendly(c)
                && enemies
                    .iter()
                    .all(|e| s.relations[c.index()][e.index()] == crate::game::state::Relation::War))
    };
    sight.rules.board.ids().any(|sp| {
        sp != target
            && back[sp.index()] != FAR
            && !sight.is_sea(sp)
            && s.space(sp).controller.is_some_and(open_to_us)
    })
}

/// One target weighed: the power attacking, the space, and the attack pips of the enemies
/// around that could strike back at a conquest.
struct Aim<'a> {
    game: &'a Game,
    rules: &'a RuleSet,
    me: PowerId,
    target: SpaceId,
    counter: u32,
}

impl Aim<'_> {
    /// The fewest of `movers` (a prefix) whose attack is good enough, with its judgement; `None`
    /// when even all of them are not.
    fn smallest_force(&self, movers: &[Mover]) -> Option<(usize, Judged)> {
        let (rules, me, target) = (self.rules, self.me, self.target);
        let space = rules.board.space(target);
        let enemy_capital = space.capital && space.owner.is_some_and(|o| o != me);
        let odds = if enemy_capital {
            rules.ai.capital_odds
        } else {
            rules.ai.attack_odds
        };
        let good = |j: &Judged| j.take * 100.0 >= f64::from(odds) && j.worth > 0.0;
        let all = self.judge(movers)?;
        if !good(&all) {
            return None;
        }
        // The odds grow with every unit added: search for the shortest prefix that is enough.
        let (mut lo, mut hi, mut best) = (1, movers.len(), all);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.judge(&movers[..mid]) {
                Some(j) if good(&j) => {
                    hi = mid;
                    best = j;
                }
                _ => lo = mid + 1,
            }
        }
        Some((hi, best))
    }

    /// The odds and worth of sending `movers` against the target.
    fn judge(&self, movers: &[Mover]) -> Option<Judged> {
        let (game, rules, me, target, counter) = (self.game, self.rules, self.me, self.target, self.counter);
        let units: Vec<(SpaceId, u32)> = movers.iter().map(|m| (m.from, m.id)).collect();
        let q = game.attack_question(me, target, &units).ok()?;
        let odds = super::odds(&q)?;
        let space = rules.board.space(target);
        let take = match odds.takes_territory {
            Some(e) if !space.is_sea() => e.value,
            _ => odds.attacker_wins.value,
        };
        let swing = odds.tuv_swing();
        let mut worth = swing;
        let mut exposed = 0.0;
        if !space.is_sea() {
            let prize = space.ipc * rules.ai.territory_value
                + if space.capital || space.victory_city.is_some() {
                    rules.ai.victory_city
                } else {
                    0
                };
            worth += take * f64::from(prize);
            // The land units left hold the conquest; the averages count the battles lost as none
            // left, so divided by the odds of taking it they are what holds it when it is taken.
            let (mut value, mut defence) = (0.0, 0.0);
            for &(kind, n) in &odds.attackers_left {
                let t = rules.unit(kind);
                if t.domain == Domain::Land {
                    value += n * f64::from(t.cost);
                    defence += n * f64::from(t.defense);
                }
            }
            if counter > 0 && take > 0.0 {
                let held = (defence / take).round() as u32;
                exposed =
                    super::sight::rough_odds(counter, held) * value * f64::from(rules.ai.counter_attack)
                        / 100.0;
                worth -= exposed;
            }
        }
        Some(Judged {
            take,
            swing,
            worth,
            exposed,
        })
    }
}

/// The moves that send `sent` into `target`, one per space and unit type, then each ship's
/// boarding, sailing and landing.
fn orders(rules: &RuleSet, ships: &[Ship], target: SpaceId, sent: &[Mover], j: &Judged) -> Vec<Choice> {
    let mut groups: Vec<(SpaceId, UnitTypeId, u32)> = Vec::new();
    for m in sent.iter().filter(|m| m.ride.is_none()) {
        match groups.iter_mut().find(|g| g.0 == m.from && g.1 == m.kind) {
            Some(g) => g.2 += 1,
            None => groups.push((m.from, m.kind, 1)),
        }
    }
    let name = &rules.board.space(target).name;
    let mut why = format!(
        "attacks {name}: {:.0}% to {}, expected TUV swing {:+.1}",
        j.take * 100.0,
        if rules.board.space(target).is_sea() {
            "win"
        } else {
            "take it"
        },
        j.swing
    );
    if j.exposed >= 0.5 {
        why.push_str(&format!(
            ", {:.0} IPCs of it exposed to a counter-attack",
            j.exposed
        ));
    }
    let mut out: Vec<Choice> = groups
        .into_iter()
        .map(|(from, kind, count)| {
            Choice::new(
                Command::Move(Move::plain(vec![Pick::Kind { kind, count }], from, target)),
                why.clone(),
            )
        })
        .collect();
    // Every ship sails first, then each landing zone's troops go ashore together: which of
    // the ships in a zone carries which units is the engine's choice, the total is the plan's.
    let riders: Vec<(UnitTypeId, Ride)> = sent.iter().filter_map(|m| m.ride.map(|r| (m.kind, r))).collect();
    for ship in ships {
        let own: Vec<(UnitTypeId, Ride)> = riders
            .iter()
            .copied()
            .filter(|(_, r)| r.ship == ship.id)
            .collect();
        out.extend(sealift::sail(ship.id, &own, &why));
    }
    let mut zones: Vec<SpaceId> = riders.iter().map(|(_, r)| r.to).collect();
    zones.sort();
    zones.dedup();
    for zone in zones {
        out.extend(sealift::land(zone, &riders, target, &why));
    }
    out
}
