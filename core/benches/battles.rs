//! Battles per second through `Battle::auto` with seeded dice: the cost of one Monte Carlo
//! run of the calculator (principles §9). Each iteration clones a prepared battle and fights
//! it to the end; the dice generator runs on across iterations, so every iteration is a
//! different battle.
//!
//! `cargo bench -p warroom-core --bench battles` (add `-- --quick` for a short run). The
//! battles are data, in tests/bench/battles.toml; each fights with its edition's own
//! `[combat]` data.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use warroom_core::combat::{Battle, Combatant, Profiles, Progress, Quiet, Side};
use warroom_core::game::dice::Dice;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, PowerId, RuleSet, SpaceId};

struct Case {
    name: String,
    profiles: Profiles,
    battle: Battle,
}

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// `"10 infantry"` entries as combatants of one side.
fn side(rules: &RuleSet, p: &Profiles, side: Side, list: &toml::Value, units: &mut Vec<Combatant>) {
    let owner = if side == Side::Attacker {
        PowerId(0)
    } else {
        PowerId(1)
    };
    for entry in list.as_array().expect("a list of \"COUNT UNIT\"") {
        let text = entry.as_str().expect("\"COUNT UNIT\"");
        let (n, name) = text.split_once(' ').expect("\"COUNT UNIT\"");
        let n: u32 = n.parse().expect("a count");
        let kind = rules
            .unit_type(name)
            .unwrap_or_else(|| panic!("no unit type {name}"));
        for _ in 0..n {
            let id = units.len() as u32 + 1;
            units.push(Combatant::new(id, kind, owner, side, p.of(kind).hits));
        }
    }
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(root().join("tests/bench/battles.toml")).expect("battles.toml");
    let data: toml::Value = toml::from_str(&text).expect("battles.toml is TOML");
    let mut out = Vec::new();
    for b in data["battle"].as_array().expect("[[battle]] tables") {
        let edition = b["edition"].as_str().expect("edition");
        let rules = rules::load(&LoadRequest::new(root().join("editions"), edition))
            .unwrap_or_else(|e| panic!("{edition}: {:#?}", e.problems));
        let profiles = Profiles::new(&rules);
        let mut units = Vec::new();
        side(&rules, &profiles, Side::Attacker, &b["attackers"], &mut units);
        side(&rules, &profiles, Side::Defender, &b["defenders"], &mut units);
        let sea = b["sea"].as_bool().expect("sea");
        out.push(Case {
            name: b["name"].as_str().expect("name").to_string(),
            profiles,
            battle: Battle::new(SpaceId(0), sea, PowerId(0), units),
        });
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("battle");
    group.throughput(Throughput::Elements(1));
    for case in cases() {
        let (p, prepared) = (&case.profiles, &case.battle);
        // Every battle must end with the defaults and seeded dice: nothing is left waiting.
        let mut dice = Dice::seeded(1);
        for _ in 0..100 {
            let mut b = prepared.clone();
            assert!(
                matches!(b.auto(p, &mut dice, &mut Quiet), Progress::Over(_)),
                "{}",
                case.name
            );
        }
        group.bench_function(case.name.as_str(), |bench| {
            let mut dice = Dice::seeded(2);
            bench.iter(|| {
                let mut b = prepared.clone();
                black_box(b.auto(p, &mut dice, &mut Quiet))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
