//! Fuzzed layers: real edition files mutated (truncated, bytes inserted or deleted, invalid
//! UTF-8, numbers made huge or negative, values of the wrong type, lines duplicated) and small
//! synthetic layers written to a scratch folder (deep nesting of tables and arrays, cycles in
//! `extends`, missing files, odd `--with` specs). `rules::load` never panics and never
//! overflows the stack, and every problem it returns points into the file it is about (a
//! span inside the file's text) wherever the input has a place to point at; each renders
//! through miette.

mod fuzzing;
mod support;
use fuzzing::{apply, check_problems, config, mutation, Scratch};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use support::editions;
use warroom_core::diag::Problem;
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, RuleSet};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

fn mini() -> PathBuf {
    std::path::absolute(fixtures().join("editions/mini")).unwrap()
}

/// Load `edition` (a folder) with these `--with` specs and check the problems, if any.
fn load(edition: &Path, with: &[String]) -> Result<Option<RuleSet>, String> {
    let mut req = LoadRequest::new(editions(), edition.display().to_string());
    req.with = with.to_vec();
    match rules::load(&req) {
        Ok(r) => Ok(Some(r)),
        Err(e) => check_problems(&e.problems.0).map(|()| None),
    }
}

/// A game of rules that loaded, played a little: every phase of a round or two, a purchase,
/// units added and moved. Refusals are expected; panics are not.
fn play(rules: RuleSet) {
    let Ok(mut g) = Game::new(Arc::new(rules), "mutated", &[], None, 1) else {
        return;
    };
    for line in [
        "buy 2 infantry",
        "edit add Middle Red 2 tank",
        "end phase",
        "move 2 tank from Middle to Blueland",
        "end phase",
        "end phase",
        "end phase",
        "end phase",
        "end phase",
        "end phase",
        "end phase",
        "end phase",
    ] {
        let _ = g.execute(line);
    }
}

/// The problems of loading `edition` (which must fail), checked.
fn problems_of(edition: &Path, with: &[String]) -> Vec<Problem> {
    let mut req = LoadRequest::new(editions(), edition.display().to_string());
    req.with = with.to_vec();
    let e = match rules::load(&req) {
        Ok(_) => panic!("{} loaded", edition.display()),
        Err(e) => e,
    };
    if let Err(msg) = check_problems(&e.problems.0) {
        panic!("{}: {msg}", edition.display());
    }
    e.problems.0
}

/// A house layer over the mini edition with these data files.
fn house_over_mini(s: &Scratch, files: &[(&str, &[u8])]) -> PathBuf {
    let names: Vec<String> = files.iter().map(|(n, _)| format!("{n:?}")).collect();
    s.write(
        "house/layer.toml",
        format!(
            "[layer]\nname = \"house\"\nkind = \"house\"\nextends = [{:?}]\nfiles = [{}]\n",
            mini().display().to_string(),
            names.join(", ")
        ),
    );
    for (n, bytes) in files {
        s.write(&format!("house/{n}"), bytes);
    }
    s.0.join("house")
}

// ---------------------------------------------------------------------------------------------
// Mutations of real files

/// Data files of real editions (and the mini fixture) that mutations start from.
fn real_files() -> &'static [(PathBuf, Vec<u8>)] {
    static FILES: std::sync::OnceLock<Vec<(PathBuf, Vec<u8>)>> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let mut out = Vec::new();
        for dir in [
            editions().join("1941"),
            editions().join("anniversary"),
            editions().join("anniversary/options/research"),
            editions().join("house/bid"),
            mini(),
            mini().join("options/cheap-tanks"),
        ] {
            let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect();
            names.sort();
            for p in names {
                let bytes = std::fs::read(&p).unwrap();
                out.push((p, bytes));
            }
        }
        assert!(out.len() > 15, "{out:?}");
        out
    })
}

