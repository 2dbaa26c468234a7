//! The converter on the six real boards in ../shared/reference/triplea (beside the project on
//! every developer machine and in CI; the XML files are never committed here): each converts,
//! and the layer it writes loads as a clean rule set with the board's every space.

use std::path::{Path, PathBuf};
use warroom_core::layers::LoadRequest;
use warroom_import::triplea::{convert, ImportOptions};

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/triplea")
}

#[test]
fn every_reference_board_converts_to_a_layer_that_loads() {
    let dir = reference();
    assert!(
        dir.is_dir(),
        "{} is missing: the project expects ../shared beside it",
        dir.display()
    );
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
        let xml = std::fs::read_to_string(dir.join(file)).unwrap();
        let layer =
            convert(&xml, file, &ImportOptions::new("imported")).unwrap_or_else(|e| panic!("{file}: {e}"));
        let again = convert(&xml, file, &ImportOptions::new("imported")).unwrap();
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
    std::fs::remove_dir_all(&out).ok();
}
