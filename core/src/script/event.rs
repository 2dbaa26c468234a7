//! The closed event catalogue (principle §5) and the typed results of a dispatch.
//! docs/events.md is the prose guide; docs/api.md is generated from this file (`warroom api`).

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
    BattlesBegin,
    BeforeCombatStep,
    AfterCombatStep,
    Casualties,
    BattleEnd,
    TerritoryCaptured,
    NeutralAttacked,
    CollectIncome,
    Research,
    Breakthrough,
    VictoryCheck,
    Command,
    Answer,
    Report,
}

impl EventKind {
    pub const COUNT: usize = 24;

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
        EventKind::BattlesBegin,
        EventKind::BeforeCombatStep,
        EventKind::AfterCombatStep,
        EventKind::Casualties,
        EventKind::BattleEnd,
        EventKind::TerritoryCaptured,
        EventKind::NeutralAttacked,
        EventKind::CollectIncome,
        EventKind::Research,
        EventKind::Breakthrough,
        EventKind::VictoryCheck,
        EventKind::Command,
        EventKind::Answer,
        EventKind::Report,
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
            EventKind::BattlesBegin => "battles_begin",
            EventKind::BeforeCombatStep => "before_combat_step",
            EventKind::AfterCombatStep => "after_combat_step",
            EventKind::Casualties => "casualties",
            EventKind::BattleEnd => "battle_end",
            EventKind::TerritoryCaptured => "territory_captured",
            EventKind::NeutralAttacked => "neutral_attacked",
            EventKind::CollectIncome => "collect_income",
            EventKind::Research => "research",
            EventKind::Breakthrough => "breakthrough",
            EventKind::VictoryCheck => "victory_check",
            EventKind::Command => "command",
            EventKind::Answer => "answer",
            EventKind::Report => "report",
        }
    }

    pub fn from_name(name: &str) -> Option<EventKind> {
        Self::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Only validate_* and before_* events (and a layer's `command`) may be vetoed: they ask
    /// "may this happen?", while the others report something that has already happened.
    pub fn can_veto(self) -> bool {
        matches!(
            self,
            EventKind::ValidatePurchase
                | EventKind::ValidateDeclaration
                | EventKind::ValidateMove
                | EventKind::ValidatePlacement
                | EventKind::BeforeCombatStep
                | EventKind::Command
        )
    }

    /// Whether its handlers may ask for commands (`game:request`): the events that report
    /// something, and a layer's `command`, which its handlers carry out (or refuse).
    pub fn may_request(self) -> bool {
        (!self.can_veto() && self != EventKind::Report) || self == EventKind::Command
    }

    /// When the engine fires it, in a sentence.
    pub fn doc(self) -> &'static str {
        match self {
            EventKind::GameSetup => "once, after the scenario is set up, before the first turn",
            EventKind::TurnBegin => {
                "at the start of a power's turn; for a turn played with others within it \
                 (`[turn.within]`), first for the turn's owner (the host), then for each power \
                 playing within it"
            }
            EventKind::TurnEnd => {
                "at the end of a power's turn; the powers playing within a host's turn end theirs \
                 first, then the host"
            }
            EventKind::PhaseBegin => "at the start of each phase of a turn",
            EventKind::PhaseEnd => {
                "at the end of each phase, and when `play POWER first` puts off the phase just \
                 begun (it begins again later in the turn)"
            }
            EventKind::ValidatePurchase => "before a purchase is accepted",
            EventKind::ValidateDeclaration => {
                "before a declaration of war is accepted (the relation and `[politics]` are checked \
                 already); `game` shows the game before the declaration"
            }
            EventKind::WarDeclared => "after a declaration of war (the powers are at war in `game`)",
            EventKind::ValidateMove => {
                "before a move is accepted (combat or noncombat; loading and offloading too)"
            }
            EventKind::ValidatePlacement => "before units are mobilized in a space",
            EventKind::BattlesBegin => {
                "once a turn in Conduct Combat, when the attacker first orders a battle or raid: \
                 the defenders' scrambles and interceptions are declared and no die is rolled yet. \
                 If a handler asks a question (`choose`), the order waits: it is given again once \
                 the questions are answered"
            }
            EventKind::BeforeCombatStep => {
                "before each step of a battle or bombing raid; a veto skips that step (the battle \
                 goes on); in a script step, handlers act through `fire` and `hits` requests"
            }
            EventKind::AfterCombatStep => "after each step of a battle or bombing raid",
            EventKind::Casualties => {
                "when casualties are taken, one event per owner (a unit taking a hit without \
                 dying counts)"
            }
            EventKind::BattleEnd => {
                "when a battle is over (not a bombing raid), after its last step, before the \
                 engine captures, repairs or moves retreating units; handlers may `mark` the \
                 units that fought"
            }
            EventKind::TerritoryCaptured => {
                "when a territory changes hands (battle, blitz, liberation), after any command but \
                 `edit` and `undo`"
            }
            EventKind::NeutralAttacked => {
                "when a neutral territory is attacked (a combat move or an amphibious assault \
                 into it): it has joined the side opposing the attacker and its army stands; \
                 handlers decide what the other neutrals do (`set_leaning`)"
            }
            EventKind::CollectIncome => {
                "when a power collects income (each economy of a power with two: one event each, \
                 the power's own first)"
            }
            EventKind::Research => "after a power bought researcher tokens and rolled them",
            EventKind::Breakthrough => "after a power gained a tech",
            EventKind::VictoryCheck => {
                "at the end of each power's turn, after the engine's `[victory]` check (in the order \
                 of `turn_end`)"
            }
            EventKind::Command => {
                "when the player gives a command a layer declares (`[commands]`): its handlers \
                 carry it out with requests, or refuse it with a veto"
            }
            EventKind::Answer => {
                "when a player answers a question a rule script asked (`choose`): its handlers \
                 act on the answer with requests"
            }
            EventKind::Report => {
                "when a player asks what a rule stands at (`report NAME`, and `status` for the \
                 report `status`): its handlers tell it with `warroom.log` lines; nothing they do \
                 stays (no requests, the store as it was)"
            }
        }
    }

    /// The commands that fire it.
    pub fn fired_by(self) -> &'static str {
        match self {
            EventKind::GameSetup => "the start of a game",
            EventKind::TurnBegin | EventKind::TurnEnd | EventKind::VictoryCheck => {
                "`end phase` ending a turn"
            }
            EventKind::PhaseBegin | EventKind::PhaseEnd => "`end phase`; `play POWER first`",
            EventKind::ValidatePurchase => "`buy`",
            EventKind::ValidateDeclaration | EventKind::WarDeclared => "`declare war`",
            EventKind::ValidateMove => "`move`",
            EventKind::ValidatePlacement => "`place`",
            EventKind::BattlesBegin => "the turn's first `fight`",
            EventKind::BeforeCombatStep
            | EventKind::AfterCombatStep
            | EventKind::Casualties
            | EventKind::BattleEnd => {
                "`fight` and the answers that resume a battle (`casualties`, `press`, `retreat`, ...)"
            }
            EventKind::TerritoryCaptured => "any command but `edit` and `undo`",
            EventKind::NeutralAttacked => "`move`",
            EventKind::CollectIncome => "`end phase` in a collect-income phase",
            EventKind::Research => "`research N`",
            EventKind::Breakthrough => "`breakthrough CHART`",
            EventKind::Command => "a layer's command (`[commands]`)",
            EventKind::Answer => "`answer`",
            EventKind::Report => "`report NAME`, `status` (the REPL); nothing in the game",
        }
    }

    /// The payload the engine sends with this event: what a handler's `ev` holds. Filters may
    /// only name these fields, so a misspelt filter is caught at load time instead of silently
    /// never matching; the engine's payloads are checked against it in debug builds.
    pub fn payload(self) -> &'static [PayloadField] {
        use FieldType::*;
        const fn f(name: &'static str, ty: FieldType, doc: &'static str) -> PayloadField {
            PayloadField { name, ty, doc }
        }
        const ROUND: PayloadField = f("round", Integer, "the current round (1-based)");
        const DECLARATION: &[PayloadField] = &[
            f("power", String, "the power declaring war"),
            f("target", String, "the power declared on (a power's economy is named as that power)"),
            f("round", Integer, "the current round"),
            f("phase", String, "the phase id"),
            f("declarers", Strings, "the powers the declaration puts at war on the declaring side: its `[politics]` group and economies"),
            f("targets", Strings, "the powers it puts at war on the other side: the target's group and economies"),
        ];
        const TURN: &[PayloadField] = &[ROUND, f("power", String, "the power whose turn it is")];
        const PHASE: &[PayloadField] = &[
            ROUND,
            f(
                "power",
                String,
                "the power playing the phase (in a host's turn, the host or a power playing within it)",
            ),
            f("phase", String, "the phase id (`[phases.<phase>]`)"),
            f(
                "phase_kind",
                String,
                "the phase's kind as the engine names it (`Purchase`, `CombatMove`, `CollectIncome`, ...)",
            ),
        ];
        const STEP: &[PayloadField] = &[
            f("space", String, "where the battle is"),
            f("attacker", String, "the attacking power"),
            f("defenders", Strings, "the defending powers"),
            f("combat_round", Integer, "the battle's round (1-based)"),
            f("step", String, "the `[combat]` step (`anti_air`, `bombardment`, `surprise_strike`, `attacker_fires`, `defender_fires`, `remove_casualties`, `press_or_retreat`, `raid_damage` in a raid, or a script step's name)"),
            f("combatants", Combatants, "every unit in the battle, one by one, with its side, status, tags and what it did this turn"),
        ];
        match self {
            EventKind::GameSetup => {
                const {
                    &[
                        f("scenario", String, "the scenario's id"),
                        f("round", Integer, "the round the game starts in"),
                    ]
                }
            }
            EventKind::TurnBegin | EventKind::TurnEnd => TURN,
            EventKind::PhaseBegin | EventKind::PhaseEnd => PHASE,
            EventKind::ValidatePurchase => {
                const {
                    &[
                        f("power", String, "the power buying"),
                        f("units", Units, "what it buys (facilities too)"),
                        f("cost", Integer, "what the purchase costs, in IPCs"),
                        f("ipcs", Integer, "the paying economy's IPCs in hand before it"),
                        f(
                            "economy",
                            String,
                            "who pays: the power, or a second economy of it (`buy ... for ECONOMY`)",
                        ),
                    ]
                }
            }
            EventKind::ValidateDeclaration | EventKind::WarDeclared => DECLARATION,
            EventKind::ValidateMove => {
                const {
                    &[
                        f("power", String, "the power moving"),
                        f("phase", String, "the phase id"),
                        f(
                            "units",
                            Units,
                            "the units moving (land units carried by air included)",
                        ),
                        f("from", String, "where they start"),
                        f("to", String, "where they end"),
                        f("path", Strings, "the spaces passed, start and end included"),
                    ]
                }
            }
            EventKind::ValidatePlacement => {
                const {
                    &[
                        f("power", String, "the power mobilizing"),
                        f("space", String, "where"),
                        f("units", Units, "what it places (facilities too)"),
                    ]
                }
            }
            EventKind::BattlesBegin => {
                const {
                    &[
                        ROUND,
                        f("power", String, "the attacking power"),
                        f("phase", String, "the phase id"),
                        f(
                            "battles",
                            Strings,
                            "the spaces with a battle or raid to fight this turn, in the order announced",
                        ),
                    ]
                }
            }
            EventKind::BeforeCombatStep | EventKind::AfterCombatStep => STEP,
            EventKind::Casualties => {
                const {
                    &[
                        f("space", String, "where the battle is"),
                        f("power", String, "the owner of the units hit"),
                        f("side", Side, "the owner's side in the battle"),
                        f("hits", Integer, "hits its units took"),
                        f("units", Units, "its units hit"),
                    ]
                }
            }
            EventKind::BattleEnd => {
                const {
                    &[
                        f("space", String, "where the battle was"),
                        f("attacker", String, "the attacking power"),
                        f("defenders", Strings, "the defending powers"),
                        f("combat_round", Integer, "the round it ended in"),
                        f("outcome", String, "`attacker_won`, `defender_won`, `both_destroyed`, `stalemate` (the units left cannot hit each other), `retreated` or `ended` (by a rule's `end_battle`)"),
                        f("combatants", Combatants, "every unit that fought, one by one, with its status at the end (`fighting` for a survivor, `dead`, `submerged`, `retreated`)"),
                    ]
                }
            }
            EventKind::TerritoryCaptured => {
                const {
                    &[
                        f("space", String, "the territory"),
                        f("power", String, "its new controller"),
                        f("previous_owner", String, "who held it before (`\"\"` if no one)"),
                        f("units", Units, "the moving power's units there"),
                    ]
                }
            }
            EventKind::NeutralAttacked => {
                const {
                    &[
                        f("space", String, "the territory attacked"),
                        f("power", String, "the attacking power"),
                        f("joined", String, "the side it joined (the attacker's enemies)"),
                        f(
                            "was",
                            String,
                            "the side it leaned to before (`\"\"`: a strict neutral)",
                        ),
                    ]
                }
            }
            EventKind::CollectIncome => {
                const {
                    &[
                        f("power", String, "the power collecting"),
                        f("income", Integer, "IPCs collected"),
                    ]
                }
            }
            EventKind::Research => {
                const {
                    &[
                        f("power", String, "the power researching"),
                        f("tokens", Integer, "researcher tokens rolled"),
                        f("cost", Integer, "IPCs paid"),
                        f(
                            "breakthrough",
                            Boolean,
                            "a success: the tokens are gone and a chart waits to be chosen",
                        ),
                    ]
                }
            }
            EventKind::Breakthrough => {
                const {
                    &[
                        f("power", String, "the power"),
                        f("chart", Integer, "the chart rolled on (1-based)"),
                        f("tech", String, "the tech gained (its id)"),
                    ]
                }
            }
            EventKind::VictoryCheck => const { &[ROUND, f("power", String, "the power whose turn ended")] },
            EventKind::Command => {
                const {
                    &[
                        f("command", String, "the command's verb (`commands.<command>`)"),
                        f("power", String, "the power giving it"),
                        ROUND,
                        f("phase", String, "the phase id"),
                        f(
                            "args",
                            Arguments,
                            "its arguments by name: numbers as numbers, powers, spaces and unit types by name (unit types by id)",
                        ),
                    ]
                }
            }
            EventKind::Answer => {
                const {
                    &[
                        f(
                            "power",
                            String,
                            "the power that answered (the one the question asked)",
                        ),
                        f(
                            "key",
                            String,
                            "the question's key (`choose`'s `key`, else the id of the handler that asked)",
                        ),
                        f("question", String, "the question's text"),
                        f("answer", String, "the answer chosen, as `choose` listed it"),
                        ROUND,
                    ]
                }
            }
            EventKind::Report => {
                const {
                    &[
                        f(
                            "report",
                            String,
                            "the report asked for (`objectives`, `victory`, `status`, or a layer's own)",
                        ),
                        f(
                            "power",
                            String,
                            "the power it is asked about (the one to play, unless named)",
                        ),
                        ROUND,
                    ]
                }
            }
        }
    }

    /// The names of [`payload`](Self::payload)'s fields.
    pub fn payload_fields(self) -> Vec<&'static str> {
        self.payload().iter().map(|f| f.name).collect()
    }

    /// What a handler of this event may return.
    pub fn results(self) -> impl Iterator<Item = &'static HandlerResult> {
        HandlerResult::ALL
            .iter()
            .filter(move |r| !r.veto || self.can_veto())
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A field of an event's payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayloadField {
    pub name: &'static str,
    pub ty: FieldType,
    pub doc: &'static str,
}

