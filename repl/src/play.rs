//! `warroom play`: the interactive shell (rustyline on a terminal, line by line from a pipe).

mod ai;

use crate::render;
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use warroom_core::game::state::Relation;
use warroom_core::game::{possessive, Game};
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, PowerId, RuleSet};

pub struct Options {
    pub editions: PathBuf,
    pub edition: String,
    pub scenario: Option<String>,
    pub with: Vec<String>,
    pub seed: u64,
    pub load: Option<PathBuf>,
    pub strict: bool,
    /// Deal the powers to this many players.
    pub players: Option<u32>,
    /// The powers the computer opponent plays (`--ai`): a side, powers, or `all`.
    pub ai: Option<String>,
    /// Milliseconds between the AI's commands at a terminal (`--ai-pace`).
    pub ai_pace: Option<u64>,
    /// The last round the AI plays (`--ai-rounds`).
    pub ai_rounds: Option<u32>,
}

/// Commands of the shell, with an example each (the `help` text).
/// A report's line without the `[handler.id] ` the log puts before what a script says.
fn unlabelled(line: &str) -> &str {
    match line.strip_prefix('[').and_then(|r| r.split_once("] ")) {
        Some((_, text)) => text,
        None => line,
    }
}

/// Raids `odds SPACE` fights on copies of the board for a bombing raid.
const RAID_RUNS: u64 = 10_000;

const HELP: &[(&str, &str, &str)] = &[
    ("status", "status", "round, power, phase, treasury and income"),
    (
        "battles",
        "battles",
        "this turn's battles and raids (units on each side) and the one being fought",
    ),
    (
        "show",
        "show Western Europe",
        "who holds a space and what is in it",
    ),
    ("units", "units Germany", "where a power's units are"),
    (
        "moves",
        "moves Ukraine",
        "what can move from a space this phase and where (* attacks), and what could move into it",
    ),
    (
        "options",
        "options",
        "every command the rules accept now, by kind (the legal actions)",
    ),
    (
        "odds",
        "odds Karelia S.S.R.",
        "the odds of a battle announced this turn, from the board, or of pressing on in the battle being fought (`odds SPACE runs N`: Monte Carlo)",
    ),
    (
        "map",
        "map Germany",
        "a power's territories with their IPC values",
    ),
    ("buy", "buy 3 infantry", "buy units in the purchase phase (`for ECONOMY`: a second economy of the power pays)"),
    (
        "move",
        "move 2 infantry, tank from Germany to Poland [via A, B] [ignoring | bombing | as paratroopers]",
        "move units; onto a transport: to its sea zone; ashore: from the sea zone; land units moved with aircraft that carry them fly with them; `as paratroopers`: infantry flown from an air base (Global 1940's advance)",
    ),
    (
        "fight",
        "fight Karelia",
        "fight the next battle (or the one named) in conduct combat; `fight Denmark bombarding 1 cruiser` (or `none`) names the ships bombarding an assault",
    ),
    (
        "casualties",
        "casualties 2 infantry, #12",
        "choose the casualties asked for (no units: take the suggested ones)",
    ),
    ("press", "press", "attacker: fight another round"),
    (
        "disagree",
        "disagree",
        "defenders of several powers disagree on casualties: the attacker chooses",
    ),
    (
        "retreat",
        "retreat to West Russia",
        "attacker: retreat (aircraft stay and land in noncombat move)",
    ),
    (
        "submerge",
        "submerge 2 submarine",
        "submarines submerge before the dice (`submerge none`: they fire)",
    ),
    ("roll", "roll 3 5 1", "type the faces rolled at the table"),
    (
        "order",
        "order Germany infantry, artillery, tank",
        "a power's order of loss for suggested casualties (`default`: cheapest first)",
    ),
    (
        "dice",
        "dice seeded 42",
        "dice typed at the table (manual), from the generator (auto), or reseeded (seeded N)",
    ),
    (
        "research",
        "research 2",
        "research & development phase: buy researcher tokens and roll one die per token held",
    ),
    (
        "breakthrough",
        "breakthrough 2",
        "after a research success: roll on that breakthrough chart for a new advance",
    ),
    (
        "rocket",
        "rocket from Germany at \"United Kingdom\"",
        "conduct combat, before other battles: an AA gun with Rockets strikes an enemy complex within 3 spaces",
    ),
    (
        "repair",
        "repair 3 in Germany",
        "purchase phase: remove damage from a facility (1 IPC per damage); name it where several are damaged: `repair 2 air_base in \"United Kingdom\"`",
    ),
    ("place", "place 2 infantry in Germany", "mobilize purchased units"),
    (
        "declare",
        "declare war on \"Soviet Union\"",
        "at the start of combat move (1940 editions): go to war with a power at peace with you",
    ),
    ("relations", "relations", "who is at war and at peace with whom"),
    (
        "players",
        "players 4",
        "deal the powers to this many players by the edition's rules (no number: who plays what)",
    ),
    (
        "seat",
        "seat 2 Japan",
        "give a power (with those it is played with) to another player",
    ),
    (
        "play",
        "play \"United States\" first",
        "in a turn another power plays within (Anniversary China): who plays its part first",
    ),
    (
        "ask",
        "ask passage through \"Panama Canal\"",
        "in a move phase: ask the power at peace holding a canal or strait to let your ships pass this turn (it answers allow or deny)",
    ),
    (
        "intercept",
        "intercept 2 fighter in \"United Kingdom\"",
        "1940, at the start of the attacker's conduct combat: defending fighters meet a bombing raid over their territory",
    ),
    (
        "report",
        "report objectives Germany",
        "what a rule script's rule stands at: `objectives [POWER]` (national objectives met, and what they pay now), `victory` (the victory cities held, since when); `status` adds the scripts' own lines",
    ),
    (
        "scramble",
        "scramble 2 fighter from \"United Kingdom\" to \"SZ 110\"",
        "1940, at the start of the attacker's conduct combat: defending fighters rise from an air base to an attacked sea zone next to it (`scramble 1 fighter of France from ...` names whose, where several powers' stand)",
    ),
    (
        "answer",
        "answer strike",
        "answer the question a rule asked (the answer, or its number); nothing else is played until then",
    ),
    (
        "hint",
        "hint",
        "what the computer opponent would play now, and why (odds, TUV); in purchase and combat move its whole plan",
    ),
    ("undo", "undo", "take back the last command of this phase (your own: never the AI's)"),
    (
        "end",
        "end phase",
        "finish the current phase (noncombat move first lists aircraft with nowhere to land)",
    ),
    (
        "edit",
        "edit treasury Germany 40",
        "correct the game by hand (logged): treasury, control, add, remove, relation, mark (a tag on units: `edit mark Karelia Germany 1 tank veteran`), damage (`edit damage Germany industrial_complex 8`, `edit damage \"SZ 110\" Germany 1 battleship`)",
    ),
    ("log", "log", "what happened so far"),
    ("why", "why units.tank.attack", "which layer and line set a value"),
    ("layers", "layers", "the active layers in order"),
    ("save", "save game.toml", "save the game (replayable text)"),
    ("load", "load game.toml", "load a saved game"),
    (
        "reload",
        "reload",
        "rebuild the rules from disk and replay this game under them, if they check clean",
    ),
    (
        "record",
        "record golden.toml",
        "write the game so far as a scenario that `warroom replay` checks against changed rules",
    ),
    ("help", "help buy", "this list, or one command"),
    ("quit", "quit", "leave (warns about an unsaved game)"),
];

struct Shell {
    game: Game,
    editions: PathBuf,
    saved_at: usize,
    /// The last line was an `end phase` refused because aircraft had not landed: the same
    /// command again ends the phase and loses them.
    landing_warned: bool,
    /// The computer opponent, when it plays some powers (`--ai`).
    autopilot: Option<ai::Autopilot>,
    /// For each command the game's undo stack holds, whether the AI gave it (`undo` takes
    /// back only the human's).
    undo_by_ai: Vec<bool>,
}

