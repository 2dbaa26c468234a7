//! The calculator agrees with play: for every house or option layer that changes combat (low
//! luck, the example variants, the fixture layers whose scripts change battles), the odds the
//! REPL's `odds SPACE` gives (`Game::odds_question`, `odds::calculate`) are compared with many
//! battles fought by `Game` itself under the same layer (`fight`, seeded dice, the suggested
//! casualties, pressing on), within four standard errors. Each test also shows it has the
//! power to notice a calculator that ignored the layer: the calculator's answer without the
//! layer must fall outside the same bounds.
//!
//! A game holds many copies of one battle, one per pair of neighbouring territories, all
//! fought in one conduct-combat phase, so a few dozen games give a thousand battles.

use std::path::Path;
use std::sync::Arc;
use warroom_core::combat::{Need, Profiles, Side};
use warroom_core::game::arrange::{Arrangement, Position};
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::odds::{self, Estimate, Odds, Options, Question, Spec};
use warroom_core::rules::{self, Piece, PowerId, RuleSet, SpaceId, UnitTypeId};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// An edition (a name, or a layer folder under the project) with option layers.
fn load(edition: &str, with: &[&str]) -> Arc<RuleSet> {
    let edition = if edition.contains('/') {
        root().join(edition).to_string_lossy().into_owned()
    } else {
        edition.to_string()
    };
    let mut req = LoadRequest::new(root().join("editions"), edition.as_str());
    for w in with {
        req = req.with(*w);
    }
    rules::load(&req)
        .map(Arc::new)
        .unwrap_or_else(|e| panic!("{edition}: {:#?}", e.problems))
}

/// One battle, copied on many pairs of neighbouring territories.
struct Table {
    rules: Arc<RuleSet>,
    attacker: PowerId,
    defender: PowerId,
    attack: Vec<(UnitTypeId, u32)>,
    defend: Vec<(UnitTypeId, u32)>,
    /// Notes on the lists (`1 cv [damaged]`), as `warroom odds` takes them.
    notes: Vec<(Side, odds::Noted)>,
    /// (from, to): the attackers stand in `from` and attack `to`.
    pairs: Vec<(SpaceId, SpaceId)>,
}

impl Table {
    fn new(rules: &Arc<RuleSet>, attack: &str, defend: &str, copies: usize) -> Table {
        Table::on(rules, attack, defend, copies, false)
    }

    /// The battle on pairs of neighbouring sea zones (`sea`) or territories.
    fn on(rules: &Arc<RuleSet>, attack: &str, defend: &str, copies: usize, sea: bool) -> Table {
        let power = |n: &str| rules.power(n).unwrap_or_else(|| panic!("no power {n}"));
        let mut notes = Vec::new();
        let mut units = |text: &str, side: Side| {
            let (list, noted) = odds::parse_noted_units(rules, text).expect("units");
            notes.extend(noted.into_iter().map(|n| (side, n)));
            list
        };
        let (attack, defend) = (units(attack, Side::Attacker), units(defend, Side::Defender));
        let board = &rules.board;
        let land = |id: SpaceId| {
            let s = board.space(id);
            s.is_sea() == sea && s.neutral.is_none()
        };
        let mut used = vec![false; board.spaces.len()];
        let mut pairs = Vec::new();
        for from in board.ids() {
            if pairs.len() == copies {
                break;
            }
            if used[from.index()] || !land(from) {
                continue;
            }
            let to = board.space(from).adjacent.iter().copied().find(|t| {
                land(*t)
                    && !used[t.index()]
                    && !board
                        .canals
                        .iter()
                        .any(|c| c.connects.contains(&from) && c.connects.contains(t))
            });
            if let Some(to) = to {
                used[from.index()] = true;
                used[to.index()] = true;
                pairs.push((from, to));
            }
        }
        assert_eq!(pairs.len(), copies, "not enough neighbouring territories");
        Table {
            rules: rules.clone(),
            attacker: power("Germany"),
            defender: power("Soviet Union"),
            attack,
            defend,
            notes,
            pairs,
        }
    }

