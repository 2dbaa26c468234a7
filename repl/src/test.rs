//! `warroom test`: run regression scenarios, and `--diff` to see what a layer changes.

use crate::render;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use warroom_core::scenario::{self, Report, RulesCache};

pub struct Options {
    pub editions: PathBuf,
    pub paths: Vec<PathBuf>,
    pub with: Vec<String>,
    pub diff: Option<String>,
    pub jobs: Option<usize>,
}

/// Where scenarios live by default: `tests/scenarios` beside the editions folder.
pub fn default_dir(editions: &Path) -> PathBuf {
    editions
        .parent()
        .map_or_else(|| PathBuf::from("tests/scenarios"), |p| p.join("tests/scenarios"))
}

/// Scenario files under the given files and folders, each folder's in name order.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            found.sort();
            out.extend(found);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(format!("no scenario file or folder {}", p.display()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
    Ok(())
}

pub fn jobs(explicit: Option<usize>) -> usize {
    explicit.unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

fn label(r: &Report) -> String {
    if r.rule_ids.is_empty() {
        r.display.clone()
    } else {
        format!("{} ({})", r.display, r.rule_ids.join(", "))
    }
}

/// Print a report's failures, one line each; returns whether it passed.
fn print_failures(r: &Report) -> bool {
    if let Some(problems) = &r.problems {
        println!(
            "FAIL {}: the scenario file has {} problem(s)",
            r.display,
            problems.len()
        );
        render::problems(problems);
        return false;
    }
    if let Some(e) = &r.error {
        println!("FAIL {}: {e}", label(r));
        return false;
    }
    for m in &r.failures {
        println!(
            "FAIL {}  {}: expected {}  |  actual {}  ({})",
            label(r),
            m.what,
            m.expected,
            m.actual,
            m.at
        );
    }
    r.failures.is_empty()
}

pub fn run(o: Options) -> ExitCode {
    let paths = if o.paths.is_empty() {
        vec![default_dir(&o.editions)]
    } else {
        o.paths.clone()
    };
    let files = match collect(&paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("warroom test: {e}");
            return ExitCode::from(2);
        }
    };
    if files.is_empty() {
        eprintln!("warroom test: no scenario files (*.toml) in {}", show(&paths));
        return ExitCode::from(2);
    }
    let cache = RulesCache::new(&o.editions);
    let jobs = jobs(o.jobs);
    match &o.diff {
        None => {
            let reports = scenario::run_all(&files, &o.with, &cache, jobs);
            let mut failed = 0;
            for r in &reports {
                if !print_failures(r) {
                    failed += 1;
                }
            }
            println!("{} passed, {failed} failed", reports.len() - failed);
            if failed > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Some(layer) => diff(&files, &o.with, layer, &cache, jobs),
    }
}

fn show(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn status(r: &Report) -> &'static str {
    if r.passed() {
        "passes"
    } else {
        "fails"
    }
}

/// Run every scenario without and with `layer`; list the ones whose outcome changes and how.
fn diff(files: &[PathBuf], with: &[String], layer: &str, cache: &RulesCache, jobs: usize) -> ExitCode {
    let before = scenario::run_all(files, with, cache, jobs);
    let mut with_layer = with.to_vec();
    with_layer.push(layer.to_string());
    let after = scenario::run_all(files, &with_layer, cache, jobs);
    let mut changed = 0;
    let mut broken = 0;
    for (b, a) in before.iter().zip(&after) {
        if b.problems.is_some() || a.problems.is_some() {
            broken += 1;
            let r = if b.problems.is_some() { b } else { a };
            let when = if b.problems.is_some() {
                ""
            } else {
                " with the layer"
            };
            println!("FAIL {}{when}: the scenario does not load", r.display);
            if let Some(p) = &r.problems {
                render::problems(p);
            }
            continue;
        }
        let lines = changes(b, a);
        if lines.is_empty() {
            continue;
        }
        changed += 1;
        println!("changed {}: {} -> {}", label(b), status(b), status(a));
        for l in lines {
            println!("    {l}");
        }
    }
    println!(
        "{changed} of {} scenarios change with {layer}{}",
        files.len(),
        if broken > 0 {
            format!(", {broken} do not load")
        } else {
            String::new()
        }
    );
    if broken > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// What differs between two runs of one scenario, one line per observation.
fn changes(before: &Report, after: &Report) -> Vec<String> {
    let mut out = Vec::new();
    if before.error != after.error {
        out.push(format!(
            "start: {} -> {}",
            before.error.as_deref().unwrap_or("ok"),
            after.error.as_deref().unwrap_or("ok")
        ));
    }
    let n = before.observations.len().max(after.observations.len());
    for i in 0..n {
        match (before.observations.get(i), after.observations.get(i)) {
            (Some(b), Some(a)) if b.what == a.what && b.value == a.value => {}
            (Some(b), Some(a)) if b.what == a.what => {
                out.push(format!("{}: {} -> {}", b.what, b.value, a.value))
            }
            (Some(b), Some(a)) => out.push(format!("{}: {}  /  {}: {}", b.what, b.value, a.what, a.value)),
            (Some(b), None) => out.push(format!("{}: {} -> not reached", b.what, b.value)),
            (None, Some(a)) => out.push(format!("{}: not reached -> {}", a.what, a.value)),
            (None, None) => {}
        }
    }
    out
}

/// `warroom replay FILE [--with LAYER]...`: replay a recorded game against the current rules
/// (and the extra layers) and report the first command that goes otherwise than recorded.
pub fn replay(editions: &Path, file: &Path, with: &[String]) -> ExitCode {
    let cache = RulesCache::new(editions);
    let load = |extra: &[String]| scenario::load(file, extra, &|h| cache.get(h));
    let case = match load(with) {
        Ok(c) => c,
        Err((_, problems)) => {
            println!(
                "FAIL {}: the recording has {} problem(s)",
                file.display(),
                problems.len()
            );
            render::problems(&problems);
            return ExitCode::from(2);
        }
    };
    // With extra layers, the recording also runs on the rules it names, so a divergence can
    // show the two states side by side.
    let base = if with.is_empty() {
        None
    } else {
        match load(&[]) {
            Ok(c) => Some(c),
            Err((_, problems)) => {
                println!(
                    "FAIL {}: the recording does not load on its own rules",
                    file.display()
                );
                render::problems(&problems);
                return ExitCode::from(2);
            }
        }
    };
    let r = scenario::replay(&case, base.as_ref());
    if let Some(e) = &r.error {
        println!("FAIL {}: {e}", file.display());
        return ExitCode::from(2);
    }
    let Some(d) = &r.divergence else {
        println!("replayed {} of {} commands: no divergence", r.replayed, r.steps);
        return ExitCode::SUCCESS;
    };
    println!(
        "diverged at command {} of {}: `{}` ({})",
        d.step + 1,
        r.steps,
        d.command,
        d.at
    );
    let width = 12;
    println!(
        "  {:<width$} recorded: {}  |  replayed: {}",
        "result", d.recorded_result, d.replayed_result
    );
    if d.recorded_output != d.replayed_output {
        println!("  output");
        for l in &d.recorded_output {
            if !d.replayed_output.contains(l) {
                println!("    recorded only: {l}");
            }
        }
        for l in &d.replayed_output {
            if !d.recorded_output.contains(l) {
                println!("    replayed only: {l}");
            }
        }
    }
    if let Some(h) = d.recorded_hash {
        println!(
            "  {:<width$} recorded: {h:016x}  |  replayed: {:016x}",
            "state hash", d.replayed_hash
        );
    }
    let (left, right, lines) = &d.states;
    if lines.is_empty() {
        println!("  the states ({left} | {right}) show no difference in control, units, treasuries or phase");
    } else {
        println!("  states: {left}  |  {right}");
        let w = lines.iter().map(|l| l.what.chars().count()).max().unwrap_or(0);
        for l in lines {
            println!("    {:<w$}  {}  |  {}", l.what, l.left, l.right);
        }
    }
    ExitCode::from(1)
}
