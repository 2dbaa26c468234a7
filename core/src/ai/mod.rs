//! The computer opponent: it plays whatever rules are loaded, choosing among the commands the
//! engine accepts and judging battles with the odds calculator, so a house rule changes its
//! play without a line of code here.
//!
//! Each call to [`Ai::choose`] gives the next command for the power that must decide now (the
//! one to play, a defender taking casualties, a power answering a script's question), with the
//! reason a player would give for it. The caller applies it: the REPL shows it, `warroom
//! selfplay` just plays on. A command is offered only after `Game::dry_run` accepted it, so the
//! AI never gives an illegal command, and it ends the phase when nothing better is accepted.
//!
//! The rooms follow a turn:
//! - `sight`: the board as a power sees it: where the fronts are, what could attack a space,
//!   what a capital or victory city should keep to guard it.
//! - `buy`: purchases by a value model (`[ai] buy_*`), within what the factories can place;
//!   defenders for a city short of its guard, warships for the waters transports gather in.
//! - `attack`: combat moves, each target weighed with the exact odds, the expected TUV swing
//!   and the counter-attack a conquest invites; capitals and victory cities kept guarded;
//!   strategic bombing raids by the bombers left, weighed by raids fought on copies.
//! - `battle`: fighting the battles, casualties, pressing on or retreating by the odds,
//!   submarines submerging from a battle going badly.
//! - `sealift`: armies carried by sea: which transports can take which units where.
//! - `reinforce`: noncombat moves: threatened cities reinforced, troops towards the front,
//!   aircraft landed safely.
//! - `place`: new units placed where a city lacks defenders, else nearest the front.
//!
//! A rule script's question gets the answer that leaves the asked power's side best off
//! ([`Game::preview`]).
//!
//! Architecture invariant: nothing here names an edition, a power or a unit type. What it
//! knows of the rules it reads from the `RuleSet` (values, costs, movement, `[ai]` weights) and
//! from the game's own answers (candidate actions, `dry_run`, odds questions).

mod attack;
mod battle;
mod buy;
mod place;
mod reinforce;
mod sealift;
mod sight;

use crate::combat::{Need, Side};
use crate::game::command::Command;
use crate::game::Game;
use crate::rules::{PhaseKind, PowerId};
use std::collections::VecDeque;

/// A command the AI chose, and why, in the words a player would use.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub command: Command,
    pub reason: String,
}

impl Choice {
    fn new(command: Command, reason: impl Into<String>) -> Choice {
        Choice {
            command,
            reason: reason.into(),
        }
    }
}

/// The computer opponent. It keeps the plan of the phase it is playing (the purchases and
/// attacks it worked out at the phase's start); everything else it reads from the game.
#[derive(Default)]
pub struct Ai {
    plan: Option<Plan>,
    /// Commands taken back in this phase because the phase could not end after them: one
    /// taken back twice is not given again in it (a move undone and redone for ever would
    /// never end the phase).
    undone: Option<(PhaseKey, Vec<String>)>,
}

/// The commands worked out for one phase of one power's turn, given in order. Steps of one
/// group stand or fall together (the moves of one attack): when the game refuses one, those
/// of its group already given are taken back with `undo` and the rest dropped.
struct Plan {
    at: PhaseKey,
    steps: VecDeque<(u32, Choice)>,
    /// The groups of the steps given so far, in order.
    given: Vec<u32>,
}

/// Round, turn and phase: a plan belongs to one phase.
type PhaseKey = (u32, usize, usize);

impl Ai {
    pub fn new() -> Ai {
        Ai::default()
    }

    /// The power that must decide now: the one to play, or within a battle the side whose
    /// casualties or submarines are asked for, or the power a script's question is put to.
    /// `None` when the game is over or waits for dice rolled at the table.
    pub fn decider(game: &Game) -> Option<PowerId> {
        let s = game.state();
        if s.winner.is_some() {
            return None;
        }
        if let Some(q) = s.questions.0.first() {
            return Some(q.power);
        }
        if let Some(b) = &s.combat {
            return match &b.waiting {
                Some(Need::Dice { .. }) => None,
                Some(Need::Casualties(call)) => Some(side_power(b, call.side)),
                Some(Need::Submerge { side }) => Some(side_power(b, *side)),
                _ => Some(b.attacker),
            };
        }
        Some(game.current_power())
    }

