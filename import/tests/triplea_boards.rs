//! The converter on real boards: the six in ../shared/reference/triplea (beside the project on
//! every developer machine and in CI, where .ci/run requires them; the XML files are never
//! committed here), and the made-up fixture tests/fixtures/import/test-islands.xml, which every
//! clone has. Each converts, deterministically, and the layer it writes loads as a clean rule
//! set with the board's every space. Where the real boards are missing (a clone of the project
//! alone) their test says plainly that it skipped them.

use std::io::Write;
use std::path::{Path, PathBuf};
use warroom_core::layers::LoadRequest;
use warroom_import::triplea::{convert, ImportOptions};

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/triplea")
}

/// Convert `xml` twice (the same layer both times), write it under `out` and load it.
fn converts_to_a_layer_that_loads(out: &Path, file: &str, xml: &str, spaces: usize) {
    let layer = convert(xml, file, &ImportOptions::new("imported")).unwrap_or_else(|e| panic!("{file}: {e}"));
    let again = convert(xml, file, &ImportOptions::new("imported")).unwrap();
    assert_eq!(
        layer.files, again.files,
        "{file}: conversion must be deterministic"
    );
    let target = out.join(file.trim_end_matches(".xml"));
    layer.write_to(&target).unwrap();
    let rs = warroom_core::rules::load(&LoadRequest::new(
        out.join("editions"),
        target.display().to_string(),
    ))
    .unwrap_or_else(|e| panic!("{file}: {:#?}", e.problems));
    assert_eq!(rs.board.spaces.len(), spaces, "{file}");
    assert!(!rs.scenarios[0].setup.is_empty(), "{file}: the setup converts");
}

#[test]
fn the_made_up_board_converts_to_a_layer_that_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/import/test-islands.xml");
    let xml = std::fs::read_to_string(&path).unwrap();
    let out = std::env::temp_dir().join(format!("warroom-islands-{}", std::process::id()));
    // Its seven territories and sea zones, the impassable Swamp among them.
    converts_to_a_layer_that_loads(&out, "test-islands.xml", &xml, 7);
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn every_reference_board_converts_to_a_layer_that_loads() {
    let dir = reference();
    if !dir.is_dir() {
        // Straight to stderr, past the test harness's capture, so `cargo test` shows it.
        writeln!(
            std::io::stderr(),
            "\ntriplea_boards: skipped the six real TripleA boards: {} is missing (it is beside \
             the project on developer machines and in CI); only the made-up fixture \
             tests/fixtures/import/test-islands.xml was converted",
            dir.display()
        )
        .unwrap();
        return;
    }
    // Space counts are the XML's territories less TripleA's bookkeeping pseudo-territories
    // (war/peace flags, unconnected "Box" spaces), which are not spaces of the board.
    let boards = [
        ("aa1941__WW2v6_1941.xml", 120),
        ("anniversary_1941__WW2v3-1941.xml", 162),
        ("anniversary_1942__WW2v3-1942.xml", 162),
        ("europe1940_2nd__ww2eur40_2nd_edition.xml", 192),
        ("pacific1940_2nd__ww2pac40_2nd_edition.xml", 149),
        ("global1940_2nd__ww2global40_2nd_edition.xml", 332),
    ];
    let out = std::env::temp_dir().join(format!("warroom-boards-{}", std::process::id()));
    for (file, spaces) in boards {
        let xml = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        converts_to_a_layer_that_loads(&out, file, &xml, spaces);
    }
    std::fs::remove_dir_all(&out).ok();
}
