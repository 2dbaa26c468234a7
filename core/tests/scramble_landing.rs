//! Where a scrambled air unit whose base was lost lands: its owner chooses among the places
//! one space away (an engine question), and a save written before owners chose replays with
//! the first place, as the engine then took.

mod support;

use support::*;
use warroom_core::game::save;
use warroom_core::game::Game;

/// Europe 1940 from its start: Germany attacks SZ 111; a British fighter scrambled from
/// Scotland survives, Scotland falls (an edit at the table stands in for an assault), and
/// British carriers with room wait in SZ 110 and SZ 124. Ends before Conduct Combat ends.
fn lost_home() -> Game {
    let mut g = game("europe1940", &[], None);
    for space in ["SZ 112", "SZ 111", "SZ 119", "SZ 110", "SZ 124", "Scotland"] {
        clear(&mut g, space);
    }
    for c in [
        "edit add \"SZ 112\" Germany 1 destroyer",
        "edit add \"SZ 111\" \"United Kingdom\" 1 destroyer",
        "edit add \"SZ 110\" \"United Kingdom\" 1 aircraft_carrier",
        "edit add \"SZ 124\" \"United Kingdom\" 1 aircraft_carrier",
        "edit add Scotland \"United Kingdom\" 1 fighter",
        "dice manual",
        "end phase",
        "move destroyer from \"SZ 112\" to \"SZ 111\"",
        "end phase",
        "scramble fighter from Scotland to \"SZ 111\"",
        "roll 6 1 6",
        "fight \"SZ 111\"",
        "edit control Scotland Germany",
    ] {
        ok(&mut g, c);
    }
    assert_eq!(controller(&g, "Scotland").as_deref(), Some("Germany"));
    g
}

#[test]
fn the_owner_of_a_scrambled_fighter_whose_base_fell_chooses_where_it_lands() {
    let mut g = lost_home();
    let out = ok(&mut g, "end phase");
    assert!(
        logged(&out, "where does it land? — answer SZ 110 | SZ 124"),
        "{out:?}"
    );
    let legal: Vec<String> = g.legal_actions().iter().map(|c| c.to_text(g.rules())).collect();
    assert!(legal.iter().any(|c| c == "answer \"SZ 124\""), "{legal:?}");
    refused(
        &mut g,
        "move fighter from \"SZ 124\" to Scotland",
        "question-first",
    );
    ok(&mut g, "answer 2");
    assert_eq!(count(&g, "SZ 124", "United Kingdom", "fighter"), 1);
    assert_eq!(count(&g, "SZ 110", "United Kingdom", "fighter"), 0);
}

#[test]
fn a_version_4_save_lands_it_at_the_first_place_as_the_engine_then_did() {
    let mut g = lost_home();
    ok(&mut g, "end phase");
    ok(&mut g, "answer 1");
    ok(&mut g, "end phase");
    // Written by version 4: no answer in the log (the engine asked nobody), and no hashes.
    let text = g
        .save_text()
        .replace(&format!("version = {}", save::VERSION), "version = 4")
        .replace("\n[[command]]\ntext = 'answer \"SZ 110\"'\n", "\n");
    assert!(!text.contains("answer"), "{text}");
    let text: String = text
        .lines()
        .filter(|l| !l.starts_with("hash = ") && !l.starts_with("final_hash = "))
        .collect::<Vec<_>>()
        .join("\n");
    let loaded = save::open(std::path::Path::new("old.toml"), text.as_bytes(), &editions())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.version, 4);
    let g = loaded.game;
    assert!(g.state().questions.0.is_empty());
    assert_eq!(g.current_phase().id, "mobilize");
    assert_eq!(count(&g, "SZ 110", "United Kingdom", "fighter"), 1);
}
