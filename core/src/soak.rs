//! Random games: a game played by choosing at random among the legal actions, with the
//! engine's invariants checked after every command.
//!
//! The player draws from `Game::candidate_actions`, weighted so that games progress
//! (purchases spend, attacks happen, battles are fought, phases end), and tries the command:
//! a refusal removes it from the draw (and must leave the game exactly as it was), so the
//! command finally applied is a uniform-by-weight choice among the legal actions without
//! asking `dry_run` about every candidate first. Everything here is deterministic: the
//! player's choices come from their own seeded generator, the dice from the game's.
//!
//! A broken invariant stops the game and is returned as a `Failure` carrying a replayable
//! save and a scenario file that reproduce it; the caller writes them out.

use crate::game::command::{Command, Pick};
use crate::game::dice::Dice;
use crate::game::state::{Relation, State};
use crate::game::Game;
use crate::rules::{Domain, OnCapture, PhaseKind, Piece, PowerId, RuleSet};
use std::sync::Arc;

/// What one random game is.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// The edition as `Game::new` names it (saves name it the same way).
    pub edition: String,
    pub with: Vec<String>,
    pub scenario: Option<String>,
    /// The game's dice seed; the player's choices are seeded from it too.
    pub seed: u64,
    /// Stop after this many rounds (a game won earlier stops then).
    pub rounds: u32,
}

/// A game's end, when no invariant broke.
#[derive(Clone, Debug, Default)]
pub struct Played {
    pub commands: u64,
    /// Candidates tried and refused on the way (a measure of how much the draw wastes).
    pub rejected: u64,
    pub rounds: u32,
    pub winner: Option<String>,
    pub final_hash: u64,
}

/// An invariant that broke.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The invariant's name (`units-conserved`, `hash-unchanged-on-rejection`, ...).
    pub invariant: &'static str,
    pub message: String,
    /// The command at which it broke (its text), if one.
    pub command: Option<String>,
    /// The game up to and including that command, as a save (`warroom play --load`).
    pub save: String,
    /// The same game as a scenario (`warroom replay`, `warroom test`).
    pub scenario: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.command {
            Some(c) => write!(f, "{} broken at `{c}`: {}", self.invariant, self.message),
            None => write!(f, "{} broken: {}", self.invariant, self.message),
        }
    }
}

/// How a saved game is loaded again (`save → load → save` must give the same file): the game
/// and what the load warned of (a state that differs from a saved hash); the caller knows
/// where editions live.
pub type LoadSave<'a> = dyn Fn(&str) -> Result<(Game, Vec<String>), String> + 'a;

/// Invariants that can be switched off for speed (all on by default).
#[derive(Clone, Copy, Debug)]
pub struct Checks {
    /// After the game: replay its commands in a fresh game and compare the hash.
    pub replay: bool,
    /// After the game: save, load, save, and compare the files.
    pub save_round_trip: bool,
}

/// What the caller hears as a game goes (for `warroom soak --trace`).
pub trait Watch {
    fn applied(&mut self, _game: &Game, _cmd: &str, _output: &[String]) {}
    /// A candidate the game refused (for `warroom soak --refusals`: what the draw wastes).
    fn refused(&mut self, _game: &Game, _cmd: &Command, _why: &crate::game::Rejection) {}
}

/// Hears nothing.
pub struct Unwatched;
impl Watch for Unwatched {}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            replay: true,
            save_round_trip: true,
        }
    }
}

/// At most this many commands in one phase; then the player ends it (a player wandering
/// back and forth with `undo` or noncombat moves would never finish).
const PHASE_LIMIT: u32 = 120;

