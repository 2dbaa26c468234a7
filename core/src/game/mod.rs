//! A game: a frozen rule set, the state, the command history and the event log.
//!
//! Architecture invariant: commands are transactions. `apply` runs a command against a copy of
//! the state and swaps it in only when every check (the engine's and the scripts') passed, so
//! a rejected command leaves no trace but its message.

pub mod arrange;
pub mod bases;
mod bombardment;
pub mod command;
pub mod control;
pub mod convoy;
pub mod dice;
pub mod economy;
pub mod fight;
mod flow;
mod foresight;
mod hooks;
pub mod intercept;
pub mod layer_commands;
pub mod legal;
pub mod mobilize;
pub mod movement;
pub mod neutrals;
pub mod politics;
pub mod questions;
mod raid;
pub use raid::RaidOdds;
pub mod reload;
mod requests;
pub mod research;
pub mod save;
pub mod scramble;
pub mod seats;
pub mod spaces;
pub mod state;
pub mod unit_facts;

pub use crate::rules::possessive;
use crate::rules::{PhaseKind, Piece, PowerId, RuleSet, Scenario, TurnStep, Unplaceable};
use command::{Command, Edit};
pub(crate) use hooks::BattleHost;
pub use hooks::BattleScripts;
use state::{State, Unit};
use std::fmt;
use std::sync::Arc;

/// Load every layer's scripts into a fresh host, as a game would, to report script errors
/// (syntax, bad registrations, forbidden globals at top level) without starting a game.
pub fn check_scripts(rules: &RuleSet) -> Result<(), crate::script::ScriptError> {
    hooks::Hooks::for_rules(rules).map(|_| ())
}

/// Why a command was refused: a message, and the rule (or script handler) that refused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub message: String,
    pub rule: Option<String>,
}

impl Rejection {
    pub fn new(message: impl Into<String>) -> Self {
        Rejection {
            message: message.into(),
            rule: None,
        }
    }
    pub fn by(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.rule {
            Some(r) => write!(f, "{} [{r}]", self.message),
            None => f.write_str(&self.message),
        }
    }
}
impl std::error::Error for Rejection {}

/// One line of the event log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub round: u32,
    pub power: PowerId,
    pub phase: String,
    pub text: String,
}

/// One applied command as it is saved: its text and the state hash after it, and what it
/// printed (for recordings that replay against changed rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub text: String,
    pub hash: u64,
    pub output: Vec<String>,
}

/// How the game was started, enough to rebuild it from a save.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub edition: String,
    pub with: Vec<String>,
    pub scenario: String,
    pub seed: u64,
}

pub struct Game {
    rules: Arc<RuleSet>,
    origin: Origin,
    state: State,
    history: Vec<Record>,
    log: Vec<LogEntry>,
    scripts: Option<hooks::Hooks>,
    /// What the game looked like before each command of the current phase, for `undo`.
    undo: Vec<Snapshot>,
    /// Who plays which powers, once the players are dealt (`None`: nobody has said).
    seats: Option<seats::Seats>,
    /// The scripts' stores as they were before the last `attempt` (what `undo` and a dry run
    /// put back).
    store_before: Option<crate::script::Value>,
    /// Refusals explain themselves in full (a move without a legal path lists where the units
    /// can go instead). Programs that try many commands and read no messages (the random
    /// games) switch it off: listing the alternatives costs more than the refusal.
    explain: bool,
    /// Where the game's scenario (`origin.scenario`) is in `rules.scenarios`: asked for by
    /// every question about whose turn it is.
    scenario_at: usize,
}

/// A command run on a copy of the state, not yet committed.
struct Attempt {
    next: State,
    out: Vec<String>,
}

struct Snapshot {
    state: State,
    store: Option<crate::script::Value>,
    text: String,
}

impl Game {
    /// Start a scenario (the edition's default when `scenario` is `None`).
    pub fn new(
        rules: Arc<RuleSet>,
        origin_edition: &str,
        with: &[String],
        scenario: Option<&str>,
        seed: u64,
    ) -> Result<Game, String> {
        let id = scenario
            .map(str::to_string)
            .or_else(|| rules.default_scenario.clone())
            .or_else(|| rules.scenarios.first().map(|s| s.id.clone()))
            .ok_or("the edition has no scenario")?;
        let scenario_at = rules.scenarios.iter().position(|s| s.id == id).ok_or_else(|| {
            let names: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
            format!("no scenario `{id}`; scenarios: {}", names.join(", "))
        })?;
        let sc = &rules.scenarios[scenario_at];
        if sc.turn_order.is_empty() {
            return Err(format!("scenario `{id}` has an empty turn order"));
        }
        if let Some(p) = sc.turn_order.iter().find(|p| rules.turn_of(**p).is_empty()) {
            return Err(format!(
                "the edition declares no phases in [turn] for {}",
                rules.power_info(*p).name
            ));
        }
        let mut state = State::setup(&rules, sc, seed);
        start_turn_records(&rules, sc, &mut state);
        let mut scripts = hooks::Hooks::for_rules(&rules).map_err(|e| e.to_string())?;
        let mut log = Vec::new();
        if let Some(h) = &mut scripts {
            for text in h.game_setup(&rules, &id, &mut state)? {
                let at = step(&rules, sc, &state);
                log.push(LogEntry {
                    round: state.round,
                    power: at.power,
                    phase: rules.phases[at.phase.index()].id.clone(),
                    text,
                });
            }
        }
        Ok(Game {
            origin: Origin {
                edition: origin_edition.to_string(),
                with: with.to_vec(),
                scenario: id,
                seed,
            },
            rules,
            state,
            history: Vec::new(),
            log,
            scripts,
            undo: Vec::new(),
            seats: None,
            store_before: None,
            explain: true,
            scenario_at,
        })
    }

    /// Whether refusals explain themselves in full (on by default; see [`Game`]'s `explain`).
    pub fn explain_refusals(&mut self, on: bool) {
        self.explain = on;
    }

    /// Who plays which powers, if the players have been dealt.
    pub fn seats(&self) -> Option<&seats::Seats> {
        self.seats.as_ref()
    }

    /// Deal the powers to `count` players by the edition's `[players]` rules.
    pub fn deal_players(&mut self, count: u32) -> Result<&seats::Seats, String> {
        let dealt = seats::Seats::deal(&self.rules, self.scenario(), count)?;
        Ok(self.seats.insert(dealt))
    }

    /// Seat the players as given (a save's seating), if it follows the rules.
    pub fn seat_players(&mut self, players: Vec<Vec<PowerId>>) -> Result<(), String> {
        self.seats = Some(seats::Seats::check(&self.rules, self.scenario(), players)?);
        Ok(())
    }

