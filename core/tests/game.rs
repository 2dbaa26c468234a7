//! The game model: commands as transactions, scripts' vetoes, saves that replay to the same
//! hash, and located errors for corrupt saves.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warroom_core::game::save::{self, LoadSaveError};
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

fn editions() -> PathBuf {
    fixtures().join("editions")
}

fn game(edition: &str, with: &[&str], seed: u64) -> Game {
    let mut req = LoadRequest::new(editions(), edition);
    req.with = with.iter().map(|s| s.to_string()).collect();
    let rules = rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems));
    Game::new(Arc::new(rules), edition, &req.with, None, seed).unwrap()
}

fn house(name: &str) -> String {
    fixtures().join("house").join(name).display().to_string()
}

const TURN: &[&str] = &[
    "buy 2 infantry",
    "edit add Middle Red 1 tank",
    "end phase",
    "end phase",
    "end phase",
    "end phase",
    "buy 1 heavy_tank",
    "edit control Middle Blue",
    "end phase",
];

#[test]
fn save_then_load_gives_the_same_state_hash() {
    let mut g = game("mini", &["cheap-tanks:cost=2"], 42);
    for c in TURN {
        g.execute(c).unwrap_or_else(|r| panic!("{c}: {r}"));
    }
    let text = g.save_text();
    let loaded = save::load(Path::new("game.toml"), &text, &editions()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.hash(), g.hash());
    assert_eq!(loaded.history(), g.history());
    assert_eq!(loaded.state(), g.state());
    assert_eq!(loaded.origin().with, vec!["cheap-tanks:cost=2".to_string()]);
}

