//! The command language names things the way players type them: any case, abbreviations,
//! plurals, `sz 5`, and unambiguous prefixes of spaces, powers and units (word by word too).
//! Whatever was typed, a command is saved in its canonical text. Proven on the 1941 board.

mod support;
use std::sync::{Arc, OnceLock};
use support::*;
use warroom_core::game::command::{self, Command};
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, Lookup, RuleSet};

fn rules_1941() -> &'static Arc<RuleSet> {
    static RULES: OnceLock<Arc<RuleSet>> = OnceLock::new();
    RULES.get_or_init(|| {
        let req = LoadRequest::new(editions(), "1941");
        Arc::new(rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems)))
    })
}

/// `input` parses to the canonical text `expect`, or is refused with a message starting with
/// `expect` after `error: `.
fn check(input: &str, expect: &str) {
    let rules = rules_1941();
    let got = match Command::parse(rules, input) {
        Ok(cmd) => cmd.to_text(rules),
        Err(e) => format!("error: {e}"),
    };
    if let Some(message) = expect.strip_prefix("error: ") {
        assert!(
            got.strip_prefix("error: ")
                .is_some_and(|g| g.starts_with(message)),
            "`{input}`\n  expected error: {message}\n  got: {got}"
        );
    } else {
        assert_eq!(got, expect, "`{input}`");
    }
}

#[test]
fn spaces_by_exact_name_sea_zone_form_and_prefix() {
    check(
        "move 3 infantry from Karelia to Eastern Europe",
        "move 3 infantry from Karelia to \"Eastern Europe\"",
    );
    check(
        "MOVE 3 INF FROM KARELIA TO \"eastern europe\"",
        "move 3 infantry from Karelia to \"Eastern Europe\"",
    );
    check(
        "move 3 inf from kar to eastern eu",
        "move 3 infantry from Karelia to \"Eastern Europe\"",
    );
    check(
        "move 1 inf from kar to w rus",
        "move 1 infantry from Karelia to \"West Russia\"",
    );
    check(
        "move 1 inf from ukr to cauc",
        "move 1 infantry from Ukraine to Caucasus",
    );
    check(
        "move 1 inf from anglo to union of s",
        "move 1 infantry from \"Anglo-Egypt Sudan\" to \"Union of South Africa\"",
    );
    check(
        "move 1 sub from sz5 to SZ 6",
        "move 1 submarine from \"SZ 5\" to \"SZ 6\"",
    );
    check(
        "move 1 sub from 5 sea zone to sz 16",
        "move 1 submarine from \"SZ 5\" to \"SZ 16\"",
    );
    check(
        "move 2 infantry, tank from Eastern Europe to Karelia via w rus, arch",
        "move 2 infantry, 1 tank from \"Eastern Europe\" to Karelia via \"West Russia\", Archangel",
    );
    check(
        "move 2 ftr from ger to sz 5 via west eu ignoring",
        "move 2 fighter from Germany to \"SZ 5\" via \"Western Europe\" ignoring",
    );
    check(
        "move 1 bmb from ger to kar bombing",
        "move 1 bomber from Germany to Karelia bombing",
    );
    check("fight in ukr", "fight Ukraine");
    check("fight w rus", "fight \"West Russia\"");
    check("retreat to w rus", "retreat to \"West Russia\"");
    check("place 2 inf in ger", "place 2 infantry in Germany");
    check(
        "place 1 ind at sou eu",
        "place 1 industrial_complex in \"Southern Europe\"",
    );
}

#[test]
fn an_ambiguous_prefix_lists_what_it_could_be() {
    check(
        "move inf from east to kar",
        "error: \"east\" could be: East Indies, East Mexico, Eastern Canada, Eastern Europe, Eastern United States",
    );
    check(
        "move inf from kar to west",
        "error: \"west\" could be: West Indies, West Russia, Western Canada, Western Europe, Western United States",
    );
    // Long lists stop at twelve names.
    check(
        "fight s",
        "error: \"s\" could be: Sahara, Saudi Arabia, Siberia, Solomon Islands, Southeast Asia, \
         Southern Europe, Soviet Far East, Spain Portugal, Sweden, Switzerland, SZ 1, SZ 2 and 48 more",
    );
    check("fight sz", "error: \"sz\" could be: SZ 1, SZ 2, SZ 3,");
    let r = Command::parse(rules_1941(), "fight s").unwrap_err();
    assert!(r.ends_with("more"), "{r}");
    assert_eq!(r.matches(", ").count(), 11, "{r}");
    // A name that is not a prefix of anything gets the nearest name.
    check(
        "fight Karelai",
        "error: no space `Karelai`; did you mean `Karelia`?",
    );
}

