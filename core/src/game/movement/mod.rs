//! Combat and noncombat movement: paths, who may pass where, transports and carriers, and the
//! landing of air units.
//!
//! Every rule here is generic: it reads unit abilities (`blitz`, `stealth_move`,
//! `transport_cost`, `carrier_capacity`, ...), the board (neutrals, canals) and the turn's
//! record of who held what at its start. A refusal names the rule it applies (the `RULE_*`
//! constants, listed in docs/editions.md §Movement rules).
//!
//! This file holds the `move` command's entry point ([`run`]: a loading, an offloading or a
//! move along a path), the board as the moving power sees it (`Board`) and what every room
//! shares. The rooms, by the game's concepts:
//! - `pick`: which units a command takes, and why a unit may not move this phase;
//! - `paths`: paths and who may pass where, blitzes (also one given in two commands);
//! - `along_path`: a move along a path (by land, sea or air) and what it declares;
//! - `transports`: loading and offloading, amphibious assaults;
//! - `air`: where air units land, carriers and their fighters, air units lost;
//! - `air_transport`: land units carried by air units and dropped;
//! - `paratroopers`: land units flown from an air base to a battle;
//! - `raids`: strategic bombing raids;
//! - `combat_move_end`: what ending combat move checks and declares.

mod air;
mod air_transport;
mod along_path;
mod combat_move_end;
mod paratroopers;
mod paths;
mod pick;
mod raids;
mod transports;

pub use air::{
    carriers_meet_fighters, land_air_units, no_ditching, strand_defending_air, unlanded_air, Unlanded,
};
pub use combat_move_end::{declare_standing_battles, end_combat_move};
pub(crate) use paratroopers::{airfield, flown_from};
pub(crate) use paths::{
    air_attack_ends, canal_closed, canal_shut, land_ends, stays_for_battle, warships_block,
};

/// Whether `move ... as paratroopers` would be accepted now (combat move).
pub(crate) fn paratroopers_may_fly(rules: &RuleSet, s: &State, power: PowerId, m: &Move) -> bool {
    paratroopers::flight(rules, s, power, true, m).is_ok()
}
pub use paratroopers::RULE_PARATROOPERS;
pub(crate) use pick::movable;
pub(crate) use transports::may_board;
pub use transports::{land_assault_cargo, zone_cleared};

use crate::game::command::Move;
use crate::game::state::{Relation, State, Unit};
use crate::game::{neutrals, politics, Rejection};
use crate::rules::{Domain, PhaseKind, PowerId, RuleSet, SpaceId, UnitType};
use along_path::move_along_path;
use pick::pick_units;
use transports::{load, offload};

pub const RULE_PHASE: &str = "move-phases";
pub const RULE_RANGE: &str = "movement-range";
pub const RULE_NEUTRAL: &str = "neutral-impassable";
pub const RULE_CANAL: &str = "canals-and-straits";
pub const RULE_STOP_HOSTILE: &str = "stop-on-entering-hostile";
pub const RULE_BLITZ: &str = "blitz";
pub const RULE_CM_END: &str = "combat-move-ends-hostile";
pub const RULE_NCM_FRIENDLY: &str = "noncombat-move-friendly";
pub const RULE_NCM_AFTER_COMBAT: &str = "noncombat-after-combat";
pub const RULE_AIR_CAPTURE: &str = "air-cannot-capture";
pub const RULE_AIR_LANDING: &str = "air-landing";
pub const RULE_AIR_DEMONSTRATE: &str = "air-must-be-able-to-land";
pub const RULE_LOAD: &str = "transport-loading";
pub const RULE_UNLOAD: &str = "transport-offloading";
pub const RULE_CAPACITY: &str = "transport-capacity";
pub const RULE_CARGO_ASSAULT: &str = "combat-cargo-must-assault";
pub const RULE_IGNORED_SUBS: &str = "offload-past-ignored-subs";
pub const RULE_RAID: &str = "strategic-bombing-raid";
pub const RULE_NO_FRIENDLY_ATTACK: &str = "no-attack-on-allies";
pub const RULE_ATTACK_VALUE: &str = "attack-needs-an-attack-value";
pub const RULE_NO_DITCHING: &str = "air-units-must-land";
pub const RULE_SHARE_AT_WAR: &str = "allies-share-at-war";
pub const RULE_COMBAT_ONLY: &str = "noncombat-only-units";
pub const RULE_CONFINED: &str = "confined-movement";
pub const RULE_NO_TRANSPORT: &str = "no-transport";
pub const RULE_AIR_TRANSPORT: &str = "air-transport";
pub const RULE_AIR_TRANSPORT_STOP: &str = "air-transport-stops";
pub const RULE_CARRIER_MEETS: &str = "carrier-must-meet-fighters";