/// Play one random game to its end (or `rounds`), checking the invariants.
pub fn play(
    rules: &Arc<RuleSet>,
    spec: &GameSpec,
    checks: Checks,
    load_save: &LoadSave<'_>,
    watch: &mut dyn Watch,
) -> Result<Played, Box<Failure>> {
    let mut game = start(rules, spec).map_err(|e| {
        Box::new(Failure {
            invariant: "game-starts",
            message: e,
            command: None,
            save: String::new(),
            scenario: String::new(),
        })
    })?;
    // Refusals are counted, never read: they need not list the alternatives.
    game.explain_refusals(false);
    let mut player = Player::seeded(spec.seed);
    let mut played = Played::default();
    let mut hash = game.hash();
    // Hashes before each command `undo` can still take back.
    let mut undo_hashes: Vec<u64> = Vec::new();
    while game.state().winner.is_none() && game.state().round <= spec.rounds {
        let before = Snapshot::of(&game);
        let mut refused = None;
        let applied = player.draw(&mut game, |game, cmd, r| {
            played.rejected += 1;
            watch.refused(game, cmd, r);
            // The full state hash costs more than the refusal itself: every refusal is checked
            // for a trace in the history and the log, every 8th for one in the state.
            let traced = game.history().len() != before.history
                || game.log().len() != before.log
                || (played.rejected % 8 == 0 && game.hash() != hash);
            if refused.is_none() && traced {
                refused = Some(format!(
                    "`{}` was refused ({r}) but the game changed",
                    cmd.to_text(rules)
                ));
            }
        });
        if let Some(message) = refused {
            return Err(fail(&game, "rejection-leaves-no-trace", message, None));
        }
        let Some((cmd, out)) = applied else {
            return Err(fail(
                &game,
                "a-legal-action-exists",
                format!(
                    "no candidate action is accepted (not even `end phase`) in {}",
                    game.current_phase().title
                ),
                None,
            ));
        };
        // `apply` recorded the command's text (writing it again cost more than checking it).
        match game.history().last() {
            Some(r) => watch.applied(&game, &r.text, &out),
            None => watch.applied(&game, &cmd.to_text(rules), &out),
        }
        played.commands += 1;
        // `apply` recorded the hash after the command.
        let after = game.history().last().map_or_else(|| game.hash(), |r| r.hash);
        undo_restores(&game, &cmd, &mut undo_hashes, hash, after)?;
        hash = after;
        // Each space (and chunk of spaces) keeps its hash while unchanged: a change that slipped
        // past the cache would leave a stale one, there until the space changes again (every
        // 256th command: hashing a copy of every space afresh costs more than a command).
        if played.commands % 256 == 0 {
            hash_cache_current(&game, &cmd)?;
        }
        if let Err((invariant, message)) = check_state(rules, &before, &game, &cmd) {
            return Err(fail(&game, invariant, message, Some(&cmd)));
        }
    }
    played.rounds = game.state().round.min(spec.rounds);
    played.winner = game.state().winner.clone();
    played.final_hash = hash;
    after_the_game(rules, spec, checks, load_save, &game)?;
    Ok(played)
}

/// `undo` restores the hash before the command it takes back (`undo_hashes`: the hashes
/// before each command of the phase it can still reach, `hash` before this command and
/// `after` after it).
fn undo_restores(
    game: &Game,
    cmd: &Command,
    undo_hashes: &mut Vec<u64>,
    hash: u64,
    after: u64,
) -> Result<(), Box<Failure>> {
    if *cmd == Command::Undo {
        match undo_hashes.pop() {
            Some(h) if h == after => Ok(()),
            Some(h) => Err(fail(
                game,
                "undo-restores",
                format!("undo left hash {after:016x}; before the command it took back: {h:016x}"),
                Some(cmd),
            )),
            None => Err(fail(
                game,
                "undo-restores",
                "undo was accepted with nothing of this phase to take back".into(),
                Some(cmd),
            )),
        }
    } else {
        if *cmd == Command::EndPhase || cmd.is_battle() {
            undo_hashes.clear();
        } else {
            undo_hashes.push(hash);
        }
        Ok(())
    }
}

/// The state's cached hash is the hash computed afresh.
fn hash_cache_current(game: &Game, cmd: &Command) -> Result<(), Box<Failure>> {
    let (cached, fresh) = (game.state().hash(), game.state().hash_uncached());
    if cached == fresh {
        return Ok(());
    }
    Err(fail(
        game,
        "hash-cache-current",
        format!(
            "the state's hash {cached:016x} differs from its hash computed afresh {fresh:016x}: a space changed without dropping its cached hash"
        ),
        Some(cmd),
    ))
}