    /// Give `power` (and the powers it is played with) to player `player` (1-based). The powers
    /// that moved.
    pub fn seat(&mut self, player: usize, power: PowerId) -> Result<Vec<PowerId>, String> {
        let rules = self.rules.clone();
        let sc = rules
            .scenario(&self.origin.scenario)
            .expect("a game's scenario exists");
        match &mut self.seats {
            Some(s) => s.seat(&rules, sc, player, power),
            None => Err("no players are seated: `players N` deals the powers to N players first".into()),
        }
    }

    pub fn rules(&self) -> &Arc<RuleSet> {
        &self.rules
    }
    pub fn state(&self) -> &State {
        &self.state
    }
    pub fn origin(&self) -> &Origin {
        &self.origin
    }
    pub fn history(&self) -> &[Record] {
        &self.history
    }
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }
    /// The hash of the state and of the scripts' stored data (hash scheme 4, what this build
    /// records).
    pub fn hash(&self) -> u64 {
        self.with_store(self.state.hash())
    }

    /// The hash as a save or recording of the given hash scheme holds it (1 to 3: earlier
    /// ones, kept so files written before scheme 4 still check; anything else: the current
    /// one).
    pub fn hash_in_scheme(&self, scheme: i64) -> u64 {
        match scheme {
            1 => self.with_store(self.state.hash_v1()),
            2 => self.with_store(self.state.hash_v2()),
            3 => self.with_store(self.state.hash_v3()),
            _ => self.hash(),
        }
    }

    fn with_store(&self, mut h: u64) -> u64 {
        if let Some(hooks) = &self.scripts {
            // Debug output of a script Value is ordered (IndexMap), so it hashes stably.
            for b in format!("{:?}", hooks.store()).bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }

    pub fn scenario(&self) -> &crate::rules::Scenario {
        &self.rules.scenarios[self.scenario_at]
    }

    /// The power acting now: whose turn it is, or a power playing its part within that turn
    /// (`[turn.within]`).
    pub fn current_power(&self) -> PowerId {
        step(&self.rules, self.scenario(), &self.state).power
    }

    /// What the rule scripts' report `name` says about `power` (the one to play if `None`):
    /// lines their `report` handlers log; nothing in the game changes. Empty when no script
    /// answers that report.
    pub fn report(&mut self, name: &str, power: Option<PowerId>) -> Result<Vec<String>, String> {
        let at = step(&self.rules, self.scenario(), &self.state);
        let power = power.unwrap_or_else(|| self.current_power());
        match self.scripts.as_mut() {
            None => Ok(Vec::new()),
            Some(h) => h.report(&self.rules, &self.state, at, name, power),
        }
    }

    /// The bombing raid announced on `space`, fought `runs` times on copies of the board.
    pub fn raid_odds(&self, space: crate::rules::SpaceId, runs: u64) -> Result<raid::RaidOdds, String> {
        raid::raid_odds(&self.rules, &self.state, self.current_power(), space, runs, 1)
    }

    /// The battle announced in `space` as it would start now, for `odds::calculate`, with the
    /// rule scripts it would run.
    pub fn odds_question(&self, space: crate::rules::SpaceId) -> Result<crate::odds::Question, String> {
        let mut q = fight::odds_question(&self.rules, &self.state, self.current_power(), space)?;
        q.scripts = self.battle_scripts().map(Arc::new);
        Ok(q)
    }

    /// Whose turn it is (the power in the scenario's turn order).
    pub fn turn_power(&self) -> PowerId {
        self.scenario().turn_order[self.state.turn]
    }

    pub fn current_phase(&self) -> &crate::rules::Phase {
        let at = step(&self.rules, self.scenario(), &self.state);
        &self.rules.phases[at.phase.index()]
    }

    /// The steps of the turn in progress, in the order chosen so far; `State::phase` indexes
    /// them.
    pub fn turn_steps(&self) -> &[TurnStep] {
        self.rules.plan(self.turn_power()).steps(self.state.choices)
    }

    /// The orders the player may still choose in this turn: for each open choice, the power
    /// playing first now and the one `play POWER first` would put first.
    pub fn open_choices(&self) -> Vec<(PowerId, PowerId)> {
        open_choices(&self.rules, self.scenario(), &self.state)
            .into_iter()
            .map(|c| (c.first, c.other))
            .collect()
    }

    /// Income the power would collect now: its territories' values, nothing without its capital.
    pub fn income(&self, power: PowerId) -> i64 {
        control::income(&self.rules, &self.state, power)
    }

    /// In noncombat move: the current power's air units that ending the phase now would lose,
    /// with where each could still land (so a player can be asked first).
    pub fn unlanded_air(&self) -> Vec<movement::Unlanded> {
        if self.current_phase().kind != PhaseKind::NoncombatMove || self.state.winner.is_some() {
            return Vec::new();
        }
        movement::unlanded_air(&self.rules, &self.state, self.current_power())
    }

    /// [`Game::unlanded_air`] with only the landings a `move` would be allowed now: a rule
    /// script may refuse some (a power neutral on one map keeps its allies' aircraft out).
    /// An air unit whose every landing is refused cannot land: it is lost at the end of the
    /// phase, and does not hold the phase up.
    pub fn landable_air(&mut self) -> Vec<movement::Unlanded> {
        let mut unlanded = self.unlanded_air();
        let vetoes = self
            .scripts
            .as_ref()
            .is_some_and(|h| h.listens(crate::script::EventKind::ValidateMove));
        if !vetoes {
            return unlanded;
        }
        for u in &mut unlanded {
            let (from, id) = (u.space, u.id);
            u.landings.retain(|to| {
                let land = command::Move::plain(vec![command::Pick::Id(id)], from, *to);
                self.rehearse(&Command::Move(land)).is_ok()
            });
        }
        unlanded
    }

    /// Texts of the commands `undo` can take back, oldest first.
    pub fn undoable(&self) -> Vec<&str> {
        self.undo.iter().map(|s| s.text.as_str()).collect()
    }

    /// Parse and apply one command line.
    pub fn execute(&mut self, line: &str) -> Result<Vec<String>, Rejection> {
        let cmd = Command::parse(&self.rules, line).map_err(Rejection::new)?;
        self.apply(&cmd)
    }

    /// `report NAME [POWER]` as text (a scenario's step, the REPL's command): the report's
    /// lines, or why there are none. Not a command: nothing is recorded, nothing changes.
    pub fn report_text(&mut self, line: &str) -> Option<Result<Vec<String>, String>> {
        let words = command::tokenize(line).ok()?;
        let (verb, rest) = words.split_first()?;
        if !verb.eq_ignore_ascii_case("report") {
            return None;
        }
        let Some((name, rest)) = rest.split_first() else {
            return Some(Err(
                "report what? `report objectives [POWER]`, `report victory`, or a report a layer offers"
                    .into(),
            ));
        };
        let power = if rest.is_empty() {
            None
        } else {
            match command::resolve_power(&self.rules, &rest.join(" ")) {
                Ok(p) => Some(p),
                Err(e) => return Some(Err(e)),
            }
        };
        let name = name.to_lowercase();
        Some(match self.report(&name, power) {
            Ok(lines) if lines.is_empty() => {
                Err(format!("no rule script of these rules answers `report {name}`"))
            }
            other => other,
        })
    }

    /// Apply a command as a transaction; on success returns the log lines it produced.
    pub fn apply(&mut self, cmd: &Command) -> Result<Vec<String>, Rejection> {
        if *cmd == Command::Undo {
            return self.undo_last();
        }
        let power = self.current_power();
        let Attempt { next, out, .. } = self.attempt(cmd)?;
        let phase = self.current_phase().id.clone();
        for text in &out {
            self.log.push(LogEntry {
                round: self.state.round,
                power,
                phase: phase.clone(),
                text: text.clone(),
            });
        }
        // An answer is kept as the answer it gave (`answer 2` is recorded as `answer hold`).
        let answered = match (cmd, self.state.questions.0.first()) {
            (Command::Answer(a), Some(q)) => questions::matching(q, a)
                .ok()
                .map(|i| Command::Answer(q.answers[i].clone())),
            _ => None,
        };
        let before = std::mem::replace(&mut self.state, next);
        let text = answered.as_ref().unwrap_or(cmd).to_text(&self.rules);
        // Dice once seen cannot be taken back: a battle ends what undo can reach.
        if *cmd == Command::EndPhase || cmd.is_battle() {
            self.undo.clear();
            self.store_before = None;
        } else {
            self.undo.push(Snapshot {
                state: before,
                store: self.store_before.take(),
                text: text.clone(),
            });
        }
        self.record(text, &out);
        Ok(out)
    }

    /// Whether `apply` would accept the command now, and what it would print, without
    /// changing the game: the state, the history, the log, the undo stack and the scripts'
    /// stores are as they were. (Dice rolled in a dry run are rolled on a copy.)
    pub fn dry_run(&mut self, cmd: &Command) -> Result<Vec<String>, Rejection> {
        if *cmd == Command::Undo {
            return match self.undo.last() {
                Some(s) => Ok(vec![format!("undo: {}", s.text)]),
                None => Err(Rejection::new(
                    "nothing to undo in this phase (a finished phase cannot be taken back)",
                )),
            };
        }
        self.rehearse(cmd).map(|a| a.out)
    }

    /// [`Game::attempt`], with the scripts' stores put back as they were: nothing changes.
    fn rehearse(&mut self, cmd: &Command) -> Result<Attempt, Rejection> {
        let attempt = self.attempt(cmd)?;
        let store = self.store_before.take();
        self.restore_store(store.as_ref())?;
        Ok(attempt)
    }

    /// The scripts' stores as they were (`store`: as `hooks::Hooks::store` read them).
    fn restore_store(&mut self, store: Option<&crate::script::Value>) -> Result<(), Rejection> {
        if let (Some(h), Some(store)) = (&mut self.scripts, store) {
            h.restore_store(store)
                .map_err(|e| Rejection::new(format!("a rule script's store could not be restored: {e}")))?;
        }
        Ok(())
    }

    /// Run a command on a copy of the state, the scripts' events included. On success the
    /// scripts' stores hold what they stored meanwhile (`store_before` keeps what they held
    /// before); on failure they are as they were.
    fn attempt(&mut self, cmd: &Command) -> Result<Attempt, Rejection> {
        self.admissible(cmd)?;
        let mut next = self.state.clone();
        let mut out = Vec::new();
        let at = step(&self.rules, self.scenario(), &self.state);
        let mut moved = None;
        // Battles fire events while they are fought; if the command then fails, what the
        // scripts stored meanwhile is rolled back with it.
        let store_before = self.scripts.as_ref().map(hooks::Hooks::store);
        if self.battles_wait(cmd, at, &mut next, &mut out)? {
            self.store_before = store_before;
            return Ok(Attempt { next, out });
        }
        let ran = self
            .run_heard(cmd, at, &mut next, &mut out, &mut moved)
            .and_then(|()| self.after_run(cmd, moved.as_ref(), &mut next, &mut out));
        if let Err(e) = ran {
            self.restore_store(store_before.as_ref())?;
            return Err(e);
        }
        out.retain(|l| l != TRANSITION);
        self.store_before = store_before;
        Ok(Attempt { next, out })
    }

    /// What the game refuses before running a command, because it takes the scripts to judge:
    /// a layer's command no script carries out; the end of a noncombat move while an air unit
    /// can still land where the scripts allow it (`air_units_must_land`).
    fn admissible(&mut self, cmd: &Command) -> Result<(), Rejection> {
        // A layer's command is carried out by its scripts: with none listening it would be
        // accepted doing nothing.
        if let Command::Layer(c) = cmd {
            let heard = self
                .scripts
                .as_ref()
                .is_some_and(|h| h.listens(crate::script::EventKind::Command));
            if !heard {
                return Err(Rejection::new(format!(
                    "no rule script carries out `{}`: its layer needs a `command` handler",
                    c.name
                )));
            }
        }
        if *cmd == Command::EndPhase
            && self.rules.switches.air_units_must_land
            && self.state.combat.is_none()
            && self.state.questions.0.is_empty()
        {
            let unlanded = self.landable_air();
            movement::no_ditching(&self.rules, &unlanded)?;
        }
        Ok(())
    }

    /// The turn's first battle: `battles_begin` first. A question its handlers ask is answered
    /// before any die is rolled, so the order then waits: `true`, with `next` and `out` as the
    /// handlers left them.
    fn battles_wait(
        &mut self,
        cmd: &Command,
        at: TurnStep,
        next: &mut State,
        out: &mut Vec<String>,
    ) -> Result<bool, Rejection> {
        let Some(h) = self
            .scripts
            .as_mut()
            .filter(|h| h.listens(crate::script::EventKind::BattlesBegin))
        else {
            return Ok(false);
        };
        if !battles_begin_due(&self.rules, &self.state, at, cmd) {
            return Ok(false);
        }
        // Only an order the game would accept is heard: tried first on a copy.
        let mut probe = self.state.clone();
        run(
            &self.rules,
            &self.origin.scenario,
            &mut probe,
            cmd,
            &mut Vec::new(),
            &mut None,
            &mut crate::combat::Quiet,
            false,
        )?;
        next.this_turn.battles_begun.0 = true;
        out.extend(h.battles_begin(&self.rules, &self.state, next, at)?);
        if next.questions.0.is_empty() {
            return Ok(false);
        }
        out.push(format!(
            "the battles wait for the answers: `{}` again once they are given",
            cmd.to_text(&self.rules)
        ));
        Ok(true)
    }

    /// `run`, with the scripts hearing the battles it fights (and the tags they ask for).
    fn run_heard(
        &mut self,
        cmd: &Command,
        at: TurnStep,
        next: &mut State,
        out: &mut Vec<String>,
        moved: &mut Option<movement::Moved>,
    ) -> Result<(), Rejection> {
        let mut quiet = crate::combat::Quiet;
        let mut events = self
            .scripts
            .as_mut()
            .map(|h| hooks::CombatEvents::new(h, &self.rules, &self.state, at));
        let obs: &mut dyn crate::combat::Observer = match &mut events {
            Some(e) => e,
            None => &mut quiet,
        };
        let r = run(
            &self.rules,
            &self.origin.scenario,
            next,
            cmd,
            out,
            moved,
            obs,
            self.explain,
        );
        let Some(mut events) = events else { return r };
        out.append(&mut events.log);
        match events.error {
            Some(e) => Err(e),
            None => r.and_then(|()| {
                let tagged = events.apply_tags(next)?;
                out.extend(tagged);
                Ok(())
            }),
        }
    }

    /// The scripts' events for what the command did (moves, captures, phases ended and
    /// begun), their lines about the phase that ended put before the next one's announcement.
    fn after_run(
        &mut self,
        cmd: &Command,
        moved: Option<&movement::Moved>,
        next: &mut State,
        out: &mut Vec<String>,
    ) -> Result<(), Rejection> {
        let Some(hooks) = &mut self.scripts else {
            return Ok(());
        };
        let (closing, opening) =
            hooks.after_run(&self.rules, &self.origin.scenario, cmd, moved, &self.state, next)?;
        let at = out.iter().position(|l| l == TRANSITION).unwrap_or(out.len());
        out.splice(at..at, closing);
        out.extend(opening);
        Ok(())
    }

    fn record(&mut self, text: String, output: &[String]) {
        self.history.push(Record {
            text,
            hash: 0,
            output: output.to_vec(),
        });
        let h = self.hash();
        if let Some(r) = self.history.last_mut() {
            r.hash = h;
        }
    }

    fn undo_last(&mut self) -> Result<Vec<String>, Rejection> {
        let Some(snap) = self.undo.pop() else {
            return Err(Rejection::new(
                "nothing to undo in this phase (a finished phase cannot be taken back)",
            ));
        };
        if let Err(e) = self.restore_store(snap.store.as_ref()) {
            self.undo.push(snap);
            return Err(e);
        }
        self.state = snap.state;
        let text = format!("undo: {}", snap.text);
        self.log.push(LogEntry {
            round: self.state.round,
            power: self.current_power(),
            phase: self.current_phase().id.clone(),
            text: text.clone(),
        });
        let out = vec![text];
        self.record(Command::Undo.to_text(&self.rules), &out);
        Ok(out)
    }
}