/// What a move did, for the `validate_move` event: the units (by type) and the path taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moved {
    pub units: Vec<(crate::rules::UnitTypeId, u32)>,
    pub path: Vec<SpaceId>,
}

fn moved(s: &State, space: SpaceId, ids: &[u32], path: Vec<SpaceId>) -> Moved {
    let mut units: Vec<(crate::rules::UnitTypeId, u32)> = Vec::new();
    for u in s.space(space).units.iter().filter(|u| ids.contains(&u.id)) {
        match units.iter_mut().find(|(k, _)| *k == u.kind) {
            Some((_, n)) => *n += 1,
            None => units.push((u.kind, 1)),
        }
    }
    Moved { units, path }
}

fn reject(rule: &'static str, message: impl Into<String>) -> Rejection {
    Rejection::new(message).by(rule)
}

fn allied(s: &State, a: PowerId, b: PowerId) -> bool {
    a == b || s.relations[a.index()][b.index()] == Relation::Allied
}

fn at_war(s: &State, a: PowerId, b: PowerId) -> bool {
    s.relations[a.index()][b.index()] == Relation::War
}

/// Questions about the board as one power sees it during its turn.
struct Board<'a> {
    rules: &'a RuleSet,
    s: &'a State,
    power: PowerId,
}

impl<'a> Board<'a> {
    fn name(&self, id: SpaceId) -> &'a str {
        &self.rules.board.space(id).name
    }
    fn is_sea(&self, id: SpaceId) -> bool {
        self.rules.board.space(id).is_sea()
    }
    /// A neutral no unit ever enters (the board's `impassable` kind).
    fn impassable(&self, id: SpaceId) -> bool {
        self.rules.board.space(id).neutral == Some(crate::rules::NeutralKind::Impassable)
    }
    /// A neutral territory not attacked yet: paths found for a move never pass one (a move
    /// attacks or enters one only where it says so, as its destination or `via`).
    fn untouched_neutral(&self, id: SpaceId) -> bool {
        neutrals::untouched(self.rules, self.s, id)
    }
    /// Where an air unit may land: a territory friendly since the turn began (a former neutral
    /// that joined the power's side before its turn too).
    fn landing_ground(&self, id: SpaceId) -> bool {
        (self.friendly_at_start(id) && self.friendly_territory(id))
            || neutrals::joined_before_turn(self.rules, self.s, self.power, id)
    }
    fn friendly_territory(&self, id: SpaceId) -> bool {
        self.s.space(id).controller.is_some_and(|c| self.shares(c))
    }
    /// Shares territories, carriers and transports with `other` (politics::shares).
    fn shares(&self, other: PowerId) -> bool {
        politics::shares(self.rules, self.s, self.power, other)
    }
    /// The ally holding the territory that does not share it now (one of the two at war
    /// with no one).
    fn unshared_holder(&self, id: SpaceId) -> Option<PowerId> {
        self.s
            .space(id)
            .controller
            .filter(|c| allied(self.s, self.power, *c) && !self.shares(*c))
    }
    /// Refusal: `other` and this power are allies that do not share now.
    fn unshared(&self, other: PowerId) -> Rejection {
        let name = |p: PowerId| self.rules.power_info(p).name.as_str();
        let neutral = if politics::neutral(self.rules, self.s, self.power) {
            self.power
        } else {
            other
        };
        reject(
            RULE_SHARE_AT_WAR,
            format!(
                "{} and {} share territories, carriers and transports only while both are at war, and {} is at war with no one",
                name(self.power),
                name(other),
                name(neutral)
            ),
        )
    }
    /// Refusal unless a noncombat move may end here: a territory held by the power's side (or
    /// a friendly neutral its land units take).
    fn ends_friendly(&self, id: SpaceId) -> Result<(), Rejection> {
        if self.friendly_territory(id) || neutrals::to_take(self.rules, self.s, self.power, id) {
            return Ok(());
        }
        Err(reject(
            RULE_NCM_FRIENDLY,
            format!(
                "noncombat moves end in friendly territory; {} is not",
                self.name(id)
            ),
        ))
    }
    /// Held by a power at war with this one, or a neutral territory this power attacks by
    /// entering it (or one that joined the other side).
    fn hostile_territory(&self, id: SpaceId) -> bool {
        match self.s.space(id).controller {
            Some(c) => at_war(self.s, self.power, c),
            None => {
                self.rules.board.space(id).neutral.is_some()
                    && !politics::neutral(self.rules, self.s, self.power)
                    && (neutrals::unfriendly(self.rules, self.s, self.power, id)
                        || neutrals::joined_against(self.rules, self.s, self.power, id))
            }
        }
    }
    fn friendly_at_start(&self, id: SpaceId) -> bool {
        self.s.this_turn.start_control[id.index()].is_some_and(|c| self.shares(c))
    }
    /// A canal's territory held by this power's side at the start of the turn: a power at war
    /// with no one passes its own side's canals too (004 · Entering Territories: a neutral
    /// Soviet Union's ships pass into SZ 112 "if the Allies have control of Denmark"), though it
    /// shares nothing else with its side.
    fn canal_side_at_start(&self, id: SpaceId) -> bool {
        self.friendly_at_start(id)
            || (politics::neutral(self.rules, self.s, self.power)
                && self.s.this_turn.start_control[id.index()].is_some_and(|c| allied(self.s, self.power, c)))
    }
    fn enemy_units(&self, id: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
        let (s, p) = (self.s, self.power);
        s.space(id).units.iter().filter(move |u| at_war(s, p, u.owner))
    }
    /// Enemy units there — or the army an unfriendly neutral places as this power attacks it.
    fn has_enemies(&self, id: SpaceId) -> bool {
        self.enemy_units(id).next().is_some()
            || (self.s.space(id).controller.is_none()
                && ((neutrals::unfriendly(self.rules, self.s, self.power, id)
                    && neutrals::army_size(self.rules, id) > 0)
                    || (neutrals::joined_against(self.rules, self.s, self.power, id)
                        && neutrals::army_left(self.s, id) > 0)))
    }
    fn at_peace(&self, other: PowerId) -> bool {
        politics::relation(self.s, self.power, other) == Relation::Peace
    }
    /// The power at peace with this one that controls the territory.
    fn peace_holder(&self, id: SpaceId) -> Option<PowerId> {
        self.s.space(id).controller.filter(|c| self.at_peace(*c))
    }
    /// A power at peace with this one with units in the space.
    fn peace_units(&self, id: SpaceId) -> Option<PowerId> {
        self.s
            .space(id)
            .units
            .iter()
            .map(|u| u.owner)
            .find(|o| self.at_peace(*o))
    }
    /// Refusal: this power is at peace with `other` (what to declare, and when).
    fn peace(&self, other: PowerId) -> Rejection {
        politics::at_peace(self.rules, self.power, other)
    }
    /// Enemy ships that stop movement (surface warships; not submarines or transports).
    fn blocked(&self, id: SpaceId) -> bool {
        self.enemy_units(id).any(|u| {
            let t = self.rules.unit(u.kind);
            t.domain == Domain::Sea && t.blocks_movement
        })
    }
    /// An enemy unit that cancels this unit's stealth movement (a destroyer for a submarine).
    fn negated(&self, id: SpaceId, t: &UnitType) -> bool {
        self.enemy_units(id).any(|u| {
            t.negated_by
                .iter()
                .any(|tag| self.rules.unit(u.kind).has_tag(tag))
        })
    }
    /// The canal or strait between two sea zones that this power may not pass now (control is
    /// judged at the start of the turn); a unit type it is `open_to` always passes.
    fn closed_canal(&self, a: SpaceId, b: SpaceId, unit: Option<&UnitType>) -> Option<&'a str> {
        self.rules
            .board
            .canals
            .iter()
            .find(|c| {
                (c.connects == [a, b] || c.connects == [b, a])
                    && !c.controlled_by.iter().all(|t| self.canal_side_at_start(*t))
                    && !self.s.this_turn.passages.0.contains(&c.name)
                    && !unit.is_some_and(|u| c.open_to.iter().any(|tag| u.has_tag(tag)))
            })
            .map(|c| c.name.as_str())
    }
    fn adjacent(&self, a: SpaceId, b: SpaceId) -> bool {
        self.rules.board.space(a).adjacent.contains(&b)
    }
    /// A space this power's units may not enter (`[powers.NAME] confined_to`).
    fn off_limits(&self, id: SpaceId) -> bool {
        !self.rules.power_info(self.power).may_enter(id)
    }
    /// Refusal: the power's units stay within the spaces its `confined_to` lists.
    fn confined(&self, id: SpaceId) -> Rejection {
        let info = self.rules.power_info(self.power);
        let mut names: Vec<&str> = info.confined_to.iter().flatten().map(|s| self.name(*s)).collect();
        names.sort_by_cached_key(|n| crate::rules::name_order(n));
        reject(
            RULE_CONFINED,
            format!(
                "{}'s units may not enter {}: they move only within {}",
                info.name,
                self.name(id),
                crate::rules::name_list(&names, 16)
            ),
        )
    }
}

