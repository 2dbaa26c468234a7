//! Whole games played by computer players: the AI (`crate::ai`) or the random player of the
//! soak (`crate::soak::Player`) on each side. `warroom selfplay` plays many and reports wins
//! per side with their confidence intervals: what tells a house-rule author whether a rule
//! unbalances the game.

use crate::ai::Ai;
use crate::game::Game;
use crate::rules::{PowerId, RuleSet};
use crate::soak::{GameSpec, Player};
use std::sync::Arc;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brain {
    Ai,
    Random,
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// The winning side, or `None` when the round limit came first.
    pub winner: Option<String>,
    /// Rounds played: the round of the game's last command.
    pub rounds: u32,
    pub commands: u64,
    /// Commands the AI chose (the rest were the random player's).
    pub ai_commands: u64,
}

/// A command given, as `watch` hears it (after it was applied).
pub struct Told {
    pub power: PowerId,
    pub brain: Brain,
    pub text: String,
    /// The AI's reason; none for the random player.
    pub reason: Option<String>,
    /// What the game logged for it.
    pub output: Vec<String>,
}

/// A game that could not go on: why, and the game so far as a save (`warroom play --load`).
#[derive(Clone, Debug)]
pub struct Failed {
    pub message: String,
    pub save: String,
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// At most this many commands in a game: a player that loops is a bug to report, not a game
/// to wait for.
const COMMAND_LIMIT: u64 = 400_000;

/// Play one game to its end or to `spec.rounds`, `brain` telling who plays each power.
pub fn play(
    rules: &Arc<RuleSet>,
    spec: &GameSpec,
    brain: &dyn Fn(PowerId) -> Brain,
    watch: &mut dyn FnMut(&Game, &Told),
) -> Result<Ended, Failed> {
    let mut game = Game::new(
        rules.clone(),
        &spec.edition,
        &spec.with,
        spec.scenario.as_deref(),
        spec.seed,
    )
    .map_err(|message| Failed {
        message,
        save: String::new(),
    })?;
    let failed = |game: &Game, message: String| Failed {
        message,
        save: game.save_text(),
    };
    game.explain_refusals(false);
    let mut ai = Ai::new();
    let mut random = Player::seeded(spec.seed);
    let mut ended = Ended {
        winner: None,
        rounds: 0,
        commands: 0,
        ai_commands: 0,
    };
    // Who gave each command `undo` can reach (the random player never takes back the AI's).
    let mut given: Vec<Brain> = Vec::new();
    // The phase in which the random player, stuck behind an answer the AI gave in its turn,
    // took that answer back: questions in the rest of it are its own to answer (the AI would
    // give the same answer again, and the random player take it back again, for ever).
    let mut answers_own: Option<(u32, usize, usize)> = None;
    while game.state().winner.is_none() && game.state().round <= spec.rounds {
        if ended.commands >= COMMAND_LIMIT {
            return Err(failed(
                &game,
                format!(
                    "no end after {COMMAND_LIMIT} commands (round {}, {})",
                    game.state().round,
                    game.current_phase().title
                ),
            ));
        }
        ended.rounds = game.state().round;
        let who = Ai::decider(&game).unwrap_or_else(|| game.current_power());
        let s = game.state();
        let at = (s.round, s.turn, s.phase);
        let mine = if !s.questions.0.is_empty() && answers_own == Some(at) {
            Brain::Random
        } else {
            brain(who)
        };
        match mine {
            Brain::Ai => {
                let Some(choice) = ai.choose(&mut game) else {
                    return Err(failed(
                        &game,
                        format!(
                            "the AI has nothing to choose in {} of round {}",
                            game.current_phase().title,
                            game.state().round
                        ),
                    ));
                };
                let output = match game.apply(&choice.command) {
                    Ok(out) => out,
                    Err(e) => {
                        let text = choice.command.to_text(rules);
                        return Err(failed(&game, format!("the AI's `{text}` was refused: {e}")));
                    }
                };
                ended.ai_commands += 1;
                let text = choice.command.to_text(rules);
                watch(
                    &game,
                    &Told {
                        power: who,
                        brain: Brain::Ai,
                        text,
                        reason: Some(choice.reason),
                        output,
                    },
                );
            }
            Brain::Random => {
                random.keep_commands(others_undoable(&given));
                let mut step = random.step(&mut game);
                if step.is_none() && others_undoable(&given) > 0 {
                    answers_own = Some(at);
                    random.keep_commands(0);
                    step = random.step(&mut game);
                }
                let Some(cmd) = step else {
                    return Err(failed(
                        &game,
                        format!(
                            "the random player found no legal action in {} of round {}",
                            game.current_phase().title,
                            game.state().round
                        ),
                    ));
                };
                let text = cmd.to_text(rules);
                watch(
                    &game,
                    &Told {
                        power: who,
                        brain: Brain::Random,
                        text,
                        reason: None,
                        output: Vec::new(),
                    },
                );
            }
        }
        ended.commands += 1;
        let reach = game.undoable().len();
        given.truncate(reach);
        while given.len() < reach {
            given.push(mine);
        }
    }
    ended.winner = game.state().winner.clone();
    // The round of the last command: a win at the end of a round does not count the next.
    ended.rounds = ended.rounds.min(spec.rounds);
    Ok(ended)
}

/// How many of the commands `undo` can reach were not the random player's to take back: up to
/// and including the last the AI gave.
fn others_undoable(given: &[Brain]) -> usize {
    given.iter().rposition(|b| *b == Brain::Ai).map_or(0, |i| i + 1)
}

/// The share `wins / games` and its 95 % Wilson score interval: (share, low, high).
pub fn wilson(wins: u64, games: u64) -> (f64, f64, f64) {
    if games == 0 {
        return (0.0, 0.0, 1.0);
    }
    let n = games as f64;
    let p = wins as f64 / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}