/// The type of a payload field, as a handler sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    String,
    Integer,
    Boolean,
    /// A list of strings (power or space names).
    Strings,
    /// A list of `{ unit = "infantry", count = 2 }`.
    Units,
    /// `"attacker"` or `"defender"`.
    Side,
    /// A table of a layer command's arguments, by name: numbers and names.
    Arguments,
    /// A list of `Combatant` records (`script::api::RECORDS`): the units of a battle.
    Combatants,
    /// A table of whole numbers by name (the tags scripts write on a unit).
    Counters,
}

impl FieldType {
    /// The Luau type (`UnitCount` is declared in the type definitions).
    pub fn luau(self) -> &'static str {
        match self {
            FieldType::String => "string",
            FieldType::Integer => "number",
            FieldType::Boolean => "boolean",
            FieldType::Strings => "{ string }",
            FieldType::Units => "{ UnitCount }",
            FieldType::Side => "\"attacker\" | \"defender\"",
            FieldType::Arguments => "{ [string]: number | string }",
            FieldType::Combatants => "{ Combatant }",
            FieldType::Counters => "{ [string]: number }",
        }
    }

    /// Whether `v` is a value of this type.
    pub fn admits(self, v: &Value) -> bool {
        let unit = |v: &Value| {
            matches!(v, Value::Map(m) if m.len() == 2
                && matches!(m.get("unit"), Some(Value::Str(_)))
                && matches!(m.get("count"), Some(Value::Int(_))))
        };
        match (self, v) {
            (FieldType::String, Value::Str(_))
            | (FieldType::Integer, Value::Int(_))
            | (FieldType::Boolean, Value::Bool(_)) => true,
            (FieldType::Side, Value::Str(s)) => s == "attacker" || s == "defender",
            (FieldType::Strings, Value::List(l)) => l.iter().all(|x| matches!(x, Value::Str(_))),
            (FieldType::Units, Value::List(l)) => l.iter().all(unit),
            (FieldType::Arguments, Value::Map(m)) => {
                m.values().all(|x| matches!(x, Value::Int(_) | Value::Str(_)))
            }
            (FieldType::Counters, Value::Map(m)) => m.values().all(|x| matches!(x, Value::Int(_))),
            (FieldType::Combatants, Value::List(l)) => {
                let record = crate::script::api::record("Combatant");
                l.iter().all(|x| record.is_some_and(|r| r.admits(x)))
            }
            _ => false,
        }
    }
}

