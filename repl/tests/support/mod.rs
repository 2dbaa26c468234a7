//! Running the `warroom` binary from the integration tests.
// Each test binary uses a part of this module.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Run `warroom ARGS` with `stdin` piped in (batch mode), colours off.
pub fn warroom(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_warroom"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run warroom");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// What a run printed, standard output then standard error.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The lines the last run of a command printed: from its echo to the next command.
pub fn view<'a>(out: &'a str, command: &str) -> Vec<&'a str> {
    let echo = format!("> {command}");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| *l == echo)
        .unwrap_or_else(|| panic!("`{command}` was not run:\n{out}"));
    lines[at + 1..]
        .iter()
        .copied()
        .take_while(|l| !l.starts_with("> "))
        .collect()
}
