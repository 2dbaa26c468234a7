//! Paths: where a group of units may go this phase and by which spaces. A path is checked
//! space by space for each unit type (range, neutrals, confinement, canals, hostile spaces that
//! stop a move, blitzes) and at its end (combat moves end in a hostile space, noncombat moves in a
//! friendly one); without `via` the best legal path is found. A blitz may go on in a later command.

use super::air_transport::{check_drop, AirDrop};
use super::{
    reject, unit, Board, RULE_AIR_CAPTURE, RULE_BLITZ, RULE_CANAL, RULE_CM_END, RULE_NCM_FRIENDLY,
    RULE_NEUTRAL, RULE_RANGE, RULE_STOP_HOSTILE,
};
use crate::game::command::Move;
use crate::game::state::{State, Unit};
use crate::game::{neutrals, politics, Rejection};
use crate::rules::{Domain, PowerId, RuleSet, SpaceId, UnitType};
use std::collections::VecDeque;

/// What a path does besides moving units: territories blitzed on the way.
pub(super) struct PathPlan {
    pub(super) path: Vec<SpaceId>,
    pub(super) blitzed: Vec<SpaceId>,
}

/// What a path is checked for: the phase, and what the move declares or carries.
#[derive(Clone, Copy)]
pub(super) struct Leg<'d> {
    pub(super) combat: bool,
    /// `ignoring`: passing enemy submarines and transports at the end of a move at sea.
    pub(super) ignore: bool,
    /// A bombing raid: its target needs no defenders, the raid is on its facility.
    pub(super) raid: bool,
    /// Land units riding the air units of the move.
    pub(super) drop: Option<&'d AirDrop>,
}

/// Check one unit type along a path; `Ok(blitzed spaces)`: within its movement left, each
/// space entered in turn, then where the path ends.
pub(super) fn check_path(
    b: &Board,
    t: &UnitType,
    left: u32,
    path: &[SpaceId],
    leg: &Leg,
) -> Result<Vec<SpaceId>, Rejection> {
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
        enter(b, t, path[i - 1], path[i], i == steps, leg.combat, &mut blitzed)?;
    }
    check_path_end(b, t, path, leg, &blitzed)?;
    Ok(blitzed)
}

/// What entering `here` from `prev` asks of a unit of this type, on the way or at the end
/// (`last`): a neighbour, not neutral, not off limits, and what its domain's rules say.
fn enter(
    b: &Board,
    t: &UnitType,
    prev: SpaceId,
    here: SpaceId,
    last: bool,
    combat: bool,
    blitzed: &mut Vec<SpaceId>,
) -> Result<(), Rejection> {
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
    neutrals::check_entry(b.rules, b.s, b.power, t, here, last, combat)?;
    match t.domain {
        Domain::Land => enter_by_land(b, t, here, last, combat, blitzed),
        Domain::Sea => enter_by_sea(b, t, prev, here, last, combat),
        // A neutral power's territories may not be flown over (nor into: see below).
        Domain::Air => match b
            .peace_holder(here)
            .filter(|p| !last && politics::neutral(b.rules, b.s, *p))
        {
            Some(p) => Err(b.peace(p)),
            // Nor an ally's it does not share (a power at war with no one, or its allies).
            None => match b.unshared_holder(here).filter(|_| !last) {
                Some(p) => Err(b.unshared(p)),
                None => Ok(()),
            },
        },
    }
}

/// A land unit enters a territory: a hostile one stops it (in combat move only), unless it
/// blitzes through one empty of enemy units (and facilities, where the edition says so);
/// a territory of a power at peace, or of none at war with this one, may not be entered.
fn enter_by_land(
    b: &Board,
    t: &UnitType,
    here: SpaceId,
    last: bool,
    combat: bool,
    blitzed: &mut Vec<SpaceId>,
) -> Result<(), Rejection> {
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
            let facilities =
                !b.s.space(here).facilities.is_empty() && b.rules.switches.blitz_blocked_by_facilities;
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
    } else if let Some(p) = b.unshared_holder(here) {
        return Err(b.unshared(p));
    } else if !b.friendly_territory(here) && !neutrals::to_take(b.rules, b.s, b.power, here) {
        return Err(reject(
            RULE_NEUTRAL,
            format!("{} is not at war with you and cannot be entered", b.name(here)),
        ));
    }
    Ok(())
}

