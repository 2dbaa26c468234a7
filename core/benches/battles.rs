//! Battles per second through `Battle::auto` with seeded dice: the cost of one Monte Carlo
//! run of the calculator (principles §9). Each iteration clones a prepared battle and fights
//! it to the end; the dice generator runs on across iterations, so every iteration is a
//! different battle.
//!
//! `cargo bench -p warroom-core --bench battles` (add `-- --quick` for a short run). Each
//! edition fights with its own `[combat]` data.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use warroom_core::combat::{Battle, Combatant, Profiles, Progress, Quiet, Side};
use warroom_core::game::dice::Dice;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, PowerId, RuleSet, SpaceId, Step};

fn profiles(edition: &str) -> (RuleSet, Profiles) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editions");
    let rules = rules::load(&LoadRequest::new(dir, edition))
        .unwrap_or_else(|e| panic!("{edition}: {:#?}", e.problems));
    let p = Profiles::new(&rules);
    (rules, p)
}

/// A battle of `(count, unit type)` lists.
fn battle(
    rules: &RuleSet,
    p: &Profiles,
    sea: bool,
    attackers: &[(u32, &str)],
    defenders: &[(u32, &str)],
) -> Battle {
    let mut units = Vec::new();
    let mut id = 0;
    for (side, owner, list) in [
        (Side::Attacker, PowerId(0), attackers),
        (Side::Defender, PowerId(1), defenders),
    ] {
        for &(n, name) in list {
            let kind = rules
                .unit_type(name)
                .unwrap_or_else(|| panic!("no unit type {name}"));
            for _ in 0..n {
                id += 1;
                units.push(Combatant::new(id, kind, owner, side, p.of(kind).hits));
            }
        }
    }
    Battle::new(SpaceId(0), sea, PowerId(0), units)
}

fn bench(c: &mut Criterion) {
    let (aa50, aa50_p) = profiles("anniversary");
    let (e1941, e1941_p) = profiles("1941");
    let cases = [
        (
            "anniversary_land",
            &aa50_p,
            battle(
                &aa50,
                &aa50_p,
                false,
                &[(10, "infantry"), (5, "artillery"), (5, "tank"), (3, "fighter")],
                &[(12, "infantry"), (2, "tank"), (1, "fighter"), (1, "aa_gun")],
            ),
        ),
        (
            "anniversary_sea",
            &aa50_p,
            battle(
                &aa50,
                &aa50_p,
                true,
                &[
                    (2, "battleship"),
                    (1, "aircraft_carrier"),
                    (2, "fighter"),
                    (2, "destroyer"),
                ],
                &[
                    (3, "submarine"),
                    (2, "destroyer"),
                    (1, "cruiser"),
                    (2, "transport"),
                ],
            ),
        ),
        (
            "1941_land",
            &e1941_p,
            battle(
                &e1941,
                &e1941_p,
                false,
                &[(6, "infantry"), (3, "tank"), (2, "fighter"), (1, "bomber")],
                &[(8, "infantry"), (1, "tank")],
            ),
        ),
    ];
    // The antiaircraft gun fires in the Anniversary land battle.
    assert!(aa50_p.rules.first_round.contains(&Step::AntiAir));
    let mut group = c.benchmark_group("battle");
    group.throughput(Throughput::Elements(1));
    for (name, p, prepared) in &cases {
        // Every battle must end with the defaults and seeded dice: nothing is left waiting.
        let mut dice = Dice::seeded(1);
        for _ in 0..100 {
            let mut b = prepared.clone();
            assert!(
                matches!(b.auto(p, &mut dice, &mut Quiet), Progress::Over(_)),
                "{name}"
            );
        }
        group.bench_function(*name, |bench| {
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