/// One thing a handler may return (docs/events.md §4); `interpret_return` reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandlerResult {
    /// As a script writes it.
    pub lua: &'static str,
    pub doc: &'static str,
    /// Only on events that may be vetoed.
    pub veto: bool,
}

impl HandlerResult {
    pub const ALL: &[HandlerResult] = &[
        HandlerResult {
            lua: "nil",
            doc: "carry on with the next handler (so does returning nothing)",
            veto: false,
        },
        HandlerResult {
            lua: "\"continue\"",
            doc: "carry on with the next handler",
            veto: false,
        },
        HandlerResult {
            lua: "\"handled\"",
            doc: "stop: handlers after this one do not run",
            veto: false,
        },
        HandlerResult {
            lua: "{ veto = \"reason\" }",
            doc: "refuse the action (a non-empty reason, shown with the handler's id); a vetoed \
                  `before_combat_step` skips the step",
            veto: true,
        },
    ];
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

    /// Adds a payload field (builder style). The field must be in the event's
    /// [`payload`](EventKind::payload), with a value of its type (checked in debug builds).
    pub fn with(mut self, field: &str, value: impl Into<Value>) -> Event {
        let value = value.into();
        debug_assert!(
            self.kind
                .payload()
                .iter()
                .any(|f| f.name == field && f.ty.admits(&value)),
            "payload field `{field}` = {value:?} is not in the catalogue of `{}` (EventKind::payload)",
            self.kind
        );
        self.payload.insert(field.to_owned(), value);
        self
    }
}

