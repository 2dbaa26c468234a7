//! `warroom test`: every scenario under tests/scenarios passes, failures are reported one line
//! each with expected and actual side by side, and `--diff` lists what a layer changes.

use std::path::PathBuf;
use std::process::Output;

mod support;
use support::{root, warroom};

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn path(rel: &str) -> String {
    root().join(rel).to_str().unwrap().to_string()
}

fn editions() -> String {
    path("editions")
}

#[test]
fn every_scenario_under_tests_scenarios_passes() {
    let o = warroom(&["--editions", &editions(), "test"], "");
    let stdout = out(&o);
    assert!(o.status.success(), "{stdout}{}", err(&o));
    let last = stdout.lines().last().unwrap_or_default().to_string();
    let passed: usize = last
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {last:?}"));
    let files = count_toml(&root().join("tests/scenarios"));
    assert_eq!(last, format!("{files} passed, 0 failed"));
    assert_eq!(passed, files);
}

fn count_toml(dir: &std::path::Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p: PathBuf = e.unwrap().path();
        if p.is_dir() {
            n += count_toml(&p);
        } else if p.extension().is_some_and(|x| x == "toml") {
            n += 1;
        }
    }
    n
}

#[test]
fn failures_are_one_line_each_with_expected_and_actual_and_the_run_exits_1() {
    let o = warroom(
        &[
            "--editions",
            &editions(),
            "test",
            &path("tests/fixtures/scenarios/mixed"),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    let stdout = out(&o);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"1 passed, 2 failed"), "{stdout}");
    assert!(
        lines.iter().any(|l| l.starts_with("FAIL ")
            && l.contains("fails.toml (1941-MULTINAT)")
            && l.contains("owner of Karelia: expected Soviet Union  |  actual Germany")
            && l.contains("fails.toml:22:11")),
        "{stdout}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("FAIL ") && l.contains("broken.toml: the scenario file has 2 problem(s)")),
        "{stdout}"
    );
    assert!(
        !stdout.contains("passes.toml"),
        "a passing scenario prints nothing: {stdout}"
    );
    // The broken file's problems point at the line and column, with a suggestion.
    let stderr = err(&o);
    assert!(
        stderr.contains("no space `West Rusia`; did you mean `West Russia`?"),
        "{stderr}"
    );
    assert!(stderr.contains("broken.toml:12:13"), "{stderr}");
    assert!(
        stderr.contains("unknown command `mvoe`; did you mean `move`?"),
        "{stderr}"
    );
}

#[test]
fn with_runs_the_same_scenarios_against_an_extra_layer() {
    let o = warroom(
        &[
            "--editions",
            &editions(),
            "test",
            &path("tests/fixtures/scenarios/diff"),
            "--with",
            &path("tests/fixtures/house/tanks-attack-4"),
        ],
        "",
    );
    let stdout = out(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("battle in Karelia: expected defender  |  actual both destroyed"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("2 passed, 1 failed"), "{stdout}");
}

#[test]
fn diff_lists_exactly_the_scenarios_a_house_rule_changes_and_how() {
    let o = warroom(
        &[
            "--editions",
            &editions(),
            "test",
            &path("tests/fixtures/scenarios/diff"),
            "--diff",
            &path("tests/fixtures/house/tanks-attack-4"),
        ],
        "",
    );
    let stdout = out(&o);
    assert!(o.status.success(), "{stdout}{}", err(&o));
    let changed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("changed ")).collect();
    assert_eq!(changed.len(), 1, "{stdout}");
    assert!(changed[0].contains("tank-rolls-a-4.toml"), "{stdout}");
    assert!(changed[0].ends_with("passes -> fails"), "{stdout}");
    assert!(
        stdout.contains("    battle in Karelia: defender -> both destroyed"),
        "{stdout}"
    );
    assert!(!stdout.contains("tank-rolls-a-2"), "{stdout}");
    assert!(!stdout.contains("infantry-rolls-a-4"), "{stdout}");
    let summary = format!(
        "1 of 3 scenarios change with {}",
        path("tests/fixtures/house/tanks-attack-4")
    );
    assert_eq!(stdout.lines().last(), Some(summary.as_str()), "{stdout}");
}

#[test]
fn check_reads_scenario_files_and_locates_unknown_names_and_commands() {
    let o = warroom(
        &[
            "--editions",
            &editions(),
            "check",
            &path("tests/fixtures/scenarios/mixed/broken.toml"),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("broken.toml: 2 problem(s)"), "{}", out(&o));
    assert!(err(&o).contains("did you mean `West Russia`?"), "{}", err(&o));
    let o = warroom(
        &[
            "--editions",
            &editions(),
            "check",
            &path("tests/fixtures/scenarios/diff"),
        ],
        "",
    );
    assert!(o.status.success(), "{}{}", out(&o), err(&o));
    assert_eq!(
        out(&o).lines().filter(|l| l.starts_with("ok   ")).count(),
        3,
        "{}",
        out(&o)
    );
}

#[test]
fn an_expected_event_that_did_not_fire_shows_the_events_of_that_name_that_did() {
    let o = warroom(
        &[
            "--editions",
            &editions(),
            "test",
            &path("tests/fixtures/scenarios/events"),
        ],
        "",
    );
    let stdout = out(&o);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("actual missing casualties power=Germany; side=attacker; units=[2 fighter]; fired of those: casualties hits=1; power=Germany; side=attacker; space=Baltic States; units=[1 fighter]"),
        "{stdout}"
    );
    // The event that did fire as expected is not reported missing.
    assert!(!stdout.contains("missing territory_captured"), "{stdout}");
}

/// The rule IDs a scenario file names: `rule = "ID"` and `rules = ["ID", ...]`.
fn rule_ids(text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("rule = \"") {
            ids.push(rest.trim_end_matches('"').to_string());
        } else if let Some(rest) = line.strip_prefix("rules = [") {
            ids.extend(
                rest.trim_end_matches(']')
                    .split(',')
                    .map(|s| s.trim().trim_matches('"').to_string())
                    .filter(|s| !s.is_empty()),
            );
        }
    }
    ids
}

#[test]
fn rules_coverage_lists_every_scenario_under_each_rule_it_checks() {
    let doc = std::fs::read_to_string(root().join("docs/rules-coverage.md")).unwrap();
    let row = |id: &str| {
        doc.lines()
            .find(|l| l.starts_with(&format!("| {id} | ")))
            .map(str::to_string)
    };
    let mut missing = Vec::new();
    // tests/scenarios/EDITION/*.toml, and tests/scenarios/house/VARIANT/*.toml.
    let mut files = Vec::new();
    let mut dirs = vec![root().join("tests/scenarios")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                files.push(p);
            }
        }
    }
    files.sort();
    for f in files {
        let stem = f.file_stem().unwrap().to_str().unwrap().to_string();
        let ids = rule_ids(&std::fs::read_to_string(&f).unwrap());
        assert!(!ids.is_empty(), "{stem} names no rule");
        assert!(
            stem.starts_with(&format!("{}--", ids[0])),
            "{stem} is not named after its rule {}",
            ids[0]
        );
        for id in ids {
            let name = stem.strip_prefix(&format!("{id}--")).unwrap_or(&stem);
            match row(&id) {
                None => missing.push(format!(
                    "{id}: no such rule ID in docs/rules-coverage.md ({stem})"
                )),
                Some(r) if !r.contains(name) => missing.push(format!("{id}: scenario `{name}` not listed")),
                Some(_) => {}
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/rules-coverage.md is out of date:\n{}",
        missing.join("\n")
    );
}