    /// A game in the attacker's conduct combat, every copy of the battle announced.
    fn game(&self, seed: u64) -> Game {
        let r = &self.rules;
        let mut g = Game::new(r.clone(), "test", &[], None, seed).expect("a game");
        let mut a = Arrangement {
            empty_board: true,
            position: Some(Position {
                round: 1,
                power: self.attacker,
                phase: "combat_move".into(),
            }),
            ..Arrangement::default()
        };
        // At war whatever the edition's scenario says (the 1940 games begin with these two at
        // peace).
        a.relations.push((
            self.attacker,
            self.defender,
            warroom_core::game::state::Relation::War,
        ));
        for &(from, to) in &self.pairs {
            if !r.board.space(from).is_sea() {
                a.control.push((from, Some(self.attacker)));
                a.control.push((to, Some(self.defender)));
            }
            for &(k, n) in &self.attack {
                a.units.push((from, self.attacker, Piece::Unit(k), n));
            }
            for &(k, n) in &self.defend {
                a.units.push((to, self.defender, Piece::Unit(k), n));
            }
            for (side, n) in self.notes.iter().filter(|(_, n)| n.damaged) {
                let at = if *side == Side::Attacker { from } else { to };
                a.damage.push((at, Piece::Unit(n.kind), n.count));
            }
        }
        g.arrange(&a).expect("arranged");
        for &(from, to) in &self.pairs {
            let list: Vec<String> = self
                .attack
                .iter()
                .map(|(k, n)| format!("{n} {}", r.unit(*k).id))
                .collect();
            let cmd = format!(
                "move {} from \"{}\" to \"{}\"",
                list.join(", "),
                r.board.space(from).name,
                r.board.space(to).name
            );
            g.execute(&cmd).unwrap_or_else(|e| panic!("`{cmd}`: {e}"));
        }
        g.execute("end phase").expect("to conduct combat");
        g
    }

    /// The odds as the REPL's `odds SPACE` gives them, for the first copy. When the chain
    /// answers, `warroom odds` on the same unit lists must give the same answer.
    fn odds(&self, runs: Option<u64>) -> Odds {
        let g = self.game(1);
        let q = g.odds_question(self.pairs[0].1).expect("a battle to ask about");
        let o = calculate(&q, runs);
        if matches!(o.method, odds::Method::Exact { .. }) {
            let mut spec = Spec::new();
            spec.attackers = self.attack.clone();
            spec.defenders = self.defend.clone();
            spec.notes = self.notes.clone();
            let cli = calculate(&spec.question(&self.rules).expect("a battle"), runs);
            assert_eq!(cli.scripts, o.scripts);
            for (x, y) in [
                (cli.attacker_wins, o.attacker_wins),
                (cli.attacker_loss, o.attacker_loss),
                (cli.rounds, o.rounds),
            ] {
                assert!(
                    (x.value - y.value).abs() < 1e-9,
                    "warroom odds {x:?}, odds SPACE {y:?}"
                );
            }
        }
        o
    }

    /// `games` games' worth of battles fought by the game, with the suggested casualties.
    fn fought(&self, games: u64) -> Sample {
        let r = &self.rules;
        let mut s = Sample::default();
        for seed in 0..games {
            let mut g = self.game(1000 + seed);
            for &(_, to) in &self.pairs {
                let name = &r.board.space(to).name;
                let cmd = format!("fight \"{name}\"");
                g.execute(&cmd).unwrap_or_else(|e| panic!("`{cmd}`: {e}"));
                while let Some(b) = &g.state().combat {
                    let answer = match &b.waiting {
                        Some(Need::Casualties(_)) => "casualties",
                        Some(Need::PressOrRetreat) => "press",
                        Some(Need::Submerge { .. }) => "submerge none",
                        other => panic!("the battle in {name} waits for {other:?}"),
                    };
                    g.execute(answer).unwrap_or_else(|e| panic!("`{answer}`: {e}"));
                }
                s.add(self, &g, to);
            }
        }
        s
    }
}

