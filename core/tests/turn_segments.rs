//! A power whose turn is played within another's (`[turn.within]`), on the mini edition with
//! the house layer tests/fixtures/house/green-plays-within-blue: Green moves to attack before
//! Blue's combat move (or after it, `play Blue first`) and makes its noncombat move after
//! Blue's. The Anniversary Edition's China is the same machinery (regression scenarios
//! AA50-CHINA-CONTROL-*); these tests look at what scenarios cannot see: the turn's records
//! per power, the events, saves.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warroom_core::game::{save, Game};
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, PowerId};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

fn layer() -> String {
    fixtures()
        .join("house/green-plays-within-blue")
        .display()
        .to_string()
}

fn game(extra: &[String]) -> Game {
    let mut req = LoadRequest::new(fixtures().join("editions"), "mini");
    req.with = std::iter::once(layer()).chain(extra.iter().cloned()).collect();
    let rules = rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems));
    Game::new(Arc::new(rules), "mini", &req.with, None, 1).unwrap()
}

fn ok(g: &mut Game, cmd: &str) -> Vec<String> {
    g.execute(cmd)
        .unwrap_or_else(|r| panic!("`{cmd}` was refused: {r}"))
}

fn power(g: &Game, name: &str) -> PowerId {
    g.rules().power(name).unwrap()
}

/// Where the game stands: `Power phase_id`.
fn at(g: &Game) -> String {
    format!(
        "{} {}",
        g.rules().power_info(g.current_power()).name,
        g.current_phase().id
    )
}

/// The steps of the turn in progress, as `Power phase_id`.
fn steps(g: &Game) -> Vec<String> {
    g.turn_steps()
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                g.rules().power_info(s.power).name,
                g.rules().phases[s.phase.index()].id
            )
        })
        .collect()
}

/// End phases until Blue's turn begins.
fn to_blues_turn(g: &mut Game) {
    for _ in 0..4 {
        ok(g, "end phase");
    }
    assert_eq!(at(g), "Blue purchase");
}

#[test]
fn a_guest_plays_its_segments_next_to_the_hosts_phases() {
    let mut g = game(&[]);
    let (blue, green) = (power(&g, "Blue"), power(&g, "Green"));
    assert_eq!(g.rules().host_of(green), Some(blue));
    assert_eq!(g.rules().host_of(blue), None);
    // Green has no turn of its own: the scenario's order is Red, Blue.
    assert_eq!(g.scenario().turn_order.len(), 2);
    to_blues_turn(&mut g);
    assert_eq!(
        steps(&g),
        [
            "Blue purchase",
            "Green combat_move",
            "Blue combat_move",
            "Blue noncombat_move",
            "Green noncombat_move",
            "Blue collect_income",
        ]
    );
    let mut seen = vec![at(&g)];
    for _ in 0..5 {
        ok(&mut g, "end phase");
        seen.push(at(&g));
        assert_eq!(g.turn_power(), blue, "the turn stays Blue's throughout");
    }
    assert_eq!(seen, steps(&g));
    ok(&mut g, "end phase");
    assert_eq!(at(&g), "Red purchase");
    assert_eq!(g.state().round, 2);
}

#[test]
fn the_player_may_play_the_host_first_until_either_part_has_begun() {
    let mut g = game(&[]);
    to_blues_turn(&mut g);
    assert_eq!(g.open_choices(), [(power(&g, "Green"), power(&g, "Blue"))]);
    let out = ok(&mut g, "play Blue first");
    assert_eq!(
        out,
        ["Blue plays first: Green's Combat Move comes after Blue's Combat Move"]
    );
    assert_eq!(
        at(&g),
        "Blue purchase",
        "chosen ahead: the turn stays where it is"
    );
    assert_eq!(
        &steps(&g)[1..3],
        ["Blue combat_move", "Green combat_move"],
        "Green's combat move now follows Blue's"
    );
    ok(&mut g, "end phase");
    assert_eq!(at(&g), "Blue combat_move");
    // At the step where the orders part, with nothing done yet, it can be changed back.
    ok(&mut g, "play Green first");
    assert_eq!(at(&g), "Green combat_move");
    ok(&mut g, "move infantry from Blueland to Middle");
    let r = g.execute("play Blue first").expect_err("Green has moved");
    assert_eq!(r.rule.as_deref(), Some("turn-order"));
    assert!(
        r.message.contains("Green has already acted in its Combat Move"),
        "{r}"
    );
    assert!(g.open_choices().is_empty());
    // Red's turn has no order to choose.
    let mut g = game(&[]);
    let r = g.execute("play Red first").expect_err("nothing to choose");
    assert!(r.message.contains("order of Red's turn is fixed"), "{r}");
}

