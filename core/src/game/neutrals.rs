//! Neutral territories (E40-NEUTRAL-*): territories held by no power, each leaning to a side
//! (pro-Axis, pro-Allies) or to none (strict), as the board prints them (`neutral`, with the
//! infantry of their `standing_army`). A board's `impassable` neutrals are outside all of this:
//! no unit ever enters them.
//!
//! The mechanism is here; which way the others lean after an attack (the strict neutrals'
//! turn, Mongolia's pact) is policy, for scripts: the `neutral_attacked` event and the
//! `set_leaning` request.
//!
//! - A *friendly* neutral (leaning to the mover's side) is never attacked nor flown over; land
//!   units that capture territories move into it (not through it) in noncombat move, and at the
//!   end of that phase the first power to do so takes it: its IPCs, and its army placed as that
//!   power's units.
//! - An *unfriendly* one (leaning to the other side, or strict) is entered only as an attack, in
//!   combat move (a blitz passes it when it has no army); air units fly over it only to attack
//!   it. Entered, it joins the side opposing the attacker at once and its army is placed, as
//!   infantry of a power of that side the side chooses (an engine question) — units that never
//!   move. Captured, it is the captor's; else it stays held by no power, friendly to its side,
//!   whose powers take it (and what is left of its army) as a friendly neutral.
//! - Held by a power, a former neutral is a territory like any other with no original owner:
//!   captured, never liberated (and no major complex: `[facilities] original_territory_only`).

use super::state::{Attacked, NeutralStanding, State, Unit};
use super::{politics, Rejection};
use crate::rules::{NeutralKind, PowerId, RuleSet, SpaceId};

/// Friendly neutrals: never attacked nor overflown; entered (not passed) by land units of a
/// power at war, in noncombat move, and taken at its end.
pub const RULE_FRIENDLY: &str = "friendly-neutrals";
/// Entering an unfriendly or strict neutral is an attack: a combat move.
pub const RULE_UNFRIENDLY: &str = "unfriendly-neutrals";
/// Air units never fly over a neutral territory (only into one they attack).
pub const RULE_OVERFLY: &str = "neutral-overflight";
/// A neutral's army stays where it stands.
pub const RULE_ARMY: &str = "neutral-army-stays";
/// A power at war with no one enters no neutral territory (E40-NEUTRALPOWER).
pub const RULE_NEUTRAL_POWER: &str = "neutral-power-stays-out";

/// The key of the engine's question "whose infantry stands for this neutral's army?".
pub(super) const ARMY: &str = "neutral_army:";

/// How a neutral territory stands now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing<'a> {
    /// Still neutral, leaning to a side (`None`: strict).
    Neutral { leaning: Option<&'a str> },
    /// Attacked: part of a side, held by no power.
    Joined { side: &'a str, attacked: &'a Attacked },
}

/// How a neutral territory stands, or `None` for a territory that is none (held by a power, or
/// never neutral) and for an impassable one.
pub fn standing<'a>(rules: &'a RuleSet, s: &'a State, space: SpaceId) -> Option<Standing<'a>> {
    let kind = rules.board.space(space).neutral?;
    if kind == NeutralKind::Impassable || s.space(space).controller.is_some() {
        return None;
    }
    Some(match s.neutrals.get(space) {
        Some(NeutralStanding {
            leaning,
            attacked: Some(a),
            ..
        }) => Standing::Joined {
            side: leaning.as_deref().unwrap_or(""),
            attacked: a,
        },
        Some(n) => Standing::Neutral {
            leaning: n.leaning.as_deref(),
        },
        None => Standing::Neutral {
            leaning: board_leaning(kind),
        },
    })
}

/// The side a printed leaning names.
pub fn board_leaning(kind: NeutralKind) -> Option<&'static str> {
    match kind {
        NeutralKind::ProAxis => Some("Axis"),
        NeutralKind::ProAllies => Some("Allies"),
        NeutralKind::Strict | NeutralKind::Impassable => None,
    }
}

/// A neutral territory as one power sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Still neutral, leaning to the power's side.
    Friendly,
    /// Still neutral, leaning to the other side or strict.
    Unfriendly,
    /// Attacked, joined the power's side.
    JoinedFriendly,
    /// Attacked, joined the other side.
    JoinedEnemy,
}

