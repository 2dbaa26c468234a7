//! `warroom play --ai all` at a terminal (a pseudo-terminal): the AI plays at a pace a human
//! can follow, Ctrl-C pauses it at the prompt (where `undo` will not take back its commands),
//! and Enter lets it play on.

use rexpect::session::{spawn_with_options, Options, PtySession};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn expect(p: &mut PtySession, text: &str) -> String {
    p.exp_string(text)
        .unwrap_or_else(|e| panic!("waiting for `{text}`: {e}"))
}

#[test]
fn ctrl_c_pauses_the_ai_at_the_prompt_and_enter_lets_it_play_on() {
    let history = std::env::temp_dir().join(format!("warroom-ai-pty-{}", std::process::id()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_warroom"));
    cmd.arg("--editions")
        .arg(root().join("editions"))
        .args(["play", "1941", "--ai", "all", "--ai-pace", "700"])
        .current_dir(root())
        .env("WARROOM_HISTORY", &history)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let opts = Options::new()
        .timeout_ms(Some(15_000))
        .strip_ansi_escape_codes(true);
    let mut p = spawn_with_options(cmd, opts).expect("start warroom in a pseudo-terminal");
    expect(&mut p, "the AI plays every power");
    // The Soviet purchase: its first command, then a pause before the next.
    expect(&mut p, "Soviet Union (AI): buy ");
    let shown = Instant::now();
    expect(&mut p, "== round 1: Soviet Union (AI), Combat Move ==");
    assert!(
        shown.elapsed().as_millis() >= 500,
        "the AI's commands came without a pause ({} ms)",
        shown.elapsed().as_millis()
    );
    // Its first attack is on the board; Ctrl-C in the pause before the next command.
    expect(&mut p, "Soviet Union moves ");
    p.send_control('c').expect("Ctrl-C");
    expect(&mut p, "the AI pauses");
    expect(&mut p, "[1 Soviet Union Combat Move]> ");
    p.send("undo\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "was the AI's: `undo` takes back only your own commands");
    expect(&mut p, "]> ");
    // Still paused after a view: `status` shows the board, the AI does not move.
    p.send("status\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "round 1, Soviet Union (Allies), phase: Combat Move");
    expect(&mut p, "]> ");
    // Enter: the AI plays on, from where it stood.
    p.send("\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "== round 1: Soviet Union (AI), Combat Move ==");
    expect(&mut p, "Soviet Union (AI): move ");
    // Leave: Ctrl-C pauses again, then `quit` (twice: the game is not saved).
    p.send_control('c').unwrap();
    expect(&mut p, "the AI pauses");
    expect(&mut p, "]> ");
    p.send("quit\r").unwrap();
    p.flush().unwrap();
    expect(&mut p, "unsaved commands");
    expect(&mut p, "]> ");
    p.send("quit\r").unwrap();
    p.flush().unwrap();
    p.exp_eof().expect("warroom exits");
    let _ = std::fs::remove_file(&history);
}