#[test]
fn same_rules_seed_and_commands_give_the_same_game() {
    let mut a = game("mini", &[], 7);
    let mut b = game("mini", &[], 7);
    let c = game("mini", &[], 8);
    assert_ne!(a.hash(), c.hash(), "the dice state is part of the game");
    for cmd in TURN {
        a.execute(cmd).unwrap();
        b.execute(cmd).unwrap();
    }
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn a_rejected_command_leaves_no_trace() {
    let mut g = game("mini", &[], 1);
    let before = (g.hash(), g.history().len(), g.log().len());
    let r = g.execute("buy 9 tank").unwrap_err();
    assert!(r.message.contains("has 20 IPCs"), "{r}");
    let r = g.execute("edit remove Redland Red 9 infantry").unwrap_err();
    assert!(r.message.contains("only 3"), "{r}");
    assert_eq!((g.hash(), g.history().len(), g.log().len()), before);
}

#[test]
fn a_vetoing_hook_leaves_the_state_hash_unchanged() {
    let mut g = game(&house("no-tank-purchase"), &[], 1);
    let before = g.hash();
    let r = g.execute("buy 1 tank").unwrap_err();
    assert_eq!(r.message, "tanks may not be bought under this house rule");
    assert_eq!(r.rule.as_deref(), Some("house.no_tanks"));
    assert_eq!(g.hash(), before);
    assert!(g.history().is_empty());
    // The same layer lets other purchases through.
    g.execute("buy 2 infantry").unwrap();
    assert_ne!(g.hash(), before);
}

#[test]
fn a_failing_hook_fails_the_command_with_its_file_and_line() {
    let mut g = game(&house("broken-hook"), &[], 1);
    let before = g.hash();
    let r = g.execute("end phase").unwrap_err();
    assert!(r.message.contains("broken-hook/hook.lua:4"), "{r}");
    assert!(r.message.contains("event 'phase_end'"), "{r}");
    assert_eq!(g.hash(), before);
    assert_eq!(g.current_phase().id, "purchase");
}

#[test]
fn script_store_is_part_of_the_game_and_replays() {
    let mut g = game(&house("phase-counter"), &[], 3);
    let h0 = g.hash();
    g.execute("end phase").unwrap();
    g.execute("end phase").unwrap();
    assert_ne!(g.hash(), h0);
    let loaded = save::load(Path::new("g.toml"), &g.save_text(), &editions()).unwrap();
    assert_eq!(loaded.hash(), g.hash());
}

#[test]
fn a_request_with_a_field_its_command_does_not_take_fails_the_command() {
    let mut g = game(&house("misspelt-request"), &[], 3);
    let before = g.hash();
    let e = g.execute("end phase").unwrap_err().to_string();
    assert!(e.contains("add_ipcs takes no field `amout`"), "{e}");
    assert!(e.contains("amount"), "the message lists the fields: {e}");
    assert_eq!(g.hash(), before);
}

#[test]
fn a_power_without_its_capital_skips_purchase_and_income() {
    let mut g = game("mini", &[], 1);
    g.execute("edit control Blueland Red").unwrap();
    for _ in 0..4 {
        g.execute("end phase").unwrap();
    }
    // Red's turn ended; Blue has no capital, so it starts at Combat Move.
    assert_eq!(g.current_phase().id, "combat_move");
    assert_eq!(g.state().treasuries[1], 12);
    g.execute("end phase").unwrap();
    let out = g.execute("end phase").unwrap();
    assert!(out.iter().any(|l| l.contains("Red: Purchase Units")), "{out:?}");
    assert_eq!(g.state().round, 2);
    assert_eq!(g.state().treasuries[1], 12, "no income without a capital");
    // Red collected Redland 5 + Middle 2 + Blueland 4.
    assert_eq!(g.state().treasuries[0], 31);
}

fn corrupt(text: &str) -> LoadSaveError {
    match save::load(Path::new("bad.toml"), text, &editions()) {
        Ok(_) => panic!("a corrupt save loaded"),
        Err(e) => e,
    }
}

fn location(e: &LoadSaveError) -> String {
    match e {
        LoadSaveError::Corrupt(p) | LoadSaveError::Diverged(p) => p.location().unwrap().to_string(),
        LoadSaveError::Rules(r) => panic!("rules error: {r}"),
    }
}

#[test]
fn corrupt_saves_are_located_errors() {
    let mut g = game("mini", &[], 5);
    for c in TURN {
        g.execute(c).unwrap();
    }
    let good = g.save_text();

    let e = corrupt("format = \"warroom-save\"\nversion = [\n");
    assert!(matches!(e, LoadSaveError::Corrupt(_)));
    assert!(location(&e).starts_with("bad.toml:"), "{}", location(&e));

    let e = corrupt(&good.replace(&format!("version = {}", save::VERSION), "version = 99"));
    assert!(e.to_string().contains("version 99"), "{e}");
    assert!(location(&e).starts_with("bad.toml:3:"), "{}", location(&e));

    // A tampered command: the replay is rejected at that command, located at its line.
    let tampered = good.replacen("buy 1 heavy_tank", "buy 50 heavy_tank", 1);
    let e = corrupt(&tampered);
    assert!(matches!(e, LoadSaveError::Diverged(_)));
    assert!(e.to_string().contains("command 7"), "{e}");
    let line = tampered.lines().position(|l| l.contains("buy 50")).unwrap() + 1;
    assert!(
        location(&e).starts_with(&format!("bad.toml:{line}:")),
        "{}",
        location(&e)
    );

    // A tampered hash: reported (the state after that command differs), but the game loads.
    let first_hash = format!("{:016x}", g.history()[0].hash);
    let tampered = good.replacen(&first_hash, "0000000000000000", 1);
    let loaded = save::open(Path::new("bad.toml"), tampered.as_bytes(), &editions()).unwrap();
    assert!(
        loaded.warnings[0].to_string().contains("after command 1"),
        "{}",
        loaded.warnings[0]
    );
    assert_eq!(loaded.game.hash(), g.hash());

    let e = corrupt(&good.replace("format = \"warroom-save\"", "format = \"chess\""));
    assert!(e.to_string().contains("not a warroom save"), "{e}");
}

#[test]
fn a_failure_late_in_a_command_rolls_back_what_earlier_handlers_stored() {
    let mut g = game(&house("late-failure"), &[], 1);
    let before = g.hash();
    let r = g.execute("end phase").unwrap_err();
    assert!(r.message.contains("no combat allowed"), "{r}");
    assert!(r.message.contains("late-failure/rules.lua:7"), "{r}");
    assert_eq!(
        g.hash(),
        before,
        "the store written by phase_end must be rolled back"
    );
}
