//! Fuzzed scenario files: real scenarios (tests/scenarios/1941 and anniversary) with values
//! replaced or added at every place a scenario has (huge and negative counts, rounds and
//! treasuries, values of the wrong type, odd names and control characters, megabyte
//! commands, deep nesting), then mutated byte by byte as the layer fuzzing mutates edition
//! files. Reading them against the real editions never panics, and every problem points into
//! the file. A file that still reads is run, and running it does not panic either.

mod fuzzing;
mod support;
use fuzzing::{apply, check_problems, config, mutation, Mutation, Scratch};
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;
use toml::Value;
use warroom_core::scenario::{self, RulesCache};

fn cache() -> &'static RulesCache {
    static CACHE: OnceLock<RulesCache> = OnceLock::new();
    CACHE.get_or_init(|| RulesCache::new(support::editions()))
}

/// The real scenario files edits start from, parsed.
fn real_scenarios() -> &'static [(PathBuf, toml::Table)] {
    static FILES: OnceLock<Vec<(PathBuf, toml::Table)>> = OnceLock::new();
    FILES.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/scenarios");
        let mut out = Vec::new();
        for edition in ["1941", "anniversary"] {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(edition))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect();
            paths.sort();
            for p in paths {
                let table = std::fs::read_to_string(&p).unwrap().parse().unwrap();
                out.push((p, table));
            }
        }
        assert!(out.len() > 50);
        out
    })
}

/// Places a scenario file has.
const PATHS: &[&str] = &[
    "rule",
    "rules",
    "title",
    "edition",
    "scenario",
    "with",
    "seed",
    "dice",
    "steps",
    "start.board",
    "start.round",
    "start.power",
    "start.phase",
    "start.clear",
    "start.units.Karelia.Germany.infantry",
    "start.units.Germany.Germany.industrial_complex",
    "start.units.\u{0}.Germany.tank",
    "start.units.Karelia",
    "start.control.Karelia",
    "start.control",
    "start.treasury.Germany",
    "start.treasury",
    "start.relations",
    "start.techs.Germany",
    "start.damage.Germany.industrial_complex",
    "start.purchased.Germany.infantry",
    "expect.owner.Karelia",
    "expect.units.Karelia.Germany.infantry",
    "expect.units_at_least.Karelia",
    "expect.treasury.Germany",
    "expect.income.Germany",
    "expect.damage.Germany.industrial_complex",
    "expect.purchased.Germany",
    "expect.battles",
    "expect.battle.Karelia",
    "expect.dice_drawn",
    "expect.winner",
    "expect.round",
    "expect.power",
    "expect.phase",
    "expect.relations",
    "expect.log",
    "expect.events",
];

fn nested_array(depth: usize) -> Value {
    (0..depth).fold(Value::Integer(1), |v, _| Value::Array(vec![v]))
}

/// Values of every type, at and past every limit.
fn value(k: usize) -> Value {
    let s = |x: &str| Value::String(x.to_string());
    let strings = |xs: &[&str]| Value::Array(xs.iter().map(|x| s(x)).collect());
    match k {
        0 => Value::Integer(i64::MAX),
        1 => Value::Integer(i64::MIN),
        2 => Value::Integer(-5),
        3 => Value::Integer(0),
        4 => Value::Integer(4_294_967_295),
        5 => Value::Integer(10_001),
        6 => Value::Integer(10_000),
        7 => Value::Integer(1_000_000_001),
        8 => Value::Float(f64::NAN),
        9 => Value::Float(-1e308),
        10 => s(""),
        11 => s("\u{0}\u{7}\u{1b}[31m\r\n"),
        12 => s("İstanbul ǅ ß ﬃ \u{202e}"),
        13 => s(&"x".repeat(1 << 20)),
        14 => s("Germany"),
        15 => s("nobody"),
        16 => s("infantry"),
        17 => Value::Boolean(true),
        18 => Value::Array(Vec::new()),
        19 => nested_array(60),
        20 => Value::Array(vec![
            strings(&["Germany", "Soviet Union", "peace"]),
            strings(&[""]),
            Value::Array(Vec::new()),
        ]),
        21 => Value::Table(toml::Table::new()),
        22 => {
            let mut t = toml::Table::new();
            t.insert("Germany".into(), Value::Integer(i64::MAX));
            t.insert("\u{0}".into(), Value::Table(toml::Table::new()));
            Value::Table(t)
        }
        23 => strings(&[
            "edit add Germany Germany 10000 infantry",
            "edit treasury Germany 1000000000",
            "edit treasury Japan -1000000000",
            "end phase",
            "end phase",
            "end phase",
            "end phase",
            "end phase",
            "end phase",
            "end phase",
        ]),
        24 => strings(&[
            "buy 10000 infantry",
            "research 10000",
            "repair 10000",
            "roll 6,6,6,6,6,6,1,1,1",
            "dice seeded 18446744073709551615",
            "edit add Karelia Germany 10001 infantry",
        ]),
        25 => Value::Array(vec![{
            let mut t = toml::Table::new();
            t.insert("command".into(), s("undo"));
            t.insert("hash".into(), s("ffffffffffffffffff"));
            t.insert("rejected".into(), s(" "));
            t.insert("output".into(), Value::Array(vec![Value::Integer(1)]));
            Value::Table(t)
        }]),
        26 => strings(&[&format!("move 1 inf from Karelia to {}", "w ".repeat(1 << 19))]),
        27 => Value::Array(vec![{
            let mut t = toml::Table::new();
            t.insert("event".into(), s("territory_captured"));
            t.insert("space".into(), Value::Array(Vec::new()));
            t.insert("\u{0}".into(), Value::Integer(1));
            Value::Table(t)
        }]),
        _ => strings(&[
            "trace-events",
            "../../..",
            "\u{0}",
            "=",
            "research:x=1",
            "research",
        ]),
    }
}
const VALUE_KINDS: usize = 29;

