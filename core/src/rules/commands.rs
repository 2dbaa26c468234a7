//! The `[commands]` section: commands a layer adds to the game's language. The player gives
//! one in the phases it names; the engine reads its arguments, fires the `command` event, and
//! the layer's rule scripts carry it out (with `game:request`) or refuse it (a veto).
//!
//! ```toml
//! [commands.lend]
//! help = "give the United Kingdom or the Soviet Union up to 5 IPCs"
//! example = 'lend 5 "Soviet Union"'
//! phases = ["lend_lease"]
//! args = [
//!   { name = "amount", kind = "number", min = 1, max = 5 },
//!   { name = "to", kind = "power" },
//! ]
//! ```

use super::build::unknown_name;
use super::read::{Ctx, Fields};
use super::schema::{Field, Table};
use super::{Phase, PhaseId};
use crate::tree::{Entry, Value};

/// A command a layer declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerCommand {
    /// Its verb, lower case (`lend`).
    pub name: String,
    pub help: String,
    pub example: String,
    /// The phases it may be given in.
    pub phases: Vec<PhaseId>,
    pub args: Vec<CommandArg>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandArg {
    pub name: String,
    pub kind: ArgKind,
}

/// What an argument is: a whole number in a range, or the name of a power, a space or a unit
/// type of the edition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    Number { min: i64, max: i64 },
    Power,
    Space,
    Unit,
}

/// The verbs of the engine's own commands (and their other spellings) and of `warroom play`'s
/// (which it reads first): a layer's command may not take one. Tests hold both lists to it.
#[rustfmt::skip]
pub const BUILT_IN_VERBS: &[&str] = &[
    "buy", "end", "done", "end-phase", "move", "mv", "place", "mobilize", "undo", "edit", "fight",
    "battle", "casualties", "lose", "press", "disagree", "retreat", "submerge", "roll", "order",
    "dice", "research", "breakthrough", "rocket", "repair", "play", "declare", "answer", "scramble", "intercept", "ask",
    // `warroom play`'s own.
    "help", "?", "status", "players", "seat", "relations", "battles", "odds", "show", "moves",
    "options", "units", "map", "log", "why", "layers", "save", "reload", "record", "load", "quit", "report", "objectives", "victory", "hint",
    "exit",
];

/// The widest range a number argument may span (the legal actions list each value).
pub const MAX_NUMBER_SPAN: i64 = 100;

/// `[commands.<command>]`.
pub(crate) static COMMAND: Table = Table {
    path: "commands.<command>",
    doc: "A command a layer adds (its key is the verb the player types, lower case): given in \
          the phases listed, its arguments read in order, then the `command` event is fired and \
          the layer's rule scripts carry it out or refuse it (docs/events.md).",
    fields: &[
        Field::req("help", "string", "one line for `help`: what the command does"),
        Field::req("example", "string", "the command as a player types it"),
        Field::req("phases", "[string]", "the ids of the phases it may be given in"),
        Field::def(
            "args",
            "[table]",
            "[]",
            "its arguments, in the order typed: `commands.<command>.args[]`",
        ),
    ],
};

/// `[commands.<command>] args = [...]`, each.
pub(crate) static ARG: Table = Table {
    path: "commands.<command>.args[]",
    doc: "One argument of a layer's command. A name with spaces is typed in quotes unless it \
          is the last argument.",
    fields: &[
        Field::req("name", "string", "the argument's name in the event's `args`"),
        Field::req("kind", "string", "what it is").one_of(&["number", "power", "space", "unit"]),
        Field::opt("min", "int", "for a number: the smallest allowed (required)"),
        Field::opt(
            "max",
            "int",
            "for a number: the largest allowed (required; at most 100 more than `min`)",
        ),
    ],
};

