//! The battle calculator: the exact chain against hand-computed odds and against Monte Carlo
//! through the battle code itself (`Battle::advance`), on battles of every kind.

mod support;

use std::path::Path;
use support::odds::{load, question, BATTLES};
use warroom_core::odds::{self, Method, Odds, Question};

fn exact(q: &Question) -> Odds {
    let o = odds::exact(q, 5).expect("the chain answers");
    assert!(matches!(o.method, Method::Exact { .. }));
    o
}

#[test]
fn one_infantry_against_one_infantry_matches_the_hand_computed_odds() {
    let rules = load("anniversary", &[]);
    let o = exact(&question(&rules, "1 inf vs 1 inf"));
    // Per round: attack hits 1 in 6, defense 2 in 6, fired at once. Rounds where both miss
    // (20/36) repeat.
    let close = |x: f64, y: f64| assert!((x - y).abs() < 1e-9, "{x} vs {y}");
    close(o.attacker_wins.value, 0.25);
    close(o.defender_wins.value, 0.625);
    close(o.draw.value, 0.125);
    close(o.rounds.value, 2.25);
    close(o.attacker_loss.value, 3.0 * 0.75);
}

#[test]
fn the_chain_agrees_with_battles_fought_by_the_battle_code() {
    let mut checked = 0;
    for (i, (edition, with, text)) in BATTLES.iter().enumerate() {
        let rules = load(edition, with);
        let q = question(&rules, text);
        let e = exact(&q);
        let m = odds::monte_carlo(&q, 6000, 17 + i as u64, Some(1), 5, None).expect("fought");
        // About four standard errors: the chain may not be off by more than chance allows.
        let agree = |what: &str, x: f64, y: odds::Estimate| {
            let se = y.margin / 1.96;
            let allowed = (4.0 * se).max(0.004);
            assert!(
                (x - y.value).abs() <= allowed,
                "{edition} {text}: {what}: chain {x:.4}, battles {:.4} ± {allowed:.4}",
                y.value
            );
        };
        agree("attacker wins", e.attacker_wins.value, m.attacker_wins);
        agree("defender wins", e.defender_wins.value, m.defender_wins);
        agree("draw", e.draw.value, m.draw);
        agree("retreat", e.retreats.value, m.retreats);
        let se_rounds = m.rounds.margin / 1.96;
        assert!(
            (e.rounds.value - m.rounds.value).abs() <= 4.0 * se_rounds + 1e-9,
            "{edition} {text}: rounds {} vs {}",
            e.rounds.value,
            m.rounds.value
        );
        let se_loss = m.attacker_loss.margin / 1.96;
        assert!(
            (e.attacker_loss.value - m.attacker_loss.value).abs() <= 4.0 * se_loss + 1e-9,
            "{edition} {text}: attacker loss {} vs {}",
            e.attacker_loss.value,
            m.attacker_loss.value
        );
        checked += 1;
    }
    assert!(checked >= 20);
}

#[test]
fn battles_drawn_from_the_chain_agree_with_the_chain() {
    for (i, (edition, with, text)) in BATTLES.iter().enumerate() {
        let rules = load(edition, with);
        let q = question(&rules, text);
        let e = exact(&q);
        let s = odds::sampled(&q, 20_000, 5 + i as u64, Some(1), 5, None).expect("the chain draws");
        assert!(matches!(s.method, Method::Sampled { runs: 20_000, .. }));
        let agree = |what: &str, x: f64, y: odds::Estimate| {
            let allowed = (4.0 * y.margin / 1.96).max(0.002);
            assert!(
                (x - y.value).abs() <= allowed,
                "{edition} {text}: {what}: chain {x:.4}, drawn {:.4} ± {allowed:.4}",
                y.value
            );
        };
        agree("attacker wins", e.attacker_wins.value, s.attacker_wins);
        agree("defender wins", e.defender_wins.value, s.defender_wins);
        agree("draw", e.draw.value, s.draw);
        agree("retreat", e.retreats.value, s.retreats);
        agree("rounds", e.rounds.value, s.rounds);
        agree("attacker loss", e.attacker_loss.value, s.attacker_loss);
        agree("defender loss", e.defender_loss.value, s.defender_loss);
    }
}

#[test]
fn drawn_battles_do_not_depend_on_the_number_of_threads() {
    let rules = load("anniversary", &[]);
    let q = question(&rules, "10 inf, 5 tank, 3 ftr vs 12 inf, 2 tank, 2 ftr, 1 aa");
    // Three chunks of battles, taken by one thread or by two.
    let one = odds::sampled(&q, 140_000, 9, Some(1), 5, None).unwrap();
    let two = odds::sampled(&q, 140_000, 9, Some(2), 5, None).unwrap();
    assert_eq!(one, two);
    let other_seed = odds::sampled(&q, 140_000, 10, Some(2), 5, None).unwrap();
    assert_ne!(one, other_seed);
}

