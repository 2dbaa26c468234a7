//! The promise of tests/saves/: every save kept there, real games saved by this build and by
//! older ones, loads in this build at the position it was saved in. A change that breaks one
//! comes with a migration (core/src/game/save.rs), never with a deleted or rewritten save.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use warroom_core::game::save::{self, Loaded};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn saves() -> PathBuf {
    root().join("tests/saves")
}

/// The position each save must load at, from tests/saves/expected.toml.
#[derive(Debug)]
struct Expected {
    version: i64,
    round: u32,
    power: String,
    phase: String,
    commands: usize,
    treasuries: BTreeMap<String, i64>,
    /// Saved by an older build whose state hashed differently: the load must say so.
    older_hashes: bool,
}

fn expected() -> BTreeMap<String, Expected> {
    let path = saves().join("expected.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let int = |t: &toml::Table, k: &str, file: &str| -> i64 {
        t.get(k)
            .and_then(toml::Value::as_integer)
            .unwrap_or_else(|| panic!("expected.toml: [\"{file}\"] needs an integer `{k}`"))
    };
    let string = |t: &toml::Table, k: &str, file: &str| -> String {
        t.get(k)
            .and_then(toml::Value::as_str)
            .unwrap_or_else(|| panic!("expected.toml: [\"{file}\"] needs a string `{k}`"))
            .to_string()
    };
    doc.iter()
        .map(|(file, v)| {
            let t = v
                .as_table()
                .unwrap_or_else(|| panic!("expected.toml: `{file}` must be a table"));
            let treasuries = t
                .get("treasury")
                .and_then(toml::Value::as_table)
                .unwrap_or_else(|| panic!("expected.toml: [\"{file}\"] needs a `treasury` table"))
                .iter()
                .map(|(p, n)| (p.clone(), n.as_integer().unwrap()))
                .collect();
            let e = Expected {
                version: int(t, "version", file),
                round: int(t, "round", file) as u32,
                power: string(t, "power", file),
                phase: string(t, "phase", file),
                commands: int(t, "commands", file) as usize,
                treasuries,
                older_hashes: t
                    .get("older_hashes")
                    .and_then(toml::Value::as_bool)
                    .unwrap_or(false),
            };
            (file.clone(), e)
        })
        .collect()
}

fn kept_saves() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(saves())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".toml") && f != "expected.toml")
        .collect();
    files.sort();
    files
}

fn open(file: &str) -> Loaded {
    let path = saves().join(file);
    let bytes = std::fs::read(&path).unwrap();
    save::open(Path::new(file), &bytes, &root().join("editions")).unwrap_or_else(|e| {
        panic!(
            "{file} no longer loads: {e} ({})\nA change that breaks a kept save needs a migration; \
             see tests/saves/README.md",
            e.problem().location().unwrap_or("?")
        )
    })
}

#[test]
fn every_kept_save_loads_at_the_position_it_was_saved_in() {
    let expected = expected();
    let files = kept_saves();
    let listed: Vec<&String> = expected.keys().collect();
    assert_eq!(
        files.iter().collect::<Vec<_>>(),
        listed,
        "every save under tests/saves/ has its position in expected.toml, and every entry a save"
    );
    assert!(files.len() >= 5, "the kept saves are gone: {files:?}");
    for file in &files {
        let want = &expected[file];
        let loaded = open(file);
        let g = &loaded.game;
        assert_eq!(loaded.version, want.version, "{file}: format version");
        assert_eq!(g.history().len(), want.commands, "{file}: commands replayed");
        assert_eq!(g.state().round, want.round, "{file}: round");
        assert_eq!(
            g.rules().power_info(g.current_power()).name,
            want.power,
            "{file}: power to play"
        );
        assert_eq!(g.current_phase().id, want.phase, "{file}: phase");
        for (power, ipcs) in &want.treasuries {
            let p = g
                .rules()
                .power(power)
                .unwrap_or_else(|| panic!("{file}: no power {power}"));
            assert_eq!(
                g.state().treasuries[p.index()],
                *ipcs,
                "{file}: {power}'s treasury"
            );
        }
        if want.older_hashes {
            let w = loaded
                .warnings
                .first()
                .unwrap_or_else(|| panic!("{file}: saved by an older build, yet no hash differs"));
            assert!(
                w.to_string()
                    .starts_with("saved by another warroom: the state after command "),
                "{w}"
            );
            assert!(w.0.location().unwrap().starts_with(&format!("{file}:")), "{w}");
        }
    }
}

