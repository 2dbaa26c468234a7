//! Interception (the 1940 games): defending air units that `intercepts` in a territory about to
//! be raided may meet the raiders. The defender decides when the attacker's combat move is over
//! (at the start of its Conduct Combat, before the first battle: `intercept 2 fighter in
//! "United Kingdom"`); the interceptors then fight the raid's one-round air battle against the
//! bombers and their escorts (`fight.rs`), and no other battle that turn.

use super::state::{Relation, State};
use super::Rejection;
use crate::rules::{PhaseKind, PowerId, RuleSet, SpaceId, UnitTypeId};

/// Refusal rule id.
pub const RULE_INTERCEPT: &str = "intercept";

fn reject(msg: impl Into<String>) -> Rejection {
    Rejection::new(msg).by(RULE_INTERCEPT)
}

/// Interceptors may be chosen now: when scrambles are, before the attacker's first battle.
pub fn open(rules: &RuleSet, s: &State, phase: PhaseKind) -> bool {
    super::scramble::defenders_decide(s, phase) && rules.units.iter().any(|u| u.intercepts)
}

fn eligible(rules: &RuleSet, s: &State, attacker: PowerId, space: SpaceId, kind: UnitTypeId) -> Vec<u32> {
    s.space(space)
        .units
        .iter()
        .filter(|u| {
            u.kind == kind
                && rules.unit(u.kind).intercepts
                && s.relations[attacker.index()][u.owner.index()] == Relation::War
                && !u.marks.intercepting
        })
        .map(|u| u.id)
        .collect()
}

/// `intercept COUNT UNIT in TERRITORY`.
#[allow(clippy::too_many_arguments)]
pub fn intercept(
    rules: &RuleSet,
    s: &mut State,
    attacker: PowerId,
    phase: PhaseKind,
    count: u32,
    kind: UnitTypeId,
    space: SpaceId,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let name = &rules.board.space(space).name;
    let t = rules.unit(kind);
    if !open(rules, s, phase) {
        return Err(reject(
            "interceptors are chosen when the attacker's combat move is over: at the start of its Conduct Combat, before the first battle",
        ));
    }
    if !t.intercepts {
        return Err(reject(format!("a {} does not intercept (fighters do)", t.name)));
    }
    if !s.this_turn.raids.iter().any(|(r, _)| *r == space) {
        return Err(reject(format!("no bombing raid is coming over {name}")));
    }
    let ids = eligible(rules, s, attacker, space, kind);
    if (ids.len() as u32) < count {
        return Err(reject(format!(
            "{name} has {} {} of the defenders that may intercept, not {count}",
            ids.len(),
            t.name
        )));
    }
    let owner = s
        .space(space)
        .units
        .iter()
        .find(|u| u.id == ids[0])
        .map(|u| u.owner)
        .expect("listed");
    let chosen: Vec<u32> = ids.into_iter().take(count as usize).collect();
    for u in s
        .space_mut(space)
        .units
        .iter_mut()
        .filter(|u| chosen.contains(&u.id))
    {
        u.marks.intercepting = true;
    }
    out.push(format!(
        "{} intercepts the raid over {name} with {count} {}",
        rules.power_info(owner).name,
        t.name
    ));
    Ok(())
}

/// What the defenders may intercept now, one line per raided territory (the REPL's hint).
pub fn options(rules: &RuleSet, s: &State, attacker: PowerId, phase: PhaseKind) -> Vec<String> {
    if !open(rules, s, phase) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (space, _) in &s.this_turn.raids {
        for (k, t) in rules.units.iter().enumerate() {
            let kind = UnitTypeId(k as u16);
            let n = eligible(rules, s, attacker, *space, kind).len();
            if t.intercepts && n > 0 {
                let name = &rules.board.space(*space).name;
                out.push(format!(
                    "intercept: up to {n} {} in {name} may meet the raid there (`intercept 1 {} in \"{name}\"`), before the first battle",
                    t.name, t.id
                ));
            }
        }
    }
    out
}

/// Candidates for the legal actions: one interceptor in each raided territory.
pub fn candidates(rules: &RuleSet, s: &State, attacker: PowerId) -> Vec<(UnitTypeId, SpaceId)> {
    if !open(rules, s, PhaseKind::ConductCombat) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (space, _) in &s.this_turn.raids {
        for k in 0..rules.units.len() {
            let kind = UnitTypeId(k as u16);
            if !eligible(rules, s, attacker, *space, kind).is_empty() {
                out.push((kind, *space));
            }
        }
    }
    out
}
