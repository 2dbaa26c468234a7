//! The calculator on the standard battles of tests/bench/odds.toml: the exact chain's time
//! per answer, and Monte Carlo's battles per second on one thread, drawn from the chain and
//! fought by the battle code.
//!
//! `cargo bench -p warroom-core --bench odds` (add `-- --quick` for a short run).

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use warroom_core::layers::LoadRequest;
use warroom_core::odds::{self, Question, Spec};
use warroom_core::rules;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn cases() -> Vec<(String, Question)> {
    let text = std::fs::read_to_string(root().join("tests/bench/odds.toml")).expect("odds.toml");
    let data: toml::Value = toml::from_str(&text).expect("odds.toml is TOML");
    let mut out = Vec::new();
    for b in data["battle"].as_array().expect("[[battle]] tables") {
        let edition = b["edition"].as_str().expect("edition");
        let mut req = LoadRequest::new(root().join("editions"), edition);
        // Layers by path from the project's root (`with = ["tests/bench/idle-hooks"]`).
        for layer in b.get("with").and_then(|w| w.as_array()).into_iter().flatten() {
            let path = root().join(layer.as_str().expect("a layer's path"));
            req = req.with(path.to_string_lossy());
        }
        let rules = rules::load(&req)
            .map(std::sync::Arc::new)
            .unwrap_or_else(|e| panic!("{edition}: {:#?}", e.problems));
        let (att, def) = b["battle"]
            .as_str()
            .and_then(|s| s.split_once(" vs "))
            .expect("\"ATTACKERS vs DEFENDERS\"");
        let spec = Spec::of_forces(&rules, att, def).expect("the battle's units");
        let q = spec.question(&rules).expect("a battle");
        out.push((b["name"].as_str().expect("name").to_string(), q));
    }
    out
}

fn bench(c: &mut Criterion) {
    let all = cases();
    // Battles the chain cannot answer (rule scripts that hear every step) are only fought.
    let cases: Vec<_> = all.iter().filter(|(_, q)| odds::exact(q, 5).is_ok()).collect();
    let mut group = c.benchmark_group("exact");
    for (name, q) in &cases {
        group.bench_function(name.as_str(), |b| {
            b.iter(|| black_box(odds::exact(q, 5).expect("exact")))
        });
    }
    group.finish();
    // Monte Carlo as `--runs N` gives it: battles drawn from the chain, two chunks on one
    // thread (each chunk computes its own tables, so that cost is in the figure).
    let mut group = c.benchmark_group("monte_carlo");
    const DRAWN: u64 = 1 << 17;
    group.throughput(Throughput::Elements(DRAWN));
    for (name, q) in &cases {
        group.bench_function(name.as_str(), |b| {
            b.iter(|| black_box(odds::sampled(q, DRAWN, 1, Some(1), 5, None).expect("drawn")))
        });
    }
    group.finish();
    // The fallback for what the chain cannot express: battles fought by `Battle::advance`.
    let mut group = c.benchmark_group("fought");
    for (name, q) in &all {
        // Battles with scripts on every step are slower by far: fewer of them per sample.
        let fought: u64 = if q.scripts.is_some() { 256 } else { 4096 };
        group.throughput(Throughput::Elements(fought));
        group.bench_function(name.as_str(), |b| {
            b.iter(|| black_box(odds::monte_carlo(q, fought, 1, Some(1), 5, None).expect("fought")))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