proptest! {
    #![proptest_config(config("fuzz_layers", 256))]

    /// A real file, mutated, patched over the mini edition as a house layer.
    #[test]
    fn mutated_edition_files_load_or_fail_with_located_problems(
        file in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let files = real_files();
        let (path, original) = &files[file.index(files.len())];
        let mut bytes = original.clone();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        let s = Scratch::new();
        let house = house_over_mini(&s, &[("data.toml", &bytes)]);
        match load(&house, &[]) {
            Err(msg) => return Err(TestCaseError::fail(format!("{} mutated: {msg}", path.display()))),
            Ok(Some(rules)) => play(rules),
            Ok(None) => {}
        }
    }

    /// The mini edition itself, with one of its files mutated (the data an edition stands on:
    /// powers, board, scenario).
    #[test]
    fn a_mutated_edition_loads_or_fails_with_located_problems(
        file in 0usize..5,
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let names = ["layer.toml", "powers.toml", "units.toml", "board.toml", "scenarios.toml"];
        let s = Scratch::new();
        for n in names {
            let mut bytes = std::fs::read(mini().join(n)).unwrap();
            if n == names[file] {
                for m in &mutations {
                    apply(&mut bytes, m);
                }
            }
            s.write(&format!("mini/{n}"), bytes);
        }
        match load(&s.0.join("mini"), &[]) {
            Err(msg) => return Err(TestCaseError::fail(format!("{} mutated: {msg}", names[file]))),
            Ok(Some(rules)) => play(rules),
            Ok(None) => {}
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Synthetic layers: extends graphs, files lists and `--with` specs

/// What a layer's manifest lists: where `extends` points (other layers of the case, itself, a
/// missing folder, odd paths), what `files` names.
#[derive(Clone, Debug)]
enum Parent {
    Layer(usize),
    Mini,
    Missing,
    Odd(usize),
}

const ODD_PATHS: &[&str] = &[
    "",
    ".",
    "..",
    "/",
    "./",
    "../..",
    "data.toml",
    "\0",
    "nul\0l",
    "a\nb",
    "///",
    "C:\\x",
    "😀",
    "~",
    "layer.toml",
];

const ODD_FILES: &[&str] = &[
    "",
    ".",
    "..",
    "missing.toml",
    "layer.toml",
    "sub",
    "/dev/null",
    "\0",
    "../house0/data.toml",
    "data.toml",
    "data.toml",
];

fn parent() -> impl Strategy<Value = Parent> {
    prop_oneof![
        4 => (0usize..4).prop_map(Parent::Layer),
        2 => Just(Parent::Mini),
        1 => Just(Parent::Missing),
        1 => (0..ODD_PATHS.len()).prop_map(Parent::Odd),
    ]
}

#[derive(Clone, Debug)]
struct Manifest {
    kind: usize,
    extends: Vec<Parent>,
    files: Vec<usize>,
    /// Options this layer declares: (name, path index into ODD_PATHS or a layer).
    options: Vec<(usize, Parent)>,
    params: Vec<(usize, usize)>,
}

const KINDS: &[&str] = &["edition", "shared", "option", "house", "nope", ""];
const PARAM_TYPES: &[&str] = &[
    "type = \"int\"\ndefault = 3\nmin = 1\nmax = 5",
    "type = \"int\"\ndefault = 9\nmin = 1\nmax = 5",
    "type = \"float\"\ndefault = nan\nmin = nan",
    "type = \"bool\"\ndefault = \"yes\"",
    "type = \"string\"\ndefault = \"a\"\nchoices = [\"b\"]",
    "type = \"int\"\ndefault = 9223372036854775807\nmax = -1e308",
    "type = \"int\"",
    "default = 1",
    "type = []\ndefault = {}",
];

fn manifest() -> impl Strategy<Value = Manifest> {
    (
        0..KINDS.len(),
        prop::collection::vec(parent(), 0..3),
        prop::collection::vec(0..ODD_FILES.len(), 0..3),
        prop::collection::vec((0usize..3, parent()), 0..2),
        prop::collection::vec((0usize..3, 0..PARAM_TYPES.len()), 0..2),
    )
        .prop_map(|(kind, extends, files, options, params)| Manifest {
            kind,
            extends,
            files,
            options,
            params,
        })
}

fn path_of(s: &Scratch, p: &Parent) -> String {
    match p {
        Parent::Layer(i) => format!("../house{i}"),
        Parent::Mini => mini().display().to_string(),
        Parent::Missing => s.0.join("nowhere").display().to_string(),
        Parent::Odd(k) => ODD_PATHS[*k].to_string(),
    }
}

fn toml_str(s: &str) -> String {
    // `{:?}` escapes as Rust does; TOML wants \u escapes for control characters.
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn write_manifest(s: &Scratch, i: usize, m: &Manifest) {
    let list = |v: Vec<String>| v.iter().map(|x| toml_str(x)).collect::<Vec<_>>().join(", ");
    let mut text = format!(
        "[layer]\nname = \"house{i}\"\nkind = {}\nextends = [{}]\nfiles = [{}]\n",
        toml_str(KINDS[m.kind]),
        list(m.extends.iter().map(|p| path_of(s, p)).collect()),
        list(m.files.iter().map(|f| ODD_FILES[*f].to_string()).collect()),
    );
    for (name, p) in &m.options {
        text.push_str(&format!(
            "[options.opt{name}]\npath = {}\n",
            toml_str(&path_of(s, p))
        ));
    }
    for (name, k) in &m.params {
        text.push_str(&format!("[params.p{name}]\n{}\n", PARAM_TYPES[*k]));
    }
    s.write(&format!("house{i}/layer.toml"), text);
    s.write(
        &format!("house{i}/data.toml"),
        "[units.tank]\ncost = { param = \"p0\" }\n",
    );
    std::fs::create_dir_all(s.0.join(format!("house{i}/sub"))).unwrap();
}

/// `--with` specs: option names, assignments, folders, odd text.
const WITH: &[&str] = &[
    "opt0",
    "opt1=3",
    "opt0:p0=4",
    "opt0:p1=x",
    "opt0:=",
    "opt0:",
    ":",
    "=",
    "=5",
    "",
    "../house1",
    "house2",
    "cheap-tanks",
    "cheap-tanks=99999999999999999999",
    "cheap-tanks=-5",
    "cheap-tanks:cost=nan",
    "\0",
    "opt0=a=b:c",
    "😀:😀=😀",
];

proptest! {
    #![proptest_config(config("fuzz_layers", 256))]

    /// Up to four layers extending each other (cycles of one, two and three layers among
    /// them), each listing odd files, options and parameters, loaded with odd `--with` specs.
    #[test]
    fn extends_graphs_files_and_options_load_or_fail_with_located_problems(
        layers in prop::collection::vec(manifest(), 1..5),
        with in prop::collection::vec(0..WITH.len(), 0..3),
    ) {
        let s = Scratch::new();
        for (i, m) in layers.iter().enumerate() {
            write_manifest(&s, i, m);
        }
        let with: Vec<String> = with.iter().map(|k| WITH[*k].to_string()).collect();
        let start = s.0.join("house0");
        // Loaded from inside the scratch folder too, where relative `--with` folders resolve.
        if let Err(msg) = load(&start, &with) {
            return Err(TestCaseError::fail(msg));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Plain cases, one behaviour each

/// The problems of a house layer over mini with one data file, as `code@line:col`.
fn house_problems(data: &[u8]) -> Vec<String> {
    let s = Scratch::new();
    let house = house_over_mini(&s, &[("data.toml", data)]);
    problems_of(&house, &[])
        .iter()
        .map(|p| {
            let at = p.location().unwrap_or("?");
            let lc: Vec<&str> = at.rsplitn(3, ':').collect();
            format!(
                "{}@{}:{}",
                p.code,
                lc.get(1).unwrap_or(&"?"),
                lc.first().unwrap_or(&"?")
            )
        })
        .collect()
}

/// `data` as a house layer's file gives exactly these problems (`code@line:col`, in order).
fn check(data: &[u8], expected: &[&str]) {
    let got = house_problems(data);
    assert_eq!(
        got,
        expected,
        "{:?}",
        String::from_utf8_lossy(&data[..data.len().min(200)])
    );
}

/// Ten thousand levels of each kind of nesting TOML has, and the one the parser does not
/// limit (dotted keys within inline tables, which overflowed the stack), each refused where it
/// first goes too deep.
#[test]
fn deep_nesting_is_refused_at_its_place_without_overflowing_the_stack() {
    let n = 10_000;
    let dotted = |key: &str, parts: usize| vec![key; parts].join(".");
    let cases = [
        (
            format!(
                "{} = {}1{}\n",
                dotted("a", 50),
                format!("{{ {} = ", dotted("b", 78)).repeat(78),
                " }".repeat(78)
            ),
            "2:105",
        ),
        (format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n)), "2:68"),
        (
            format!("x = {}1{}\n", "{ a = ".repeat(n), " }".repeat(n)),
            "2:385",
        ),
        (format!("[{}]\nb = 1\n", dotted("a", n)), "2:1"),
        (format!("[[{}]]\nb = 1\n", dotted("a", n)), "2:1"),
        (format!("{} = 1\n", dotted("a", n)), "2:1"),
    ];
    for (deep, at) in cases {
        let data = format!("# {n} levels\n{deep}");
        check(data.as_bytes(), &[&format!("toml::too-deep@{at}")]);
    }
}

/// miette pads a label to its column with a formatting width, which panics past 65 535: a
/// problem far along a long line is drawn at the line's start, and keeps its real column.
#[test]
fn a_problem_far_along_a_long_line_renders_and_keeps_its_column() {
    let data = format!(
        "[units]\ntank = {{ name = \"{}\", atack = 4 }}\n",
        "x".repeat(100_000)
    );
    check(data.as_bytes(), &["schema::unknown-field@2:100021"]);
}

/// Ids are small integers: more powers or unit types than they number are refused at the
/// first one too many, not wrapped around.
#[test]
fn more_powers_or_unit_types_than_the_engine_numbers_are_reported_at_the_first_too_many() {
    let powers: String = (0..254)
        .map(|i| format!("[powers.P{i}]\nside = \"S\"\n"))
        .collect();
    check(powers.as_bytes(), &["schema::too-many@507:9"]);
    let units: String = (0..61)
        .map(|i| format!("[units.u{i}]\ninherits = \"tank\"\nname = \"U{i}\"\n"))
        .collect();
    check(units.as_bytes(), &["schema::too-many@181:8"]);
}