/// The checks of a whole game: it replays to the same hashes, and its save loads and saves to
/// the same file.
fn after_the_game(
    rules: &Arc<RuleSet>,
    spec: &GameSpec,
    checks: Checks,
    load_save: &LoadSave<'_>,
    game: &Game,
) -> Result<(), Box<Failure>> {
    // Loading the save replays the game from its commands and checks every saved hash: with
    // both checks on, that one replay serves both (it was half of a checked game's time).
    if checks.replay && !checks.save_round_trip {
        replay(rules, spec, game)?;
    }
    if checks.save_round_trip {
        let text = game.save_text();
        let (again, warnings) = load_save(&text).map_err(|e| {
            fail(
                game,
                "save-loads",
                format!("the game's save does not load: {e}"),
                None,
            )
        })?;
        if let (true, Some(w)) = (checks.replay, warnings.first()) {
            return Err(fail(
                game,
                "deterministic",
                format!("replaying the game from its save: {w}"),
                None,
            ));
        }
        let text2 = again.save_text();
        if text2 != text {
            let line = text
                .lines()
                .zip(text2.lines())
                .position(|(a, b)| a != b)
                .map_or(0, |i| i + 1);
            return Err(fail(
                game,
                "save-load-save",
                format!("saving the loaded game gives another file (first difference at line {line})"),
                None,
            ));
        }
    }
    Ok(())
}

fn start(rules: &Arc<RuleSet>, spec: &GameSpec) -> Result<Game, String> {
    Game::new(
        rules.clone(),
        &spec.edition,
        &spec.with,
        spec.scenario.as_deref(),
        spec.seed,
    )
}

/// The same spec and commands give the same game: replay the history in a fresh game.
fn replay(rules: &Arc<RuleSet>, spec: &GameSpec, game: &Game) -> Result<(), Box<Failure>> {
    let mut again = start(rules, spec).map_err(|e| fail(game, "deterministic", e, None))?;
    for (i, r) in game.history().iter().enumerate() {
        if let Err(e) = again.execute(&r.text) {
            return Err(fail(
                game,
                "deterministic",
                format!("replaying command {} `{}` is refused: {e}", i + 1, r.text),
                None,
            ));
        }
        if again.hash() != r.hash {
            return Err(fail(
                game,
                "deterministic",
                format!(
                    "replaying command {} `{}` gives hash {:016x}, the game had {:016x}",
                    i + 1,
                    r.text,
                    again.hash(),
                    r.hash
                ),
                None,
            ));
        }
    }
    Ok(())
}

/// The failure of an invariant in this game, with its save and scenario.
pub fn fail(game: &Game, invariant: &'static str, message: String, cmd: Option<&Command>) -> Box<Failure> {
    Box::new(Failure {
        invariant,
        message,
        command: cmd.map(|c| c.to_text(game.rules())),
        save: game.save_text(),
        scenario: crate::scenario::recording(game),
    })
}

/// A player choosing at random among the legal actions, weighted so that games progress.
/// Deterministic: its choices come from its own seeded generator.
pub struct Player {
    dice: Dice,
    at_phase: (u32, usize, usize),
    in_phase: u32,
    /// Nothing but `undo` was accepted: the phase is being taken back until it can end.
    unwinding: bool,
    /// `end phase` was refused at this command of the phase: it is not tried again for a few
    /// commands (trying it at every draw, while a warship stays where combat move may not end,
    /// was most of the refusals in Anniversary games).
    end_refused: Option<u32>,
    /// Unwinding has begun taking back the phase's commands: it goes on until none is left
    /// (flying aircraft to land meanwhile would be taken back and flown again for ever, while
    /// what stands in the way is something else: fighters waiting for a carrier that may not
    /// go there).
    taking_back: bool,
    /// How many of the phase's commands `undo` may not reach: those another player gave (a
    /// computer opponent answering a question in this player's turn).
    undo_floor: usize,
}

/// Commands of a phase between an `end phase` refused and the next try.
const END_RETRY: u32 = 8;

impl Player {
    pub fn seeded(seed: u64) -> Player {
        Player {
            dice: Dice::seeded(seed ^ 0x0005_eed0_fa11_0f1c),
            at_phase: (0, usize::MAX, 0),
            in_phase: 0,
            unwinding: false,
            end_refused: None,
            taking_back: false,
            undo_floor: 0,
        }
    }

    /// Never take back the first `n` commands `undo` could reach now: another player gave
    /// them (`selfplay`, where the AI answers questions in the random player's turn).
    pub fn keep_commands(&mut self, n: usize) {
        self.undo_floor = n;
    }