#[test]
fn a_kept_save_saved_again_loads_without_warnings_to_the_same_game() {
    // Saving records the current hashes: an old save, loaded and saved again, is current.
    for file in kept_saves() {
        let loaded = open(&file);
        let text = loaded.game.save_text();
        let again = save::open(Path::new(&file), text.as_bytes(), &root().join("editions")).unwrap();
        assert!(again.warnings.is_empty(), "{file}: {:?}", again.warnings);
        assert_eq!(again.game.hash(), loaded.game.hash(), "{file}");
        assert_eq!(again.game.history(), loaded.game.history(), "{file}");
    }
}

#[test]
fn an_older_save_whose_command_the_current_rules_refuse_stops_there_with_its_line() {
    // A full 1942 round saved by commit c004fa9, when China still had a turn of its own: under
    // today's rules China plays within the US turn, so its first move comes in the wrong phase.
    // The game past it does not exist under these rules: no game, and the place is named.
    let file = "anniversary-1942-china-own-turn.toml";
    let path = root().join("tests/fixtures/saves").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let e = match save::open(Path::new(file), text.as_bytes(), &root().join("editions")) {
        Ok(_) => panic!("{file} loaded, yet its China turn cannot be replayed"),
        Err(e) => e,
    };
    assert!(matches!(e, save::LoadSaveError::Diverged(_)), "{e}");
    let line = text
        .lines()
        .position(|l| l == "text = \"move 2 infantry, 1 fighter from Yunnan to Hupeh\"")
        .unwrap()
        + 1;
    assert!(
        e.to_string().starts_with(&format!(
            "the game cannot be replayed past command 65 `move 2 infantry, 1 fighter from Yunnan to Hupeh` (line {line})"
        )),
        "{e}"
    );
    assert_eq!(e.problem().location(), Some(format!("{file}:{line}:8").as_str()));
    let help = e.problem().help.as_deref().unwrap();
    assert!(
        help.contains(&format!(
            "delete the [[command]] tables from line {} on",
            line - 1
        )),
        "{help}"
    );
    assert!(help.contains("the first 64 command(s) replay"), "{help}");
}

/// Format 5 asked Japan's kamikazes as the enemy's combat move ended; format 6 asks them as its
/// first battle is ordered. A version 5 log's early answers are given when that `fight` asks,
/// and the `fight` again: the same dice, the same game, and the load says what it did.
#[test]
fn a_format_5_save_answering_kamikazes_after_combat_move_replays_them_at_the_fight() {
    let loaded = open("pacific1940-kamikaze-at-combat-move-end-format-5.toml");
    assert_eq!(loaded.given_again, 1);
    let migrated: Vec<String> = loaded
        .warnings
        .iter()
        .map(|w| w.to_string())
        .filter(|w| w.contains("were given when this"))
        .collect();
    assert_eq!(
        migrated,
        ["a version 5 save: the answers of commands 78 to 81 were given when this `fight \"SZ 20\"` asked the questions, and it was given again"]
    );
    let log: Vec<&str> = loaded.game.log().iter().map(|l| l.text.as_str()).collect();
    let strikes: Vec<&&str> = log
        .iter()
        .filter(|l| l.contains("Japan strikes at 2 or less"))
        .collect();
    assert_eq!(strikes.len(), 2, "{strikes:?}");
    assert!(
        strikes[0].contains("[6] missed") && strikes[1].contains("[3] missed"),
        "{strikes:?}"
    );
    // The sea battle comes after both strikes.
    let strike = log
        .iter()
        .rposition(|l| l.contains("Japan strikes at 2 or less"))
        .unwrap();
    let battle = log
        .iter()
        .position(|l| l.starts_with("battle in SZ 20"))
        .expect("the battle in SZ 20");
    assert!(battle > strike, "{log:#?}");
}
