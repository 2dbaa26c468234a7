//! The end of combat move: cargo loaded in it must assault, ships that moved must fight,
//! escort an assault or have escaped, offloads past ignored submarines have a warship of their
//! power beside them, and ships that stayed with enemy warships fight there.

use super::{reject, Board, RULE_CARGO_ASSAULT, RULE_CM_END, RULE_IGNORED_SUBS};
use crate::game::state::State;
use crate::game::Rejection;
use crate::rules::{Domain, PowerId, RuleSet, SpaceId};

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
    escorts_past_submarines(rules, s, power)?;
    super::paratroopers::check_drops(rules, s, power)
}

/// Transports offloading for an amphibious assault in a sea zone with enemy submarines they
/// ignored need a warship of their own power there at the end of combat move (an ally's does
/// not count; enemy transports, which cannot fight, need none).
fn escorts_past_submarines(rules: &RuleSet, s: &State, power: PowerId) -> Result<(), Rejection> {
    let b = Board { rules, s, power };
    for bt in &s.this_turn.battles {
        for &z in &bt.amphibious_from {
            if s.this_turn.battle(z).is_some() || b.blocked(z) {
                continue;
            }
            let submarines = b.enemy_units(z).any(|u| rules.unit(u.kind).attack > 0);
            // A warship: any ship that fights (a carrier too, with no attack value), not a
            // transport.
            let warship = s.space(z).units.iter().any(|u| {
                let t = rules.unit(u.kind);
                u.owner == power && t.domain == Domain::Sea && (t.attack > 0 || t.defense > 0)
            });
            if submarines && !warship {
                return Err(reject(
                    RULE_IGNORED_SUBS,
                    format!(
                        "transports offload into {} past ignored enemy submarines in {} only with a warship of yours there at the end of combat move: move one there, or `undo` the offload",
                        b.name(bt.space),
                        b.name(z)
                    ),
                ));
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