pub fn seen(rules: &RuleSet, s: &State, power: PowerId, space: SpaceId) -> Option<Seen> {
    let side = rules.power_info(power).side.as_str();
    Some(match standing(rules, s, space)? {
        Standing::Neutral { leaning } if leaning == Some(side) => Seen::Friendly,
        Standing::Neutral { .. } => Seen::Unfriendly,
        Standing::Joined { side: joined, .. } if joined == side => Seen::JoinedFriendly,
        Standing::Joined { .. } => Seen::JoinedEnemy,
    })
}

/// Still neutral (not attacked): what air units never fly over.
pub fn untouched(rules: &RuleSet, s: &State, space: SpaceId) -> bool {
    matches!(standing(rules, s, space), Some(Standing::Neutral { .. }))
}

/// Attacked in the phase in progress: not flown over until the phase is over (004 · "you cannot
/// fly over a neutral territory in the same phase that it is first entered").
pub fn attacked_this_phase(rules: &RuleSet, s: &State, space: SpaceId) -> bool {
    matches!(standing(rules, s, space), Some(Standing::Joined { attacked, .. })
        if (attacked.round, attacked.turn, attacked.phase) == (s.round, s.turn, s.phase))
}

/// Joined the power's side before its turn began: its air units may land there (004 · "you can
/// land planes in a neutral territory that was attacked by somebody else and joined your side").
pub fn joined_before_turn(rules: &RuleSet, s: &State, power: PowerId, space: SpaceId) -> bool {
    let side = rules.power_info(power).side.as_str();
    matches!(standing(rules, s, space), Some(Standing::Joined { side: j, attacked })
        if j == side && (attacked.round, attacked.turn) < (s.round, s.turn))
}

/// The infantry its army places when its neutrality is compromised.
pub fn army_size(rules: &RuleSet, space: SpaceId) -> u32 {
    rules
        .board
        .space(space)
        .standing_army
        .iter()
        .map(|(_, n)| n)
        .sum()
}

/// The units of an attacked neutral's army still standing there.
pub fn army_left(s: &State, space: SpaceId) -> usize {
    match s.neutrals.get(space).and_then(|n| n.attacked.as_ref()) {
        Some(a) => s
            .space(space)
            .units
            .iter()
            .filter(|u| a.army.contains(&u.id))
            .count(),
        None => 0,
    }
}

/// A territory the power attacks by entering it: still neutral and not leaning its way.
pub fn unfriendly(rules: &RuleSet, s: &State, power: PowerId, space: SpaceId) -> bool {
    seen(rules, s, power, space) == Some(Seen::Unfriendly)
}

/// Held by no power, joined to the other side after an attack: hostile to a power at war.
pub fn joined_against(rules: &RuleSet, s: &State, power: PowerId, space: SpaceId) -> bool {
    seen(rules, s, power, space) == Some(Seen::JoinedEnemy) && !politics::neutral(rules, s, power)
}

/// Friendly neutral or joined to the power's side: where its land units end a noncombat move
/// to take it.
pub fn to_take(rules: &RuleSet, s: &State, power: PowerId, space: SpaceId) -> bool {
    matches!(
        seen(rules, s, power, space),
        Some(Seen::Friendly | Seen::JoinedFriendly)
    )
}

