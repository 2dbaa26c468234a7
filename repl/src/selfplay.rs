//! `warroom selfplay`: whole games played by the computer opponent, against itself or against
//! the random player (warroom_core::selfplay), and the wins of each side with their confidence
//! intervals: what tells a house-rule author whether a rule (a bid of 8, say) balances the game.
//!
//! Also home of `--ai WHO`, which `warroom play` shares: a side, powers by name, or `all`.

use crate::test::jobs;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, PowerId, RuleSet};
use warroom_core::selfplay::{self, wilson, Brain, Ended, Told};
use warroom_core::soak::GameSpec;

/// Who plays the powers `--ai` leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Against {
    /// The computer opponent plays every power.
    Ai,
    /// The random player of `warroom soak` plays the others.
    Random,
}

#[derive(clap::Args)]
pub struct Args {
    /// The edition to play (default: 1941).
    #[arg(value_name = "EDITION")]
    edition: Option<String>,
    /// Optional layer for every game: NAME, NAME=VALUE, NAME:PARAM=VALUE or a folder.
    #[arg(long = "with", value_name = "LAYER")]
    with: Vec<String>,
    /// The scenario (default: the edition's own).
    #[arg(long)]
    scenario: Option<String>,
    /// How many games.
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// The first game's seed; game i plays with seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game not won by then is counted undecided.
    #[arg(long, default_value_t = 30)]
    rounds: u32,
    /// Games played at once (default: one per core; 1 with --trace).
    #[arg(long)]
    jobs: Option<usize>,
    /// Who the AI plays: a side (`axis`), powers (`Germany,Japan`) or `all`. Default: every
    /// power; with `--against random`, each side in turn, in alternate games.
    #[arg(long, value_name = "WHO")]
    ai: Option<String>,
    /// Who plays the powers `--ai` leaves out.
    #[arg(long, value_enum, default_value_t = Against::Ai)]
    against: Against,
    /// Print every command with its power, who chose it and the AI's reason (best with one
    /// game: the games are played one at a time).
    #[arg(long)]
    trace: bool,
    /// Where the save of a game that fails is written (`warroom play --load` it).
    #[arg(long, default_value = "selfplay-failures", value_name = "DIR")]
    failures: std::path::PathBuf,
}

/// The sides of the rules, in the order their first power comes in `rules.powers`.
pub fn sides(rules: &RuleSet) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in rules.powers.iter().filter(|p| p.economy_of.is_none()) {
        if !out.iter().any(|s| s.eq_ignore_ascii_case(&p.side)) {
            out.push(p.side.clone());
        }
    }
    out
}

