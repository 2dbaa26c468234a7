//! The computer opponent in `warroom play`: `--ai POWERS` lets it play those powers, each of
//! its commands shown as a player would tell it (the command, why, what happened) at a pace a
//! human can follow; `hint` shows what it would play for the decision at hand.
//!
//! `undo` takes back only the human's own commands: the shell keeps, for each command the
//! game's undo stack holds, whether the AI gave it.

use super::{Outcome, Shell};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use warroom_core::ai::{Ai, Choice};
use warroom_core::game::command::Command;
use warroom_core::rules::{PhaseKind, PowerId};

/// The pause between the AI's commands at a terminal, unless `--ai-pace` says otherwise.
pub const DEFAULT_PACE_MS: u64 = 400;

/// Commands the AI may give in one phase before the shell takes it for a loop and stops it.
const PHASE_LIMIT: u32 = 2_000;

/// The AI playing some of the powers.
pub struct Autopilot {
    ai: Ai,
    /// What `--ai` said, resolved again when `load` brings other rules.
    pub who: String,
    pub powers: Vec<PowerId>,
    pace: Duration,
    /// The last round the AI plays (`--ai-rounds`); past it every power is the human's.
    last_round: Option<u32>,
    /// The round, turn, phase and deciding power the last header was printed for; cleared
    /// when the human plays, so the AI's next command is introduced again.
    shown: Option<(u32, usize, usize, PowerId)>,
    /// Commands the AI gave in the phase of `shown`.
    in_phase: u32,
    /// The reason last shown under `shown`'s header: the next command with the same reason
    /// (another unit of the same attack) goes without it.
    last_reason: Option<String>,
    /// Ctrl-C (or a refusal) stopped the AI; it plays on after the next game command or an
    /// empty line.
    pub paused: bool,
}

impl Autopilot {
    pub fn new(who: String, powers: Vec<PowerId>, pace: Duration, last_round: Option<u32>) -> Autopilot {
        Autopilot {
            ai: Ai::new(),
            who,
            powers,
            pace,
            last_round,
            shown: None,
            in_phase: 0,
            last_reason: None,
            paused: false,
        }
    }

    /// The human played, or let the paused AI play on: the AI's next command gets a header
    /// of its own.
    pub fn resume(&mut self) {
        self.shown = None;
        self.paused = false;
    }
}

/// Ctrl-C while the AI plays: pause it at the next command (a second Ctrl-C leaves at once).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_interrupt(_: libc::c_int) {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe; a second Ctrl-C before the AI paused leaves.
        unsafe { libc::_exit(130) };
    }
}

/// At a terminal with the AI playing: Ctrl-C pauses the AI instead of ending the program.
/// (The line editor reads Ctrl-C as a key of its own while it waits for a line.)
pub fn catch_interrupts() {
    #[cfg(unix)]
    // SAFETY: the handler only touches an atomic (and `_exit`), both async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t,
        );
    }
}

/// What the AI stopping means for the caller: `Refused` fails a `--strict` run.
pub enum Stopped {
    /// A human decides now, or nobody (the game is over, dice are awaited from the table).
    Handed,
    /// The AI's command was refused, or it had nothing to offer: the human plays on.
    Refused(String),
}

impl Shell {
    /// Keep `undo_by_ai` in step with the game's undo stack after one command: a command
    /// pushed is `by_ai`'s, a stack cleared (phase ended, battle fought) or popped (`undo`)
    /// is followed.
    pub(super) fn sync_undo(&mut self, by_ai: bool) {
        let n = self.game.undoable().len();
        if n > self.undo_by_ai.len() {
            self.undo_by_ai.resize(n, by_ai);
        } else {
            self.undo_by_ai.truncate(n);
        }
    }

    /// The game was replaced (`load`, `reload`): its undo stack counts as the human's.
    pub(super) fn game_replaced(&mut self) -> Option<String> {
        self.undo_by_ai = vec![false; self.game.undoable().len()];
        let pilot = self.autopilot.as_mut()?;
        pilot.shown = None;
        pilot.ai = Ai::new();
        match crate::selfplay::ai_powers(self.game.rules(), &pilot.who) {
            Ok(p) => {
                pilot.powers = p;
                None
            }
            Err(e) => {
                self.autopilot = None;
                Some(format!("the AI stops playing: {e}"))
            }
        }
    }

