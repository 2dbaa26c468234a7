//! Armies carried by sea: which transports can take which land units from the coast beside
//! them to a sea zone next to a territory, and the commands that do it (board, sail, offload).
//! Combat move uses it for amphibious assaults (`attack`), noncombat move to ferry armies from
//! where they cannot reach the front by land (`reinforce`).

use super::sight::Sight;
use super::Choice;
use crate::game::command::{Command, Move, Pick};
use crate::game::state::Unit;
use crate::rules::{Domain, SpaceId, UnitTypeId};
use std::collections::{BTreeMap, VecDeque};

/// One transport of the power, where it is and how far it may still sail.
#[derive(Clone, Debug)]
pub(super) struct Ship {
    pub id: u32,
    pub kind: UnitTypeId,
    pub at: SpaceId,
    /// Room left aboard.
    pub room: u32,
    /// Land units aboard already (id, kind).
    pub aboard: Vec<(u32, UnitTypeId)>,
    /// Sea zones it can reach this phase and the steps to each (itself included, at 0).
    pub reach: BTreeMap<SpaceId, u32>,
    /// Movement left.
    pub left: u32,
}

/// A land unit riding a transport: where it boards from (`None`: aboard already) and the
/// zone it is carried to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ride {
    pub ship: u32,
    pub board_from: Option<SpaceId>,
    pub at: SpaceId,
    pub to: SpaceId,
}

/// The power's transports that may still sail and carry: at sea, with movement left, in a
/// zone without enemy warships.
pub(super) fn ships(sight: &Sight, combat: bool) -> Vec<Ship> {
    let rules = sight.rules;
    let s = sight.s;
    let mut out = Vec::new();
    for zone in rules.board.ids().filter(|z| sight.is_sea(*z)) {
        if hostile_zone(sight, zone) {
            continue;
        }
        for u in sight.own_units(zone) {
            let t = rules.unit(u.kind);
            if t.transport_capacity == 0 || u.aboard.is_some() || u.marks.unloaded.is_some() {
                continue;
            }
            if !combat && (u.marks.combat_moved || u.marks.fought) {
                continue;
            }
            let Some(left) = crate::game::movement::movable(rules, s, u, combat) else {
                continue;
            };
            let aboard: Vec<(u32, UnitTypeId)> = s
                .space(zone)
                .units
                .iter()
                .filter(|c| c.aboard == Some(u.id))
                .map(|c| (c.id, c.kind))
                .collect();
            let used: u32 = aboard
                .iter()
                .filter_map(|(_, k)| rules.unit(*k).transport_cost)
                .sum();
            out.push(Ship {
                id: u.id,
                kind: u.kind,
                at: zone,
                room: t.transport_capacity.saturating_sub(used),
                aboard,
                reach: sea_reach(sight, zone, left),
                left,
            });
        }
    }
    out
}

/// A zone holding enemy units: a transport would have to fight there.
fn hostile_zone(sight: &Sight, zone: SpaceId) -> bool {
    sight.enemy_units(zone).next().is_some()
}

/// Zones within `left` steps by sea, not passing through or ending in a zone with enemies.
pub(super) fn sea_reach(sight: &Sight, from: SpaceId, left: u32) -> BTreeMap<SpaceId, u32> {
    let mut out = BTreeMap::from([(from, 0)]);
    let mut queue = VecDeque::from([from]);
    while let Some(z) = queue.pop_front() {
        let d = out[&z];
        if d >= left {
            continue;
        }
        for &a in &sight.rules.board.space(z).adjacent {
            if sight.is_sea(a)
                && !out.contains_key(&a)
                && !hostile_zone(sight, a)
                && !crate::game::movement::canal_shut(sight.rules, sight.s, sight.me, z, a)
            {
                out.insert(a, d + 1);
                queue.push_back(a);
            }
        }
    }
    out
}

/// The zone next to `shore` a ship can reach, nearest first: a free zone, or one where the
/// enemy's ships are attacked this turn (`cleared`: the landing waits for that sea battle),
/// entered from a free zone next to it.
pub(super) fn landing_zone(
    sight: &Sight,
    ship: &Ship,
    shore: SpaceId,
    cleared: &[SpaceId],
) -> Option<SpaceId> {
    let board = &sight.rules.board;
    let steps = |z: SpaceId| -> Option<u32> {
        if let Some(d) = ship.reach.get(&z) {
            return Some(*d);
        }
        if !cleared.contains(&z) {
            return None;
        }
        board
            .space(z)
            .adjacent
            .iter()
            .filter_map(|n| ship.reach.get(n))
            .map(|d| d + 1)
            .filter(|d| *d <= ship.left)
            .min()
    };
    board
        .space(shore)
        .adjacent
        .iter()
        .filter(|z| sight.is_sea(**z))
        .filter_map(|z| steps(*z).map(|d| (d, *z)))
        .min()
        .map(|(_, z)| z)
}