/// Units that move paired one-to-one with a partner type in this move (`move_with`,
/// `blitz_with`: mechanized infantry with tanks), as the type they move as (blitzing if it may)
/// and the movement left; `None` for the others.
fn pair_up(rules: &RuleSet, s: &State, from: SpaceId, ids: &[u32]) -> Vec<Option<(UnitType, u32)>> {
    let types: Vec<&UnitType> = ids
        .iter()
        .map(|id| {
            let u = unit(s, from, *id);
            rules.unit_for(u.kind, &s.techs[u.owner.index()])
        })
        .collect();
    let seeks = |t: &UnitType| t.move_with.map(|m| m.0).or(t.blitz_with);
    let mut pool: Vec<(crate::rules::UnitTypeId, usize)> = Vec::new();
    for (id, t) in ids.iter().zip(&types) {
        if seeks(t).is_none() {
            let k = unit(s, from, *id).kind;
            match pool.iter_mut().find(|p| p.0 == k) {
                Some(p) => p.1 += 1,
                None => pool.push((k, 1)),
            }
        }
    }
    ids.iter()
        .zip(&types)
        .map(|(id, t)| {
            let partner = seeks(t)?;
            let slot = pool.iter_mut().find(|p| p.0 == partner && p.1 > 0)?;
            slot.1 -= 1;
            let u = unit(s, from, *id);
            let mut paired = (*t).clone();
            if t.blitz_with == Some(partner) {
                paired.blitz = true;
            }
            let mut left = remaining(rules, s, u);
            if let Some((_, mv)) = t.move_with {
                paired.movement = mv;
                left = mv.saturating_sub(u.moved);
            }
            Some((paired, left))
        })
        .collect()
}