/// What a power pays for a piece (its techs may make units cheaper).
fn piece_cost(rules: &RuleSet, s: &State, power: PowerId, piece: Piece) -> Option<u32> {
    match piece {
        Piece::Unit(u) => Some(rules.unit_for(u, &s.techs[power.index()]).cost),
        Piece::Facility(f) => rules.facilities[f.index()].cost,
    }
}

#[allow(clippy::too_many_arguments)]
fn run(
    rules: &RuleSet,
    scenario: &str,
    s: &mut State,
    cmd: &Command,
    out: &mut Vec<String>,
    moved: &mut Option<movement::Moved>,
    events: &mut dyn crate::combat::Observer,
    explain: bool,
) -> Result<(), Rejection> {
    if let (Some(side), false) = (&s.winner, matches!(cmd, Command::Edit(_))) {
        return Err(Rejection::new(format!(
            "the game is over: the {side} have won (only `edit` and `undo` are accepted)"
        ))
        .by("game-over"));
    }
    if !matches!(cmd, Command::Answer(_) | Command::Edit(_) | Command::Undo) {
        questions::waiting(rules, s)?;
    }
    let sc = rules.scenario(scenario).expect("scenario exists");
    let at = step(rules, sc, s);
    let power = at.power;
    let phase = &rules.phases[at.phase.index()];
    if let (Some(b), Command::EndPhase | Command::Edit(_) | Command::PlayFirst(_)) = (&s.combat, cmd) {
        return Err(Rejection::new(format!(
            "the battle in {} is not over: answer it first ({})",
            rules.board.space(b.space).name,
            "casualties, press, retreat, submerge or roll"
        ))
        .by(fight::RULE_ONE_BATTLE));
    }
    match cmd {
        Command::Layer(c) => out.push(layer_commands::run(rules, c, at.phase)?),
        Command::Answer(a) => questions::answer(rules, s, a, out)?,
        Command::AskPassage(c) => {
            in_phase(phase, PhaseKind::CombatMove, "passage is asked in a move phase").or_else(|_| {
                in_phase(
                    phase,
                    PhaseKind::NoncombatMove,
                    "passage is asked in a move phase",
                )
            })?;
            questions::ask_passage(rules, s, power, *c, out)?
        }
        Command::Intercept { count, unit, space } => {
            intercept::intercept(rules, s, power, phase.kind, *count, *unit, *space, out)?
        }
        Command::Scramble {
            count,
            unit,
            owner,
            from,
            to,
        } => scramble::scramble(
            rules,
            s,
            power,
            phase.kind,
            (*count, *unit, *owner),
            *from,
            *to,
            out,
        )?,
        Command::DeclareWar(target) => politics::declare(rules, s, power, at.phase, *target, out)?,
        Command::PlayFirst(first) => play_first(rules, sc, s, *first, out)?,
        Command::Research(n) => {
            // Buying tokens spends: not from an economy whose capital is lost.
            if *n > 0 {
                economy::payer(rules, s, power, None)?;
            }
            research::research(rules, s, power, &[(power, *n)], phase.kind, out)?;
        }
        Command::ResearchFor { own, paid, economy } => {
            if *own > 0 {
                economy::payer(rules, s, power, None)?;
            }
            let payer = economy::payer(rules, s, power, Some(*economy))?;
            research::research(rules, s, power, &[(power, *own), (payer, *paid)], phase.kind, out)?;
        }
        Command::Breakthrough(chart) => {
            research::breakthrough(rules, s, power, *chart, out)?;
        }
        Command::Repair {
            count,
            space,
            facility,
        } => research::repair(rules, s, power, phase.kind, *count, *space, *facility, out)?,
        Command::Rocket {
            from,
            target,
            facility,
        } => fight::rocket(rules, s, power, phase.kind, (*from, *target, *facility), out)?,
        Command::Buy {
            piece,
            count,
            economy,
        } => {
            in_phase(
                phase,
                PhaseKind::Purchase,
                "units are bought in the purchase phase",
            )?;
            let payer = economy::payer(rules, s, power, *economy)?;
            buy(rules, s, payer, *piece, *count, out)?
        }
        Command::EndPhase => end_phase(rules, sc, s, out)?,
        Command::Edit(e) => edit(rules, s, e, out)?,
        Command::Move(m) => *moved = Some(movement::run(rules, s, power, phase.kind, m, out, explain)?),
        Command::Place { piece, count, space } => {
            in_phase(
                phase,
                PhaseKind::Mobilize,
                "units are placed in the mobilize phase",
            )?;
            mobilize::place(rules, s, power, *piece, *count, *space, out)?
        }
        Command::Fight(space) => {
            in_phase(
                phase,
                PhaseKind::ConductCombat,
                "battles are fought in the conduct combat phase",
            )?;
            fight::fight(rules, s, power, *space, None, events, out)?;
            s.this_turn.battles_begun.0 = true;
        }
        Command::FightBombarding { space, ships } => {
            in_phase(
                phase,
                PhaseKind::ConductCombat,
                "battles are fought in the conduct combat phase",
            )?;
            fight::fight(rules, s, power, Some(*space), Some(ships), events, out)?;
            s.this_turn.battles_begun.0 = true;
        }
        Command::Casualties(_)
        | Command::Press
        | Command::Disagree
        | Command::Retreat(_)
        | Command::Submerge(_) => fight::answer(rules, s, power, cmd, events, out)?,
        Command::Roll(faces) => fight::roll(rules, s, power, faces, events, out)?,
        Command::Dice(mode) => set_dice(s, *mode, out),
        Command::CasualtyOrder { power: who, first } => set_casualty_order(rules, s, *who, first, out),
        Command::Undo => unreachable!("undo is handled by Game::apply"),
    }
    s.phase_acted |= cmd.acts_in_phase();
    Ok(())
}

