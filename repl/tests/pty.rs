//! `warroom play` at a terminal (a pseudo-terminal): Tab completion, the battle's question in
//! the prompt, Enter for the suggested casualties and for pressing on, and the history file.

use rexpect::session::{spawn_with_options, Options, PtySession};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A history file of the test's own, never the user's.
fn history(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("warroom-pty-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn play(history: &Path) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warroom"));
    cmd.arg("--editions")
        .arg(root().join("editions"))
        .args(["play", "1941", "--seed", "1"])
        .current_dir(root())
        .env("WARROOM_HISTORY", history)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let opts = Options::new()
        .timeout_ms(Some(10_000))
        .strip_ansi_escape_codes(true);
    let mut p = spawn_with_options(cmd, opts).expect("start warroom in a pseudo-terminal");
    expect(&mut p, "type `help` for commands");
    expect(&mut p, "]> ");
    p
}

/// Output is read byte by byte as chars: expect ASCII only.
fn expect(p: &mut PtySession, text: &str) -> String {
    p.exp_string(text)
        .unwrap_or_else(|e| panic!("waiting for `{text}`: {e}"))
}

/// Type keys (Tab included) and Enter; wait for `answer`, then for the next prompt. What was
/// printed, from the keys to the prompt.
fn run(p: &mut PtySession, keys: &str, answer: &str) -> String {
    p.send(keys).expect("type");
    p.send("\r").expect("press Enter");
    p.flush().expect("flush");
    let before = expect(p, answer);
    let after = expect(p, "]> ");
    format!("{before}{answer}{after}")
}

/// Leave a game with unsaved commands: `quit` warns, a second `quit` leaves.
fn quit(mut p: PtySession) {
    p.send("quit\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "unsaved commands");
    expect(&mut p, "]> ");
    p.send("quit\r").unwrap();
    p.flush().unwrap();
    p.exp_eof().expect("warroom exits");
}

#[test]
fn tab_completes_space_and_unit_names_and_the_history_is_kept() {
    let hist = history("complete");
    let mut p = play(&hist);
    let out = run(&mut p, "show Kar\t", "Karelia (1 IPC), held by Soviet Union");
    assert!(out.contains("Soviet Union 3 Infantry"), "{out}");
    run(
        &mut p,
        "show eastern e\t",
        "Eastern Europe (1 IPC), held by Germany",
    );
    run(&mut p, "buy 2 inf\t", "Soviet Union buys 2 Infantry");
    quit(p);
    let kept = std::fs::read_to_string(&hist).expect("the history file is written");
    for line in ["show Karelia", "show \"Eastern Europe\"", "buy 2 infantry"] {
        assert!(
            kept.lines().any(|l| l == line),
            "`{line}` not in the history:\n{kept}"
        );
    }

    // The next run reads it back: Up, Up brings the line before `quit`.
    let mut p = play(&hist);
    p.send("\x1b[A").unwrap();
    p.flush().unwrap();
    expect(&mut p, "]> quit");
    p.send("\x1b[A\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "Soviet Union buys 2 Infantry");
    expect(&mut p, "]> ");
    quit(p);
    let _ = std::fs::remove_file(&hist);
}

#[test]
fn the_prompt_asks_for_casualties_and_enter_takes_the_suggested_ones() {
    let hist = history("battle");
    let mut p = play(&hist);
    run(&mut p, "end phase", "Soviet Union: Combat Move");
    // Eastern Europe held by one German infantry; the Soviet attack: an infantry and a tank.
    run(
        &mut p,
        "edit remove \"Eastern Europe\" Germany 4 infantry",
        "4 Infantry of Germany removed",
    );
    run(
        &mut p,
        "edit remove \"Eastern Europe\" Germany 2 tank",
        "2 Tank of Germany removed",
    );
    run(
        &mut p,
        "edit add \"Eastern Europe\" Germany 1 infantry",
        "1 Infantry of Germany added",
    );
    run(
        &mut p,
        "edit add Karelia \"Soviet Union\" 1 tank",
        "1 Tank of Soviet Union added",
    );
    run(
        &mut p,
        "move 1 infantry, tank from Karelia to \"Eastern Europe\"",
        "Soviet Union moves 1 Infantry, 1 Tank Karelia",
    );
    run(&mut p, "end phase", "Soviet Union: Conduct Combat");
    run(&mut p, "dice manual", "dice come from the table");
    // The attacker misses (5, 5), the defender hits (1).
    run(&mut p, "roll 5 5 1", "3 face(s) queued");
    p.send("fight\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "Germany rolls @2 [1]");
    expect(&mut p, "an empty line answers the battle's question");
    expect(
        &mut p,
        "[1 Soviet Union Conduct Combat | Eastern Europe: Soviet Union's casualties (1 hit; Enter takes 1 infantry)]> ",
    );
    // Enter: the suggested casualty.
    p.send("\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "Soviet Union loses 1 Infantry");
    expect(&mut p, "| Eastern Europe: press or retreat (Enter presses)]> ");
    // Enter again: press on; the second round waits for the tank's die.
    p.send("\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "| Eastern Europe: roll 1 die]> ");
    // An empty line asks nothing now: the same prompt again. Then `roll`, and the tank wins.
    p.send("\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "| Eastern Europe: roll 1 die]> ");
    run(&mut p, "roll 3 6", "Soviet Union captures Eastern Europe");
    p.send("status\r").unwrap();
    p.flush().unwrap();
    let out = expect(&mut p, "Soviet Union     treasury");
    assert!(out.contains("Eastern Europe (fought)"), "{out}");
    expect(&mut p, "[1 Soviet Union Conduct Combat]> ");
    quit(p);
    let _ = std::fs::remove_file(&hist);
}
