//! `warroom soak` and the views built on the legal actions (`moves SPACE`, `options`), as a
//! user runs them.

mod support;
use support::{text, view, warroom};

#[test]
fn soak_plays_random_games_and_reports_the_figures() {
    let out = std::env::temp_dir().join(format!("warroom-soak-{}", std::process::id()));
    let o = warroom(
        &[
            "soak",
            "1941",
            "--games",
            "2",
            "--rounds",
            "1",
            "--jobs",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.lines().any(|l| l == "2 passed, 0 failed"), "{t}");
    let figures = t
        .lines()
        .find(|l| l.starts_with("2 games, "))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(
        figures.contains("commands/s") && figures.contains("games/s"),
        "{figures}"
    );
    assert!(!out.exists(), "no failure, nothing written");
}

#[test]
fn soak_refuses_an_unknown_scenario_plainly() {
    let o = warroom(&["soak", "1941", "--scenario", "1999", "--games", "1"], "");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("1941 has no scenario `1999`"), "{}", text(&o));
}

#[test]
fn moves_shows_where_units_can_go_and_what_can_attack_a_space() {
    // 1941: the Soviet Union plays first; Germany's combat move after its purchase.
    let mut input = "end phase\n".repeat(7);
    input.push_str("moves w eu\nmoves karelia\nmoves\nmoves atlantis\n");
    let o = warroom(&["play", "1941"], &input);
    let t = text(&o);
    let from = view(&t, "moves w eu");
    assert_eq!(from[0], "from Western Europe (Combat Move):", "{t}");
    assert!(
        from.iter()
            .any(|l| l.starts_with("  Fighter: ") && l.contains("Karelia*")),
        "{from:#?}"
    );
    let into = view(&t, "moves karelia");
    assert_eq!(
        into[0], "nothing can move from Karelia in Combat Move",
        "{into:#?}"
    );
    assert!(into.contains(&"into Karelia:"), "{into:#?}");
    assert!(into.contains(&"  Tank from Eastern Europe"), "{into:#?}");
    assert!(view(&t, "moves")[0].contains("moves from where?"), "{t}");
    assert!(view(&t, "moves atlantis")[0].starts_with("rejected"), "{t}");
}

#[test]
fn options_lists_every_legal_command_by_kind() {
    let o = warroom(&["play", "1941"], "options\n");
    let t = text(&o);
    let v = view(&t, "options");
    // The Soviet purchase: each unit type the treasury affords, and ending the phase.
    assert!(v[0].ends_with("legal commands now:"), "{v:#?}");
    assert!(v.iter().any(|l| l.contains("buy 1 infantry")), "{v:#?}");
    assert!(v.iter().any(|l| l.trim() == "end phase"), "{v:#?}");
    assert!(
        !v.iter().any(|l| l.contains("buy 1 battleship")),
        "the Soviet treasury does not buy a battleship: {v:#?}"
    );
}

/// `--refusals` ends with the refused candidates counted by command, phase and rule; the counts
/// add up to the figure of refused candidates.
#[test]
fn soak_lists_the_refused_candidates_by_rule() {
    let o = warroom(
        &[
            "soak",
            "1941",
            "--games",
            "2",
            "--rounds",
            "2",
            "--jobs",
            "1",
            "--refusals",
            "--no-replay",
            "--no-save-check",
        ],
        "",
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let refused: u64 = t
        .lines()
        .find_map(|l| l.split(" commands (").nth(1)?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{t}"));
    let listed: Vec<&str> = t
        .lines()
        .skip_while(|l| !l.starts_with("refused candidates, by command, phase and rule"))
        .skip(1)
        .take_while(|l| !l.contains("passed,"))
        .collect();
    assert!(!listed.is_empty(), "{t}");
    assert!(listed.iter().any(|l| l.contains("` in combat_move [")), "{t}");
    let sum: u64 = listed
        .iter()
        .map(|l| l.split_whitespace().next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, refused, "{t}");
}
