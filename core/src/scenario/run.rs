//! Running scenarios: arrange, play the steps, compare what is with what was expected.

use super::{outcome_name, Case, Expectation, Header};
use crate::diag::Problems;
use crate::game::Game;
use crate::layers::LoadRequest;
use crate::rules::{Piece, PowerId, RuleSet, SpaceId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One expectation that did not hold, or a step that went otherwise than written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub what: String,
    /// `file:line:col` of the expectation or step in the scenario file.
    pub at: String,
    pub expected: String,
    pub actual: String,
}

/// What a run found for one thing the scenario looks at: each step's result and each
/// expectation's actual value. Two runs of one scenario (with and without a layer) differ
/// exactly where their observations differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub what: String,
    pub value: String,
}

#[derive(Debug, Default)]
pub struct Report {
    pub display: String,
    pub rule_ids: Vec<String>,
    /// The file could not be read or names something the rules do not have.
    pub problems: Option<Problems>,
    /// The game could not be started or arranged.
    pub error: Option<String>,
    pub failures: Vec<Mismatch>,
    pub observations: Vec<Observation>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.problems.is_none() && self.error.is_none() && self.failures.is_empty()
    }
}

type Built = Result<Arc<RuleSet>, String>;

/// Rule sets by edition and layers, built once for all the scenarios that share them.
pub struct RulesCache {
    editions_dir: PathBuf,
    built: Mutex<HashMap<(String, Vec<String>), Built>>,
}

impl RulesCache {
    pub fn new(editions_dir: impl Into<PathBuf>) -> Self {
        RulesCache {
            editions_dir: editions_dir.into(),
            built: Mutex::new(HashMap::new()),
        }
    }

    pub fn get(&self, h: &Header) -> Result<Arc<RuleSet>, String> {
        let key = (h.edition.clone(), h.with.clone());
        if let Some(r) = self.built.lock().expect("cache lock").get(&key) {
            return r.clone();
        }
        // Built outside the lock: two threads may build the same set once each, which is
        // cheaper than making every other scenario wait.
        let mut req = LoadRequest::new(&self.editions_dir, h.edition.clone());
        req.with = h.with.clone();
        let built = crate::rules::load(&req).map(Arc::new).map_err(|e| {
            let first = e.problems.iter().next().map(|p| {
                let at = p.location().map(|l| format!(" ({l})")).unwrap_or_default();
                format!(": {}{at}", p.message)
            });
            let with = if h.with.is_empty() {
                String::new()
            } else {
                format!(" --with {}", h.with.join(" --with "))
            };
            format!(
                "`{}`{with} does not load: {} problem(s){}; run `warroom check {}`",
                h.edition,
                e.problems.len(),
                first.unwrap_or_default(),
                h.edition
            )
        });
        self.built.lock().expect("cache lock").insert(key, built.clone());
        built
    }
}

/// Load and run one scenario file.
pub fn run_file(path: &Path, extra_with: &[String], cache: &RulesCache) -> Report {
    match super::load(path, extra_with, &|h| cache.get(h)) {
        Ok(case) => run(&case),
        Err((_, problems)) => Report {
            display: path.display().to_string(),
            problems: Some(problems),
            ..Report::default()
        },
    }
}

/// Run scenario files on `threads` threads; reports come back in the order of `paths`.
pub fn run_all(paths: &[PathBuf], extra_with: &[String], cache: &RulesCache, threads: usize) -> Vec<Report> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Report>>> = Mutex::new((0..paths.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(paths.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(path) = paths.get(i) else { break };
                let report = run_file(path, extra_with, cache);
                results.lock().expect("results lock")[i] = Some(report);
            });
        }
    });
    results
        .into_inner()
        .expect("results lock")
        .into_iter()
        .map(|r| r.expect("every scenario ran"))
        .collect()
}

fn units_text(rules: &RuleSet, units: &[(Piece, u32)]) -> String {
    // The rule set's order, so expected and actual read alike whatever order a file used.
    let mut units = units.to_vec();
    units.sort_by_key(|(p, _)| match p {
        Piece::Unit(u) => (0, u.index()),
        Piece::Facility(f) => (1, f.index()),
    });
    let shown: Vec<String> = units
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(p, n)| format!("{n} {}", piece_name(rules, *p)))
        .collect();
    if shown.is_empty() {
        "none".into()
    } else {
        shown.join(", ")
    }
}

