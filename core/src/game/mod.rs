//! A game: a frozen rule set, the state, the command history and the event log.
//!
//! Architecture invariant: commands are transactions. `apply` runs a command against a copy of
//! the state and swaps it in only when every check (the engine's and the scripts') passed, so
//! a rejected command leaves no trace but its message.

pub mod arrange;
pub mod command;
pub mod control;
pub mod dice;
pub mod fight;
mod hooks;
pub mod mobilize;
pub mod movement;
pub mod politics;
pub mod research;
pub mod save;
pub mod state;

use crate::rules::{PhaseKind, Piece, PowerId, RuleSet, Unplaceable};
use command::{Command, Edit};
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
        let sc = rules.scenario(&id).ok_or_else(|| {
            let names: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
            format!("no scenario `{id}`; scenarios: {}", names.join(", "))
        })?;
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
        let mut scripts = hooks::Hooks::for_rules(&rules).map_err(|e| e.to_string())?;
        let mut log = Vec::new();
        if let Some(h) = &mut scripts {
            for text in h.game_setup(&rules, &id, &mut state)? {
                log.push(LogEntry {
                    round: state.round,
                    power: sc.turn_order[state.turn],
                    phase: rules.phase_at(sc.turn_order[state.turn], state.phase).id.clone(),
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
        })
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
    /// The hash of the state and of the scripts' stored data.
    pub fn hash(&self) -> u64 {
        let mut h = self.state.hash();
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
        self.rules
            .scenario(&self.origin.scenario)
            .expect("a game's scenario exists in its rule set")
    }

    pub fn current_power(&self) -> PowerId {
        self.scenario().turn_order[self.state.turn]
    }

    pub fn current_phase(&self) -> &crate::rules::Phase {
        self.rules.phase_at(self.current_power(), self.state.phase)
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

    /// Texts of the commands `undo` can take back, oldest first.
    pub fn undoable(&self) -> Vec<&str> {
        self.undo.iter().map(|s| s.text.as_str()).collect()
    }

    /// Parse and apply one command line.
    pub fn execute(&mut self, line: &str) -> Result<Vec<String>, Rejection> {
        let cmd = Command::parse(&self.rules, line).map_err(Rejection::new)?;
        self.apply(&cmd)
    }

    /// Apply a command as a transaction; on success returns the log lines it produced.
    pub fn apply(&mut self, cmd: &Command) -> Result<Vec<String>, Rejection> {
        if *cmd == Command::Undo {
            return self.undo_last();
        }
        let mut next = self.state.clone();
        let mut out = Vec::new();
        let power = self.current_power();
        let mut moved = None;
        // Battles fire events while they are fought; if the command then fails, what the
        // scripts stored meanwhile is rolled back with it.
        let store_before = self.scripts.as_ref().map(hooks::Hooks::store);
        let ran = match &mut self.scripts {
            Some(h) => {
                let mut events = hooks::CombatEvents::new(h, &self.rules, &self.state, power);
                let r = run(
                    &self.rules,
                    &self.origin.scenario,
                    &mut next,
                    cmd,
                    &mut out,
                    &mut moved,
                    &mut events,
                );
                out.append(&mut events.log);
                match events.error {
                    Some(e) => Err(e),
                    None => r,
                }
            }
            None => run(
                &self.rules,
                &self.origin.scenario,
                &mut next,
                cmd,
                &mut out,
                &mut moved,
                &mut crate::combat::Quiet,
            ),
        };
        if let Err(e) = ran {
            if let (Some(h), Some(store)) = (&mut self.scripts, &store_before) {
                h.restore_store(store).map_err(|e| {
                    Rejection::new(format!("a rule script's store could not be restored: {e}"))
                })?;
            }
            return Err(e);
        }
        let snapshot = Snapshot {
            state: self.state.clone(),
            store: self.scripts.as_ref().map(hooks::Hooks::store),
            text: cmd.to_text(&self.rules),
        };
        if let Some(hooks) = &mut self.scripts {
            let logged = hooks.after_run(
                &self.rules,
                &self.origin.scenario,
                cmd,
                moved.as_ref(),
                &self.state,
                &mut next,
            );
            let logged = match logged {
                Ok(l) => l,
                Err(e) => {
                    if let Some(store) = &store_before {
                        hooks.restore_store(store).map_err(|e| {
                            Rejection::new(format!("a rule script's store could not be restored: {e}"))
                        })?;
                    }
                    return Err(e);
                }
            };
            let (closing, opening) = logged;
            // Script lines about the phase that ended go before the new phase's announcement.
            let at = out.iter().position(|l| l == TRANSITION).unwrap_or(out.len());
            out.splice(at..at, closing);
            out.extend(opening);
        }
        out.retain(|l| l != TRANSITION);
        let phase = self.current_phase().id.clone();
        for text in &out {
            self.log.push(LogEntry {
                round: self.state.round,
                power,
                phase: phase.clone(),
                text: text.clone(),
            });
        }
        self.state = next;
        // Dice once seen cannot be taken back: a battle ends what undo can reach.
        if *cmd == Command::EndPhase || cmd.is_battle() {
            self.undo.clear();
        } else {
            self.undo.push(snapshot);
        }
        self.record(cmd, &out);
        Ok(out)
    }

    fn record(&mut self, cmd: &Command, output: &[String]) {
        self.history.push(Record {
            text: cmd.to_text(&self.rules),
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
        if let (Some(h), Some(store)) = (&mut self.scripts, &snap.store) {
            if let Err(e) = h.restore_store(store) {
                self.undo.push(snap);
                return Err(Rejection::new(format!(
                    "a rule script's store could not be restored: {e}"
                )));
            }
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
        self.record(&Command::Undo, &out);
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

fn run(
    rules: &RuleSet,
    scenario: &str,
    s: &mut State,
    cmd: &Command,
    out: &mut Vec<String>,
    moved: &mut Option<movement::Moved>,
    events: &mut dyn crate::combat::Observer,
) -> Result<(), Rejection> {
    if let (Some(side), false) = (&s.winner, matches!(cmd, Command::Edit(_))) {
        return Err(Rejection::new(format!(
            "the game is over: the {side} have won (only `edit` and `undo` are accepted)"
        ))
        .by("game-over"));
    }
    let sc = rules.scenario(scenario).expect("scenario exists");
    let power = sc.turn_order[s.turn];
    let pname = rules.power_info(power).name.clone();
    let phase = rules.phase_at(power, s.phase);
    if let (Some(b), Command::EndPhase | Command::Edit(_)) = (&s.combat, cmd) {
        return Err(Rejection::new(format!(
            "the battle in {} is not over: answer it first ({})",
            rules.board.space(b.space).name,
            "casualties, press, retreat, submerge or roll"
        ))
        .by(fight::RULE_ONE_BATTLE));
    }
    match cmd {
        Command::DeclareWar(target) => politics::declare(rules, s, power, *target, out)?,
        Command::Research(n) => {
            research::research(rules, s, power, phase.kind, *n, out)?;
        }
        Command::Breakthrough(chart) => {
            research::breakthrough(rules, s, power, *chart, out)?;
        }
        Command::Repair { count, space } => {
            research::repair(rules, s, power, phase.kind, *count, *space, out)?
        }
        Command::Rocket { from, target } => fight::rocket(rules, s, power, phase.kind, *from, *target, out)?,
        Command::Buy { piece, count } => {
            if phase.kind != PhaseKind::Purchase {
                return Err(Rejection::new(format!(
                    "units are bought in the purchase phase; it is {} now",
                    phase.title
                )));
            }
            let Some(each) = piece_cost(rules, s, power, *piece) else {
                return Err(Rejection::new("that facility cannot be bought in this edition"));
            };
            let total = i64::from(each) * i64::from(*count);
            let have = s.treasuries[power.index()];
            if total > have {
                return Err(Rejection::new(format!(
                    "{pname} has {have} IPCs; {count} cost {total}"
                )));
            }
            mobilize::check_purchase(rules, s, power, *piece, *count)?;
            s.treasuries[power.index()] -= total;
            match s.purchased[power.index()].iter_mut().find(|(p, _)| p == piece) {
                Some((_, n)) => *n += count,
                None => s.purchased[power.index()].push((*piece, *count)),
            }
            out.push(format!(
                "{pname} buys {count} {} for {total} IPCs",
                piece_name(rules, *piece)
            ));
        }
        Command::EndPhase => end_phase(rules, sc, s, out)?,
        Command::Edit(e) => edit(rules, s, e, out)?,
        Command::Move(m) => *moved = Some(movement::run(rules, s, power, phase.kind, m, out)?),
        Command::Place { piece, count, space } => {
            if phase.kind != PhaseKind::Mobilize {
                return Err(Rejection::new(format!(
                    "units are placed in the mobilize phase; it is {} now",
                    phase.title
                )));
            }
            mobilize::place(rules, s, power, *piece, *count, *space, out)?
        }
        Command::Fight(space) => {
            if phase.kind != PhaseKind::ConductCombat {
                return Err(Rejection::new(format!(
                    "battles are fought in the conduct combat phase; it is {} now",
                    phase.title
                )));
            }
            fight::fight(rules, s, power, *space, events, out)?
        }
        Command::Casualties(_)
        | Command::Press
        | Command::Disagree
        | Command::Retreat(_)
        | Command::Submerge(_) => fight::answer(rules, s, power, cmd, events, out)?,
        Command::Roll(faces) => fight::roll(rules, s, power, faces, events, out)?,
        Command::Dice(mode) => {
            s.manual_dice = *mode == command::DiceMode::Manual;
            out.push(match mode {
                command::DiceMode::Manual => {
                    "dice come from the table: battles wait for the faces you type (`roll 3 5 1`)".into()
                }
                command::DiceMode::Auto => "dice come from the seeded generator".into(),
                command::DiceMode::Seeded(seed) => {
                    s.dice.reseed(*seed);
                    format!("dice come from the generator, seeded with {seed} from now on")
                }
            });
        }
        Command::CasualtyOrder { power: who, first } => {
            s.casualty_orders[who.index()] = first.clone();
            let names: Vec<&str> = first.iter().map(|u| rules.unit(*u).name.as_str()).collect();
            out.push(format!(
                "{} gives up {} first, then the cheapest",
                rules.power_info(*who).name,
                if names.is_empty() {
                    "nothing in particular".to_string()
                } else {
                    names.join(", ")
                }
            ));
        }
        Command::Undo => unreachable!("undo is handled by Game::apply"),
    }
    s.phase_acted |= cmd.acts_in_phase();
    Ok(())
}

fn piece_name(rules: &RuleSet, piece: Piece) -> String {
    match piece {
        Piece::Unit(u) => rules.unit(u).name.clone(),
        Piece::Facility(f) => rules.facilities[f.index()].name.clone(),
    }
}

fn end_phase(
    rules: &RuleSet,
    sc: &crate::rules::Scenario,
    s: &mut State,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let power = sc.turn_order[s.turn];
    let phase = rules.phase_at(power, s.phase);
    match phase.kind {
        PhaseKind::CombatMove => {
            movement::end_combat_move(rules, s, power)?;
            movement::declare_standing_battles(rules, s, power);
        }
        PhaseKind::ConductCombat => {
            control::conclude_battles(rules, s, power, out)?;
            movement::strand_defending_air(rules, s, power, out);
        }
        PhaseKind::NoncombatMove => {
            movement::carriers_meet_fighters(rules, s, power)?;
            movement::land_air_units(rules, s, power, false, out)
        }
        PhaseKind::Mobilize => mobilize::end_mobilize(rules, s, power, out)?,
        // Income must be collected if it can be: ending that phase collects it.
        PhaseKind::CollectIncome => control::collect_income(rules, s, power, out),
        PhaseKind::Research if s.breakthrough_pending => {
            return Err(Rejection::new(
                "a breakthrough waits for its chart: choose one with `breakthrough CHART` first",
            )
            .by(research::RULE_RESEARCH));
        }
        PhaseKind::Research | PhaseKind::Purchase | PhaseKind::Script => {}
    }
    s.phase_acted = false;
    out.push(TRANSITION.to_string());
    loop {
        s.phase += 1;
        if s.phase >= rules.turn_of(sc.turn_order[s.turn]).len() {
            end_turn(rules, sc, s, power, out);
            control::check_victory(rules, sc, s, power, out);
            s.phase = 0;
            s.turn += 1;
            if s.turn >= sc.turn_order.len() {
                s.turn = 0;
                s.round += 1;
                out.push(format!("round {} begins", s.round));
            }
            begin_turn(s, sc.turn_order[s.turn]);
        }
        let p = sc.turn_order[s.turn];
        let ph = rules.phase_at(p, s.phase);
        if ph.skipped_without_capital && !control::holds_capital(rules, s, p) {
            out.push(format!(
                "{} skips {} (capital held by the enemy)",
                rules.power_info(p).name,
                ph.title
            ));
            continue;
        }
        out.push(format!("{}: {}", rules.power_info(p).name, ph.title));
        break;
    }
    Ok(())
}

/// A power's turn begins: its units' marks and movement are cleared and the turn remembers who
/// held what ("friendly at the start of the turn").
/// Marks, in a command's output, where `end phase` starts announcing what comes next (taken out
/// before the output is shown).
const TRANSITION: &str = "\u{0}transition";

fn begin_turn(s: &mut State, power: PowerId) {
    for sp in &mut s.spaces {
        for u in sp.units.iter_mut().filter(|u| u.owner == power) {
            u.moved = 0;
            u.marks = state::Marks::default();
        }
    }
    s.this_turn = state::TurnState::begin(&s.spaces);
}

fn end_turn(
    rules: &RuleSet,
    _sc: &crate::rules::Scenario,
    s: &mut State,
    power: PowerId,
    out: &mut Vec<String>,
) {
    let left = std::mem::take(&mut s.purchased[power.index()]);
    if left.is_empty() {
        return;
    }
    match rules.switches.unplaceable_units {
        Unplaceable::Refund => {
            let refund: i64 = left
                .iter()
                .map(|(p, n)| i64::from(piece_cost(rules, s, power, *p).unwrap_or(0)) * i64::from(*n))
                .sum();
            s.treasuries[power.index()] += refund;
            out.push(format!(
                "{} is refunded {refund} IPCs for units not mobilized",
                rules.power_info(power).name
            ));
        }
        Unplaceable::Keep => s.purchased[power.index()] = left,
    }
}

fn edit(rules: &RuleSet, s: &mut State, e: &Edit, out: &mut Vec<String>) -> Result<(), Rejection> {
    match e {
        Edit::Treasury { power, ipcs } => {
            s.treasuries[power.index()] = *ipcs;
            out.push(format!(
                "edit: {} treasury set to {ipcs}",
                rules.power_info(*power).name
            ));
        }
        Edit::Control { space, power } => {
            if rules.board.space(*space).is_sea() {
                return Err(Rejection::new("sea zones are not controlled"));
            }
            s.spaces[space.index()].controller = *power;
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
                s.spaces[space.index()].units.push(Unit::new(id, *unit, *owner));
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
            let units = &mut s.spaces[space.index()].units;
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
        Edit::Relation { a, b, relation } => {
            if a == b {
                return Err(Rejection::new("a power has no relation with itself"));
            }
            s.relations[a.index()][b.index()] = *relation;
            s.relations[b.index()][a.index()] = *relation;
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
