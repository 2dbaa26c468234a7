//! The Lua API catalogue: every name the engine puts in a script's environment (the sandbox's
//! builtins and libraries, `warroom`, `print`, `require`), the members of the `game` handle,
//! the tables they return and the commands `game:request` takes.
//!
//! The host is built from these lists: the sandbox copies exactly [`BUILTINS`] and
//! [`LIBRARIES`] into the base environment, `layer_env` sets exactly [`WARROOM`]'s members, and
//! `view::register` registers exactly [`GAME`]'s; the tests in `script` walk the real
//! environment and compare. `warroom api` prints them (docs/api.md, docs/warroom.d.luau).

use super::event::{FieldType, PayloadField};
use super::value::Value;

/// A global of a script's environment.
#[derive(Debug, Clone, Copy)]
pub struct Global {
    pub name: &'static str,
    /// Its Luau type; empty for Luau's own builtins (editors know them).
    pub luau: &'static str,
    pub doc: &'static str,
    /// The engine's own version of a name Luau has (`print`, `require`): the type definitions
    /// leave it to the editor's.
    pub replaces_builtin: bool,
}

/// A standard library scripts get, read-only.
#[derive(Debug, Clone, Copy)]
pub struct Library {
    pub name: &'static str,
    pub doc: &'static str,
    /// Its members in a script's environment, sorted.
    pub members: &'static [&'static str],
}