#[test]
fn a_battle_with_script_steps_is_answered_by_the_chain_asking_its_scripts_per_round() {
    // spearhead's handlers see only the round and the step: the chain asks them once per
    // round, and battles drawn from it agree with it.
    let layer = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/spearhead");
    let rules = load("1941", &[layer.to_str().unwrap()]);
    let q = question(&rules, "3 inf, 2 tank vs 4 inf");
    let o = odds::calculate(&q, &odds::Options::default()).expect("the scripts run");
    assert!(matches!(o.method, Method::Exact { .. }), "{:?}", o.method);
    assert_eq!(o.scripts.len(), 2, "{:?}", o.scripts);
    assert!(
        o.scripts[0].starts_with("handler `spearhead.tanks` in ")
            && o.scripts[0].ends_with("spearhead.lua:3"),
        "{:?}",
        o.scripts
    );
    assert!((o.attacker_wins.value + o.defender_wins.value + o.draw.value - 1.0).abs() < 1e-9);
    let s = odds::sampled(&q, 20_000, 3, Some(1), 5, None).expect("drawn with the scripts");
    for (what, x, y) in [
        ("attacker wins", o.attacker_wins.value, s.attacker_wins),
        ("rounds", o.rounds.value, s.rounds),
        ("attacker loss", o.attacker_loss.value, s.attacker_loss),
    ] {
        assert!(
            (x - y.value).abs() <= (4.0 * y.margin / 1.96).max(0.002),
            "{what}: chain {x}, drawn {}",
            y.value
        );
    }
    // Without its scripts the spearhead battle is another battle.
    let mut quiet = q.clone();
    quiet.scripts = None;
    let plain = odds::calculate(
        &quiet,
        &odds::Options {
            fallback_runs: Some(4000),
            ..Default::default()
        },
    )
    .expect("fought without scripts");
    // Attrition from the second round on shortens the battle.
    assert!(
        plain.rounds.value - o.rounds.value > 4.0 * plain.rounds.margin,
        "rounds {} without the scripts, {} with them",
        plain.rounds.value,
        o.rounds.value
    );
}

#[test]
fn a_battle_whose_scripts_hear_casualties_is_fought_with_them_and_says_why() {
    // quiet-skies tallies casualties in its store: what its handlers answer could depend on
    // what happened, so every battle is fought through the battle code with the scripts.
    let layer = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/quiet-skies");
    let rules = load(layer.to_str().unwrap(), &[]);
    let q = question(&rules, "2 inf, 1 ftr vs 2 inf, 1 aa");
    let options = odds::Options {
        fallback_runs: Some(300),
        ..Default::default()
    };
    let o = odds::calculate(&q, &options).expect("the scripts run");
    match &o.method {
        Method::MonteCarlo {
            runs: 300,
            why: Some(why),
        } => assert!(
            why.contains("rule scripts change this battle (handler `skies.no_aa_in_round_one` in ")
                && why.contains("handler `skies.tally` in ")
                && why.contains("fought through the battle code"),
            "{why}"
        ),
        other => panic!("not fought with the scripts: {other:?}"),
    }
    assert!(odds::exact(&q, 5).is_err(), "the chain must not answer it");
    assert!(odds::sampled(&q, 100, 1, Some(1), 5, None).is_err());
}

#[test]
fn a_script_failing_in_a_simulated_battle_fails_the_odds_naming_the_handler() {
    // misplaced-hits asks for hits in the engine's own step, which fails `fight` in play.
    let layer = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/misplaced-hits");
    let rules = load(layer.to_str().unwrap(), &[]);
    let q = question(&rules, "3 inf vs 2 inf");
    let err = odds::calculate(&q, &odds::Options::default()).expect_err("the script fails");
    assert!(
        err.contains("misplaced.hits") && err.contains("script_steps"),
        "{err}"
    );
}

#[test]
fn only_handlers_a_battles_steps_reach_count_as_changing_it() {
    // radar: one handler changes the guns in battles, another vetoes a bombing raid's damage,
    // a step no battle has.
    let layer = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/radar");
    let rules = load(layer.to_str().unwrap(), &[]);
    let q = question(&rules, "2 ftr vs 1 inf, 1 aa");
    let named = q.scripts.as_ref().expect("radar changes battles").named();
    assert_eq!(named.len(), 1, "{named:?}");
    assert!(named[0].starts_with("handler `radar.guns` in "), "{named:?}");
}
