//! Dealing powers to players by `[players]` (game::seats) on the mini edition: the refusals
//! the editions' own limits never reach (a side without a player, more players than the groups
//! allow) and the checks on a seating given whole (a save's).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

fn game(layers: &[&str]) -> Game {
    let mut req = LoadRequest::new(fixtures().join("editions"), "mini");
    req.with = layers
        .iter()
        .map(|l| fixtures().join("house").join(l).display().to_string())
        .collect();
    let rules = rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems));
    Game::new(Arc::new(rules), "mini", &req.with, None, 1).unwrap()
}

fn seating(g: &Game) -> Vec<Vec<String>> {
    let r = g.rules();
    g.seats()
        .expect("seated")
        .players
        .iter()
        .map(|pl| pl.iter().map(|p| r.power_info(*p).name.clone()).collect())
        .collect()
}

#[test]
fn each_side_needs_a_player_of_its_own() {
    let mut g = game(&[]);
    let e = g.deal_players(1).expect_err("one player for two sides");
    assert_eq!(
        e,
        "a player's powers are all on one side, so the Allies and the Axis need a player each: at least 2 players"
    );
    assert!(g.seats().is_none(), "a refused deal seats nobody");
    g.deal_players(2).unwrap();
    assert_eq!(seating(&g), [vec!["Red"], vec!["Blue"]]);
}

#[test]
fn powers_played_together_limit_the_number_of_players() {
    let mut g = game(&["green-plays-within-blue"]);
    g.deal_players(3).unwrap();
    assert_eq!(seating(&g), [vec!["Red"], vec!["Blue"], vec!["Green"]]);
    let mut g = game(&["green-plays-within-blue", "green-with-blue"]);
    let e = g.deal_players(3).expect_err("Blue and Green share a player");
    assert_eq!(
        e,
        "with 3 players the powers go to at most 2 players (Blue, Green play together)"
    );
    g.deal_players(2).unwrap();
    assert_eq!(seating(&g), [vec!["Red"], vec!["Blue", "Green"]]);
}

#[test]
fn a_seating_given_whole_must_follow_the_rules() {
    let mut g = game(&["green-plays-within-blue", "green-with-blue"]);
    let r = g.rules().clone();
    let p = |n: &str| r.power(n).unwrap();
    let e = g
        .seat_players(vec![vec![p("Red")], vec![p("Blue")], vec![p("Green")]])
        .expect_err("Green apart from Blue");
    assert_eq!(e, "Blue, Green are played by one player (with 3 players)");
    let e = g
        .seat_players(vec![vec![p("Red"), p("Green")], vec![p("Blue")]])
        .expect_err("Green with Red");
    assert!(e.contains("Blue, Green are played by one player"), "{e}");
    let e = g
        .seat_players(vec![vec![p("Red")], vec![p("Blue")]])
        .expect_err("Green unseated");
    assert!(e.contains("Green is seated 0 times"), "{e}");
    assert!(g.seats().is_none());
    g.seat_players(vec![vec![p("Blue"), p("Green")], vec![p("Red")]])
        .unwrap();
    // A seating given whole keeps its numbering.
    assert_eq!(seating(&g), [vec!["Blue", "Green"], vec!["Red"]]);
}
