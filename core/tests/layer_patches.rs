//! The patch grammar applied for real: replace, inherit, append, remove, and the provenance
//! each resolved value keeps.

use std::path::{Path, PathBuf};
use warroom_core::layers::LoadRequest;
use warroom_core::rules;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

#[test]
fn a_house_layer_replaces_appends_removes_and_inherits() {
    let layer = fixtures().join("house/patches");
    let rs = rules::load(&LoadRequest::new(
        fixtures().join("editions"),
        layer.display().to_string(),
    ))
    .unwrap_or_else(|e| panic!("{:#?}", e.problems));
    assert_eq!(
        rs.layers.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
        ["mini", "patches"]
    );

    let tank = rs.unit(rs.unit_type("tank").unwrap());
    assert_eq!((tank.attack, tank.cost), (4, 6));
    let marine = rs.unit(rs.unit_type("marine").unwrap());
    assert_eq!(
        (marine.attack, marine.defense, marine.cost, marine.transport_cost),
        (2, 2, 3, Some(2))
    );
    assert!(rs.unit_type("transport").is_none());

    let b = &rs.board;
    let middle = b.find("Middle").unwrap();
    let sz1 = b.find("sz 1").unwrap();
    let sz2 = b.find("SZ2").unwrap();
    let redland = b.find("redland").unwrap();
    assert!(b.space(middle).adjacent.contains(&sz2));
    assert!(b.space(sz2).adjacent.contains(&middle));
    assert!(!b.space(redland).adjacent.contains(&sz1));
    assert!(rs.scenario("start").unwrap().setup.iter().all(|p| p.space != sz1));

    // Provenance: the tank's attack comes from the patch and replaced the edition's value.
    let n = rs.why(&["units", "tank", "attack"]).unwrap();
    assert!(
        rs.describe(&n.origin)
            .starts_with("house/patches/patch.toml:2:10"),
        "{}",
        rs.describe(&n.origin)
    );
    assert_eq!(n.replaced.len(), 1);
    assert!(rs
        .describe(&n.replaced[0])
        .starts_with("editions/mini/units.toml:17:10"));
    // An inherited field points at the parent's definition.
    let n = rs.why(&["units", "marine", "defense"]).unwrap();
    assert!(
        rs.describe(&n.origin)
            .starts_with("editions/mini/units.toml:7:11"),
        "{}",
        rs.describe(&n.origin)
    );
}

#[test]
fn option_parameters_are_typed_and_bounded() {
    let ed = fixtures().join("editions");
    let ok = rules::load(&LoadRequest::new(&ed, "mini").with("cheap-tanks:cost=3")).unwrap();
    assert_eq!(ok.unit(ok.unit_type("tank").unwrap()).cost, 3);
    let default = rules::load(&LoadRequest::new(&ed, "mini").with("cheap-tanks")).unwrap();
    assert_eq!(default.unit(default.unit_type("tank").unwrap()).cost, 5);
    for (with, fragment) in [
        ("cheap-tanks=11", "between 1 and 10"),
        ("cheap-tanks=lots", "takes an integer"),
        ("cheap-tanks:price=3", "no parameter `price`"),
        ("cheap-tank", "did you mean `cheap-tanks`?"),
    ] {
        let e = rules::load(&LoadRequest::new(&ed, "mini").with(with)).unwrap_err();
        let p = &e.problems.0[0];
        let text = format!("{} {}", p.message, p.help.clone().unwrap_or_default());
        assert!(text.contains(fragment), "{with}: {text}");
        assert_eq!(p.location(), Some("<command line>:1:1"), "{with}");
    }
}

/// The starting IPCs of a power in the mini edition's `start` scenario.
fn starting_ipcs(rs: &rules::RuleSet, power: &str) -> i64 {
    let p = rs.power(power).unwrap();
    rs.scenario("start")
        .unwrap()
        .ipcs
        .iter()
        .find(|(q, _)| *q == p)
        .map(|(_, n)| *n)
        .unwrap()
}

#[test]
fn add_sections_add_to_numbers_an_earlier_layer_set() {
    let ed = fixtures().join("editions");
    let bonus = fixtures().join("house/bonus").display().to_string();
    let rs = rules::load(&LoadRequest::new(&ed, "mini").with(bonus.clone())).unwrap();
    // Red 20 + the parameter's default 5; Blue 12 - 2; a tank 6 + 1.
    assert_eq!(starting_ipcs(&rs, "Red"), 25);
    assert_eq!(starting_ipcs(&rs, "Blue"), 10);
    assert_eq!(rs.unit(rs.unit_type("tank").unwrap()).cost, 7);
    let rs = rules::load(&LoadRequest::new(&ed, "mini").with(format!("{bonus}:red=12"))).unwrap();
    assert_eq!(starting_ipcs(&rs, "Red"), 32);
    // The sum comes from the patch, and remembers the value it was added to.
    let n = rs.why(&["units", "tank", "cost"]).unwrap();
    assert!(
        rs.describe(&n.origin).starts_with("house/bonus/bonus.toml:6:8"),
        "{}",
        rs.describe(&n.origin)
    );
    assert!(rs
        .describe(n.replaced.last().unwrap())
        .starts_with("editions/mini/units.toml:16:8"));
}

#[test]
fn a_folder_given_without_a_base_is_found_under_the_editions_folder() {
    // `house/bonus` is not a folder of the current directory (core/), but it is one of the
    // fixtures folder, which here plays the editions folder.
    let fixtures = fixtures();
    assert!(!Path::new("house/bonus").exists());
    let rs = rules::load(&LoadRequest::new(&fixtures, "editions/mini").with("house/bonus:red=1")).unwrap();
    assert_eq!(starting_ipcs(&rs, "Red"), 21);
    let rs = rules::load(&LoadRequest::new(&fixtures, "house/bonus")).unwrap();
    assert_eq!(
        rs.layers.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(),
        ["mini", "bonus"]
    );
    // Still nothing where neither folder has it.
    let e = rules::load(&LoadRequest::new(&fixtures, "editions/mini").with("house/bonnus")).unwrap_err();
    assert!(
        e.problems.0[0].message.contains("house/bonnus/layer.toml"),
        "{}",
        e.problems.0[0].message
    );
}