/// Why a power's unit may not enter a neutral territory this way, if it may not. Checked for
/// every space of a path (`last`: where it ends); what a hostile territory asks of a unit
/// entering it (stop, blitz) is the movement rules' own.
pub fn check_entry(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    unit: &crate::rules::UnitType,
    space: SpaceId,
    last: bool,
    combat: bool,
) -> Result<(), Rejection> {
    let Some(view) = seen(rules, s, power, space) else {
        return Ok(());
    };
    let name = &rules.board.space(space).name;
    let pname = &rules.power_info(power).name;
    let air = unit.domain == crate::rules::Domain::Air;
    if politics::neutral(rules, s, power) && view != Seen::JoinedEnemy {
        return Err(Rejection::new(format!(
            "{pname} is at war with no one, and a power at war with no one moves no unit into {name}, a neutral territory"
        ))
        .by(RULE_NEUTRAL_POWER));
    }
    let still = matches!(view, Seen::Friendly | Seen::Unfriendly);
    if air && !last && (still || attacked_this_phase(rules, s, space)) {
        return Err(Rejection::new(format!(
            "air units do not fly over {name}: it is neutral{}",
            if still {
                " (they fly into an unfriendly neutral only to attack it)"
            } else {
                ", attacked only in this phase"
            }
        ))
        .by(RULE_OVERFLY));
    }
    match view {
        Seen::Friendly | Seen::JoinedFriendly => {
            let what = if view == Seen::Friendly {
                "a friendly neutral"
            } else {
                "a former neutral that joined your side"
            };
            // One that joined the side is no longer neutral: air units fly over it, and land
            // there from the turn after the attack (the landing rules say where they may land).
            if air && view == Seen::JoinedFriendly {
                return Ok(());
            }
            if air {
                return Err(Rejection::new(format!(
                    "{name} is {what}: air units never attack it, fly over it or land there"
                ))
                .by(RULE_FRIENDLY));
            }
            if combat {
                return Err(Rejection::new(format!(
                    "{name} is {what}: it is never attacked; land units move into it in noncombat move, and take it at its end"
                ))
                .by(RULE_FRIENDLY));
            }
            if !last {
                return Err(Rejection::new(format!(
                    "{name} is {what}: land units move into it, not through it"
                ))
                .by(RULE_FRIENDLY));
            }
            if !unit.can_capture {
                return Err(Rejection::new(format!(
                    "{name} is {what}, taken only by units that capture territories; {} cannot",
                    unit.name
                ))
                .by(RULE_FRIENDLY));
            }
            Ok(())
        }
        Seen::Unfriendly if !combat => Err(Rejection::new(format!(
            "{name} is an unfriendly neutral: entering it is an attack, a combat move"
        ))
        .by(RULE_UNFRIENDLY)),
        Seen::Unfriendly if !last && army_size(rules, space) > 0 => Err(Rejection::new(format!(
            "{} must stop on entering {name}: its standing army of {} is placed as it is attacked",
            unit.name,
            army_size(rules, space)
        ))
        .by(RULE_UNFRIENDLY)),
        Seen::Unfriendly | Seen::JoinedEnemy => Ok(()),
    }
}

/// The powers that may stand for a neutral's army when `attacker` invades it: those of `side`
/// at war with every power of the attacker's side that is at war at all (the army is the
/// enemy of them all, and a power's pieces fight only whom that power is at war with); failing
/// that, those at war with the attacker; failing that, all of the side. In the order of the
/// powers.
fn managers(rules: &RuleSet, s: &State, side: &str, attacker: PowerId) -> Vec<PowerId> {
    use super::state::Relation;
    let of_side: Vec<PowerId> = rules
        .power_ids()
        .filter(|p| rules.power_info(*p).side == side && rules.power_info(*p).economy_of.is_none())
        .collect();
    let mine = &rules.power_info(attacker).side;
    let enemies: Vec<PowerId> = rules
        .power_ids()
        .filter(|p| {
            rules.power_info(*p).side == *mine && (*p == attacker || !politics::neutral(rules, s, *p))
        })
        .collect();
    let at_war_with =
        |p: PowerId, of: &[PowerId]| of.iter().all(|e| politics::relation(s, p, *e) == Relation::War);
    for of in [enemies.as_slice(), std::slice::from_ref(&attacker)] {
        let fit: Vec<PowerId> = of_side.iter().copied().filter(|p| at_war_with(*p, of)).collect();
        if !fit.is_empty() {
            return fit;
        }
    }
    of_side
}

