//! Golden games: a recorded game replayed against the current rules, stopping at the first
//! command whose result, output or state hash differs from the recording.

use super::{Case, Location};
use crate::game::save::toml_str;
use crate::game::state::State;
use crate::game::Game;
use crate::rules::{PowerId, RuleSet};
use std::fmt::Write as _;

/// The first step a replay went otherwise than recorded.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// 0-based index into the steps.
    pub step: usize,
    pub command: String,
    pub at: Location,
    pub recorded_result: String,
    pub replayed_result: String,
    pub recorded_output: Vec<String>,
    pub replayed_output: Vec<String>,
    pub recorded_hash: Option<u64>,
    pub replayed_hash: u64,
    /// `(left, right)` titles and the differing lines of the two states after the step.
    pub states: (String, String, Vec<StateLine>),
}

/// One thing two states disagree on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateLine {
    pub what: String,
    pub left: String,
    pub right: String,
}

#[derive(Clone, Debug, Default)]
pub struct ReplayReport {
    pub steps: usize,
    /// Steps replayed as recorded.
    pub replayed: usize,
    pub error: Option<String>,
    pub divergence: Option<Divergence>,
}

fn start(case: &Case) -> Result<Game, String> {
    let h = &case.header;
    let mut g = Game::new(
        case.rules.clone(),
        &h.edition,
        &h.with,
        h.scenario.as_deref(),
        h.seed,
    )
    .map_err(|e| format!("the game does not start: {e}"))?;
    g.arrange(&case.arrangement)
        .map_err(|e| format!("the start cannot be arranged: {e}"))?;
    Ok(g)
}

fn result_text(r: &Result<Vec<String>, crate::game::Rejection>) -> String {
    match r {
        Ok(_) => "accepted".into(),
        Err(e) => format!("refused: {e}"),
    }
}

/// Replay `case`; with `base` (the same recording on the rules it was recorded with), both run
/// in step and a divergence shows how the two states differ. Without it, the divergence shows
/// the replay's state before and after the step.
pub fn replay(case: &Case, base: Option<&Case>) -> ReplayReport {
    let mut report = ReplayReport {
        steps: case.steps.len(),
        ..ReplayReport::default()
    };
    let mut game = match start(case) {
        Ok(g) => g,
        Err(e) => {
            report.error = Some(e);
            return report;
        }
    };
    let mut base_game = match base.map(start) {
        Some(Ok(g)) => Some(g),
        Some(Err(e)) => {
            report.error = Some(format!("on the recorded rules: {e}"));
            return report;
        }
        None => None,
    };
    for (i, step) in case.steps.iter().enumerate() {
        let before = game.state().clone();
        let result = game.execute(&step.text);
        if let Some(b) = &mut base_game {
            // The recorded rules may refuse too; what matters is where the two states part.
            let _ = b.execute(&step.text);
        }
        let replayed_output = result.as_ref().cloned().unwrap_or_default();
        let expected_ok = step.rejected.is_none();
        let same_result = result.is_ok() == expected_ok;
        let same_output = step.hash.is_none() || replayed_output == step.output;
        let hash = game.hash_in_scheme(case.header.hash_scheme);
        let same_hash = step.hash.is_none_or(|h| h == hash);
        if same_result && same_output && same_hash {
            report.replayed += 1;
            continue;
        }
        let states = match &base_game {
            Some(b) => (
                "recorded rules".to_string(),
                "replayed rules".to_string(),
                state_diff(
                    b.rules(),
                    b.state(),
                    game.rules(),
                    game.state(),
                    &game.origin().scenario,
                ),
            ),
            None => (
                "before the step".to_string(),
                "after it (replayed)".to_string(),
                state_diff(
                    game.rules(),
                    &before,
                    game.rules(),
                    game.state(),
                    &game.origin().scenario,
                ),
            ),
        };
        report.divergence = Some(Divergence {
            step: i,
            command: step.text.clone(),
            at: step.at.clone(),
            recorded_result: match &step.rejected {
                None => "accepted".into(),
                Some(t) => format!("refused ({t})"),
            },
            replayed_result: result_text(&result),
            recorded_output: step.output.clone(),
            replayed_output,
            recorded_hash: step.hash,
            replayed_hash: hash,
            states,
        });
        return report;
    }
    report
}

fn pname(rules: &RuleSet, p: Option<PowerId>) -> String {
    p.map_or("nobody".into(), |p| rules.power_info(p).name.clone())
}

/// What each power has in a space, as text, in the rule set's unit order.
fn holdings(rules: &RuleSet, s: &State, space: usize) -> Vec<(String, String)> {
    let sp = &s.spaces[space];
    let mut out = Vec::new();
    for (pi, p) in rules.powers.iter().enumerate() {
        let mut parts = Vec::new();
        for (ui, u) in rules.units.iter().enumerate() {
            let n = sp
                .units
                .iter()
                .filter(|x| x.owner.index() == pi && x.kind.index() == ui)
                .count();
            if n > 0 {
                parts.push(format!("{n} {}", u.id));
            }
        }
        if !parts.is_empty() {
            out.push((p.name.clone(), parts.join(", ")));
        }
    }
    out
}