    /// Apply one action drawn among the legal ones; the command, or `None` when the game
    /// accepts none of its candidates (or is over).
    pub fn step(&mut self, game: &mut Game) -> Option<Command> {
        self.draw(game, |_, _, _| {}).map(|(c, _)| c)
    }

    /// Draw candidates by weight and try them until one is accepted (each refusal is told to
    /// `refused`, with the game as the refusal left it); the command and what it printed.
    fn draw(
        &mut self,
        game: &mut Game,
        mut refused: impl FnMut(&Game, &Command, &crate::game::Rejection),
    ) -> Option<(Command, Vec<String>)> {
        let key = phase_key(game);
        if key == self.at_phase {
            self.in_phase += 1;
        } else {
            self.at_phase = key;
            self.in_phase = 0;
            self.unwinding = false;
            self.end_refused = None;
            self.taking_back = false;
        }
        // In the move phases the player picks a stack, then a move for it: the moves of one
        // space at a time join the candidates (building every move of every stack for each
        // command was most of a random game's time).
        let moving = game.state().combat.is_none()
            && matches!(
                game.current_phase().kind,
                PhaseKind::CombatMove | PhaseKind::NoncombatMove
            );
        let mut candidates = if moving {
            game.candidate_actions_but_moves()
        } else {
            game.candidate_actions()
        };
        let mut sources = if moving { self.stacks(game) } else { Vec::new() };
        // Commands below the floor are another player's: never taken back.
        let may_undo = game.undoable().len() > self.undo_floor;
        if !may_undo {
            candidates.retain(|c| *c != Command::Undo);
        }
        let mut undo_held = take_undo_rarely(&mut candidates, &mut self.dice);
        if self.in_phase >= PHASE_LIMIT || self.unwinding {
            // Out of patience: end the phase, taking back its commands one by one while
            // something done in it stands in the way (a ship that may not stay where it went).
            // Aircraft that must land (`air_units_must_land`) still fly: what stands in the way
            // may be a battle of an earlier phase, which nothing takes back.
            candidates = vec![Command::EndPhase];
            if !may_undo {
                self.taking_back = false;
            }
            sources = game
                .unlanded_air()
                .into_iter()
                .filter(|u| !self.taking_back && !u.landings.is_empty())
                .map(|u| (u.space, u.kind))
                .collect();
            // Taking back the landing that was just flown would go round in circles.
            undo_held = sources.is_empty() && may_undo;
        }
        // Conduct combat ends only when every battle is fought.
        let battles_left = candidates.iter().any(|c| matches!(c, Command::Fight(_)));
        let retry = self.end_refused.is_none_or(|at| self.in_phase >= at + END_RETRY);
        if let Some(i) = candidates.iter().position(|c| *c == Command::EndPhase) {
            if retry && !battles_left && self.dice.uniform() < end_chance(game, self.in_phase) {
                let cmd = candidates.swap_remove(i);
                match game.apply(&cmd) {
                    Ok(out) => return Some((cmd, out)),
                    Err(r) => {
                        self.end_refused = Some(self.in_phase);
                        refused(game, &cmd, &r)
                    }
                }
            }
        }
        let at = Weigh::at(game);
        let mut weights: Vec<f64> = candidates.iter().map(|c| at.weight(game, c)).collect();
        loop {
            // Another stack's moves when none is left to try.
            while !candidates.iter().any(|c| matches!(c, Command::Move(_))) {
                let Some((from, unit)) = sources.pop() else { break };
                for c in game.candidate_moves_of(from, unit) {
                    weights.push(at.weight(game, &c));
                    candidates.push(c);
                }
            }
            if candidates.is_empty() {
                if !std::mem::take(&mut undo_held) {
                    return None;
                }
                if self.unwinding {
                    self.taking_back = true;
                }
                self.unwinding = true;
                candidates.push(Command::Undo);
                weights.push(1.0);
            }
            let i = pick(&weights, &mut self.dice);
            let cmd = candidates.swap_remove(i);
            weights.swap_remove(i);
            if let Some(more) = self.enlarge(game, &cmd) {
                match game.apply(&more) {
                    Ok(out) => return Some((more, out)),
                    Err(r) => refused(game, &more, &r),
                }
            }
            match game.apply(&cmd) {
                Ok(out) => return Some((cmd, out)),
                Err(r) => refused(game, &cmd, &r),
            }
        }
    }
}

