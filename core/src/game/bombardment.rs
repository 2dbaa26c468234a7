//! Offshore bombardment: the ships that support an amphibious assault from sea zones where no
//! sea battle was fought, one per unit landing where the rules limit it (`[combat]
//! bombard_limit`); the strongest first, or those the attacker names (`fight Denmark bombarding
//! 1 cruiser`), so the attacker splits its ships between the shores it assaults.

use super::state::State;
use super::Rejection;
use crate::combat::{Battle, Combatant, Profiles, Side};
use crate::rules::{BombardLimit, PowerId, RuleSet, SpaceId};

use super::fight::RULE_ORDER;

fn reject(rule: &str, msg: impl Into<String>) -> Rejection {
    Rejection::new(msg).by(rule)
}

/// Ships supporting an amphibious assault from a sea zone where no sea battle was fought.
pub(super) fn bombardment(
    rules: &RuleSet,
    p: &Profiles,
    s: &State,
    power: PowerId,
    space: SpaceId,
    b: &Battle,
) -> Vec<Combatant> {
    let limit = bombard_limit(rules, b);
    bombard_candidates(p, s, power, space)
        .into_iter()
        .take(limit)
        .collect()
}

/// How many ships may bombard the battle: one per unit landing, where the rules say so.
fn bombard_limit(rules: &RuleSet, b: &Battle) -> usize {
    match rules.combat.bombard_limit {
        BombardLimit::None => usize::MAX,
        BombardLimit::OffloadedUnits => b.units.iter().filter(|u| u.seaborne).count(),
    }
}

/// The ships the attacker names to bombard (`fight X bombarding 1 cruiser`), from those that
/// may, within the limit.
pub(super) fn chosen_bombardment(
    rules: &RuleSet,
    p: &Profiles,
    s: &State,
    power: PowerId,
    space: SpaceId,
    b: &Battle,
    chosen: &[(crate::rules::UnitTypeId, u32)],
) -> Result<Vec<Combatant>, Rejection> {
    let name = &rules.board.space(space).name;
    let mut left = bombard_candidates(p, s, power, space);
    let total: u32 = chosen.iter().map(|(_, n)| n).sum();
    let limit = bombard_limit(rules, b);
    if total as usize > limit {
        return Err(reject(
            RULE_ORDER,
            format!("at most {limit} ship(s) bombard {name}: one for each unit landing there"),
        ));
    }
    let mut out = Vec::new();
    for &(kind, n) in chosen {
        let have = left.iter().filter(|c| c.kind == kind).count();
        if have < n as usize {
            return Err(reject(
                RULE_ORDER,
                format!(
                    "{have} {} may bombard {name} (in the sea zones its assault comes from, not fought in), not {n}",
                    rules.unit(kind).name
                ),
            ));
        }
        for _ in 0..n {
            let i = left.iter().position(|c| c.kind == kind).expect("counted");
            out.push(left.remove(i));
        }
    }
    Ok(out)
}

/// The kinds of ship that may bombard an assault on `space` now (for the legal actions).
pub(super) fn bombard_kinds(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    space: SpaceId,
) -> Vec<crate::rules::UnitTypeId> {
    if rules.board.space(space).is_sea() {
        return Vec::new();
    }
    let p = super::fight::profiles(rules, s, power, space);
    let mut kinds: Vec<crate::rules::UnitTypeId> = bombard_candidates(&p, s, power, space)
        .iter()
        .map(|c| c.kind)
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

/// The ships that may bombard an assault on `space`: the attacker's ships able to, in the sea
/// zones it comes from where no sea battle was fought (nor a rule forbids it:
/// `TurnState::no_bombardment`), not yet used; strongest first.
fn bombard_candidates(p: &Profiles, s: &State, power: PowerId, space: SpaceId) -> Vec<Combatant> {
    let zones = s
        .this_turn
        .battle(space)
        .map(|b| b.amphibious_from.clone())
        .unwrap_or_default();
    let mut ships: Vec<(u8, u32, Combatant)> = Vec::new();
    for z in zones {
        // A zone with a sea battle, or one a rule stopped bombarding from (`no_bombardment`).
        if s.this_turn.battle(z).is_some() || s.this_turn.no_bombardment.0.contains(&z) {
            continue;
        }
        for u in &s.space(z).units {
            let pr = p.of(u.kind);
            if u.owner == power && pr.bombard > 0 && !u.marks.fought && u.aboard.is_none() {
                ships.push((
                    pr.bombard,
                    u.id,
                    Combatant::new(u.id, u.kind, u.owner, Side::Attacker, 1),
                ));
            }
        }
    }
    ships.sort_by_key(|(v, id, _)| (std::cmp::Reverse(*v), *id));
    ships.into_iter().map(|(_, _, c)| c).collect()
}