#[test]
fn units_by_abbreviation_plural_and_prefix() {
    check("buy 2 arm", "buy 2 tank");
    check("buy 2 Tanks", "buy 2 tank");
    check("buy 3 infantry", "buy 3 infantry");
    check("buy 1 bat", "buy 1 battleship");
    check("buy 1 aircraft carrier", "buy 1 aircraft_carrier");
    check("buy 2 aircraft carriers", "buy 2 aircraft_carrier");
    check("buy 1 air carr", "buy 1 aircraft_carrier");
    check("buy 1 industrial complex", "buy 1 industrial_complex");
    check("buy 2 subs", "buy 2 submarine");
    check("buy 2 destroyers", "buy 2 destroyer");
    check("buy 1 b", "error: \"b\" could be: Battleship, Bomber");
    check("buy 1 i", "error: \"i\" could be: Industrial Complex, Infantry");
    check("buy 1 tnak", "error: no unit `tnak`; did you mean `tank`?");
    check("casualties 2 inf, arm, #12", "casualties 2 infantry, 1 tank, #12");
    check("submerge all subs", "submerge all submarine");
    check(
        "move 1 ind from ger to kar",
        "error: `ind` is a facility; facilities do not move",
    );
}

#[test]
fn powers_by_name_abbreviation_and_prefix() {
    check("order ger inf, arm", "order Germany infantry, tank");
    check("order soviet default", "order \"Soviet Union\" default");
    check("edit treasury uk 40", "edit treasury \"United Kingdom\" 40");
    check("edit control kar ger", "edit control Karelia Germany");
    check(
        "edit add w rus sov 2 inf",
        "edit add \"West Russia\" \"Soviet Union\" 2 infantry",
    );
    check(
        "edit add Eastern United States United States 1 tank",
        "edit add \"Eastern United States\" \"United States\" 1 tank",
    );
    check(
        "edit relation ger jap allied",
        "edit relation Germany Japan allied",
    );
    check(
        "edit relation ger united war",
        "error: \"united\" could be: United Kingdom, United States",
    );
    check("edit control east ger", "error: \"east\" could be: East Indies");
    check(
        "edit control Atlantis ger",
        "error: no space at the start of `Atlantis ger`",
    );
}

#[test]
fn dice_modes_and_unknown_verbs() {
    check("dice manual", "dice manual");
    check("dice auto", "dice auto");
    check("dice seeded", "dice auto");
    check("dice seeded 42", "dice seeded 42");
    check("DICE SEEDED 7", "dice seeded 7");
    check("dice seeded -1", "error: `-1` is not a seed");
    check("dice loaded", "error: usage: dice manual");
    check(
        "mvoe 2 inf from kar to arch",
        "error: unknown command `mvoe`; did you mean `move`?",
    );
    check(
        "casualtys",
        "error: unknown command `casualtys`; did you mean `casualties`?",
    );
    check(
        "surrender",
        "error: unknown command `surrender`; `help` lists the commands",
    );
    check(
        "disag",
        "error: unknown command `disag`; did you mean `disagree`?",
    );
    // Every verb listed is one the parser knows.
    for v in command::VERBS.iter().chain(command::ALIASES) {
        assert!(command::is_verb(v) && command::is_verb(&v.to_uppercase()), "{v}");
        if let Err(e) = Command::parse(rules_1941(), v) {
            assert!(!e.starts_with("unknown command"), "`{v}`: {e}");
        }
    }
    assert!(!command::is_verb("battles"), "a view of the shell, not a command");
}

#[test]
fn board_lookup_prefers_exact_then_whole_prefix_then_words() {
    let b = &rules_1941().board;
    let name = |l: Lookup<warroom_core::rules::SpaceId>| l.found().map(|id| b.space(id).name.clone());
    assert_eq!(name(b.lookup("  karelia ")), Some("Karelia".into()));
    assert_eq!(
        name(b.lookup("sz 1")),
        Some("SZ 1".into()),
        "exact beats the prefix of SZ 10"
    );
    assert_eq!(
        name(b.lookup("russia")),
        Some("Russia".into()),
        "exact beats West Russia"
    );
    assert_eq!(name(b.lookup("west r")), Some("West Russia".into()));
    assert_eq!(name(b.lookup("w e")), Some("Western Europe".into()));
    assert_eq!(b.lookup("atlantis"), Lookup::Missing);
    assert_eq!(b.lookup(""), Lookup::Missing);
    assert!(rules::abbreviates("w rus", "West Russia"));
    assert!(rules::abbreviates("anglo-e s", "Anglo-Egypt Sudan"));
    assert!(!rules::abbreviates("rus w", "West Russia"));
    assert!(!rules::abbreviates("west russia x", "West Russia"));
}

#[test]
fn a_command_typed_with_prefixes_is_saved_in_canonical_text_and_replays() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Soviet Union", "combat_move");
    ok(&mut g, "move 3 inf from kar to eastern eu");
    ok(&mut g, "mv arm from cauc to ukr");
    let texts: Vec<&str> = g
        .history()
        .iter()
        .rev()
        .take(2)
        .map(|r| r.text.as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "move 1 tank from Caucasus to Ukraine",
            "move 3 infantry from Karelia to \"Eastern Europe\"",
        ]
    );
    let text = g.save_text();
    let loaded = warroom_core::game::save::load(std::path::Path::new("g.toml"), &text, &editions())
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(loaded.hash(), g.hash());
    assert_eq!(count(&loaded, "Ukraine", "Soviet Union", "tank"), 1);
}