/// Land units that could board `ship` from the coast beside it, from `spare` (the units each
/// space can give), strongest attack first; none that cannot attack (an antiaircraft gun
/// guards where it stands).
pub(super) fn loads<'a>(
    sight: &'a Sight,
    ship: &Ship,
    spare: &BTreeMap<SpaceId, Vec<u32>>,
) -> Vec<(SpaceId, &'a Unit)> {
    let rules = sight.rules;
    let mut out = Vec::new();
    for &shore in &rules.board.space(ship.at).adjacent {
        if sight.is_sea(shore) {
            continue;
        }
        let Some(ids) = spare.get(&shore) else { continue };
        for u in sight.own_units(shore) {
            let t = rules.unit(u.kind);
            if t.domain == Domain::Land
                && t.attack > 0
                && t.transport_cost.is_some()
                && ids.contains(&u.id)
                && crate::game::movement::movable(rules, sight.s, u, false).is_some()
                && u.moved == 0
            {
                out.push((shore, u));
            }
        }
    }
    out.sort_by_key(|(_, u)| {
        let t = rules.unit(u.kind);
        (std::cmp::Reverse(t.attack), t.cost, u.id)
    });
    out
}

/// Fill the ship from `loads` as far as its room goes: (boarding space, unit) chosen.
pub(super) fn fill<'a>(
    sight: &Sight,
    ship: &Ship,
    loads: &[(SpaceId, &'a Unit)],
) -> Vec<(SpaceId, &'a Unit)> {
    let mut room = ship.room;
    let mut out = Vec::new();
    for &(shore, u) in loads {
        let cost = sight.rules.unit(u.kind).transport_cost.unwrap_or(u32::MAX);
        if cost <= room {
            room -= cost;
            out.push((shore, u));
        }
    }
    out
}

/// The commands that carry the riders of one ship to `shore` (board, sail, offload), each
/// with `why`. `riders`: (unit kind, ride).
pub(super) fn carry(ship: u32, riders: &[(UnitTypeId, Ride)], shore: SpaceId, why: &str) -> Vec<Choice> {
    let mut out = sail(ship, riders, why);
    if let Some(first) = riders.first() {
        out.extend(land(first.1.to, riders, shore, why));
    }
    out
}

/// The commands that offload `riders` from `zone` into `shore`, a command per unit type (the
/// riders of every ship that sailed there).
pub(super) fn land(zone: SpaceId, riders: &[(UnitTypeId, Ride)], shore: SpaceId, why: &str) -> Vec<Choice> {
    let mut lands: Vec<(UnitTypeId, u32)> = Vec::new();
    for (kind, _) in riders.iter().filter(|(_, r)| r.to == zone) {
        match lands.iter_mut().find(|l| l.0 == *kind) {
            Some(l) => l.1 += 1,
            None => lands.push((*kind, 1)),
        }
    }
    lands
        .into_iter()
        .map(|(kind, count)| Choice::new(mv(Pick::Kind { kind, count }, zone, shore), why))
        .collect()
}

/// The commands that board the riders of one ship and sail it, named by its id (no landing:
/// the riders stay aboard for [`land`], or for an assault to come).
pub(super) fn sail(ship: u32, riders: &[(UnitTypeId, Ride)], why: &str) -> Vec<Choice> {
    let Some(first) = riders.first() else {
        return Vec::new();
    };
    let (at, to) = (first.1.at, first.1.to);
    let mut out = Vec::new();
    let mut boards: Vec<(SpaceId, UnitTypeId, u32)> = Vec::new();
    for (kind, ride) in riders {
        if let Some(from) = ride.board_from {
            match boards.iter_mut().find(|b| b.0 == from && b.1 == *kind) {
                Some(b) => b.2 += 1,
                None => boards.push((from, *kind, 1)),
            }
        }
    }
    for (from, kind, count) in boards {
        out.push(Choice::new(mv(Pick::Kind { kind, count }, from, at), why));
    }
    if at != to {
        out.push(Choice::new(mv(Pick::Id(ship), at, to), why));
    }
    out
}

pub(super) fn mv(pick: Pick, from: SpaceId, to: SpaceId) -> Command {
    Command::Move(Move::plain(vec![pick], from, to))
}

/// Steps by sea from each zone to the nearest zone beside an objective (0 there): how far a
/// loaded ship is from an assault worth making. The objectives are the enemies' capitals and
/// victory cities on a coast; when none is, any hostile coast with an income. Territories are
/// `FAR`.
pub(super) fn to_assault(sight: &Sight) -> Vec<u32> {
    let board = &sight.rules.board;
    let prize = |a: SpaceId| {
        let sp = board.space(a);
        sight.hostile_land(a) && (sp.capital || sp.victory_city.is_some())
    };
    let income = |a: SpaceId| sight.hostile_land(a) && board.space(a).ipc > 0;
    let coast = |z: SpaceId, f: &dyn Fn(SpaceId) -> bool| board.space(z).adjacent.iter().any(|a| f(*a));
    let zones: Vec<SpaceId> = board.ids().filter(|z| sight.is_sea(*z)).collect();
    let mut sources: Vec<SpaceId> = zones.iter().copied().filter(|z| coast(*z, &prize)).collect();
    if sources.is_empty() {
        sources = zones.iter().copied().filter(|z| coast(*z, &income)).collect();
    }
    super::sight::steps_to(sight.rules, sources.into_iter(), |a| sight.is_sea(a))
}