/// `battles_begin` fires before this command: the turn's first battle or raid is ordered.
fn battles_begin_due(rules: &RuleSet, s: &State, at: TurnStep, cmd: &Command) -> bool {
    matches!(cmd, Command::Fight(_) | Command::FightBombarding { .. })
        && rules.phases[at.phase.index()].kind == PhaseKind::ConductCombat
        && !s.this_turn.battles_begun.0
        && s.combat.is_none()
        && s.winner.is_none()
}

/// Refusal unless it is a phase of this kind: `what` happens then.
fn in_phase(phase: &crate::rules::Phase, kind: PhaseKind, what: &str) -> Result<(), Rejection> {
    if phase.kind == kind {
        return Ok(());
    }
    Err(Rejection::new(format!("{what}; it is {} now", phase.title)))
}

/// A purchase: paid from the treasury now, waiting for mobilization. `power` is the economy
/// paying (the acting power, or a second economy of it): the units wait in its pool.
fn buy(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    piece: Piece,
    count: u32,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let pname = &rules.power_info(power).name;
    let Some(each) = piece_cost(rules, s, rules.relation_holder(power), piece) else {
        return Err(Rejection::new("that facility cannot be bought in this edition"));
    };
    let total = i64::from(each) * i64::from(count);
    let have = s.treasuries[power.index()];
    if total > have {
        return Err(Rejection::new(format!(
            "{pname} has {have} IPCs; {count} cost {total}"
        )));
    }
    mobilize::check_purchase(rules, s, power, piece, count)?;
    Arc::make_mut(&mut s.treasuries)[power.index()] -= total;
    match Arc::make_mut(&mut s.purchased)[power.index()]
        .iter_mut()
        .find(|(p, _)| *p == piece)
    {
        Some((_, n)) => *n += count,
        None => Arc::make_mut(&mut s.purchased)[power.index()].push((piece, count)),
    }
    let head = rules.relation_holder(power);
    if rules.economies(head).len() > 1 {
        // Which treasury paid, for a power with two (`buy ... for ECONOMY` chooses).
        out.push(format!(
            "{} buys {count} {} for {total} IPCs from {pname}'s treasury ({} left)",
            rules.power_info(head).name,
            piece_name(rules, piece),
            s.treasuries[power.index()]
        ));
    } else {
        out.push(format!(
            "{pname} buys {count} {} for {total} IPCs",
            piece_name(rules, piece)
        ));
    }
    Ok(())
}