/// Battles the calculator fights when it cannot use the chain: few, in a debug build.
const FOUGHT: u64 = 1000;

fn calculate(q: &Question, runs: Option<u64>) -> Odds {
    odds::calculate(
        q,
        &Options {
            runs,
            fallback_runs: Some(FOUGHT),
            seed: 7,
            threads: Some(1),
            ..Options::default()
        },
    )
    .expect("the calculator answers")
}

/// Battles fought in play: per battle, whether the attacker won, its IPCs lost, and units left.
#[derive(Default)]
struct Sample {
    wins: Vec<f64>,
    attacker_loss: Vec<f64>,
    /// Units of each type left: (side, type) → one value per battle.
    left: Vec<((bool, UnitTypeId), Vec<f64>)>,
}

impl Sample {
    fn add(&mut self, t: &Table, g: &Game, to: SpaceId) {
        let r = &t.rules;
        let units = &g.state().space(to).units;
        let count = |p: PowerId, k: UnitTypeId| units.iter().filter(|u| u.owner == p && u.kind == k).count();
        // Antiaircraft guns are never casualties: they are captured, or stay with a defender
        // the attacker's aircraft beat.
        let profiles = Profiles::new(r);
        let takes_hits = |k: UnitTypeId| profiles.of(k).takes_hits;
        let defenders: usize = t
            .defend
            .iter()
            .filter(|(k, _)| takes_hits(*k))
            .map(|(k, _)| count(t.defender, *k))
            .sum();
        let attackers: usize = t
            .attack
            .iter()
            .filter(|(k, _)| takes_hits(*k))
            .map(|(k, _)| count(t.attacker, *k))
            .sum();
        self.wins
            .push(if defenders == 0 && attackers > 0 { 1.0 } else { 0.0 });
        let mut loss = 0.0;
        for &(k, n) in &t.attack {
            let left = count(t.attacker, k);
            loss += (n as f64 - left as f64) * f64::from(r.unit(k).cost);
            self.push((true, k), left as f64);
        }
        for &(k, _) in t.defend.iter().filter(|(k, _)| takes_hits(*k)) {
            self.push((false, k), count(t.defender, k) as f64);
        }
        self.attacker_loss.push(loss);
    }

    fn push(&mut self, key: (bool, UnitTypeId), x: f64) {
        match self.left.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(x),
            None => self.left.push((key, vec![x])),
        }
    }
}

/// Mean and standard error of the mean.
fn mean(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// Where the calculator and play disagree by more than four standard errors (of both: the
/// calculator's own when it is Monte Carlo), one line each.
fn disagreements(rules: &RuleSet, o: &Odds, s: &Sample) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |what: String, calc: Estimate, played: (f64, f64)| {
        let se = (played.1 * played.1 + (calc.margin / 1.96).powi(2)).sqrt();
        // A floor for statistics that hardly vary in either (a sure outcome).
        let allowed = (4.0 * se).max(0.01);
        if (calc.value - played.0).abs() > allowed {
            out.push(format!(
                "{what}: calculator {:.4}, play {:.4} (allowed {allowed:.4})",
                calc.value, played.0
            ));
        }
    };
    check("attacker wins".into(), o.attacker_wins, mean(&s.wins));
    check(
        "attacker IPCs lost".into(),
        o.attacker_loss,
        mean(&s.attacker_loss),
    );
    for ((attacking, k), v) in &s.left {
        // Aircraft held on a damaged carrier are listed apart, their fate not followed.
        if !*attacking && o.cargo.iter().any(|(c, _)| c == k) {
            continue;
        }
        let list = if *attacking {
            &o.attackers_left
        } else {
            &o.defenders_left
        };
        let calc = list.iter().find(|(x, _)| x == k).map_or(0.0, |(_, x)| *x);
        // The calculator's margin on a unit count is not kept; the attacker's IPC loss
        // carries its Monte Carlo error above.
        check(
            format!(
                "{} {} left",
                if *attacking { "attacking" } else { "defending" },
                rules.unit(*k).id
            ),
            Estimate {
                value: calc,
                margin: 0.0,
            },
            mean(v),
        );
    }
    out
}

