//! `warroom check`, `warroom editions` and `warroom import`.

use crate::render;
use std::path::Path;
use std::process::ExitCode;
use warroom_core::layers::{list_editions, LayerKind, LoadRequest, MANIFEST};
use warroom_core::rules;

/// The requests `check` makes for one target: the layer alone, then (for an edition) the
/// edition with each optional layer it offers, so a broken option is found too.
fn requests_for(editions: &Path, target: &str) -> Vec<LoadRequest> {
    let mut out = vec![LoadRequest::new(editions, target)];
    if let Ok(rs) = rules::load(&LoadRequest::new(editions, target)) {
        if rs.layers.iter().any(|l| l.kind == LayerKind::Edition) {
            for l in &rs.layers {
                for o in &l.options {
                    out.push(LoadRequest::new(editions, target).with(o.name.clone()));
                }
            }
        }
    }
    out
}

/// The house rules under `editions/house/` (folders with a manifest), as `--with` names them:
/// `house/bid`, sorted.
fn house_rules(editions: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(editions.join("house"))
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path().join(MANIFEST).is_file())
                .map(|e| format!("house/{}", e.file_name().to_string_lossy()))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// A target that names scenario files rather than a layer: a `.toml` file other than a
/// manifest, or a folder that is not a layer.
fn is_scenario_target(editions: &Path, t: &str) -> bool {
    let p = Path::new(t);
    if p.is_file() {
        return p.extension().is_some_and(|x| x == "toml") && p.file_name().is_some_and(|n| n != MANIFEST);
    }
    p.is_dir() && !p.join(MANIFEST).is_file() && !editions.join(t).join(MANIFEST).is_file()
}

/// Read scenario files without running them; every problem located in its file.
fn check_scenarios(editions: &Path, paths: &[std::path::PathBuf]) -> (usize, usize) {
    let files = match crate::test::collect(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return (1, 1);
        }
    };
    let cache = warroom_core::scenario::RulesCache::new(editions);
    let (mut failed, mut total) = (0, 0);
    for f in &files {
        match warroom_core::scenario::load(f, &[], &|h| cache.get(h)) {
            Ok(case) => println!(
                "ok   {}: {} step(s), {} expectation(s)",
                f.display(),
                case.steps.len(),
                case.expect.len()
            ),
            Err((_, problems)) => {
                failed += 1;
                total += problems.len();
                println!("FAIL {}: {} problem(s)", f.display(), problems.len());
                for p in problems.iter() {
                    eprintln!("{}", render::report(p));
                }
            }
        }
    }
    (failed, total)
}