fn piece_name(rules: &RuleSet, p: Piece) -> String {
    match p {
        Piece::Unit(u) => rules.unit(u).id.clone(),
        Piece::Facility(f) => rules.facilities[f.index()].id.clone(),
    }
}

/// The pieces of one power in a space, in the rule set's unit order (facilities count for the
/// territory's controller).
fn pieces_of(game: &Game, space: SpaceId, power: PowerId) -> Vec<(Piece, u32)> {
    let rules = game.rules();
    let s = game.state().space(space);
    let mut out: Vec<(Piece, u32)> = Vec::new();
    for (i, _) in rules.units.iter().enumerate() {
        let kind = crate::rules::UnitTypeId(i as u16);
        let n = s
            .units
            .iter()
            .filter(|u| u.owner == power && u.kind == kind)
            .count() as u32;
        if n > 0 {
            out.push((Piece::Unit(kind), n));
        }
    }
    if s.controller == Some(power) {
        for f in &s.facilities {
            out.push((Piece::Facility(f.kind), 1));
        }
    }
    out
}

fn power_name(rules: &RuleSet, p: Option<PowerId>) -> String {
    p.map_or("nobody".into(), |p| rules.power_info(p).name.clone())
}

/// Play a scenario and compare.
pub fn run(case: &Case) -> Report {
    let mut report = Report {
        display: case.display.clone(),
        rule_ids: case.rule_ids.clone(),
        ..Report::default()
    };
    let h = &case.header;
    let mut game = match Game::new(
        case.rules.clone(),
        &h.edition,
        &h.with,
        h.scenario.as_deref(),
        h.seed,
    ) {
        Ok(g) => g,
        Err(e) => {
            report.error = Some(format!("the game does not start: {e}"));
            return report;
        }
    };
    if let Err(e) = game.arrange(&case.arrangement) {
        report.error = Some(format!("the start cannot be arranged: {e}"));
        return report;
    }
    let rolled_before = game.state().dice.rolled;
    let mut typed = game.state().dice_queue.len() as u64;
    let mut output: Vec<String> = Vec::new();
    for (i, step) in case.steps.iter().enumerate() {
        let what = format!("step {} `{}`", i + 1, step.text);
        // `report NAME [POWER]`: what a rule script says; not a command of the game.
        let result = match game.report_text(&step.text) {
            Some(r) => r.map_err(crate::game::Rejection::new),
            None => game.execute(&step.text),
        };
        let value = match &result {
            Ok(_) => "accepted".to_string(),
            Err(r) => format!("refused: {r}"),
        };
        report.observations.push(Observation {
            what: what.clone(),
            value: value.clone(),
        });
        let went_wrong = match (&result, &step.rejected) {
            (Ok(_), None) => None,
            (Err(r), Some(text)) if r.to_string().to_lowercase().contains(&text.to_lowercase()) => None,
            (Ok(_), Some(text)) => Some(format!("refused with a message containing {text:?}")),
            (Err(_), Some(text)) => Some(format!("refused with a message containing {text:?}")),
            (Err(_), None) => Some("accepted".to_string()),
        };
        if let Some(expected) = went_wrong {
            report.failures.push(Mismatch {
                what,
                at: step.at.clone(),
                expected,
                actual: value,
            });
            // Later steps and expectations assume this one went as written.
            return report;
        }
        if let (Ok(lines), Some(h)) = (&result, step.hash) {
            // A recorded step: the same output and the same state, exactly.
            let hash = game.hash_in_scheme(case.header.hash_scheme);
            let mut differs = Vec::new();
            if *lines != step.output {
                differs.push((
                    format!("{what} output"),
                    step.output.join(" | "),
                    lines.join(" | "),
                ));
            }
            if hash != h {
                differs.push((
                    format!("{what} state hash"),
                    format!("{h:016x}"),
                    format!("{hash:016x}"),
                ));
            }
            if !differs.is_empty() {
                for (what, expected, actual) in differs {
                    report.failures.push(Mismatch {
                        what,
                        at: step.at.clone(),
                        expected,
                        actual,
                    });
                }
                return report;
            }
        }
        if let Ok(lines) = result {
            if let Ok(crate::game::command::Command::Roll(faces)) =
                crate::game::command::Command::parse(&case.rules, &step.text)
            {
                typed += faces.len() as u64;
            }
            for text in &step.output {
                let t = text.to_lowercase();
                if !lines.iter().any(|l| l.to_lowercase().contains(&t)) {
                    report.failures.push(Mismatch {
                        what: format!("{what} output"),
                        at: step.at.clone(),
                        expected: format!("a line containing {text:?}"),
                        actual: if lines.is_empty() {
                            "no output".into()
                        } else {
                            lines.join(" | ")
                        },
                    });
                }
            }
            output.extend(lines);
        }
    }
    // Faces typed are drawn from the queue; the generator's rolls add to `rolled`.
    let s = game.state();
    let drawn = typed.saturating_sub(s.dice_queue.len() as u64) + (s.dice.rolled - rolled_before);
    let rules = game.rules().clone();
    for e in &case.expect {
        let (what, expected, actual) = match &e.what {
            Expectation::Owner(space, p) => (
                format!("owner of {}", rules.board.space(*space).name),
                power_name(&rules, *p),
                power_name(&rules, game.state().space(*space).controller),
            ),
            Expectation::Units {
                space,
                power,
                units,
                exact,
            } => {
                let have = pieces_of(&game, *space, *power);
                let ok = units.iter().all(|(p, n)| {
                    let got = have.iter().find(|(q, _)| q == p).map_or(0, |(_, m)| *m);
                    if *exact {
                        got == *n
                    } else {
                        got >= *n
                    }
                }) && (!*exact
                    || have
                        .iter()
                        .all(|(q, m)| units.iter().any(|(p, n)| p == q && n == m)));
                let label = format!(
                    "units of {} in {}{}",
                    rules.power_info(*power).name,
                    rules.board.space(*space).name,
                    if *exact { "" } else { " (at least)" }
                );
                let expected = units_text(&rules, units);
                let actual = units_text(&rules, &have);
                // A pass shows the expected text so observations compare what was asked.
                if ok {
                    (label, expected.clone(), expected)
                } else {
                    (label, expected, actual)
                }
            }
            Expectation::Treasury(p, v) => (
                format!("treasury of {}", rules.power_info(*p).name),
                v.to_string(),
                game.state().treasuries[p.index()].to_string(),
            ),
            Expectation::Income(p, v) => (
                format!("income of {}", rules.power_info(*p).name),
                v.to_string(),
                game.income(*p).to_string(),
            ),
            Expectation::Damage(space, piece, d) => {
                let actual = game
                    .state()
                    .space(*space)
                    .facilities
                    .iter()
                    .find(|f| Piece::Facility(f.kind) == *piece)
                    .map_or_else(|| "no such facility".to_string(), |f| f.damage.to_string());
                (
                    format!(
                        "damage on the {} in {}",
                        piece_name(&rules, *piece),
                        rules.board.space(*space).name
                    ),
                    d.to_string(),
                    actual,
                )
            }
            Expectation::Purchased(p, list) => {
                let have = &game.state().purchased[p.index()];
                let mut want = list.clone();
                want.retain(|(_, n)| *n > 0);
                let mut got: Vec<(Piece, u32)> = Vec::new();
                for (piece, n) in have {
                    match got.iter_mut().find(|(q, _)| q == piece) {
                        Some((_, m)) => *m += n,
                        None => got.push((*piece, *n)),
                    }
                }
                (
                    format!("units {} bought and not yet placed", rules.power_info(*p).name),
                    units_text(&rules, &want),
                    units_text(&rules, &got),
                )
            }
            Expectation::Battles(spaces) => {
                let s = game.state();
                let mut pending: Vec<String> = s
                    .this_turn
                    .battles
                    .iter()
                    .filter(|b| !b.fought)
                    .map(|b| b.space)
                    .chain(
                        s.this_turn
                            .raids
                            .iter()
                            .filter(|(_, fought)| !fought)
                            .map(|(sp, _)| *sp),
                    )
                    .map(|sp| rules.board.space(sp).name.clone())
                    .collect();
                pending.sort();
                pending.dedup();
                let mut want: Vec<String> = spaces
                    .iter()
                    .map(|sp| rules.board.space(*sp).name.clone())
                    .collect();
                want.sort();
                let show = |v: &[String]| {
                    if v.is_empty() {
                        "none".to_string()
                    } else {
                        v.join(", ")
                    }
                };
                ("battles to fight".into(), show(&want), show(&pending))
            }
            Expectation::Battle(space, outcome) => {
                // Any power's battle of this turn: the acting power's, or one played earlier in
                // the turn by a power playing within it (or its host).
                let s = game.state();
                let actual = s
                    .turn_records()
                    .find_map(|t| t.outcomes.iter().rev().find(|(sp, _)| sp == space))
                    .map(|(_, o)| outcome_name(*o).to_string())
                    .or_else(|| {
                        s.turn_records()
                            .find_map(|t| t.battle(*space))
                            .map(|_| "not fought yet".to_string())
                    })
                    .unwrap_or_else(|| "no battle this turn".into());
                (
                    format!("battle in {}", rules.board.space(*space).name),
                    outcome_name(*outcome).to_string(),
                    actual,
                )
            }
            Expectation::DiceDrawn(n) => ("dice drawn".into(), n.to_string(), drawn.to_string()),
            Expectation::Winner(w) => (
                "winner".into(),
                w.clone().unwrap_or_else(|| "none".into()),
                game.state().winner.clone().unwrap_or_else(|| "none".into()),
            ),
            Expectation::Round(r) => ("round".into(), r.to_string(), game.state().round.to_string()),
            Expectation::Power(p) => (
                "power to play".into(),
                rules.power_info(*p).name.clone(),
                rules.power_info(game.current_power()).name.clone(),
            ),
            Expectation::Phase(p) => ("phase".into(), p.clone(), game.current_phase().id.clone()),
            Expectation::Relation(a, b, r) => (
                format!(
                    "relation of {} and {}",
                    rules.power_info(*a).name,
                    rules.power_info(*b).name
                ),
                r.name().to_string(),
                game.state().relations[a.index()][b.index()].name().to_string(),
            ),
            Expectation::Events(want) => {
                let seen: Vec<super::EventSeen> = output
                    .iter()
                    .filter_map(|l| super::EventSeen::parse_log(l))
                    .collect();
                let missing: Vec<&super::EventSeen> = want
                    .iter()
                    .filter(|w| !seen.iter().any(|s| s.matches(w)))
                    .collect();
                let expected = want.iter().map(|w| w.describe()).collect::<Vec<_>>().join(" + ");
                let actual = if missing.is_empty() {
                    expected.clone()
                } else {
                    // Only the events of the names missed: the whole trace would bury them.
                    let fired: Vec<String> = seen
                        .iter()
                        .filter(|s| missing.iter().any(|m| m.event == s.event))
                        .map(|s| s.describe())
                        .collect();
                    format!(
                        "missing {}; fired of those: {}",
                        missing
                            .iter()
                            .map(|w| w.describe())
                            .collect::<Vec<_>>()
                            .join(" + "),
                        if fired.is_empty() {
                            "none".to_string()
                        } else {
                            fired.join(" + ")
                        }
                    )
                };
                ("events".into(), expected, actual)
            }
            Expectation::Log(texts) => {
                let missing: Vec<&String> = texts
                    .iter()
                    .filter(|t| {
                        let t = t.to_lowercase();
                        !output.iter().any(|l| l.to_lowercase().contains(&t))
                    })
                    .collect();
                let expected = texts
                    .iter()
                    .map(|t| format!("{t:?}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let actual = if missing.is_empty() {
                    expected.clone()
                } else {
                    // What was printed, so the author sees the wording the engine uses.
                    let printed: Vec<&String> = output.iter().filter(|l| !l.starts_with("[trace.")).collect();
                    let printed: Vec<&str> = printed.iter().map(|l| l.as_str()).collect();
                    format!(
                        "missing {}; printed: {}",
                        missing
                            .iter()
                            .map(|t| format!("{t:?}"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        if printed.is_empty() {
                            "nothing".to_string()
                        } else {
                            printed.join(" | ")
                        }
                    )
                };
                ("log".into(), expected, actual)
            }
        };
        report.observations.push(Observation {
            what: what.clone(),
            value: actual.clone(),
        });
        if expected != actual {
            report.failures.push(Mismatch {
                what,
                at: e.at.clone(),
                expected,
                actual,
            });
        }
    }
    report
}
