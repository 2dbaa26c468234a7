//! Replaying a whole game: the average cost of one command, from a fresh game to the last
//! command of each recorded game under tests/games (issue 24 asks under 1 ms per command for
//! the Global 1940 game on the project's 2-core machine).
//!
//! `cargo bench -p warroom-core --bench replay` (add `-- --quick` for a short run). Each
//! iteration starts the game (`# args:` of the file: edition, `--with`, `--seed`) and applies
//! every line the game takes as a command; lines only the REPL knows (`status`, `show`, ...)
//! and comments are left out before timing. The throughput is commands per second.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, RuleSet};

struct Script {
    name: String,
    rules: Arc<RuleSet>,
    edition: String,
    with: Vec<String>,
    seed: u64,
    commands: Vec<String>,
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn start(s: &Script) -> Game {
    Game::new(s.rules.clone(), &s.edition, &s.with, None, s.seed).expect("the game starts")
}

fn scripts() -> Vec<Script> {
    let mut out = Vec::new();
    let dir = root().join("tests/games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/games")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
    {
        let text = std::fs::read_to_string(&path).expect("a game script");
        let args: Vec<&str> = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# args:"))
            .expect("`# args: play EDITION ...` first")
            .split_whitespace()
            .collect();
        let edition = args.get(1).expect("an edition").to_string();
        let (mut with, mut seed) = (Vec::new(), 1);
        for w in args.windows(2) {
            match w[0] {
                "--with" => with.push(w[1].to_string()),
                "--seed" => seed = w[1].parse().expect("a seed"),
                _ => {}
            }
        }
        let mut req = LoadRequest::new(root().join("editions"), &edition);
        req.with = with.clone();
        let rules = Arc::new(rules::load(&req).unwrap_or_else(|e| panic!("{edition}: {:#?}", e.problems)));
        let mut script = Script {
            name: path.file_stem().unwrap().to_string_lossy().into_owned(),
            rules,
            edition,
            with,
            seed,
            commands: Vec::new(),
        };
        // The lines the game itself takes, found by playing them once.
        let mut game = start(&script);
        for line in text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            if game.execute(line).is_ok() {
                script.commands.push(line.to_string());
            }
        }
        out.push(script);
    }
    out
}

fn replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    for s in scripts() {
        group.throughput(Throughput::Elements(s.commands.len() as u64));
        group.bench_function(&s.name, |b| {
            b.iter(|| {
                let mut game = start(&s);
                for line in &s.commands {
                    black_box(game.execute(line).expect("replays as played"));
                }
                black_box(game.state().round)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, replay);
criterion_main!(benches);