pub fn check(editions: &Path, targets: &[String]) -> ExitCode {
    let mut scenario_paths: Vec<std::path::PathBuf> = Vec::new();
    let targets: Vec<String> = if targets.is_empty() {
        let dir = crate::test::default_dir(editions);
        if dir.is_dir() {
            scenario_paths.push(dir);
        }
        let mut all = list_editions(editions);
        all.extend(house_rules(editions));
        all
    } else {
        let (scen, layers): (Vec<&String>, Vec<&String>) =
            targets.iter().partition(|t| is_scenario_target(editions, t));
        scenario_paths.extend(scen.into_iter().map(std::path::PathBuf::from));
        layers.into_iter().cloned().collect()
    };
    let (mut failed, mut total_problems) = if scenario_paths.is_empty() {
        (0, 0)
    } else {
        check_scenarios(editions, &scenario_paths)
    };
    if targets.is_empty() && scenario_paths.is_empty() {
        eprintln!("no editions found in {}", editions.display());
        return ExitCode::FAILURE;
    }
    for t in &targets {
        // A folder given on the command line (editions/1941) is used as a path.
        let target = if Path::new(t).join(MANIFEST).is_file() && t.contains('/') {
            std::fs::canonicalize(t)
                .map(|p| p.display().to_string())
                .unwrap_or(t.clone())
        } else {
            t.trim_end_matches('/').to_string()
        };
        // The layer is checked alone and with each option of its edition: a problem of the
        // layer's own shows in every one of those loads, and is reported once.
        let mut shown: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut report = |label: &str, reports: Vec<String>| {
            let fresh: Vec<String> = reports.iter().filter(|r| !shown.contains(*r)).cloned().collect();
            let again = reports.len() - fresh.len();
            let note = if again > 0 {
                format!(" ({again} reported above)")
            } else {
                String::new()
            };
            println!("FAIL {label}: {} problem(s){note}", reports.len());
            for r in fresh {
                eprintln!("{r}");
                shown.insert(r);
            }
            reports.len() - again
        };
        for req in requests_for(editions, &target) {
            let label = if req.with.is_empty() {
                t.clone()
            } else {
                format!("{t} --with {}", req.with.join(" "))
            };
            match rules::load(&req) {
                Ok(rs) if warroom_core::game::check_scripts(&rs).is_err() => {
                    let e = warroom_core::game::check_scripts(&rs).unwrap_err();
                    failed += 1;
                    total_problems += report(&label, vec![render::report(&e)]);
                }
                Ok(rs) => println!(
                    "ok   {label}: {} powers, {} spaces, {} unit types, {} scenarios",
                    rs.powers.len(),
                    rs.board.spaces.len(),
                    rs.units.len(),
                    rs.scenarios.len()
                ),
                Err(e) => {
                    failed += 1;
                    total_problems += report(&label, e.problems.iter().map(|p| render::report(p)).collect());
                }
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} check(s) failed, {total_problems} problem(s)");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn list(editions: &Path) -> ExitCode {
    let names = list_editions(editions);
    if names.is_empty() {
        eprintln!("no editions found in {}", editions.display());
        return ExitCode::FAILURE;
    }
    // Each house rule goes under the edition it extends.
    let mut house: Vec<(String, String, String)> = Vec::new();
    for with in house_rules(editions) {
        match rules::load(&LoadRequest::new(editions, with.clone())) {
            Ok(rs) => {
                let edition = rs.layers.iter().rev().find(|l| l.kind == LayerKind::Edition);
                let title = rs.layers.last().map(|l| l.title.clone()).unwrap_or_default();
                if let Some(folder) = edition.and_then(|e| e.dir.file_name()) {
                    house.push((folder.to_string_lossy().into_owned(), with, title));
                }
            }
            Err(e) => println!(
                "{with}  (does not load: {} problem(s); run `warroom check {with}`)",
                e.problems.len()
            ),
        }
    }
    for name in names {
        match rules::load(&LoadRequest::new(editions, name.clone())) {
            Ok(rs) => {
                let title = rs
                    .layers
                    .iter()
                    .rev()
                    .find(|l| l.kind == LayerKind::Edition)
                    .map(|l| l.title.clone())
                    .unwrap_or_default();
                println!("{name}  {title}");
                let default = rs.default_scenario.clone().unwrap_or_default();
                for s in &rs.scenarios {
                    let mark = if s.id == default { " (default)" } else { "" };
                    println!("  scenario {}{mark}: {}", s.id, s.title);
                }
                for l in &rs.layers {
                    for o in &l.options {
                        println!("  --with {:<24} {}", o.name, o.description);
                    }
                }
                for (_, with, title) in house.iter().filter(|h| h.0 == name) {
                    println!("  --with {with:<24} {title} (house rule)");
                }
            }
            Err(e) => println!(
                "{name}  (does not load: {} problem(s); run `warroom check {name}`)",
                e.problems.len()
            ),
        }
    }
    ExitCode::SUCCESS
}

pub fn import_triplea(file: &Path, out: &Path, name: Option<String>) -> ExitCode {
    let xml = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let layer_name = name.unwrap_or_else(|| {
        file.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "imported".into())
    });
    let opts = warroom_import::triplea::ImportOptions::new(layer_name);
    match warroom_import::triplea::convert(&xml, &file.display().to_string(), &opts) {
        Ok(layer) => match layer.write_to(out) {
            Ok(()) => {
                println!("wrote {} file(s) to {}", layer.files.len(), out.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("cannot write to {}: {e}", out.display());
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("{}", render::report(&e));
            ExitCode::FAILURE
        }
    }
}
