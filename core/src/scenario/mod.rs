//! Regression scenarios: one rule case per TOML file, run against the rules as they are now.
//!
//! A scenario names an edition (and layers), arranges a position, plays steps in the REPL's
//! command language with dice typed as the faces rolled, and states what must be true after.
//! The same file runs again with extra layers (`warroom test --with`, `--diff`), which is how a
//! rule author learns what a change does. The format is documented in docs/scenarios.md.
//!
//! Architecture invariant: a scenario drives the game only through [`Game::arrange`] and
//! commands, exactly as a player would; there is no side door into the rules.
//!
//! [`Game::arrange`]: crate::game::Game::arrange

pub(crate) mod read;
mod replay;
mod run;

pub use read::{load, read_header, Header};
pub use replay::{recording, replay, state_diff, Divergence, ReplayReport, StateLine};
pub use run::{run, run_all, run_file, Mismatch, Observation, Report, RulesCache};

use crate::combat::Outcome;
use crate::game::arrange::Arrangement;
use crate::game::state::Relation;
use crate::rules::{Piece, PowerId, RuleSet, SpaceId};
use std::path::PathBuf;
use std::sync::Arc;

/// A scenario file read and checked against its rule set, ready to run.
pub struct Case {
    pub path: PathBuf,
    /// The path as shown to users.
    pub display: String,
    /// The special.md rule IDs the scenario checks.
    pub rule_ids: Vec<String>,
    pub title: Option<String>,
    pub header: Header,
    pub rules: Arc<RuleSet>,
    /// The start, dice typed at the table included (`None`: the seeded generator rolls).
    pub arrangement: Arrangement,
    pub steps: Vec<Step>,
    pub expect: Vec<Expect>,
}

/// Where in the scenario file something was written (`file:line:col`).
pub type Location = String;

#[derive(Clone, Debug)]
pub struct Step {
    pub text: String,
    /// `Some(text)`: the command must be refused with a message containing `text`.
    pub rejected: Option<String>,
    /// Texts its output must contain, each in some line. In a recording (steps with a
    /// `hash`), the output exactly.
    pub output: Vec<String>,
    /// The state hash after the step, in a recorded game.
    pub hash: Option<u64>,
    pub at: Location,
}

#[derive(Clone, Debug)]
pub struct Expect {
    pub what: Expectation,
    pub at: Location,
}

#[derive(Clone, Debug)]
pub enum Expectation {
    Owner(SpaceId, Option<PowerId>),
    /// Units of one power in one space; `exact` also means "no other types".
    Units {
        space: SpaceId,
        power: PowerId,
        units: Vec<(Piece, u32)>,
        exact: bool,
    },
    Treasury(PowerId, i64),
    /// What the power would collect now.
    Income(PowerId, i64),
    /// Damage on a facility of a space.
    Damage(SpaceId, Piece, u32),
    /// Units bought and not yet mobilized, exactly.
    Purchased(PowerId, Vec<(Piece, u32)>),
    /// Battles and raids declared this turn and not yet fought.
    Battles(Vec<SpaceId>),
    Battle(SpaceId, Outcome),
    DiceDrawn(u64),
    /// The winning side, `None` for "nobody yet".
    Winner(Option<String>),
    Round(u32),
    Power(PowerId),
    Phase(String),
    Relation(PowerId, PowerId, Relation),
    /// Texts the steps' output must contain, each in some line.
    Log(Vec<String>),
    /// Events the steps must fire, each with payload fields of these values (read from the
    /// `trace-events` layer's log, which the scenario then runs with).
    Events(Vec<EventSeen>),
}

/// An event as the `trace-events` layer logs it: its name and rendered payload fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSeen {
    pub event: String,
    pub fields: Vec<(String, String)>,
}

impl EventSeen {
    /// `[trace.NAME] event NAME a=1; b=x` as logged by editions/options/trace-events.
    pub fn parse_log(line: &str) -> Option<EventSeen> {
        let rest = line.strip_prefix("[trace.")?;
        let (_, rest) = rest.split_once("] event ")?;
        let (event, fields) = rest.split_once(' ').unwrap_or((rest, ""));
        Some(EventSeen {
            event: event.to_string(),
            fields: fields
                .split("; ")
                .filter_map(|f| f.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        })
    }

    /// Every field asked for has that value (any case).
    pub fn matches(&self, want: &EventSeen) -> bool {
        self.event == want.event
            && want.fields.iter().all(|(k, v)| {
                self.fields
                    .iter()
                    .any(|(k2, v2)| k2 == k && v2.eq_ignore_ascii_case(v))
            })
    }

    pub fn describe(&self) -> String {
        let f: Vec<String> = self.fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if f.is_empty() {
            self.event.clone()
        } else {
            format!("{} {}", self.event, f.join("; "))
        }
    }
}

/// The layer a scenario that expects events runs with.
pub const TRACE_LAYER: &str = "trace-events";

/// Names of battle outcomes as scenario files write them.
pub const OUTCOMES: &[(&str, Outcome)] = &[
    ("attacker", Outcome::AttackerWon),
    ("defender", Outcome::DefenderWon),
    ("both destroyed", Outcome::BothDestroyed),
    ("stalemate", Outcome::Stalemate),
    ("retreated", Outcome::Retreated),
    ("ended", Outcome::Ended),
];

pub fn outcome_name(o: Outcome) -> &'static str {
    OUTCOMES.iter().find(|(_, x)| *x == o).map_or("?", |(n, _)| n)
}
