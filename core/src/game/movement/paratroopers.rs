//! Paratroopers (a tech's facility `paratroopers`; the Global rules' G40-RD-PARA): in combat
//! move, land units standing in a territory friendly to the mover, with an operative facility
//! that flies them (an air base), take off — at most `count` from one territory a turn, all to
//! the same territory — and fly up to `range` spaces, as air units fly, to an enemy territory:
//! `move 2 infantry from Germany to Poland as paratroopers`.
//!
//! "... that is being attacked by your land units from adjacent territories and/or by amphibious
//! assault": checked as combat move ends, when every attack is declared. In the battle they draw
//! antiaircraft fire as air units do (`Combatant::airborne`), and retreat with the land units
//! that came from next door; with none, they stay (`Combatant::stays`).

use super::paths::flight_path;
use super::{describe, reject, Board, Moved};
use crate::game::command::Move;
use crate::game::state::State;
use crate::game::Rejection;
use crate::rules::{Domain, Paratroopers, PowerId, RuleSet, SpaceId};

pub const RULE_PARATROOPERS: &str = "paratroopers";

/// What a territory flies for this power: the paratroopers of its operative facilities (for the
/// power's techs), where it is friendly to the power. The largest allowance if several give one.
pub(crate) fn airfield(rules: &RuleSet, s: &State, power: PowerId, from: SpaceId) -> Option<Paratroopers> {
    let b = Board { rules, s, power };
    if rules.board.space(from).is_sea() || !b.friendly_territory(from) {
        return None;
    }
    let techs = &s.techs[power.index()];
    s.space(from)
        .facilities
        .iter()
        .filter(|f| rules.facilities[f.kind.index()].operative(f.damage))
        .filter_map(|f| rules.facility_paratroopers(f.kind, techs))
        .max_by_key(|p| (p.count, p.range))
}

/// Units flown from `from` this turn, and the territory they went to.
pub(crate) fn flown_from(s: &State, from: SpaceId) -> (u32, Option<SpaceId>) {
    let mut n = 0;
    let mut to = None;
    for (i, sp) in s.spaces.iter().enumerate() {
        let here = sp
            .units
            .iter()
            .filter(|u| u.marks.airborne_from == Some(from))
            .count() as u32;
        if here > 0 {
            n += here;
            to = Some(SpaceId(i as u16));
        }
    }
    (n, to)
}

/// `move UNITS from TERRITORY to TERRITORY as paratroopers`.
pub(super) fn fly(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    combat: bool,
    m: &Move,
    out: &mut Vec<String>,
) -> Result<Moved, Rejection> {
    let (ids, path) = flight(rules, s, power, combat, m)?;
    let steps = (path.len() - 1) as u32;
    let text = describe(rules, s, m.from, &ids);
    let summary = super::moved(s, m.from, &ids, path.clone());
    let src = &mut s.space_mut(m.from).units;
    let mut flying = Vec::new();
    let mut i = 0;
    while i < src.len() {
        if ids.contains(&src[i].id) {
            let mut u = src.remove(i);
            u.moved += steps;
            u.marks.combat_moved = true;
            u.marks.airborne_from = Some(m.from);
            flying.push(u);
        } else {
            i += 1;
        }
    }
    s.space_mut(m.to).units.extend(flying);
    s.this_turn.battle_mut(m.to);
    let route: Vec<&str> = path.iter().map(|p| rules.board.space(*p).name.as_str()).collect();
    out.push(format!(
        "{} flies {text} {} as paratroopers",
        rules.power_info(power).name,
        route.join(" → ")
    ));
    Ok(summary)
}

/// Whether the flight may be made: the units flying and their path, or why not. (Where they
/// drop is checked again as combat move ends: [`check_drops`].)
pub(crate) fn flight(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    combat: bool,
    m: &Move,
) -> Result<(Vec<u32>, Vec<SpaceId>), Rejection> {
    let b = Board { rules, s, power };
    let (from_name, to_name) = (b.name(m.from), b.name(m.to));
    if !combat {
        return Err(reject(
            RULE_PARATROOPERS,
            "paratroopers fly in combat move, to a territory your land units attack",
        ));
    }
    let Some(p) = airfield(rules, s, power, m.from) else {
        return Err(reject(
            RULE_PARATROOPERS,
            format!(
                "no operative facility in {from_name} flies paratroopers for {} (an air base in a friendly territory, with the advance that gives it)",
                rules.power_info(power).name
            ),
        ));
    };
    let ids = super::pick::pick_units(rules, s, power, m.from, &m.units, combat, false)?;
    for id in &ids {
        let u = super::unit(s, m.from, *id);
        let t = rules.unit(u.kind);
        if t.domain != Domain::Land || !p.carries(u.kind) {
            return Err(reject(
                RULE_PARATROOPERS,
                format!("a {} does not fly as a paratrooper", t.name),
            ));
        }
        if u.moved > 0 || u.marks.combat_moved {
            return Err(reject(
                RULE_PARATROOPERS,
                format!(
                    "the {} has moved this turn: paratroopers fly their whole move",
                    t.name
                ),
            ));
        }
    }
    let (flown, went) = flown_from(s, m.from);
    if flown + ids.len() as u32 > p.count {
        return Err(reject(
            RULE_PARATROOPERS,
            format!(
                "at most {} paratroopers take off from {from_name} in a turn; {flown} have, {} more would be too many",
                p.count,
                ids.len()
            ),
        ));
    }
    if let Some(there) = went.filter(|t| *t != m.to) {
        return Err(reject(
            RULE_PARATROOPERS,
            format!(
                "the paratroopers taking off from {from_name} all go to the same territory: {} this turn",
                b.name(there)
            ),
        ));
    }
    let enemy = s
        .space(m.to)
        .controller
        .is_some_and(|c| s.relations[power.index()][c.index()] == crate::game::state::Relation::War);
    if rules.board.space(m.to).is_sea() || !enemy {
        return Err(reject(
            RULE_PARATROOPERS,
            format!("paratroopers drop on an enemy-controlled territory; {to_name} is not one"),
        ));
    }
    // They fly as air units of their own type would.
    let kind = super::unit(s, m.from, ids[0]).kind;
    let mut flyer = rules.unit_for(kind, &s.techs[power.index()]).clone();
    flyer.domain = Domain::Air;
    let path = flight_path(&b, &flyer, m.from, m.to, &m.via, p.range)?;
    Ok((ids, path))
}

/// Combat move ends: each territory paratroopers dropped on is attacked by the mover's land
/// units from next door or from the sea.
pub(super) fn check_drops(rules: &RuleSet, s: &State, power: PowerId) -> Result<(), Rejection> {
    for (i, sp) in s.spaces.iter().enumerate() {
        let here = SpaceId(i as u16);
        if !sp
            .units
            .iter()
            .any(|u| u.owner == power && u.marks.airborne_from.is_some())
        {
            continue;
        }
        let overland = sp.units.iter().any(|u| {
            u.owner == power && u.marks.airborne_from.is_none() && rules.unit(u.kind).domain == Domain::Land
        });
        // Cargo waiting aboard for the sea battle to end before it assaults this territory.
        let by_sea = s
            .spaces
            .iter()
            .flat_map(|z| z.units.iter())
            .any(|u| u.owner == power && u.marks.assault == Some(here));
        if !overland && !by_sea {
            return Err(reject(
                RULE_PARATROOPERS,
                format!(
                    "paratroopers dropped on {} need your land units attacking it from next door or from the sea: move some in, or `undo` the drop",
                    rules.board.space(here).name
                ),
            ));
        }
    }
    Ok(())
}
