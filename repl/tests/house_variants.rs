//! The example house rules under editions/house/: every variant found there is a house layer
//! that loads clean and plays with `--with house/NAME`, and its regression scenarios
//! (tests/scenarios/house/NAME/) pass with the layer and each fail without it. Variants are
//! found by listing the folder, so a new variant without scenarios fails here.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warroom_core::layers::{normalize, LayerKind, LoadRequest, MANIFEST};
use warroom_core::rules::{self, RuleSet};
use warroom_core::scenario::{self, Header, Report, RulesCache};

mod support;
use support::{root, text, warroom};

fn editions() -> PathBuf {
    normalize(&root().join("editions"))
}

fn scenarios_of_variants() -> PathBuf {
    normalize(&root().join("tests/scenarios/house"))
}

/// Folder names under `dir` (those holding a layer manifest, if `layers`), sorted.
fn folders(dir: &Path, layers: bool) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && (!layers || p.join(MANIFEST).is_file()))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

fn variants() -> Vec<String> {
    let v = folders(&editions().join("house"), true);
    assert!(!v.is_empty(), "no house variants under editions/house");
    v
}

/// How scenarios and the command line name a variant's layer.
fn layer_ref(variant: &str) -> String {
    format!("house/{variant}")
}

/// Whether a `with` entry (`house/bid`, `house/bid:germany=8`) names this layer.
fn names_layer(with: &str, layer: &str) -> bool {
    with.split_once([':', '=']).map_or(with, |(name, _)| name) == layer
}