/// The powers a side (or `all`, or a comma-separated list of sides and powers) names: `--ai`.
/// A power's second economy goes with it. An unknown name is an error listing the valid ones.
pub fn ai_powers(rules: &RuleSet, who: &str) -> Result<Vec<PowerId>, String> {
    let all: Vec<PowerId> = (0..rules.powers.len()).map(|i| PowerId(i as u8)).collect();
    let mut out: Vec<PowerId> = Vec::new();
    let words: Vec<&str> = who.split(',').map(str::trim).filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return Err(format!("--ai: say who the AI plays: {}", valid_names(rules)));
    }
    for w in words {
        let named: Vec<PowerId> = if w.eq_ignore_ascii_case("all") {
            all.clone()
        } else if let Some(side) = sides(rules).iter().find(|s| s.eq_ignore_ascii_case(w)) {
            all.iter()
                .copied()
                .filter(|p| rules.power_info(*p).side == *side)
                .collect()
        } else {
            match warroom_core::game::command::resolve_power(rules, w) {
                Ok(p) => vec![p],
                Err(_) => return Err(format!("--ai: no side or power `{w}`; {}", valid_names(rules))),
            }
        };
        for p in named {
            // The power, and its economies (`economy_of`), which it plays with.
            for q in all.iter().copied() {
                let info = rules.power_info(q);
                if (q == p || info.economy_of == Some(p)) && !out.contains(&q) {
                    out.push(q);
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

fn valid_names(rules: &RuleSet) -> String {
    let powers: Vec<&str> = rules
        .powers
        .iter()
        .filter(|p| p.economy_of.is_none())
        .map(|p| p.name.as_str())
        .collect();
    format!(
        "sides: {}; powers: {} (comma-separated); or `all`",
        sides(rules).join(", "),
        powers.join(", ")
    )
}

/// Who the AI plays in one game.
#[derive(Clone)]
enum Cast {
    /// These powers (the others: `--against`).
    Powers(Vec<PowerId>),
    /// `--against random` without `--ai`: the side of index `game % sides` is the AI's.
    Alternate(Vec<String>),
}

impl Cast {
    /// The powers the AI plays in game `i`.
    fn ai_in(&self, rules: &RuleSet, i: u64) -> Vec<PowerId> {
        match self {
            Cast::Powers(p) => p.clone(),
            Cast::Alternate(sides) => {
                let side = &sides[(i % sides.len() as u64) as usize];
                (0..rules.powers.len())
                    .map(|i| PowerId(i as u8))
                    .filter(|p| rules.power_info(*p).side == *side)
                    .collect()
            }
        }
    }
}

/// One game's result, as the report counts it.
struct Played {
    seed: u64,
    /// The sides all of whose powers the AI played, and the sides it played none of.
    ai_sides: Vec<String>,
    other_sides: Vec<String>,
    result: Result<Ended, selfplay::Failed>,
    time: Duration,
}

pub fn run(editions: &Path, a: Args) -> ExitCode {
    let edition = a
        .edition
        .clone()
        .unwrap_or_else(|| crate::DEFAULT_EDITION.to_string());
    let mut req = LoadRequest::new(editions, edition.clone());
    req.with = a.with.clone();
    let rules = match rules::load(&req) {
        Ok(r) => Arc::new(r),
        Err(e) => {
            eprintln!("{:?}", miette::Report::new(e));
            return ExitCode::from(2);
        }
    };
    if let Some(s) = &a.scenario {
        if rules.scenario(s).is_none() {
            let known: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
            eprintln!(
                "warroom selfplay: {edition} has no scenario `{s}`; scenarios: {}",
                known.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let cast = match (&a.ai, a.against) {
        (Some(who), _) => match ai_powers(&rules, who) {
            Ok(p) => Cast::Powers(p),
            Err(e) => {
                eprintln!("warroom selfplay: {e}");
                return ExitCode::from(2);
            }
        },
        (None, Against::Ai) => Cast::Powers((0..rules.powers.len()).map(|i| PowerId(i as u8)).collect()),
        (None, Against::Random) => Cast::Alternate(sides(&rules)),
    };
    if a.games == 0 {
        eprintln!("warroom selfplay: --games 0 plays nothing; say how many games");
        return ExitCode::from(2);
    }
    let threads = if a.trace {
        if a.jobs.is_some_and(|j| j > 1) {
            eprintln!("warroom selfplay: --trace plays one game at a time (--jobs 1)");
        }
        1
    } else {
        jobs(a.jobs).max(1).min(a.games as usize)
    };
    println!("{}", heading(&rules, &edition, &a, &cast));
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar = if a.trace || !tty {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(a.games)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let results: Mutex<Vec<Played>> = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= a.games {
                    break;
                }
                let spec = GameSpec {
                    edition: edition.clone(),
                    with: a.with.clone(),
                    scenario: a.scenario.clone(),
                    seed: a.seed.wrapping_add(i),
                    rounds: a.rounds,
                };
                let ai = cast.ai_in(&rules, i);
                let brain = |p: PowerId| {
                    if ai.contains(&p) {
                        Brain::Ai
                    } else {
                        match a.against {
                            Against::Ai => Brain::Ai,
                            Against::Random => Brain::Random,
                        }
                    }
                };
                let (ai_sides, other_sides) = split_sides(&rules, &|p| brain(p) == Brain::Ai);
                let began = Instant::now();
                // `watch` hears a command after it was applied: the round it was given in is
                // the one the command before it left.
                let mut round = 1;
                let mut watch = |game: &warroom_core::game::Game, told: &Told| {
                    if a.trace {
                        trace(game, round, told);
                    }
                    round = game.state().round;
                };
                let result = selfplay::play(&rules, &spec, &brain, &mut watch);
                let time = began.elapsed();
                if let Err(e) = &result {
                    let kept = keep_failure(&a.failures, &edition, spec.seed, &e.save);
                    bar.suspend(|| {
                        println!("FAIL seed {}: {e}", spec.seed);
                        match kept {
                            Ok(Some(path)) => {
                                println!("  the game so far: warroom play --load {}", path.display())
                            }
                            Ok(None) => {}
                            Err(why) => println!("  its save could not be written: {why}"),
                        }
                    });
                }
                results.lock().unwrap_or_else(|e| e.into_inner()).push(Played {
                    seed: spec.seed,
                    ai_sides,
                    other_sides,
                    result,
                    time,
                });
                bar.inc(1);
                let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                // Without a terminal the bar is not drawn: a plain line every 5% instead.
                if !tty && !a.trace && a.games >= 20 && done.is_multiple_of(a.games / 20) {
                    eprintln!("{done}/{} games, {:.0} s", a.games, start.elapsed().as_secs_f64());
                }
            });
        }
    });
    bar.finish_and_clear();
    let wall = start.elapsed();
    let mut played = results.into_inner().unwrap_or_else(|e| e.into_inner());
    played.sort_by_key(|p| p.seed);
    for line in report(&rules, &a, &played, wall, threads) {
        println!("{line}");
    }
    if played.iter().any(|p| p.result.is_err()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The sides whose every power the AI plays, and those it plays none of.
fn split_sides(rules: &RuleSet, is_ai: &dyn Fn(PowerId) -> bool) -> (Vec<String>, Vec<String>) {
    let mut ai = Vec::new();
    let mut other = Vec::new();
    for side in sides(rules) {
        let powers: Vec<PowerId> = (0..rules.powers.len())
            .map(|i| PowerId(i as u8))
            .filter(|p| rules.power_info(*p).side == side)
            .collect();
        if powers.iter().all(|p| is_ai(*p)) {
            ai.push(side);
        } else if !powers.iter().any(|p| is_ai(*p)) {
            other.push(side);
        }
    }
    (ai, other)
}

/// The first line: what is played, by whom.
fn heading(rules: &RuleSet, edition: &str, a: &Args, cast: &Cast) -> String {
    let scenario = a
        .scenario
        .clone()
        .or_else(|| rules.default_scenario.clone())
        .or_else(|| rules.scenarios.first().map(|s| s.id.clone()))
        .unwrap_or_default();
    let mut with = String::new();
    if !a.with.is_empty() {
        with = format!(" with {}", a.with.join(", "));
    }
    let names = |ps: &[PowerId]| {
        ps.iter()
            .filter(|p| rules.power_info(**p).economy_of.is_none())
            .map(|p| rules.power_info(*p).name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let who = match (cast, a.against) {
        (Cast::Alternate(sides), _) => format!(
            "the AI against the random player, the AI playing {} in turn",
            sides.join(", then ")
        ),
        (Cast::Powers(p), Against::Random) if p.is_empty() => "the random player only".to_string(),
        (Cast::Powers(p), Against::Random) => {
            format!("the AI playing {} against the random player", names(p))
        }
        (Cast::Powers(_), Against::Ai) => "the AI against itself".to_string(),
    };
    let last = a.seed.wrapping_add(a.games - 1);
    format!(
        "selfplay {edition}{with}, scenario {scenario}: {} game{} of at most {} rounds, seeds {}..={last}, {who}",
        a.games,
        if a.games == 1 { "" } else { "s" },
        a.rounds,
        a.seed
    )
}

/// `--trace`: one line per command, the AI's reason under it, then what the game said.
fn trace(game: &warroom_core::game::Game, round: u32, told: &Told) {
    let rules = game.rules();
    let who = match told.brain {
        Brain::Ai => "AI",
        Brain::Random => "random",
    };
    println!(
        "[seed {} round {}] {} ({who}): {}",
        game.origin().seed,
        round,
        rules.power_info(told.power).name,
        told.text
    );
    if let Some(r) = &told.reason {
        println!("    why: {r}");
    }
    for l in &told.output {
        println!("    {l}");
    }
}

fn percent(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// A count out of `games`, its share and its 95 % interval: `4 of 10 (40%, 95% CI 17%-69%)`.
fn share(wins: u64, games: u64) -> String {
    let (p, low, high) = wilson(wins, games);
    format!(
        "{wins} of {games} ({}, 95% CI {}-{})",
        percent(p),
        percent(low),
        percent(high)
    )
}

/// The report: wins per side with their intervals, undecided games, length, speed, the AI's
/// record against the random player, and the games that failed.
fn report(rules: &RuleSet, a: &Args, played: &[Played], wall: Duration, threads: usize) -> Vec<String> {
    let mut out = Vec::new();
    let games = played.len() as u64;
    let ok: Vec<(&Played, &Ended)> = played
        .iter()
        .filter_map(|p| p.result.as_ref().ok().map(|e| (p, e)))
        .collect();
    let failed = games - ok.len() as u64;
    let finished = ok.len() as u64;
    let names = sides(rules);
    let width = names
        .iter()
        .map(|s| s.len())
        .max()
        .unwrap_or(0)
        .max("undecided".len());
    out.push(format!(
        "wins by side, of {finished} games played to the end or the round limit:"
    ));
    for side in &names {
        let wins = ok
            .iter()
            .filter(|(_, e)| e.winner.as_deref().is_some_and(|w| w.eq_ignore_ascii_case(side)))
            .count() as u64;
        out.push(format!("  {side:<width$}  won {}", share(wins, finished)));
    }
    // A winner the rules name that is no side of the powers (should not happen): counted apart.
    let odd = ok
        .iter()
        .filter(|(_, e)| {
            e.winner
                .as_deref()
                .is_some_and(|w| !names.iter().any(|s| s.eq_ignore_ascii_case(w)))
        })
        .count();
    if odd > 0 {
        out.push(format!("  {odd} game(s) won by a side no power is on"));
    }
    let undecided = ok.iter().filter(|(_, e)| e.winner.is_none()).count() as u64;
    out.push(format!(
        "  {:<width$}  {undecided} (no winner within {} rounds)",
        "undecided", a.rounds
    ));
    let decided: Vec<u32> = ok
        .iter()
        .filter(|(_, e)| e.winner.is_some())
        .map(|(_, e)| e.rounds)
        .collect();
    if decided.is_empty() {
        out.push("no game was decided".to_string());
    } else {
        let mean = f64::from(decided.iter().sum::<u32>()) / decided.len() as f64;
        out.push(format!(
            "decided games lasted {mean:.1} rounds on average (shortest {}, longest {})",
            decided.iter().min().copied().unwrap_or(0),
            decided.iter().max().copied().unwrap_or(0)
        ));
    }
    // The AI against the random player: games where the AI played whole sides and the random
    // player the others.
    if a.against == Against::Random {
        let measured: Vec<&(&Played, &Ended)> = ok
            .iter()
            .filter(|(p, _)| !p.ai_sides.is_empty() && !p.other_sides.is_empty())
            .collect();
        if measured.is_empty() {
            out.push(
                "the AI's record against the random player: no game where the AI played whole sides against it"
                    .to_string(),
            );
        } else {
            let won = |list: &[&&(&Played, &Ended)]| {
                list.iter()
                    .filter(|(p, e)| {
                        e.winner
                            .as_deref()
                            .is_some_and(|w| p.ai_sides.iter().any(|s| s.eq_ignore_ascii_case(w)))
                    })
                    .count() as u64
            };
            let all: Vec<&&(&Played, &Ended)> = measured.iter().collect();
            out.push(format!(
                "the AI against the random player won {}",
                share(won(&all), all.len() as u64)
            ));
            for side in &names {
                let as_side: Vec<&&(&Played, &Ended)> = measured
                    .iter()
                    .filter(|(p, _)| p.ai_sides.iter().any(|s| s == side))
                    .collect();
                if !as_side.is_empty() && as_side.len() < all.len() {
                    let label = format!("playing {side}:");
                    out.push(format!(
                        "  {label:<w$} won {}",
                        share(won(&as_side), as_side.len() as u64),
                        w = width + "playing :".len()
                    ));
                }
            }
        }
    }
    let secs = wall.as_secs_f64().max(1e-9);
    let commands: u64 = ok.iter().map(|(_, e)| e.commands).sum();
    let ai_commands: u64 = ok.iter().map(|(_, e)| e.ai_commands).sum();
    let per_game = played.iter().map(|p| p.time.as_secs_f64()).sum::<f64>() / games.max(1) as f64;
    out.push(format!(
        "{games} game{} in {secs:.1} s on {threads} thread(s): {:.2} games/s, {per_game:.1} s a game; {commands} commands, {ai_commands} chosen by the AI",
        if games == 1 { "" } else { "s" },
        games as f64 / secs,
    ));
    if failed > 0 {
        out.push(format!("{failed} game(s) failed:"));
        for p in played {
            if let Err(e) = &p.result {
                out.push(format!("  seed {}: {e}", p.seed));
                out.push(format!("    replay: {}", replay_command(a, p)));
            }
        }
    }
    out
}

/// Write a failed game's save into `dir` (made if missing); its path, or `None` when the game
/// had not begun.
fn keep_failure(
    dir: &Path,
    edition: &str,
    seed: u64,
    save: &str,
) -> Result<Option<std::path::PathBuf>, String> {
    if save.is_empty() {
        return Ok(None);
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let name: String = edition
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    let path = dir.join(format!("{name}-seed-{seed}.save"));
    std::fs::write(&path, save).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(path))
}

/// The command that plays one game again, traced.
fn replay_command(a: &Args, p: &Played) -> String {
    let seed = p.seed;
    let mut cmd = format!(
        "warroom selfplay {}",
        a.edition.as_deref().unwrap_or(crate::DEFAULT_EDITION)
    );
    for w in &a.with {
        cmd.push_str(&format!(" --with {w}"));
    }
    if let Some(s) = &a.scenario {
        cmd.push_str(&format!(" --scenario {s}"));
    }
    cmd.push_str(&format!(" --games 1 --seed {seed} --rounds {}", a.rounds));
    // Sides taken in turn: the one this game gave the AI, named.
    let who = match (&a.ai, a.against) {
        (Some(who), _) => Some(who.clone()),
        (None, Against::Random) => Some(p.ai_sides.join(",")),
        (None, Against::Ai) => None,
    };
    if let Some(who) = who {
        if who.contains(' ') {
            cmd.push_str(&format!(" --ai \"{who}\""));
        } else {
            cmd.push_str(&format!(" --ai {who}"));
        }
    }
    if a.against == Against::Random {
        cmd.push_str(" --against random");
    }
    cmd.push_str(" --trace");
    cmd
}
