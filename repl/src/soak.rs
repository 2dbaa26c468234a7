//! `warroom soak`: random games by the thousand, the engine's invariants checked after every
//! command (warroom_core::soak). A failure is written out as a save and a scenario that
//! reproduce it.

use crate::test::jobs;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use warroom_core::game::save;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, RuleSet};
use warroom_core::soak::{self, Checks, Failure, GameSpec};

#[derive(clap::Args)]
pub struct Args {
    /// Editions to play (each of its scenarios in turn). Default: the editions that play by
    /// the rulebook — 1941, Anniversary (both scenarios) without and with research and
    /// national objectives, and Europe 1940.
    #[arg(value_name = "EDITION")]
    play: Vec<String>,
    /// Optional layer for every game: NAME, NAME=VALUE, NAME:PARAM=VALUE or a folder.
    #[arg(long = "with", value_name = "LAYER")]
    with: Vec<String>,
    /// Only this scenario of each edition.
    #[arg(long)]
    scenario: Option<String>,
    /// How many games in all, spread over the editions and scenarios in turn.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Rounds per game (a game won earlier ends then).
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// The first game's seed; game i plays with seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Where failures are written (a save and a scenario each).
    #[arg(long, default_value = "soak-failures")]
    out: PathBuf,
    /// Skip the replay of each game (same seed, same game) — faster, less checked.
    #[arg(long)]
    no_replay: bool,
    /// Skip save → load → save of each game — faster, less checked.
    #[arg(long)]
    no_save_check: bool,
    /// Print every command of every game as it is applied (with --jobs 1, a readable game).
    #[arg(long)]
    trace: bool,
    /// At the end, list the refused candidates by command and rule, most first: where the
    /// random player's draws are wasted (candidates the rules surely refuse should not be
    /// proposed).
    #[arg(long)]
    refusals: bool,
}

/// What a game's watcher does: print each command applied (`--trace`), count refusals by
/// command and rule (`--refusals`).
struct Listen {
    trace: bool,
    refusals: Option<std::collections::HashMap<String, u64>>,
}

impl soak::Watch for Listen {
    fn applied(&mut self, game: &warroom_core::game::Game, cmd: &str, output: &[String]) {
        if !self.trace {
            return;
        }
        let s = game.state();
        eprintln!("[seed {} round {}] {cmd}", game.origin().seed, s.round);
        for l in output {
            eprintln!("    {l}");
        }
    }
    fn refused(
        &mut self,
        game: &warroom_core::game::Game,
        cmd: &warroom_core::game::command::Command,
        why: &warroom_core::game::Rejection,
    ) {
        let Some(counts) = &mut self.refusals else { return };
        let text = cmd.to_text(game.rules());
        let verb = if text.starts_with("end phase") {
            "end phase"
        } else {
            text.split(' ').next().unwrap_or("")
        };
        let key = format!(
            "`{verb}` in {} [{}]",
            game.current_phase().id,
            why.rule.as_deref().unwrap_or("no rule named")
        );
        *counts.entry(key).or_default() += 1;
    }
}

/// One configuration the games rotate through.
struct Config {
    edition: String,
    with: Vec<String>,
    scenarios: Vec<String>,
    rules: Arc<RuleSet>,
}

/// The matrix played when no edition is named: the editions whose rules are complete.
fn default_matrix() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("1941", vec![]),
        ("anniversary", vec![]),
        ("anniversary", vec!["research"]),
        ("anniversary", vec!["national-objectives"]),
        ("anniversary", vec!["research", "national-objectives"]),
        ("europe1940", vec![]),
    ]
}