pub fn read_commands(ctx: &mut Ctx, e: Option<&Entry>, phases: &[Phase]) -> Vec<LayerCommand> {
    let Some(e) = e else { return Vec::new() };
    let Some(all) = Fields::names_of(ctx, &e.node, "commands") else {
        return Vec::new();
    };
    let phase_ids: Vec<String> = phases.iter().map(|p| p.id.clone()).collect();
    let mut out = Vec::new();
    for (name, ce) in &all.table.entries {
        let path = format!("commands.{name}");
        let Some(mut f) = Fields::of(ctx, &ce.node, &path, &COMMAND) else {
            continue;
        };
        let mut ok = true;
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !valid {
            ctx.error_at(
                &ce.node,
                "schema::bad-value",
                format!("`{name}` is not a command name: lower-case letters, digits and `_`, starting with a letter"),
                "the verb the player types",
            );
            ok = false;
        } else if BUILT_IN_VERBS.contains(&name.as_str()) {
            ctx.error_at(
                &ce.node,
                "schema::bad-value",
                format!(
                    "`{name}` is a command of the engine's own; a layer's command needs a verb of its own"
                ),
                "already a command",
            );
            ok = false;
        }
        let help = f.req_str(ctx, "help");
        let example = f.req_str(ctx, "example");
        let mut ids = Vec::new();
        for (p, pn) in f.str_list(ctx, "phases") {
            match phase_ids.iter().position(|id| *id == p) {
                Some(i) => ids.push(PhaseId(i as u8)),
                None => {
                    unknown_name(ctx, pn, "phase", &p, &phase_ids);
                    ok = false;
                }
            }
        }
        if ids.is_empty() && ok {
            ctx.error_at(
                f.node,
                "schema::bad-value",
                format!("`{path}.phases` is empty"),
                "the command could never be given",
            );
            ok = false;
        }
        let args = match f.get("args") {
            None => Some(Vec::new()),
            Some(n) => read_args(ctx, n, &path),
        };
        f.finish(ctx);
        if let (true, Some(help), Some(example), Some(args)) = (ok, help, example, args) {
            out.push(LayerCommand {
                name: name.clone(),
                help,
                example,
                phases: ids,
                args,
            });
        }
    }
    out
}

fn read_args(ctx: &mut Ctx, n: &crate::tree::Node, path: &str) -> Option<Vec<CommandArg>> {
    let Value::Array(items) = &n.value else {
        ctx.type_error(n, &format!("{path}.args"), "an array of tables");
        return None;
    };
    let mut args: Vec<CommandArg> = Vec::new();
    let mut ok = true;
    for (i, item) in items.iter().enumerate() {
        let at = format!("{path}.args[{i}]");
        let Some(mut f) = Fields::of(ctx, item, &at, &ARG) else {
            ok = false;
            continue;
        };
        let name = f.req_str(ctx, "name");
        let kind = f.req_choice(
            ctx,
            "kind",
            &[("number", 0u8), ("power", 1), ("space", 2), ("unit", 3)],
        );
        let (min, max) = (f.int(ctx, "min"), f.int(ctx, "max"));
        let kind = match (kind, min, max) {
            (Some(0), Some(min), Some(max)) if min <= max && max - min < MAX_NUMBER_SPAN => {
                Some(ArgKind::Number { min, max })
            }
            (Some(0), ..) => {
                ctx.error_at(
                    item,
                    "schema::bad-value",
                    format!("`{at}` is a number: it needs `min` and `max`, with `min` <= `max` and at most {MAX_NUMBER_SPAN} values"),
                    "the range of the number",
                );
                None
            }
            (Some(k), None, None) => Some(match k {
                1 => ArgKind::Power,
                2 => ArgKind::Space,
                _ => ArgKind::Unit,
            }),
            (Some(_), ..) => {
                ctx.error_at(
                    item,
                    "schema::bad-value",
                    format!("`{at}`: `min` and `max` are for numbers only"),
                    "not a number",
                );
                None
            }
            (None, ..) => None,
        };
        f.finish(ctx);
        match (name, kind) {
            (Some(name), Some(kind)) => {
                if args.iter().any(|a| a.name == name) {
                    ctx.error_at(
                        item,
                        "schema::bad-value",
                        format!("`{path}` has two arguments named `{name}`"),
                        "a second one",
                    );
                    ok = false;
                }
                args.push(CommandArg { name, kind });
            }
            _ => ok = false,
        }
    }
    ok.then_some(args)
}
