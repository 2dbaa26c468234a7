//! The calculator's battles shared by its tests: the list of battles of every kind, and the
//! `"ATTACKERS vs DEFENDERS; OPTION; ..."` text they are written in.

use std::path::Path;
use std::sync::Arc;
use warroom_core::layers::LoadRequest;
use warroom_core::odds::{self, Question, Spec};
use warroom_core::rules::{self, RuleSet};

/// Battles of every kind: edition, layers, battle (`ATTACKERS vs DEFENDERS; OPTION; ...`).
pub const BATTLES: &[(&str, &[&str], &str)] = &[
    ("anniversary", &[], "3 inf, 1 art vs 2 inf"),
    ("anniversary", &[], "4 inf, 2 art, 2 tank vs 5 inf, 1 tank"),
    ("anniversary", &[], "2 inf, 1 tank, 2 ftr vs 3 inf, 1 aa"),
    ("anniversary", &[], "2 tank, 1 ftr, 2 bmb vs 4 inf, 1 ftr, 1 aa"),
    ("anniversary", &[], "3 inf, 3 tank vs 6 inf; retreat-after 2"),
    ("anniversary", &[], "6 inf, 1 ftr vs 5 inf, 1 tank; retreat-below 3"),
    ("anniversary", &[], "2 inf, 3 ftr vs 4 inf; retreat-air"),
    ("anniversary", &[], "1 tank vs 1 inf; amphibious 2 inf; bombard 2 bb"),
    ("anniversary", &[], "1 tank vs 3 inf, 1 art; amphibious 2 inf, 1 art; bombard 1 bb, 1 cru"),
    ("anniversary", &[], "2 sub, 1 dd vs 2 sub, 1 trn"),
    ("anniversary", &[], "2 sub vs 1 dd, 1 trn"),
    ("anniversary", &[], "1 bb, 2 cru, 2 dd, 2 sub, 2 ftr, 1 bmb vs 1 bb, 1 cv, 2 ftr, 2 dd, 2 sub, 1 cru"),
    ("anniversary", &[], "2 ftr, 1 bmb vs 2 sub, 1 trn"),
    ("anniversary", &[], "1 bb, 1 dd vs 2 sub, 1 cv, 1 ftr"),
    ("anniversary", &[], "3 sub vs 2 trn, 1 cru"),
    ("anniversary", &["research"], "2 ftr, 2 bmb vs 3 inf, 1 ftr, 1 aa; attacker-techs jet_fighters, heavy_bombers; defender-techs radar"),
    ("anniversary", &["research"], "3 sub, 1 dd vs 2 dd, 1 cru; attacker-techs super_submarines"),
    ("anniversary", &["research"], "3 inf, 2 art vs 4 inf; attacker-techs advanced_artillery"),
    ("anniversary", &["research"], "2 ftr vs 2 ftr, 2 inf; defender-techs jet_fighters"),
    ("1941", &[], "6 inf, 3 tank, 2 ftr, 1 bmb vs 8 inf, 1 tank"),
    ("1941", &[], "3 inf, 1 tank, 2 ftr vs 4 inf, 1 ftr; retreat-air"),
    ("1941", &[], "1 bb, 2 dd, 1 sub vs 2 sub, 1 dd, 1 cv, 2 ftr"),
    ("1941", &["low-luck"], "4 inf, 2 tank, 1 ftr vs 5 inf, 1 tank"),
    ("anniversary", &[], "5 inf, 1 art, 2 tank, 1 ftr vs 2 inf, 1 tank, 2 ftr; retreat-below 4"),
    // A lone AAA is destroyed as the round that left it alone ends: no round more is fought.
    ("europe1940", &[], "6 inf, 2 art, 2 tank, 1 tac vs 6 inf, 1 art, 1 aaa; retreat-below 3"),
    ("europe1940", &[], "3 inf, 1 tank vs 2 inf, 2 aaa"),
];

pub fn load(edition: &str, with: &[&str]) -> Arc<RuleSet> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut req = LoadRequest::new(root.join("editions"), edition);
    for w in with {
        req = req.with(*w);
    }
    rules::load(&req)
        .map(Arc::new)
        .unwrap_or_else(|e| panic!("{edition}: {:#?}", e.problems))
}

/// `"10 inf, 2 art vs 3 inf; amphibious 2 inf; bombard 1 bb; retreat-after 2"`; units may carry
/// notes (`1 cv [damaged]`).
pub fn question(rules: &Arc<RuleSet>, text: &str) -> Question {
    let mut parts = text.split(';');
    let (att, def) = parts
        .next()
        .unwrap()
        .split_once(" vs ")
        .expect("ATTACKERS vs DEFENDERS");
    let mut spec = Spec::of_forces(rules, att, def).unwrap_or_else(|e| panic!("{text}: {e}"));
    for extra in parts {
        let extra = extra.trim();
        let (what, rest) = extra.split_once(' ').unwrap_or((extra, ""));
        match what {
            "amphibious" => spec.amphibious = odds::parse_units(rules, rest).unwrap(),
            "bombard" => spec.bombarding = odds::parse_units(rules, rest).unwrap(),
            "retreat-after" => spec.retreat.after_round = Some(rest.parse().unwrap()),
            "retreat-below" => spec.retreat.fewer_than = Some(rest.parse().unwrap()),
            "retreat-air" => spec.retreat.only_air = true,
            "attacker-techs" => {
                spec.attacker_techs = rest.split(',').map(|t| rules.tech(t.trim()).unwrap()).collect()
            }
            "defender-techs" => {
                spec.defender_techs = rest.split(',').map(|t| rules.tech(t.trim()).unwrap()).collect()
            }
            other => panic!("unknown option {other}"),
        }
    }
    spec.question(rules).unwrap()
}
