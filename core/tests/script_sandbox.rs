//! Scripts are untrusted input (principle §7): no files, no io/os, no code loading, no runaway
//! loops, no unbounded memory — and every failure names the script file and line.

use std::path::{Path, PathBuf};

use warroom_core::script::{
    Event, EventKind, GameView, ScriptError, ScriptErrorKind, ScriptHost, ScriptLimits,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const DIR: &str = "tests/fixtures/scripts/sandbox";

/// Loads one fixture script as the only layer of a fresh host.
fn load_with(limits: ScriptLimits, script: &str) -> (ScriptHost, Result<(), ScriptError>) {
    let mut host = ScriptHost::new(limits).expect("host");
    let root = root();
    let result = host.load_layer(
        "sandbox",
        &root.join(DIR),
        &root,
        &[script.to_owned()],
        &root.join("tests/fixtures/scripts/shared"),
    );
    (host, result)
}

fn load(script: &str) -> (ScriptHost, Result<(), ScriptError>) {
    load_with(ScriptLimits::default(), script)
}

fn load_err(script: &str) -> ScriptError {
    match load(script).1 {
        Ok(()) => panic!("{script} should fail to load"),
        Err(e) => e,
    }
}

struct Game;

impl GameView for Game {
    fn round(&self) -> u32 {
        1
    }
    fn power(&self) -> &str {
        "China"
    }
    fn phase(&self) -> &str {
        "purchase"
    }
    fn owner(&self, _space: &str) -> Option<String> {
        None
    }
    fn treasury(&self, _power: &str) -> Option<i64> {
        None
    }
    fn units(&self, _space: &str) -> Vec<(String, String, u32)> {
        Vec::new()
    }
    fn relation(&self, _a: &str, _b: &str) -> Option<&'static str> {
        None
    }
}

fn fire(host: &mut ScriptHost, kind: EventKind) -> Result<Vec<String>, ScriptError> {
    let d = host.dispatch(&Event::new(kind).with("power", "China"), &Game)?;
    Ok(d.log.into_iter().map(|l| l.message).collect())
}

#[track_caller]
fn assert_located(err: &ScriptError, file: &str, line: u32, kind: ScriptErrorKind) {
    let text = err.to_string();
    let want = format!("{DIR}/{file}:{line}");
    assert!(text.starts_with(&want), "expected {want} in: {text}");
    assert_eq!(
        err.file.as_deref(),
        Some(format!("{DIR}/{file}").as_str()),
        "{text}"
    );
    assert_eq!(err.line, Some(line), "{text}");
    assert_eq!(err.kind, kind, "{text}");
}

#[test]
fn io_is_not_available() {
    let err = load_err("io_open.lua");
    assert_located(&err, "io_open.lua", 2, ScriptErrorKind::Forbidden);
    assert!(err.message.contains("unknown global 'io'"), "{err}");
}

#[test]
fn os_is_not_available() {
    let err = load_err("os_execute.lua");
    assert_located(&err, "os_execute.lua", 3, ScriptErrorKind::Forbidden);
    assert!(err.message.contains("'os'"), "{err}");
}

#[test]
fn dofile_and_loadstring_are_not_available() {
    let err = load_err("dofile.lua");
    assert_located(&err, "dofile.lua", 2, ScriptErrorKind::Forbidden);
    assert!(err.message.contains("'dofile'"), "{err}");
    let err = load_err("loadstring.lua");
    assert_located(&err, "loadstring.lua", 3, ScriptErrorKind::Forbidden);
    assert!(err.message.contains("'loadstring'"), "{err}");
    let err = load_err("getfenv.lua");
    assert_located(&err, "getfenv.lua", 2, ScriptErrorKind::Forbidden);
}

#[test]
fn require_cannot_leave_the_allowed_folders() {
    let err = load_err("require_escape.lua");
    assert_located(&err, "require_escape.lua", 2, ScriptErrorKind::Forbidden);
    assert!(err.message.contains("../../etc/passwd"), "{err}");
    let err = load_err("require_absolute.lua");
    assert_located(&err, "require_absolute.lua", 2, ScriptErrorKind::Forbidden);
    assert!(err.message.contains("absolute"), "{err}");
}

#[test]
fn scripts_have_no_randomness() {
    let err = load_err("random.lua");
    assert_located(&err, "random.lua", 2, ScriptErrorKind::Runtime);
}

#[test]
fn libraries_are_read_only() {
    let err = load_err("patch_string.lua");
    assert_located(&err, "patch_string.lua", 2, ScriptErrorKind::Runtime);
    assert!(err.message.contains("readonly"), "{err}");
}

#[test]
fn the_allowed_builtins_work() {
    let (mut host, result) = load("allowed.lua");
    result.expect("allowed.lua loads");
    let log = host.take_log();
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].message, "allowed 3");
    assert_eq!(log[0].layer, "sandbox");
    assert_eq!(log[0].handler, None);
}

#[test]
fn a_syntax_error_names_file_and_line() {
    let err = load_err("syntax.lua");
    assert_located(&err, "syntax.lua", 5, ScriptErrorKind::Syntax);
}