#[derive(Clone, Debug)]
enum Edit {
    /// The value at one of [`PATHS`] becomes [`value`] `k` (tables on the way are made).
    Set(usize, usize),
    /// The n-th value already in the file becomes [`value`] `k`.
    Leaf(prop::sample::Index, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0..PATHS.len(), 0..VALUE_KINDS).prop_map(|(p, k)| Edit::Set(p, k)),
        (any::<prop::sample::Index>(), 0..VALUE_KINDS).prop_map(|(i, k)| Edit::Leaf(i, k)),
    ]
}

fn set(table: &mut toml::Table, path: &[&str], v: Value) {
    let (last, parents) = path.split_last().unwrap();
    let mut t = table;
    for key in parents {
        let entry = t
            .entry(key.to_string())
            .or_insert_with(|| Value::Table(toml::Table::new()));
        if !entry.is_table() {
            *entry = Value::Table(toml::Table::new());
        }
        t = entry.as_table_mut().unwrap();
    }
    t.insert(last.to_string(), v);
}

/// How many values a tree holds below its root (leaves and containers).
fn count(v: &Value) -> usize {
    match v {
        Value::Table(t) => t.values().map(|c| 1 + count(c)).sum(),
        Value::Array(a) => a.iter().map(|c| 1 + count(c)).sum(),
        _ => 0,
    }
}

/// Replace the `n`-th value below `v` (depth first, as [`count`] counts) with `new`.
fn replace_nth(v: &mut Value, n: &mut usize, new: &Value) -> bool {
    let children: Vec<&mut Value> = match v {
        Value::Table(t) => t.iter_mut().map(|(_, c)| c).collect(),
        Value::Array(a) => a.iter_mut().collect(),
        _ => return false,
    };
    for c in children {
        if *n == 0 {
            *c = new.clone();
            return true;
        }
        *n -= 1;
        if replace_nth(c, n, new) {
            return true;
        }
    }
    false
}

fn apply_edit(table: &mut toml::Table, e: &Edit) {
    match e {
        Edit::Set(p, k) => {
            let path: Vec<&str> = PATHS[*p].split('.').collect();
            set(table, &path, value(*k));
        }
        Edit::Leaf(i, k) => {
            let mut root = Value::Table(std::mem::take(table));
            let all = count(&root);
            if all > 0 {
                replace_nth(&mut root, &mut i.index(all), &value(*k));
            }
            if let Value::Table(t) = root {
                *table = t;
            }
        }
    }
}

/// Read (and, when it reads, run) a scenario file's bytes; any problem must pass the checks.
fn read_and_run(bytes: &[u8]) -> Result<(), String> {
    let s = Scratch::new();
    let file = s.write("case.toml", bytes);
    match scenario::load(&file, &[], &|h| cache().get(h)) {
        Ok(case) => {
            // Each step's result is compared, not required: this only must not panic.
            let _ = scenario::run(&case);
            Ok(())
        }
        Err((_, problems)) => check_problems(&problems.0),
    }
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    prop_oneof![3 => Just(Vec::new()), 1 => prop::collection::vec(mutation(), 1..3)]
}