/// Where dice come from from now on (the table's setting, logged so a save replays it).
fn set_dice(s: &mut State, mode: command::DiceMode, out: &mut Vec<String>) {
    s.manual_dice = mode == command::DiceMode::Manual;
    out.push(match mode {
        command::DiceMode::Manual => {
            "dice come from the table: battles wait for the faces you type (`roll 3 5 1`)".into()
        }
        command::DiceMode::Auto => "dice come from the seeded generator".into(),
        command::DiceMode::Seeded(seed) => {
            s.dice.reseed(seed);
            format!("dice come from the generator, seeded with {seed} from now on")
        }
    });
}

/// The unit types a power gives up first when it takes the suggested casualties.
fn set_casualty_order(
    rules: &RuleSet,
    s: &mut State,
    who: PowerId,
    first: &[crate::rules::UnitTypeId],
    out: &mut Vec<String>,
) {
    Arc::make_mut(&mut s.casualty_orders)[who.index()] = first.to_vec();
    let names: Vec<&str> = first.iter().map(|u| rules.unit(*u).name.as_str()).collect();
    out.push(format!(
        "{} gives up {} first, then the cheapest",
        rules.power_info(who).name,
        if names.is_empty() {
            "nothing in particular".to_string()
        } else {
            names.join(", ")
        }
    ));
}

fn piece_name(rules: &RuleSet, piece: Piece) -> String {
    match piece {
        Piece::Unit(u) => rules.unit(u).name.clone(),
        Piece::Facility(f) => rules.facilities[f.index()].name.clone(),
    }
}