impl Player {
    /// Each space holding units of the power to act with each type of them, in a random order
    /// (the last is tried first): the moves of one type in one space are built at a time.
    fn stacks(&mut self, game: &Game) -> Vec<(crate::rules::SpaceId, crate::rules::UnitTypeId)> {
        let power = game.current_power();
        let mut stacks = Vec::new();
        for (i, sp) in game.state().spaces.iter().enumerate() {
            let first = stacks.len();
            for u in sp.units.iter().filter(|u| u.owner == power) {
                if !stacks[first..].iter().any(|(_, k)| *k == u.kind) {
                    stacks.push((crate::rules::SpaceId(i as u16), u.kind));
                }
            }
        }
        for i in (1..stacks.len()).rev() {
            let j = (self.dice.uniform() * (i + 1) as f64) as usize;
            stacks.swap(i, j.min(i));
        }
        stacks
    }

    /// The same action for several units now and then, as players give it: buy, place or move
    /// a random number of the piece instead of one (commands with counts walked too, and
    /// games of fewer commands). `None` keeps the single one.
    fn enlarge(&mut self, game: &Game, cmd: &Command) -> Option<Command> {
        let s = game.state();
        let power = game.current_power();
        let rules = game.rules();
        let most = match cmd {
            Command::Buy {
                piece: Piece::Unit(u),
                count: 1,
                economy,
            } => {
                let cost = i64::from(rules.unit_for(*u, &s.techs[power.index()]).cost.max(1));
                (s.treasuries[economy.unwrap_or(power).index()] / cost).min(ENLARGE_MOST)
            }
            // The most any economy of the power has waiting (a wrong guess is refused).
            Command::Place { piece, count: 1, .. } => rules
                .economies(power)
                .into_iter()
                .filter_map(|e| s.purchased[e.index()].iter().find(|(p, _)| p == piece))
                .map(|(_, n)| i64::from(*n).min(ENLARGE_MOST))
                .max()
                .unwrap_or(0),
            Command::Move(m) if m.units.len() == 1 => match m.units[0] {
                Pick::Kind { kind, count: 1 } => {
                    let n = s
                        .space(m.from)
                        .units
                        .iter()
                        .filter(|u| u.owner == power && u.kind == kind)
                        .count();
                    (n as i64).min(ENLARGE_MOST)
                }
                _ => 0,
            },
            _ => 0,
        };
        if most < 2 || self.dice.uniform() < 0.5 {
            return None;
        }
        let count = 2 + (self.dice.uniform() * (most - 1) as f64) as u32;
        let count = count.min(most as u32);
        Some(match cmd.clone() {
            Command::Buy { piece, economy, .. } => Command::Buy {
                piece,
                count,
                economy,
            },
            Command::Place { piece, space, .. } => Command::Place { piece, count, space },
            Command::Move(mut m) => {
                if let Pick::Kind { kind, .. } = m.units[0] {
                    m.units = vec![Pick::Kind { kind, count }];
                }
                Command::Move(m)
            }
            other => other,
        })
    }
}

/// The most units one enlarged command names.
const ENLARGE_MOST: i64 = 8;

/// `undo` is always accepted when it is offered, so among the few moves a position accepts it
/// would be drawn far too often: it is offered alone, now and then, or not at all.
/// Whether it was held back (the last resort when nothing else is accepted: a move that left
/// the phase unfinishable, say, is taken back).
fn take_undo_rarely(candidates: &mut Vec<Command>, dice: &mut Dice) -> bool {
    if let Some(i) = candidates.iter().position(|c| *c == Command::Undo) {
        if dice.uniform() < 0.03 {
            *candidates = vec![Command::Undo];
        } else {
            candidates.swap_remove(i);
            return true;
        }
    }
    false
}

/// Where the turn stands (a new phase resets the player's patience).
fn phase_key(game: &Game) -> (u32, usize, usize) {
    let s = game.state();
    (s.round, s.turn, s.phase)
}

/// A weighted draw among the candidates: what a player trying to win would do more often.
fn pick(weights: &[f64], player: &mut Dice) -> usize {
    let total: f64 = weights.iter().sum();
    let mut x = player.uniform() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    weights.len() - 1
}

/// What a candidate's weight depends on, read once per draw.
struct Weigh {
    power: crate::rules::PowerId,
    kind: PhaseKind,
}