/// The differences between two states, named in the game's words. The rule sets may differ
/// (a layer on one side); spaces and powers are matched by name.
pub fn state_diff(ra: &RuleSet, a: &State, rb: &RuleSet, b: &State, scenario: &str) -> Vec<StateLine> {
    let mut out = Vec::new();
    let mut line = |what: String, left: String, right: String| {
        if left != right {
            out.push(StateLine { what, left, right });
        }
    };
    line("round".into(), a.round.to_string(), b.round.to_string());
    let phase = |r: &RuleSet, s: &State| {
        let at = r
            .scenario(scenario)
            .and_then(|sc| sc.turn_order.get(s.turn))
            .and_then(|p| r.plan(*p).steps(s.choices).get(s.phase));
        match at {
            Some(st) => format!(
                "{} {} {}",
                r.power_info(st.power).name,
                r.phases[st.phase.index()].id,
                s.turn
            ),
            None => format!("? {}", s.turn),
        }
    };
    let (turn_a, turn_b) = (phase(ra, a), phase(rb, b));
    line("phase (and turn)".into(), turn_a, turn_b);
    line(
        "winner".into(),
        a.winner.clone().unwrap_or_else(|| "none".into()),
        b.winner.clone().unwrap_or_else(|| "none".into()),
    );
    for (pi, p) in ra.powers.iter().enumerate() {
        let Some(pj) = rb.powers.iter().position(|q| q.name == p.name) else {
            continue;
        };
        line(
            format!("treasury of {}", p.name),
            a.treasuries[pi].to_string(),
            b.treasuries[pj].to_string(),
        );
    }
    for (si, space) in ra.board.spaces.iter().enumerate() {
        let Some(sj) = rb.board.spaces.iter().position(|t| t.name == space.name) else {
            continue;
        };
        line(
            format!("{}: held by", space.name),
            pname(ra, a.spaces[si].controller),
            pname(rb, b.spaces[sj].controller),
        );
        let ha = holdings(ra, a, si);
        let hb = holdings(rb, b, sj);
        let mut owners: Vec<&String> = ha
            .iter()
            .map(|(p, _)| p)
            .chain(hb.iter().map(|(p, _)| p))
            .collect();
        owners.sort();
        owners.dedup();
        for o in owners {
            let get = |h: &[(String, String)]| {
                h.iter()
                    .find(|(p, _)| p == o)
                    .map_or("none".to_string(), |(_, t)| t.clone())
            };
            line(format!("{}: units of {o}", space.name), get(&ha), get(&hb));
        }
        let dmg = |r: &RuleSet, s: &State, i: usize| {
            let mut t = String::new();
            for f in &s.spaces[i].facilities {
                let _ = write!(t, "{} (damage {}) ", r.facilities[f.kind.index()].id, f.damage);
            }
            t.trim_end().to_string()
        };
        line(
            format!("{}: facilities", space.name),
            dmg(ra, a, si),
            dmg(rb, b, sj),
        );
    }
    out
}

/// The game so far as a scenario file that replays it: every command with what it printed and
/// the state hash after it (`record FILE` in the REPL).
pub fn recording(game: &Game) -> String {
    let o = game.origin();
    let rules = game.rules();
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# A recorded game: `warroom replay FILE` replays it against the current rules and reports\n\
         # the first command whose result, output or state hash differs; `warroom test FILE` runs it."
    );
    let _ = writeln!(
        t,
        "title = {}",
        toml_str(&format!(
            "{} game recorded at round {}, {}, {} ({} commands)",
            o.edition,
            game.state().round,
            rules.power_info(game.current_power()).name,
            game.current_phase().title,
            game.history().len()
        ))
    );
    let _ = writeln!(t, "edition = {}", toml_str(&o.edition));
    let _ = writeln!(t, "scenario = {}", toml_str(&o.scenario));
    if !o.with.is_empty() {
        let w: Vec<String> = o.with.iter().map(|s| toml_str(s)).collect();
        let _ = writeln!(t, "with = [{}]", w.join(", "));
    }
    let _ = writeln!(t, "seed = {}", o.seed);
    let _ = writeln!(
        t,
        "hash_scheme = {}",
        crate::game::save::hash_scheme(crate::game::save::VERSION)
    );
    let _ = writeln!(t, "steps = [");
    for r in game.history() {
        let out: Vec<String> = r.output.iter().map(|s| toml_str(s)).collect();
        let _ = writeln!(
            t,
            "  {{ command = {}, hash = \"{:016x}\", output = [{}] }},",
            toml_str(&r.text),
            r.hash,
            out.join(", ")
        );
    }
    let _ = writeln!(t, "]");
    t
}
