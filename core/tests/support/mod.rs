//! Shared helpers for the turn tests: start a real edition, walk to a power's phase, run
//! commands that must pass or must be refused by a named rule.
#![allow(dead_code)]

pub mod odds;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warroom_core::game::{Game, Rejection};
use warroom_core::layers::LoadRequest;
use warroom_core::rules;

pub fn editions() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../editions")
}

/// A game of a real edition (with options), at the start of its scenario.
pub fn game(edition: &str, with: &[&str], scenario: Option<&str>) -> Game {
    let mut req = LoadRequest::new(editions(), edition);
    req.with = with.iter().map(|s| s.to_string()).collect();
    let rules = rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems));
    Game::new(Arc::new(rules), edition, &req.with, scenario, 1).unwrap()
}

/// End phases until it is `power`'s phase with this id (e.g. "combat_move").
pub fn advance_to(g: &mut Game, power: &str, phase: &str) {
    for _ in 0..200 {
        let p = g.rules().power_info(g.current_power()).name.clone();
        if p == power && g.current_phase().id == phase {
            return;
        }
        ok(g, "end phase");
    }
    panic!("never reached {power} {phase}");
}

pub fn ok(g: &mut Game, cmd: &str) -> Vec<String> {
    g.execute(cmd)
        .unwrap_or_else(|r| panic!("`{cmd}` was refused: {r}"))
}

/// The command is refused by `rule`; the game is unchanged.
pub fn refused(g: &mut Game, cmd: &str, rule: &str) -> Rejection {
    let before = g.hash();
    let r = match g.execute(cmd) {
        Ok(out) => panic!("`{cmd}` was accepted, expected a refusal by {rule}: {out:?}"),
        Err(r) => r,
    };
    assert_eq!(r.rule.as_deref(), Some(rule), "`{cmd}`: {r}");
    assert_eq!(g.hash(), before, "a refused command changed the game");
    r
}

/// How many units of a type a power has in a space (cargo included).
pub fn count(g: &Game, space: &str, power: &str, unit: &str) -> usize {
    let r = g.rules();
    let s = r.board.find(space).unwrap_or_else(|| panic!("no space {space}"));
    let p = r.power(power).unwrap_or_else(|| panic!("no power {power}"));
    let u = r.unit_type(unit).unwrap_or_else(|| panic!("no unit {unit}"));
    g.state()
        .space(s)
        .units
        .iter()
        .filter(|x| x.owner == p && x.kind == u)
        .count()
}

pub fn controller(g: &Game, space: &str) -> Option<String> {
    let r = g.rules();
    let s = r.board.find(space).unwrap_or_else(|| panic!("no space {space}"));
    g.state()
        .space(s)
        .controller
        .map(|p| r.power_info(p).name.clone())
}

pub fn treasury(g: &Game, power: &str) -> i64 {
    let p = g.rules().power(power).unwrap();
    g.state().treasuries[p.index()]
}

/// Remove every unit from a space (`edit remove`, one command per owner and type).
pub fn clear(g: &mut Game, space: &str) {
    let r = g.rules().clone();
    let id = r.board.find(space).unwrap();
    let mut groups: Vec<(String, String, usize)> = Vec::new();
    for u in &g.state().space(id).units {
        let owner = r.power_info(u.owner).name.clone();
        let kind = r.unit(u.kind).id.clone();
        match groups.iter_mut().find(|(o, k, _)| *o == owner && *k == kind) {
            Some(gr) => gr.2 += 1,
            None => groups.push((owner, kind, 1)),
        }
    }
    for (owner, kind, n) in groups {
        ok(g, &format!("edit remove \"{space}\" \"{owner}\" {n} {kind}"));
    }
    assert!(g.state().space(id).units.is_empty());
}

/// A log line contains the fragment.
pub fn logged(out: &[String], fragment: &str) -> bool {
    out.iter().any(|l| l.contains(fragment))
}

/// The mini test edition (`tests/fixtures/editions/mini`).
pub fn mini() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/editions/mini")
}

static LAYERS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// The mini edition's rules with a house layer of these files on top, written to a fresh
/// folder: the data files (`*.toml`) and scripts (`*.lua`) are listed in its manifest in the
/// order given. The load's problems, by message, if it fails.
pub fn mini_with_layer(files: &[(&str, &str)]) -> Result<rules::RuleSet, Vec<String>> {
    layer_over(&mini(), "mini", files)
}

/// An edition's rules (`base`: its folder; `name`: as the editions folder beside it names it)
/// with a house layer of these files on top (see [`mini_with_layer`]).
pub fn layer_over(base: &Path, name: &str, files: &[(&str, &str)]) -> Result<rules::RuleSet, Vec<String>> {
    let dir = std::env::temp_dir().join(format!(
        "warroom-layer-{}-{}",
        std::process::id(),
        LAYERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let list = |ext: &str| {
        files
            .iter()
            .filter(|(n, _)| n.ends_with(ext))
            .map(|(n, _)| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    std::fs::write(
        dir.join("layer.toml"),
        format!(
            "[layer]\nname = \"test-house\"\nkind = \"house\"\nextends = [{:?}]\nfiles = [{}]\nscripts = [{}]\n",
            base.display().to_string(),
            list(".toml"),
            list(".lua")
        ),
    )
    .unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let mut req = LoadRequest::new(base.parent().unwrap().to_path_buf(), name);
    req.with = vec![dir.display().to_string()];
    rules::load(&req).map_err(|e| e.problems.iter().map(|p| p.message.clone()).collect())
}

/// A game of the Anniversary Edition's 1941 scenario with a house layer of these files on top.
pub fn anniversary_game_with_layer(files: &[(&str, &str)]) -> Game {
    let rules = layer_over(&editions().join("anniversary"), "anniversary", files)
        .unwrap_or_else(|p| panic!("{p:#?}"));
    Game::new(Arc::new(rules), "anniversary", &[], Some("1941"), 1).unwrap()
}

/// A game of the mini edition with that layer (see [`mini_with_layer`]).
pub fn mini_game_with_layer(files: &[(&str, &str)]) -> Game {
    let rules = mini_with_layer(files).unwrap_or_else(|p| panic!("{p:#?}"));
    Game::new(Arc::new(rules), "mini", &[], None, 1).unwrap()
}
