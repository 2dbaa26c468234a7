//! Saves as a player meets them through `warroom play --load` and the shell's `load`: a save
//! by an older warroom loads with a warning and plays on; a file that is not a save (not
//! UTF-8, cut short) and a log the rules refuse are errors naming the file and line, and no
//! game starts from them.

mod support;
use support::{root, text, warroom};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("warroom-saves-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The kept save made by an older build of warroom (tests/saves/README.md).
const OLD: &str = "tests/saves/1941-older-build.toml";

#[test]
fn a_save_by_an_older_warroom_loads_with_a_warning_naming_where_the_state_differs() {
    let save = root().join(OLD);
    let o = warroom(
        &["play", "--load", save.to_str().unwrap(), "--strict"],
        "status\nmove 3 fighter from \"West Russia\" to \"Eastern Europe\"\nmove bomber from \"West Russia\" to Germany\nend phase\nstatus\n",
    );
    let err = String::from_utf8_lossy(&o.stderr);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        err.contains("saved by another warroom: the state after command 1 `"),
        "{err}"
    );
    assert!(err.contains("the game was replayed under the"), "{err}");
    assert!(err.contains("1941-older-build.toml:11:"), "{err}");
    // The game goes on from where it was saved.
    assert!(
        out.contains("round 1, Germany (Axis), phase: Noncombat Move"),
        "{out}"
    );
    assert!(
        out.contains("round 1, Germany (Axis), phase: Mobilize New Units"),
        "{out}"
    );
    assert!(!out.contains("rejected"), "{out}");

    // The shell's `load` says the same, and the game is loaded.
    let o = warroom(&["play", "1941"], &format!("load {}\nstatus\n", save.display()));
    assert!(text(&o).contains("saved by another warroom"), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("loaded {}", save.display())),
        "{}",
        text(&o)
    );
}

#[test]
fn a_save_that_is_not_utf8_is_a_located_error_and_no_game_starts() {
    let dir = scratch("latin");
    let save = dir.join("latin.toml");
    let mut bytes = std::fs::read(root().join(OLD)).unwrap();
    let at = bytes.windows(9).position(|w| w == b"edition =").unwrap();
    bytes.splice(at..at, *b"# caf\xe9\n");
    std::fs::write(&save, &bytes).unwrap();
    // No input: the load fails before any would be read.
    let o = warroom(&["play", "--load", save.to_str().unwrap()], "");
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(t.contains("the save is not UTF-8 text: byte 0xe9"), "{t}");
    assert!(t.contains("latin.toml:4:6"), "{t}");
    assert!(!t.contains("round 1"), "no game was played: {t}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_save_cut_short_is_a_located_error_and_the_shell_keeps_its_game() {
    let dir = scratch("cut");
    let save = dir.join("cut.toml");
    let whole = std::fs::read_to_string(root().join(OLD)).unwrap();
    let cut = &whole[..whole.rfind("\n[[command]]").unwrap() + 1];
    std::fs::write(&save, cut).unwrap();
    // No input: the load fails before any would be read.
    let o = warroom(&["play", "--load", save.to_str().unwrap()], "");
    assert!(!o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("the save is cut short or damaged"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("cut.toml:8:"), "{}", text(&o));

    // In the shell a failed load leaves the game being played as it was.
    let o = warroom(
        &["play", "1941", "--seed", "4"],
        &format!("buy 2 infantry\nload {}\nstatus\n", save.display()),
    );
    let t = text(&o);
    assert!(t.contains("rejected: "), "{t}");
    assert!(t.contains("the save is cut short or damaged"), "{t}");
    assert!(
        t.contains("2 infantry"),
        "the game bought into is still there: {t}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_command_the_current_rules_refuse_stops_the_load_at_that_command() {
    let dir = scratch("refused");
    let save = dir.join("refused.toml");
    let whole = std::fs::read_to_string(root().join(OLD)).unwrap();
    let tampered = whole.replacen("text = \"buy 2 infantry\"", "text = \"buy 200 infantry\"", 1);
    assert_ne!(tampered, whole);
    std::fs::write(&save, &tampered).unwrap();
    let line = tampered.lines().position(|l| l.contains("buy 200")).unwrap() + 1;
    // No input: the load fails before any would be read.
    let o = warroom(&["play", "--load", save.to_str().unwrap()], "");
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(
        t.contains("the game cannot be replayed past command 1 `buy 200 infantry`"),
        "{t}"
    );
    assert!(t.contains(&format!("refused.toml:{line}:")), "{t}");
    assert!(t.contains("delete the [[command]] tables from line"), "{t}");
    std::fs::remove_dir_all(&dir).ok();
}