/// `move UNITS from Z to Z` in combat move: sea units sharing a sea zone with enemy submarines
/// or transports attack them there (000 · Combat Move: "you have the option of attacking any
/// enemy submarines and/or transports that share a sea zone with you. However, if you choose to
/// make such an attack with a unit, that unit must end its movement in that sea zone, and it
/// must attack all such units present"). Zones with enemy warships fight anyway
/// (`declare_standing_battles`).
fn stand_and_attack(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    m: &Move,
    out: &mut Vec<String>,
) -> Result<Moved, Rejection> {
    let zone = m.from;
    let name = rules.board.space(zone).name.clone();
    let enemies = s.space(zone).units.iter().any(|u| at_war(s, power, u.owner));
    if !enemies {
        return Err(reject(
            RULE_PHASE,
            format!("no enemy units share {name} with yours: a move needs a destination other than where the units are (or a `via` path back)"),
        ));
    }
    if (Board { rules, s, power }).blocked(zone) || s.this_turn.battle(zone).is_some() {
        return Err(reject(
            RULE_PHASE,
            format!("a battle is fought in {name} already: your ships there fight in it"),
        ));
    }
    let ids = pick_units(rules, s, power, zone, &m.units, true, false)?;
    let techs = &s.techs[power.index()];
    if let Some(id) = ids.iter().find(|id| {
        let t = rules.unit_for(unit(s, zone, **id).kind, techs);
        t.domain != Domain::Sea || t.attack == 0
    }) {
        return Err(reject(
            RULE_PHASE,
            format!(
                "only sea units that can attack stay to attack the enemy sharing {name}; the {} cannot",
                rules.unit(unit(s, zone, *id).kind).name
            ),
        ));
    }
    let summary = moved(s, zone, &ids, vec![zone]);
    let label = describe(rules, s, zone, &ids);
    for u in s.space_mut(zone).units.iter_mut().filter(|u| ids.contains(&u.id)) {
        // It ends its movement here.
        u.moved = u
            .moved
            .max(rules.unit(u.kind).movement + u32::from(u.marks.range_bonus));
        u.marks.combat_moved = true;
    }
    s.this_turn.battle_mut(zone);
    out.push(format!(
        "{}'s {label} stay in {name} to attack the enemy units sharing it",
        rules.power_info(power).name
    ));
    Ok(summary)
}

