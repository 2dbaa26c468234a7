//! Every deliberately broken layer under tests/fixtures/broken gives exactly one diagnostic,
//! located at the line its `expect.txt` names (code, `file:line[:col]`, message fragment).

use std::path::{Path, PathBuf};
use warroom_core::layers::LoadRequest;
use warroom_core::rules;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

fn check(case: &str) {
    let dir = fixtures().join("broken").join(case);
    let expect = std::fs::read_to_string(dir.join("expect.txt")).expect("expect.txt");
    let mut lines = expect.lines();
    let (code, location, fragment) = (
        lines.next().unwrap(),
        lines.next().unwrap(),
        lines.next().unwrap(),
    );
    let target = if dir.join("layer.toml").is_file() {
        dir
    } else {
        dir.join("a")
    };
    let req = LoadRequest::new(fixtures().join("editions"), target.display().to_string());
    let err = rules::load(&req).expect_err("a broken layer must not load");
    let problems: Vec<String> = err
        .problems
        .iter()
        .map(|p| format!("{} at {:?}: {} / {:?}", p.code, p.location(), p.message, p.help))
        .collect();
    assert_eq!(
        err.problems.len(),
        1,
        "{case}: expected one problem, got {problems:#?}"
    );
    let p = &err.problems.0[0];
    assert_eq!(p.code, code, "{case}: {problems:?}");
    let loc = p.location().expect("located");
    assert!(
        loc == location || loc.starts_with(&format!("{location}:")),
        "{case}: located at {loc}, expected {location}"
    );
    let text = format!("{} {}", p.message, p.help.clone().unwrap_or_default());
    assert!(text.contains(fragment), "{case}: {text:?} lacks {fragment:?}");
}

#[test]
fn every_broken_fixture_gives_one_located_diagnostic() {
    let mut cases: Vec<String> = std::fs::read_dir(fixtures().join("broken"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert!(cases.len() >= 15, "{cases:?}");
    for case in &cases {
        check(case);
    }
}

#[test]
fn a_patch_over_another_layer_points_at_both_files() {
    let dir = fixtures().join("broken/table-replaced");
    let err = rules::load(&LoadRequest::new(
        fixtures().join("editions"),
        dir.display().to_string(),
    ))
    .unwrap_err();
    let p = &err.problems.0[0];
    assert!(p.location().unwrap().contains("table-replaced/patch.toml"));
    assert_eq!(p.related.len(), 1);
    assert!(
        p.related[0].0.location.starts_with("editions/mini/units.toml:"),
        "{:?}",
        p.related[0].0.location
    );
}
