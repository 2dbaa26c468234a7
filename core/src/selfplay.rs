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
    game.explain_refusals(false);
    let mut players = Players {
        ai: Ai::new(),
        random: Player::seeded(spec.seed),
        given: Vec::new(),
        answers_own: None,
    };
    let mut ended = Ended {
        winner: None,
        rounds: 0,
        commands: 0,
        ai_commands: 0,
    };
    let failed = |game: &Game, message: String| Failed {
        message,
        save: game.save_text(),
    };
    while game.state().winner.is_none() && game.state().round <= spec.rounds {
        if ended.commands >= COMMAND_LIMIT {
            let message = format!(
                "no end after {COMMAND_LIMIT} commands (round {}, {})",
                game.state().round,
                game.current_phase().title
            );
            return Err(failed(&game, message));
        }
        ended.rounds = game.state().round;
        let who = Ai::decider(&game).unwrap_or_else(|| game.current_power());
        let mine = players.brain_for(&game, brain(who));
        let told = match mine {
            Brain::Ai => players.ai_step(&mut game, who),
            Brain::Random => players.random_step(&mut game, who),
        }
        .map_err(|message| failed(&game, message))?;
        watch(&game, &told);
        ended.commands += 1;
        ended.ai_commands += u64::from(mine == Brain::Ai);
        players.gave(&game, mine);
    }
    ended.winner = game.state().winner.clone();
    // The round of the last command: a win at the end of a round does not count the next.
    ended.rounds = ended.rounds.min(spec.rounds);
    Ok(ended)
}

/// The two players at the table, and who gave what `undo` can still reach.
struct Players {
    ai: Ai,
    random: Player,
    /// Who gave each command `undo` can reach (the random player never takes back the AI's).
    given: Vec<Brain>,
    /// The phase in which the random player, stuck behind an answer the AI gave in its turn,
    /// took that answer back: questions in the rest of it are its own to answer (the AI would
    /// give the same answer again, and the random player take it back again, for ever).
    answers_own: Option<(u32, usize, usize)>,
}

impl Players {
    /// Who decides now: the power's player, but the random player answers the questions of a
    /// phase in which it took back one of the AI's answers.
    fn brain_for(&self, game: &Game, theirs: Brain) -> Brain {
        let s = game.state();
        if !s.questions.0.is_empty() && self.answers_own == Some((s.round, s.turn, s.phase)) {
            Brain::Random
        } else {
            theirs
        }
    }

    fn ai_step(&mut self, game: &mut Game, who: PowerId) -> Result<Told, String> {
        let Some(choice) = self.ai.choose(game) else {
            return Err(format!(
                "the AI has nothing to choose in {} of round {}",
                game.current_phase().title,
                game.state().round
            ));
        };
        let text = choice.command.to_text(game.rules());
        let output = game
            .apply(&choice.command)
            .map_err(|e| format!("the AI's `{text}` was refused: {e}"))?;
        Ok(Told {
            power: who,
            brain: Brain::Ai,
            text,
            reason: Some(choice.reason),
            output,
        })
    }

    fn random_step(&mut self, game: &mut Game, who: PowerId) -> Result<Told, String> {
        let kept = others_undoable(&self.given);
        self.random.keep_commands(kept);
        let mut step = self.random.step(game);
        if step.is_none() && kept > 0 {
            let s = game.state();
            self.answers_own = Some((s.round, s.turn, s.phase));
            self.random.keep_commands(0);
            step = self.random.step(game);
        }
        let Some(cmd) = step else {
            return Err(format!(
                "the random player found no legal action in {} of round {}",
                game.current_phase().title,
                game.state().round
            ));
        };
        Ok(Told {
            power: who,
            brain: Brain::Random,
            text: cmd.to_text(game.rules()),
            reason: None,
            output: Vec::new(),
        })
    }

    /// After a command `mine` gave: the commands `undo` reaches now, and who gave each.
    fn gave(&mut self, game: &Game, mine: Brain) {
        let reach = game.undoable().len();
        self.given.truncate(reach);
        self.given.resize(reach, mine);
    }
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