/// `attacker` enters an unfriendly neutral in combat move: it joins the opposing side at once
/// and its army is placed there (infantry of the side's first power at war with the attacker;
/// with a choice, that power's player is asked whose pieces stand for it).
pub fn attack(rules: &RuleSet, s: &mut State, space: SpaceId, attacker: PowerId, out: &mut Vec<String>) {
    let Some(Standing::Neutral { leaning }) = standing(rules, s, space) else {
        return;
    };
    let was = leaning.map_or("strict".to_string(), |l| format!("pro-{l}"));
    let mine = rules.power_info(attacker).side.clone();
    let Some(side) = rules
        .power_ids()
        .filter(|p| rules.power_info(*p).economy_of.is_none())
        .map(|p| rules.power_info(p).side.clone())
        .find(|sd| *sd != mine)
    else {
        return;
    };
    let candidates = managers(rules, s, &side, attacker);
    let Some(&manager) = candidates.first() else {
        return;
    };
    let info = rules.board.space(space);
    let army = place_army(rules, s, space, manager);
    let n = army.len();
    s.neutrals.set(NeutralStanding {
        space,
        leaning: Some(side.clone()),
        attacked: Some(Attacked {
            round: s.round,
            turn: s.turn,
            phase: s.phase,
            army,
        }),
    });
    out.push(format!(
        "{} attacks {} (a {was} neutral): it joins the {side}{}",
        rules.power_info(attacker).name,
        info.name,
        if n == 0 {
            String::from("; it has no army")
        } else {
            format!(
                "; its army of {n} {} stands, {}'s pieces standing for it",
                army_words(rules, space),
                rules.power_info(manager).name
            )
        }
    ));
    if n > 0 && candidates.len() > 1 {
        let q = super::state::Question {
            power: manager,
            by: "engine".into(),
            key: format!("{ARMY}{}", space.index()),
            text: format!(
                "whose pieces stand for {}'s army (its player fights it in this battle)?",
                info.name
            ),
            answers: candidates
                .iter()
                .map(|p| rules.power_info(*p).name.clone())
                .collect(),
        };
        out.push(format!("asks {}", super::questions::prompt(rules, &q)));
        s.questions.0.push(q);
    }
}

/// The neutral's standing army placed in it as `owner`'s units; their ids.
fn place_army(rules: &RuleSet, s: &mut State, space: SpaceId, owner: PowerId) -> Vec<u32> {
    let mut ids = Vec::new();
    for &(kind, n) in &rules.board.space(space).standing_army {
        for _ in 0..n {
            let id = s.next_unit_id;
            s.next_unit_id += 1;
            s.space_mut(space).units.push(Unit::new(id, kind, owner));
            ids.push(id);
        }
    }
    ids
}

/// The army's units still there become `owner`'s pieces; how many.
fn hand_army(s: &mut State, space: SpaceId, army: &[u32], owner: PowerId) -> usize {
    let mut n = 0;
    for u in s
        .space_mut(space)
        .units
        .iter_mut()
        .filter(|u| army.contains(&u.id))
    {
        u.owner = owner;
        n += 1;
    }
    n
}

