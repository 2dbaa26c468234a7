//! `warroom`: the only place that prints. Everything it shows comes from warroom-core.

mod api;
mod check;
mod complete;
mod odds;
mod play;
mod render;
mod selfplay;
mod soak;
mod test;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

// Random games, odds and replays allocate and free small vectors by the million (a command is
// tried on a copy of the state); mimalloc serves them about twice as fast as the system
// allocator, which was a fifth of the soak's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "warroom",
    version,
    about = "Axis & Allies editions as data: play, check, import"
)]
struct Cli {
    /// The folder holding the editions (default: the nearest `editions/` above the current
    /// directory, or $WARROOM_EDITIONS).
    #[arg(long, global = true)]
    editions: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play a game at the terminal (or run commands from a pipe).
    Play {
        /// Edition name or folder (default: 1941).
        edition: Option<String>,
        #[arg(long)]
        scenario: Option<String>,
        /// Optional layer: NAME, NAME=VALUE, NAME:PARAM=VALUE or a folder.
        #[arg(long = "with", value_name = "LAYER")]
        with: Vec<String>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Continue a saved game.
        #[arg(long)]
        load: Option<PathBuf>,
        /// Batch mode: exit non-zero at the first rejected command, or when the input ends while the game waits for an answer.
        #[arg(long)]
        strict: bool,
        /// How many people play: the powers are dealt to them by the edition's rules.
        #[arg(long, value_name = "N")]
        players: Option<u32>,
        /// The powers the computer plays: a side (`axis`), powers (`Germany,Japan`) or `all`.
        /// Its turns are shown command by command with its reasons; you play the others.
        #[arg(long, value_name = "POWERS")]
        ai: Option<String>,
        /// Milliseconds between the AI's commands at a terminal (default 400; 0: no pause).
        #[arg(long, value_name = "MS")]
        ai_pace: Option<u64>,
        /// The AI plays up to the end of this round, then hands every power to you (default:
        /// to the end of the game).
        #[arg(long, value_name = "N")]
        ai_rounds: Option<u32>,
    },
    /// Check editions and layers; report every problem with its file and line.
    Check {
        /// Edition names or folders (default: every edition).
        targets: Vec<String>,
    },
    /// List editions, their scenarios and optional layers.
    Editions,
    /// Run regression scenarios (default: tests/scenarios); `--diff LAYER` lists what a layer
    /// changes.
    Test {
        /// Scenario files and folders.
        paths: Vec<PathBuf>,
        /// Run the scenarios with this layer too: NAME, NAME=VALUE or a folder.
        #[arg(long = "with", value_name = "LAYER")]
        with: Vec<String>,
        /// Run each scenario without and with this layer and list the ones whose outcome
        /// changes, and how.
        #[arg(long, value_name = "LAYER")]
        diff: Option<String>,
        /// Scenarios run at once (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
    },
    /// Replay a recorded game (`record FILE` in play) against the current rules and report the
    /// first command whose result, output or state differs.
    Replay {
        file: PathBuf,
        /// Replay with this layer added: NAME, NAME=VALUE or a folder.
        #[arg(long = "with", value_name = "LAYER")]
        with: Vec<String>,
    },
    /// A battle's odds: exact when the chain can express it, else Monte Carlo through the
    /// battle code. `warroom odds "10 inf, 5 tank, 3 ftr" vs "12 inf, 2 tank, 1 aa"`.
    Odds(odds::Args),
    /// Random games by the thousand, the engine's invariants checked after every command;
    /// failures written out as saves and scenarios that reproduce them.
    Soak(soak::Args),
    /// Whole games played by the computer opponent, against itself or the random player: wins
    /// per side with their 95% confidence intervals, undecided games, length.
    Selfplay(selfplay::Args),
    /// Print the API reference generated from the code: every TOML field, every event, the Lua
    /// environment (Markdown, as docs/api.md).
    Api {
        /// Print the Lua API as Luau type definitions for editors instead (docs/warroom.d.luau).
        #[arg(long)]
        luau: bool,
    },
    /// Convert another engine's game file into a warroom layer.
    Import {
        #[command(subcommand)]
        from: ImportFrom,
    },
}

#[derive(Subcommand)]
enum ImportFrom {
    /// A TripleA game XML file.
    Triplea {
        file: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Layer name (default: the file name).
        #[arg(long)]
        name: Option<String>,
    },
}

pub const DEFAULT_EDITION: &str = "1941";

fn editions_dir(explicit: Option<PathBuf>) -> PathBuf {
    if let Some(p) = explicit {
        return p;
    }
    if let Some(p) = std::env::var_os("WARROOM_EDITIONS") {
        return PathBuf::from(p);
    }
    if let Ok(mut dir) = std::env::current_dir() {
        loop {
            let cand = dir.join("editions");
            if cand.is_dir() {
                return cand;
            }
            if !dir.pop() {
                break;
            }
        }
    }
    // Running from a build tree: target/<profile>/warroom -> ../../editions.
    if let Ok(exe) = std::env::current_exe() {
        if let Some(root) = exe.parent().and_then(|p| p.parent()).and_then(|p| p.parent()) {
            let cand = root.join("editions");
            if cand.is_dir() {
                return cand;
            }
        }
    }
    PathBuf::from("editions")
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing to a closed pipe panics; a command-line tool should
    // just stop when its reader has gone.
    #[cfg(unix)]
    // SAFETY: called first thing, before any other thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let editions = editions_dir(cli.editions);
    match cli.command.unwrap_or(Cmd::Play {
        edition: None,
        scenario: None,
        with: Vec::new(),
        seed: 1,
        load: None,
        strict: false,
        players: None,
        ai: None,
        ai_pace: None,
        ai_rounds: None,
    }) {
        Cmd::Play {
            edition,
            scenario,
            with,
            seed,
            load,
            strict,
            players,
            ai,
            ai_pace,
            ai_rounds,
        } => play::run(play::Options {
            editions,
            edition: edition.unwrap_or_else(|| DEFAULT_EDITION.to_string()),
            scenario,
            with,
            seed,
            load,
            strict,
            players,
            ai,
            ai_pace,
            ai_rounds,
        }),
        Cmd::Check { targets } => check::check(&editions, &targets),
        Cmd::Editions => check::list(&editions),
        Cmd::Replay { file, with } => test::replay(&editions, &file, &with),
        Cmd::Odds(args) => odds::run(&editions, args),
        Cmd::Api { luau } => api::run(luau),
        Cmd::Soak(args) => soak::run(&editions, args),
        Cmd::Selfplay(args) => selfplay::run(&editions, args),
        Cmd::Test {
            paths,
            with,
            diff,
            jobs,
        } => test::run(test::Options {
            editions,
            paths,
            with,
            diff,
            jobs,
        }),
        Cmd::Import {
            from: ImportFrom::Triplea { file, out, name },
        } => check::import_triplea(&file, &out, name),
    }
}
