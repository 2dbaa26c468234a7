//! The shared national-objectives module (`scripts/objectives.lua`) on a made-up world, apart
//! from any edition: its conditions, the capital rule, the reason logged, replacing and adding
//! objectives, and the errors for a typo. The editions' objectives are checked by regression
//! scenarios (tests/scenarios/anniversary/AA50-NO-*).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use warroom_core::script::{Event, EventKind, GameView, ScriptError, ScriptHost, ScriptLimits, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn load(host: &mut ScriptHost, layer: &str, script: &str) -> Result<(), ScriptError> {
    let root = root();
    host.load_layer(
        layer,
        &root.join("tests/fixtures/scripts/objectives").join(layer),
        &root,
        &[script.to_string()],
        &root.join("scripts"),
    )
}

fn host(layers: &[(&str, &str)]) -> ScriptHost {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    for (layer, script) in layers {
        load(&mut host, layer, script).unwrap_or_else(|e| panic!("{layer} loads: {e}"));
    }
    host
}

/// Red and Pink are one side, Blue the other. Redland is Red's capital; Hill is printed Red's,
/// Dale and Vale Blue's; Sea 1 is a sea zone.
struct World {
    owners: HashMap<&'static str, &'static str>,
    units: HashMap<&'static str, Vec<(&'static str, &'static str)>>,
}

const SPACES: [&str; 5] = ["Redland", "Hill", "Dale", "Vale", "Sea 1"];

impl World {
    /// Red holds Redland and Hill, Blue Dale and Vale; no units.
    fn new() -> World {
        World {
            owners: HashMap::from([
                ("Redland", "Red"),
                ("Hill", "Red"),
                ("Dale", "Blue"),
                ("Vale", "Blue"),
            ]),
            units: HashMap::new(),
        }
    }
    fn held(mut self, space: &'static str, power: &'static str) -> World {
        self.owners.insert(space, power);
        self
    }
    fn unit(mut self, space: &'static str, power: &'static str, unit: &'static str) -> World {
        self.units.entry(space).or_default().push((power, unit));
        self
    }
    fn side(p: &str) -> Option<&'static str> {
        match p {
            "Red" | "Pink" => Some("Reds"),
            "Blue" => Some("Blues"),
            _ => None,
        }
    }
}

impl GameView for World {
    fn round(&self) -> u32 {
        2
    }
    fn power(&self) -> &str {
        "Red"
    }
    fn phase(&self) -> &str {
        "collect_income"
    }
    fn owner(&self, space: &str) -> Option<String> {
        self.owners.get(space).map(|s| s.to_string())
    }
    fn treasury(&self, _power: &str) -> Option<i64> {
        Some(0)
    }
    fn units(&self, space: &str) -> Vec<(String, String, u32)> {
        let mut out: Vec<(String, String, u32)> = Vec::new();
        for (p, u) in self.units.get(space).into_iter().flatten() {
            out.push((p.to_string(), u.to_string(), 1));
        }
        out
    }
    fn relation(&self, a: &str, b: &str) -> Option<&'static str> {
        let (sa, sb) = (World::side(a)?, World::side(b)?);
        (a != b).then_some(if sa == sb { "allied" } else { "war" })
    }
    fn spaces(&self) -> Vec<String> {
        SPACES.iter().map(|s| s.to_string()).collect()
    }
    fn space(&self, space: &str) -> Option<Value> {
        let printed = match space {
            "Redland" | "Hill" => "Red",
            "Dale" | "Vale" => "Blue",
            "Sea 1" => "",
            _ => return None,
        };
        Some(Value::map([
            ("name", Value::from(space)),
            ("sea", Value::from(space == "Sea 1")),
            ("original_owner", Value::from(printed)),
            (
                "owner",
                Value::from(self.owners.get(space).copied().unwrap_or("")),
            ),
            ("capital", Value::from(space == "Redland")),
        ]))
    }
    fn power_info(&self, power: &str) -> Option<Value> {
        let side = World::side(power)?;
        Some(Value::map([("name", power), ("side", side)]))
    }
    fn unit_type(&self, unit: &str) -> Option<Value> {
        let tags: Vec<Value> = match unit {
            "cruiser" => vec![Value::from("warship")],
            _ => Vec::new(),
        };
        Some(Value::map([
            ("id", Value::from(unit)),
            ("tags", Value::list(tags)),
        ]))
    }
}

/// What `power`'s collect_income asks for: (handler, amount, reason).
fn bonuses(host: &mut ScriptHost, world: &World, power: &str) -> Vec<(String, i64, String)> {
    let ev = Event::new(EventKind::CollectIncome)
        .with("power", power)
        .with("income", 10);
    let d = host.dispatch(&ev, world).unwrap();
    d.requests
        .iter()
        .map(|r| {
            let c = &r.command;
            assert_eq!(c.get("command").and_then(Value::as_str), Some("add_ipcs"));
            assert_eq!(c.get("power").and_then(Value::as_str), Some(power));
            (
                r.by.clone(),
                c.get("amount").and_then(Value::as_int).unwrap(),
                c.get("reason").and_then(Value::as_str).unwrap().to_string(),
            )
        })
        .collect()
}