fn end_phase(rules: &RuleSet, sc: &Scenario, s: &mut State, out: &mut Vec<String>) -> Result<(), Rejection> {
    let at = step(rules, sc, s);
    let power = at.power;
    let phase = &rules.phases[at.phase.index()];
    match phase.kind {
        PhaseKind::CombatMove => {
            movement::end_combat_move(rules, s, power)?;
            movement::declare_standing_battles(rules, s, power);
        }
        PhaseKind::ConductCombat => {
            control::conclude_battles(rules, s, power, out)?;
            scramble::fly_home(rules, s, out);
            movement::strand_defending_air(rules, s, power, out);
        }
        PhaseKind::NoncombatMove => {
            movement::carriers_meet_fighters(rules, s, power)?;
            // `air_units_must_land` is checked by `Game::attempt`, which can ask the scripts
            // whether a landing is open.
            movement::land_air_units(rules, s, power, false, out);
            neutrals::take_friendly(rules, s, power, out);
        }
        PhaseKind::Mobilize => mobilize::end_mobilize(rules, s, power, out)?,
        // Income must be collected if it can be: ending that phase collects it.
        PhaseKind::CollectIncome => control::collect_incomes(rules, s, power, out)?,
        PhaseKind::Research if s.breakthrough_pending => {
            return Err(Rejection::new(
                "a breakthrough waits for its chart: choose one with `breakthrough CHART` first",
            )
            .by(research::RULE_RESEARCH));
        }
        PhaseKind::Purchase => bases::repair_at_bases(rules, s, power, out),
        PhaseKind::Research | PhaseKind::Script => {}
    }
    s.phase_acted = false;
    out.push(TRANSITION.to_string());
    s.phase += 1;
    enter_step(rules, sc, s, power, out);
    // The defenders' interceptions and scrambles, offered as the attacker's Conduct Combat
    // begins.
    let now = step(rules, sc, s);
    let kind = rules.phases[now.phase.index()].kind;
    out.extend(intercept::options(rules, s, now.power, kind));
    out.extend(scramble::options(rules, s, now.power, kind));
    Ok(())
}

/// Marks, in a command's output, where `end phase` starts announcing what comes next (taken out
/// before the output is shown).
const TRANSITION: &str = "\u{0}transition";

/// The step the turn is at (`State::turn`, `State::phase` in the order of `State::choices`).
pub(crate) fn step(rules: &RuleSet, sc: &Scenario, s: &State) -> TurnStep {
    let host = sc.turn_order[s.turn];
    let steps = rules.plan(host).steps(s.choices);
    // `phase` always points into the plan; a host with no phases is refused by `Game::new`.
    steps.get(s.phase).or(steps.last()).copied().unwrap_or(TurnStep {
        power: host,
        phase: crate::rules::PhaseId(0),
    })
}

/// Go to the step at `s.phase` (past the last one: the next power's turn), skipping the phases
/// a power without its capital skips, and announce it. `holder` is the power whose record of
/// the turn is in `State::this_turn`.
fn enter_step(rules: &RuleSet, sc: &Scenario, s: &mut State, mut holder: PowerId, out: &mut Vec<String>) {
    loop {
        let host = sc.turn_order[s.turn];
        if s.phase >= rules.plan(host).steps(s.choices).len() {
            // Guests' turns end with their host's, before it (and begin after it).
            let mut ending = rules.powers_of_turn(host);
            ending.rotate_left(1);
            for &p in &ending {
                end_turn(rules, s, p, out);
            }
            for &p in &ending {
                control::check_victory(rules, sc, s, p, out);
            }
            s.phase = 0;
            s.turn += 1;
            if s.turn >= sc.turn_order.len() {
                s.turn = 0;
                s.round += 1;
                out.push(format!("round {} begins", s.round));
            }
            begin_turn(rules, sc, s);
            holder = step(rules, sc, s).power;
        }
        let at = step(rules, sc, s);
        s.hand_turn(holder, at.power);
        holder = at.power;
        let ph = &rules.phases[at.phase.index()];
        if ph.skipped_without_capital && !control::holds_a_capital(rules, s, at.power) {
            out.push(format!(
                "{} skips {} (capital held by the enemy)",
                rules.power_info(at.power).name,
                ph.title
            ));
            s.phase += 1;
            continue;
        }
        out.push(format!("{}: {}", rules.power_info(at.power).name, ph.title));
        if let Some(c) = open_choices(rules, sc, s).into_iter().find(|c| c.at == s.phase) {
            out.push(choice_hint(rules, sc, s, &c));
        }
        break;
    }
}

/// A turn begins: the units of every power playing it lose their marks and movement, and each
/// starts its record of the turn (who held what: "friendly at the start of the turn").
fn begin_turn(rules: &RuleSet, sc: &Scenario, s: &mut State) {
    let powers = rules.powers_of_turn(sc.turn_order[s.turn]);
    s.choices = 0;
    if s.standing_values.0.iter().any(|v| v.this_turn) {
        Arc::make_mut(&mut s.standing_values.0).retain(|v| !v.this_turn);
    }
    for i in 0..s.spaces.len() {
        let fresh = |u: &Unit| u.moved == 0 && u.marks == state::Marks::default();
        if s.spaces[i]
            .units
            .iter()
            .all(|u| !powers.contains(&u.owner) || fresh(u))
        {
            continue;
        }
        for u in s
            .spaces
            .edit(i)
            .units
            .iter_mut()
            .filter(|u| powers.contains(&u.owner))
        {
            u.moved = 0;
            u.marks = state::Marks::default();
        }
    }
    start_turn_records(rules, sc, s);
}

/// Every power playing the current turn starts its record of it from the board as it is; the
/// acting power's goes in `this_turn`.
pub(crate) fn start_turn_records(rules: &RuleSet, sc: &Scenario, s: &mut State) {
    bases::range_bonuses(rules, s, &rules.powers_of_turn(sc.turn_order[s.turn]));
    let acting = step(rules, sc, s).power;
    let fresh = state::TurnState::begin(&s.spaces);
    s.other_turns = rules
        .powers_of_turn(sc.turn_order[s.turn])
        .into_iter()
        .filter(|p| *p != acting)
        .map(|p| (p, fresh.clone()))
        .collect();
    s.other_turns.sort_by_key(|(p, _)| *p);
    s.this_turn = fresh;
}

/// A choice of order still open in this turn.
struct Choice {
    bit: usize,
    /// The step where the two orders part.
    at: usize,
    /// Who plays there now, and who would with the other order.
    first: PowerId,
    other: PowerId,
}

/// The movable segments of this turn whose order can still be chosen: the turn has not gone
/// past the step where the two orders part, or stands at it with nothing done yet.
fn open_choices(rules: &RuleSet, sc: &Scenario, s: &State) -> Vec<Choice> {
    let plan = rules.plan(sc.turn_order[s.turn]);
    let steps = plan.steps(s.choices);
    let mut out: Vec<Choice> = (0..plan.choices.len())
        .filter_map(|bit| {
            let at = plan.diverges_at(s.choices, bit);
            let open = s.phase < at || (s.phase == at && !s.phase_acted && s.combat.is_none());
            let other = plan.steps(s.choices ^ (1 << bit)).get(at)?.power;
            (open && at < steps.len()).then(|| Choice {
                bit,
                at,
                first: steps[at].power,
                other,
            })
        })
        .collect();
    out.sort_by_key(|c| c.at);
    out
}

