//! Mobilize new units: where purchased units may enter play and how many each factory takes
//! (../shared/rules/turn.md §3.1 and §3.5).
//!
//! A factory is a facility whose `production` is above 0. A power mobilizes through a factory in
//! a territory it controls now and controlled when its turn began, that stood there when the turn
//! began (one built this turn works from the next turn), and that no friendly power holds; a
//! factory in a territory originally owned by a friendly power follows `[rules]
//! allied_factories`. Each factory takes up to `production` (resolved against its territory's
//! value) less its damage per turn, counting units placed in its territory and in the sea zones
//! next to it. A unit placed in a sea zone next to several factories is counted against one of
//! them; the counting is redone (a small max-flow, `flow.rs`) whenever that lets a later placement fit, so
//! the order of `place` commands never matters.

use super::control;
use super::state::{Facility, Mobilized, Relation, State, Unit};
use super::Rejection;
use crate::rules::{
    AlliedFactories, Domain, FacilityTypeId, MobilizeAt, Piece, PowerId, RuleSet, SpaceId, UnitTypeId,
};
use std::sync::Arc;

pub const RULE_PURCHASED: &str = "mobilize-purchased-units";
pub const RULE_AT_FACTORY: &str = "mobilize-at-factory";
pub const RULE_HELD: &str = "mobilize-factory-held-since-start";
pub const RULE_ALLIED: &str = "mobilize-allied-factory";
pub const RULE_LIMIT: &str = "mobilize-production-limit";
pub const RULE_IN_TERRITORY: &str = "mobilize-in-factory-territory";
pub const RULE_SEA: &str = "mobilize-sea-adjacent";
pub const RULE_FIGHTER: &str = "mobilize-fighter-carrier";
pub const RULE_FACILITY: &str = "mobilize-facility-build";
pub const RULE_DECLARED: &str = "mobilize-declared-carrier";
pub const RULE_CAPACITY: &str = "purchase-production-capacity";
pub const RULE_CONTROLLED: &str = "mobilize-controlled-territory";

fn reject(rule: &'static str, message: impl Into<String>) -> Rejection {
    Rejection::new(message).by(rule)
}

fn allied(s: &State, a: PowerId, b: PowerId) -> bool {
    a == b || s.relations[a.index()][b.index()] == Relation::Allied
}

fn space_name(rules: &RuleSet, id: SpaceId) -> &str {
    &rules.board.space(id).name
}

fn power_name(rules: &RuleSet, id: PowerId) -> &str {
    &rules.power_info(id).name
}

/// How many units the factory in territory `t` can mobilize for `power` this turn (before
/// counting what was already placed), or why it cannot be used at all.
fn factory(rules: &RuleSet, s: &State, power: PowerId, t: SpaceId) -> Result<u32, Rejection> {
    let space = rules.board.space(t);
    let here = s.space(t);
    // The power's techs (a second economy's are its power's) may raise a factory's production.
    let techs = &s.techs[rules.relation_holder(power).index()];
    let producing: Vec<&Facility> = here
        .facilities
        .iter()
        .filter(|f| rules.facility_production(f.kind, techs, space.ipc) > 0)
        .collect();
    if space.is_sea() || producing.is_empty() {
        return Err(reject(
            RULE_AT_FACTORY,
            format!(
                "{} has no factory (industrial complex) to mobilize units at",
                space.name
            ),
        ));
    }
    let pname = power_name(rules, power);
    match here.controller {
        Some(c) if c == power => {}
        Some(c) if allied(s, power, c) => {
            return Err(reject(
                RULE_ALLIED,
                format!(
                    "the factory in {} is held by {}; a power never mobilizes at a friendly power's factory",
                    space.name,
                    power_name(rules, c)
                ),
            ))
        }
        _ => {
            return Err(reject(
                RULE_HELD,
                format!("{pname} does not control {}", space.name),
            ))
        }
    }
    if s.this_turn.start_control[t.index()] != Some(power) {
        return Err(reject(
            RULE_HELD,
            format!(
                "{pname} took {} this turn; a factory captured this turn can be used from {pname}'s next turn",
                space.name
            ),
        ));
    }
    if let Some(o) = space.owner.filter(|o| *o != power && allied(s, power, *o)) {
        let usable = match rules.switches.allied_factories {
            AlliedFactories::Never => false,
            AlliedFactories::CapitalLost => !control::holds_capital(rules, s, o),
        };
        if !usable {
            let why = match rules.switches.allied_factories {
                AlliedFactories::Never => "a power never mobilizes at a friendly power's factory",
                AlliedFactories::CapitalLost => {
                    "a friendly power's factory is usable only while that power's capital is in enemy hands"
                }
            };
            return Err(reject(
                RULE_ALLIED,
                format!("{} belongs to {}; {why}", space.name, power_name(rules, o)),
            ));
        }
    }
    let old: Vec<&&Facility> = producing
        .iter()
        .filter(|f| !s.this_turn.new_facilities.contains(&(t, f.kind)))
        .collect();
    if old.is_empty() {
        return Err(reject(
            RULE_HELD,
            format!(
                "the factory in {} was built this turn; it mobilizes units from {pname}'s next turn",
                space.name
            ),
        ));
    }
    // A tech may let every factory of the power produce more (`production_bonus`).
    let bonus = rules.production_bonus(techs);
    Ok(old
        .iter()
        .map(|f| {
            let listed = rules.facility_production(f.kind, techs, space.ipc);
            (listed + if listed > 0 { bonus } else { 0 }).saturating_sub(f.damage)
        })
        .sum())
}