/// A member of `warroom` or of `game`.
#[derive(Debug, Clone, Copy)]
pub struct Member {
    pub name: &'static str,
    pub kind: MemberKind,
    /// For a value, its Luau type; for a function or method, its parameters (Luau syntax).
    pub params: &'static str,
    /// What a function or method returns (Luau syntax); empty for a value.
    pub returns: &'static str,
    pub doc: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberKind {
    /// Read as `t.name`.
    Value,
    /// Called as `t.name(...)`.
    Function,
    /// Called as `t:name(...)`.
    Method,
}

/// A table the engine hands scripts (what `game:space` returns, a unit count in a payload).
#[derive(Debug, Clone, Copy)]
pub struct Record {
    /// Its name in the type definitions.
    pub name: &'static str,
    pub doc: &'static str,
    pub fields: &'static [PayloadField],
}

/// A command a handler may ask for with `game:request{ command = NAME, ... }`.
#[derive(Debug, Clone, Copy)]
pub struct RequestDoc {
    pub command: &'static str,
    pub fields: &'static [RequestField],
    /// The events it may be asked in.
    pub allowed: &'static str,
    pub doc: &'static str,
}

#[derive(Debug, Clone, Copy)]
pub struct RequestField {
    pub name: &'static str,
    pub luau: &'static str,
    pub optional: bool,
    pub doc: &'static str,
}

const fn builtin(name: &'static str, doc: &'static str) -> Global {
    Global {
        name,
        luau: "",
        doc,
        replaces_builtin: false,
    }
}

/// The Luau builtins scripts may use: the sandbox's allow-list. Deliberately absent: io, os,
/// debug, load/loadstring/dofile/loadfile (code loading, bytecode included), getfenv/setfenv
/// (escape the environment), newproxy, collectgarbage/gcinfo, coroutine (not needed by rules,
/// and one less way to stretch a call), and Luau's own require.
pub const BUILTINS: &[Global] = &[
    builtin(
        "assert",
        "raises its message (or \"assertion failed!\") unless the value is truthy",
    ),
    builtin("error", "raises an error"),
    builtin("getmetatable", "a table's metatable"),
    builtin("ipairs", "iterates an array in order"),
    builtin("next", "the next key of a table (order unspecified)"),
    builtin(
        "pairs",
        "iterates a table; the order is unspecified: never let a rule depend on it",
    ),
    builtin(
        "pcall",
        "calls a function, catching its errors (not a budget error)",
    ),
    builtin("rawequal", "equality without metamethods"),
    builtin("rawget", "indexing without metamethods"),
    builtin("rawlen", "length without metamethods"),
    builtin("rawset", "assignment without metamethods"),
    builtin("select", "an argument by position, or their count (`\"#\"`)"),
    builtin(
        "setmetatable",
        "sets a table's metatable (not on a table kept in the store)",
    ),
    builtin("tonumber", "a string as a number, or nil"),
    builtin("tostring", "a value as a string"),
    builtin("type", "a value's Lua type name"),
    builtin("typeof", "a value's Luau type name (userdata types included)"),
    builtin("unpack", "an array's elements as values"),
    builtin("xpcall", "calls a function with an error handler"),
];

/// The libraries scripts get. They are shared by every layer and read-only, so one layer
/// cannot patch `string` under another.
pub const LIBRARIES: &[Library] = &[
    Library {
        name: "math",
        doc: "Luau's math without `random` and `randomseed`: dice come from the engine's one \
              seeded generator, so a game replays bit for bit",
        members: &[
            "abs", "acos", "asin", "atan", "atan2", "ceil", "clamp", "cos", "cosh", "deg", "e", "exp",
            "floor", "fmod", "frexp", "huge", "isfinite", "isinf", "isnan", "ldexp", "lerp", "log", "log10",
            "map", "max", "min", "modf", "nan", "noise", "phi", "pi", "pow", "rad", "round", "sign", "sin",
            "sinh", "sqrt", "sqrt2", "tan", "tanh", "tau",
        ],
    },
    Library {
        name: "string",
        doc: "Luau's string library",
        members: &[
            "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize",
            "rep", "reverse", "split", "sub", "unpack", "upper",
        ],
    },
    Library {
        name: "table",
        doc: "Luau's table library",
        members: &[
            "clear", "clone", "concat", "create", "find", "foreach", "foreachi", "freeze", "getn", "insert",
            "isfrozen", "maxn", "move", "pack", "remove", "sort", "unpack",
        ],
    },
    Library {
        name: "utf8",
        doc: "Luau's utf8 library",
        members: &["char", "charpattern", "codepoint", "codes", "len", "offset"],
    },
];

/// The globals each layer's environment has of its own (bound to the layer).
pub const LAYER_GLOBALS: &[Global] = &[
    Global {
        name: "warroom",
        luau: "Warroom",
        doc: "the engine's API for this layer (read-only): below",
        replaces_builtin: false,
    },
    Global {
        name: "print",
        luau: "(...any) -> ()",
        doc: "a log line, as `warroom.log`",
        replaces_builtin: true,
    },
    Global {
        name: "require",
        luau: "(name: string) -> any",
        doc: "loads `name.lua` (`lib.util` or `lib/util`: `lib/util.lua`) from the layer's folder, \
              then from the shared `scripts/`, nowhere else; once per layer, in the layer's \
              environment; only while scripts load",
        replaces_builtin: true,
    },
];

/// The members of a layer's `warroom` table.
pub const WARROOM: &[Member] = &[
    Member {
        name: "on",
        kind: MemberKind::Function,
        params: "event: EventName, options: HandlerOptions, handler: Handler",
        returns: "()",
        doc: "registers a handler for an event, only while scripts load (`HandlerOptions` below); \
              dispatch order: priority (higher first), then layer order, then registration order",
    },
    Member {
        name: "remove_handler",
        kind: MemberKind::Function,
        params: "id: string",
        returns: "()",
        doc: "removes a handler an earlier layer registered; an error if there is none",
    },
    Member {
        name: "replace_handler",
        kind: MemberKind::Function,
        params: "id: string, handler: Handler",
        returns: "()",
        doc: "replaces a handler's code, keeping its id, priority, filter and place in the order; \
              an error if there is none",
    },
    Member {
        name: "log",
        kind: MemberKind::Function,
        params: "...: any",
        returns: "()",
        doc: "a log line, its arguments joined by spaces (tables and functions print as their type \
              name, never an address)",
    },
    Member {
        name: "store",
        kind: MemberKind::Value,
        params: "{ [string]: any }",
        returns: "",
        doc: "this layer's saved state: plain data only (nil, booleans, numbers, strings, lists, \
              tables with string keys), saved with the game and rolled back when an event is \
              vetoed or fails",
    },
    Member {
        name: "layer",
        kind: MemberKind::Value,
        params: "string",
        returns: "",
        doc: "the layer's name",
    },
    Member {
        name: "events",
        kind: MemberKind::Value,
        params: "{ EventName }",
        returns: "",
        doc: "every event name, in turn order",
    },
];

/// The members of the `game` handle a handler gets: read-only, valid during the call only.
pub const GAME: &[Member] = &[
    Member {
        name: "round",
        kind: MemberKind::Value,
        params: "number",
        returns: "",
        doc: "the current round (1-based)",
    },
    Member {
        name: "power",
        kind: MemberKind::Value,
        params: "string",
        returns: "",
        doc: "the power acting now (in a turn played in segments, the host or a power playing \
              within it)",
    },
    Member {
        name: "phase",
        kind: MemberKind::Value,
        params: "string",
        returns: "",
        doc: "the current phase id",
    },
    Member {
        name: "owner",
        kind: MemberKind::Method,
        params: "space: string",
        returns: "string?",
        doc: "who controls the space; nil for an unknown space or one nobody holds",
    },
    Member {
        name: "start_owner",
        kind: MemberKind::Method,
        params: "space: string",
        returns: "string?",
        doc: "who controlled the space when the turn began (as the acting power's record of the \
              turn has it); nil for an unknown space or one nobody held",
    },
    Member {
        name: "treasury",
        kind: MemberKind::Method,
        params: "power: string",
        returns: "number?",
        doc: "the power's IPCs in hand; nil for an unknown power",
    },
    Member {
        name: "relation",
        kind: MemberKind::Method,
        params: "a: string, b: string",
        returns: "(\"war\" | \"peace\" | \"allied\")?",
        doc: "how two powers stand; nil for an unknown power or a power and itself",
    },
    Member {
        name: "units",
        kind: MemberKind::Method,
        params: "space: string",
        returns: "{ UnitStack }",
        doc: "the units in a space, in the engine's stable order",
    },
    Member {
        name: "units_of",
        kind: MemberKind::Method,
        params: "power: string",
        returns: "{ PowerStack }",
        doc: "every unit of the power on the board, by space in board order; empty for an \
              unknown power",
    },
    Member {
        name: "each_unit",
        kind: MemberKind::Method,
        params: "space: string",
        returns: "{ UnitInfo }",
        doc: "the units in a space one by one (id, tags, what each did this turn, where it \
              began the turn), in the engine's order; empty for an unknown space",
    },
    Member {
        name: "unit",
        kind: MemberKind::Method,
        params: "id: number",
        returns: "UnitInfo?",
        doc: "one unit by its id, wherever it is; nil when no unit on the board has it",
    },
    Member {
        name: "start_units",
        kind: MemberKind::Method,
        params: "space: string",
        returns: "{ UnitStack }",
        doc: "the units that stood in a space when the turn began (as `units` gives them)",
    },
    Member {
        name: "battles",
        kind: MemberKind::Method,
        params: "",
        returns: "{ BattleInfo }",
        doc: "the battles and bombing raids the acting power announced this turn, in the order \
              announced, fought or not",
    },
    Member {
        name: "spaces",
        kind: MemberKind::Method,
        params: "",
        returns: "{ string }",
        doc: "every space's name (territories and sea zones), in board order",
    },
    Member {
        name: "powers",
        kind: MemberKind::Method,
        params: "",
        returns: "{ string }",
        doc: "every power's name, in the rule set's order",
    },
    Member {
        name: "space",
        kind: MemberKind::Method,
        params: "name: string",
        returns: "SpaceInfo?",
        doc: "what the board says of a space and who holds it now; nil for an unknown space",
    },
    Member {
        name: "power_info",
        kind: MemberKind::Method,
        params: "power: string",
        returns: "PowerInfo?",
        doc: "a power's side, IPCs and techs; nil for an unknown power",
    },
    Member {
        name: "unit_type",
        kind: MemberKind::Method,
        params: "id: string",
        returns: "UnitTypeInfo?",
        doc: "a unit type's values; nil for an unknown type",
    },
    Member {
        name: "request",
        kind: MemberKind::Method,
        params: "command: Request",
        returns: "()",
        doc: "asks the engine for a command (below), applied after the event with the handler's \
              id; one asked where it is not allowed, or with a field its command does not take, \
              fails the command",
    },
];

const fn field(name: &'static str, ty: FieldType, doc: &'static str) -> PayloadField {
    PayloadField { name, ty, doc }
}

/// The tables scripts get from the engine.
pub const RECORDS: &[Record] = &[
    Record {
        name: "UnitCount",
        doc: "units of one type, in event payloads",
        fields: &[
            field("unit", FieldType::String, "the unit (or facility) type's id"),
            field("count", FieldType::Integer, "how many"),
        ],
    },
    Record {
        name: "UnitStack",
        doc: "units of one type and owner in a space (`game:units`)",
        fields: &[
            field("owner", FieldType::String, "the power owning them"),
            field("unit", FieldType::String, "the unit type's id"),
            field("count", FieldType::Integer, "how many"),
        ],
    },
    Record {
        name: "PowerStack",
        doc: "units of one type of a power in a space (`game:units_of`)",
        fields: &[
            field("space", FieldType::String, "where they are"),
            field("unit", FieldType::String, "the unit type's id"),
            field("count", FieldType::Integer, "how many"),
        ],
    },
    Record {
        name: "BattleInfo",
        doc: "a battle announced this turn (`game:battles`)",
        fields: &[
            field("space", FieldType::String, "where"),
            field("raid", FieldType::Boolean, "a strategic bombing raid"),
            field("fought", FieldType::Boolean, "fought already"),
            field("amphibious_from", FieldType::Strings, "the sea zones an amphibious assault on it comes from"),
        ],
    },
    Record {
        name: "UnitInfo",
        doc: "one unit on the board (`game:each_unit`, `game:unit`)",
        fields: &[
            field("id", FieldType::Integer, "the unit's id: stable for the game, what `mark` and `combat_value` name"),
            field("unit", FieldType::String, "the unit type's id"),
            field("owner", FieldType::String, "the power owning it"),
            field("space", FieldType::String, "where it is"),
            field("damage", FieldType::Integer, "hits it has taken (a damaged battleship: 1)"),
            field("tags", FieldType::Counters, "what scripts wrote on it (`mark`): `{ veteran = 1 }`"),
            field("did", FieldType::Strings, "what it did this turn: `moved`, `combat_moved`, `blitzed`, `from_transport`, `offloaded`, `boarded`, `carried_by_air`, `fought`, `captured`, `escaped`, `bombing`"),
            field("started", FieldType::String, "where it stood when the turn began (`\"\"`: it was not on the board)"),
        ],
    },
    Record {
        name: "Combatant",
        doc: "one unit in a battle (`combatants` in battle events)",
        fields: &[
            field("id", FieldType::Integer, "the unit's id"),
            field("unit", FieldType::String, "the unit type's id"),
            field("owner", FieldType::String, "the power owning it"),
            field("side", FieldType::Side, "its side in the battle"),
            field("status", FieldType::String, "`fighting`, `hit` (behind the casualty strip, firing back this round), `dead`, `submerged` or `retreated`"),
            field("tags", FieldType::Counters, "what scripts wrote on it (`mark`)"),
            field("did", FieldType::Strings, "what it did this turn (as in `UnitInfo`); empty in a battle from unit lists (the calculator)"),
            field("started", FieldType::String, "where it stood when the turn began (`\"\"` if unknown)"),
        ],
    },
    Record {
        name: "SpaceInfo",
        doc: "a space (`game:space`)",
        fields: &[
            field("name", FieldType::String, "its name"),
            field("sea", FieldType::Boolean, "a sea zone"),
            field("ipcs", FieldType::Integer, "its IPC value"),
            field(
                "original_owner",
                FieldType::String,
                "the owner printed on the board (`\"\"` for none)",
            ),
            field("owner", FieldType::String, "who holds it now (`\"\"` for none)"),
            field("capital", FieldType::Boolean, "a capital"),
            field(
                "victory_city",
                FieldType::String,
                "its victory city's name (`\"\"` for none)",
            ),
            field("island", FieldType::Boolean, "an island"),
            field(
                "map",
                FieldType::String,
                "the map it is printed on (`[territories.NAME] map`; `\"\"` for none)",
            ),
            field("tags", FieldType::Strings, "marks the map prints on it (`[territories.NAME] tags`, `[sea_zones.NAME] tags`)"),
            field("neutral", FieldType::Boolean, "printed as a neutral territory (whoever holds it now)"),
            field(
                "neutral_kind",
                FieldType::String,
                "the kind of neutral the board prints: `pro_axis`, `pro_allies`, `strict`, `impassable` (`\"\"` for none)",
            ),
            field(
                "leaning",
                FieldType::String,
                "a neutral territory no power holds: the side it leans to now (`Axis`, `Allies`), `strict`, or, attacked, the side it joined; `\"\"` for every other territory",
            ),
            field(
                "attacked",
                FieldType::Boolean,
                "a former neutral no power holds yet: attacked, it joined the side `leaning` names",
            ),
            field("adjacent", FieldType::Strings, "the spaces next to it, by name"),
            field("facilities", FieldType::Strings, "the ids of the facilities standing there (`major_industrial_complex`, `air_base`, ...)"),
        ],
    },
    Record {
        name: "PowerInfo",
        doc: "a power (`game:power_info`)",
        fields: &[
            field("name", FieldType::String, "its name"),
            field("side", FieldType::String, "its side"),
            field("ipcs", FieldType::Integer, "IPCs in hand"),
            field("techs", FieldType::Strings, "ids of the techs it holds"),
            field("counters", FieldType::Counters, "tokens and counts its data gives it to start with (`[powers.NAME] counters`: `{ tokens = 6 }`)"),
            field("economy_of", FieldType::String, "the power it is a second economy of (`[powers.NAME] economy_of`; `\"\"` for none)"),
        ],
    },
    Record {
        name: "UnitTypeInfo",
        doc: "a unit type (`game:unit_type`)",
        fields: &[
            field("id", FieldType::String, "its id"),
            field("name", FieldType::String, "its display name"),
            field("domain", FieldType::String, "`\"land\"`, `\"sea\"` or `\"air\"`"),
            field("tags", FieldType::Strings, "its tags"),
            field("cost", FieldType::Integer, "IPCs"),
            field("attack", FieldType::Integer, "attack value"),
            field("defense", FieldType::Integer, "defense value"),
            field("movement", FieldType::Integer, "movement allowance"),
            field("can_capture", FieldType::Boolean, "it takes territories it enters (infantry, tanks; not AAA)"),
        ],
    },
];

/// The record named `name`.
pub fn record(name: &str) -> Option<&'static Record> {
    RECORDS.iter().find(|r| r.name == name)
}

