//! The exact chain's time per answer, by hand, for comparing two builds back to back on a
//! machine whose speed varies from run to run (criterion's figures for the standard battles:
//! `cargo bench -p warroom-core --bench odds`).
//!
//! `cargo run --release -p warroom-core --example oddsprobe -- EDITION "ATTACKERS vs DEFENDERS" RUNS`
//! (`FOUGHT=1`: Monte Carlo fought by the battle code instead; `WITH=tests/bench/idle-hooks`: a
//! layer on top of the edition).

use std::path::Path;
use std::sync::Arc;
use warroom_core::layers::LoadRequest;
use warroom_core::odds::{self, Spec};
use warroom_core::rules;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, edition, battle, runs] = &args[..] else {
        eprintln!("usage: oddsprobe EDITION \"ATTACKERS vs DEFENDERS\" RUNS");
        std::process::exit(2);
    };
    let runs: usize = runs.parse().expect("RUNS is a number");
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut req = LoadRequest::new(root.join("editions"), edition.as_str());
    // WITH=path/to/layer (from the project's root) adds a layer.
    if let Some(layer) = std::env::var_os("WITH") {
        req = req.with(root.join(layer).to_string_lossy());
    }
    let rules = rules::load(&req)
        .map(Arc::new)
        .unwrap_or_else(|e| panic!("{edition}: {:#?}", e.problems));
    let (a, d) = battle.split_once(" vs ").expect("ATTACKERS vs DEFENDERS");
    let spec = Spec::of_forces(&rules, a, d).expect("the battle's units");
    let q = spec.question(&rules).expect("a battle");
    if std::env::var_os("FOUGHT").is_some() {
        let start = std::time::Instant::now();
        let o = odds::monte_carlo(&q, runs as u64, 1, Some(1), 5, None).expect("fought");
        let s = start.elapsed().as_secs_f64();
        println!(
            "{:.0} battles/s fought (attacker wins {:.4})",
            runs as f64 / s,
            o.attacker_wins.value
        );
        return;
    }
    let start = std::time::Instant::now();
    let mut wins = 0.0;
    for _ in 0..runs.max(1) {
        wins += odds::exact(&q, 5).expect("the chain answers").attacker_wins.value;
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0 / runs.max(1) as f64;
    println!(
        "{ms:.3} ms per answer (attacker wins {:.4})",
        wins / runs.max(1) as f64
    );
}