/// The calculator agrees with play under the layer, and without the layer it would not.
fn agrees_and_would_notice(rules: &RuleSet, with: &Odds, without: &Odds, played: &Sample) {
    let bad = disagreements(rules, with, played);
    assert!(
        bad.is_empty(),
        "the calculator disagrees with {} battles fought in play:\n{}",
        played.wins.len(),
        bad.join("\n")
    );
    assert!(
        !disagreements(rules, without, played).is_empty(),
        "a calculator ignoring the layer would agree with play too: the test has no power"
    );
}

#[test]
fn low_luck_odds_agree_with_low_luck_battles_in_play() {
    // The option layer for every edition, on the Anniversary Edition.
    let rules = load("anniversary", &["low-luck"]);
    let t = Table::new(&rules, "5 inf, 1 tank", "4 inf", 16);
    let with = t.odds(None);
    assert!(matches!(with.method, odds::Method::Exact { .. }));
    let base = Table::new(&load("anniversary", &[]), "5 inf, 1 tank", "4 inf", 16);
    agrees_and_would_notice(&rules, &with, &base.odds(None), &t.fought(36));
}

#[test]
fn the_club_low_luck_variant_agrees_with_play() {
    let rules = load("anniversary", &["house/low-luck"]);
    let t = Table::new(&rules, "3 inf, 1 art, 2 ftr", "3 inf, 1 tank", 16);
    let base = Table::new(
        &load("anniversary", &[]),
        "3 inf, 1 art, 2 ftr",
        "3 inf, 1 tank",
        16,
    );
    agrees_and_would_notice(&rules, &t.odds(None), &base.odds(None), &t.fought(36));
}

#[test]
fn cheap_bombers_cost_what_the_variant_says_in_the_odds_as_in_play() {
    let rules = load("anniversary", &["house/cheap-bombers"]);
    let t = Table::new(&rules, "4 bmb", "6 inf", 16);
    let base = Table::new(&load("anniversary", &[]), "4 bmb", "6 inf", 16);
    agrees_and_would_notice(&rules, &t.odds(None), &base.odds(None), &t.fought(20));
}

