//! Per-power rules as data, on the mini edition with the house layer
//! tests/fixtures/house/red-stays-home: a power's own phases (`[turn.power_phases]`), movement
//! confined to some spaces (`confined_to`), no transports (`board_transports`) and new units
//! without a factory (`mobilize_at`). docs/editions.md documents the fields.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warroom_core::game::arrange::Arrangement;
use warroom_core::game::{Game, Rejection};
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, Piece};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

fn red_stays_home() -> Game {
    let mut req = LoadRequest::new(fixtures().join("editions"), "mini");
    req.with = vec![fixtures().join("house/red-stays-home").display().to_string()];
    let rules = rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems));
    Game::new(Arc::new(rules), "mini", &req.with, None, 1).unwrap()
}

fn ok(g: &mut Game, cmd: &str) -> Vec<String> {
    g.execute(cmd)
        .unwrap_or_else(|r| panic!("`{cmd}` was refused: {r}"))
}

fn refused(g: &mut Game, cmd: &str, rule: Option<&str>) -> Rejection {
    let before = g.hash();
    let r = g.execute(cmd).expect_err(cmd);
    assert_eq!(r.rule.as_deref(), rule, "`{cmd}`: {r}");
    assert_eq!(g.hash(), before, "a refused command changed the game");
    r
}

fn phases(g: &Game, power: &str) -> Vec<String> {
    let r = g.rules();
    let p = r.power(power).unwrap();
    r.turn_of(p)
        .iter()
        .map(|id| r.phases[id.index()].id.clone())
        .collect()
}

#[test]
fn a_power_with_its_own_phases_buys_nothing_and_collects_nothing() {
    let mut g = red_stays_home();
    assert_eq!(phases(&g, "Red"), ["combat_move", "noncombat_move", "mobilize"]);
    assert_eq!(
        phases(&g, "Blue"),
        ["purchase", "combat_move", "noncombat_move", "collect_income"]
    );
    let red = g.rules().power("Red").unwrap();
    assert_eq!(
        g.current_phase().id,
        "combat_move",
        "Red's turn begins with its first phase"
    );
    refused(&mut g, "buy infantry", None);
    assert_eq!(g.income(red), 0, "no collect-income phase: no income");
    let treasury = g.state().treasuries[red.index()];
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    let out = ok(&mut g, "end phase");
    assert!(out.iter().any(|l| l == "Blue: Purchase Units"), "{out:?}");
    assert_eq!(g.state().treasuries[red.index()], treasury);
    // Blue's turn is the default one, and Red's next turn begins with combat move again.
    for _ in 0..4 {
        ok(&mut g, "end phase");
    }
    assert_eq!(g.state().round, 2);
    assert_eq!(g.current_phase().id, "combat_move");
}

#[test]
fn confined_units_move_only_within_their_spaces_and_never_board_a_transport() {
    let mut g = red_stays_home();
    let r = refused(
        &mut g,
        "move tank from Redland to Blueland",
        Some("confined-movement"),
    );
    assert!(
        r.message
            .contains("Red's units may not enter Blueland: they move only within Middle, Redland"),
        "{r}"
    );
    ok(&mut g, "end phase");
    refused(
        &mut g,
        "move infantry from Redland to \"SZ 1\"",
        Some("no-transport"),
    );
    ok(&mut g, "move 2 infantry from Redland to Middle");
}

#[test]
fn new_units_enter_play_in_any_territory_the_power_controls() {
    let mut g = red_stays_home();
    let red = g.rules().power("Red").unwrap();
    let infantry = Piece::Unit(g.rules().unit_type("infantry").unwrap());
    g.arrange(&Arrangement {
        purchased: vec![(red, vec![(infantry, 3)])],
        ..Arrangement::default()
    })
    .unwrap();
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    assert_eq!(g.current_phase().id, "mobilize");
    // Middle has no factory; no production limit either.
    refused(
        &mut g,
        "place infantry in Blueland",
        Some("mobilize-controlled-territory"),
    );
    ok(&mut g, "place 3 infantry in Middle");
    let middle = g.rules().board.find("Middle").unwrap();
    let placed = g
        .state()
        .space(middle)
        .units
        .iter()
        .filter(|u| u.owner == red)
        .count();
    assert_eq!(placed, 3);
}