enum Outcome {
    Ok(String),
    Rejected(String),
    Quit,
}

pub fn run(opts: Options) -> ExitCode {
    let game = match &opts.load {
        Some(path) => match load_game(path, &opts.editions) {
            Ok(g) => g,
            Err(msg) => {
                eprintln!("{msg}");
                return ExitCode::FAILURE;
            }
        },
        None => {
            let mut req = LoadRequest::new(&opts.editions, opts.edition.clone());
            req.with = opts.with.clone();
            let rules = match rules::load(&req) {
                Ok(r) => r,
                Err(e) => {
                    render::problems(&e.problems);
                    return ExitCode::FAILURE;
                }
            };
            match Game::new(
                Arc::new(rules),
                &opts.edition,
                &opts.with,
                opts.scenario.as_deref(),
                opts.seed,
            ) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let mut game = game;
    if let Some(n) = opts.players {
        if let Err(e) = game.deal_players(n) {
            eprintln!("--players {n}: {e}");
            return ExitCode::FAILURE;
        }
    }
    let interactive_input = std::io::stdin().is_terminal();
    let autopilot = match &opts.ai {
        None => None,
        Some(who) => match crate::selfplay::ai_powers(game.rules(), who) {
            Ok(powers) => {
                // A pause a human can follow, at a terminal only: none when the output goes
                // to a file or the input is a script.
                let shown = std::io::stdout().is_terminal() && !opts.strict;
                let ms = match opts.ai_pace {
                    Some(ms) if shown => ms,
                    None if shown && interactive_input => ai::DEFAULT_PACE_MS,
                    _ => 0,
                };
                Some(ai::Autopilot::new(
                    who.clone(),
                    powers,
                    std::time::Duration::from_millis(ms),
                    opts.ai_rounds,
                ))
            }
            Err(e) => {
                eprintln!("warroom play: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let saved_at = game.history().len();
    let undo_by_ai = vec![false; game.undoable().len()];
    let mut shell = Shell {
        game,
        editions: opts.editions.clone(),
        saved_at,
        landing_warned: false,
        autopilot,
        undo_by_ai,
    };
    if interactive_input {
        interactive(&mut shell)
    } else {
        batch(&mut shell, opts.strict)
    }
}

/// A save loaded, its warnings (a state that differs from the saved hash) shown on stderr.
fn load_game(path: &std::path::Path, editions: &std::path::Path) -> Result<Game, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let loaded = warroom_core::game::save::open(path, &bytes, editions).map_err(|e| render::report(&e))?;
    for w in &loaded.warnings {
        eprintln!("{}", render::report(w));
    }
    Ok(loaded.game)
}

fn batch(shell: &mut Shell, strict: bool) -> ExitCode {
    println!("{}", shell.banner());
    // The AI plays its powers before the first line is read and after every line.
    let ai_failed = |stopped: ai::Stopped| match stopped {
        ai::Stopped::Refused(why) if strict => {
            eprintln!("{why}");
            true
        }
        _ => false,
    };
    if ai_failed(shell.autoplay()) {
        return ExitCode::from(1);
    }
    let stdin = std::io::stdin();
    for (n, line) in stdin.lock().lines().enumerate() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        println!("> {line}");
        match shell.handle(line) {
            Outcome::Ok(text) => {
                if !text.is_empty() {
                    println!("{text}");
                }
            }
            Outcome::Rejected(text) => {
                println!("rejected: {text}");
                if strict {
                    eprintln!("line {}: rejected command `{line}`", n + 1);
                    return ExitCode::from(1);
                }
            }
            Outcome::Quit => return ExitCode::SUCCESS,
        }
        if ai_failed(shell.autoplay()) {
            return ExitCode::from(1);
        }
    }
    // A script that ends while the game waits for an answer stopped short of what it meant to
    // play: in strict mode that fails too (a truncated game file would otherwise pass).
    if strict {
        let s = shell.game.state();
        let battle = s.combat.as_ref().filter(|b| b.waiting.is_some());
        if let Some(b) = battle {
            eprintln!(
                "the input ended while the battle in {} waits for {}",
                shell.rules().board.space(b.space).name,
                waiting_for(b)
            );
            return ExitCode::from(1);
        }
        if let Some(q) = s.questions.0.first() {
            eprintln!(
                "the input ended while a question waits: {}",
                warroom_core::game::questions::prompt(shell.rules(), q)
            );
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

fn interactive(shell: &mut Shell) -> ExitCode {
    use crate::complete::{Names, TermHelper};
    use rustyline::config::{CompletionType, Config};
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .build();
    let mut rl: rustyline::Editor<TermHelper, rustyline::history::DefaultHistory> =
        match rustyline::Editor::with_config(config) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("cannot start the line editor: {e}");
                return ExitCode::FAILURE;
            }
        };
    let mut names_of = shell.rules().clone();
    rl.set_helper(Some(TermHelper::new(Names::new(&names_of, HELP))));
    let history = history_file();
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    println!("{}", shell.banner());
    println!("type `help` for commands; Tab completes names, the right arrow takes a hint");
    if shell.autopilot.is_some() {
        ai::catch_interrupts();
    }
    let mut warned = false;
    let mut reminded = false;
    loop {
        // The AI plays its powers until one of the human's decides (or the game ends).
        shell.autoplay();
        // A question a rule script asked: Tab offers its answers.
        if let Some(h) = rl.helper_mut() {
            h.names.answers = shell
                .game
                .state()
                .questions
                .0
                .first()
                .map(|q| q.answers.clone())
                .unwrap_or_default();
        }
        let default = enter_default(&shell.game);
        if default.is_some() && !reminded {
            println!(
                "(an empty line answers the battle's question: it takes the suggested casualties, or presses on)"
            );
            reminded = true;
        }
        let prompt = shell.prompt();
        match rl.readline(&prompt) {
            Ok(line) => {
                let line = line.trim();
                // An empty line while the AI is paused lets it play on.
                if line.is_empty() {
                    if let Some(p) = shell.autopilot.as_mut().filter(|p| p.paused) {
                        p.resume();
                        continue;
                    }
                }
                let line = match (line.is_empty(), default) {
                    (false, _) => {
                        let _ = rl.add_history_entry(line);
                        line
                    }
                    (true, Some(cmd)) => cmd,
                    (true, None) => continue,
                };
                match shell.handle(line) {
                    Outcome::Ok(t) => {
                        if !t.is_empty() {
                            println!("{t}");
                        }
                    }
                    Outcome::Rejected(t) => println!("rejected: {t}"),
                    Outcome::Quit => {
                        if shell.unsaved() && !warned {
                            println!("the game has unsaved commands: `save FILE`, or `quit` again to leave");
                            warned = true;
                            continue;
                        }
                        break;
                    }
                }
                // `load` may bring another edition: complete its names.
                if !Arc::ptr_eq(&names_of, shell.rules()) {
                    names_of = shell.rules().clone();
                    if let Some(h) = rl.helper_mut() {
                        h.names = Names::new(&names_of, HELP);
                    }
                }
            }
            Err(rustyline::error::ReadlineError::Interrupted) => continue,
            Err(_) => break,
        }
    }
    if let Some(h) = &history {
        let _ = rl.save_history(h);
    }
    ExitCode::SUCCESS
}

impl Shell {
    fn rules(&self) -> &Arc<RuleSet> {
        self.game.rules()
    }

    fn unsaved(&self) -> bool {
        self.game.history().len() != self.saved_at
    }

    fn banner(&self) -> String {
        let o = self.game.origin();
        let mut text = format!("warroom: {}", o.describe());
        if let Some(ai) = self.ai_banner() {
            text.push('\n');
            text.push_str(&ai);
        }
        if let Some(to_play) = self.to_play() {
            text.push('\n');
            text.push_str(&to_play);
        }
        text
    }

    /// "Player 2 (Germany, Italy) to play", when players are seated.
    fn to_play(&self) -> Option<String> {
        let seats = self.game.seats()?;
        let player = seats.player_of(self.game.current_power())?;
        Some(format!("{} to play", seats.describe(self.rules(), player)))
    }

    /// Who plays what: one line per player, the one to play marked.
    fn seating(&self) -> Option<String> {
        let seats = self.game.seats()?;
        let playing = seats.player_of(self.game.current_power());
        let lines: Vec<String> = seats
            .players
            .iter()
            .enumerate()
            .map(|(i, pl)| {
                let names: Vec<&str> = pl
                    .iter()
                    .map(|p| self.rules().power_info(*p).name.as_str())
                    .collect();
                let mark = if Some(i) == playing { " (to play)" } else { "" };
                format!("  Player {}: {}{mark}", i + 1, names.join(", "))
            })
            .collect();
        Some(lines.join("\n"))
    }

    /// `players`: the seating; `players N`: deal the powers to N players.
    fn players(&mut self, rest: &str) -> Outcome {
        if rest.is_empty() {
            return match self.seating() {
                Some(s) => Outcome::Ok(s),
                None => Outcome::Ok(format!(
                    "no players seated; `players N` deals the powers to N players ({})",
                    self.player_range()
                )),
            };
        }
        let Ok(n) = rest.parse::<u32>() else {
            return Outcome::Rejected(format!(
                "usage: players [N] (how many people play: {})",
                self.player_range()
            ));
        };
        match self.game.deal_players(n) {
            Ok(_) => Outcome::Ok(format!(
                "{n} players:\n{}\n{}",
                self.seating().unwrap_or_default(),
                self.to_play().unwrap_or_default()
            )),
            Err(e) => Outcome::Rejected(e),
        }
    }

    fn player_range(&self) -> String {
        let (min, max) = warroom_core::game::seats::player_range(self.rules(), self.game.scenario());
        if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        }
    }

    /// `seat N POWER`: give a power to player N.
    fn seat(&mut self, words: &[String]) -> Outcome {
        const USAGE: &str = "usage: seat PLAYER POWER (e.g. `seat 2 Japan`)";
        let Some(n) = words.first().and_then(|w| w.parse::<usize>().ok()) else {
            return Outcome::Rejected(USAGE.into());
        };
        if words.len() < 2 {
            return Outcome::Rejected(USAGE.into());
        }
        let power = match warroom_core::game::command::resolve_power(self.rules(), &words[1..].join(" ")) {
            Ok(p) => p,
            Err(e) => return Outcome::Rejected(e),
        };
        match self.game.seat(n, power) {
            Ok(moved) => {
                let names: Vec<&str> = moved
                    .iter()
                    .map(|p| self.rules().power_info(*p).name.as_str())
                    .collect();
                Outcome::Ok(format!(
                    "Player {n} plays {} now\n{}",
                    names.join(", "),
                    self.seating().unwrap_or_default()
                ))
            }
            Err(e) => Outcome::Rejected(e),
        }
    }

    fn prompt(&self) -> String {
        let p = self.game.current_power();
        // A rule script's question comes first: nothing else is played until it is answered.
        let asked = self.game.state().questions.0.first().map(|q| {
            format!(
                " | {} answers: {}",
                self.rules().power_info(q.power).name,
                q.answers.join("/")
            )
        });
        let question = asked
            .or_else(|| {
                self.game
                    .state()
                    .combat
                    .as_ref()
                    .and_then(|b| question(self.rules(), b))
                    .map(|q| format!(" | {q}"))
            })
            .unwrap_or_default();
        format!(
            "[{} {} {}{question}]> ",
            self.game.state().round,
            self.rules().power_info(p).name,
            self.game.current_phase().title
        )
    }

    fn handle(&mut self, line: &str) -> Outcome {
        use warroom_core::game::command;
        let words = match command::tokenize(line) {
            Ok(w) => w,
            Err(e) => return Outcome::Rejected(e),
        };
        let Some(verb) = words.first().map(|w| w.to_lowercase()) else {
            return Outcome::Rejected("empty command".into());
        };
        let rest = words[1..].join(" ");
        // Names are resolved here (prefixes, abbreviations) and the views get the full name.
        let space = |rules: &RuleSet| {
            command::resolve_space(rules, &rest).map(|id| rules.board.space(id).name.clone())
        };
        let power =
            |rules: &RuleSet| command::resolve_power(rules, &rest).map(|p| rules.power_info(p).name.clone());
        match verb.as_str() {
            "help" | "?" => Outcome::Ok(help(&rest, &self.rules().commands)),
            "status" => {
                // What the rule scripts add (`report status`): a victory count, ...
                let mut text = self.status();
                match self.game.report("status", None) {
                    Ok(lines) => {
                        for l in lines {
                            text.push_str(&format!("\n  {}", unlabelled(&l)));
                        }
                    }
                    Err(e) => text.push_str(&format!("\n  (a rule script's status failed: {e})")),
                }
                Outcome::Ok(text)
            }
            "report" | "objectives" | "victory" => self.report(&verb, &words[1..]),
            "players" => self.players(&rest),
            "seat" => self.seat(&words[1..]),
            "relations" => Outcome::Ok(self.relations()),
            "battles" => Outcome::Ok(self.battles()),
            "odds" => self.odds(&words[1..]),
            "show" => match space(self.rules()) {
                Ok(name) => self.show(&name),
                Err(e) => Outcome::Rejected(e),
            },
            "moves" if rest.is_empty() => Outcome::Rejected(
                "moves from where? `moves SPACE` (`options` lists every legal command)".into(),
            ),
            "moves" => match command::resolve_space(self.rules(), &rest) {
                Ok(id) => Outcome::Ok(self.moves(id)),
                Err(e) => Outcome::Rejected(e),
            },
            "options" => Outcome::Ok(self.options()),
            "units" => match power(self.rules()) {
                Ok(name) => self.units(&name),
                Err(e) => Outcome::Rejected(e),
            },
            "map" => match power(self.rules()) {
                Ok(name) => self.map(&name),
                Err(e) => Outcome::Rejected(e),
            },
            "log" => Outcome::Ok(
                self.game
                    .log()
                    .iter()
                    .map(|e| {
                        format!(
                            "round {} {} {}: {}",
                            e.round,
                            self.rules().power_info(e.power).name,
                            e.phase,
                            e.text
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            "why" => self.why(&words[1..]),
            "layers" => Outcome::Ok(
                self.rules()
                    .layers
                    .iter()
                    .map(|l| format!("{} ({:?}) {}", l.name, l.kind, l.display_dir))
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            "save" => self.save(&rest),
            "hint" => self.hint(),
            "reload" => self.reload(),
            "record" => self.record(&rest),
            "load" => match load_game(std::path::Path::new(&rest), &self.editions) {
                Ok(g) => {
                    self.game = g;
                    self.saved_at = self.game.history().len();
                    let mut text = format!("loaded {rest}: {}", self.banner());
                    if let Some(stopped) = self.game_replaced() {
                        text.push_str(&format!("\n{stopped}"));
                    }
                    Outcome::Ok(text)
                }
                Err(e) => Outcome::Rejected(e),
            },
            "quit" | "exit" => Outcome::Quit,
            v if !command::is_verb(v) && !self.rules().commands.iter().any(|c| c.name == v) => {
                let mut shell: Vec<&str> = HELP.iter().map(|(n, _, _)| *n).collect();
                shell.extend(self.rules().commands.iter().map(|c| c.name.as_str()));
                Outcome::Rejected(command::unknown_verb(&words[0], &shell))
            }
            _ => {
                let warned = std::mem::take(&mut self.landing_warned);
                let parsed = command::Command::parse(self.rules(), line);
                if !warned && parsed == Ok(command::Command::EndPhase) {
                    if let Some(question) = self.where_to_land() {
                        self.landing_warned = true;
                        return Outcome::Rejected(question);
                    }
                }
                if parsed == Ok(command::Command::Undo) {
                    if let Some(refusal) = self.undo_refusal() {
                        return Outcome::Rejected(refusal);
                    }
                }
                if let Some(p) = &mut self.autopilot {
                    p.resume();
                }
                let before = self.playing();
                let executed = self.game.execute(line);
                self.sync_undo(false);
                match executed {
                    Ok(mut lines) => {
                        // The turn passed to another player: say who takes over.
                        if self.playing() != before {
                            lines.extend(self.to_play());
                        }
                        // A rule script asked a question: say it, with how to answer.
                        if let Some(q) = self.game.state().questions.0.first() {
                            lines.push(format!(
                                "? {}",
                                warroom_core::game::questions::prompt(self.rules(), q)
                            ));
                        }
                        Outcome::Ok(lines.join("\n"))
                    }
                    Err(r) => Outcome::Rejected(r.to_string()),
                }
            }
        }
    }

    /// The seated player whose powers act now.
    fn playing(&self) -> Option<usize> {
        self.game.seats()?.player_of(self.game.current_power())
    }

    /// Before noncombat move ends: the aircraft that would be lost, and where each can land.
    fn where_to_land(&self) -> Option<String> {
        let unlanded = self.game.unlanded_air();
        if unlanded.is_empty() {
            return None;
        }
        let rules = self.rules();
        let mut out = String::from("aircraft without a safe landing place would be lost [air-landing]:");
        for u in &unlanded {
            let kind = &rules.unit(u.kind).name;
            let here = &rules.board.space(u.space).name;
            let names: Vec<&str> = u
                .landings
                .iter()
                .map(|s| rules.board.space(*s).name.as_str())
                .collect();
            if names.is_empty() {
                out.push_str(&format!("\n  {kind} #{} in {here}: nowhere within reach", u.id));
            } else {
                out.push_str(&format!(
                    "\n  {kind} #{} in {here} can land in {}",
                    u.id,
                    warroom_core::rules::name_list(&names, 12)
                ));
            }
        }
        if rules.switches.air_units_must_land && unlanded.iter().any(|u| !u.landings.is_empty()) {
            out.push_str(
                "\nland them with `move`: air units that can land safely must [air-units-must-land]",
            );
        } else {
            out.push_str("\nland them with `move`, or `end phase` again to lose them");
        }
        Some(out)
    }

    fn status(&self) -> String {
        let s = self.game.state();
        let p = self.game.current_power();
        let rules = self.rules();
        let host = self.game.turn_power();
        let mut out = format!(
            "round {}, {} ({}), phase: {}",
            s.round,
            rules.power_info(p).name,
            rules.power_info(p).side,
            self.game.current_phase().title
        );
        if p != host {
            out.push_str(&format!(", in {} turn", possessive(&rules.power_info(host).name)));
        }
        out.push('\n');
        if rules.powers_of_turn(host).len() > 1 {
            out.push_str(&format!("  this turn: {}\n", self.turn_order_text()));
            for (first, other) in self.game.open_choices() {
                out.push_str(&format!(
                    "  {} plays first; `play {} first` to change the order\n",
                    rules.power_info(first).name,
                    warroom_core::game::command::quote(&rules.power_info(other).name)
                ));
            }
        }
        // The powers playing this turn, the acting one first: what each has waiting to be placed.
        let mut turn = rules.powers_of_turn(host);
        turn.retain(|q| *q != p);
        turn.insert(0, p);
        for q in turn {
            let pending: Vec<String> = s.purchased[q.index()]
                .iter()
                .map(|(piece, n)| {
                    let name = match piece {
                        warroom_core::rules::Piece::Unit(u) => rules.unit(*u).name.clone(),
                        warroom_core::rules::Piece::Facility(f) => rules.facilities[f.index()].name.clone(),
                    };
                    format!("{n} {name}")
                })
                .collect();
            if pending.is_empty() {
                continue;
            }
            if q == p {
                out.push_str(&format!("  to mobilize: {}\n", pending.join(", ")));
            } else {
                out.push_str(&format!(
                    "  {} to mobilize: {}\n",
                    rules.power_info(q).name,
                    pending.join(", ")
                ));
            }
        }
        let mut battles: Vec<String> = s
            .this_turn
            .raids
            .iter()
            .map(|(r, fought)| {
                let done = if *fought { " (fought)" } else { "" };
                format!("raid on {}{done}", rules.board.space(*r).name)
            })
            .collect();
        battles.extend(s.this_turn.battles.iter().map(|b| {
            let done = if b.fought { " (fought)" } else { "" };
            format!("{}{done}", rules.board.space(b.space).name)
        }));
        if !battles.is_empty() {
            out.push_str(&format!("  battles: {}\n", battles.join(", ")));
        }
        if let Some(b) = &s.combat {
            out.push_str(&format!(
                "  fighting in {}, round {}: waiting for {}\n",
                rules.board.space(b.space).name,
                b.round,
                waiting_for(b)
            ));
        }
        if s.manual_dice {
            out.push_str("  dice: typed at the table\n");
        }
        if let Some(q) = s.questions.0.first() {
            out.push_str(&format!(
                "  waiting for an answer: {}\n",
                warroom_core::game::questions::prompt(rules, q)
            ));
        }
        // The defenders' decisions of the 1940 games, while they are open.
        let kind = self.game.current_phase().kind;
        for line in warroom_core::game::intercept::options(rules, s, p, kind)
            .into_iter()
            .chain(warroom_core::game::scramble::options(rules, s, p, kind))
        {
            out.push_str(&format!("  {line}\n"));
        }
        let peace = self.related(p, Relation::Peace);
        if !peace.is_empty() {
            out.push_str(&format!(
                "  at peace with {} (`declare war on POWER`, `relations`)\n",
                peace.join(", ")
            ));
        }
        if let Some(w) = &s.winner {
            out.push_str(&format!("  the game is over: {w} won\n"));
        }
        if let Some(seating) = self.seating() {
            out.push_str(&seating);
            out.push('\n');
        }
        if s.breakthrough_pending {
            out.push_str("  a research breakthrough waits for its chart (`breakthrough CHART`)\n");
        }
        let playing: Vec<PowerId> = self
            .game
            .scenario()
            .turn_order
            .iter()
            .flat_map(|h| rules.powers_of_turn(*h))
            // A power's second economy, under it (`buy ... for ECONOMY`).
            .flat_map(|p| rules.economies(p))
            .collect();
        for q in playing {
            let name = match rules.power_info(q).economy_of {
                Some(_) => format!("  {}", rules.power_info(q).name),
                None => rules.power_info(q).name.clone(),
            };
            out.push_str(&format!(
                "  {:<16} treasury {:>4}  income {:>3}",
                name,
                s.treasuries[q.index()],
                self.game.income(q)
            ));
            if s.research_tokens[q.index()] > 0 {
                out.push_str(&format!("  researchers {}", s.research_tokens[q.index()]));
            }
            if !s.techs[q.index()].is_empty() {
                let names: Vec<&str> = s.techs[q.index()]
                    .iter()
                    .map(|t| rules.techs[t.index()].name.as_str())
                    .collect();
                out.push_str(&format!("  techs: {}", names.join(", ")));
            }
            // Enemy units in convoy zones next to its territories: income at risk.
            let raided = warroom_core::game::convoy::threats(rules, s, q);
            if !raided.is_empty() {
                let names: Vec<&str> = raided
                    .iter()
                    .map(|z| rules.board.space(*z).name.as_str())
                    .collect();
                out.push_str(&format!("  convoys raided: {}", names.join(", ")));
            }
            out.push('\n');
        }
        out.trim_end().to_string()
    }

    /// The steps of the turn in progress, grouped by power, the current phase marked:
    /// `United States: Purchase Units | China: Combat Move (now), Conduct Combat | ...`.
    fn turn_order_text(&self) -> String {
        let rules = self.rules();
        let mut groups: Vec<(PowerId, Vec<String>)> = Vec::new();
        for (i, st) in self.game.turn_steps().iter().enumerate() {
            let mut title = rules.phases[st.phase.index()].title.clone();
            if i == self.game.state().phase {
                title.push_str(" (now)");
            }
            match groups.last_mut() {
                Some((p, titles)) if *p == st.power => titles.push(title),
                _ => groups.push((st.power, vec![title])),
            }
        }
        groups
            .iter()
            .map(|(p, titles)| format!("{}: {}", rules.power_info(*p).name, titles.join(", ")))
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// The powers `p` stands in `relation` with, by name (economies of a power go with it).
    fn related(&self, p: PowerId, relation: Relation) -> Vec<&str> {
        let rules = self.rules();
        let s = self.game.state();
        rules
            .powers
            .iter()
            .enumerate()
            .filter(|(i, q)| q.economy_of.is_none() && *i != p.index())
            .filter(|(i, _)| s.relations[p.index()][*i] == relation)
            .map(|(_, q)| q.name.as_str())
            .collect()
    }

    /// Who is at war and at peace with whom, power by power (allies go without saying).
    fn relations(&self) -> String {
        let rules = self.rules();
        let mut out = Vec::new();
        for (i, power) in rules.powers.iter().enumerate() {
            if power.economy_of.is_some() {
                continue;
            }
            let p = PowerId(i as u8);
            let war = self.related(p, Relation::War);
            let peace = self.related(p, Relation::Peace);
            let mut line = format!(
                "  {} ({}): at war with {}",
                power.name,
                power.side,
                if war.is_empty() {
                    "nobody".to_string()
                } else {
                    war.join(", ")
                }
            );
            if !peace.is_empty() {
                line.push_str(&format!("; at peace with {}", peace.join(", ")));
            }
            out.push(line);
        }
        out.join("\n")
    }

    /// The battles and raids of this turn, the units on each side, and the battle in progress.
    /// `report NAME [POWER]` (and its shorthands `objectives [POWER]`, `victory`): what the
    /// rule scripts say a rule stands at.
    fn report(&mut self, verb: &str, words: &[String]) -> Outcome {
        let (name, rest) = match verb {
            "report" => match words.split_first() {
                Some((n, r)) => (n.to_lowercase(), r),
                None => return Outcome::Rejected(
                    "report what? `report objectives [POWER]`, `report victory`, or a report a layer offers"
                        .into(),
                ),
            },
            other => (other.to_string(), words),
        };
        let power = if rest.is_empty() {
            None
        } else {
            match warroom_core::game::command::resolve_power(self.rules(), &rest.join(" ")) {
                Ok(p) => Some(p),
                Err(e) => return Outcome::Rejected(e),
            }
        };
        match self.game.report(&name, power) {
            Ok(lines) if lines.is_empty() => Outcome::Rejected(format!(
                "no rule script of these rules answers `report {name}` (Europe 1940: `objectives`, `victory`; Anniversary with national-objectives: `objectives`)"
            )),
            Ok(lines) => Outcome::Ok(lines.iter().map(|l| unlabelled(l)).collect::<Vec<_>>().join("\n")),
            Err(e) => Outcome::Rejected(e),
        }
    }

    /// `odds SPACE [runs N]`: the battle announced there as it would start now (a bombing raid:
    /// `RAID_RUNS` raids fought on copies of the board unless told how many).
    fn odds(&self, words: &[String]) -> Outcome {
        let (place, runs) = match words {
            [p @ .., r, n] if r.eq_ignore_ascii_case("runs") => match n.parse::<u64>() {
                Ok(n) if n > 0 => (p, Some(n)),
                _ => return Outcome::Rejected(format!("`runs {n}`: say how many battles, e.g. runs 20000")),
            },
            _ => (words, None),
        };
        if place.is_empty() {
            return Outcome::Rejected("odds where? `odds SPACE` (`battles` lists this turn's)".into());
        }
        let rules = self.rules();
        let space = match warroom_core::game::command::resolve_space(rules, &place.join(" ")) {
            Ok(s) => s,
            Err(e) => return Outcome::Rejected(e),
        };
        if self.game.state().this_turn.raids.contains(&(space, false)) {
            return match self.game.raid_odds(space, runs.unwrap_or(RAID_RUNS)) {
                Ok(o) => Outcome::Ok(format!(
                    "{}: {}",
                    rules.board.space(space).name,
                    crate::odds::render_raid(rules, &o)
                )),
                Err(e) => Outcome::Rejected(e),
            };
        }
        let answer = self.game.odds_question(space).and_then(|q| {
            warroom_core::odds::calculate(
                &q,
                &warroom_core::odds::Options {
                    runs,
                    // Its own seed: the calculator never draws the game's dice.
                    seed: 1,
                    ..Default::default()
                },
            )
        });
        match answer {
            Ok(o) => Outcome::Ok(format!(
                "{}: {}",
                rules.board.space(space).name,
                crate::odds::render(rules, &o)
            )),
            Err(e) => Outcome::Rejected(e),
        }
    }

    fn battles(&self) -> String {
        use warroom_core::combat::Side;
        use warroom_core::rules::{Domain, UnitTypeId};
        let s = self.game.state();
        let rules = self.rules();
        let power = self.game.current_power();
        let at_war = |o: PowerId| s.relations[power.index()][o.index()] == Relation::War;
        let fighting = s.combat.as_ref().map(|b| b.space);
        let state = |space, fought: bool| {
            if fighting == Some(space) {
                "being fought".to_string()
            } else if !fought {
                "to fight".to_string()
            } else if rules.board.space(space).is_sea() {
                "fought".to_string()
            } else {
                let holder = s.space(space).controller;
                format!(
                    "fought, held by {}",
                    holder.map_or("nobody", |p| rules.power_info(p).name.as_str())
                )
            }
        };
        let mut out = Vec::new();
        for (space, fought) in &s.this_turn.raids {
            let here = s.space(*space);
            let bombers = side_text(
                rules,
                here.units
                    .iter()
                    .filter(|u| u.owner == power && u.marks.bombing)
                    .map(|u| (u.owner, u.kind)),
            );
            let targets: Vec<String> = here
                .facilities
                .iter()
                .map(|f| format!("{} (damage {})", rules.facilities[f.kind.index()].name, f.damage))
                .collect();
            out.push(format!(
                "  raid on {} ({}): {bombers}  vs  {}",
                rules.board.space(*space).name,
                state(*space, *fought),
                if targets.is_empty() {
                    "nothing".to_string()
                } else {
                    targets.join(", ")
                }
            ));
        }
        for b in &s.this_turn.battles {
            let here = &s.space(b.space).units;
            let mut attackers: Vec<(PowerId, UnitTypeId)> = here
                .iter()
                .filter(|u| u.owner == power && u.aboard.is_none() && !u.marks.bombing)
                .map(|u| (u.owner, u.kind))
                .collect();
            // Cargo waiting at sea to come ashore once the sea zone is cleared.
            for z in &b.amphibious_from {
                attackers.extend(
                    s.space(*z)
                        .units
                        .iter()
                        .filter(|u| u.owner == power && u.marks.assault == Some(b.space))
                        .map(|u| (u.owner, u.kind)),
                );
            }
            let defenders = here
                .iter()
                .filter(|u| at_war(u.owner))
                .filter(|u| u.aboard.is_none() || rules.unit(u.kind).domain == Domain::Air)
                .map(|u| (u.owner, u.kind));
            out.push(format!(
                "  {} ({}): {}  vs  {}",
                rules.board.space(b.space).name,
                state(b.space, b.fought),
                side_text(rules, attackers.into_iter()),
                side_text(rules, defenders)
            ));
        }
        if out.is_empty() {
            return "no battles or raids this turn".into();
        }
        out.insert(
            0,
            format!(
                "battles this turn, {} attacking (attacker  vs  defender):",
                rules.power_info(power).name
            ),
        );
        if let Some(b) = &s.combat {
            out.push(format!(
                "in progress: {}, round {}, waiting for {}",
                rules.board.space(b.space).name,
                b.round,
                waiting_for(b)
            ));
            for side in [Side::Attacker, Side::Defender] {
                let units = b.alive(side).map(|(_, c)| (c.owner, c.kind));
                out.push(format!("  {}: {}", side.name(), side_text(rules, units)));
            }
        }
        out.join("\n")
    }

    fn find_power(&self, name: &str) -> Result<PowerId, String> {
        self.rules().power(name).ok_or_else(|| {
            let names: Vec<&str> = self.rules().powers.iter().map(|p| p.name.as_str()).collect();
            format!("no power `{name}`; powers: {}", names.join(", "))
        })
    }

    /// `moves SPACE`: the legal moves from and into a space, by unit type.
    fn moves(&mut self, space: warroom_core::rules::SpaceId) -> String {
        let opts = self.game.move_options(space);
        let rules = self.rules().clone();
        let name = |id| rules.board.space(id).name.as_str();
        let kinds = |k: &[warroom_core::rules::UnitTypeId]| {
            k.iter()
                .map(|u| rules.unit(*u).name.as_str())
                .collect::<Vec<_>>()
                .join(" with ")
        };
        let phase = self.game.current_phase().title.clone();
        let mut out = Vec::new();
        if opts.from.is_empty() {
            out.push(format!("nothing can move from {} in {phase}", name(space)));
        } else {
            out.push(format!("from {} ({phase}):", name(space)));
            for (k, dests) in &opts.from {
                let mut places: Vec<String> = dests
                    .iter()
                    .map(|d| {
                        let mut p = name(d.space).to_string();
                        if d.attack {
                            p.push('*');
                        }
                        if d.raid {
                            p.push_str(" (raid)");
                        }
                        p
                    })
                    .collect();
                places.sort_by_cached_key(|p| warroom_core::rules::name_order(p));
                out.push(format!("  {}: {}", kinds(k), places.join(", ")));
            }
            if opts.from.iter().any(|(_, d)| d.iter().any(|d| d.attack)) {
                out.push("  (* attacks: a battle there in conduct combat)".into());
            }
        }
        if !opts.into.is_empty() {
            out.push(format!("into {}:", name(space)));
            let mut lines: Vec<String> = opts
                .into
                .iter()
                .map(|(k, from)| format!("  {} from {}", kinds(k), name(*from)))
                .collect();
            lines.sort();
            out.extend(lines);
        }
        out.join("\n")
    }

    /// `options`: the legal actions now, grouped by command.
    fn options(&mut self) -> String {
        let legal = self.game.legal_actions();
        let rules = self.rules().clone();
        if legal.is_empty() {
            return "no command of the rules is accepted now (the game is over)".into();
        }
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for a in &legal {
            let text = a.to_text(&rules);
            let verb = text.split_whitespace().next().unwrap_or("").to_string();
            let verb = if verb == "end" {
                "end phase".to_string()
            } else {
                verb
            };
            match groups.iter_mut().find(|(v, _)| *v == verb) {
                Some((_, l)) => l.push(text),
                None => groups.push((verb, vec![text])),
            }
        }
        let mut out = vec![format!(
            "{} legal command{} now:",
            legal.len(),
            if legal.len() == 1 { "" } else { "s" }
        )];
        for (verb, list) in groups {
            if verb == "move" && list.len() > 12 {
                let mut from: Vec<String> = legal
                    .iter()
                    .filter_map(|a| match a {
                        warroom_core::game::command::Command::Move(m) => {
                            Some(rules.board.space(m.from).name.clone())
                        }
                        _ => None,
                    })
                    .collect();
                from.sort();
                from.dedup();
                out.push(format!(
                    "  move: {} moves from {} (`moves SPACE` for one)",
                    list.len(),
                    from.join(", ")
                ));
            } else if list.len() > 12 {
                out.push(format!(
                    "  {verb}: {} … and {} more",
                    list[..10].join("; "),
                    list.len() - 10
                ));
            } else {
                out.push(format!("  {}", list.join("; ")));
            }
        }
        out.join("\n")
    }

    fn show(&self, name: &str) -> Outcome {
        let rules = self.rules();
        let Some(id) = rules.board.find(name) else {
            let names: Vec<&str> = rules.board.spaces.iter().map(|s| s.name.as_str()).collect();
            let hint = warroom_core::tree::closest_key(name, names.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            return Outcome::Rejected(format!("no space `{name}`{hint}"));
        };
        let sp = rules.board.space(id);
        let st = self.game.state().space(id);
        let mut out = sp.name.clone();
        if !sp.is_sea() {
            out.push_str(&format!(
                " ({} IPC), held by {}",
                sp.ipc,
                st.controller
                    .map_or("nobody".to_string(), |p| rules.power_info(p).name.clone())
            ));
        }
        if let Some(n) = warroom_core::game::neutrals::describe(rules, self.game.state(), id) {
            out.push_str(&format!(", {n}"));
        } else if sp.neutral.is_some() && st.controller.is_some() {
            // Taken by attack or as a friendly neutral: either way it has no original owner.
            out.push_str(", a former neutral (no original owner: never liberated)");
        }
        if sp.capital {
            out.push_str(", capital");
        }
        if let Some(vc) = &sp.victory_city {
            out.push_str(&format!(", victory city {vc}"));
        }
        for f in &st.facilities {
            out.push_str(&format!(
                "\n  {} (damage {})",
                rules.facilities[f.kind.index()].name,
                f.damage
            ));
        }
        let current = self.game.current_power();
        let free: Vec<warroom_core::game::state::Unit> =
            st.units.iter().filter(|u| u.aboard.is_none()).cloned().collect();
        for (owner, kind, n) in stacks(&free) {
            let t = rules.unit(kind);
            let mut line = format!("\n  {} {n} {}", rules.power_info(owner).name, t.name);
            if owner == current {
                let fresh = free
                    .iter()
                    .filter(|u| u.owner == owner && u.kind == kind && u.moved < t.movement)
                    .count();
                if fresh < n as usize {
                    line.push_str(&format!(" ({fresh} with movement left)"));
                }
            }
            // Two-hit ships keep their damage between battles.
            let damaged = free
                .iter()
                .filter(|u| u.owner == owner && u.kind == kind && u.damage > 0)
                .count();
            if damaged > 0 {
                line.push_str(&format!(" ({damaged} damaged)"));
            }
            // Values rule scripts set for the power's units of the type (`set_value`).
            for v in self.game.state().standing_values.0.iter() {
                if v.power == owner && v.kind == kind {
                    line.push_str(&format!(
                        " ({} {}{})",
                        if v.defense { "defense" } else { "attack" },
                        v.value,
                        if v.this_turn { " this turn" } else { "" }
                    ));
                }
            }
            out.push_str(&line);
        }
        // Tags rule scripts keep on units (`mark`): one line per unit carrying any.
        for u in st.units.iter().filter(|u| !u.tags.is_empty()) {
            out.push_str(&format!(
                "\n    {} {} #{}: {}",
                rules.power_info(u.owner).name,
                rules.unit(u.kind).name,
                u.id,
                u.tags.describe()
            ));
        }
        for carrier in &st.units {
            let cargo: Vec<warroom_core::game::state::Unit> = st
                .units
                .iter()
                .filter(|u| u.aboard == Some(carrier.id))
                .cloned()
                .collect();
            if cargo.is_empty() {
                continue;
            }
            let what: Vec<String> = stacks(&cargo)
                .into_iter()
                .map(|(o, k, n)| format!("{n} {} {}", rules.power_info(o).name, rules.unit(k).name))
                .collect();
            out.push_str(&format!(
                "\n    {} #{} carries {}",
                rules.unit(carrier.kind).name,
                carrier.id,
                what.join(", ")
            ));
        }
        let adj: Vec<&str> = sp
            .adjacent
            .iter()
            .map(|a| rules.board.space(*a).name.as_str())
            .collect();
        out.push_str(&format!("\n  adjacent: {}", adj.join(", ")));
        Outcome::Ok(out)
    }

    fn units(&self, name: &str) -> Outcome {
        let p = match self.find_power(name) {
            Ok(p) => p,
            Err(e) => return Outcome::Rejected(e),
        };
        let rules = self.rules();
        let mut out = Vec::new();
        for id in rules.board.ids() {
            let st = self.game.state().space(id);
            let mine: Vec<String> = stacks(&st.units)
                .into_iter()
                .filter(|(o, _, _)| *o == p)
                .map(|(_, k, n)| format!("{n} {}", rules.unit(k).name))
                .collect();
            if !mine.is_empty() {
                out.push(format!("{}: {}", rules.board.space(id).name, mine.join(", ")));
            }
        }
        Outcome::Ok(out.join("\n"))
    }

    fn map(&self, name: &str) -> Outcome {
        let p = match self.find_power(name) {
            Ok(p) => p,
            Err(e) => return Outcome::Rejected(e),
        };
        let rules = self.rules();
        let mut out = Vec::new();
        let mut total = 0;
        for id in rules.board.ids() {
            if self.game.state().space(id).controller == Some(p) {
                let sp = rules.board.space(id);
                total += sp.ipc;
                out.push(format!("{:>3}  {}", sp.ipc, sp.name));
            }
        }
        out.push(format!("{total:>3}  total ({} territories)", out.len()));
        out.extend(self.neutrals_seen_by(p));
        Outcome::Ok(out.join("\n"))
    }

    /// The neutral territories as `p` sees them: which it may take, which it must attack.
    fn neutrals_seen_by(&self, p: warroom_core::rules::PowerId) -> Vec<String> {
        use warroom_core::game::neutrals::{army_size, seen, Seen};
        let rules = self.rules();
        let s = self.game.state();
        let groups = [
            (
                Seen::Friendly,
                "friendly neutrals (land units move in during noncombat move and take them)",
            ),
            (
                Seen::Unfriendly,
                "unfriendly and strict neutrals (entered only as an attack, in combat move)",
            ),
            (
                Seen::JoinedFriendly,
                "attacked, joined your side (take them as friendly neutrals)",
            ),
            (
                Seen::JoinedEnemy,
                "attacked, joined the enemy (held by no power; attack to capture)",
            ),
        ];
        let mut out = Vec::new();
        for (kind, title) in groups {
            let names: Vec<String> = rules
                .board
                .ids()
                .filter(|id| seen(rules, s, p, *id) == Some(kind))
                .map(|id| {
                    let sp = rules.board.space(id);
                    let army = match kind {
                        Seen::Friendly | Seen::Unfriendly => army_size(rules, id),
                        _ => s
                            .space(id)
                            .units
                            .iter()
                            .filter(|u| s.neutrals.army_of(u.id) == Some(id))
                            .count() as u32,
                    };
                    format!("{} ({} IPC, army {army})", sp.name, sp.ipc)
                })
                .collect();
            if !names.is_empty() {
                out.push(format!("{title}: {}", names.join(", ")));
            }
        }
        out
    }

    /// The rules rebuilt from disk; the game replayed under them, or left as it was.
    fn reload(&mut self) -> Outcome {
        use warroom_core::game::reload::ReloadError;
        match self.game.reload(&self.editions) {
            Ok(r) => {
                let layers = r.game.rules().layers.len();
                let commands = r.game.history().len();
                self.game = r.game;
                // The same commands replayed: the undo stack holds the same ones, by the same
                // hands.
                let by_ai = std::mem::take(&mut self.undo_by_ai);
                let stopped = self.game_replaced();
                if by_ai.len() == self.undo_by_ai.len() {
                    self.undo_by_ai = by_ai;
                }
                let commands = match commands {
                    1 => "its one command".to_string(),
                    n => format!("its {n} commands"),
                };
                let mut out = vec![format!(
                    "rules reloaded from disk ({layers} layers); the game replayed under them, {commands}"
                )];
                out.extend(stopped);
                if r.changes.is_empty() {
                    out.push("the board is as it was".into());
                } else {
                    out.push("what changed:".into());
                    out.extend(r.changes.iter().map(|c| format!("  {c}")));
                }
                Outcome::Ok(out.join("\n"))
            }
            Err(e) => {
                let why = match &e {
                    ReloadError::Rules(e) => render::report(e),
                    ReloadError::Scripts(e) => render::report(e),
                    ReloadError::Replay(m) => m.clone(),
                };
                Outcome::Rejected(format!("the game goes on under the rules it had: {why}"))
            }
        }
    }

    fn why(&self, words: &[String]) -> Outcome {
        // `why units.tank.attack`, or `why tank attack` for a unit's field.
        let rules = self.rules();
        let path = match words {
            [unit, field] if rules.unit_type(unit).is_some() => {
                let id = &rules.unit(rules.unit_type(unit).expect("checked")).id;
                let field = if field == "movement" {
                    "move"
                } else {
                    field.as_str()
                };
                format!("units.{id}.{field}")
            }
            [] => return Outcome::Rejected("usage: why units.tank.attack  or  why tank attack".into()),
            _ => words.join(" "),
        };
        match rules.why_dotted(&path) {
            Some((keys, node)) => {
                let mut out = format!(
                    "{} = {}\n  set by {}",
                    keys.join("."),
                    node.render(),
                    rules.describe(&node.origin)
                );
                for o in node.replaced.iter().rev() {
                    out.push_str(&format!("\n  replacing {}", rules.describe(o)));
                }
                Outcome::Ok(out)
            }
            None => Outcome::Rejected(format!("no value at `{path}`")),
        }
    }

    fn record(&mut self, file: &str) -> Outcome {
        if file.is_empty() {
            return Outcome::Rejected("usage: record FILE (a scenario file, e.g. golden.toml)".into());
        }
        let tmp = format!("{file}.tmp");
        let text = warroom_core::scenario::recording(&self.game);
        match std::fs::write(&tmp, &text).and_then(|_| std::fs::rename(&tmp, file)) {
            Ok(()) => Outcome::Ok(format!(
                "recorded {} command(s) to {file}; `warroom replay {file}` checks it against the rules",
                self.game.history().len()
            )),
            Err(e) => Outcome::Rejected(format!("cannot record to {file}: {e}")),
        }
    }

    fn save(&mut self, file: &str) -> Outcome {
        if file.is_empty() {
            return Outcome::Rejected("usage: save FILE".into());
        }
        // Write to a temporary file first so a failed write never destroys an older save.
        let tmp = format!("{file}.tmp");
        let text = self.game.save_text();
        match std::fs::write(&tmp, &text).and_then(|_| std::fs::rename(&tmp, file)) {
            Ok(()) => {
                self.saved_at = self.game.history().len();
                Outcome::Ok(format!(
                    "saved {} command(s) to {file}",
                    self.game.history().len()
                ))
            }
            Err(e) => Outcome::Rejected(format!("cannot save to {file}: {e}")),
        }
    }
}

fn stacks(units: &[warroom_core::game::state::Unit]) -> Vec<(PowerId, warroom_core::rules::UnitTypeId, u32)> {
    let mut out: Vec<(PowerId, warroom_core::rules::UnitTypeId, u32)> = Vec::new();
    for u in units {
        match out.iter_mut().find(|(o, k, _)| *o == u.owner && *k == u.kind) {
            Some((_, _, n)) => *n += 1,
            None => out.push((u.owner, u.kind, 1)),
        }
    }
    out.sort_by_key(|(o, k, _)| (*o, *k));
    out
}

/// What a battle waits for, in words.
fn waiting_for(b: &warroom_core::combat::Battle) -> String {
    use warroom_core::combat::Need;
    match &b.waiting {
        Some(Need::Dice { count, .. }) => format!("{count} dice (`roll`)"),
        Some(Need::Casualties(c)) => format!("the {}'s casualties (`casualties`)", c.side.name()),
        Some(Need::Submerge { side }) => format!("the {}'s submarines (`submerge`)", side.name()),
        Some(Need::PressOrRetreat) => "press or retreat".to_string(),
        None => "nothing".to_string(),
    }
}

/// Units of a side by owner and type: `Germany 2 Infantry, 1 Tank + Italy 1 Fighter`.
fn side_text(
    rules: &RuleSet,
    units: impl Iterator<Item = (PowerId, warroom_core::rules::UnitTypeId)>,
) -> String {
    use warroom_core::rules::UnitTypeId;
    let mut groups: Vec<(PowerId, Vec<(UnitTypeId, u32)>)> = Vec::new();
    for (owner, kind) in units {
        let i = match groups.iter().position(|(o, _)| *o == owner) {
            Some(i) => i,
            None => {
                groups.push((owner, Vec::new()));
                groups.len() - 1
            }
        };
        match groups[i].1.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => groups[i].1.push((kind, 1)),
        }
    }
    if groups.is_empty() {
        return "nothing".into();
    }
    groups.sort_by_key(|(o, _)| *o);
    groups
        .into_iter()
        .map(|(owner, mut kinds)| {
            kinds.sort();
            let kinds: Vec<String> = kinds
                .iter()
                .map(|(k, n)| format!("{n} {}", rules.unit(*k).name))
                .collect();
            format!("{} {}", rules.power_info(owner).name, kinds.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The commands' help (the layers' commands after the engine's), or one command's.
fn help(topic: &str, layers: &[warroom_core::rules::LayerCommand]) -> String {
    let topic = topic.trim().to_lowercase();
    if !topic.is_empty() {
        if let Some(c) = layers.iter().find(|c| c.name == topic) {
            let args: Vec<String> = c.args.iter().map(|a| a.name.to_uppercase()).collect();
            return format!(
                "{} {}: {} (a command of a layer in play)\n  e.g. {}",
                c.name,
                args.join(" "),
                c.help,
                c.example
            );
        }
        if let Some((name, ex, what)) = HELP.iter().find(|(n, _, _)| *n == topic) {
            let mut text = format!("{name}: {what}\n  e.g. {ex}");
            if *name == "dice" {
                text.push_str(&format!("\n  {}", warroom_core::game::command::DICE_USAGE));
            }
            return text;
        }
        let mut names: Vec<&str> = HELP.iter().map(|(n, _, _)| *n).collect();
        names.extend(layers.iter().map(|c| c.name.as_str()));
        let hint = warroom_core::tree::closest_key(&topic, names.iter().copied())
            .map(|n| format!("; did you mean `{n}`?"))
            .unwrap_or_else(|| "; `help` lists them".to_string());
        return format!("no command `{topic}`{hint}");
    }
    let mut text = HELP
        .iter()
        .map(|(n, ex, what)| format!("  {n:<10} {what:<60} e.g. {ex}"))
        .collect::<Vec<_>>()
        .join("\n");
    if !layers.is_empty() {
        text.push_str("\nCommands of the layers in play:");
        for c in layers {
            text.push_str(&format!("\n  {:<10} {:<60} e.g. {}", c.name, c.help, c.example));
        }
    }
    text.push_str(
        "\nNames: any case; unit abbreviations (inf, arm, ftr) and plurals; sea zones as `sz 5`; \
         a space, power or unit by an unambiguous prefix (`kar`, `eastern eu`, `w rus`, `ger`).",
    );
    text
}

/// Where the shell keeps its history: $WARROOM_HISTORY, or ~/.warroom_history.
fn history_file() -> Option<PathBuf> {
    match std::env::var_os("WARROOM_HISTORY") {
        Some(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".warroom_history")),
    }
}

/// The command an empty line stands for while a battle waits: take the suggested casualties,
/// or press on.
fn enter_default(game: &Game) -> Option<&'static str> {
    use warroom_core::combat::Need;
    match game.state().combat.as_ref()?.waiting.as_ref()? {
        Need::Casualties(_) => Some("casualties"),
        Need::PressOrRetreat => Some("press"),
        Need::Dice { .. } | Need::Submerge { .. } => None,
    }
}

/// What the battle being fought waits for, for the prompt: `Karelia: roll 3 dice`.
fn question(rules: &RuleSet, b: &warroom_core::combat::Battle) -> Option<String> {
    use warroom_core::combat::{Need, Side};
    let what = match b.waiting.as_ref()? {
        Need::Dice { count, .. } => format!("roll {count} {}", if *count == 1 { "die" } else { "dice" }),
        Need::Casualties(call) => {
            let hits: u32 = call.hits.iter().map(|h| h.count).sum();
            let mut kinds: Vec<(warroom_core::rules::UnitTypeId, u32)> = Vec::new();
            for &i in &call.suggested {
                let k = b.units[i].kind;
                match kinds.iter_mut().find(|(x, _)| *x == k) {
                    Some((_, n)) => *n += 1,
                    None => kinds.push((k, 1)),
                }
            }
            let takes: Vec<String> = kinds
                .iter()
                .map(|(k, n)| format!("{n} {}", rules.unit(*k).name.to_lowercase()))
                .collect();
            let whose = match b.powers(call.side, true).as_slice() {
                _ if call.chooser != call.side => {
                    format!(
                        "{} chooses the {}'s ",
                        rules.power_info(b.attacker).name,
                        call.side.name()
                    )
                }
                [one] => format!("{}'s ", rules.power_info(*one).name),
                _ if call.side == Side::Defender => "the defenders' ".to_string(),
                _ => String::new(),
            };
            format!(
                "{whose}casualties ({hits} hit{}; Enter takes {})",
                if hits == 1 { "" } else { "s" },
                if takes.is_empty() {
                    "nothing".to_string()
                } else {
                    takes.join(", ")
                }
            )
        }
        Need::Submerge { side } => format!("submerge the {}'s submarines?", side.name()),
        Need::PressOrRetreat => "press or retreat (Enter presses)".to_string(),
    };
    Some(format!("{}: {what}", rules.board.space(b.space).name))
}

#[cfg(test)]
mod tests {
    /// Every command `warroom play` reads before the game's (its `help` table) is one a layer
    /// may not take.
    #[test]
    fn the_shells_verbs_are_reserved() {
        for (v, _, _) in super::HELP {
            assert!(
                warroom_core::rules::BUILT_IN_VERBS.contains(v),
                "`{v}` is not reserved"
            );
        }
    }
}