fn scenario_files(variant: &str) -> Vec<PathBuf> {
    let dir = scenarios_of_variants().join(variant);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn describe(r: &Report) -> String {
    let mut lines = vec![r.display.clone()];
    if let Some(p) = &r.problems {
        lines.extend(p.iter().map(|p| format!("  problem: {}", p.message)));
    }
    if let Some(e) = &r.error {
        lines.push(format!("  error: {e}"));
    }
    for m in &r.failures {
        lines.push(format!(
            "  {}: expected {} | actual {} ({})",
            m.what, m.expected, m.actual, m.at
        ));
    }
    lines.join("\n")
}

#[test]
fn every_variant_is_a_house_layer_with_a_header_that_loads_clean() {
    for v in variants() {
        let manifest = std::fs::read_to_string(editions().join("house").join(&v).join(MANIFEST)).unwrap();
        assert!(
            manifest.starts_with('#') && manifest.contains("What clubs use it for"),
            "editions/house/{v}/layer.toml: begin with a comment saying what clubs use it for"
        );
        // The layer alone (it extends its edition) and on top of the Anniversary Edition.
        for req in [
            LoadRequest::new(editions(), layer_ref(&v)),
            LoadRequest::new(editions(), "anniversary").with(layer_ref(&v)),
        ] {
            let rs = rules::load(&req).unwrap_or_else(|e| {
                panic!(
                    "{v} does not load: {:#?}",
                    e.problems.iter().map(|p| &p.message).collect::<Vec<_>>()
                )
            });
            let last = rs.layers.last().unwrap();
            assert_eq!(last.kind, LayerKind::House, "{v}: kind = \"house\"");
            assert_eq!(last.dir, normalize(&editions().join("house").join(&v)), "{v}");
            if let Err(e) = warroom_core::game::check_scripts(&rs) {
                panic!("{v}: its scripts fail to load: {e}");
            }
        }
        // `warroom check` agrees, with each of the edition's options beside it.
        let o = warroom(
            &[
                "--editions",
                editions().to_str().unwrap(),
                "check",
                &layer_ref(&v),
            ],
            "",
        );
        assert!(
            o.status.success(),
            "warroom check {}:\n{}",
            layer_ref(&v),
            text(&o)
        );
    }
}

#[test]
fn every_variant_plays_with_its_with_name_from_any_directory() {
    let o = warroom(&["--editions", editions().to_str().unwrap(), "editions"], "");
    let listed = text(&o);
    for v in variants() {
        assert!(
            listed.contains(&format!("  --with {} ", layer_ref(&v))) && listed.contains("(house rule)"),
            "warroom editions does not list {}:\n{listed}",
            layer_ref(&v)
        );
        // Run from repl/ (the test's directory): `house/NAME` is found under the editions folder.
        let o = warroom(
            &[
                "--editions",
                editions().to_str().unwrap(),
                "play",
                "anniversary",
                "--with",
                &layer_ref(&v),
                "--strict",
            ],
            "status\nlayers\n",
        );
        let out = text(&o);
        assert!(
            o.status.success(),
            "play anniversary --with {}:\n{out}",
            layer_ref(&v)
        );
        assert!(
            out.contains(&format!("with {}", layer_ref(&v))) && out.contains(&format!("editions/house/{v}")),
            "{out}"
        );
    }
}

#[test]
fn every_variant_has_scenarios_and_every_scenario_folder_a_variant() {
    let variants = variants();
    let mut missing = Vec::new();
    for v in &variants {
        let files = scenario_files(v);
        if files.is_empty() {
            missing.push(format!(
                "editions/house/{v} has no scenarios: add tests/scenarios/house/{v}/HOUSE-...--what-it-shows.toml"
            ));
        }
        for f in files {
            let h = scenario::read_header(&f).unwrap_or_else(|p| panic!("{}: {p:?}", f.display()));
            if !h.with.iter().any(|w| names_layer(w, &layer_ref(v))) {
                missing.push(format!(
                    "{}: name the layer, with = [\"{}\"]",
                    f.display(),
                    layer_ref(v)
                ));
            }
        }
    }
    for folder in folders(&scenarios_of_variants(), false) {
        if !variants.contains(&folder) {
            missing.push(format!(
                "tests/scenarios/house/{folder}: no variant editions/house/{folder}"
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn each_variants_scenarios_pass_with_it_and_each_fails_without_it() {
    let cache = RulesCache::new(editions());
    let mut wrong = Vec::new();
    let mut ran = 0;
    for v in variants() {
        let files = scenario_files(&v);
        // With the layer, as the files say.
        for r in scenario::run_all(&files, &[], &cache, 2) {
            if !r.passed() {
                wrong.push(format!("with {}, fails: {}", layer_ref(&v), describe(&r)));
            }
        }
        // The same files with the layer taken out of `with`: each must fail on what it checks
        // (a step or an expectation), not because it cannot be read.
        let layer = layer_ref(&v);
        let without = |h: &Header| -> Header {
            let mut h = h.clone();
            h.with.retain(|w| !names_layer(w, &layer));
            h
        };
        for f in &files {
            ran += 1;
            let rules_for = |h: &Header| -> Result<Arc<RuleSet>, String> { cache.get(&without(h)) };
            let mut case = match scenario::load(f, &[], &rules_for) {
                Ok(c) => c,
                Err((_, p)) => {
                    // A layer that adds phases or commands: its scenarios name them and cannot
                    // be read without it, which is failing without it when every problem is
                    // about one of those names.
                    let added = added_names(&cache, f, &without);
                    if !added.is_empty()
                        && p.iter()
                            .all(|p| added.iter().any(|n| p.message.contains(&format!("`{n}`"))))
                    {
                        continue;
                    }
                    let msgs: Vec<&str> = p.iter().map(|p| p.message.as_str()).collect();
                    wrong.push(format!(
                        "without {layer}, {} cannot be read: {msgs:?}",
                        f.display()
                    ));
                    continue;
                }
            };
            case.header = without(&case.header);
            let r = scenario::run(&case);
            if r.passed() || r.error.is_some() {
                wrong.push(format!(
                    "without {layer}, {} should fail on a step or an expectation: {}",
                    f.display(),
                    if r.passed() {
                        "it passes".into()
                    } else {
                        describe(&r)
                    }
                ));
            }
        }
    }
    assert!(ran > 0);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The phase ids and command verbs a scenario's layers add to the rules without the variant.
fn added_names(
    cache: &scenario::RulesCache,
    f: &std::path::Path,
    without: &dyn Fn(&Header) -> Header,
) -> Vec<String> {
    let Ok(case) = scenario::load(f, &[], &|h| cache.get(h)) else {
        return Vec::new();
    };
    let (Ok(with), Ok(base)) = (cache.get(&case.header), cache.get(&without(&case.header))) else {
        return Vec::new();
    };
    let mut added: Vec<String> = with
        .phases
        .iter()
        .filter(|p| !base.phases.iter().any(|b| b.id == p.id))
        .map(|p| p.id.clone())
        .collect();
    added.extend(
        with.commands
            .iter()
            .filter(|c| !base.commands.iter().any(|b| b.name == c.name))
            .map(|c| c.name.clone()),
    );
    added
}

#[test]
fn the_bid_is_bounded_and_names_its_parameters() {
    for (with, fragment) in [
        (
            "house/bid:germany=61",
            "parameter `germany` must be between 0 and 60, not 61",
        ),
        ("house/bid:germany=-1", "must be between 0 and 60"),
        (
            "house/bid:russia=5",
            "layer `house-bid` has no parameter `russia`",
        ),
        ("house/bid=12", "layer `house-bid` has 3 parameters; name one"),
    ] {
        let e = match rules::load(&LoadRequest::new(editions(), "anniversary").with(with)) {
            Ok(_) => panic!("{with} loads"),
            Err(e) => e,
        };
        let p = e.problems.iter().next().unwrap();
        assert!(p.message.contains(fragment), "{with}: {}", p.message);
    }
}