/// How the calculator answers a battle whose scripts change it.
enum Answer {
    /// The chain, asking the handlers once per round and step.
    Exact,
    /// Battles fought with the scripts, for this reason.
    Fought(&'static str),
}

/// A layer whose scripts change battles: the calculator honours them and says how; without
/// them (the chain on the same battle) it would disagree with play.
fn scripted(edition: &str, attack: &str, defend: &str, games: u64, answer: Answer) {
    let rules = load(edition, &[]);
    let t = Table::new(&rules, attack, defend, 16);
    let q = t.game(1).odds_question(t.pairs[0].1).expect("a battle");
    assert!(q.scripts.is_some(), "{edition}: no scripts in the question");
    let with = t.odds(None);
    assert!(
        with.scripts.iter().all(|h| h.starts_with("handler `")) && !with.scripts.is_empty(),
        "{:?}",
        with.scripts
    );
    match (&with.method, answer) {
        (odds::Method::Exact { .. }, Answer::Exact) => {}
        (odds::Method::MonteCarlo { why: Some(why), .. }, Answer::Fought(reason)) => {
            assert!(why.contains(reason), "{why}")
        }
        (other, _) => panic!("{edition}: {other:?}"),
    }
    let mut ignored = q.clone();
    ignored.scripts = None;
    let without = calculate(&ignored, None);
    agrees_and_would_notice(&rules, &with, &without, &t.fought(games));
}

#[test]
fn a_value_a_script_changes_in_the_first_round_shows_in_the_odds_as_in_play() {
    scripted(
        "tests/fixtures/house/dug-in",
        "4 inf, 2 tank",
        "5 inf",
        24,
        Answer::Exact,
    );
}

#[test]
fn a_skipped_antiaircraft_step_and_a_first_round_value_show_in_the_odds_as_in_play() {
    // quiet-skies: no antiaircraft fire in round 1 of the war, attacking infantry at 2 in the
    // first round of a battle then; its casualty tally keeps the chain out.
    scripted(
        "tests/fixtures/house/quiet-skies",
        "4 inf, 2 ftr",
        "4 inf, 1 aa",
        24,
        Answer::Fought("handler `skies.tally` in "),
    );
}

#[test]
fn a_script_changing_the_antiaircraft_value_shows_in_the_odds_as_in_play() {
    scripted(
        "tests/fixtures/house/radar",
        "2 inf, 4 ftr",
        "3 inf, 1 aa",
        24,
        Answer::Fought("handler `radar.tally` in "),
    );
}

#[test]
fn script_steps_that_fire_and_deal_hits_show_in_the_odds_as_in_play() {
    // spearhead: attacking tanks fire at 2 before the first round; from the second round on,
    // each side takes a hit a round.
    scripted(
        "tests/fixtures/house/spearhead",
        "3 inf, 3 tank",
        "6 inf",
        24,
        Answer::Exact,
    );
}

/// Europe 1940's own units in the calculator as in play: the AAA's shots at the attacking
/// aircraft before the first round (three each, one per aircraft, at 1), a tank raising a
/// tactical bomber to 4, artillery supporting mechanized infantry. Without those rules (the
/// same battle read as if AAA shot at nothing and nothing were supported) it would disagree.
#[test]
fn europe_1940_battles_with_aaa_and_combined_arms_agree_with_play() {
    let rules = load("europe1940", &[]);
    let t = Table::new(&rules, "2 mech, 1 art, 1 tank, 1 tac, 2 ftr", "4 inf, 2 aaa", 16);
    let with = t.odds(None);
    assert!(
        matches!(with.method, odds::Method::Exact { .. }),
        "{:?}",
        with.method
    );
    // The same question with the 1940 rules left out: the AAA shooting at nothing, no unit
    // supporting another.
    let mut plain = t.game(1).odds_question(t.pairs[0].1).expect("a battle");
    for p in &mut plain.profiles.units {
        p.anti_air = None;
        p.support.clear();
    }
    let without = calculate(&plain, None);
    agrees_and_would_notice(&rules, &with, &without, &t.fought(24));
}

/// Europe 1940 at sea: submarines' surprise strike (cancelled by a destroyer), submerging, a
/// carrier's two hits, transports taken last: the calculator agrees with battles
/// fought in play.
#[test]
fn europe_1940_sea_battles_agree_with_play() {
    let rules = load("europe1940", &[]);
    let t = Table::on(
        &rules,
        "2 sub, 1 cruiser, 1 dd",
        "1 dd, 1 cv, 1 trn, 1 sub",
        16,
        true,
    );
    let with = t.odds(None);
    let played = t.fought(24);
    let bad = disagreements(&rules, &with, &played);
    assert!(
        bad.is_empty(),
        "the calculator disagrees with play:\n{}",
        bad.join("\n")
    );
}

/// A damaged carrier in the calculator as in play (`1 cv [damaged]` in `warroom odds`, the
/// board's damage in `odds SPACE`): it falls to one more hit, and the fighters it holds are
/// cargo that does not fight. Read as undamaged, the same battle would disagree.
#[test]
fn europe_1940_damaged_carriers_agree_with_play() {
    let rules = load("europe1940", &[]);
    let t = Table::on(&rules, "2 sub, 1 dd", "1 cv [damaged], 2 ftr, 1 dd", 16, true);
    let with = t.odds(None);
    assert_eq!(
        with.cargo,
        vec![(rules.unit_type("fighter").expect("fighter"), 2)]
    );
    let mut undamaged = Spec::new();
    undamaged.attackers = t.attack.clone();
    undamaged.defenders = t.defend.clone();
    let without = calculate(&undamaged.question(&rules).expect("a battle"), None);
    agrees_and_would_notice(&rules, &with, &without, &t.fought(24));
}