impl Record {
    /// Whether `v` is a map of some of this record's fields, each of its type.
    pub fn admits_part(&self, v: &Value) -> bool {
        matches!(v, Value::Map(m) if m.iter().all(|(k, x)| {
            self.fields.iter().any(|f| f.name == k && f.ty.admits(x))
        }))
    }

    /// Whether `v` is a map of exactly this record's fields, each of its type.
    pub fn admits(&self, v: &Value) -> bool {
        self.admits_part(v) && matches!(v, Value::Map(m) if m.len() == self.fields.len())
    }
}

const fn req(name: &'static str, luau: &'static str, doc: &'static str) -> RequestField {
    RequestField {
        name,
        luau,
        optional: false,
        doc,
    }
}

const fn opt(name: &'static str, luau: &'static str, doc: &'static str) -> RequestField {
    RequestField {
        name,
        luau,
        optional: true,
        doc,
    }
}

/// The options of `warroom.on` (`HandlerOptions`); `parse_options` reads them.
pub const HANDLER_OPTIONS: &[RequestField] = &[
    req("id", "string", "unique across all layers, `layer.rule` by convention; how later layers remove or replace the handler"),
    opt("priority", "number", "a whole number, default 0: higher runs first"),
    opt("filter", "{ [string]: any }", "`{ field = value }` or `{ field = { a, b } }`: run only when every named payload field equals (one of) the values; only the event's payload fields may be named"),
];

