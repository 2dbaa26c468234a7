//! The calculator's answers kept: every battle of the odds tests and of the benchmark, answered
//! by the exact chain, by Monte Carlo drawn from the chain and by Monte Carlo fought through the
//! battle code (fixed seeds), must give what tests/odds/golden.toml recorded, to 1e-9. A change
//! made for speed changes no answer; a change of the rules that should change one records the
//! new answers (`WARROOM_BLESS_ODDS=1 cargo test -p warroom-core --test odds_golden`) in the
//! same commit, where the diff shows them.

mod support;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use support::odds::{load, question, BATTLES};
use warroom_core::odds::{self, Odds};
use warroom_core::rules::RuleSet;

/// The battles of tests/bench/odds.toml (land and huge aside: land is among `BATTLES`, huge
/// takes too long unoptimized) and one fought with hand-computed odds.
const MORE: &[(&str, &[&str], &str)] = &[
    ("anniversary", &[], "1 inf vs 1 inf"),
    (
        "anniversary",
        &[],
        "10 inf, 5 tank, 3 ftr vs 12 inf, 2 tank, 2 ftr, 1 aa",
    ),
    (
        "anniversary",
        &[],
        "40 inf, 20 art, 20 tank, 10 ftr vs 50 inf, 10 art, 10 tank, 10 ftr, 1 aa",
    ),
    (
        "global1940",
        &[],
        "3 inf, 1 art, 1 mech, 2 tank, 2 tac, 1 ftr vs 5 inf, 1 art, 1 ftr, 2 aaa",
    ),
    (
        "global1940",
        &[],
        "1 bb, 1 cru, 2 dd, 2 tac, 1 ftr vs 1 cv [damaged], 2 ftr, 1 dd, 1 sub",
    ),
    (
        "global1940",
        &[],
        "2 sub, 1 dd, 1 cv, 2 ftr, 1 tac vs 1 bb [damaged], 2 dd, 1 sub, 1 trn",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// An answer as numbers, named: the estimates, the units left per type, the likeliest endings.
fn numbers(rules: &RuleSet, o: &Odds) -> Vec<(String, f64)> {
    let mut out = vec![
        ("attacker_wins".to_string(), o.attacker_wins.value),
        ("defender_wins".into(), o.defender_wins.value),
        ("draw".into(), o.draw.value),
        ("retreats".into(), o.retreats.value),
        ("rounds".into(), o.rounds.value),
        ("attacker_loss".into(), o.attacker_loss.value),
        ("defender_loss".into(), o.defender_loss.value),
    ];
    if let Some(t) = &o.takes_territory {
        out.push(("takes_territory".into(), t.value));
    }
    for (side, list) in [
        ("attackers_left", &o.attackers_left),
        ("defenders_left", &o.defenders_left),
    ] {
        for (k, n) in list {
            out.push((format!("{side}.{}", rules.unit(*k).id), *n));
        }
    }
    for (i, e) in o.endings.iter().enumerate() {
        out.push((format!("ending{i}"), e.probability));
    }
    out
}

/// Each battle's answers by the three methods, as TOML.
fn answers() -> String {
    let mut text = String::from(
        "# The calculator's answers, recorded (core/tests/odds_golden.rs): exact, drawn from the\n\
         # chain (20000 battles, seed 5), fought by the battle code (400 battles, seed 17).\n",
    );
    for (edition, with, battle) in BATTLES.iter().chain(MORE) {
        let rules = load(edition, with);
        let q = question(&rules, battle);
        let exact = odds::exact(&q, 3).unwrap_or_else(|e| panic!("{battle}: {e}"));
        let drawn = odds::sampled(&q, 20_000, 5, Some(1), 3, None).unwrap();
        let fought = odds::monte_carlo(&q, 400, 17, Some(1), 3, None).unwrap();
        writeln!(
            text,
            "\n[[battle]]\nedition = {edition:?}\nwith = {with:?}\nbattle = {battle:?}"
        )
        .unwrap();
        for (method, o) in [("exact", &exact), ("drawn", &drawn), ("fought", &fought)] {
            writeln!(text, "[battle.{method}]").unwrap();
            for (k, v) in numbers(&rules, o) {
                writeln!(text, "{:?} = {v:?}", k).unwrap();
            }
        }
    }
    text
}

#[test]
fn the_calculators_answers_are_those_recorded() {
    let path = root().join("tests/odds/golden.toml");
    let now = answers();
    if std::env::var_os("WARROOM_BLESS_ODDS").is_some() {
        // Numbers within the tolerance keep their recorded text, so the diff shows what changed.
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        let (old, new): (Vec<&str>, Vec<&str>) = (kept.lines().collect(), now.lines().collect());
        let mut text = String::new();
        for (i, line) in new.iter().enumerate() {
            let same = old.get(i).filter(|o| {
                let (ok, ov) = o.split_once(" = ").unwrap_or((o, ""));
                let (nk, nv) = line.split_once(" = ").unwrap_or((line, ""));
                ok == nk
                    && match (ov.parse::<f64>(), nv.parse::<f64>()) {
                        (Ok(a), Ok(b)) => (a - b).abs() <= 1e-9,
                        _ => ov == nv,
                    }
            });
            text.push_str(same.unwrap_or(line));
            text.push('\n');
        }
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let parse = |t: &str| -> toml::Table { toml::from_str(t).unwrap() };
    let (kept, now) = (parse(&kept), parse(&now));
    let (kept, now) = (
        kept["battle"].as_array().unwrap(),
        now["battle"].as_array().unwrap(),
    );
    assert_eq!(
        kept.len(),
        now.len(),
        "battles recorded and battles asked differ: bless again"
    );
    let mut wrong = Vec::new();
    for (k, n) in kept.iter().zip(now) {
        let battle = n["battle"].as_str().unwrap();
        assert_eq!(
            k["battle"].as_str(),
            Some(battle),
            "the battles are listed in another order"
        );
        for method in ["exact", "drawn", "fought"] {
            let (km, nm) = (k[method].as_table().unwrap(), n[method].as_table().unwrap());
            let keys: std::collections::BTreeSet<&String> = km.keys().chain(nm.keys()).collect();
            for key in keys {
                let (a, b) = (
                    km.get(key).and_then(|v| v.as_float()),
                    nm.get(key).and_then(|v| v.as_float()),
                );
                match (a, b) {
                    (Some(a), Some(b)) if (a - b).abs() <= 1e-9 => {}
                    _ => wrong.push(format!("{battle} [{method}] {key}: recorded {a:?}, now {b:?}")),
                }
            }
        }
    }
    assert!(wrong.is_empty(), "answers changed:\n{}", wrong.join("\n"));
}
