//! The closed event catalogue (principle §5) and the typed results of a dispatch.
//! docs/events.md is the prose version of this file; keep them in step.

use indexmap::IndexMap;

use super::value::Value;

/// Every event a script can handle. The list is closed: a script naming any other event is
/// rejected when it loads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    GameSetup,
    TurnBegin,
    TurnEnd,
    PhaseBegin,
    PhaseEnd,
    ValidatePurchase,
    ValidateDeclaration,
    WarDeclared,
    ValidateMove,
    ValidatePlacement,
    BeforeCombatStep,
    AfterCombatStep,
    Casualties,
    TerritoryCaptured,
    CollectIncome,
    Research,
    Breakthrough,
    VictoryCheck,
}

impl EventKind {
    pub const COUNT: usize = 18;

    /// Every kind, in turn order (the order of docs/events.md).
    pub const ALL: [EventKind; Self::COUNT] = [
        EventKind::GameSetup,
        EventKind::TurnBegin,
        EventKind::TurnEnd,
        EventKind::PhaseBegin,
        EventKind::PhaseEnd,
        EventKind::ValidatePurchase,
        EventKind::ValidateDeclaration,
        EventKind::WarDeclared,
        EventKind::ValidateMove,
        EventKind::ValidatePlacement,
        EventKind::BeforeCombatStep,
        EventKind::AfterCombatStep,
        EventKind::Casualties,
        EventKind::TerritoryCaptured,
        EventKind::CollectIncome,
        EventKind::Research,
        EventKind::Breakthrough,
        EventKind::VictoryCheck,
    ];

    /// The snake_case name scripts use in `warroom.on`.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::GameSetup => "game_setup",
            EventKind::TurnBegin => "turn_begin",
            EventKind::TurnEnd => "turn_end",
            EventKind::PhaseBegin => "phase_begin",
            EventKind::PhaseEnd => "phase_end",
            EventKind::ValidatePurchase => "validate_purchase",
            EventKind::ValidateDeclaration => "validate_declaration",
            EventKind::WarDeclared => "war_declared",
            EventKind::ValidateMove => "validate_move",
            EventKind::ValidatePlacement => "validate_placement",
            EventKind::BeforeCombatStep => "before_combat_step",
            EventKind::AfterCombatStep => "after_combat_step",
            EventKind::Casualties => "casualties",
            EventKind::TerritoryCaptured => "territory_captured",
            EventKind::CollectIncome => "collect_income",
            EventKind::Research => "research",
            EventKind::Breakthrough => "breakthrough",
            EventKind::VictoryCheck => "victory_check",
        }
    }

    pub fn from_name(name: &str) -> Option<EventKind> {
        Self::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Only validate_* and before_* events may be vetoed: they ask "may this happen?", while
    /// the others report something that has already happened.
    pub fn can_veto(self) -> bool {
        matches!(
            self,
            EventKind::ValidatePurchase
                | EventKind::ValidateDeclaration
                | EventKind::ValidateMove
                | EventKind::ValidatePlacement
                | EventKind::BeforeCombatStep
        )
    }

    /// The payload fields the engine sends with this event. Filters may only name these, so a
    /// misspelt filter is caught at load time instead of silently never matching.
    pub fn payload_fields(self) -> &'static [&'static str] {
        match self {
            EventKind::GameSetup => &["scenario", "round"],
            EventKind::TurnBegin | EventKind::TurnEnd => &["round", "power"],
            EventKind::PhaseBegin | EventKind::PhaseEnd => &["round", "power", "phase", "phase_kind"],
            EventKind::ValidatePurchase => &["power", "units", "cost", "ipcs"],
            EventKind::ValidateDeclaration | EventKind::WarDeclared => {
                &["power", "target", "round", "phase", "declarers", "targets"]
            }
            EventKind::ValidateMove => &["power", "phase", "units", "from", "to", "path"],
            EventKind::ValidatePlacement => &["power", "space", "units"],
            EventKind::BeforeCombatStep | EventKind::AfterCombatStep => {
                &["space", "attacker", "defenders", "combat_round", "step"]
            }
            EventKind::Casualties => &["space", "power", "side", "hits", "units"],
            EventKind::TerritoryCaptured => &["space", "power", "previous_owner", "units"],
            EventKind::CollectIncome => &["power", "income"],
            EventKind::Research => &["power", "tokens", "cost", "breakthrough"],
            EventKind::Breakthrough => &["power", "chart", "tech"],
            EventKind::VictoryCheck => &["round", "power"],
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One occurrence of an event: its kind and a payload of plain values, in the order the engine
/// built it (handlers get it as a fresh Lua table each).
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub payload: IndexMap<String, Value>,
}

impl Event {
    pub fn new(kind: EventKind) -> Event {
        Event {
            kind,
            payload: IndexMap::new(),
        }
    }

    /// Adds a payload field (builder style).
    pub fn with(mut self, field: &str, value: impl Into<Value>) -> Event {
        self.payload.insert(field.to_owned(), value.into());
        self
    }
}

/// How a dispatch ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Outcome {
    /// Every matching handler ran (or none matched).
    #[default]
    Continue,
    /// The handler `by` returned `"handled"`; handlers after it did not run.
    Handled { by: String },
    /// The handler `by` refused the action; the engine rejects the command with `reason`.
    Veto { by: String, reason: String },
}

/// A command a handler asked the engine for with `game:request{...}`. Scripts never change
/// state themselves; the engine validates and applies (and logs) these.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// Id of the handler that asked.
    pub by: String,
    pub command: Value,
}

/// A line a script logged with `warroom.log` or `print`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    pub layer: String,
    /// The handler running at the time; `None` while a script's top level loads.
    pub handler: Option<String>,
    pub message: String,
}

/// The result of [`ScriptHost::dispatch`](super::ScriptHost::dispatch).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dispatch {
    pub outcome: Outcome,
    /// Commands requested, in the order they were made. Empty after a veto: a vetoed action
    /// leaves no trace (principle §8).
    pub requests: Vec<Request>,
    pub log: Vec<LogLine>,
}
