//! Declarations of war, and what peace forbids.
//!
//! Which powers start at peace is scenario data (`at_peace`); when a power may declare war and
//! who goes to war together is `[politics]` data; whatever else a rulebook makes a condition
//! (a turn number, a capital taken, an enemy's declaration first) is for scripts, which veto
//! on `validate_declaration`. The engine applies the declaration: both directions of every pair
//! it concerns become war, at once.

use super::command::quote;
use super::state::{Relation, State};
use super::Rejection;
use crate::rules::{PhaseKind, PowerId, RuleSet};
use std::sync::Arc;

/// A declaration that makes no sense between these powers (itself, an ally, an enemy already).
pub const RULE_DECLARE: &str = "declare-war";
/// Declarations are made at the start of the phases `[politics]` names, before anything else.
pub const RULE_TIMING: &str = "declare-war-timing";
/// Powers at peace do not enter each other's territories nor attack each other's units.
pub const RULE_AT_PEACE: &str = "powers-at-peace";

pub fn relation(s: &State, a: PowerId, b: PowerId) -> Relation {
    s.relations[a.index()][b.index()]
}

/// At war with nobody: a neutral power (unless the power's data says it is at war off the map).
pub fn neutral(rules: &RuleSet, s: &State, p: PowerId) -> bool {
    !rules.power_info(p).at_war_off_map && !s.relations[p.index()].contains(&Relation::War)
}

/// Powers that share territories, carriers, transports and naval bases: one power, or allies,
/// and where the rules say so (`[rules] allies_share_only_at_war`) only allies both at war
/// with someone (E40-SHARE-ATWAR, E40-NEUTRALPOWER).
pub fn shares(rules: &RuleSet, s: &State, a: PowerId, b: PowerId) -> bool {
    a == b
        || (s.relations[a.index()][b.index()] == Relation::Allied
            && (!rules.switches.allies_share_only_at_war || (!neutral(rules, s, a) && !neutral(rules, s, b))))
}

/// Why `power` may not enter or attack what belongs to `other`, with what to do about it.
pub fn at_peace(rules: &RuleSet, power: PowerId, other: PowerId) -> Rejection {
    let holder = rules.relation_holder(other);
    let when = phase_titles(rules, power);
    let how = if when.is_empty() {
        String::new()
    } else {
        format!(
            ": `declare war on {}` at the start of {when} first",
            quote(&rules.power_info(holder).name)
        )
    };
    Rejection::new(format!(
        "{} is at peace with {}{how}",
        rules.power_info(power).name,
        rules.power_info(other).name
    ))
    .by(RULE_AT_PEACE)
}

/// "Combat Move" or "Combat Move or Collect Income": where `power` may declare war.
fn phase_titles(rules: &RuleSet, power: PowerId) -> String {
    let titles: Vec<&str> = rules
        .politics
        .phases_for(power)
        .iter()
        .map(|p| rules.phases[p.index()].title.as_str())
        .collect();
    titles.join(" or ")
}

/// The two sides of the pairs a declaration put at war: the declarers and the powers declared
/// on, each once, in the pairs' order.
pub fn war_sides(pairs: &[(PowerId, PowerId)]) -> (Vec<PowerId>, Vec<PowerId>) {
    let (mut declarers, mut targets) = (Vec::new(), Vec::new());
    for (d, t) in pairs {
        if !declarers.contains(d) {
            declarers.push(*d);
        }
        if !targets.contains(t) {
            targets.push(*t);
        }
    }
    (declarers, targets)
}

/// `power` declares war on `target` (or on the power `target` is an economy of). Every power
/// that goes to war together with the declarer (its group and economies) is then at war with
/// every one that goes with the target.
pub fn declare(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    phase: crate::rules::PhaseId,
    target: PowerId,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let name = |p: PowerId| rules.power_info(p).name.as_str();
    let target = rules.relation_holder(target);
    if target == rules.relation_holder(power) {
        return Err(Rejection::new("a power cannot declare war on itself").by(RULE_DECLARE));
    }
    match relation(s, power, target) {
        Relation::Allied => {
            return Err(Rejection::new(format!(
                "{} and {} are allies (one side); war is declared on a power of the other side",
                name(power),
                name(target)
            ))
            .by(RULE_DECLARE))
        }
        Relation::War => {
            return Err(
                Rejection::new(format!("{} is already at war with {}", name(power), name(target)))
                    .by(RULE_DECLARE),
            )
        }
        Relation::Peace => {}
    }
    let allowed = rules.politics.phases_for(power);
    if allowed.is_empty() {
        return Err(Rejection::new(
            "this edition has no declarations of war ([politics] phases names no phase)",
        )
        .by(RULE_TIMING));
    }
    let title = &rules.phases[phase.index()].title;
    if !allowed.contains(&phase) {
        return Err(Rejection::new(format!(
            "{} declares war at the start of {}; it is {title} now",
            name(power),
            phase_titles(rules, power)
        ))
        .by(RULE_TIMING));
    }
    if s.phase_acted {
        let what = if rules.phases[phase.index()].kind == PhaseKind::CombatMove {
            "before any combat movement"
        } else {
            "before anything else is done in it"
        };
        return Err(Rejection::new(format!(
            "war is declared at the start of {title}, {what}; `undo` what was done in this phase first"
        ))
        .by(RULE_TIMING));
    }
    let mut pairs = Vec::new();
    for d in rules.war_partners(power) {
        for t in rules.war_partners(target) {
            if relation(s, d, t) == Relation::Peace {
                Arc::make_mut(&mut s.relations)[d.index()][t.index()] = Relation::War;
                Arc::make_mut(&mut s.relations)[t.index()][d.index()] = Relation::War;
                pairs.push((d, t));
            }
        }
    }
    for (d, t) in &pairs {
        if *d == power {
            s.this_turn.declared.0.push((*t, s.phase));
        }
    }
    out.push(format!("{} declares war on {}", name(power), name(target)));
    if pairs.len() > 1 {
        let (declarers, targets) = war_sides(&pairs);
        let names = |ps: Vec<PowerId>| ps.into_iter().map(name).collect::<Vec<_>>().join(", ");
        out.push(format!(
            "at war now: {} with {}",
            names(declarers),
            names(targets)
        ));
    }
    Ok(())
}
