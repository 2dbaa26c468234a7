//! Scenario files with mistakes: each problem is found at its line and column with a message
//! that says what is wrong, all of them at once.

mod support;
use std::sync::Arc;
use warroom_core::scenario::{self, RulesCache};

/// Write `text` as a scenario file, read it, and expect exactly these problems as
/// `line:col message-fragment`.
fn check(text: &str, expected: &[&str]) {
    let dir = std::env::temp_dir().join(format!("warroom-scen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("case-{:x}.toml", fxhash(text)));
    std::fs::write(&file, text).unwrap();
    let cache = RulesCache::new(support::editions());
    let mut got: Vec<String> = match scenario::load(&file, &[], &|h| cache.get(h)) {
        Ok(_) => Vec::new(),
        Err((_, problems)) => problems
            .iter()
            .map(|p| {
                let at = p.location().unwrap_or("?");
                let lc = at.rsplitn(3, ':').collect::<Vec<_>>();
                format!(
                    "{}:{} {}",
                    lc.get(1).unwrap_or(&"?"),
                    lc.first().unwrap_or(&"?"),
                    p.message
                )
            })
            .collect(),
    };
    std::fs::remove_file(&file).unwrap();
    // In file order, whatever order the reader found them in.
    let key = |s: &String| -> (u32, u32) {
        let at = s.split(' ').next().unwrap_or("");
        let (l, c) = at.split_once(':').unwrap_or(("0", "0"));
        (l.parse().unwrap_or(0), c.parse().unwrap_or(0))
    };
    got.sort_by_key(key);
    assert_eq!(got.len(), expected.len(), "{got:#?}");
    for (g, e) in got.iter().zip(expected) {
        let (at, msg) = e.split_once(' ').unwrap();
        assert!(
            g.starts_with(&format!("{at} ")) && g.contains(msg),
            "expected `{e}`, got `{g}`"
        );
    }
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

const HEAD: &str = "rule = \"1941-WRAP\"\nedition = \"1941\"\n";

#[test]
fn a_clean_scenario_reads_without_problems() {
    check(
        &format!("{HEAD}steps = [\"end phase\"]\n[start]\npower = \"Germany\"\nphase = \"combat_move\"\n"),
        &[],
    );
}

#[test]
fn a_misspelt_field_is_located_with_the_closest_one() {
    check(&format!("{HEAD}stpes = []\n"), &["3:1 unknown field `stpes`"]);
    check(
        &format!("{HEAD}[expect]\nonwer = {{ Karelia = \"Germany\" }}\n"),
        &["4:1 unknown field `expect.onwer`"],
    );
}

#[test]
fn unknown_names_are_located_at_the_name() {
    check(
        &format!("{HEAD}[start]\nclear = [\"Karelai\"]\n[start.units.Karelia.Germny]\ntank = 1\n"),
        &["4:10 no space `Karelai`", "5:22 no power `Germny`"],
    );
    check(
        &format!("{HEAD}[start.units.Karelia.Germany]\ntank = 1\nartillery = 1\n"),
        &["5:1 no unit `artillery`"],
    );
}

#[test]
fn a_step_that_is_not_a_command_is_an_error_unless_it_must_be_refused() {
    check(
        &format!(
            "{HEAD}steps = [\"mvoe tank\", {{ command = \"mvoe tank\", rejected = \"did you mean\" }}]\n"
        ),
        &["3:10 `mvoe tank`: unknown command `mvoe`; did you mean `move`?"],
    );
}

#[test]
fn dice_phases_sides_and_events_are_checked_against_the_rules() {
    check(
        &format!(
            "{HEAD}dice = [6, 7]\n[start]\npower = \"Germany\"\nphase = \"combat\"\n[expect]\nwinner = \"Axes\"\n\
             events = [\"territory_taken\", {{ event = \"casualties\", spaec = \"Karelia\" }}]\n"
        ),
        &[
            "3:12 a die shows 1 to 6, not 7",
            "6:9 no phase `combat`",
            "8:10 no side `Axes`",
            "9:11 no event `territory_taken`",
            "9:54 `casualties` carries no field `spaec`",
        ],
    );
}

#[test]
fn a_scenario_names_the_rule_it_checks_and_an_edition_that_loads() {
    check(
        "edition = \"1941\"\n",
        &["1:1 a scenario names the rule it checks"],
    );
    check(
        "rule = \"X\"\nedition = \"1492\"\n",
        &["2:11 `1492` does not load"],
    );
}

#[test]
fn a_game_under_way_cannot_be_rearranged() {
    let mut g = support::game("1941", &[], None);
    support::ok(&mut g, "end phase");
    let before = g.hash();
    let err = g
        .arrange(&warroom_core::game::arrange::Arrangement {
            empty_board: true,
            ..Default::default()
        })
        .unwrap_err();
    assert!(err.contains("under way"), "{err}");
    assert_eq!(g.hash(), before);
    // A fresh game can be arranged; the arranged position is the start of the turn.
    let mut g = support::game("1941", &[], None);
    let rules = Arc::clone(g.rules());
    let karelia = rules.board.find("Karelia").unwrap();
    let germany = rules.power("Germany").unwrap();
    g.arrange(&warroom_core::game::arrange::Arrangement {
        control: vec![(karelia, Some(germany))],
        ..Default::default()
    })
    .unwrap();
    assert_eq!(g.state().this_turn.start_control[karelia.index()], Some(germany));
}