/// The request `command`, if the catalogue has it.
pub fn request(command: &str) -> Option<&'static RequestDoc> {
    REQUESTS.iter().find(|r| r.command == command)
}

impl RequestDoc {
    /// Every field of `cmd` besides `command` is one of this request's: a misspelt field is an
    /// error rather than silently ignored.
    pub fn check_fields(&self, cmd: &Value) -> Result<(), String> {
        let Value::Map(m) = cmd else { return Ok(()) };
        match m
            .keys()
            .find(|k| *k != "command" && !self.fields.iter().any(|f| f.name == *k))
        {
            None => Ok(()),
            Some(k) => {
                let names: Vec<&str> = self.fields.iter().map(|f| f.name).collect();
                Err(format!(
                    "{} takes no field `{k}` (fields: {})",
                    self.command,
                    names.join(", ")
                ))
            }
        }
    }
}

const OUTSIDE_BATTLES: &str = "`game_setup` and the events that report something (`turn_begin`, \
     `turn_end`, `phase_begin`, `phase_end`, `collect_income`, `territory_captured`, `neutral_attacked`, \
     `war_declared`, `victory_check`); refused in `validate_*` events";

/// The commands of `game:request`.
pub const REQUESTS: &[RequestDoc] = &[
    RequestDoc {
        command: "add_ipcs",
        fields: &[
            req("power", "string", "whose treasury"),
            opt(
                "amount",
                "number",
                "IPCs, a whole number from -1000 to 1000 (or `dice`)",
            ),
            opt(
                "dice",
                "number",
                "1 to 10: that many dice from the engine, summed (or `amount`)",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the power's treasury changes by that many IPCs (never below 0: the command fails \
              instead)",
    },
    RequestDoc {
        command: "gain_tech",
        fields: &[
            req("power", "string", "who gains it (a power's economy: the power)"),
            req("tech", "string", "a tech id (`[techs]`)"),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the power holds the tech from now on, as after a breakthrough (a starting advance, \
              one given for a bid); refused if it holds it already",
    },
    RequestDoc {
        command: "grant",
        fields: &[
            req("power", "string", "who gets them"),
            req("unit", "string", "a unit type id"),
            req("count", "number", "1 to 99"),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the units are given free, waiting to be mobilized like purchased ones",
    },
    RequestDoc {
        command: "set_control",
        fields: &[
            req("space", "string", "a territory (not a sea zone, not a neutral)"),
            req(
                "power",
                "string",
                "who holds it from now on (a power with two economies: the economy the territory lies in)",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the territory changes hands and nothing else does: no IPCs are taken, the units \
              there stay",
    },
    RequestDoc {
        command: "add_units",
        fields: &[
            req("power", "string", "whose units"),
            req("unit", "string", "a unit type id"),
            req("count", "number", "1 to 99"),
            req(
                "space",
                "string",
                "where they stand: land units in a territory, sea units at sea",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "new units of the power stand in the space at once (not bought, not placed)",
    },
    RequestDoc {
        command: "remove_units",
        fields: &[
            opt("power", "string", "whose units"),
            opt("unit", "string", "a unit type id"),
            opt("count", "number", "1 to 99, no more than are there"),
            opt("space", "string", "where they are"),
            opt(
                "units",
                "{ number }",
                "instead of the four fields above: these units, by id (1 to 99)",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: "outside battles as `add_ipcs`; in a battle's `before_combat_step` with `units` \
                  (units of the battle)",
        doc: "the units leave the board, with whatever they carry (of a type: those carrying \
              nothing first); in a battle they are destroyed before the step, as casualties",
    },
    RequestDoc {
        command: "move_units",
        fields: &[
            req("power", "string", "whose units"),
            req("unit", "string", "a unit type id"),
            req("count", "number", "1 to 99, no more than are there"),
            req("from", "string", "where they are"),
            req(
                "to",
                "string",
                "where they go: land units to a territory, sea units to sea",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the units (with whatever they carry) are set down in `to`, by no path and \
              whatever their movement: a transfer, not a move; they keep what they did this turn",
    },
    RequestDoc {
        command: "set_relation",
        fields: &[
            req("power", "string", "one power"),
            req("other", "string", "another power"),
            req(
                "relation",
                "\"war\" | \"peace\" | \"allied\"",
                "how they stand from now on",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the two powers stand so both ways (no `war_declared` event: that is the \
              `declare war` command's)",
    },
    RequestDoc {
        command: "take_neutral",
        fields: &[
            req("space", "string", "a neutral territory no power holds (strict, leaning to the power's side, or joined to it after an attack)"),
            req("power", "string", "who takes it"),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the power takes the territory as its land units would a friendly neutral in noncombat \
              move: its standing army stands as the power's units, the territory is the power's",
    },
    RequestDoc {
        command: "set_leaning",
        fields: &[
            req("space", "string", "a neutral territory not attacked yet"),
            req(
                "leaning",
                "string",
                "a side of this edition (`Axis`, `Allies`) or `strict`",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the territory leans that way from now on: friendly to that side's powers (entered \
              in noncombat move, taken at its end), unfriendly to the other's (an attack to enter); \
              `show` and `map` say it",
    },
    RequestDoc {
        command: "declare_winner",
        fields: &[
            req(
                "side",
                "string",
                "a side of this edition (`Axis`, `Allies`), or `none`",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: "`victory_check`",
        doc: "the game ends with that side's victory (refused when the engine's victory \
              conditions already named the other side this turn); `none` sets the engine's \
              verdict of this turn aside and the game goes on",
    },
    RequestDoc {
        command: "mark",
        fields: &[
            req(
                "units",
                "{ number }",
                "unit ids (1 to 99 of them, from `game:each_unit` or a battle's `combatants`)",
            ),
            req(
                "tag",
                "string",
                "the tag's name: letters, digits and `_`, at most 32",
            ),
            opt(
                "value",
                "number",
                "what it holds, -1000 to 1000 (default 1; 0 clears it)",
            ),
            opt(
                "add",
                "number",
                "instead of `value`: added to what it holds (a counter)",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: "the events outside battles that may ask for commands, and every battle event \
                  (`before_combat_step`, `after_combat_step`, `casualties`, `battle_end`: applied \
                  when the command fighting the battle has run)",
        doc: "the units carry the tag (shown by `show` and in every unit table) until a script \
              clears it; a unit that leaves the board takes its tags with it",
    },
    RequestDoc {
        command: "clear_mark",
        fields: &[
            req("tag", "string", "the tag's name"),
            opt(
                "units",
                "{ number }",
                "unit ids; without it, every unit carrying the tag",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: "where `mark` is",
        doc: "the tag is gone from those units",
    },
    RequestDoc {
        command: "replace_facility",
        fields: &[
            req("space", "string", "the territory"),
            req("facility", "string", "the facility type id standing there"),
            req("to", "string", "the facility type id it becomes"),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the facility becomes one of the other type, its damage kept within the new type's \
              cap (Global 1940's American complexes, major the moment the United States is at war)",
    },
    RequestDoc {
        command: "remove_facility",
        fields: &[
            req("space", "string", "the territory"),
            req("facility", "string", "the facility type id standing there"),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the facility leaves the game (a complex a rule destroys as its territory changes \
              hands)",
    },
    RequestDoc {
        command: "strike",
        fields: &[
            req("power", "string", "who strikes"),
            req("units", "{ number }", "the units struck, by id (1 to 99), one die each"),
            req("value", "number", "0 to 6: a hit on that or less"),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "one die at each unit (faces typed at the table first); a hit takes one of the unit's \
              hits: destroyed with what it carries, or damaged if it has more (attacks a rule makes \
              before any battle)",
    },
    RequestDoc {
        command: "no_bombardment",
        fields: &[
            req("space", "string", "a sea zone"),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "no ship in that sea zone bombards this turn",
    },
    RequestDoc {
        command: "set_value",
        fields: &[
            req("power", "string", "whose units"),
            req("unit", "string", "a unit type id"),
            req("value", "\"attack\" | \"defense\"", "which value"),
            req("to", "number", "0 to 6"),
            req(
                "lasts",
                "\"turn\" | \"removed\"",
                "until the turn in progress ends, or until `clear_value`",
            ),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the power's units of that type attack (or defend) at `to` in every battle begun \
              while it stands (a single unit's `combat_value` still overrides it); `show` lists \
              what stands",
    },
    RequestDoc {
        command: "clear_value",
        fields: &[
            req("power", "string", "whose units"),
            req("unit", "string", "a unit type id"),
            req("value", "\"attack\" | \"defense\"", "which value"),
            opt("reason", "string", "a non-empty text for the log"),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "what `set_value` set for that power, type and value is gone (refused when nothing is set)",
    },
    RequestDoc {
        command: "choose",
        fields: &[
            req("power", "string", "who answers"),
            req("question", "string", "one line of text, at most 200 characters"),
            req(
                "answers",
                "{ string }",
                "2 to 10 short answers (at most 40 characters, no quotes, not numbers)",
            ),
            opt(
                "key",
                "string",
                "what the `answer` event carries in `key` (default: the handler's id)",
            ),
            opt(
                "while_units",
                "{ number }",
                "unit ids: the question is asked only if one of them is on the board when the request is applied (after the requests before it)",
            ),
        ],
        allowed: OUTSIDE_BATTLES,
        doc: "the game waits for the power's answer (`answer strike`, or its number): every other \
              command but `undo` and `edit` is refused meanwhile; the answer fires `answer`. \
              Several questions are answered in the order asked",
    },
    RequestDoc {
        command: "combat_value",
        fields: &[
            req("side", "\"attacker\" | \"defender\"", "whose units"),
            opt("unit", "string", "a unit type id: that side's units of that type"),
            opt(
                "units",
                "{ number }",
                "instead of `unit`: these units (ids from `combatants`), of that side",
            ),
            req("value", "number", "0 to 6"),
            opt(
                "lasts",
                "\"battle\" | \"round\"",
                "to the end of the battle (the default) or of this round (`units` only)",
            ),
        ],
        allowed: "`before_combat_step`",
        doc: "the units fire at `value` from this step on (support still adds); for antiaircraft \
              units, what their fire hits on. A value set for single units wins over one set for \
              their type",
    },
    RequestDoc {
        command: "end_battle",
        fields: &[opt("reason", "string", "a non-empty text for the log")],
        allowed: "`before_combat_step`",
        doc: "the battle ends before the step: both sides keep the units they have there, the \
              defender keeps the territory (outcome `ended`); in a bombing raid, the step is \
              skipped",
    },
    RequestDoc {
        command: "fire",
        fields: &[
            req("side", "\"attacker\" | \"defender\"", "whose units fire"),
            req("unit", "string", "a unit type id"),
            req("value", "number", "0 to 6"),
            opt("dice", "number", "1 to 20: roll that many dice as units of the type would, whether or not any is there (kamikaze tokens)"),
        ],
        allowed: "`before_combat_step` of a script step",
        doc: "that side's units of that type roll one die each, hitting at `value` or less; the \
              hits go to the other side as those units' own would",
    },
    RequestDoc {
        command: "hits",
        fields: &[
            req("side", "\"attacker\" | \"defender\"", "the side taking them"),
            req("count", "number", "1 to 99"),
        ],
        allowed: "`before_combat_step` of a script step",
        doc: "that side takes hits without dice; its owner chooses the casualties",
    },
];

#[cfg(test)]
mod tests {
    use super::super::{Event, EventKind, GameView, ScriptHost, ScriptLimits};
    use super::*;
    use std::path::Path;

    fn keys(t: &mlua::Table) -> Vec<String> {
        let mut out = Vec::new();
        t.for_each::<mlua::Value, mlua::Value>(|k, _| {
            out.push(k.to_string().expect("a string key"));
            Ok(())
        })
        .expect("iterable");
        out.sort();
        out
    }

    fn sorted(names: impl IntoIterator<Item = &'static str>) -> Vec<String> {
        let mut v: Vec<String> = names.into_iter().map(str::to_owned).collect();
        v.sort();
        v
    }

    fn host() -> ScriptHost {
        let mut host = ScriptHost::new(ScriptLimits::default()).expect("host");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        host.load_layer("probe", dir, dir, &[], dir)
            .expect("an empty layer loads");
        host
    }

    #[test]
    fn the_environment_holds_exactly_the_catalogue() {
        let host = host();
        let base_names = BUILTINS
            .iter()
            .map(|g| g.name)
            .chain(LIBRARIES.iter().map(|l| l.name));
        assert_eq!(keys(&host.base), sorted(base_names), "builtins and libraries");
        for lib in LIBRARIES {
            let t: mlua::Table = host.base.raw_get(lib.name).expect("a library table");
            assert_eq!(
                keys(&t),
                sorted(lib.members.iter().copied()),
                "members of `{}`",
                lib.name
            );
            assert!(
                lib.members.is_sorted(),
                "`{}` members are listed sorted",
                lib.name
            );
        }
        // math is Luau's, less what would roll dice behind the engine's back.
        let luau_math: mlua::Table = host.lua.globals().get("math").expect("math");
        let mut expected: Vec<String> = keys(&luau_math);
        expected.retain(|k| k != "random" && k != "randomseed");
        let math = LIBRARIES.iter().find(|l| l.name == "math").expect("math");
        assert_eq!(
            sorted(math.members.iter().copied()),
            expected,
            "math: Luau's without random"
        );

        let reg = host.reg.borrow();
        let env = &reg.layers[0].env;
        assert_eq!(
            keys(env),
            sorted(LAYER_GLOBALS.iter().map(|g| g.name)),
            "layer globals"
        );
        let warroom: mlua::Table = env.raw_get("warroom").expect("warroom");
        assert_eq!(keys(&warroom), sorted(WARROOM.iter().map(|m| m.name)), "warroom");
        for m in WARROOM {
            let v: mlua::Value = warroom.raw_get(m.name).expect("member");
            assert_eq!(
                v.is_function(),
                m.kind == MemberKind::Function,
                "warroom.{}",
                m.name
            );
        }
    }

    /// Answers the view's questions with one of everything.
    struct View;

    impl GameView for View {
        fn round(&self) -> u32 {
            2
        }
        fn power(&self) -> &str {
            "Red"
        }
        fn phase(&self) -> &str {
            "purchase"
        }
        fn owner(&self, _: &str) -> Option<String> {
            Some("Red".into())
        }
        fn start_owner(&self, _: &str) -> Option<String> {
            Some("Red".into())
        }
        fn units_of(&self, _: &str) -> Vec<(String, String, u32)> {
            vec![("Alpha".into(), "infantry".into(), 2)]
        }
        fn treasury(&self, _: &str) -> Option<i64> {
            Some(30)
        }
        fn units(&self, _: &str) -> Vec<(String, String, u32)> {
            vec![("Red".into(), "infantry".into(), 2)]
        }
        fn relation(&self, _: &str, _: &str) -> Option<&'static str> {
            Some("war")
        }
        fn spaces(&self) -> Vec<String> {
            vec!["Alpha".into()]
        }
        fn powers(&self) -> Vec<String> {
            vec!["Red".into()]
        }
        fn space(&self, _: &str) -> Option<Value> {
            Some(example("SpaceInfo"))
        }
        fn power_info(&self, _: &str) -> Option<Value> {
            Some(example("PowerInfo"))
        }
        fn unit_type(&self, _: &str) -> Option<Value> {
            Some(example("UnitTypeInfo"))
        }
        fn each_unit(&self, _: &str) -> Vec<Value> {
            vec![example("UnitInfo")]
        }
        fn unit(&self, _: i64) -> Option<Value> {
            Some(example("UnitInfo"))
        }
        fn start_units(&self, _: &str) -> Vec<(String, String, u32)> {
            vec![("Red".into(), "infantry".into(), 1)]
        }
        fn battles(&self) -> Vec<Value> {
            vec![example("BattleInfo")]
        }
    }

    /// A value of a record, built from the catalogue.
    fn example(record: &str) -> Value {
        Value::map(record_fields(record).iter().map(|f| {
            let v = match f.ty {
                FieldType::Integer => Value::Int(1),
                FieldType::Boolean => Value::Bool(true),
                FieldType::Strings => Value::list(["x"]),
                FieldType::Units => Value::list([Value::map([("unit", "x")]).clone()]),
                FieldType::String | FieldType::Side => Value::from("attacker"),
                FieldType::Arguments => Value::map([("amount", Value::Int(1))]),
                FieldType::Counters => Value::map([("veteran", Value::Int(1))]),
                FieldType::Combatants => Value::list([example("Combatant")]),
            };
            (f.name, v)
        }))
    }

    fn record_fields(name: &str) -> &'static [PayloadField] {
        record(name).expect("catalogued").fields
    }

    #[test]
    fn every_game_member_answers_as_documented() {
        let mut host = ScriptHost::new(ScriptLimits::default()).expect("host");
        let dir = std::env::temp_dir().join(format!("warroom-api-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        // For each member: a value's Lua type, or what calling the method returns.
        let mut lua = String::from(
            "warroom.on(\"turn_begin\", { id = \"probe\" }, function(ev, game)\n  local seen = {}\n",
        );
        for m in GAME {
            let call = match m.kind {
                MemberKind::Value => format!("type(game.{})", m.name),
                _ => {
                    let args = m.params.split(',').filter(|p| !p.trim().is_empty()).count();
                    let args = match m.name {
                        "request" => "{ command = \"add_ipcs\", power = \"Red\", amount = 1 }".to_owned(),
                        "unit" => "1".to_owned(),
                        _ => vec!["\"Alpha\""; args].join(", "),
                    };
                    format!(
                        "type(game.{}) .. \":\" .. type((game:{}({args})))",
                        m.name, m.name
                    )
                }
            };
            lua.push_str(&format!("  table.insert(seen, \"{}=\" .. {call})\n", m.name));
        }
        lua.push_str("  warroom.log(table.concat(seen, \" \"))\nend)\n");
        std::fs::write(dir.join("probe.lua"), lua).expect("write");
        host.load_layer("probe", &dir, &dir, &["probe.lua".into()], &dir)
            .expect("the probe loads");
        let d = host
            .dispatch(&Event::new(EventKind::TurnBegin).with("power", "Red"), &View)
            .expect("the probe runs");
        std::fs::remove_dir_all(&dir).ok();
        let line = &d.log[0].message;
        for m in GAME {
            let expected = match (m.kind, m.returns) {
                (MemberKind::Value, _) => {
                    if m.params == "number" {
                        "number".to_owned()
                    } else {
                        "string".to_owned()
                    }
                }
                (_, "()") => "function:nil".to_owned(),
                (_, r) if r.starts_with('{') || r.ends_with("Info?") => "function:table".to_owned(),
                (_, r) if r.starts_with("number") => "function:number".to_owned(),
                _ => "function:string".to_owned(),
            };
            assert!(
                line.split(' ').any(|w| w == format!("{}={expected}", m.name)),
                "game.{}: expected {expected} in {line}",
                m.name
            );
        }
        assert_eq!(d.requests.len(), 1, "game:request queued the command");
    }

    #[test]
    fn every_handler_option_is_accepted() {
        let lua = mlua::Lua::new();
        let mut opts = String::from("return {");
        for o in HANDLER_OPTIONS {
            let v = match o.name {
                "id" => "\"probe.all\"",
                "priority" => "3",
                "filter" => "{ power = \"Red\" }",
                other => panic!("no example for option {other}"),
            };
            opts.push_str(&format!(" {} = {v},", o.name));
        }
        opts.push('}');
        let t: mlua::Table = lua.load(opts).eval().expect("valid Lua");
        let parsed = super::super::parse_options(&t, EventKind::TurnBegin);
        assert_eq!(
            parsed.map(|(id, p, f)| (id, p, f.len())),
            Ok(("probe.all".to_owned(), 3, 1))
        );
    }

    #[test]
    fn every_entry_is_documented() {
        let all = BUILTINS.iter().chain(LAYER_GLOBALS).map(|g| (g.name, g.doc));
        let members = WARROOM.iter().chain(GAME).map(|m| (m.name, m.doc));
        for (name, doc) in all.chain(members) {
            assert!(!doc.trim().is_empty(), "`{name}` has no description");
        }
        for r in RECORDS {
            assert!(r.fields.iter().all(|f| !f.doc.trim().is_empty()), "{}", r.name);
        }
        for r in REQUESTS {
            assert!(r.fields.iter().all(|f| !f.doc.trim().is_empty()), "{}", r.command);
            assert!(!r.allowed.is_empty() && !r.doc.is_empty(), "{}", r.command);
        }
    }
}
