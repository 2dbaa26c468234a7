//! Combat and noncombat movement: paths, who may pass where, transports and carriers, and the
//! landing of air units.
//!
//! Every rule here is generic: it reads unit abilities (`blitz`, `stealth_move`,
//! `transport_cost`, `carrier_capacity`, ...), the board (neutrals, canals) and the turn's
//! record of who held what at its start. A refusal names the rule it applies (the `RULE_*`
//! constants, listed in docs/editions.md §Movement rules).

use super::command::{Move, Pick};
use super::control;
use super::politics;
use super::state::{Relation, State, Unit};
use super::Rejection;
use crate::rules::{AirTransport, Domain, PhaseKind, PowerId, RuleSet, SpaceId, UnitType};
use std::collections::VecDeque;

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
pub const RULE_COMBAT_ONLY: &str = "noncombat-only-units";
pub const RULE_CONFINED: &str = "confined-movement";
pub const RULE_NO_TRANSPORT: &str = "no-transport";
pub const RULE_AIR_TRANSPORT: &str = "air-transport";
pub const RULE_AIR_TRANSPORT_STOP: &str = "air-transport-stops";

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
    fn impassable(&self, id: SpaceId) -> bool {
        self.rules.board.space(id).neutral.is_some()
    }
    fn friendly_territory(&self, id: SpaceId) -> bool {
        self.s
            .space(id)
            .controller
            .is_some_and(|c| allied(self.s, self.power, c))
    }
    fn hostile_territory(&self, id: SpaceId) -> bool {
        self.s
            .space(id)
            .controller
            .is_some_and(|c| at_war(self.s, self.power, c))
    }
    fn friendly_at_start(&self, id: SpaceId) -> bool {
        self.s.this_turn.start_control[id.index()].is_some_and(|c| allied(self.s, self.power, c))
    }
    fn enemy_units(&self, id: SpaceId) -> impl Iterator<Item = &'a Unit> + 'a {
        let (s, p) = (self.s, self.power);
        s.space(id).units.iter().filter(move |u| at_war(s, p, u.owner))
    }
    fn has_enemies(&self, id: SpaceId) -> bool {
        self.enemy_units(id).next().is_some()
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
    /// judged at the start of the turn).
    fn closed_canal(&self, a: SpaceId, b: SpaceId) -> Option<&'a str> {
        self.rules
            .board
            .canals
            .iter()
            .find(|c| {
                (c.connects == [a, b] || c.connects == [b, a])
                    && !c.controlled_by.iter().all(|t| self.friendly_at_start(*t))
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

/// Movement left this phase; the owner's techs may lengthen a unit's range.
fn remaining(rules: &RuleSet, s: &State, u: &Unit) -> u32 {
    rules
        .unit_for(u.kind, &s.techs[u.owner.index()])
        .movement
        .saturating_sub(u.moved)
}

/// The movement this unit has left to spend in this phase, if it may move at all (for the
/// legal actions: what a move command could take).
pub(crate) fn movable(rules: &RuleSet, s: &State, u: &Unit, combat: bool) -> Option<u32> {
    match cannot_move(rules, s, u, combat) {
        Some(_) => None,
        None => Some(remaining(rules, s, u)),
    }
}

/// Why this unit cannot move at all in this phase, if it cannot. Cargo that boarded this turn
/// has spent its move but may still offload.
fn cannot_move(rules: &RuleSet, s: &State, u: &Unit, combat: bool) -> Option<(&'static str, &'static str)> {
    let t = rules.unit(u.kind);
    if u.marks.unloaded.is_some() {
        return Some((RULE_UNLOAD, "has offloaded this turn and moves no further"));
    }
    if u.marks.dropped {
        return Some((
            RULE_AIR_TRANSPORT,
            "was dropped by air this turn and moves no further",
        ));
    }
    if u.aboard.is_some() && t.domain == Domain::Land {
        if u.marks.assault.is_some() {
            return Some((RULE_UNLOAD, "is committed to an amphibious assault"));
        }
        if !combat && u.marks.combat_moved {
            return Some((RULE_NCM_AFTER_COMBAT, "moved in combat move"));
        }
        return None;
    }
    if t.domain == Domain::Land && u.marks.loaded {
        return Some((
            RULE_LOAD,
            "boarded a transport this turn (its whole move); it may only offload",
        ));
    }
    if combat && !t.combat_move {
        return Some((RULE_COMBAT_ONLY, "moves only in noncombat move"));
    }
    if !combat && t.domain != Domain::Air && (u.marks.combat_moved || u.marks.fought) {
        return Some((
            RULE_NCM_AFTER_COMBAT,
            "moved or fought in the combat phases; only air units move again in noncombat move",
        ));
    }
    if !combat && u.marks.captured {
        return Some((
            RULE_NCM_AFTER_COMBAT,
            "was captured this turn and cannot move yet",
        ));
    }
    if remaining(rules, s, u) == 0 {
        return Some((RULE_RANGE, "has no movement left"));
    }
    None
}

/// Choose the units a move names, in `from`. Cargo is picked only when `cargo` is set (an
/// offload); otherwise units aboard something are left alone.
fn pick_units(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    picks: &[Pick],
    combat: bool,
    cargo: bool,
) -> Result<Vec<u32>, Rejection> {
    let units = &s.space(from).units;
    let place = &rules.board.space(from).name;
    if !cargo && rules.board.space(from).is_sea() {
        for p in picks {
            let kind = match p {
                Pick::Kind { kind, .. } | Pick::All(kind) => Some(*kind),
                Pick::Id(id) => units.iter().find(|u| u.id == *id).map(|u| u.kind),
            };
            if let Some(k) = kind.filter(|k| rules.unit(*k).domain == Domain::Land) {
                return Err(reject(
                    RULE_LOAD,
                    format!(
                        "{} at sea moves only with its transport: move the transport, or offload it into an adjacent territory",
                        rules.unit(k).name
                    ),
                ));
            }
        }
    }
    let cargo_count = |id: u32| units.iter().filter(|c| c.aboard == Some(id)).count();
    let mut chosen: Vec<u32> = Vec::new();
    for p in picks {
        match p {
            Pick::Id(id) => {
                let Some(u) = units.iter().find(|u| u.id == *id) else {
                    return Err(Rejection::new(format!("there is no unit #{id} in {place}")));
                };
                if u.owner != power {
                    return Err(Rejection::new(format!(
                        "unit #{id} belongs to {}",
                        rules.power_info(u.owner).name
                    )));
                }
                if let Some((rule, why)) = cannot_move(rules, s, u, combat) {
                    return Err(reject(rule, format!("{} #{id} {why}", rules.unit(u.kind).name)));
                }
                if chosen.contains(id) {
                    return Err(Rejection::new(format!("unit #{id} is named twice")));
                }
                chosen.push(*id);
            }
            Pick::Kind { kind, .. } | Pick::All(kind) => {
                let mine: Vec<&Unit> = units
                    .iter()
                    .filter(|u| {
                        u.owner == power
                            && u.kind == *kind
                            && (u.aboard.is_some() == cargo || rules.unit(u.kind).domain == Domain::Air)
                            && !chosen.contains(&u.id)
                    })
                    .collect();
                let mut able: Vec<&Unit> = mine
                    .iter()
                    .copied()
                    .filter(|u| cannot_move(rules, s, u, combat).is_none())
                    .collect();
                able.sort_by_key(|u| {
                    (
                        std::cmp::Reverse(remaining(rules, s, u)),
                        std::cmp::Reverse(cargo_count(u.id)),
                        u.id,
                    )
                });
                let want = match p {
                    Pick::Kind { count, .. } => *count as usize,
                    _ => able.len().max(1),
                };
                let name = &rules.unit(*kind).name;
                if able.len() < want {
                    let reason = mine
                        .iter()
                        .find_map(|u| cannot_move(rules, s, u, combat))
                        .map(|(rule, why)| (rule, format!(" (the others: {why})")));
                    let msg = format!(
                        "{place} has {} {name} of {} that can make this move; {want} asked{}",
                        able.len(),
                        rules.power_info(power).name,
                        reason.as_ref().map_or("", |r| r.1.as_str())
                    );
                    return Err(match reason {
                        Some((rule, _)) => reject(rule, msg),
                        None => Rejection::new(msg),
                    });
                }
                chosen.extend(able.iter().take(want).map(|u| u.id));
            }
        }
    }
    Ok(chosen)
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
    if m.from == m.to && m.via.is_empty() {
        return Err(Rejection::new(
            "a move needs a destination other than where the units are (or a `via` path back)",
        ));
    }
    if rules.board.space(m.to).neutral.is_some() {
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

/// What a path does besides moving units: territories blitzed on the way.
struct PathPlan {
    path: Vec<SpaceId>,
    blitzed: Vec<SpaceId>,
}

/// What a path is checked for: the phase, and what the move declares or carries.
#[derive(Clone, Copy)]
struct Leg<'d> {
    combat: bool,
    /// `ignoring`: passing enemy submarines and transports at the end of a move at sea.
    ignore: bool,
    /// A bombing raid: its target needs no defenders, the raid is on its facility.
    raid: bool,
    /// Land units riding the air units of the move.
    drop: Option<&'d AirDrop>,
}

/// Check one unit type along a path; `Ok(blitzed spaces)`.
fn check_path(
    b: &Board,
    t: &UnitType,
    left: u32,
    path: &[SpaceId],
    leg: &Leg,
) -> Result<Vec<SpaceId>, Rejection> {
    let Leg {
        combat, ignore, raid, ..
    } = *leg;
    let steps = path.len() - 1;
    if steps as u32 > left {
        return Err(reject(
            RULE_RANGE,
            format!(
                "{} has {left} movement left; {} to {} is {steps} spaces",
                t.name,
                b.name(path[0]),
                b.name(path[steps])
            ),
        ));
    }
    let mut blitzed = Vec::new();
    for i in 1..=steps {
        let (prev, here) = (path[i - 1], path[i]);
        let last = i == steps;
        if !b.adjacent(prev, here) {
            return Err(Rejection::new(format!(
                "{} is not next to {}",
                b.name(here),
                b.name(prev)
            )));
        }
        if b.impassable(here) {
            return Err(reject(
                RULE_NEUTRAL,
                format!("{} is neutral: no unit may enter or fly over it", b.name(here)),
            ));
        }
        if b.off_limits(here) {
            return Err(b.confined(here));
        }
        match t.domain {
            Domain::Land => {
                if b.is_sea(here) {
                    return Err(Rejection::new(format!(
                        "{} cannot move through {} (land units cross the sea only aboard transports)",
                        t.name,
                        b.name(here)
                    )));
                }
                if b.hostile_territory(here) {
                    if !combat {
                        return Err(reject(
                            RULE_NCM_FRIENDLY,
                            format!(
                                "noncombat moves stay in friendly territory; {} is hostile",
                                b.name(here)
                            ),
                        ));
                    }
                    if !last {
                        let facilities = !b.s.space(here).facilities.is_empty()
                            && b.rules.switches.blitz_blocked_by_facilities;
                        let occupied = b.has_enemies(here) || facilities;
                        if !t.blitz || occupied || !blitzed.is_empty() {
                            let why = if t.blitz && occupied {
                                "; a blitz passes only an unoccupied hostile territory (no enemy units or facilities)"
                            } else {
                                ""
                            };
                            return Err(reject(
                                if t.blitz { RULE_BLITZ } else { RULE_STOP_HOSTILE },
                                format!("{} must stop on entering hostile {}{why}", t.name, b.name(here)),
                            ));
                        }
                        blitzed.push(here);
                    }
                } else if let Some(p) = b.peace_holder(here) {
                    return Err(b.peace(p));
                } else if !b.friendly_territory(here) {
                    return Err(reject(
                        RULE_NEUTRAL,
                        format!("{} is not at war with you and cannot be entered", b.name(here)),
                    ));
                }
            }
            Domain::Sea => {
                if !b.is_sea(here) {
                    return Err(Rejection::new(format!("{} cannot move onto land", t.name)));
                }
                if let Some(canal) = b.closed_canal(prev, here) {
                    return Err(reject(
                        RULE_CANAL,
                        format!(
                            "the {canal} is closed to you: your side did not control it at the start of the turn"
                        ),
                    ));
                }
                let stops = if t.stealth_move {
                    b.negated(here, t)
                } else {
                    b.blocked(here)
                };
                if stops {
                    if !combat && !t.stealth_move {
                        return Err(reject(
                            RULE_NCM_FRIENDLY,
                            format!(
                                "noncombat moves avoid hostile sea zones; {} holds enemy warships",
                                b.name(here)
                            ),
                        ));
                    }
                    if !last {
                        return Err(reject(
                            RULE_STOP_HOSTILE,
                            format!(
                                "{} must stop on entering {} (enemy {})",
                                t.name,
                                b.name(here),
                                if t.stealth_move {
                                    "units that stop it"
                                } else {
                                    "warships"
                                }
                            ),
                        ));
                    }
                }
            }
            // A neutral power's territories may not be flown over (nor into: see below).
            Domain::Air => {
                if let Some(p) = b
                    .peace_holder(here)
                    .filter(|p| !last && politics::neutral(b.s, *p))
                {
                    return Err(b.peace(p));
                }
            }
        }
    }
    let end = path[steps];
    // No attack on a territory held by, or holding units of, a power at peace with this one.
    if combat && !b.is_sea(end) {
        if let Some(p) = b.peace_holder(end).or_else(|| b.peace_units(end)) {
            return Err(b.peace(p));
        }
    }
    if combat {
        let battle = b.s.this_turn.battle(end).is_some();
        let hostile = match t.domain {
            Domain::Land => b.hostile_territory(end),
            Domain::Sea => b.has_enemies(end) && !ignore,
            // Land units dropped with it attack a hostile territory even with nobody in it.
            Domain::Air => {
                b.has_enemies(end)
                    || (battle && !b.is_sea(end))
                    || raid
                    || (leg.drop.is_some() && !b.is_sea(end) && b.hostile_territory(end))
            }
        };
        if !hostile {
            let allowed = match t.domain {
                Domain::Land => !blitzed.is_empty(),
                // Checked when combat move ends: escorts of an amphibious assault, escapes.
                Domain::Sea => true,
                // Fighters leaving a sea zone shared with enemy warships escape like ships.
                Domain::Air => b.is_sea(path[0]) && b.blocked(path[0]),
            };
            if let Some(p) = b.peace_units(end).filter(|_| !allowed) {
                return Err(b.peace(p));
            }
            if !allowed {
                let msg = if t.domain == Domain::Air && b.hostile_territory(end) {
                    return Err(reject(
                        RULE_AIR_CAPTURE,
                        format!(
                            "air units cannot capture {} alone; move land units in first",
                            b.name(end)
                        ),
                    ));
                } else {
                    format!(
                        "combat moves end in a hostile space; {} is not — move there in noncombat move",
                        b.name(end)
                    )
                };
                return Err(reject(RULE_CM_END, msg));
            }
        }
    } else if t.domain == Domain::Land && !b.friendly_territory(end) {
        return Err(reject(
            RULE_NCM_FRIENDLY,
            format!(
                "noncombat moves end in friendly territory; {} is not",
                b.name(end)
            ),
        ));
    }
    Ok(blitzed)
}

/// Find the path for a group of units: the fewest blitzes, then the fewest spaces.
fn find_path(
    b: &Board,
    units: &[(&UnitType, u32)],
    from: SpaceId,
    to: SpaceId,
    leg: &Leg,
) -> Result<PathPlan, Rejection> {
    let range = units.iter().map(|(_, l)| *l).min().unwrap_or(0);
    let passable = |next: SpaceId| {
        !b.off_limits(next)
            && units.iter().all(|(t, _)| match t.domain {
                Domain::Land => !b.is_sea(next) && !b.impassable(next),
                Domain::Sea => b.is_sea(next),
                Domain::Air => !b.impassable(next),
            })
    };
    // Steps from each space to `to` over passable spaces: a path that cannot reach `to` within
    // range is not followed (the paths to try would otherwise grow with range to the power of
    // the board's degree).
    let to_go = steps_to(b, to, range, passable);
    // Breadth-first over paths as space lists, bounded by range (at most 8 on every board).
    let mut best: Option<(usize, PathPlan)> = None;
    let mut first_error: Option<Rejection> = None;
    let mut queue: VecDeque<Vec<SpaceId>> = VecDeque::new();
    queue.push_back(vec![from]);
    while let Some(path) = queue.pop_front() {
        let here = *path.last().expect("paths are never empty");
        if here == to {
            let mut blitzed = Vec::new();
            let mut ok = true;
            for (t, left) in units {
                match check_path(b, t, *left, &path, leg) {
                    Ok(bl) => {
                        if bl.len() > blitzed.len() {
                            blitzed = bl;
                        }
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                if let Some(Err(e)) = leg.drop.map(|d| check_drop(b, d, &path, leg.combat)) {
                    first_error.get_or_insert(e);
                    continue;
                }
                let better = best
                    .as_ref()
                    .is_none_or(|(n, p)| (blitzed.len(), path.len()) < (*n, p.path.len()));
                if better {
                    best = Some((
                        blitzed.len(),
                        PathPlan {
                            path: path.clone(),
                            blitzed,
                        },
                    ));
                }
            }
            continue;
        }
        if path.len() as u32 > range {
            continue;
        }
        if let Some((_, p)) = &best {
            if path.len() >= p.path.len() && p.blitzed.is_empty() {
                continue;
            }
        }
        for next in &b.rules.board.space(here).adjacent {
            // A path may come back to where it began (a blitz and return), never loop elsewhere.
            if path.contains(next) && !(*next == to && path.len() > 1) {
                continue;
            }
            // Prune spaces no unit of the group could pass or end in, and those too far from
            // the destination.
            if !passable(*next) || path.len() as u32 + to_go[next.index()] > range {
                continue;
            }
            let mut p = path.clone();
            p.push(*next);
            queue.push_back(p);
        }
    }
    if let Some((_, plan)) = best {
        return Ok(plan);
    }
    Err(first_error.unwrap_or_else(|| {
        reject(
            RULE_RANGE,
            format!(
                "no path from {} to {} within the units' movement",
                b.name(from),
                b.name(to)
            ),
        )
    }))
}

/// Fewest steps from each space to `to` through spaces `passable` allows (`u32::MAX`: none
/// within `range`); a lower bound on any legal path's length from there.
fn steps_to(b: &Board, to: SpaceId, range: u32, passable: impl Fn(SpaceId) -> bool) -> Vec<u32> {
    let mut dist = vec![u32::MAX / 2; b.rules.board.spaces.len()];
    dist[to.index()] = 0;
    let mut queue = VecDeque::from([to]);
    while let Some(at) = queue.pop_front() {
        let d = dist[at.index()];
        if d >= range {
            continue;
        }
        // Every space on a path before `to` but its first was entered, so passable; the first
        // is wherever the units are.
        for &n in &b.rules.board.space(at).adjacent {
            if dist[n.index()] > d + 1 {
                dist[n.index()] = d + 1;
                if passable(n) {
                    queue.push_back(n);
                }
            }
        }
    }
    dist
}

/// Every space a group of units could end a move in this phase: some path to it passes
/// [`check_path`] for each unit. (What is checked after the path, such as a landing place for
/// air units in combat move, is not.)
fn reachable(b: &Board, units: &[(&UnitType, u32)], from: SpaceId, leg: &Leg) -> Vec<SpaceId> {
    let leg = Leg { raid: false, ..*leg };
    let range = units.iter().map(|(_, l)| *l).min().unwrap_or(0);
    let mut kinds: Vec<(&UnitType, u32)> = Vec::new();
    for (t, left) in units {
        if !kinds.iter().any(|(k, l)| k.id == t.id && l == left) {
            kinds.push((t, *left));
        }
    }
    let mut found = Vec::new();
    let mut queue: VecDeque<Vec<SpaceId>> = VecDeque::from([vec![from]]);
    while let Some(path) = queue.pop_front() {
        let here = *path.last().expect("paths are never empty");
        if here != from
            && !found.contains(&here)
            && kinds
                .iter()
                .all(|(t, left)| check_path(b, t, *left, &path, &leg).is_ok())
            && leg
                .drop
                .is_none_or(|d| check_drop(b, d, &path, leg.combat).is_ok())
        {
            found.push(here);
        }
        if path.len() as u32 > range {
            continue;
        }
        for next in &b.rules.board.space(here).adjacent {
            let passable = !b.off_limits(*next)
                && kinds.iter().all(|(t, _)| match t.domain {
                    Domain::Land => !b.is_sea(*next) && !b.impassable(*next),
                    Domain::Sea => b.is_sea(*next),
                    Domain::Air => !b.impassable(*next),
                });
            if passable && !path.contains(next) {
                let mut p = path.clone();
                p.push(*next);
                queue.push_back(p);
            }
        }
    }
    found
}

/// A move refused for want of a legal path, with where the units can go this phase instead.
fn with_reach(
    b: &Board,
    units: &[(&UnitType, u32)],
    from: SpaceId,
    leg: &Leg,
    mut e: Rejection,
    explain: bool,
) -> Rejection {
    if !explain {
        return e;
    }
    let mut names: Vec<&str> = reachable(b, units, from, leg)
        .into_iter()
        .map(|s| b.name(s))
        .collect();
    names.sort_by_cached_key(|n| crate::rules::name_order(n));
    let mut kinds: Vec<&str> = Vec::new();
    for (t, _) in units {
        if !kinds.contains(&t.name.as_str()) {
            kinds.push(&t.name);
        }
    }
    let carrying = leg
        .drop
        .map(|d| format!(" carrying {}", d.cargo))
        .unwrap_or_default();
    let who = format!("{}{carrying} in {}", kinds.join(", "), b.name(from));
    if names.is_empty() {
        e.message
            .push_str(&format!("; {who} can reach no space this phase"));
    } else {
        let list = crate::rules::name_list(&names, 12);
        e.message.push_str(&format!("; {who} can reach: {list}"));
    }
    e
}

/// Units that entered an empty enemy territory earlier in this combat move and go on: the
/// blitz the whole path would have been, given in two commands. `Ok(true)` when the move is
/// such a continuation, `Ok(false)` when no unit of it is stopped in a battle; a refusal when
/// one is and may not go on.
fn blitz_goes_on(
    rules: &RuleSet,
    s: &State,
    b: &Board,
    m: &Move,
    ids: &[u32],
    paired: &[Option<(UnitType, u32)>],
) -> Result<bool, Rejection> {
    if s.this_turn.battle(m.from).is_none() {
        return Ok(false);
    }
    let Some(id) = ids.iter().find(|id| unit(s, m.from, **id).marks.combat_moved) else {
        return Ok(false);
    };
    let blitzers = ids.iter().zip(paired).all(|(id, p)| {
        let u = unit(s, m.from, *id);
        !u.marks.combat_moved
            || match p {
                Some((t, _)) => t.blitz,
                None => rules.unit_for(u.kind, &s.techs[u.owner.index()]).blitz,
            }
    });
    let open = open_for_blitz(rules, s, b, m.from);
    if blitzers && open {
        return Ok(true);
    }
    let why = if blitzers {
        "; a blitz goes on only through a territory with no enemy units or facilities"
    } else {
        ""
    };
    Err(reject(
        RULE_STOP_HOSTILE,
        format!(
            "{} moved into the battle in {} and stays there until combat{why}",
            rules.unit(unit(s, m.from, *id).kind).name,
            b.name(m.from)
        ),
    ))
}

/// A blitz may go on through this territory: hostile, with no enemy units (or facilities,
/// where the edition says they stop a blitz).
fn open_for_blitz(rules: &RuleSet, s: &State, b: &Board, at: SpaceId) -> bool {
    let facilities = !s.space(at).facilities.is_empty() && rules.switches.blitz_blocked_by_facilities;
    b.hostile_territory(at) && !b.has_enemies(at) && !facilities
}

/// This unit entered the battle where it stands in this combat move and stays there until
/// combat: no move of it alone can be accepted ([`blitz_goes_on`] refuses it). Units that
/// blitz only with a partner are never called stuck here, since the pair may go on.
pub(crate) fn stays_for_battle(rules: &RuleSet, s: &State, power: PowerId, at: SpaceId, u: &Unit) -> bool {
    if !u.marks.combat_moved || s.this_turn.battle(at).is_none() {
        return false;
    }
    let t = rules.unit_for(u.kind, &s.techs[u.owner.index()]);
    let may_blitz = t.blitz || t.blitz_with.is_some();
    !(may_blitz && open_for_blitz(rules, s, &Board { rules, s, power }, at))
}

/// Land units may try to board in this sea zone from `from`: it borders `from`, holds no
/// enemy warships and holds a transport of the power's side (what [`load`] asks first).
pub(crate) fn may_board(rules: &RuleSet, s: &State, power: PowerId, from: SpaceId, zone: SpaceId) -> bool {
    let b = Board { rules, s, power };
    b.adjacent(from, zone)
        && !b.blocked(zone)
        && s.space(zone)
            .units
            .iter()
            .any(|t| rules.unit(t.kind).transport_capacity > 0 && allied(s, power, t.owner))
}

/// The canal or strait between these sea zones is closed to this power now.
pub(crate) fn canal_closed(rules: &RuleSet, s: &State, power: PowerId, a: SpaceId, b: SpaceId) -> bool {
    Board { rules, s, power }.closed_canal(a, b).is_some()
}

/// Enemy warships in this sea zone stop movement: `ignoring` them is refused.
pub(crate) fn warships_block(rules: &RuleSet, s: &State, power: PowerId, zone: SpaceId) -> bool {
    Board { rules, s, power }.blocked(zone)
}

#[allow(clippy::too_many_arguments)]
fn move_along_path(
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

/// Land units of a move riding air units of the same move (`air_transport`), and what their
/// carriers' rules say about the flight.
struct AirDrop {
    /// (cargo, carrier) unit ids.
    rides: Vec<(u32, u32)>,
    /// Some carrier stops in the first hostile territory it enters.
    stop_at_first_hostile: bool,
    /// Every carrier may make a bombing raid while carrying.
    raid: bool,
    /// The carriers and the cargo as `describe` counts them, for messages.
    carriers: String,
    cargo: String,
}

impl AirDrop {
    fn carries(&self, id: u32) -> bool {
        self.rides.iter().any(|(r, _)| *r == id)
    }
}

/// Which land units of a move ride which air units of it: each air unit with an
/// `air_transport` usable in this phase takes up to its capacity of the land units it carries
/// (those not paired with a partner by `move_with`), as many as can ride, the first named first.
fn air_drop(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    ids: &[u32],
    paired: &[Option<(UnitType, u32)>],
    combat: bool,
) -> Option<AirDrop> {
    if !rules.power_info(power).board_transports {
        return None;
    }
    let techs = &s.techs[power.index()];
    let ty = |id: u32| rules.unit_for(unit(s, from, id).kind, techs);
    let carriers: Vec<(u32, &AirTransport)> = ids
        .iter()
        .filter_map(|id| {
            let a = ty(*id).air_transport.as_ref()?;
            (combat || a.noncombat).then_some((*id, a))
        })
        .collect();
    if carriers.is_empty() {
        return None;
    }
    let riders: Vec<u32> = ids
        .iter()
        .zip(paired)
        .filter(|(id, p)| p.is_none() && ty(**id).domain == Domain::Land)
        .map(|(id, _)| *id)
        .collect();
    // One slot per unit a carrier can hold.
    let slots: Vec<usize> = carriers
        .iter()
        .enumerate()
        .flat_map(|(i, (_, a))| std::iter::repeat_n(i, (a.capacity as usize).min(riders.len())))
        .collect();
    let accepts: Vec<Vec<usize>> = riders
        .iter()
        .map(|r| {
            let t = ty(*r);
            (0..slots.len())
                .filter(|k| carriers[slots[*k]].1.carries(t))
                .collect()
        })
        .collect();
    let rides: Vec<(u32, u32)> = riders
        .iter()
        .zip(match_slots(&accepts, slots.len()))
        .filter_map(|(r, k)| Some((*r, carriers[slots[k?]].0)))
        .collect();
    if rides.is_empty() {
        return None;
    }
    let used: Vec<(u32, &AirTransport)> = carriers
        .into_iter()
        .filter(|(c, _)| rides.iter().any(|(_, rc)| rc == c))
        .collect();
    let carrier_ids: Vec<u32> = used.iter().map(|(c, _)| *c).collect();
    let cargo_ids: Vec<u32> = rides.iter().map(|(r, _)| *r).collect();
    Some(AirDrop {
        stop_at_first_hostile: used.iter().any(|(_, a)| a.stop_at_first_hostile),
        raid: used.iter().all(|(_, a)| a.raid),
        carriers: describe(rules, s, from, &carrier_ids),
        cargo: describe(rules, s, from, &cargo_ids),
        rides,
    })
}

/// A largest matching of riders to slots (`accepts[r]`: the slots rider `r` fits), by
/// augmenting paths, riders in order: an earlier rider never loses its place to a later one.
/// `result[r]` is rider `r`'s slot.
fn match_slots(accepts: &[Vec<usize>], slots: usize) -> Vec<Option<usize>> {
    fn augment(r: usize, accepts: &[Vec<usize>], holder: &mut [Option<usize>], seen: &mut [bool]) -> bool {
        for &k in &accepts[r] {
            if seen[k] {
                continue;
            }
            seen[k] = true;
            let h = holder[k];
            if h.is_none_or(|h| augment(h, accepts, holder, seen)) {
                holder[k] = Some(r);
                return true;
            }
        }
        false
    }
    let mut holder: Vec<Option<usize>> = vec![None; slots];
    for r in 0..accepts.len() {
        let mut seen = vec![false; slots];
        augment(r, accepts, &mut holder, &mut seen);
    }
    let mut of_rider = vec![None; accepts.len()];
    for (k, h) in holder.iter().enumerate() {
        if let Some(r) = h {
            of_rider[*r] = Some(k);
        }
    }
    of_rider
}

/// The path of a move that carries land units by air: carriers that stop in the first hostile
/// territory they enter pass none before the end, and the cargo is dropped into a territory,
/// hostile in combat move (it attacks there), friendly in noncombat move.
fn check_drop(b: &Board, d: &AirDrop, path: &[SpaceId], combat: bool) -> Result<(), Rejection> {
    let end = *path.last().expect("paths are never empty");
    if d.stop_at_first_hostile {
        let passed = path.get(1..path.len() - 1).unwrap_or(&[]);
        if let Some(here) = passed
            .iter()
            .find(|h| !b.is_sea(**h) && (b.hostile_territory(**h) || b.has_enemies(**h)))
        {
            return Err(reject(
                RULE_AIR_TRANSPORT_STOP,
                format!(
                    "{} carrying {} must stop in the first hostile territory it enters, {}, and drop the cargo there",
                    d.carriers,
                    d.cargo,
                    b.name(*here)
                ),
            ));
        }
    }
    if b.is_sea(end) {
        return Err(reject(
            RULE_AIR_TRANSPORT,
            format!(
                "{} carried by air is dropped in a territory, not in {}",
                d.cargo,
                b.name(end)
            ),
        ));
    }
    if combat && !(b.hostile_territory(end) || b.has_enemies(end)) {
        return Err(reject(
            RULE_AIR_TRANSPORT,
            format!(
                "in combat move {} carried by air is dropped into a hostile territory; {} is not — move there in noncombat move",
                d.cargo,
                b.name(end)
            ),
        ));
    }
    if !combat && !b.friendly_territory(end) {
        return Err(reject(
            RULE_NCM_FRIENDLY,
            format!(
                "noncombat moves end in friendly territory; {} is not",
                b.name(end)
            ),
        ));
    }
    Ok(())
}

/// Why land units of a refused move did not fly with the air units moving with them, when one
/// of those air unit types carries them in other circumstances (another phase, fewer of them,
/// a tech).
fn air_cargo_hint(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    m: &Move,
    ids: &[u32],
    drop: Option<&AirDrop>,
    combat: bool,
) -> Option<String> {
    // Cargo is never dropped at sea: flying would not help.
    if rules.board.space(m.to).is_sea() {
        return None;
    }
    let from = m.from;
    let techs = &s.techs[power.index()];
    let kind = |id: u32| unit(s, from, id).kind;
    let walker = ids.iter().copied().find(|id| {
        rules.unit_for(kind(*id), techs).domain == Domain::Land && !drop.is_some_and(|d| d.carries(*id))
    })?;
    let w = rules.unit_for(kind(walker), techs);
    for id in ids.iter().copied() {
        let air = rules.unit_for(kind(id), techs);
        if air.domain != Domain::Air {
            continue;
        }
        if let Some(a) = air.air_transport.as_ref().filter(|a| a.carries(w)) {
            let info = rules.power_info(power);
            return Some(if !info.board_transports {
                format!("{}'s units are not carried by transports", info.name)
            } else if !combat && !a.noncombat {
                format!("a {} carries {} only in combat move", air.name, w.name)
            } else {
                format!(
                    "no room left on the {} for {} (each carries {} unit{} by air)",
                    air.name,
                    w.name,
                    a.capacity,
                    if a.capacity == 1 { "" } else { "s" },
                )
            });
        }
        let by_tech = rules.unit_techs[kind(id).index()].techs.iter().find(|t| {
            rules
                .unit_for(kind(id), &[**t])
                .air_transport
                .as_ref()
                .is_some_and(|a| a.carries(w))
        });
        if let Some(t) = by_tech {
            return Some(format!(
                "a {} carries {} only with {}",
                air.name,
                w.name,
                rules.techs[t.index()].name
            ));
        }
    }
    None
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

enum Landing {
    Now,
    /// Only on a carrier bought this turn, mobilized in this sea zone.
    NewCarrier(SpaceId),
}

/// Is `space` a place this air unit may end its noncombat move in? With `later`, a sea zone
/// counts when a carrier can still get there this turn (moved by its owner in noncombat move,
/// or bought and mobilized next to a factory).
fn landing_place(b: &Board, t: &UnitType, space: SpaceId, later: bool) -> bool {
    if !b.is_sea(space) {
        return b.friendly_at_start(space) && b.friendly_territory(space) && !b.has_enemies(space);
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
            .filter(|u| allied(b.s, b.power, u.owner))
            .collect();
    let cap: u32 = side.iter().map(|u| b.rules.unit(u.kind).carrier_capacity).sum();
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
                    && b.closed_canal(*here, *n).is_none()
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
                    && b.rules.unit(u.kind).carrier_capacity > 0
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
    let bought: u32 = b.s.purchased[b.power.index()]
        .iter()
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
            && b.s.space(*t).controller == Some(b.power)
            && b.s.this_turn.start_control[t.index()] == Some(b.power)
            && b.s.space(*t).facilities.iter().any(|f| {
                let ft = &b.rules.facilities[f.kind.index()];
                ft.production.resolve(b.rules.board.space(*t).ipc) > 0
            })
    })
}

/// The landing demonstration of combat move: some landing place within `left` spaces.
fn landing_within(b: &Board, t: &UnitType, from: SpaceId, left: u32) -> Option<Landing> {
    let mut seen = vec![from];
    let mut frontier = vec![from];
    let mut new_carrier = None;
    for d in 0..=left {
        for here in &frontier {
            if !b.is_sea(*here) {
                if b.friendly_at_start(*here) {
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

fn load(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    combat: bool,
    m: &Move,
    ids: &[u32],
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let b = Board { rules, s, power };
    if !rules.power_info(power).board_transports {
        return Err(reject(
            RULE_NO_TRANSPORT,
            format!(
                "{}'s units cannot be loaded onto transports",
                rules.power_info(power).name
            ),
        ));
    }
    if b.off_limits(m.to) {
        return Err(b.confined(m.to));
    }
    if !b.adjacent(m.from, m.to) {
        return Err(reject(
            RULE_LOAD,
            format!(
                "{} does not border {}; units board from an adjacent territory",
                b.name(m.from),
                b.name(m.to)
            ),
        ));
    }
    if b.blocked(m.to) {
        return Err(reject(
            RULE_LOAD,
            format!(
                "transports load only in friendly sea zones; {} holds enemy warships",
                b.name(m.to)
            ),
        ));
    }
    for id in ids {
        let u = unit(s, m.from, *id);
        let t = rules.unit(u.kind);
        if t.transport_cost.is_none() {
            return Err(reject(
                RULE_LOAD,
                format!("{} cannot be carried by transports", t.name),
            ));
        }
        if u.moved > 0 || u.marks.combat_moved {
            return Err(reject(
                RULE_LOAD,
                format!(
                    "{} has already moved; boarding a transport takes a land unit's whole move",
                    t.name
                ),
            ));
        }
    }
    // Room on each usable transport in the zone.
    let mut room: Vec<(u32, u32, bool)> = s
        .space(m.to)
        .units
        .iter()
        .filter(|t| {
            let tt = rules.unit(t.kind);
            tt.transport_capacity > 0
                && allied(s, power, t.owner)
                && t.marks.unloaded.is_none()
                && (combat || t.owner != power || !(t.marks.combat_moved || t.marks.fought))
        })
        .map(|t| {
            let used: u32 = s
                .space(m.to)
                .units
                .iter()
                .filter(|c| c.aboard == Some(t.id))
                .filter_map(|c| rules.unit(c.kind).transport_cost)
                .sum();
            (
                t.id,
                rules.unit(t.kind).transport_capacity.saturating_sub(used),
                t.owner == power,
            )
        })
        .collect();
    if room.is_empty() {
        let idle = s
            .space(m.to)
            .units
            .iter()
            .any(|t| rules.unit(t.kind).transport_capacity > 0 && t.owner == power);
        return Err(reject(
            if idle { RULE_NCM_AFTER_COMBAT } else { RULE_LOAD },
            if idle {
                format!(
                    "the transports in {} moved or fought in the combat phases and cannot load now",
                    b.name(m.to)
                )
            } else {
                format!("there is no friendly transport in {} to board", b.name(m.to))
            },
        ));
    }
    // Own transports first, fullest first, so loads fill transports instead of spreading.
    room.sort_by_key(|(id, free, own)| (!*own, *free, *id));
    let mut order: Vec<u32> = ids.to_vec();
    order.sort_by_key(|id| {
        std::cmp::Reverse(rules.unit(unit(s, m.from, *id).kind).transport_cost.unwrap_or(0))
    });
    let mut assign: Vec<(u32, u32)> = Vec::new();
    for id in &order {
        let cost = rules.unit(unit(s, m.from, *id).kind).transport_cost.unwrap_or(0);
        let Some(slot) = room.iter_mut().find(|(_, free, _)| *free >= cost) else {
            return Err(reject(
                RULE_CAPACITY,
                format!(
                    "not enough room on the transports in {} for all of them",
                    b.name(m.to)
                ),
            ));
        };
        slot.1 -= cost;
        assign.push((*id, slot.0));
    }
    let text = describe(rules, s, m.from, ids);
    let mut moving = s.take_units(m.from, |u| ids.contains(&u.id));
    for u in &mut moving {
        let t = rules.unit(u.kind);
        u.aboard = assign.iter().find(|(c, _)| *c == u.id).map(|(_, t)| *t);
        u.moved = t.movement;
        u.marks.loaded = true;
        u.marks.combat_moved |= combat;
    }
    let transports: Vec<u32> = assign.iter().map(|(_, t)| *t).collect();
    for t in s
        .space_mut(m.to)
        .units
        .iter_mut()
        .filter(|t| transports.contains(&t.id))
    {
        if t.owner == power {
            t.marks.loaded = true;
            t.marks.combat_moved |= combat;
        }
    }
    s.space_mut(m.to).units.extend(moving);
    out.push(format!(
        "{} loads {text} from {} onto transports in {}",
        rules.power_info(power).name,
        rules.board.space(m.from).name,
        rules.board.space(m.to).name
    ));
    Ok(())
}

fn offload(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    combat: bool,
    m: &Move,
    ids: &[u32],
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let b = Board { rules, s, power };
    let (zone, target) = (m.from, m.to);
    if !b.adjacent(zone, target) {
        return Err(reject(
            RULE_UNLOAD,
            format!("{} does not border {}", b.name(target), b.name(zone)),
        ));
    }
    if b.impassable(target) {
        return Err(reject(
            RULE_NEUTRAL,
            format!("{} is neutral and cannot be entered", b.name(target)),
        ));
    }
    if b.off_limits(target) {
        return Err(b.confined(target));
    }
    let transports: Vec<u32> = ids.iter().filter_map(|id| unit(s, zone, *id).aboard).collect();
    for tid in &transports {
        let t = unit(s, zone, *tid);
        if let Some(other) = t.marks.unloaded {
            if other != target {
                return Err(reject(
                    RULE_UNLOAD,
                    format!(
                        "that transport already offloaded into {} this turn; a transport offloads into one territory per turn",
                        b.name(other)
                    ),
                ));
            }
        }
        if !combat && t.owner == power && (t.marks.combat_moved || t.marks.fought) {
            return Err(reject(
                RULE_NCM_AFTER_COMBAT,
                "a transport that loaded, moved, offloaded or fought in the combat phases cannot offload in noncombat move",
            ));
        }
    }
    let mut assault = false;
    if let Some(p) = b
        .peace_holder(target)
        .or_else(|| b.peace_units(target).filter(|_| combat))
    {
        return Err(b.peace(p));
    }
    if combat {
        if !b.hostile_territory(target) {
            return Err(reject(
                RULE_CM_END,
                format!(
                    "combat moves end in a hostile space; offload into friendly {} in noncombat move",
                    b.name(target)
                ),
            ));
        }
        let sea_battle = b.blocked(zone) || s.this_turn.battle(zone).is_some();
        if sea_battle {
            assault = true;
        } else if b.has_enemies(zone) {
            let warship = s.space(zone).units.iter().any(|u| {
                let t = rules.unit(u.kind);
                u.owner == power && t.domain == Domain::Sea && t.attack > 0
            });
            if !warship {
                return Err(reject(
                    RULE_IGNORED_SUBS,
                    format!(
                        "transports may offload past ignored enemy submarines and transports in {} only with a warship of yours there",
                        b.name(zone)
                    ),
                ));
            }
        }
    } else if !b.friendly_territory(target) {
        return Err(reject(
            RULE_NCM_FRIENDLY,
            format!(
                "noncombat moves end in friendly territory; {} is not",
                b.name(target)
            ),
        ));
    }
    let text = describe(rules, s, zone, ids);
    for t in s
        .space_mut(zone)
        .units
        .iter_mut()
        .filter(|t| transports.contains(&t.id))
    {
        if t.owner == power || !combat {
            t.marks.unloaded = Some(target);
        }
        t.marks.combat_moved |= combat && t.owner == power;
    }
    if combat {
        let battle = s.this_turn.battle_mut(target);
        if !battle.amphibious_from.contains(&zone) {
            battle.amphibious_from.push(zone);
        }
    }
    if assault {
        for u in s.space_mut(zone).units.iter_mut().filter(|u| ids.contains(&u.id)) {
            u.marks.assault = Some(target);
            u.marks.combat_moved = true;
        }
        out.push(format!(
            "{} will assault {} from {} with {text} once the sea zone is cleared",
            rules.power_info(power).name,
            rules.board.space(target).name,
            rules.board.space(zone).name
        ));
        return Ok(());
    }
    let mut moving = s.take_units(zone, |u| ids.contains(&u.id));
    for u in &mut moving {
        u.aboard = None;
        u.marks.unloaded = Some(target);
        u.marks.combat_moved |= combat;
    }
    s.space_mut(target).units.extend(moving);
    out.push(format!(
        "{} offloads {text} from {} into {}{}",
        rules.power_info(power).name,
        rules.board.space(zone).name,
        rules.board.space(target).name,
        if combat { " (amphibious assault)" } else { "" }
    ));
    Ok(())
}

/// Cargo that waited for a sea battle comes ashore if its sea zone is now clear.
pub fn land_assault_cargo(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    target: SpaceId,
    out: &mut Vec<String>,
) {
    let zones: Vec<SpaceId> = s
        .this_turn
        .battle(target)
        .map(|b| b.amphibious_from.clone())
        .unwrap_or_default();
    for z in zones {
        let b = Board { rules, s, power };
        if b.blocked(z) {
            continue;
        }
        let mut moving = s.take_units(z, |u| u.owner == power && u.marks.assault == Some(target));
        if moving.is_empty() {
            continue;
        }
        for u in &mut moving {
            u.aboard = None;
            u.marks.assault = None;
            u.marks.unloaded = Some(target);
        }
        out.push(format!(
            "{} units come ashore in {} from {}",
            moving.len(),
            rules.board.space(target).name,
            rules.board.space(z).name
        ));
        s.space_mut(target).units.extend(moving);
    }
}

/// Combat move ends: cargo loaded in it must be committed to an amphibious assault, and ships
/// that moved must be in a battle, escorting an assault, or escaping a hostile sea zone.
pub fn end_combat_move(rules: &RuleSet, s: &State, power: PowerId) -> Result<(), Rejection> {
    let b = Board { rules, s, power };
    for z in rules.board.ids().filter(|z| b.is_sea(*z)) {
        for u in s.space(z).units.iter().filter(|u| u.owner == power) {
            let t = rules.unit(u.kind);
            if t.domain == Domain::Land && u.marks.loaded && u.marks.combat_moved && u.marks.assault.is_none()
            {
                return Err(reject(
                    RULE_CARGO_ASSAULT,
                    format!(
                        "{} loaded in combat move is still aboard in {}: cargo loaded in combat move must offload in an amphibious assault (offload it, or `undo` the loading)",
                        t.name,
                        b.name(z)
                    ),
                ));
            }
            if t.domain == Domain::Sea && u.marks.combat_moved && u.moved > 0 && !u.marks.escaped {
                let in_battle = s.this_turn.battle(z).is_some();
                let escort = s
                    .this_turn
                    .battles
                    .iter()
                    .any(|bt| bt.amphibious_from.contains(&z));
                if !in_battle && !escort {
                    return Err(reject(
                        RULE_CM_END,
                        format!(
                            "{} in {} ended its combat move in a friendly sea zone that no amphibious assault starts from; `undo` the move or make it in noncombat move",
                            t.name,
                            b.name(z)
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Combat move ends: sea units that stayed in a sea zone with enemy warships fight there (the
/// rulebook's first choice for "sea units starting in enemy-occupied sea zones").
pub fn declare_standing_battles(rules: &RuleSet, s: &mut State, power: PowerId) {
    let standing: Vec<SpaceId> = rules
        .board
        .ids()
        .filter(|z| {
            let b = Board { rules, s, power };
            b.is_sea(*z)
                && b.blocked(*z)
                && s.space(*z)
                    .units
                    .iter()
                    .any(|u| u.owner == power && rules.unit(u.kind).domain == Domain::Sea)
        })
        .collect();
    for z in standing {
        s.this_turn.battle_mut(z);
    }
}

/// Stranded defending fighters: after the moving power's battles, another power's air units at
/// sea with no carrier room left (their carrier was sunk) move one space to land — on a
/// territory their power's side holds or a carrier of that side with room — or are lost. This
/// happens before the moving power's noncombat moves. The engine picks the landing place: a
/// territory first (the first in board order), then a carrier.
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
            // Air units of this owner over the zone beyond what its side's carriers hold.
            let cap: u32 = s
                .space(z)
                .units
                .iter()
                .filter(|u| allied(s, owner, u.owner))
                .map(|u| rules.unit(u.kind).carrier_capacity)
                .sum();
            let mut used: u32 = 0;
            let mut stranded: Vec<u32> = Vec::new();
            let air = s
                .space(z)
                .units
                .iter()
                .filter(|u| allied(s, owner, u.owner) && rules.unit(u.kind).domain == Domain::Air);
            for u in air {
                // Guests already aboard keep their places; an air unit that cannot use a
                // carrier at all is always stranded at sea.
                let c = rules.unit(u.kind).carrier_cost.unwrap_or(u32::MAX / 2);
                if used + c <= cap {
                    used += c;
                } else if u.owner == owner {
                    stranded.push(u.id);
                }
            }
            for id in stranded {
                let b = Board {
                    rules,
                    s,
                    power: owner,
                };
                let t = rules.unit(unit(s, z, id).kind);
                let dest = rules
                    .board
                    .space(z)
                    .adjacent
                    .iter()
                    .copied()
                    .filter(|n| !b.off_limits(*n))
                    .find(|n| !b.is_sea(*n) && b.friendly_territory(*n) && !b.has_enemies(*n))
                    .or_else(|| {
                        rules.board.space(z).adjacent.iter().copied().find(|n| {
                            !b.off_limits(*n)
                                && b.is_sea(*n)
                                && t.carrier_cost.is_some_and(|c| carrier_room(&b, *n) >= c)
                        })
                    });
                let gone = s.remove_unit(z, id);
                let Some(mut u) = gone.into_iter().next() else {
                    continue;
                };
                match dest {
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

pub const RULE_CARRIER_MEETS: &str = "carrier-must-meet-fighters";

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
        if !b.is_sea(space) {
            let safe = b.friendly_at_start(space) && b.friendly_territory(space);
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
        let mut room = carrier_room_for_owner(&b, space);
        for u in units
            .iter()
            .filter(|u| u.owner == power && rules.unit(u.kind).domain == Domain::Air)
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
                .filter(|sp| !b.is_sea(*sp) && b.friendly_at_start(*sp) && b.friendly_territory(*sp))
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

/// A strategic bombing raid: combat move, units that bomb, an enemy territory with a facility
/// that can be damaged.
fn check_raid(rules: &RuleSet, b: &Board, m: &Move, ids: &[u32]) -> Result<(), Rejection> {
    if !rules
        .combat
        .conduct
        .contains(&crate::rules::ConductStep::BombingRaids)
    {
        return Err(reject(RULE_RAID, "this edition has no strategic bombing raids"));
    }
    if let Some(id) = ids
        .iter()
        .find(|id| rules.unit(unit(b.s, m.from, **id).kind).bombing_dice == 0)
    {
        return Err(reject(
            RULE_RAID,
            format!(
                "{} cannot make a bombing raid",
                rules.unit(unit(b.s, m.from, *id).kind).name
            ),
        ));
    }
    let target = b.s.space(m.to).facilities.iter().any(|f| {
        rules.facilities[f.kind.index()]
            .max_damage
            .resolve(rules.board.space(m.to).ipc)
            > 0
    });
    if let Some(p) = b.peace_holder(m.to) {
        return Err(b.peace(p));
    }
    if !b.hostile_territory(m.to) || !target {
        return Err(reject(
            RULE_RAID,
            format!(
                "a bombing raid needs an enemy territory with an industrial complex; {} is not",
                b.name(m.to)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::match_slots;

    #[test]
    fn a_later_rider_moves_an_earlier_one_to_another_slot_it_fits() {
        // Rider 0 fits slots 0 and 1, rider 1 only slot 0: both ride.
        assert_eq!(match_slots(&[vec![0, 1], vec![0]], 2), [Some(1), Some(0)]);
        // Too few slots: the earlier rider keeps its place.
        assert_eq!(match_slots(&[vec![0], vec![0]], 1), [Some(0), None]);
        assert_eq!(match_slots(&[vec![], vec![1]], 2), [None, Some(1)]);
    }
}
