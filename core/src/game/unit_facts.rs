//! What rule scripts read of single units: the tags scripts wrote on them, what each did this
//! turn, where it began the turn. `game:unit`, `game:each_unit` and the `combatants` of battle
//! events are built here, so every table of one unit says the same things in the same words.

pub use super::state::{State, Unit};
use crate::combat::{Battle, Combatant, Status};
use crate::rules::{Domain, RuleSet, SpaceId};
use crate::script::Value;

/// What the unit did this turn, in the words payloads use (`did`): `moved`, `combat_moved`,
/// `blitzed`, `from_transport` (a land unit that came ashore), `offloaded` (a transport that
/// set cargo ashore), `boarded`, `carried_by_air`, `fought`, `captured` (taken with its
/// territory), `escaped` (left a sea zone holding enemy warships), `bombing`, `scrambled`,
/// `paratrooper` (flown in from an air base).
pub fn did(rules: &RuleSet, u: &Unit) -> Vec<&'static str> {
    let m = &u.marks;
    let land = rules.unit(u.kind).domain == Domain::Land;
    let mut out = Vec::new();
    if u.moved > 0 || m.combat_moved {
        out.push("moved");
    }
    for (on, word) in [
        (m.combat_moved, "combat_moved"),
        (m.blitzed, "blitzed"),
        (m.unloaded.is_some() && land, "from_transport"),
        (m.unloaded.is_some() && !land, "offloaded"),
        (m.loaded && land, "boarded"),
        (m.dropped, "carried_by_air"),
        (m.fought, "fought"),
        (m.captured, "captured"),
        (m.escaped, "escaped"),
        (m.bombing, "bombing"),
        (m.scrambled_from.is_some(), "scrambled"),
        (m.airborne_from.is_some(), "paratrooper"),
    ] {
        if on {
            out.push(word);
        }
    }
    out
}

/// Give a unit what a `did` word says it did (`warroom odds "2 tank [blitzed]"`), as if it had;
/// `false` for a word [`did`] never gives.
pub fn set_did(u: &mut Unit, word: &str, space: SpaceId) -> bool {
    let m = &mut u.marks;
    match word {
        "moved" => u.moved = u.moved.max(1),
        "combat_moved" => {
            m.combat_moved = true;
            u.moved = u.moved.max(1);
        }
        "blitzed" => {
            m.blitzed = true;
            m.combat_moved = true;
            u.moved = u.moved.max(2);
        }
        "from_transport" | "offloaded" => m.unloaded = Some(space),
        "boarded" => m.loaded = true,
        "carried_by_air" => m.dropped = true,
        "fought" => m.fought = true,
        "captured" => m.captured = true,
        "escaped" => m.escaped = true,
        "bombing" => m.bombing = true,
        "paratrooper" => {
            m.airborne_from = Some(space);
            m.combat_moved = true;
            u.moved = u.moved.max(1);
        }
        _ => return false,
    }
    true
}

/// Every word [`did`] may give, for the docs.
pub const DID: &str = "`moved`, `combat_moved`, `blitzed`, `from_transport`, `offloaded`, `boarded`, \
                       `carried_by_air`, `fought`, `captured`, `escaped`, `bombing`, `scrambled`, \
                       `paratrooper`";

fn tags(u: &Unit) -> Value {
    Value::map(u.tags.iter().map(|(n, v)| (n.to_string(), Value::from(v))))
}

/// Where each of these units stood when the turn began (the acting power's record of it).
pub fn started(s: &State, ids: &[u32]) -> Vec<Option<SpaceId>> {
    let mut out = vec![None; ids.len()];
    let start = &s.this_turn.start_control.spaces;
    for (i, sp) in start.iter().enumerate() {
        for u in &sp.units {
            if let Some(k) = ids.iter().position(|id| *id == u.id) {
                out[k] = Some(SpaceId(i as u16));
            }
        }
    }
    out
}

fn place(rules: &RuleSet, at: Option<SpaceId>) -> Value {
    Value::from(at.map_or(String::new(), |sp| rules.board.space(sp).name.clone()))
}

/// A unit on the board (`UnitInfo`).
pub fn unit_info(rules: &RuleSet, space: SpaceId, u: &Unit, start: Option<SpaceId>) -> Value {
    Value::map([
        ("id", Value::from(i64::from(u.id))),
        ("unit", Value::from(rules.unit(u.kind).id.clone())),
        ("owner", Value::from(rules.power_info(u.owner).name.clone())),
        ("space", Value::from(rules.board.space(space).name.clone())),
        ("damage", Value::from(i64::from(u.damage))),
        ("tags", tags(u)),
        ("did", Value::list(did(rules, u).into_iter().map(Value::from))),
        ("started", place(rules, start)),
    ])
}

/// Every unit of a space, one by one, in the engine's order.
pub fn each_unit(rules: &RuleSet, s: &State, space: SpaceId) -> Vec<Value> {
    let units = &s.space(space).units;
    let ids: Vec<u32> = units.iter().map(|u| u.id).collect();
    let start = started(s, &ids);
    units
        .iter()
        .zip(start)
        .map(|(u, st)| unit_info(rules, space, u, st))
        .collect()
}

/// One unit, wherever it is on the board.
pub fn find_unit(rules: &RuleSet, s: &State, id: u32) -> Option<Value> {
    for (i, sp) in s.spaces.iter().enumerate() {
        if let Some(u) = sp.units.iter().find(|u| u.id == id) {
            let space = SpaceId(i as u16);
            let st = started(s, &[id])[0];
            return Some(unit_info(rules, space, u, st));
        }
    }
    None
}

fn status(c: &Combatant) -> &'static str {
    match c.status {
        Status::Fighting => "fighting",
        Status::Hit => "hit",
        Status::Dead => "dead",
        Status::Submerged => "submerged",
        Status::Retreated => "retreated",
    }
}

/// The units of a battle (`Combatant`), with what the board says of each: a battle fought from
/// unit lists (the calculator) has units the board does not hold, which have no tags, did
/// nothing and started nowhere.
pub fn combatants(rules: &RuleSet, s: &State, b: &Battle) -> Value {
    let here = &s.space(b.space).units;
    let ids: Vec<u32> = b.units.iter().map(|c| c.id).collect();
    let start = started(s, &ids);
    Value::list(b.units.iter().zip(start).map(|(c, st)| {
        let on_board = here
            .iter()
            .find(|u| u.id == c.id && u.kind == c.kind && u.owner == c.owner);
        let (tags, did) = match on_board {
            Some(u) => (tags(u), Value::list(did(rules, u).into_iter().map(Value::from))),
            None => (Value::Map(Default::default()), Value::List(Vec::new())),
        };
        let st = if on_board.is_some() { st } else { None };
        Value::map([
            ("id", Value::from(i64::from(c.id))),
            ("unit", Value::from(rules.unit(c.kind).id.clone())),
            ("owner", Value::from(rules.power_info(c.owner).name.clone())),
            ("side", Value::from(c.side.name())),
            ("status", Value::from(status(c))),
            ("tags", tags),
            ("did", did),
            ("started", place(rules, st)),
        ])
    }))
}
