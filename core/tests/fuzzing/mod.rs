//! Helpers of the fuzz tests: a scratch folder, the checks every problem passes, and
//! mutations of real files: truncation, bytes inserted or deleted
//! (invalid UTF-8 among them), numbers made huge or negative, values of another type, lines
//! duplicated or swapped. Shared by the fuzz_* test files.
#![allow(dead_code)]

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use warroom_core::diag::{Label, Problem};

/// `cases` cases (or `PROPTEST_CASES`, for a longer run by hand); failures are kept in
/// core/proptest-regressions/`name`.txt and replayed first from then on.
pub fn config(name: &str, cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(Box::leak(
            format!("proptest-regressions/{name}.txt").into_boxed_str(),
        )))),
        ..ProptestConfig::default()
    }
}

/// A scratch folder, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new() -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "warroom-fuzz-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Write a file (creating its folder).
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Problems that have no place in any file: the edition asked for does not exist, or the
/// merged data lacks a whole section (there is no text to point at).
pub const UNLOCATED: &[&str] = &["layer::not-found", "schema::incomplete"];

/// A label's span lies inside its file's text, on character boundaries.
fn label_in_bounds(p: &Problem, l: &Label) -> Result<(), String> {
    let text = l.source.inner();
    let (start, end) = (l.span.offset(), l.span.offset() + l.span.len());
    if end > text.len() || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
        return Err(format!(
            "{}: {} — label {:?} at {start}..{end} is outside its file ({} bytes)",
            p.code,
            p.message,
            l.location,
            text.len()
        ));
    }
    Ok(())
}

/// Every problem is located (but for [`UNLOCATED`]), its labels lie inside their files, and it
/// renders.
pub fn check_problems(problems: &[Problem]) -> Result<(), String> {
    for p in problems {
        match &p.primary {
            None if UNLOCATED.contains(&p.code) => {}
            None => return Err(format!("unlocated {}: {}", p.code, p.message)),
            Some(l) => label_in_bounds(p, l)?,
        }
        for r in &p.related {
            label_in_bounds(p, &r.0)?;
        }
        let mut out = String::new();
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .render_report(&mut out, p)
            .map_err(|e| format!("{} does not render: {e}", p.code))?;
    }
    Ok(())
}

/// Numbers TOML can hold and numbers it cannot: past i64, negative counts, floats where an
/// integer goes, special floats, other radixes.
pub const TOML_NUMBERS: &[&str] = &[
    "-1",
    "-5",
    "0",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999999",
    "1e308",
    "1e999",
    "-0.0",
    "nan",
    "-inf",
    "0x7fffffffffffffff",
    "0o777",
    "0b1",
    "1_000",
    "2.5",
];

/// Values of every type, to put where another type goes.
pub const VALUES: &[&str] = &[
    "[]",
    "[1, \"a\", true]",
    "{}",
    "{ x = 1 }",
    "\"text\"",
    "\"\"",
    "true",
    "1979-05-27T07:32:00Z",
    "[[1], [[2]]]",
    "[{ a = 1 }, 2]",
    "{ param = \"nope\" }",
    "\"\\u0000\\u001b\"",
];

/// Fragments that break TOML's structure, and bytes that are not UTF-8.
pub const FRAGMENTS: &[&[u8]] = &[
    b"[",
    b"]",
    b"[[",
    b"{",
    b"}",
    b"\"",
    b"'''",
    b"=",
    b"\n[units.infantry]\n",
    b"\n[[units]]\n",
    b"\n[remove]\nunits = [\"infantry\"]\n",
    b"\n[append.units]\n",
    b"\n[add.units.tank]\ncost = 9223372036854775807\n",
    b"\0",
    b"\x07\x1b",
    b"\r",
    b"\xff",
    b"\xc3",
    b"\xe2\x82",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
    "\u{feff}".as_bytes(),
    "é".as_bytes(),
];

#[derive(Clone, Debug)]
pub enum Mutation {
    Truncate(prop::sample::Index),
    Delete(prop::sample::Index, usize),
    Insert(prop::sample::Index, usize),
    InsertRandom(prop::sample::Index, Vec<u8>),
    /// The n-th run of digits becomes one of [`TOML_NUMBERS`].
    Number(prop::sample::Index, usize),
    /// The value after the n-th ` = ` becomes one of [`VALUES`].
    Retype(prop::sample::Index, usize),
    DuplicateLine(prop::sample::Index),
    SwapLines(prop::sample::Index, prop::sample::Index),
}

