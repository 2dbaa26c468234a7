//! `warroom odds` and the REPL's `odds SPACE`: a battle's odds as text or JSON.

use std::process::ExitCode;

use warroom_core::combat::Outcome;
use warroom_core::layers::LoadRequest;
use warroom_core::odds::{self, parse_units, Estimate, Method, Odds, Options, Spec};
use warroom_core::rules::{self, RuleSet, UnitTypeId};

/// `warroom odds`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// ATTACKERS vs DEFENDERS: unit lists such as "3 inf, 1 art, 2 tank".
    #[arg(required = true, num_args = 1..)]
    pub battle: Vec<String>,
    /// Edition name or folder (default: 1941).
    #[arg(long)]
    pub edition: Option<String>,
    /// Optional layer: NAME, NAME=VALUE, NAME:PARAM=VALUE or a folder.
    #[arg(long = "with", value_name = "LAYER")]
    pub with: Vec<String>,
    /// A sea battle (default: at sea when no land unit takes part).
    #[arg(long)]
    pub sea: bool,
    /// Attacking land units coming ashore from transports (they cannot retreat).
    #[arg(long, value_name = "UNITS")]
    pub amphibious: Option<String>,
    /// Ships bombarding before the first round (with --amphibious).
    #[arg(long, value_name = "UNITS")]
    pub bombard: Option<String>,
    /// Unit types the attacker loses first, e.g. "inf, art" (the rest: cheapest first).
    #[arg(long, value_name = "TYPES")]
    pub attacker_order: Option<String>,
    #[arg(long, value_name = "TYPES")]
    pub defender_order: Option<String>,
    /// Do not keep a land unit back to take the territory.
    #[arg(long)]
    pub no_capture_unit: bool,
    /// The attacker's techs, e.g. "jet_fighters, heavy_bombers" (needs the R&D layer).
    #[arg(long, value_name = "TECHS")]
    pub attacker_techs: Option<String>,
    #[arg(long, value_name = "TECHS")]
    pub defender_techs: Option<String>,
    /// Retreat at the end of round N (when the attacker may).
    #[arg(long, value_name = "N")]
    pub retreat_after: Option<u32>,
    /// Retreat when fewer than K attacking units are left.
    #[arg(long, value_name = "K")]
    pub retreat_below: Option<u32>,
    /// Retreat when only aircraft are left.
    #[arg(long)]
    pub retreat_air_only: bool,
    /// Monte Carlo with this many battles instead of the exact chain.
    #[arg(long)]
    pub runs: Option<u64>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads for Monte Carlo (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// One JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// How many of the likeliest endings to list.
    #[arg(long, default_value_t = warroom_core::odds::DEFAULT_ENDINGS)]
    pub endings: usize,
}

pub fn run(editions: &std::path::Path, a: Args) -> ExitCode {
    let edition = a
        .edition
        .clone()
        .unwrap_or_else(|| crate::DEFAULT_EDITION.to_string());
    let mut req = LoadRequest::new(editions, edition);
    for w in &a.with {
        req = req.with(w.clone());
    }
    let rules = match rules::load(&req) {
        Ok(r) => std::sync::Arc::new(r),
        Err(e) => {
            eprintln!("{:?}", miette::Report::new(e));
            return ExitCode::FAILURE;
        }
    };
    match answer(&rules, &a) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn answer(rules: &std::sync::Arc<RuleSet>, a: &Args) -> Result<String, String> {
    let text = a.battle.join(" ");
    let (att, def) = split_vs(&text)?;
    let mut spec = Spec::of_forces(rules, att, def)?;
    let units = |flag: &str, v: &Option<String>| -> Result<Vec<(UnitTypeId, u32)>, String> {
        v.as_deref().map_or(Ok(Vec::new()), |t| {
            parse_units(rules, t).map_err(|e| format!("--{flag}: {e}"))
        })
    };
    spec.amphibious = units("amphibious", &a.amphibious)?;
    spec.bombarding = units("bombard", &a.bombard)?;
    spec.attacker_order = units("attacker-order", &a.attacker_order)?
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    spec.defender_order = units("defender-order", &a.defender_order)?
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    spec.sea = a.sea.then_some(true);
    spec.keep_land_unit = !a.no_capture_unit;
    let techs = |flag: &str, v: &Option<String>| -> Result<Vec<_>, String> {
        let Some(list) = v else { return Ok(Vec::new()) };
        list.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| {
                rules.tech(t).ok_or_else(|| {
                    let known: Vec<&str> = rules.techs.iter().map(|t| t.id.as_str()).collect();
                    if known.is_empty() {
                        format!(
                            "--{flag}: no tech `{t}`: this rule set has none (add the R&D layer with --with)"
                        )
                    } else {
                        format!("--{flag}: no tech `{t}`; techs: {}", known.join(", "))
                    }
                })
            })
            .collect()
    };
    spec.attacker_techs = techs("attacker-techs", &a.attacker_techs)?;
    spec.defender_techs = techs("defender-techs", &a.defender_techs)?;
    spec.retreat.after_round = a.retreat_after;
    spec.retreat.fewer_than = a.retreat_below;
    spec.retreat.only_air = a.retreat_air_only;
    let q = spec.question(rules)?;
    let o = odds::calculate(
        &q,
        &Options {
            runs: a.runs,
            seed: a.seed,
            threads: a.threads,
            endings: a.endings,
            ..Options::default()
        },
    )?;
    Ok(if a.json {
        json(rules, &o)
    } else {
        render(rules, &o)
    })
}