/// "Moved in combat move", the battles it declared, who held what when the turn began: each
/// power keeps its own record of the turn across the other's segments.
#[test]
fn each_power_keeps_its_own_record_of_the_turn_across_segments() {
    let mut g = game(&[]);
    to_blues_turn(&mut g);
    let (blue, green) = (power(&g, "Blue"), power(&g, "Green"));
    let middle = g.rules().board.find("Middle").unwrap();
    ok(&mut g, "end phase");
    ok(&mut g, "move infantry from Blueland to Middle");
    assert!(
        g.state().this_turn.battle(middle).is_some(),
        "Green declared a battle"
    );
    ok(&mut g, "end phase");
    assert_eq!(at(&g), "Blue combat_move");
    assert!(
        g.state().this_turn.battle(middle).is_none(),
        "Blue's record of the turn has no battle of Green's"
    );
    let greens = &g.state().other_turns;
    assert_eq!(greens.len(), 1);
    assert_eq!(greens[0].0, green);
    assert!(
        greens[0].1.battle(middle).is_some(),
        "Green's record keeps its battle"
    );
    ok(&mut g, "end phase");
    assert_eq!(at(&g), "Blue noncombat_move");
    ok(&mut g, "end phase");
    assert_eq!(at(&g), "Green noncombat_move");
    assert!(g.state().this_turn.battle(middle).is_some());
    assert_eq!(g.state().other_turns[0].0, blue);
    // The infantry that moved in Green's combat move sits out Green's noncombat move.
    let r = g
        .execute("move infantry from Middle to Blueland")
        .expect_err("moved in combat move");
    assert!(r.message.to_lowercase().contains("combat move"), "{r}");
    let marked: Vec<bool> = g
        .state()
        .space(middle)
        .units
        .iter()
        .map(|u| u.marks.combat_moved)
        .collect();
    assert_eq!(
        marked,
        [true],
        "the mark stays on Green's unit through Blue's phases"
    );
}

#[test]
fn turn_events_begin_with_the_host_and_end_with_it() {
    let trace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../editions/options/trace-events")
        .display()
        .to_string();
    let mut g = game(&[trace]);
    let mut out = Vec::new();
    for _ in 0..4 {
        out = ok(&mut g, "end phase");
    }
    let events: Vec<&str> = out
        .iter()
        .filter_map(|l| l.split_once("] event ").map(|(_, e)| e))
        .filter(|e| e.starts_with("turn_"))
        .collect();
    assert_eq!(
        events,
        [
            "turn_end power=Red; round=1",
            "turn_begin power=Blue; round=1",
            "turn_begin power=Green; round=1",
        ]
    );
    ok(&mut g, "end phase");
    let out = ok(&mut g, "play Blue first");
    let phases: Vec<&str> = out
        .iter()
        .filter_map(|l| l.split_once("] event ").map(|(_, e)| e))
        .collect();
    // Green's combat move was announced and is put off: it ends, Blue's begins in its place.
    assert_eq!(
        phases,
        [
            "phase_end phase=combat_move; phase_kind=CombatMove; power=Green; round=1",
            "phase_begin phase=combat_move; phase_kind=CombatMove; power=Blue; round=1",
        ]
    );
    for _ in 0..4 {
        ok(&mut g, "end phase");
    }
    let out = ok(&mut g, "end phase");
    let events: Vec<&str> = out
        .iter()
        .filter_map(|l| l.split_once("] event ").map(|(_, e)| e))
        .filter(|e| e.starts_with("turn_") || e.starts_with("victory_check"))
        .collect();
    assert_eq!(
        events,
        [
            "turn_end power=Green; round=1",
            "turn_end power=Blue; round=1",
            "victory_check power=Green; round=1",
            "victory_check power=Blue; round=1",
            "turn_begin power=Red; round=2",
        ]
    );
}

#[test]
fn a_save_made_within_a_guests_segment_replays_to_the_same_game() {
    let mut g = game(&[]);
    to_blues_turn(&mut g);
    ok(&mut g, "play Blue first");
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    assert_eq!(at(&g), "Green combat_move");
    ok(&mut g, "move infantry from Blueland to Middle");
    let text = g.save_text();
    let loaded = save::load(Path::new("mid-segment.toml"), &text, &fixtures().join("editions"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.hash(), g.hash());
    assert_eq!(loaded.state(), g.state());
    assert_eq!(at(&loaded), "Green combat_move");
    assert_eq!(steps(&loaded), steps(&g));
}