    /// The AI's next command for [`Ai::decider`], with its reason; `None` when it has nothing
    /// to decide (the game is over, or dice are awaited from the table).
    pub fn choose(&mut self, game: &mut Game) -> Option<Choice> {
        Ai::decider(game)?;
        let s = game.state();
        if !s.questions.0.is_empty() {
            return answer(game);
        }
        if s.combat.is_some() {
            if let Some(c) = accepted(game, battle::decide(game)) {
                return Some(c);
            }
            return fallback(game, &[]);
        }
        let kind = game.current_phase().kind;
        let key = (s.round, s.turn, s.phase);
        if self.undone.as_ref().is_some_and(|(k, _)| *k != key) {
            self.undone = None;
        }
        // A command taken back twice in the phase is not given a third time.
        let banned: Vec<String> = self
            .undone
            .as_ref()
            .map(|(_, b)| {
                b.iter()
                    .filter(|t| b.iter().filter(|u| u == t).count() >= 2)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        if let Some(c) = declaration(game) {
            return Some(c);
        }
        if game.state().breakthrough_pending {
            let chart = Command::Breakthrough(1);
            if game.dry_run(&chart).is_ok() {
                return Some(Choice::new(chart, "rolls on the first research chart"));
            }
        }
        if matches!(kind, PhaseKind::Research | PhaseKind::Purchase) {
            if let Some(c) = buy::research(game) {
                return Some(c);
            }
        }
        let chosen = match kind {
            PhaseKind::Purchase | PhaseKind::CombatMove => self.planned(game, key, kind),
            PhaseKind::ConductCombat => battle::next_fight(game),
            PhaseKind::NoncombatMove => reinforce::next(game, &banned),
            PhaseKind::Mobilize => place::next(game),
            _ => None,
        };
        let chosen = chosen.filter(|c| !banned.contains(&c.command.to_text(game.rules())));
        match chosen {
            Some(c) => Some(c),
            None => {
                let c = fallback(game, &banned)?;
                if c.command == Command::Undo {
                    if let Some(last) = game.undoable().last() {
                        let last = last.to_string();
                        self.undone.get_or_insert_with(|| (key, Vec::new())).1.push(last);
                    }
                }
                Some(c)
            }
        }
    }

    /// The next step of the phase's plan that the game accepts, working the plan out when the
    /// phase begins.
    fn planned(&mut self, game: &mut Game, key: PhaseKey, kind: PhaseKind) -> Option<Choice> {
        if self.plan.as_ref().is_none_or(|p| p.at != key) {
            let steps: Vec<(u32, Choice)> = match kind {
                PhaseKind::Purchase => buy::plan(game).into_iter().map(|c| (0, c)).collect(),
                PhaseKind::CombatMove => attack::plan(game),
                _ => Vec::new(),
            };
            self.plan = Some(Plan {
                at: key,
                steps: steps.into(),
                given: Vec::new(),
            });
        }
        let plan = self.plan.as_mut()?;
        while let Some((group, step)) = plan.steps.pop_front() {
            let refused = match game.dry_run(&step.command) {
                Ok(_) => {
                    plan.given.push(group);
                    return Some(step);
                }
                Err(e) => e,
            };
            if step.command == Command::Undo {
                continue;
            }
            // Take back what the group did: its steps given are the last commands.
            let done = plan.given.iter().rev().take_while(|g| **g == group).count();
            plan.given.truncate(plan.given.len() - done);
            plan.steps.retain(|(g, _)| *g != group);
            let why = format!(
                "takes back a move of a plan the game refused: `{}` ({refused})",
                step.command.to_text(game.rules())
            );
            for _ in 0..done.min(game.undoable().len()) {
                plan.steps
                    .push_front((u32::MAX, Choice::new(Command::Undo, why.clone())));
            }
        }
        None
    }
}

/// War declared on an enemy at peace whose territories border the power's own, from `[ai]
/// declare_war_round` on, where the rules allow it now (the game refuses a declaration outside
/// its phases or against a script's veto). An enemy it cannot reach by land it leaves in peace.
fn declaration(game: &mut Game) -> Option<Choice> {
    let rules = game.rules().clone();
    let round = rules.ai.declare_war_round;
    if round == 0
        || game.state().round < round
        || rules.politics.phases.is_empty() && rules.politics.power_phases.is_empty()
    {
        return None;
    }
    let me = game.current_power();
    for (i, _) in rules.powers.iter().enumerate() {
        let other = PowerId(i as u8);
        if game.state().relations[me.index()][i] != crate::game::state::Relation::Peace
            || rules.power_info(other).side == rules.power_info(me).side
        {
            continue;
        }
        let s = game.state();
        let border = rules.board.ids().find(|sp| {
            s.space(*sp).controller == Some(other)
                && !rules.board.space(*sp).is_sea()
                && rules
                    .board
                    .space(*sp)
                    .adjacent
                    .iter()
                    .any(|a| s.space(*a).controller == Some(me))
        });
        let Some(border) = border else { continue };
        let c = Command::DeclareWar(other);
        if game.dry_run(&c).is_ok() {
            return Some(Choice::new(
                c,
                format!(
                    "declares war on {}: its {} borders ours, and the rules allow it now",
                    rules.power_info(other).name,
                    rules.board.space(border).name
                ),
            ));
        }
    }
    None
}

/// The answer to a rule script's question that leaves the asked power's side best off, by
/// the board each answer leaves at once ([`Game::preview`], weighed by [`standing`]); the
/// first answer offered when they all leave it alike.
fn answer(game: &mut Game) -> Option<Choice> {
    let q = game.state().questions.0.first()?.clone();
    let rules = game.rules().clone();
    let mut weighed: Vec<(f64, &String)> = Vec::new();
    for a in &q.answers {
        if let Ok(next) = game.preview(&Command::Answer(a.clone())) {
            weighed.push((standing(&rules, &next, q.power), a));
        }
    }
    let Some(&(first, _)) = weighed.first() else {
        // No answer could be tried on a copy: the game decides whether the first stands.
        let a = q.answers.first()?.clone();
        let why = format!("answers `{a}`, the first answer offered");
        return Some(Choice::new(Command::Answer(a), why));
    };
    // The first of the best: an answer must do better to be preferred over an earlier one.
    let (value, best) = weighed
        .iter()
        .fold(weighed[0], |b, w| if w.0 > b.0 + 1e-9 { *w } else { b });
    let next = weighed
        .iter()
        .filter(|w| w.1 != best)
        .map(|w| w.0)
        .fold(f64::MIN, f64::max);
    let why = if weighed.iter().all(|w| (w.0 - first).abs() < 1e-9) {
        format!("answers `{best}`: every answer leaves the board alike, so the first offered")
    } else if value - next < 0.5 {
        format!("answers `{best}`: no other answer leaves its side better off (the first of the best)")
    } else {
        format!(
            "answers `{best}`: it leaves its side {:.0} IPCs of units, territory and money better off than the next best answer",
            value - next
        )
    };
    Some(Choice::new(Command::Answer(best.clone()), why))
}

/// How well off `power`'s side is: the cost of its units, its territories' income times `[ai]
/// territory_value` and its money, less the same of the powers at war with it.
fn standing(rules: &crate::rules::RuleSet, s: &crate::game::state::State, power: PowerId) -> f64 {
    use crate::game::state::Relation;
    let sign = |p: PowerId| {
        if p == power || s.relations[power.index()][p.index()] == Relation::Allied {
            1.0
        } else if s.relations[power.index()][p.index()] == Relation::War {
            -1.0
        } else {
            0.0
        }
    };
    let mut total = 0.0;
    for sp in rules.board.ids() {
        let space = s.space(sp);
        if let Some(c) = space.controller {
            total += sign(c) * f64::from(rules.board.space(sp).ipc * rules.ai.territory_value);
        }
        for u in &space.units {
            total += sign(u.owner) * f64::from(rules.unit(u.kind).cost);
        }
    }
    for (i, money) in s.treasuries.iter().enumerate() {
        total += sign(PowerId(i as u8)) * *money as f64;
    }
    total
}

/// The power that answers for one side of a battle: the attacker, or the first defender.
fn side_power(b: &crate::combat::Battle, side: Side) -> PowerId {
    match side {
        Side::Attacker => b.attacker,
        Side::Defender => b
            .units
            .iter()
            .find(|u| u.side == Side::Defender)
            .map_or(b.attacker, |u| u.owner),
    }
}

/// The odds of a battle as the AI weighs them: exact where the chain can answer, else a few
/// hundred battles (seeded, so the same game plays the same way), on the caller's thread.
pub(super) fn odds(q: &crate::odds::Question) -> Option<crate::odds::Odds> {
    weigh(q, None)
}

/// The odds of a battle from where it stands within a round ([`Game::battle_question`]): a
/// few hundred battles fought out, seeded.
pub(super) fn sampled_odds(q: &crate::odds::Question) -> Option<crate::odds::Odds> {
    weigh(q, Some(400))
}

fn weigh(q: &crate::odds::Question, runs: Option<u64>) -> Option<crate::odds::Odds> {
    let options = crate::odds::Options {
        runs,
        fallback_runs: Some(400),
        seed: 1,
        threads: Some(1),
        endings: 1,
    };
    crate::odds::calculate(q, &options).ok()
}

/// Whether the game accepts `c` now and it is not one the AI took back in this phase.
pub(super) fn accepts(game: &mut Game, banned: &[String], c: &Command) -> bool {
    (banned.is_empty() || !banned.contains(&c.to_text(game.rules()))) && game.dry_run(c).is_ok()
}

/// The first of the choices that the game accepts.
fn accepted(game: &mut Game, choices: Vec<Choice>) -> Option<Choice> {
    choices.into_iter().find(|c| game.dry_run(&c.command).is_ok())
}

/// Nothing planned is accepted: end the phase; or, when the game refuses that, take back the
/// phase's last command in the move phases (what stands in the way is something the AI did
/// there), or else take the first legal action of the kinds that move the game on (never the
/// table's settings).
fn fallback(game: &mut Game, banned: &[String]) -> Option<Choice> {
    let why = match game.dry_run(&Command::EndPhase) {
        Ok(_) => {
            return Some(Choice::new(
                Command::EndPhase,
                "nothing more worth doing in this phase",
            ))
        }
        Err(e) => e.to_string(),
    };
    let moving = game.state().combat.is_none()
        && matches!(
            game.current_phase().kind,
            PhaseKind::CombatMove | PhaseKind::NoncombatMove
        );
    if moving && game.dry_run(&Command::Undo).is_ok() {
        return Some(Choice::new(
            Command::Undo,
            format!("takes back its last move: the phase cannot end ({why})"),
        ));
    }
    let legal: Vec<Command> = game
        .legal_actions()
        .into_iter()
        .filter(|c| !banned.contains(&c.to_text(game.rules())))
        .collect();
    // Aircraft waiting at sea for a deck hold the phase: a move to them (a carrier) or of them
    // (to land) comes first.
    let me = game.current_power();
    let rules = game.rules().clone();
    let s = game.state();
    let decks_wanted = |to: crate::rules::SpaceId| {
        rules.board.space(to).is_sea()
            && s.space(to)
                .units
                .iter()
                .any(|u| u.owner == me && rules.unit(u.kind).domain == crate::rules::Domain::Air)
    };
    let flies = |m: &crate::game::command::Move| {
        m.units.iter().any(|p| match p {
            crate::game::command::Pick::Kind { kind, .. } | crate::game::command::Pick::All(kind) => {
                rules.unit(*kind).domain == crate::rules::Domain::Air
            }
            crate::game::command::Pick::Id(id) => s
                .space(m.from)
                .units
                .iter()
                .any(|u| u.id == *id && rules.unit(u.kind).domain == crate::rules::Domain::Air),
        })
    };
    let rank = |c: &Command| match c {
        Command::Fight(_) | Command::FightBombarding { .. } => 0,
        Command::Casualties(_) | Command::Press | Command::Submerge(_) => 1,
        Command::Place { .. } => 2,
        Command::Move(m) if decks_wanted(m.to) || (decks_wanted(m.from) && flies(m)) => 3,
        Command::Move(_) => 4,
        Command::Answer(_) | Command::Breakthrough(_) => 5,
        Command::Undo
        | Command::Edit(_)
        | Command::Dice(_)
        | Command::Roll(_)
        | Command::CasualtyOrder { .. }
        | Command::DeclareWar(_) => u32::MAX,
        _ => 6,
    };
    let best = legal
        .into_iter()
        .filter(|c| rank(c) < u32::MAX)
        .min_by_key(|c| rank(c))?;
    Some(Choice::new(
        best,
        format!("the phase cannot end yet ({why}); this is what the rules allow"),
    ))
}