/// `"10 inf, 2 tank vs 8 inf"`, or the two lists as separate words around `vs`.
fn split_vs(text: &str) -> Result<(&str, &str), String> {
    let lower = text.to_lowercase();
    let at = lower
        .find(" vs ")
        .or_else(|| lower.find(" vs. "))
        .ok_or("write the battle as ATTACKERS vs DEFENDERS, e.g. \"3 inf, 1 tank\" vs \"2 inf\"")?;
    let (a, rest) = text.split_at(at);
    let d = rest.trim_start()[2..].trim_start_matches('.').trim();
    Ok((a.trim(), d))
}

fn pct(e: Estimate) -> String {
    if e.margin > 0.0 {
        format!("{:5.1}% ± {:.1}", e.value * 100.0, e.margin * 100.0)
    } else {
        format!("{:5.1}%", e.value * 100.0)
    }
}

fn num(e: Estimate) -> String {
    if e.margin > 0.0 {
        format!("{:.2} ± {:.2}", e.value, e.margin)
    } else {
        format!("{:.2}", e.value)
    }
}

fn bar(p: f64) -> String {
    "█".repeat((p * 30.0).round() as usize)
}

fn names(rules: &RuleSet, units: &[(UnitTypeId, u32)]) -> String {
    if units.is_empty() {
        return "nothing".into();
    }
    units
        .iter()
        .map(|(k, n)| format!("{n} {}", rules.unit(*k).name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::AttackerWon => "attacker wins",
        Outcome::DefenderWon => "defender wins",
        Outcome::BothDestroyed => "both destroyed",
        Outcome::Stalemate => "stalemate",
        Outcome::Retreated => "attacker retreats",
        Outcome::Ended => "ended by a rule",
    }
}

/// The answer as the terminal shows it.
/// A bombing raid's odds: what each side loses and the damage done, on average.
pub fn render_raid(rules: &RuleSet, o: &warroom_core::game::RaidOdds) -> String {
    let mut out = vec![format!(
        "bombing raid, {} raids fought on copies of the board",
        o.runs
    )];
    let lost = |list: &[(UnitTypeId, u32, f64)]| {
        list.iter()
            .map(|(k, n, l)| format!("{l:.2} of {n} {}", rules.unit(*k).name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    out.push(format!("  raiders lost      {}", lost(&o.attackers)));
    if !o.interceptors.is_empty() {
        out.push(format!("  interceptors lost {}", lost(&o.interceptors)));
    }
    for (k, before, added, maxed, cap) in o.damage.iter().filter(|d| d.2 > 0.0) {
        out.push(format!(
            "  {:<17} +{added:.2} damage (now {before}, at most {cap}); at its cap {:.1}% of the time",
            rules.facilities[k.index()].name,
            maxed * 100.0
        ));
    }
    out.push(format!(
        "  IPCs lost         attacker {:.2}, defender {:.2} (units, and damage at 1 IPC a point to repair)",
        o.attacker_loss, o.defender_loss
    ));
    out.join("\n")
}

pub fn render(rules: &RuleSet, o: &Odds) -> String {
    let mut out = Vec::new();
    out.push(match &o.method {
        Method::Exact { states } => format!("exact ({states} unit combinations)"),
        Method::Sampled { runs, why: None } => {
            format!("Monte Carlo, {runs} battles drawn from the chain (95% intervals)")
        }
        Method::Sampled { runs, why: Some(w) } => {
            format!("Monte Carlo, {runs} battles drawn from the chain (95% intervals): not exact because {w}")
        }
        Method::MonteCarlo { runs, why: None } => {
            format!("Monte Carlo, {runs} battles fought (95% intervals)")
        }
        Method::MonteCarlo { runs, why: Some(w) } => {
            format!("Monte Carlo, {runs} battles fought (95% intervals): not exact because {w}")
        }
    });
    // Fought with the scripts, the first line's reason names them already.
    if !o.scripts.is_empty() && !matches!(o.method, Method::MonteCarlo { .. }) {
        out.push(format!(
            "  with rule scripts {} (asked once per round and step)",
            o.scripts.join(", ")
        ));
    }
    let line = |label: &str, e: Estimate| format!("  {label:<17} {:<14} {}", pct(e), bar(e.value));
    out.push(line("attacker wins", o.attacker_wins));
    if let Some(t) = o.takes_territory {
        out.push(line("  and takes it", t));
    }
    out.push(line("defender wins", o.defender_wins));
    out.push(line("draw", o.draw));
    if o.retreats.value > 0.0 {
        out.push(line("attacker retreats", o.retreats));
    }
    let left = |list: &[(UnitTypeId, f64)]| {
        list.iter()
            .map(|(k, x)| format!("{x:.2} {}", rules.unit(*k).name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    out.push(format!("  attackers left    {}", left(&o.attackers_left)));
    out.push(format!("  defenders left    {}", left(&o.defenders_left)));
    if !o.cargo.is_empty() {
        out.push(format!(
            "  cargo             {} aboard a damaged carrier: no part in the battle, lost if it sinks (not counted above)",
            names(rules, &o.cargo)
        ));
    }
    out.push(format!(
        "  IPCs lost         attacker {}, defender {}; TUV swing {:+.2} for the attacker",
        num(o.attacker_loss),
        num(o.defender_loss),
        o.tuv_swing()
    ));
    out.push(format!("  rounds            {}", num(o.rounds)));
    if !o.endings.is_empty() {
        out.push("  likeliest endings:".into());
        for e in &o.endings {
            out.push(format!(
                "    {:5.1}%  {:<17} attackers: {}; defenders: {}",
                e.probability * 100.0,
                outcome_name(e.outcome),
                names(rules, &e.attackers),
                names(rules, &e.defenders)
            ));
        }
    }
    out.join("\n")
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The answer for tools: one JSON object.
pub fn json(rules: &RuleSet, o: &Odds) -> String {
    let est = |e: Estimate| format!("{{\"value\": {}, \"margin\": {}}}", e.value, e.margin);
    // Both Monte Carlo kinds are "monte_carlo"; `drawn_from` says which.
    let (method, drawn_from, runs, why) = match &o.method {
        Method::Exact { .. } => ("exact", "null", String::from("null"), String::from("null")),
        Method::Sampled { runs, why } => (
            "monte_carlo",
            "\"chain\"",
            runs.to_string(),
            why.as_deref().map_or("null".into(), json_str),
        ),
        Method::MonteCarlo { runs, why } => (
            "monte_carlo",
            "\"battles\"",
            runs.to_string(),
            why.as_deref().map_or("null".into(), json_str),
        ),
    };
    let left = |list: &[(UnitTypeId, f64)]| {
        list.iter()
            .map(|(k, x)| format!("{}: {x}", json_str(&rules.unit(*k).id)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let units = |list: &[(UnitTypeId, u32)]| {
        list.iter()
            .map(|(k, n)| format!("{}: {n}", json_str(&rules.unit(*k).id)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The handlers the battles were fought with: empty when no rule script changes the battle.
    let scripts = o
        .scripts
        .iter()
        .map(|s| json_str(s))
        .collect::<Vec<_>>()
        .join(", ");
    let endings = o
        .endings
        .iter()
        .map(|e| {
            format!(
                "{{\"outcome\": {}, \"probability\": {}, \"attackers\": {{{}}}, \"defenders\": {{{}}}}}",
                json_str(outcome_name(e.outcome)),
                e.probability,
                units(&e.attackers),
                units(&e.defenders)
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{{\"method\": \"{method}\", \"drawn_from\": {drawn_from}, \"runs\": {runs}, \"not_exact_because\": {why}, \"rule_scripts\": [{scripts}], \"attacker_wins\": {}, \"takes_territory\": {}, \"defender_wins\": {}, \"draw\": {}, \"attacker_retreats\": {}, \"rounds\": {}, \"attackers_left\": {{{}}}, \"defenders_left\": {{{}}}, \"attacker_ipc_loss\": {}, \"defender_ipc_loss\": {}, \"tuv_swing\": {}, \"cargo\": {{{}}}, \"endings\": [{endings}]}}",
        est(o.attacker_wins),
        o.takes_territory.map_or("null".into(), est),
        est(o.defender_wins),
        est(o.draw),
        est(o.retreats),
        est(o.rounds),
        left(&o.attackers_left),
        left(&o.defenders_left),
        est(o.attacker_loss),
        est(o.defender_loss),
        o.tuv_swing(),
        units(&o.cargo),
    )
}