fn amounts(b: &[(String, i64, String)]) -> Vec<i64> {
    b.iter().map(|(_, n, _)| *n).collect()
}

#[test]
fn one_request_per_objective_met_with_its_reason() {
    let mut h = host(&[("base", "rules.lua")]);
    // T-1: Red holds Hill. T-2: Blue holds its Dale and Vale, but Sea 1 holds no enemy.
    // T-3: no Pink units in Red's territories, but no valley held.
    let b = bonuses(&mut h, &World::new(), "Red");
    assert_eq!(amounts(&b), [5, 3]);
    assert_eq!(b[0].0, "national_objectives.bonus");
    assert_eq!(b[0].2, "T-1 Hills: Red controls Hill");
    assert_eq!(
        b[1].2,
        "T-2: the Reds control at least 2 territories originally Blue's; or no enemy units in Sea 1"
    );
}

#[test]
fn side_and_power_subjects_original_owners_and_units() {
    let mut h = host(&[("base", "rules.lua")]);
    // Pink (Red's side) holds Dale and Vale: T-2 by original owner (2 of Blue's), T-3 by side.
    // A Blue ship in Sea 1 no longer matters for T-2 (any_of).
    let w = World::new()
        .held("Dale", "Pink")
        .held("Vale", "Pink")
        .unit("Sea 1", "Blue", "submarine");
    let b = bonuses(&mut h, &w, "Red");
    assert_eq!(amounts(&b), [5, 3, 2]);
    assert_eq!(b[2].2, "T-3: no guests, and a valley");
    // Pink holding Hill is not Red controlling it (by = "power"); Pink's infantry in Redland is
    // a guest in Red's territory (T-3); Pink's units in its own Dale are not.
    let w = World::new()
        .held("Hill", "Pink")
        .held("Dale", "Pink")
        .unit("Redland", "Pink", "infantry")
        .unit("Dale", "Pink", "infantry");
    assert_eq!(amounts(&bonuses(&mut h, &w, "Red")), [3]);
    // Only one of Blue's held, and an enemy unit (no tag asked) in Sea 1: T-2 not met.
    let w = World::new()
        .held("Dale", "Red")
        .unit("Sea 1", "Blue", "transport");
    assert_eq!(amounts(&bonuses(&mut h, &w, "Red")), [5, 2]);
}

#[test]
fn tagged_enemy_units_only() {
    let mut h = host(&[("base", "rules.lua")]);
    let w = World::new()
        .unit("Sea 1", "Red", "submarine")
        .unit("Sea 1", "Blue", "cruiser");
    let b = bonuses(&mut h, &w, "Blue");
    assert_eq!(amounts(&b), [4]);
    assert_eq!(b[0].2, "T-4 Open sea: no enemy warships in Sea 1");
    let w = World::new().unit("Sea 1", "Pink", "cruiser");
    assert!(bonuses(&mut h, &w, "Blue").is_empty());
}

#[test]
fn nothing_while_an_enemy_holds_the_capital() {
    let mut h = host(&[("base", "rules.lua")]);
    assert!(bonuses(&mut h, &World::new().held("Redland", "Blue"), "Red").is_empty());
    // An ally holding it is not an enemy.
    assert_eq!(
        amounts(&bonuses(&mut h, &World::new().held("Redland", "Pink"), "Red")),
        [5, 3]
    );
}

#[test]
fn a_house_rule_replaces_or_adds_objectives() {
    let mut h = host(&[("base", "rules.lua"), ("house", "house.lua")]);
    let b = bonuses(&mut h, &World::new(), "Red");
    assert_eq!(amounts(&b), [7]);
    assert_eq!(b[0].2, "H-1: the Reds control Redland");
    // The replacement pays Blue nothing: T-4 is gone with the list it replaced.
    assert!(bonuses(&mut h, &World::new(), "Blue").is_empty());

    let mut h = host(&[("base", "rules.lua"), ("extra", "extra.lua")]);
    let b = bonuses(&mut h, &World::new(), "Blue");
    assert_eq!(
        b.iter().map(|(by, n, _)| (by.as_str(), *n)).collect::<Vec<_>>(),
        [("national_objectives.bonus", 4), ("extra.bonus", 1)]
    );
}

#[test]
fn a_misspelt_space_fails_the_game_setup_and_a_bad_definition_the_load() {
    let mut h = host(&[("typo", "typo.lua")]);
    let ev = Event::new(EventKind::GameSetup)
        .with("scenario", "x")
        .with("round", 1);
    let e = h.dispatch(&ev, &World::new()).unwrap_err().to_string();
    assert!(
        e.contains("Y-1 names \"Hil\", which is not a space of this board"),
        "{e}"
    );
    let ok = host(&[("base", "rules.lua")])
        .dispatch(&ev, &World::new())
        .map(|_| ());
    assert!(ok.is_ok(), "{ok:?}");

    let mut h = ScriptHost::new(ScriptLimits::default()).unwrap();
    let e = load(&mut h, "bad", "bad.lua").unwrap_err().to_string();
    assert!(
        e.contains("tests/fixtures/scripts/objectives/bad/bad.lua:4"),
        "{e}"
    );
    assert!(e.contains("at_least 3 of a list of 2"), "{e}");
}