/// Movement left this phase; the owner's techs may lengthen a unit's range, and so may a base
/// where it began the turn.
fn remaining(rules: &RuleSet, s: &State, u: &Unit) -> u32 {
    (rules.unit_for(u.kind, &s.techs[u.owner.index()]).movement + u32::from(u.marks.range_bonus))
        .saturating_sub(u.moved)
}

/// Move units as the command says. With `explain`, a move refused for want of a legal path
/// lists where the units can go instead.
pub fn run(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    phase: PhaseKind,
    m: &Move,
    out: &mut Vec<String>,
    explain: bool,
) -> Result<Moved, Rejection> {
    let combat = match phase {
        PhaseKind::CombatMove => true,
        PhaseKind::NoncombatMove => false,
        _ => {
            return Err(reject(
                RULE_PHASE,
                "units move in the combat move and noncombat move phases",
            ))
        }
    };
    if m.airborne {
        return paratroopers::fly(rules, s, power, combat, m, out);
    }
    if m.from == m.to && m.via.is_empty() {
        if combat && rules.board.space(m.from).is_sea() {
            return stand_and_attack(rules, s, power, m, out);
        }
        return Err(Rejection::new(
            "a move needs a destination other than where the units are (or a `via` path back)",
        ));
    }
    if rules.board.space(m.to).neutral == Some(crate::rules::NeutralKind::Impassable) {
        return Err(reject(
            RULE_NEUTRAL,
            format!(
                "{} is neutral: no unit may enter or fly over it",
                rules.board.space(m.to).name
            ),
        ));
    }
    let from_sea = rules.board.space(m.from).is_sea();
    let to_sea = rules.board.space(m.to).is_sea();
    let all_land = |ids: &[u32]| {
        ids.iter()
            .all(|id| rules.unit(unit(s, m.from, *id).kind).domain == Domain::Land)
    };
    if from_sea && !to_sea && m.via.is_empty() {
        // Offloading: the picked units are cargo in the sea zone.
        let ids = pick_units(rules, s, power, m.from, &m.units, combat, true)?;
        if all_land(&ids) {
            let summary = moved(s, m.from, &ids, vec![m.from, m.to]);
            offload(rules, s, power, combat, m, &ids, out)?;
            return Ok(summary);
        }
        if ids
            .iter()
            .any(|id| rules.unit(unit(s, m.from, *id).kind).domain == Domain::Land)
        {
            return Err(Rejection::new(
                "offload land units and move air units in separate commands",
            ));
        }
    }
    let ids = pick_units(rules, s, power, m.from, &m.units, combat, false)?;
    let summary = moved(s, m.from, &ids, Vec::new());
    if !from_sea && to_sea && all_land(&ids) && m.via.is_empty() {
        load(rules, s, power, combat, m, &ids, out)?;
        return Ok(Moved {
            path: vec![m.from, m.to],
            ..summary
        });
    }
    let path = move_along_path(rules, s, power, combat, m, &ids, out, explain)?;
    Ok(Moved { path, ..summary })
}

fn unit(s: &State, space: SpaceId, id: u32) -> &Unit {
    s.space(space)
        .units
        .iter()
        .find(|u| u.id == id)
        .expect("picked units are in the space")
}

/// "2 Infantry, 1 Tank" for the units with these ids in a space.
fn describe(rules: &RuleSet, s: &State, space: SpaceId, ids: &[u32]) -> String {
    let mut counts: Vec<(String, u32)> = Vec::new();
    for u in s.space(space).units.iter().filter(|u| ids.contains(&u.id)) {
        let name = rules.unit(u.kind).name.clone();
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, c)) => *c += 1,
            None => counts.push((name, 1)),
        }
    }
    counts
        .iter()
        .map(|(n, c)| format!("{c} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}