/// Where the guest's segment of a choice goes in the other order: "Green's Combat Move and
/// Conduct Combat then come after Blue's Conduct Combat".
fn choice_hint(rules: &RuleSet, sc: &Scenario, s: &State, c: &Choice) -> String {
    format!(
        "(or `play {} first`: {})",
        command::quote(&rules.power_info(c.other).name),
        segment_place(
            rules,
            sc.turn_order[s.turn],
            s.choices ^ (1 << c.bit),
            c.bit,
            "then "
        )
    )
}

/// Where choice `bit`'s segment is played under `choices`, in words.
fn segment_place(rules: &RuleSet, host: PowerId, choices: u32, bit: usize, then: &str) -> String {
    let Some(&(guest, segment)) = rules.plan(host).choices.get(bit) else {
        return String::new();
    };
    let Some(seg) = rules
        .guests
        .iter()
        .find(|g| g.power == guest)
        .map(|g| &g.segments[segment])
    else {
        return String::new();
    };
    let titles: Vec<&str> = seg
        .phases
        .iter()
        .map(|p| rules.phases[p.index()].title.as_str())
        .collect();
    let place = match (choices & (1 << bit) != 0, seg.alternative) {
        (true, Some(alt)) => alt,
        _ => seg.at,
    };
    format!(
        "{} {} {then}{} {} {} {}",
        possessive(&rules.power_info(guest).name),
        titles.join(" and "),
        if titles.len() == 1 { "comes" } else { "come" },
        if place.after { "after" } else { "before" },
        possessive(&rules.power_info(host).name),
        rules.phases[place.phase.index()].title
    )
}

/// `play POWER first`: take the other order of the next open choice that puts `first` first.
fn play_first(
    rules: &RuleSet,
    sc: &Scenario,
    s: &mut State,
    first: PowerId,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let name = |p: PowerId| rules.power_info(p).name.as_str();
    let host = sc.turn_order[s.turn];
    let plan = rules.plan(host);
    if plan.choices.is_empty() {
        return Err(Rejection::new(format!(
            "the order of {}'s turn is fixed: no power plays within it in an order of the player's choosing",
            name(host)
        ))
        .by(RULE_TURN_ORDER));
    }
    if !rules.powers_of_turn(host).contains(&first) {
        let whose = match rules.host_of(first) {
            Some(h) => format!("{} plays within {} turn", name(first), possessive(name(h))),
            None => format!("{} plays its own turn", name(first)),
        };
        return Err(
            Rejection::new(format!("{whose}; this is {} turn", possessive(name(host)))).by(RULE_TURN_ORDER),
        );
    }
    let open = open_choices(rules, sc, s);
    let Some(c) = open.iter().find(|c| c.other == first) else {
        if open.iter().any(|c| c.first == first) {
            return Err(Rejection::new(format!("{} already plays first", name(first))).by(RULE_TURN_ORDER));
        }
        // The order parts at a step the turn has reached and acted in, or gone past.
        let steps = plan.steps(s.choices);
        let parted = (0..plan.choices.len())
            .map(|bit| plan.diverges_at(s.choices, bit))
            .filter(|at| *at <= s.phase)
            .max()
            .and_then(|at| steps.get(at));
        let why = match parted {
            Some(st) if steps.get(s.phase) == Some(st) => format!(
                "{} has already acted in its {}",
                name(st.power),
                rules.phases[st.phase.index()].title
            ),
            Some(st) => format!(
                "{} has played its {}",
                name(st.power),
                rules.phases[st.phase.index()].title
            ),
            None => "the order is chosen before either part begins".into(),
        };
        return Err(
            Rejection::new(format!("too late to change the order of this turn: {why}")).by(RULE_TURN_ORDER),
        );
    };
    let was = step(rules, sc, s);
    s.choices ^= 1 << c.bit;
    out.push(format!(
        "{} plays first: {}",
        name(first),
        segment_place(rules, host, s.choices, c.bit, "")
    ));
    if s.phase == c.at {
        // The step just announced is put off; the other order's begins in its place.
        out.push(TRANSITION.to_string());
        enter_step(rules, sc, s, was.power, out);
    }
    Ok(())
}

/// Refusals of `play POWER first`.
pub const RULE_TURN_ORDER: &str = "turn-order";

/// A power's turn ends: what each of its economies bought and could not place is refunded
/// to it or kept.
fn end_turn(rules: &RuleSet, s: &mut State, power: PowerId, out: &mut Vec<String>) {
    for p in rules.economies(power) {
        end_turn_purchases(rules, s, p, out);
    }
}

fn end_turn_purchases(rules: &RuleSet, s: &mut State, power: PowerId, out: &mut Vec<String>) {
    let left = std::mem::take(&mut Arc::make_mut(&mut s.purchased)[power.index()]);
    if left.is_empty() {
        return;
    }
    match rules.switches.unplaceable_units {
        Unplaceable::Refund => {
            let refund: i64 = left
                .iter()
                .map(|(p, n)| {
                    i64::from(piece_cost(rules, s, rules.relation_holder(power), *p).unwrap_or(0))
                        * i64::from(*n)
                })
                .sum();
            Arc::make_mut(&mut s.treasuries)[power.index()] += refund;
            out.push(format!(
                "{} is refunded {refund} IPCs for units not mobilized",
                rules.power_info(power).name
            ));
        }
        Unplaceable::Keep => Arc::make_mut(&mut s.purchased)[power.index()] = left,
    }
}

/// The most an `edit` may set a treasury to or add units at once: far beyond any table, and far
/// below where income would overflow a treasury or a megabyte of units exhaust memory.
pub const EDIT_MAX_IPCS: i64 = 1_000_000;
pub const EDIT_MAX_UNITS: u32 = 1_000;