/// Every territory whose factory the power may mobilize through this turn, with its capacity.
pub(crate) fn factories(rules: &RuleSet, s: &State, power: PowerId) -> Vec<(SpaceId, u32)> {
    rules
        .board
        .ids()
        // `factory` refuses every territory the power does not hold: not asked (its refusal
        // would be written out and thrown away).
        .filter(|t| s.space(*t).controller == Some(power) && !s.space(*t).facilities.is_empty())
        .filter_map(|t| factory(rules, s, power, t).ok().map(|c| (t, c)))
        .collect()
}

/// Where the power's new units may enter play now, at the most: the territories of its
/// factories (or every territory it controls, with `mobilize_at = "controlled_territories"`)
/// and the sea zones beside them. The placement rules then judge each unit.
pub(crate) fn unit_spaces(rules: &RuleSet, s: &State, power: PowerId) -> Vec<SpaceId> {
    let lands: Vec<SpaceId> = if rules.power_info(power).mobilize_at == MobilizeAt::ControlledTerritories {
        rules
            .board
            .ids()
            .filter(|t| s.space(*t).controller == Some(power))
            .collect()
    } else {
        factories(rules, s, power).into_iter().map(|(t, _)| t).collect()
    };
    let mut out = lands.clone();
    for t in lands {
        out.extend(
            rules
                .board
                .space(t)
                .adjacent
                .iter()
                .filter(|a| rules.board.space(**a).is_sea()),
        );
    }
    out.sort();
    out.dedup();
    out
}

/// Count every unit mobilized this turn plus `extra` against the power's factories: the new
/// counting, or `None` when the factories cannot take them all.
fn assign(rules: &RuleSet, s: &State, power: PowerId, extra: &[(SpaceId, u32)]) -> Option<Vec<Mobilized>> {
    let caps = factories(rules, s, power);
    let mut demand: Vec<(SpaceId, u32)> = Vec::new();
    // What this power (economy) placed: another economy of the power counts at its own.
    let placed = s
        .this_turn
        .mobilized
        .iter()
        .filter(|m| caps.iter().any(|(t, _)| *t == m.factory))
        .map(|m| (m.space, m.count));
    for (space, n) in placed.chain(extra.iter().copied()) {
        match demand.iter_mut().find(|(sp, _)| *sp == space) {
            Some(d) => d.1 += n,
            None => demand.push((space, n)),
        }
    }
    // Units entering play in a space count against the factory there or, at sea, one next to it.
    let reaches = |d: usize, f: usize| {
        let (space, factory) = (demand[d].0, caps[f].0);
        let sp = rules.board.space(space);
        space == factory || (sp.is_sea() && sp.adjacent.contains(&factory))
    };
    let amounts: Vec<u32> = demand.iter().map(|(_, n)| *n).collect();
    let room: Vec<u32> = caps.iter().map(|(_, n)| *n).collect();
    let f = super::flow::assign(&amounts, &room, reaches);
    if f.met != amounts {
        return None;
    }
    let mut out = Vec::new();
    for (d, row) in f.flow.iter().enumerate() {
        for (k, n) in row.iter().enumerate() {
            if *n > 0 {
                out.push(Mobilized {
                    factory: caps[k].0,
                    space: demand[d].0,
                    count: *n,
                });
            }
        }
    }
    Some(out)
}