proptest! {
    #![proptest_config(config("fuzz_scenarios", 160))]

    #[test]
    fn fuzzed_scenarios_read_or_fail_with_located_problems(
        file in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 0..4),
        mutations in mutations(),
        deep in prop_oneof![6 => Just(0usize), 1 => Just(100), 1 => Just(10_000)],
    ) {
        let files = real_scenarios();
        let (path, original) = &files[file.index(files.len())];
        let mut table = original.clone();
        for e in &edits {
            apply_edit(&mut table, e);
        }
        let mut bytes = toml::to_string(&table).unwrap().into_bytes();
        for m in &mutations {
            apply(&mut bytes, m);
        }
        if deep > 0 {
            bytes.extend(format!("\nzz = {}1{}\n", "[".repeat(deep), "]".repeat(deep)).bytes());
        }
        if let Err(msg) = read_and_run(&bytes) {
            return Err(TestCaseError::fail(format!("{} edited: {msg}", path.display())));
        }
    }
}

/// The problems of reading `text` as a scenario file, as `line:col message`.
fn problems(text: &str) -> Vec<String> {
    let s = Scratch::new();
    let file = s.write("case.toml", text);
    match scenario::load(&file, &[], &|h| cache().get(h)) {
        Ok(_) => Vec::new(),
        Err((_, problems)) => {
            check_problems(&problems.0).unwrap();
            problems
                .iter()
                .map(|p| {
                    let at = p.location().unwrap_or("?");
                    let lc: Vec<&str> = at.rsplitn(3, ':').collect();
                    format!("{}:{} {}", lc[1], lc[0], p.message)
                })
                .collect()
        }
    }
}

/// Counts and treasuries past the limits are refused where they are written, rather than
/// making billions of units when the scenario runs or a treasury that overflows when income
/// is added.
#[test]
fn counts_and_treasuries_past_the_limits_are_refused_at_their_place() {
    let head = "rule = \"1941-WRAP\"\nedition = \"1941\"\n";
    let cases = [
        (
            "[start.treasury]\nGermany = 9223372036854775807\n",
            "4:11 `start.treasury.Germany` must be from -1000000000 to 1000000000",
        ),
        (
            "[start.units.Karelia.Germany]\ninfantry = 4294967295\n",
            "4:12 `start.units.Karelia.Germany.infantry` must be from 0 to 10000",
        ),
        (
            "[start]\nround = 4294967295\n",
            "4:9 `start.round` must be from 0 to 10000",
        ),
        (
            "[expect.income]\nGermany = -9223372036854775808\n",
            "4:11 `expect.income.Germany` must be from -1000000000 to 1000000000",
        ),
        (
            "steps = [\"edit add Karelia Germany 4294967295 infantry\"]\n",
            "3:10 `edit add Karelia Germany 4294967295 infantry`: `4294967295` is too many",
        ),
        (
            "seed = 99999999999999999999\n",
            "3:8 the integer 99999999999999999999 is out of range",
        ),
        ("title = \"\u{e4}\"\n", ""),
    ];
    for (text, expected) in cases {
        let got = problems(&format!("{head}{text}"));
        let expected: Vec<&str> = if expected.is_empty() {
            Vec::new()
        } else {
            vec![expected]
        };
        assert_eq!(got.len(), expected.len(), "{text}: {got:?}");
        for (g, e) in got.iter().zip(&expected) {
            assert!(g.starts_with(e), "{text}: got `{g}`, expected `{e}`");
        }
    }
}

/// A scenario file that is not UTF-8 is refused at its first bad byte.
#[test]
fn a_scenario_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
    let s = Scratch::new();
    let file = s.write(
        "case.toml",
        b"rule = \"1941-WRAP\"\nedition = \"1941\"\ntitle = \"Panzer \xe4\"\n",
    );
    let Err((_, problems)) = scenario::load(&file, &[], &|h| cache().get(h)) else {
        panic!("read");
    };
    check_problems(&problems.0).unwrap();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems.0[0].code, "file::not-utf8");
    assert!(
        problems.0[0].location().unwrap().ends_with(":3:17"),
        "{:?}",
        problems.0[0].location()
    );
}