impl Weigh {
    fn at(game: &Game) -> Weigh {
        Weigh {
            power: game.current_power(),
            kind: game.current_phase().kind,
        }
    }

    fn weight(&self, game: &Game, c: &Command) -> f64 {
        let s = game.state();
        let (power, kind) = (self.power, self.kind);
        match c {
            Command::Buy { .. } => 20.0,
            Command::Research(_) | Command::ResearchFor { .. } => 1.0,
            Command::Layer(_) => 5.0,
            Command::Answer(_) => 10.0,
            // Decided before the first battle, or never: tried early.
            Command::Scramble { .. } | Command::Intercept { .. } => 30.0,
            Command::AskPassage(_) => 1.0,
            Command::Breakthrough(_) => 10.0,
            Command::Repair { .. } => 3.0,
            Command::Move(m) => {
                if kind == PhaseKind::CombatMove {
                    let hostile = s
                        .space(m.to)
                        .controller
                        .is_some_and(|o| s.relations[power.index()][o.index()] == Relation::War)
                        || s.space(m.to)
                            .units
                            .iter()
                            .any(|u| s.relations[power.index()][u.owner.index()] == Relation::War);
                    // Anything else sent to a quiet space in combat move is refused or has to
                    // be taken back before the phase can end (a blitz through may end there, a
                    // loaded transport may go there to offload into a battle): seldom worth
                    // trying.
                    let loaded_transport = m.units.iter().any(|p| {
                        matches!(p, Pick::Kind { kind, .. } if s.space(m.from).units.iter().any(|u| {
                            u.kind == *kind
                                && u.owner == power
                                && s.space(m.from).units.iter().any(|c| c.aboard == Some(u.id))
                        }))
                    });
                    // Passing enemy transports and submarines by leaves no battle there.
                    if hostile && !m.ignore {
                        6.0
                    } else if loaded_transport {
                        1.0
                    } else {
                        0.1
                    }
                } else {
                    2.0
                }
            }
            Command::Place { .. } => 30.0,
            Command::Fight(_) => 50.0,
            Command::FightBombarding { .. } => 10.0,
            Command::Casualties(p) if p.is_empty() => 20.0,
            Command::Casualties(_) => 2.0,
            Command::Disagree => 0.5,
            Command::Press => 10.0,
            Command::Retreat(_) => 2.0,
            Command::Submerge(_) => 3.0,
            Command::Roll(_) => 5.0,
            Command::Rocket { .. } => 3.0,
            Command::DeclareWar(_) => 0.5,
            Command::PlayFirst(_) => 1.0,
            Command::Undo => 1.0,
            // Its chance is `end_chance`, asked first; drawn here only when little else is left.
            Command::EndPhase => 0.1,
            Command::Edit(_) | Command::Dice(_) | Command::CasualtyOrder { .. } => 0.0,
        }
    }
}

/// How likely the player is to end the phase now, before anything else: a purchase ends as
/// the money runs out, move phases after some moves, mobilization once all is placed (until
/// then `end phase` would lose the units).
fn end_chance(game: &Game, in_phase: u32) -> f64 {
    let s = game.state();
    let power = game.current_power();
    let step = f64::from(in_phase);
    match game.current_phase().kind {
        PhaseKind::Purchase if s.treasuries[power.index()] < 6 => 0.9,
        PhaseKind::Purchase => 0.03,
        PhaseKind::CombatMove => 0.06 + 0.02 * step,
        PhaseKind::NoncombatMove => 0.1 + 0.03 * step,
        PhaseKind::Mobilize => 0.01,
        _ => 0.5,
    }
}

/// What the state looked like before a command, for the invariants that compare
/// (`Snapshot::of`, then `check_state` after the command).
pub struct Snapshot {
    history: usize,
    log: usize,
    turn: (u32, usize),
    /// The spaces as they were, shared with the state: a space the command changed is a new
    /// one after it (the snapshot's share forces the copy), so only those need comparing.
    spaces: crate::game::spaces::Spaces,
    purchased: Arc<Vec<Vec<(Piece, u32)>>>,
    neutrals: crate::game::state::Neutrals,
}