#[test]
fn a_top_level_error_carries_the_source_line() {
    use miette::Diagnostic;
    let err = load_err("toplevel_error.lua");
    assert_located(&err, "toplevel_error.lua", 3, ScriptErrorKind::Runtime);
    assert!(err.source_code().is_some(), "the script's source is attached");
    let label = err.labels().and_then(|mut l| l.next()).expect("a label");
    let src = std::fs::read_to_string(root().join(DIR).join("toplevel_error.lua")).unwrap();
    let marked = &src[label.offset()..label.offset() + label.len()];
    assert_eq!(marked, "local y = t.field");
    assert_eq!(
        err.code().map(|c| c.to_string()).as_deref(),
        Some("warroom::script::runtime")
    );
}

#[test]
fn a_runaway_loop_is_stopped_and_the_host_still_works() {
    let limits = ScriptLimits {
        steps_per_call: 200_000,
        ..ScriptLimits::default()
    };
    let (mut host, result) = load_with(limits, "runaway.lua");
    result.expect("loads");
    let err = fire(&mut host, EventKind::TurnBegin).unwrap_err();
    assert_located(&err, "runaway.lua", 2, ScriptErrorKind::Budget);
    assert!(
        err.message.contains("runaway") && err.message.contains("budget"),
        "{err}"
    );
    assert_eq!(err.event, Some(EventKind::TurnBegin));
    assert_eq!(err.handler.as_deref(), Some("test.runaway"));
    assert!(err.to_string().contains("test.runaway"), "{err}");
    assert_eq!(fire(&mut host, EventKind::TurnEnd).unwrap(), ["still alive"]);
}

#[test]
fn deep_recursion_is_stopped() {
    let (mut host, result) = load("runaway.lua");
    result.expect("loads");
    let err = fire(&mut host, EventKind::PhaseBegin).unwrap_err();
    assert_eq!(err.line, Some(10), "{err}");
    assert!(
        matches!(err.kind, ScriptErrorKind::Runtime | ScriptErrorKind::Budget),
        "{err}"
    );
    assert_eq!(fire(&mut host, EventKind::TurnEnd).unwrap(), ["still alive"]);
}

#[test]
fn pcall_cannot_swallow_the_budget() {
    let limits = ScriptLimits {
        steps_per_call: 100_000,
        ..ScriptLimits::default()
    };
    let (mut host, result) = load_with(limits, "runaway.lua");
    result.expect("loads");
    let err = fire(&mut host, EventKind::PhaseEnd).unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Budget, "{err}");
    assert_eq!(err.file.as_deref(), Some(format!("{DIR}/runaway.lua").as_str()));
    assert_eq!(fire(&mut host, EventKind::TurnEnd).unwrap(), ["still alive"]);
}

#[test]
fn a_growing_table_hits_the_memory_cap_and_the_host_still_works() {
    let limits = ScriptLimits {
        memory_bytes: 16 << 20,
        ..ScriptLimits::default()
    };
    let (mut host, result) = load_with(limits, "memory.lua");
    result.expect("loads");
    let err = fire(&mut host, EventKind::TurnBegin).unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Memory, "{err}");
    assert!(err.message.contains("memory"), "{err}");
    assert_eq!(
        err.file.as_deref(),
        Some(format!("{DIR}/memory.lua").as_str()),
        "{err}"
    );
    assert!(err.line.is_some(), "{err}");
    assert_eq!(err.handler.as_deref(), Some("test.hog"));
    assert_eq!(fire(&mut host, EventKind::TurnEnd).unwrap(), ["still alive 1000"]);
    // And again: the memory was given back, not just barely enough left.
    assert!(fire(&mut host, EventKind::TurnBegin).is_err());
    assert_eq!(fire(&mut host, EventKind::TurnEnd).unwrap(), ["still alive 1000"]);
}

#[test]
fn a_handle_kept_by_a_handler_that_failed_does_not_outlive_its_call() {
    let (mut host, result) = load("escape_game_failing.lua");
    result.expect("loads");
    let err = fire(&mut host, EventKind::TurnBegin).unwrap_err();
    assert!(err.message.contains("failing on purpose"), "{err}");
    let err = fire(&mut host, EventKind::TurnEnd).unwrap_err();
    assert_eq!(err.line, Some(10), "{err}");
    assert!(err.message.contains("given to an earlier handler call"), "{err}");
}

#[test]
fn the_game_handle_is_read_only_and_does_not_outlive_the_call() {
    let (mut host, result) = load("escape_game.lua");
    result.expect("loads");
    fire(&mut host, EventKind::TurnBegin).expect("keeping a reference is allowed");
    let err = fire(&mut host, EventKind::TurnEnd).unwrap_err();
    assert_eq!(err.line, Some(8), "{err}");
    assert!(err.message.contains("given to an earlier handler call"), "{err}");
    let err = fire(&mut host, EventKind::PhaseBegin).unwrap_err();
    assert_eq!(err.line, Some(12), "{err}");
    assert_eq!(err.kind, ScriptErrorKind::Forbidden, "{err}");
    assert!(err.message.contains("read-only"), "{err}");
}