/// Payload fields worked out only when something reads them: a filter that names one, or a
/// handler that indexes `ev` with its name (or iterates `ev` with `for k, v in ev`). A battle's
/// `combatants` lists every unit with its facts; a handler that never reads it should not pay
/// for it on every step.
pub trait LazyFields {
    /// The fields' names, each in the event's [`payload`](EventKind::payload).
    fn names(&self) -> &'static [&'static str];
    /// The value of the field `names()[i]`.
    fn build(&self, i: usize) -> Value;
}

/// No lazy fields: the whole payload is in the [`Event`].
pub struct Eager;

impl LazyFields for Eager {
    fn names(&self) -> &'static [&'static str] {
        &[]
    }
    fn build(&self, _: usize) -> Value {
        Value::Nil
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_is_documented() {
        for k in EventKind::ALL {
            assert!(!k.doc().trim().is_empty(), "{k}: when does it fire?");
            assert!(!k.fired_by().trim().is_empty(), "{k}: which commands fire it?");
            let fields = k.payload();
            assert!(!fields.is_empty(), "{k}: no payload");
            for (i, f) in fields.iter().enumerate() {
                assert!(!f.doc.trim().is_empty(), "{k}.{}: no meaning", f.name);
                assert!(
                    fields[..i].iter().all(|g| g.name != f.name),
                    "{k}.{} twice",
                    f.name
                );
            }
        }
    }

    /// The results the catalogue documents are the ones `interpret_return` accepts, each on
    /// the events it says.
    #[test]
    fn documented_results_are_the_accepted_ones() {
        let lua = mlua::Lua::new();
        for r in HandlerResult::ALL {
            let v: mlua::Value = lua.load(format!("return {}", r.lua)).eval().expect("valid Lua");
            for k in EventKind::ALL {
                let accepted = super::super::interpret_return(&v, k).is_ok();
                let documented = k.results().any(|x| x == r);
                assert_eq!(accepted, documented, "{} on {k}", r.lua);
            }
        }
        let v: mlua::Value = lua.load("return \"stop\"").eval().expect("valid Lua");
        assert!(super::super::interpret_return(&v, EventKind::TurnBegin).is_err());
    }

    #[test]
    fn payload_values_are_checked_against_their_types() {
        assert!(FieldType::Units.admits(&Value::list([Value::map([
            ("unit", Value::from("infantry")),
            ("count", Value::from(2i64)),
        ])])));
        assert!(!FieldType::Units.admits(&Value::list(["infantry"])));
        assert!(FieldType::Side.admits(&Value::from("defender")));
        assert!(!FieldType::Side.admits(&Value::from("neutral")));
        assert!(!FieldType::Integer.admits(&Value::from("1")));
    }
}