fn edit(rules: &RuleSet, s: &mut State, e: &Edit, out: &mut Vec<String>) -> Result<(), Rejection> {
    match e {
        Edit::Treasury { ipcs, .. } if !(0..=EDIT_MAX_IPCS).contains(ipcs) => {
            return Err(Rejection::new(format!(
                "a treasury is from 0 to {EDIT_MAX_IPCS} IPCs, not {ipcs}"
            )));
        }
        Edit::AddUnits { count, .. } if *count > EDIT_MAX_UNITS => {
            return Err(Rejection::new(format!(
                "an edit adds at most {EDIT_MAX_UNITS} units at once, not {count}"
            )));
        }
        Edit::Treasury { power, ipcs } => {
            Arc::make_mut(&mut s.treasuries)[power.index()] = *ipcs;
            out.push(format!(
                "edit: {} treasury set to {ipcs}",
                rules.power_info(*power).name
            ));
        }
        Edit::Control { space, power } => {
            if rules.board.space(*space).is_sea() {
                return Err(Rejection::new("sea zones are not controlled"));
            }
            s.space_mut(*space).controller = *power;
            out.push(format!(
                "edit: {} now held by {}",
                rules.board.space(*space).name,
                power.map_or("nobody", |p| rules.power_info(p).name.as_str())
            ));
        }
        Edit::AddUnits {
            space,
            owner,
            unit,
            count,
        } => {
            for _ in 0..*count {
                let id = s.next_unit_id;
                s.next_unit_id += 1;
                s.space_mut(*space).units.push(Unit::new(id, *unit, *owner));
            }
            out.push(format!(
                "edit: {count} {} of {} added to {}",
                rules.unit(*unit).name,
                rules.power_info(*owner).name,
                rules.board.space(*space).name
            ));
        }
        Edit::RemoveUnits {
            space,
            owner,
            unit,
            count,
        } => {
            let units = &mut s.space_mut(*space).units;
            let have = units
                .iter()
                .filter(|u| u.kind == *unit && u.owner == *owner)
                .count();
            if have < *count as usize {
                return Err(Rejection::new(format!(
                    "{} has only {have} {} of {}",
                    rules.board.space(*space).name,
                    rules.unit(*unit).name,
                    rules.power_info(*owner).name
                )));
            }
            // Cargo first would be odd: remove the units themselves, prefering ones that are not
            // cargo, and whatever rides on them goes too.
            let mut ids: Vec<(bool, u32)> = units
                .iter()
                .filter(|u| u.kind == *unit && u.owner == *owner)
                .map(|u| (u.aboard.is_some(), u.id))
                .collect();
            ids.sort();
            let mut lost = 0;
            for (_, id) in ids.into_iter().take(*count as usize) {
                lost += s.remove_unit(*space, id).len() - 1;
            }
            if lost > 0 {
                out.push(format!("edit: {lost} unit(s) aboard went down with them"));
            }
            out.push(format!(
                "edit: {count} {} of {} removed from {}",
                rules.unit(*unit).name,
                rules.power_info(*owner).name,
                rules.board.space(*space).name
            ));
        }
        Edit::Mark {
            space,
            owner,
            unit,
            count,
            tag,
            value,
        } => edit_mark(rules, s, (*space, *owner, *unit), *count, tag, *value, out)?,
        Edit::Damage {
            space,
            owner,
            piece,
            amount,
        } => edit_damage(rules, s, *space, *owner, *piece, *amount, out)?,
        Edit::Relation { a, b, relation } => {
            if a == b {
                return Err(Rejection::new("a power has no relation with itself"));
            }
            Arc::make_mut(&mut s.relations)[a.index()][b.index()] = *relation;
            Arc::make_mut(&mut s.relations)[b.index()][a.index()] = *relation;
            out.push(format!(
                "edit: {} and {} now {}",
                rules.power_info(*a).name,
                rules.power_info(*b).name,
                relation.name()
            ));
        }
    }
    Ok(())
}

/// `edit damage`: a facility's damage points (up to its cap), or exactly `amount` of the
/// power's two-hit units of a type there damaged (the rest repaired).
fn edit_damage(
    rules: &RuleSet,
    s: &mut State,
    space: crate::rules::SpaceId,
    owner: Option<PowerId>,
    piece: crate::rules::Piece,
    amount: u32,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let name = &rules.board.space(space).name;
    match (piece, owner) {
        (crate::rules::Piece::Facility(kind), _) => {
            let ft = &rules.facilities[kind.index()];
            let ipc = rules.board.space(space).ipc;
            let cap = ft.max_damage.resolve(ipc);
            let Some(f) = s.space_mut(space).facilities.iter_mut().find(|f| f.kind == kind) else {
                return Err(Rejection::new(format!("{name} has no {}", ft.name)));
            };
            if amount > cap {
                return Err(Rejection::new(format!(
                    "the {} in {name} takes at most {cap} damage, not {amount}",
                    ft.name
                )));
            }
            f.damage = amount;
            out.push(format!("edit: the {} in {name} now has {amount} damage", ft.name));
        }
        (crate::rules::Piece::Unit(kind), Some(owner)) => {
            let t = rules.unit(kind);
            if t.hits < 2 {
                return Err(Rejection::new(format!(
                    "a {} takes one hit: it is never damaged, only destroyed",
                    t.name
                )));
            }
            let units = &mut s.space_mut(space).units;
            let have = units
                .iter()
                .filter(|u| u.kind == kind && u.owner == owner)
                .count();
            if have < amount as usize {
                return Err(Rejection::new(format!(
                    "{name} has only {have} {} of {}",
                    t.name,
                    rules.power_info(owner).name
                )));
            }
            let mut left = amount;
            for u in units.iter_mut().filter(|u| u.kind == kind && u.owner == owner) {
                u.damage = u32::from(left > 0);
                left = left.saturating_sub(1);
            }
            out.push(format!(
                "edit: {amount} of {have} {} of {} in {name} now damaged",
                t.name,
                rules.power_info(owner).name
            ));
        }
        (crate::rules::Piece::Unit(_), None) => {
            return Err(Rejection::new("whose units? edit damage SPACE POWER COUNT UNIT"))
        }
    }
    Ok(())
}

/// `edit mark`: a tag on `count` units of the owner and type in the space, those not carrying it
/// yet first.
fn edit_mark(
    rules: &RuleSet,
    s: &mut State,
    (space, owner, unit): (crate::rules::SpaceId, PowerId, crate::rules::UnitTypeId),
    count: u32,
    tag: &str,
    value: i64,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let units = &mut s.space_mut(space).units;
    // Units not carrying the tag yet first, so `edit mark ... 1 tank veteran` twice
    // marks two tanks.
    let mut picked: Vec<(bool, usize)> = (0..units.len())
        .filter(|&i| units[i].kind == unit && units[i].owner == owner)
        .map(|i| (units[i].tags.get(tag) != 0, i))
        .collect();
    picked.sort();
    let marked = picked.len().min(count as usize);
    for &(_, i) in &picked[..marked] {
        units[i].tags.set(tag, value);
    }
    if marked < count as usize {
        return Err(Rejection::new(format!(
            "{} has only {marked} {} of {}",
            rules.board.space(space).name,
            rules.unit(unit).name,
            rules.power_info(owner).name
        )));
    }
    out.push(format!(
        "edit: {count} {} of {} in {} marked {tag}={value}",
        rules.unit(unit).name,
        rules.power_info(owner).name,
        rules.board.space(space).name
    ));
    Ok(())
}