impl Snapshot {
    pub fn of(game: &Game) -> Snapshot {
        let s = game.state();
        Snapshot {
            history: game.history().len(),
            log: game.log().len(),
            turn: (s.round, s.turn),
            spaces: s.spaces.clone(),
            purchased: s.purchased.clone(),
            neutrals: s.neutrals.clone(),
        }
    }
}

/// The invariants after an accepted command: the name of the one broken, and how.
pub fn check_state(
    rules: &RuleSet,
    before: &Snapshot,
    game: &Game,
    cmd: &Command,
) -> Result<(), (&'static str, String)> {
    let s = game.state();
    for (i, t) in s.treasuries.iter().enumerate() {
        if *t < 0 {
            return Err((
                "treasury-not-negative",
                format!("{} has {t} IPCs", rules.powers[i].name),
            ));
        }
    }
    // Spaces the command changed (the others hold the same units as before, already checked).
    let changed = s.spaces.changed_since(&before.spaces);
    units_conserved(rules, before, s, cmd, &changed)?;
    for &i in &changed {
        units_where_they_may_be_in(rules, s, i)?;
    }
    if before.turn != (s.round, s.turn) {
        air_units_landed(rules, s)?;
    }
    Ok(())
}

/// Between turns every air unit is over a territory held by its side or at sea beside a
/// carrier of its side.
pub fn air_units_landed(rules: &RuleSet, s: &State) -> Result<(), (&'static str, String)> {
    let friends = |a: PowerId, b: PowerId| a == b || s.relations[a.index()][b.index()] == Relation::Allied;
    for (i, sp) in s.spaces.iter().enumerate() {
        let space = &rules.board.spaces[i];
        for u in sp
            .units
            .iter()
            .filter(|u| rules.unit(u.kind).domain == Domain::Air)
        {
            let safe = if space.is_sea() {
                sp.units
                    .iter()
                    .any(|c| friends(u.owner, c.owner) && rules.unit(c.kind).carrier_capacity > 0)
            } else {
                // Or a former neutral that joined its side, held by no power yet.
                sp.controller.is_some_and(|c| friends(u.owner, c))
                    || crate::game::neutrals::seen(rules, s, u.owner, crate::rules::SpaceId(i as u16))
                        == Some(crate::game::neutrals::Seen::JoinedFriendly)
            };
            if !safe {
                return Err((
                    "air-units-land",
                    format!(
                        "{} {} #{} is in {} at the end of a turn, with nowhere to land",
                        rules.powers[u.owner.index()].name,
                        rules.unit(u.kind).name,
                        u.id,
                        space.name
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Units appear only when placed (or added by a rule script at a phase's end, in a battle, or
/// carrying out a layer's command or an answer), disappear only in battles, at a phase's end
/// (air units with nowhere to land) and where scripts may act, and never change type;
/// they change owner only when captured, in a battle or as it ends.
fn units_conserved(
    rules: &RuleSet,
    before: &Snapshot,
    s: &State,
    cmd: &Command,
    changed: &[usize],
) -> Result<(), (&'static str, String)> {
    const NAME: &str = "units-conserved";
    if *cmd == Command::Undo {
        return Ok(());
    }
    // Rule scripts may add and remove units as a phase ends or begins, as a battle takes a
    // territory (`territory_captured`), and in carrying out a layer's command or an answer.
    let scripted = !rules.scripts.is_empty()
        && (*cmd == Command::EndPhase
            || cmd.is_battle()
            || matches!(cmd, Command::Layer(_) | Command::Answer(_)));
    let destroys = cmd.is_battle() || *cmd == Command::EndPhase || scripted;
    // A unit that moved left one changed space for another: the units of the changed spaces
    // before and after are the whole comparison.
    let mut was: Vec<(u32, crate::rules::UnitTypeId, PowerId)> = changed
        .iter()
        .flat_map(|&i| before.spaces[i].units.iter().map(|u| (u.id, u.kind, u.owner)))
        .collect();
    was.sort_unstable_by_key(|u| u.0);
    let mut seen = 0usize;
    let mut created: Vec<(crate::rules::UnitTypeId, PowerId)> = Vec::new();
    for &i in changed {
        for u in &s.spaces[i].units {
            let known = was.binary_search_by_key(&u.id, |b| b.0).ok();
            match known.map(|i| was[i]) {
                Some((_, kind, owner)) => {
                    seen += 1;
                    if kind != u.kind {
                        return Err((
                            NAME,
                            format!(
                                "unit #{} was a {} and is now a {}",
                                u.id,
                                rules.unit(kind).name,
                                rules.unit(u.kind).name
                            ),
                        ));
                    }
                    // A neutral's army changes hands: to the power its side chose to stand for
                    // it, or to the power taking the territory.
                    let army = before.neutrals.army_of(u.id).is_some();
                    if owner != u.owner
                        && !army
                        && !(destroys && rules.unit(kind).on_capture == OnCapture::Capture)
                    {
                        return Err((
                            NAME,
                            format!(
                                "unit #{} ({}) changed hands from {} to {}",
                                u.id,
                                rules.unit(kind).name,
                                rules.powers[owner.index()].name,
                                rules.powers[u.owner.index()].name
                            ),
                        ));
                    }
                }
                // A neutral's army stands as the neutral is attacked, or is taken.
                None if s.neutrals.army_of(u.id).is_some() => {}
                None if rules
                    .board
                    .space(crate::rules::SpaceId(i as u16))
                    .neutral
                    .is_some()
                    && before.spaces[i].controller.is_none()
                    && s.spaces[i].controller.is_some() => {}
                None => created.push((u.kind, u.owner)),
            }
        }
    }
    if seen < was.len() && !destroys {
        return Err((NAME, format!("{} unit(s) vanished", was.len() - seen)));
    }
    match cmd {
        Command::Place {
            piece: Piece::Unit(kind),
            count,
            ..
        } => {
            let ok = created.len() == *count as usize && created.iter().all(|(k, _)| k == kind);
            if !ok {
                return Err((
                    NAME,
                    format!(
                        "placing {count} {} created {} unit(s)",
                        rules.unit(*kind).name,
                        created.len()
                    ),
                ));
            }
            let p = created.first().map(|c| c.1);
            // Bought by the power or by one of its economies (whose units are the power's).
            let had: u32 = p.map_or(0, |p| {
                rules
                    .economies(p)
                    .into_iter()
                    .map(|e| {
                        before.purchased[e.index()]
                            .iter()
                            .find(|(pc, _)| *pc == Piece::Unit(*kind))
                            .map_or(0, |(_, n)| *n)
                    })
                    .max()
                    .unwrap_or(0)
            });
            if had < *count {
                return Err((
                    NAME,
                    format!("{count} {} placed, {had} bought", rules.unit(*kind).name),
                ));
            }
        }
        _ if scripted => {}
        _ if !created.is_empty() => {
            return Err((
                NAME,
                format!(
                    "{} unit(s) appeared ({}) outside placement",
                    created.len(),
                    rules.unit(created[0].0).name
                ),
            ))
        }
        _ => {}
    }
    Ok(())
}

/// No land unit at sea outside a transport, no sea unit on land, every unit aboard something
/// beside it; at the end of a turn every air unit over friendly land or on a carrier.
pub fn units_where_they_may_be(rules: &RuleSet, s: &State) -> Result<(), (&'static str, String)> {
    (0..s.spaces.len()).try_for_each(|i| units_where_they_may_be_in(rules, s, i))
}

/// [`units_where_they_may_be`] in one space (by index).
fn units_where_they_may_be_in(rules: &RuleSet, s: &State, i: usize) -> Result<(), (&'static str, String)> {
    const NAME: &str = "units-where-they-may-be";
    let sp = &s.spaces[i];
    {
        let space = &rules.board.spaces[i];
        for u in &sp.units {
            let t = rules.unit(u.kind);
            if let Some(ride) = u.aboard {
                if !sp.units.iter().any(|r| r.id == ride) {
                    return Err((
                        NAME,
                        format!(
                            "{} #{} in {} is aboard #{ride}, which is not there",
                            t.name, u.id, space.name
                        ),
                    ));
                }
            }
            match (t.domain, space.is_sea()) {
                (Domain::Land, true) if u.aboard.is_none() => {
                    return Err((
                        NAME,
                        format!(
                            "{} #{} is at sea in {} without a transport",
                            t.name, u.id, space.name
                        ),
                    ))
                }
                (Domain::Sea, false) => {
                    return Err((NAME, format!("{} #{} is on land in {}", t.name, u.id, space.name)))
                }
                _ => {}
            }
        }
    }
    Ok(())
}