/// A sea unit enters a sea zone: through canals its side held at the start of the turn, and
/// stopping where enemy warships are (for a stealthy unit, where units that cancel its stealth
/// are); noncombat moves avoid such zones.
fn enter_by_sea(
    b: &Board,
    t: &UnitType,
    prev: SpaceId,
    here: SpaceId,
    last: bool,
    combat: bool,
) -> Result<(), Rejection> {
    if !b.is_sea(here) {
        return Err(Rejection::new(format!("{} cannot move onto land", t.name)));
    }
    if let Some(canal) = b.closed_canal(prev, here, Some(t)) {
        return Err(reject(
            RULE_CANAL,
            format!("the {canal} is closed to you: your side did not control it at the start of the turn"),
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
    Ok(())
}

/// Where a path may end: a combat move in a hostile space (or after a blitz, or escaping), never
/// against a power at peace; a noncombat move of land units in friendly territory.
fn check_path_end(
    b: &Board,
    t: &UnitType,
    path: &[SpaceId],
    leg: &Leg,
    blitzed: &[SpaceId],
) -> Result<(), Rejection> {
    let Leg {
        combat, ignore, raid, ..
    } = *leg;
    let end = path[path.len() - 1];
    // No attack on a territory held by, or holding units of, a power at peace with this one.
    if combat && !b.is_sea(end) {
        if let Some(p) = b.peace_holder(end).or_else(|| b.peace_units(end)) {
            return Err(b.peace(p));
        }
    }
    if combat {
        let hostile = match t.domain {
            Domain::Land => b.hostile_territory(end),
            Domain::Sea => b.has_enemies(end) && !ignore,
            // Land units dropped with it attack a hostile territory even with nobody in it.
            Domain::Air => {
                air_target(b, end)
                    || raid
                    || (leg.drop.is_some() && !b.is_sea(end) && b.hostile_territory(end))
            }
        };
        if !hostile {
            let allowed = match t.domain {
                Domain::Land => !blitzed.is_empty(),
                // Checked when combat move ends: escorts of an amphibious assault, escapes.
                Domain::Sea => true,
                Domain::Air => air_escape(b, path[0]),
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
    } else if t.domain == Domain::Land {
        b.ends_friendly(end)?;
    }
    Ok(())
}

/// Find the path for a group of units: the fewest blitzes, then the fewest spaces.
pub(super) fn find_path(
    b: &Board,
    units: &[(&UnitType, u32)],
    from: SpaceId,
    to: SpaceId,
    leg: &Leg,
) -> Result<PathPlan, Rejection> {
    let range = units.iter().map(|(_, l)| *l).min().unwrap_or(0);
    let passable = |next: SpaceId| {
        !b.off_limits(next)
            && (next == to || !b.untouched_neutral(next))
            && units.iter().all(|(t, _)| match t.domain {
                Domain::Land => !b.is_sea(next) && !b.impassable(next),
                Domain::Sea => b.is_sea(next),
                Domain::Air => !b.impassable(next),
            })
    };
    // Next door: the one path of two spaces is the shortest, and passes no space to blitz, so
    // if it is legal no other is better (most moves are of one step).
    if from != to && range >= 1 && b.adjacent(from, to) && passable(to) {
        let path = vec![from, to];
        if let Ok(blitzed) = blitzed_on(b, units, &path, leg) {
            return Ok(PathPlan { path, blitzed });
        }
    }
    // Steps from each space to `to` over passable spaces: a path that cannot reach `to` within
    // range is not followed (the paths to try would otherwise grow with range to the power of
    // the board's degree).
    let to_go = steps_to(b, to, range, passable);
    // Breadth-first over paths, bounded by range (at most 8 on every board). Each path is a
    // step with its parent, all kept in one list that is also the queue (paths share their
    // beginnings; copying each whole path per step was most of a move's cost).
    let mut steps: Vec<Step> = vec![Step {
        at: from,
        parent: None,
        len: 1,
    }];
    let mut path: Vec<SpaceId> = Vec::new();
    let mut best: Option<(usize, PathPlan)> = None;
    let mut first_error: Option<Rejection> = None;
    let mut i = 0;
    while i < steps.len() {
        let (here, len) = (steps[i].at, steps[i].len);
        let this = i;
        i += 1;
        if here == to {
            // Breadth first: once a path without a blitz is found, none after it is better.
            if best
                .as_ref()
                .is_some_and(|(_, p)| p.blitzed.is_empty() && p.path.len() <= len as usize)
            {
                continue;
            }
            path_of(&steps, this, &mut path);
            match blitzed_on(b, units, &path, leg) {
                Ok(blitzed) => {
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
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
            continue;
        }
        if len > range {
            continue;
        }
        if let Some((_, p)) = &best {
            if len as usize >= p.path.len() && p.blitzed.is_empty() {
                continue;
            }
        }
        for next in &b.rules.board.space(here).adjacent {
            // A path may come back to where it began (a blitz and return), never loop elsewhere.
            if on_path(&steps, this, *next) && !(*next == to && len > 1) {
                continue;
            }
            // Prune spaces no unit of the group could pass or end in, and those too far from
            // the destination.
            if !passable(*next) || len + to_go[next.index()] > range {
                continue;
            }
            steps.push(Step {
                at: *next,
                parent: Some(this),
                len: len + 1,
            });
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

/// The path of land units flown as paratroopers, checked as an air unit of type `t` would fly
/// it: `via` if given, else a shortest one, within `range`. Where it ends is the caller's to
/// check.
pub(super) fn flight_path(
    b: &Board,
    t: &UnitType,
    from: SpaceId,
    to: SpaceId,
    via: &[SpaceId],
    range: u32,
) -> Result<Vec<SpaceId>, Rejection> {
    let too_far = || {
        reject(
            RULE_RANGE,
            format!(
                "{} is more than {range} spaces from {} as air units fly",
                b.name(to),
                b.name(from)
            ),
        )
    };
    let mut blitzed = Vec::new();
    let path: Vec<SpaceId> = if via.is_empty() {
        let passable =
            |n: SpaceId| !b.off_limits(n) && !b.impassable(n) && (n == to || !b.untouched_neutral(n));
        let dist = steps_to(b, to, range, passable);
        if dist[from.index()] > range {
            return Err(too_far());
        }
        // Downhill towards `to`, through the first space an air unit may enter.
        let mut path = vec![from];
        let mut here = from;
        while here != to {
            let d = dist[here.index()];
            let last_step = d == 1;
            let next = b
                .rules
                .board
                .space(here)
                .adjacent
                .iter()
                .copied()
                .filter(|n| dist[n.index()] + 1 == d && (*n == to || passable(*n)))
                .find(|n| enter(b, t, here, *n, last_step, true, &mut Vec::new()).is_ok());
            let Some(next) = next else {
                // Every shortest way is closed; say why for the first.
                let n = b
                    .rules
                    .board
                    .space(here)
                    .adjacent
                    .iter()
                    .copied()
                    .find(|n| dist[n.index()] + 1 == d)
                    .ok_or_else(too_far)?;
                enter(b, t, here, n, last_step, true, &mut blitzed)?;
                return Err(too_far());
            };
            path.push(next);
            here = next;
        }
        path
    } else {
        std::iter::once(from)
            .chain(via.iter().copied())
            .chain(std::iter::once(to))
            .collect()
    };
    let steps = path.len() - 1;
    if steps as u32 > range {
        return Err(too_far());
    }
    for i in 1..=steps {
        enter(b, t, path[i - 1], path[i], i == steps, true, &mut blitzed)?;
    }
    Ok(path)
}

/// One step of a path being searched: the space, the step before it (an index into the
/// search's list) and the path's length in spaces.
struct Step {
    at: SpaceId,
    parent: Option<usize>,
    len: u32,
}

/// The path ending at step `last`, from its start, into `path`.
fn path_of(steps: &[Step], last: usize, path: &mut Vec<SpaceId>) {
    path.clear();
    let mut at = Some(last);
    while let Some(i) = at {
        path.push(steps[i].at);
        at = steps[i].parent;
    }
    path.reverse();
}

/// The path ending at step `last` passes through `space`.
fn on_path(steps: &[Step], last: usize, space: SpaceId) -> bool {
    let mut at = Some(last);
    while let Some(i) = at {
        if steps[i].at == space {
            return true;
        }
        at = steps[i].parent;
    }
    false
}

/// A whole path checked for every unit of the group (and the cargo dropped at its end):
/// the territories blitzed on it, or the first refusal.
fn blitzed_on(
    b: &Board,
    units: &[(&UnitType, u32)],
    path: &[SpaceId],
    leg: &Leg,
) -> Result<Vec<SpaceId>, Rejection> {
    let mut blitzed = Vec::new();
    for (t, left) in units {
        let bl = check_path(b, t, *left, path, leg)?;
        if bl.len() > blitzed.len() {
            blitzed = bl;
        }
    }
    if let Some(d) = leg.drop {
        check_drop(b, d, path, leg.combat)?;
    }
    Ok(blitzed)
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
pub(super) fn reachable(b: &Board, units: &[(&UnitType, u32)], from: SpaceId, leg: &Leg) -> Vec<SpaceId> {
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
        // Nothing passes a neutral territory not attacked yet.
        if path.len() as u32 > range || (here != from && b.untouched_neutral(here)) {
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
pub(super) fn with_reach(
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
pub(super) fn blitz_goes_on(
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

/// The canal or strait between these sea zones is closed to every sea unit of this power now
/// (one open to some unit tags, as Gibraltar to submarines, is not).
pub(crate) fn canal_closed(rules: &RuleSet, s: &State, power: PowerId, a: SpaceId, b: SpaceId) -> bool {
    Board { rules, s, power }
        .closed_canal(a, b, None)
        .is_some_and(|name| {
            rules
                .board
                .canals
                .iter()
                .any(|c| c.name == name && c.open_to.is_empty())
        })
}

/// Whether a canal or strait between `a` and `b` is shut to this power now (not only whether it
/// could be: [`canal_closed`] is for candidates, this is for planning).
pub(crate) fn canal_shut(rules: &RuleSet, s: &State, power: PowerId, a: SpaceId, b: SpaceId) -> bool {
    Board { rules, s, power }.closed_canal(a, b, None).is_some()
}

/// Enemy warships in this sea zone stop movement: `ignoring` them is refused.
pub(crate) fn warships_block(rules: &RuleSet, s: &State, power: PowerId, zone: SpaceId) -> bool {
    Board { rules, s, power }.blocked(zone)
}

/// The territories a land unit moving from `from` with `left` movement could end this phase's
/// move in, by the rules `enter_by_land` and `check_path_end` apply on the way: in combat move
/// through friendly territories and at most one blitz (`blitzer`: the unit, or it with its
/// partner, may blitz), ending in a hostile territory or after the blitz; in noncombat move
/// through and into friendly territories only. A necessary condition, never more: every path
/// `check_path` accepts ends in one of them (`legal_actions.rs` holds the listing to that).
pub(crate) fn land_ends(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    left: u32,
    blitzer: bool,
    combat: bool,
) -> Vec<SpaceId> {
    let b = Board { rules, s, power };
    let n = rules.board.spaces.len();
    // Fewest steps to each territory without a blitz ([0]) and after one ([1]).
    let mut seen = [vec![false; n], vec![false; n]];
    let mut ends = vec![false; n];
    seen[0][from.index()] = true;
    let mut queue = VecDeque::from([(from, false, 0u32)]);
    while let Some((at, blitzed, d)) = queue.pop_front() {
        if d >= left {
            continue;
        }
        for &next in &rules.board.space(at).adjacent {
            if next == from || b.is_sea(next) || b.impassable(next) || b.off_limits(next) {
                continue;
            }
            let onward = if b.hostile_territory(next) {
                if !combat {
                    continue;
                }
                ends[next.index()] = true;
                (blitzer && !blitzed && open_for_blitz(rules, s, &b, next)).then_some(true)
            } else if neutrals::to_take(rules, s, power, next) {
                // Into a friendly neutral (in noncombat move), never through it.
                if !combat {
                    ends[next.index()] = true;
                }
                None
            } else if b.peace_holder(next).is_some() || !b.friendly_territory(next) {
                None
            } else {
                if blitzed || !combat {
                    ends[next.index()] = true;
                }
                Some(blitzed)
            };
            if let Some(blitzed) = onward {
                if !std::mem::replace(&mut seen[blitzed as usize][next.index()], true) {
                    queue.push_back((next, blitzed, d + 1));
                }
            }
        }
    }
    ends.iter()
        .enumerate()
        .filter(|(_, e)| **e)
        .map(|(i, _)| SpaceId(i as u16))
        .collect()
}

/// An air unit's combat move from `from` to `to` could end there (`check_path_end`): against
/// enemy units, into a land battle, or escaping enemy warships at sea. Bombing raids and land
/// units dropped from the air are judged apart.
pub(crate) fn air_attack_ends(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    to: SpaceId,
) -> bool {
    let b = Board { rules, s, power };
    air_target(&b, to) || air_escape(&b, from)
}

/// Something an air unit's combat move may end against: enemy units, or a battle on land.
fn air_target(b: &Board, end: SpaceId) -> bool {
    b.has_enemies(end) || (!b.is_sea(end) && b.s.this_turn.battle(end).is_some())
}

/// Air units leaving a sea zone shared with enemy warships escape like ships.
fn air_escape(b: &Board, from: SpaceId) -> bool {
    b.is_sea(from) && b.blocked(from)
}
