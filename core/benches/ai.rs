//! The computer opponent's turns: the time it takes to play a whole round, every power's turn
//! (purchase, attacks weighed with the odds, battles, noncombat moves, placement), from the
//! positions of tests/bench/ai.toml (a game the AI has played against itself up to a round).
//! A turn takes at most this (issue 26 asks for at most 0.5 s a turn on 1941 and 2 s on
//! Global 1940 on the project's 2-core machine).
//!
//! `cargo bench -p warroom-core --bench ai` (add `-- --quick` for a short run).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use warroom_core::ai::Ai;
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, RuleSet};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn rules_for(edition: &str) -> Arc<RuleSet> {
    let req = LoadRequest::new(root().join("editions"), edition);
    Arc::new(rules::load(&req).unwrap_or_else(|e| panic!("{edition}: {:#?}", e.problems)))
}

/// Play the round to its end, AI for every decision.
fn play_round(ai: &mut Ai, g: &mut Game) {
    let start = g.state().round;
    while g.state().round == start && g.state().winner.is_none() {
        let Some(c) = ai.choose(g) else { return };
        g.apply(&c.command).expect("the AI gives accepted commands");
    }
}

/// A game the AI played against itself up to the start of round `round`.
fn position(rules: &Arc<RuleSet>, edition: &str, round: u32) -> Game {
    let mut g = Game::new(rules.clone(), edition, &[], None, 1).expect("the game starts");
    g.explain_refusals(false);
    let mut ai = Ai::new();
    while g.state().round < round && g.state().winner.is_none() {
        play_round(&mut ai, &mut g);
    }
    g
}

fn ai_round(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai_round");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    let text = std::fs::read_to_string(root().join("tests/bench/ai.toml")).expect("ai.toml");
    let data: toml::Value = toml::from_str(&text).expect("ai.toml is TOML");
    for p in data["position"].as_array().expect("[[position]] tables") {
        let edition = p["edition"].as_str().expect("edition");
        let round = u32::try_from(p["round"].as_integer().expect("round")).expect("a round number");
        let rules = rules_for(edition);
        let start = position(&rules, edition, round);
        let history: Vec<String> = start.history().iter().map(|r| r.text.clone()).collect();
        group.bench_function(edition, |b| {
            b.iter_batched(
                || {
                    // The same position again, from its commands.
                    let mut g = Game::new(rules.clone(), edition, &[], None, 1).unwrap();
                    g.explain_refusals(false);
                    for line in &history {
                        g.execute(line).expect("the game replays");
                    }
                    (Ai::new(), g)
                },
                |(mut ai, mut g)| play_round(&mut ai, &mut g),
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, ai_round);
criterion_main!(benches);