/// Room for this power's new fighters on its own carriers in a sea zone: its carriers'
/// capacity, less its air units there and less allied guests other allies' carriers cannot hold.
fn own_carrier_room(rules: &RuleSet, s: &State, power: PowerId, zone: SpaceId) -> u32 {
    let (mut own_cap, mut ally_cap, mut own_air, mut guests) = (0, 0, 0, 0);
    for u in &s.space(zone).units {
        let t = rules.unit(u.kind);
        let air = if t.domain == Domain::Air {
            t.carrier_cost.unwrap_or(0)
        } else {
            0
        };
        if rules.same_power(u.owner, power) {
            own_cap += u.deck(rules);
            own_air += air;
        } else if allied(s, power, u.owner) {
            ally_cap += u.deck(rules);
            guests += air;
        }
    }
    own_cap.saturating_sub(own_air + guests.saturating_sub(ally_cap))
}

/// Air units of the power in a sea zone that carriers of its side there cannot hold.
fn fighters_without_room(rules: &RuleSet, s: &State, power: PowerId, zone: SpaceId) -> bool {
    let units = &s.space(zone).units;
    let own_air = units
        .iter()
        .any(|u| rules.same_power(u.owner, power) && rules.unit(u.kind).domain == Domain::Air);
    let cap: u32 = units
        .iter()
        .filter(|u| allied(s, power, u.owner))
        .map(|u| u.deck(rules))
        .sum();
    let need: u32 = units
        .iter()
        .filter(|u| allied(s, power, u.owner) && rules.unit(u.kind).domain == Domain::Air)
        .filter_map(|u| rules.unit(u.kind).carrier_cost)
        .sum();
    own_air && need > cap
}

fn is_carrier(rules: &RuleSet, piece: Piece) -> bool {
    matches!(piece, Piece::Unit(u) if rules.unit(u).carrier_capacity > 0)
}

/// Carriers the power bought and has not placed yet.
fn carriers_waiting(rules: &RuleSet, s: &State, power: PowerId) -> u32 {
    s.purchased[power.index()]
        .iter()
        .filter(|(p, _)| is_carrier(rules, *p))
        .map(|(_, n)| *n)
        .sum()
}

/// Sea zones where the power declared in combat move that a carrier bought this turn would be
/// mobilized, where its fighters still wait for room, and where a carrier could still be placed.
fn open_promises(rules: &RuleSet, s: &State, power: PowerId) -> Vec<SpaceId> {
    if carriers_waiting(rules, s, power) == 0 {
        return Vec::new();
    }
    s.this_turn
        .carrier_promises
        .iter()
        .copied()
        .filter(|z| {
            fighters_without_room(rules, s, power, *z) && assign(rules, s, power, &[(*z, 1)]).is_some()
        })
        .collect()
}

