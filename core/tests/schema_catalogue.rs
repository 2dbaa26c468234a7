//! The schema catalogue (`rules::schema`) and the code that reads TOML agree: loading every
//! edition with each of its options, every fixture layer and every scenario file asks for
//! each catalogued field at least once, and for nothing the catalogue does not list.

use std::path::{Path, PathBuf};
use warroom_core::layers::{list_editions, LoadRequest};
use warroom_core::rules::{self, schema};
use warroom_core::scenario::{self, RulesCache};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.toml` file under `dir`, in name order.
fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            toml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

/// Loads everything there is to load, counting what loaded (broken fixtures fail, by design).
fn load_everything() -> (usize, usize) {
    let editions = root().join("editions");
    let fixtures = root().join("tests/fixtures");
    let mut requests = Vec::new();
    for e in list_editions(&editions) {
        requests.push(LoadRequest::new(&editions, &e));
        if let Ok(rs) = rules::load(&LoadRequest::new(&editions, &e)) {
            for o in rs.layers.iter().flat_map(|l| l.options.iter()) {
                requests.push(LoadRequest::new(&editions, &e).with(o.name.clone()));
            }
        }
    }
    for group in ["editions", "house", "broken"] {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures.join(group))
            .expect("fixtures")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for d in dirs {
            let target = if d.join("layer.toml").is_file() {
                d
            } else {
                d.join("a")
            };
            requests.push(LoadRequest::new(
                fixtures.join("editions"),
                target.display().to_string(),
            ));
        }
    }
    let loaded = requests.iter().filter(|r| rules::load(r).is_ok()).count();
    let mut files = Vec::new();
    toml_files(&root().join("tests/scenarios"), &mut files);
    toml_files(&fixtures.join("scenarios"), &mut files);
    let cache = RulesCache::new(&editions);
    let read = files
        .iter()
        .filter(|f| scenario::load(f, &[], &|h| cache.get(h)).is_ok())
        .count();
    (loaded, read)
}

#[test]
fn every_catalogued_field_is_read_and_nothing_else_is() {
    let ((loaded, scenarios), reads) = schema::record(load_everything);
    assert!(loaded > 20, "only {loaded} rule sets loaded");
    assert!(scenarios > 100, "only {scenarios} scenario files read");
    assert!(
        reads.uncatalogued.is_empty(),
        "read but not in the schema catalogue (add them to rules/schema.rs's tables): {:?}",
        reads.uncatalogued
    );
    let mut unread = Vec::new();
    for doc in schema::DOCUMENTS {
        for table in doc.tables {
            for field in table.fields {
                if !reads.has(table, field.key) {
                    unread.push(table.path_of(field.key));
                }
            }
        }
    }
    assert!(
        unread.is_empty(),
        "catalogued but never read while loading every edition, option, fixture and scenario \
         (a field no code reads, or one no data exercises: add a fixture using it): {unread:?}"
    );
}

#[test]
fn every_field_is_documented_once() {
    for doc in schema::DOCUMENTS {
        for table in doc.tables {
            assert!(
                !table.doc.trim().is_empty(),
                "`{}` has no description",
                table.path
            );
            for (i, f) in table.fields.iter().enumerate() {
                let path = table.path_of(f.key);
                assert!(!f.doc.trim().is_empty(), "`{path}` has no meaning");
                assert!(!f.ty.trim().is_empty(), "`{path}` has no type");
                assert!(
                    table.fields[..i].iter().all(|g| g.key != f.key),
                    "`{path}` is catalogued twice"
                );
            }
        }
    }
}