    /// `undo` refused when the command it would take back is the AI's.
    pub(super) fn undo_refusal(&self) -> Option<String> {
        if self.undo_by_ai.last() != Some(&true) {
            return None;
        }
        let last = self.game.undoable().last().copied().unwrap_or("");
        Some(format!(
            "the last command of this phase, `{last}`, was the AI's: `undo` takes back only your own commands"
        ))
    }

    /// Who the AI plays, for the banner.
    pub(super) fn ai_banner(&self) -> Option<String> {
        let pilot = self.autopilot.as_ref()?;
        let rules = self.rules();
        let names: Vec<&str> = pilot
            .powers
            .iter()
            .filter(|p| rules.power_info(**p).economy_of.is_none())
            .map(|p| rules.power_info(*p).name.as_str())
            .collect();
        let all = names.len() == rules.powers.iter().filter(|p| p.economy_of.is_none()).count();
        Some(if all {
            format!(
                "the AI plays every power ({}); Ctrl-C pauses it",
                names.join(", ")
            )
        } else if names.is_empty() {
            "the AI plays no power".to_string()
        } else {
            format!("the AI plays {}; you play the others", names.join(", "))
        })
    }

    /// Let the AI play while one of its powers decides, printing each command as it goes.
    pub(super) fn autoplay(&mut self) -> Stopped {
        let mut first = true;
        loop {
            let Some(pilot) = self.autopilot.as_mut() else {
                return Stopped::Handed;
            };
            // Whose decision it is comes first: a Ctrl-C while the human plays pauses nothing.
            let power = Ai::decider(&self.game).filter(|p| pilot.powers.contains(p));
            let interrupted = INTERRUPTED.swap(false, Ordering::SeqCst);
            let Some(power) = power else {
                return Stopped::Handed;
            };
            if interrupted {
                pilot.paused = true;
                println!(
                    "(the AI pauses: look around, `save FILE`, or `quit`; Enter or a command of the game lets it play on)"
                );
                return Stopped::Handed;
            }
            if pilot.paused {
                return Stopped::Handed;
            }
            if let Some(last) = pilot.last_round.filter(|r| self.game.state().round > *r) {
                println!(
                    "round {} begins: the AI played to the end of round {last} (--ai-rounds); every power is yours now",
                    last + 1
                );
                self.autopilot = None;
                return Stopped::Handed;
            }
            let s = self.game.state();
            let key = (s.round, s.turn, s.phase, power);
            if pilot.shown != Some(key) {
                pilot.in_phase = 0;
            }
            if pilot.in_phase >= PHASE_LIMIT {
                pilot.paused = true;
                let why = format!(
                    "the AI gave {PHASE_LIMIT} commands in this phase without ending it: it stops here; play on by hand"
                );
                println!("{why}");
                return Stopped::Refused(why);
            }
            if !first && !pilot.pace.is_zero() {
                let _ = std::io::stdout().flush();
                std::thread::sleep(pilot.pace);
                if INTERRUPTED.load(Ordering::SeqCst) {
                    continue;
                }
            }
            first = false;
            let Some(choice) = pilot.ai.choose(&mut self.game) else {
                pilot.paused = true;
                let why = format!(
                    "the AI has nothing to choose for {}: your move",
                    self.rules().power_info(power).name
                );
                println!("{why}");
                return Stopped::Refused(why);
            };
            let header = (pilot.shown != Some(key)).then(|| self.ai_header(power));
            let rules = self.rules().clone();
            let pilot = self.autopilot.as_mut().expect("checked above");
            if let Some(h) = header {
                println!("{h}");
                pilot.last_reason = None;
            }
            pilot.shown = Some(key);
            pilot.in_phase += 1;
            let text = choice.command.to_text(&rules);
            println!("{} (AI): {text}", rules.power_info(power).name);
            if pilot.last_reason.as_ref() != Some(&choice.reason) {
                println!("  why: {}", choice.reason);
                pilot.last_reason = Some(choice.reason.clone());
            }
            match self.game.apply(&choice.command) {
                Ok(lines) => {
                    self.sync_undo(true);
                    for l in lines {
                        println!("  {l}");
                    }
                    if let Some(q) = self.game.state().questions.0.first() {
                        println!("? {}", warroom_core::game::questions::prompt(&rules, q));
                    }
                }
                Err(e) => {
                    if let Some(p) = self.autopilot.as_mut() {
                        p.paused = true;
                    }
                    let why =
                        format!("the AI's `{text}` was refused: {e}; play on by hand (`hint`, `options`)");
                    println!("{why}");
                    return Stopped::Refused(why);
                }
            }
            if let Some(w) = &self.game.state().winner {
                println!("the game is over: {w} won");
            }
        }
    }