pub fn run(editions: &Path, a: Args) -> ExitCode {
    let wanted: Vec<(String, Vec<String>)> = if a.play.is_empty() {
        default_matrix()
            .into_iter()
            .map(|(e, w)| {
                let mut with: Vec<String> = w.into_iter().map(String::from).collect();
                with.extend(a.with.iter().cloned());
                (e.to_string(), with)
            })
            .collect()
    } else {
        a.play.iter().map(|e| (e.clone(), a.with.clone())).collect()
    };
    let mut configs = Vec::new();
    for (edition, with) in wanted {
        let mut req = LoadRequest::new(editions, edition.clone());
        req.with = with.clone();
        let rules = match rules::load(&req) {
            Ok(r) => Arc::new(r),
            Err(e) => {
                eprintln!("{:?}", miette::Report::new(e));
                return ExitCode::from(2);
            }
        };
        let scenarios: Vec<String> = match &a.scenario {
            Some(s) if rules.scenario(s).is_some() => vec![s.clone()],
            Some(s) => {
                eprintln!("warroom soak: {edition} has no scenario `{s}`");
                return ExitCode::from(2);
            }
            None => rules.scenarios.iter().map(|s| s.id.clone()).collect(),
        };
        configs.push(Config {
            edition,
            with,
            scenarios,
            rules,
        });
    }
    // Every (configuration, scenario) pair in turn.
    let slots: Vec<(usize, String)> = configs
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.scenarios.iter().map(move |s| (i, s.clone())))
        .collect();
    let checks = Checks {
        replay: !a.no_replay,
        save_round_trip: !a.no_save_check,
    };
    let bar = ProgressBar::new(a.games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicU64::new(0);
    let commands = AtomicU64::new(0);
    let refused = AtomicU64::new(0);
    let failed = AtomicUsize::new(0);
    let done = AtomicU64::new(0);
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let failures: Mutex<Vec<(GameSpec, Vec<String>)>> = Mutex::new(Vec::new());
    let refusals: Mutex<std::collections::HashMap<String, u64>> = Mutex::new(Default::default());
    let start = Instant::now();
    let threads = jobs(a.jobs).max(1).min(a.games.max(1) as usize);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= a.games {
                    break;
                }
                let (c, scenario) = &slots[(i % slots.len() as u64) as usize];
                let config = &configs[*c];
                let spec = GameSpec {
                    edition: config.edition.clone(),
                    with: config.with.clone(),
                    scenario: Some(scenario.clone()),
                    seed: a.seed.wrapping_add(i),
                    rounds: a.rounds,
                };
                let load = |text: &str| {
                    save::open(Path::new("soak.save.toml"), text.as_bytes(), editions)
                        .map(|l| (l.game, l.warnings.iter().map(|w| w.to_string()).collect()))
                        .map_err(|e| format!("{:?}", miette::Report::new(e)))
                };
                let mut listen = Listen {
                    trace: a.trace,
                    refusals: a.refusals.then(Default::default),
                };
                let played = soak::play(&config.rules, &spec, checks, &load, &mut listen);
                if let Some(counts) = listen.refusals {
                    let mut all = refusals.lock().unwrap_or_else(|e| e.into_inner());
                    for (k, n) in counts {
                        *all.entry(k).or_default() += n;
                    }
                }
                match played {
                    Ok(p) => {
                        commands.fetch_add(p.commands, Ordering::Relaxed);
                        refused.fetch_add(p.rejected, Ordering::Relaxed);
                    }
                    Err(f) => {
                        failed.fetch_add(1, Ordering::Relaxed);
                        bar.set_message(format!("{} failed", failed.load(Ordering::Relaxed)));
                        // Written at once: a long run stopped early keeps what it found.
                        let lines = report_failure(&a.out, &spec, &f);
                        bar.suspend(|| {
                            for l in &lines {
                                println!("{l}");
                            }
                        });
                        failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push((spec, lines));
                    }
                }
                bar.inc(1);
                // Without a terminal the bar is not drawn: a plain line every 5% instead.
                let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                if !tty && a.games >= 20 && done.is_multiple_of(a.games / 20) {
                    eprintln!(
                        "{done}/{} games, {} failed, {:.0} s",
                        a.games,
                        failed.load(Ordering::Relaxed),
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let games = a.games;
    let commands = commands.load(Ordering::Relaxed);
    let mut failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    // Again at the end, in seed order, so the summary holds them all.
    failures.sort_by_key(|(s, _)| s.seed);
    for (_, lines) in &failures {
        for l in lines {
            println!("{l}");
        }
    }
    println!(
        "{games} games, {commands} commands ({} candidates refused on the way) in {secs:.1} s: {:.0} commands/s, {:.1} games/s on {threads} thread(s)",
        refused.load(Ordering::Relaxed),
        commands as f64 / secs,
        games as f64 / secs,
    );
    if a.refusals {
        let all = refusals.into_inner().unwrap_or_else(|e| e.into_inner());
        let mut by: Vec<(String, u64)> = all.into_iter().collect();
        by.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.cmp(&y.0)));
        println!("refused candidates, by command, phase and rule (most first):");
        for (k, n) in by.iter().take(20) {
            println!("{n:>10}  {k}");
        }
        if by.len() > 20 {
            println!(
                "{:>10}  ({} more kinds)",
                by.iter().skip(20).map(|(_, n)| n).sum::<u64>(),
                by.len() - 20
            );
        }
    }
    println!(
        "{} passed, {} failed",
        games - failures.len() as u64,
        failures.len()
    );
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Write a failure out; the lines that report it.
fn report_failure(out: &Path, spec: &GameSpec, f: &Failure) -> Vec<String> {
    let stem = format!(
        "{}{}-{}-seed{}",
        spec.edition.replace(['/', '\\'], "_"),
        spec.with
            .iter()
            .map(|w| format!("+{}", w.replace(['/', '\\', ':', '='], "_")))
            .collect::<String>(),
        spec.scenario.as_deref().unwrap_or("default"),
        spec.seed
    );
    let mut lines = vec![format!("FAIL {stem}: {f}")];
    lines.push(match write_failure(out, &stem, f) {
        Ok((save, scenario)) => format!(
            "  replay: warroom play --load {}   (scenario: {})",
            save.display(),
            scenario.display()
        ),
        Err(e) => format!("  could not write the failure to {}: {e}", out.display()),
    });
    lines
}

fn write_failure(out: &Path, stem: &str, f: &Failure) -> std::io::Result<(PathBuf, PathBuf)> {
    std::fs::create_dir_all(out)?;
    let save = out.join(format!("{stem}.save.toml"));
    let scenario = out.join(format!("{stem}.scenario.toml"));
    let head = format!(
        "# warroom soak: invariant `{}` broken{}\n# {}\n",
        f.invariant,
        f.command
            .as_ref()
            .map(|c| format!(" at `{c}`"))
            .unwrap_or_default(),
        f.message.replace('\n', "\n# ")
    );
    std::fs::write(&save, format!("{head}{}", f.save))?;
    std::fs::write(&scenario, format!("{head}{}", f.scenario))?;
    Ok((save, scenario))
}