/// "Infantry" or "Infantry, Artillery": what a neutral's army is made of.
fn army_words(rules: &RuleSet, space: SpaceId) -> String {
    rules
        .board
        .space(space)
        .standing_army
        .iter()
        .map(|(k, _)| rules.unit(*k).name.clone())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `answer POWER` to the army question: that power's pieces stand for the army.
pub(super) fn army_answered(
    rules: &RuleSet,
    s: &mut State,
    space: usize,
    power: &str,
    out: &mut Vec<String>,
) {
    let Some(p) = rules.power_ids().find(|p| rules.power_info(*p).name == power) else {
        return;
    };
    let Some(space) = rules.board.ids().find(|id| id.index() == space) else {
        return;
    };
    let army = match s.neutrals.get(space).and_then(|n| n.attacked.as_ref()) {
        Some(a) => a.army.clone(),
        None => return,
    };
    hand_army(s, space, &army, p);
    out.push(format!(
        "{}'s army is fought with {}'s pieces",
        rules.board.space(space).name,
        rules.power_info(p).name
    ));
}

/// End of the power's noncombat move: each friendly neutral (or joined territory) its land
/// units entered becomes its own, with its IPCs; the army stands as its units.
pub fn take_friendly(rules: &RuleSet, s: &mut State, power: PowerId, out: &mut Vec<String>) {
    let spaces: Vec<SpaceId> = rules
        .board
        .ids()
        .filter(|sp| to_take(rules, s, power, *sp))
        .filter(|sp| {
            // The army's pieces are the territory's, whoever stands for it: they take nothing.
            s.space(*sp).units.iter().any(|u| {
                u.owner == power && rules.unit(u.kind).can_capture && s.neutrals.army_of(u.id).is_none()
            })
        })
        .collect();
    for space in spaces {
        let line = hand_over(rules, s, power, space);
        out.push(line);
    }
}

/// A rule hands a neutral territory no power holds to `power`, "as though it had moved land units
/// into a friendly neutral" (`take_neutral`): refused for one leaning to, or joined with, the
/// other side. The line to log.
pub fn take(rules: &RuleSet, s: &mut State, power: PowerId, space: SpaceId) -> Result<String, String> {
    let side = rules.power_info(power).side.as_str();
    match standing(rules, s, space) {
        None => Err(format!(
            "{} is not a neutral territory no power holds",
            rules.board.space(space).name
        )),
        Some(Standing::Neutral { leaning: Some(l) }) if l != side => Err(format!(
            "{} leans to the {l}, not to {}'s side",
            rules.board.space(space).name,
            rules.power_info(power).name
        )),
        Some(Standing::Joined { side: joined, .. }) if joined != side => Err(format!(
            "{} joined the {joined}, not {}'s side",
            rules.board.space(space).name,
            rules.power_info(power).name
        )),
        Some(_) => Ok(hand_over(rules, s, power, space)),
    }
}

/// `power` takes the neutral (or joined) territory: its army stands as its units, it holds the
/// territory; the line to log.
fn hand_over(rules: &RuleSet, s: &mut State, power: PowerId, space: SpaceId) -> String {
    {
        let pname = rules.power_info(power).name.clone();
        let name = rules.board.space(space).name.clone();
        let line = match standing(rules, s, space) {
            Some(Standing::Joined { attacked, .. }) => {
                let army = attacked.army.clone();
                let n = hand_army(s, space, &army, power);
                format!("{pname} takes {name}, which had joined its side; {n} of its army's units are {pname}'s now")
            }
            _ => {
                let n = place_army(rules, s, space, power).len();
                format!(
                    "{pname} takes {name}, a friendly neutral{}",
                    if n == 0 {
                        String::new()
                    } else {
                        format!(
                            ": its army of {n} {} stands as {pname}'s",
                            army_words(rules, space)
                        )
                    }
                )
            }
        };
        s.space_mut(space).controller = Some(power);
        s.neutrals.remove(space);
        line
    }
}

/// Words for `show` and `map`: how a neutral territory stands now (`None`: it is none).
pub fn describe(rules: &RuleSet, s: &State, space: SpaceId) -> Option<String> {
    let army = army_size(rules, space);
    Some(match standing(rules, s, space)? {
        Standing::Neutral { leaning } => format!(
            "{} neutral{}",
            leaning.map_or("strict".to_string(), |l| format!("pro-{l}")),
            if army > 0 {
                format!(", army of {army} {}", army_words(rules, space))
            } else {
                String::new()
            }
        ),
        Standing::Joined { side, attacked } => {
            let left = s
                .space(space)
                .units
                .iter()
                .filter(|u| attacked.army.contains(&u.id))
                .count();
            format!(
                "a former neutral, attacked: it joined the {side} ({left} of its army left, never moving)"
            )
        }
    })
}

/// What a script may set: a still neutral territory's leaning (`side`: a side, or `None` for
/// strict).
pub(super) fn set_leaning(
    rules: &RuleSet,
    s: &mut State,
    space: SpaceId,
    side: Option<String>,
) -> Result<(), String> {
    match standing(rules, s, space) {
        Some(Standing::Neutral { .. }) => {}
        Some(Standing::Joined { .. }) => {
            return Err(format!(
                "{} was attacked: it is no longer neutral",
                rules.board.space(space).name
            ))
        }
        None => {
            return Err(format!(
                "{} is not a neutral territory",
                rules.board.space(space).name
            ))
        }
    }
    let kind = rules.board.space(space).neutral.expect("a neutral");
    if side.as_deref() == board_leaning(kind) {
        s.neutrals.remove(space);
    } else {
        s.neutrals.set(NeutralStanding {
            space,
            leaning: side,
            attacked: None,
        });
    }
    Ok(())
}