    /// `== round 2: Germany (AI), Combat Move ==`, or, deciding in another power's phase,
    /// `== round 2: Germany (AI), in Soviet Union's Conduct Combat ==`.
    fn ai_header(&self, power: PowerId) -> String {
        let rules = self.rules();
        let current = self.game.current_power();
        let phase = &self.game.current_phase().title;
        let name = &rules.power_info(power).name;
        let round = self.game.state().round;
        if power == current {
            format!("== round {round}: {name} (AI), {phase} ==")
        } else {
            format!(
                "== round {round}: {name} (AI), in {} {phase} ==",
                warroom_core::game::possessive(&rules.power_info(current).name)
            )
        }
    }

    /// `hint`: what the AI would play for the decision at hand, and why; in purchase and
    /// combat move, its whole plan for the phase. Nothing is applied to the game.
    pub(super) fn hint(&mut self) -> Outcome {
        let Some(power) = Ai::decider(&self.game) else {
            return Outcome::Rejected(if let Some(w) = &self.game.state().winner {
                format!("the game is over: {w} won")
            } else {
                "the battle waits for dice rolled at the table (`roll`): nothing to choose".to_string()
            });
        };
        let s = self.game.state();
        let whole_plan = s.combat.is_none()
            && s.questions.0.is_empty()
            && matches!(
                self.game.current_phase().kind,
                PhaseKind::Purchase | PhaseKind::CombatMove
            );
        // A fresh AI: the one playing `--ai` keeps its own plans.
        let steps = match whole_plan.then(|| self.plan_on_a_copy()) {
            Some(Ok(steps)) => steps,
            // No copy to play the plan on: its first step, from the game itself.
            Some(Err(_)) | None => Ai::new().choose(&mut self.game).into_iter().collect(),
        };
        if steps.is_empty() {
            return Outcome::Rejected("the AI has nothing to suggest here".to_string());
        }
        let rules = self.rules();
        let mut out = vec![format!(
            "hint for {} ({}): {}",
            rules.power_info(power).name,
            self.game.current_phase().title,
            if steps.len() > 1 {
                "the AI's plan for the phase, in order"
            } else {
                "the AI would play"
            }
        )];
        // Steps with one reason (the units of one attack) are listed together, the reason
        // after them.
        for (i, c) in steps.iter().enumerate() {
            out.push(format!("  {}", c.command.to_text(rules)));
            if steps.get(i + 1).is_none_or(|n| n.reason != c.reason) {
                out.push(format!("    why: {}", c.reason));
            }
        }
        Outcome::Ok(out.join("\n"))
    }

    /// The AI's plan for the phase, played out on a copy of the game (its save, loaded again)
    /// so that each step is judged where the ones before it left the board, as in play: up to
    /// and with the `end phase` that finishes it.
    fn plan_on_a_copy(&self) -> Result<Vec<Choice>, String> {
        let text = self.game.save_text();
        let mut copy =
            warroom_core::game::save::load(std::path::Path::new("hint.save.toml"), &text, &self.editions)
                .map_err(|e| e.to_string())?;
        let at = |g: &warroom_core::game::Game| {
            let s = g.state();
            (s.round, s.turn, s.phase)
        };
        let phase = at(&copy);
        let mut ai = Ai::new();
        let mut steps = Vec::new();
        while steps.len() < PLAN_LIMIT {
            let Some(c) = ai.choose(&mut copy) else { break };
            if c.command == Command::EndPhase {
                steps.push(c);
                break;
            }
            copy.apply(&c.command).map_err(|e| e.to_string())?;
            steps.push(c);
            let s = copy.state();
            if at(&copy) != phase || s.combat.is_some() || !s.questions.0.is_empty() {
                break;
            }
        }
        Ok(steps)
    }
}

/// The most steps of a plan `hint` lists.
const PLAN_LIMIT: usize = 200;