fn names(rules: &RuleSet, zones: &[SpaceId]) -> String {
    zones
        .iter()
        .map(|z| space_name(rules, *z))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Place `count` purchased pieces in `space`. A power with two economies places what the
/// economy holding the territory bought, there (at sea: the first economy that bought the
/// piece and has a factory beside the zone); everything below then speaks of that economy,
/// and the units entering play are the power's.
pub fn place(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    piece: Piece,
    count: u32,
    space: SpaceId,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let power = placing_economy(rules, s, power, piece, space);
    let pname = power_name(rules, power);
    let what = super::piece_name(rules, piece);
    if count == 0 {
        return Err(reject(RULE_PURCHASED, "place at least one unit"));
    }
    let have = s.purchased[power.index()]
        .iter()
        .find(|(p, _)| *p == piece)
        .map_or(0, |(_, n)| *n);
    if have < count {
        return Err(reject(
            RULE_PURCHASED,
            format!("{pname} has {have} {what} waiting to be mobilized, not {count}"),
        ));
    }
    match piece {
        Piece::Facility(f) => place_facility(rules, s, power, f, count, space)?,
        Piece::Unit(u) => place_units(rules, s, power, u, count, space)?,
    }
    let list = &mut Arc::make_mut(&mut s.purchased)[power.index()];
    if let Some(i) = list.iter().position(|(p, _)| *p == piece) {
        list[i].1 -= count;
        if list[i].1 == 0 {
            list.remove(i);
        }
    }
    out.push(format!(
        "{pname} places {count} {what} in {}",
        space_name(rules, space)
    ));
    Ok(())
}

/// Which economy of `power` places `piece` in `space` (see `place`).
fn placing_economy(rules: &RuleSet, s: &State, power: PowerId, piece: Piece, space: SpaceId) -> PowerId {
    let economies = rules.economies(power);
    if economies.len() == 1 {
        return power;
    }
    if !rules.board.space(space).is_sea() {
        return super::economy::holding(rules, s, power, space);
    }
    let waiting = |e: PowerId| s.purchased[e.index()].iter().any(|(p, n)| *p == piece && *n > 0);
    economies
        .iter()
        .copied()
        .find(|e| waiting(*e) && unit_spaces(rules, s, *e).contains(&space))
        .unwrap_or(power)
}

/// Mobilize purchased units in a space: where they may enter play (a sea zone or a
/// territory), the factories' production, the carriers promised in combat move, then the
/// units themselves.
fn place_units(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    kind: UnitTypeId,
    count: u32,
    space: SpaceId,
) -> Result<(), Rejection> {
    if rules.board.space(space).is_sea() {
        sea_zone_entry(rules, s, power, kind, count, space)?;
    } else {
        territory_entry(rules, s, power, kind, space)?;
        if rules.power_info(power).mobilize_at == MobilizeAt::ControlledTerritories {
            // No factory and no production limit: any territory the power controls now.
            enter_play(s, rules.relation_holder(power), kind, count, space);
            return Ok(());
        }
    }
    let counted = factory_capacity(rules, s, power, count, space)?;
    keep_carrier_promises(rules, s, power, kind, count, space)?;
    s.this_turn.mobilized = counted;
    enter_play(s, rules.relation_holder(power), kind, count, space);
    if rules.unit(kind).carrier_capacity > 0 && !fighters_without_room(rules, s, power, space) {
        s.this_turn.carrier_promises.retain(|z| *z != space);
    }
    Ok(())
}

/// Whether these units may enter play in this sea zone: only ships and fighters that land
/// on carriers, in a zone next to a factory the power may mobilize at, and fighters only on
/// the power's own carriers with room for them.
fn sea_zone_entry(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    kind: UnitTypeId,
    count: u32,
    space: SpaceId,
) -> Result<(), Rejection> {
    let pname = power_name(rules, power);
    let t = rules.unit(kind);
    let sp = rules.board.space(space);
    let on_carrier = t.domain == Domain::Air && t.carrier_cost.is_some();
    if t.domain == Domain::Land || (t.domain == Domain::Air && !on_carrier) {
        let extra = if t.domain == Domain::Land {
            " (never at sea, not aboard transports)"
        } else {
            " (they cannot land on carriers)"
        };
        return Err(reject(
            RULE_IN_TERRITORY,
            format!(
                "{} enter play only in a territory with an eligible factory{extra}",
                t.name
            ),
        ));
    }
    let mut why = Vec::new();
    let near = sp
        .adjacent
        .iter()
        .filter(|a| !rules.board.space(**a).is_sea())
        .filter(|a| match factory(rules, s, power, **a) {
            Ok(_) => true,
            Err(e) => {
                if e.rule.as_deref() != Some(RULE_AT_FACTORY) {
                    why.push(e.message);
                }
                false
            }
        })
        .count();
    if near == 0 {
        let why = if why.is_empty() {
            String::new()
        } else {
            format!(" ({})", why.join("; "))
        };
        return Err(reject(
            RULE_SEA,
            format!(
                "{} is not next to a factory {pname} may mobilize at this turn{why}",
                sp.name
            ),
        ));
    }
    if let (true, Some(cost)) = (on_carrier, t.carrier_cost) {
        let room = own_carrier_room(rules, s, power, space);
        if count * cost > room {
            return Err(reject(
                RULE_FIGHTER,
                format!(
                    "{pname}'s carriers in {} have room for {} more {}; new fighters go only on the power's own carriers (new or already there), never on a friendly power's",
                    sp.name,
                    room / cost.max(1),
                    t.name
                ),
            ));
        }
    }
    Ok(())
}

/// Whether these units may enter play in this territory: never ships; for a power that
/// mobilizes in `controlled_territories`, one it controls now; else one with a factory it
/// may mobilize at.
fn territory_entry(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    kind: UnitTypeId,
    space: SpaceId,
) -> Result<(), Rejection> {
    let pname = power_name(rules, power);
    let t = rules.unit(kind);
    let sp = rules.board.space(space);
    if t.domain == Domain::Sea {
        return Err(reject(
            RULE_SEA,
            format!(
                "{} enter play in a sea zone next to an eligible factory, not in {}",
                t.name, sp.name
            ),
        ));
    }
    if rules.power_info(power).mobilize_at == MobilizeAt::ControlledTerritories {
        if s.space(space).controller != Some(power) {
            return Err(reject(
                RULE_CONTROLLED,
                format!(
                    "{pname}'s new units enter play in territories {pname} controls; {} is not one",
                    sp.name
                ),
            ));
        }
        return Ok(());
    }
    factory(rules, s, power, space)?;
    Ok(())
}

/// The factories' production this turn, with these units counted against it (each factory
/// mobilizes up to its production less its damage, sea-zone placements included);
/// refused with how many more the space can still take.
fn factory_capacity(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    count: u32,
    space: SpaceId,
) -> Result<Vec<Mobilized>, Rejection> {
    let Some(counted) = assign(rules, s, power, &[(space, count)]) else {
        let more = (0..count)
            .rev()
            .find(|n| *n == 0 || assign(rules, s, power, &[(space, *n)]).is_some())
            .unwrap_or(0);
        return Err(reject(
            RULE_LIMIT,
            format!(
                "only {more} more unit(s) can enter play in {} this turn: a factory mobilizes up to its production (its own, or its territory's IPC value) less its damage, counting units placed in the sea zones next to it",
                rules.board.space(space).name
            ),
        ));
    };
    Ok(counted)
}

/// A carrier promised in combat move must stay placeable in every zone still waiting for it:
/// refused when these units would leave too few carriers, or too little production, for them.
fn keep_carrier_promises(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    kind: UnitTypeId,
    count: u32,
    space: SpaceId,
) -> Result<(), Rejection> {
    let pname = power_name(rules, power);
    let open = open_promises(rules, s, power);
    let carrier = rules.unit(kind).carrier_capacity > 0;
    let rest: Vec<SpaceId> = open
        .iter()
        .copied()
        .filter(|z| !(carrier && *z == space))
        .collect();
    if !rest.is_empty() {
        let left = carriers_waiting(rules, s, power) - if carrier { count } else { 0 };
        let mut want = vec![(space, count)];
        want.extend(rest.iter().map(|z| (*z, 1)));
        if (left as usize) < rest.len() || assign(rules, s, power, &want).is_none() {
            return Err(reject(
                RULE_DECLARED,
                format!(
                    "{pname} declared in combat move that a new carrier would be mobilized in {} for its fighters to land; place it there first",
                    names(rules, &rest)
                ),
            ));
        }
    }
    Ok(())
}

/// The new units enter play in the space, each with the next unit id.
fn enter_play(s: &mut State, power: PowerId, kind: UnitTypeId, count: u32, space: SpaceId) {
    for _ in 0..count {
        let id = s.next_unit_id;
        s.next_unit_id += 1;
        s.space_mut(space).units.push(Unit::new(id, kind, power));
    }
}

fn place_facility(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    kind: FacilityTypeId,
    count: u32,
    space: SpaceId,
) -> Result<(), Rejection> {
    let pname = power_name(rules, power);
    let ft = &rules.facilities[kind.index()];
    let sp = rules.board.space(space);
    if sp.is_sea() {
        return Err(reject(
            RULE_FACILITY,
            format!("a {} is built in a territory, not a sea zone", ft.name),
        ));
    }
    if s.space(space).controller != Some(power) || s.this_turn.start_control[space.index()] != Some(power) {
        return Err(reject(
            RULE_FACILITY,
            format!(
                "a {} can be built only in a territory {pname} has controlled since the start of its turn; {} is not one",
                ft.name, sp.name
            ),
        ));
    }
    if let Some(up) = ft.upgrade {
        return place_upgrade(rules, s, power, kind, up, count, space);
    }
    may_build_here(rules, power, kind, space)?;
    let factory =
        |k: FacilityTypeId| rules.facilities[k.index()].production != crate::rules::Amount::Fixed(0);
    if factory(kind) {
        if let Some(f) = s
            .space(space)
            .facilities
            .iter()
            .find(|f| f.kind != kind && factory(f.kind))
        {
            return Err(reject(
                RULE_FACILITY,
                format!(
                    "{} has a {} already; a territory holds one industrial complex",
                    sp.name,
                    rules.facilities[f.kind.index()].name
                ),
            ));
        }
    }
    if count > 1 || s.space(space).facilities.iter().any(|f| f.kind == kind) {
        return Err(reject(
            RULE_FACILITY,
            format!(
                "a territory holds at most one {}; {} cannot take another",
                ft.name, sp.name
            ),
        ));
    }
    s.space_mut(space).facilities.push(Facility { kind, damage: 0 });
    s.this_turn.new_facilities.push((space, kind));
    Ok(())
}

/// Where a facility of this type may stand: not on an island unless it may, in a territory worth
/// enough, originally the power's if it must be, on a coast if it must be.
fn may_build_here(
    rules: &RuleSet,
    power: PowerId,
    kind: FacilityTypeId,
    space: SpaceId,
) -> Result<(), Rejection> {
    let ft = &rules.facilities[kind.index()];
    let sp = rules.board.space(space);
    if sp.island && !ft.on_islands {
        return Err(reject(
            RULE_FACILITY,
            format!("a {} cannot be built on an island; {} is one", ft.name, sp.name),
        ));
    }
    if sp.ipc < ft.requires_ipc {
        return Err(reject(
            RULE_FACILITY,
            format!(
                "a {} needs a territory worth at least {} IPC(s); {} is worth {}",
                ft.name, ft.requires_ipc, sp.name, sp.ipc
            ),
        ));
    }
    if ft.original_only && sp.owner != Some(power) {
        return Err(reject(
            RULE_FACILITY,
            format!(
                "a {} is built only in a territory {} originally held; {} was not",
                ft.name,
                power_name(rules, power),
                sp.name
            ),
        ));
    }
    if ft.coastal && !sp.adjacent.iter().any(|a| rules.board.space(*a).is_sea()) {
        return Err(reject(
            RULE_FACILITY,
            format!(
                "a {} is built on a coast; {} borders no sea zone",
                ft.name, sp.name
            ),
        ));
    }
    Ok(())
}

/// An upgrade (`upgrades_from`, `upgrades_to`): placed on an undamaged facility of the first
/// type where the second may be built; the facility becomes the second type when the Mobilize
/// phase ends, so it mobilizes as the first this turn.
fn place_upgrade(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    kind: FacilityTypeId,
    up: crate::rules::Upgrade,
    count: u32,
    space: SpaceId,
) -> Result<(), Rejection> {
    let (ft, from, to) = (
        &rules.facilities[kind.index()],
        &rules.facilities[up.from.index()],
        &rules.facilities[up.to.index()],
    );
    let sp = rules.board.space(space);
    let Some(f) = s.space(space).facilities.iter().find(|f| f.kind == up.from) else {
        return Err(reject(
            RULE_FACILITY,
            format!("a {} goes on a {}; {} has none", ft.name, from.name, sp.name),
        ));
    };
    if f.damage > 0 {
        return Err(reject(
            RULE_FACILITY,
            format!(
                "the {} in {} is damaged ({}); repair it first (`repair {} in {}`)",
                from.name, sp.name, f.damage, f.damage, sp.name
            ),
        ));
    }
    may_build_here(rules, power, up.to, space).map_err(|r| {
        Rejection::new(format!("{} (it would become a {})", r.message, to.name)).by(RULE_FACILITY)
    })?;
    if count > 1 || s.this_turn.new_facilities.contains(&(space, kind)) {
        return Err(reject(
            RULE_FACILITY,
            format!("the {} in {} is upgraded once", from.name, sp.name),
        ));
    }
    s.this_turn.new_facilities.push((space, kind));
    Ok(())
}

/// Upgrades placed this turn take effect: each facility becomes what it was upgraded to (its
/// damage within the new type's cap).
fn apply_upgrades(rules: &RuleSet, s: &mut State, out: &mut Vec<String>) {
    let placed = s.this_turn.new_facilities.clone();
    for (space, kind) in placed {
        let Some(up) = rules.facilities[kind.index()].upgrade else {
            continue;
        };
        let sp = rules.board.space(space);
        let cap = rules.facilities[up.to.index()].max_damage.resolve(sp.ipc);
        if let Some(f) = s
            .space_mut(space)
            .facilities
            .iter_mut()
            .find(|f| f.kind == up.from)
        {
            f.kind = up.to;
            f.damage = f.damage.min(cap);
            out.push(format!(
                "the {} in {} is now a {}",
                rules.facilities[up.from.index()].name,
                sp.name,
                rules.facilities[up.to.index()].name
            ));
        }
    }
}

/// The mobilize phase ends: a carrier promised to fighters must have been placed if it still
/// can be; then fighters still at sea without room on a carrier are lost. Units not placed wait
/// in `purchased` (refunded at the end of the turn, or kept, per `[rules] unplaceable_units`).
pub fn end_mobilize(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    for e in rules.economies(power) {
        let open = open_promises(rules, s, e);
        if !open.is_empty() {
            return Err(reject(
                RULE_DECLARED,
                format!(
                    "{} declared in combat move that a new carrier would be mobilized in {} for its fighters to land; place it there before ending the phase",
                    power_name(rules, power),
                    names(rules, &open)
                ),
            ));
        }
    }
    super::movement::land_air_units(rules, s, power, true, out);
    apply_upgrades(rules, s, out);
    Ok(())
}

/// Purchase phase: when the edition limits purchases by production (`[rules]
/// purchase_limited_by_production`), the units bought (and still waiting from earlier turns) may
/// not exceed what the power's eligible factories can mobilize, nor sea units what its factories
/// next to the sea can.
pub fn check_purchase(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    piece: Piece,
    count: u32,
) -> Result<(), Rejection> {
    if !rules.switches.purchase_limited_by_production {
        return Ok(());
    }
    let Piece::Unit(kind) = piece else {
        return Ok(());
    };
    let anywhere = rules.power_info(power).mobilize_at == MobilizeAt::ControlledTerritories;
    if anywhere && rules.unit(kind).domain != Domain::Sea {
        return Ok(());
    }
    let pname = power_name(rules, power);
    let caps = factories(rules, s, power);
    let placed: u32 = s.this_turn.mobilized.iter().map(|m| m.count).sum();
    let waiting = |sea: bool| -> u32 {
        s.purchased[power.index()]
            .iter()
            .filter_map(|(p, n)| match p {
                Piece::Unit(u) if !sea || rules.unit(*u).domain == Domain::Sea => Some(*n),
                _ => None,
            })
            .sum()
    };
    let total = caps.iter().map(|(_, c)| *c).sum::<u32>().saturating_sub(placed);
    // A power whose land and air units need no factory counts only its sea units.
    if !anywhere && waiting(false) + count > total {
        return Err(reject(
            RULE_CAPACITY,
            format!(
                "{pname}'s factories can mobilize {total} unit(s) this turn and {} are already bought; a power buys only what it can mobilize",
                waiting(false)
            ),
        ));
    }
    if rules.unit(kind).domain == Domain::Sea {
        let coastal: u32 = caps
            .iter()
            .filter(|(t, _)| {
                rules
                    .board
                    .space(*t)
                    .adjacent
                    .iter()
                    .any(|a| rules.board.space(*a).is_sea())
            })
            .map(|(_, c)| *c)
            .sum();
        if waiting(true) + count > coastal {
            return Err(reject(
                RULE_CAPACITY,
                format!(
                    "{pname}'s factories next to the sea can mobilize {coastal} sea unit(s) this turn and {} are already bought",
                    waiting(true)
                ),
            ));
        }
    }
    Ok(())
}