pub fn mutation() -> impl Strategy<Value = Mutation> {
    use prop::sample::Index;
    prop_oneof![
        1 => any::<Index>().prop_map(Mutation::Truncate),
        2 => (any::<Index>(), 1usize..80).prop_map(|(i, n)| Mutation::Delete(i, n)),
        3 => (any::<Index>(), 0..FRAGMENTS.len()).prop_map(|(i, k)| Mutation::Insert(i, k)),
        1 => (any::<Index>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(i, b)| Mutation::InsertRandom(i, b)),
        4 => (any::<Index>(), 0..TOML_NUMBERS.len()).prop_map(|(i, k)| Mutation::Number(i, k)),
        3 => (any::<Index>(), 0..VALUES.len()).prop_map(|(i, k)| Mutation::Retype(i, k)),
        1 => any::<Index>().prop_map(Mutation::DuplicateLine),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
    ]
}

/// Byte offsets where `pat` occurs.
fn offsets(bytes: &[u8], pat: &[u8]) -> Vec<usize> {
    (0..bytes.len().saturating_sub(pat.len() - 1))
        .filter(|&i| bytes[i..].starts_with(pat))
        .collect()
}

/// Start and end of every line (the end excludes the newline).
fn lines(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' {
            out.push((start, i));
            start = i + 1;
        }
    }
    out.push((start, bytes.len()));
    out
}

pub fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    let at = |i: &prop::sample::Index, len: usize| i.index(len + 1);
    match m {
        Mutation::Truncate(i) => {
            let n = at(i, bytes.len());
            bytes.truncate(n);
        }
        Mutation::Delete(i, n) => {
            let start = at(i, bytes.len());
            let end = (start + n).min(bytes.len());
            bytes.drain(start..end);
        }
        Mutation::Insert(i, k) => {
            let p = at(i, bytes.len());
            bytes.splice(p..p, FRAGMENTS[*k].iter().copied());
        }
        Mutation::InsertRandom(i, b) => {
            let p = at(i, bytes.len());
            bytes.splice(p..p, b.iter().copied());
        }
        Mutation::Number(i, k) => {
            let runs: Vec<(usize, usize)> = {
                let mut out = Vec::new();
                let mut j = 0;
                while j < bytes.len() {
                    if bytes[j].is_ascii_digit() {
                        let s = j;
                        while j < bytes.len() && bytes[j].is_ascii_digit() {
                            j += 1;
                        }
                        out.push((s, j));
                    } else {
                        j += 1;
                    }
                }
                out
            };
            if !runs.is_empty() {
                let (s, e) = runs[i.index(runs.len())];
                bytes.splice(s..e, TOML_NUMBERS[*k].bytes());
            }
        }
        Mutation::Retype(i, k) => {
            let eqs = offsets(bytes, b" = ");
            if !eqs.is_empty() {
                let s = eqs[i.index(eqs.len())] + 3;
                let e = bytes[s..]
                    .iter()
                    .position(|b| *b == b'\n')
                    .map_or(bytes.len(), |n| s + n);
                bytes.splice(s..e, VALUES[*k].bytes());
            }
        }
        Mutation::DuplicateLine(i) => {
            let ls = lines(bytes);
            let (s, e) = ls[i.index(ls.len())];
            let mut line = bytes[s..e].to_vec();
            line.push(b'\n');
            bytes.splice(s..s, line);
        }
        Mutation::SwapLines(a, b) => {
            let ls = lines(bytes);
            let (x, y) = (ls[a.index(ls.len())], ls[b.index(ls.len())]);
            let (x, y) = if x.0 <= y.0 { (x, y) } else { (y, x) };
            if x != y {
                let lx = bytes[x.0..x.1].to_vec();
                let ly = bytes[y.0..y.1].to_vec();
                bytes.splice(y.0..y.1, lx);
                bytes.splice(x.0..x.1, ly);
            }
        }
    }
}
