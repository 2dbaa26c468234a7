//! `[players]`: how many people may play, and which powers a player must play together.
//!
//! ```toml
//! [players]
//! min = 2                       # default 1
//! max = 6                       # default: one player per power
//! same_side = true              # a player's powers are all on one side (default)
//! together = [
//!   { powers = ["Blue", "Green"] },            # always one player's
//!   { powers = ["Red", "Pink"], below = 4 },   # one player's when fewer than 4 play
//!   { powers = ["Red", "Gold"], at_least = 4 },# one player's when 4 or more play
//! ]
//! ```
//!
//! The game's dealing of powers to players (`game::seats`) reads these; nothing else does.

use super::build::unknown_name;
use super::read::{Ctx, Fields};
use super::schema::{Field, Table};
use super::{Power, PowerId};
use crate::tree::{Node, Value};

/// Powers one player plays together, always or for some numbers of players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Together {
    pub powers: Vec<PowerId>,
    /// Only when fewer than this many play.
    pub below: Option<u32>,
    /// Only when at least this many play.
    pub at_least: Option<u32>,
}

impl Together {
    pub fn applies(&self, players: u32) -> bool {
        self.below.is_none_or(|b| players < b) && self.at_least.is_none_or(|a| players >= a)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Players {
    pub min: u32,
    /// `None`: one player per power at most.
    pub max: Option<u32>,
    pub same_side: bool,
    pub together: Vec<Together>,
}

impl Default for Players {
    fn default() -> Self {
        Players {
            min: 1,
            max: None,
            same_side: true,
            together: Vec::new(),
        }
    }
}

/// `[players]`.
pub(crate) static PLAYERS: Table = Table {
    path: "players",
    doc: "How many people may play and which powers one player plays together; read only to \
          deal the powers to the players (`--players N`, `players`, `seat`).",
    fields: &[
        Field::def("min", "int", "1", "fewest players"),
        Field::def(
            "max",
            "int",
            "one per power",
            "most players (never more than the powers that play)",
        ),
        Field::def(
            "same_side",
            "bool",
            "true",
            "a player's powers are all on one side",
        ),
        Field::def(
            "together",
            "[table]",
            "[]",
            "powers one player plays together: `players.together[]`",
        ),
    ],
};

/// `[[players.together]]`.
pub(crate) static TOGETHER: Table = Table {
    path: "players.together[]",
    doc: "A group of powers one player plays, always or for some numbers of players.",
    fields: &[
        Field::req(
            "powers",
            "[string]",
            "two or more powers (of one side when `same_side`)",
        ),
        Field::opt("below", "int", "only when fewer than this many play"),
        Field::opt("at_least", "int", "only when at least this many play"),
    ],
};

pub(super) fn read_players(ctx: &mut Ctx, e: Option<&Node>, powers: &[Power]) -> Players {
    let mut out = Players::default();
    let Some(node) = e else {
        return out;
    };
    let Some(mut f) = Fields::of(ctx, node, "players", &PLAYERS) else {
        return out;
    };
    out.min = f.uint(ctx, "min", 1);
    if out.min == 0 {
        if let Some(n) = f.table.get("min") {
            ctx.error_at(
                n,
                "schema::bad-value",
                "`players.min` must be at least 1".into(),
                "no players",
            );
        }
        out.min = 1;
    }
    out.max = f.opt_uint(ctx, "max");
    if let (Some(max), Some(n)) = (out.max, f.table.get("max")) {
        if max < out.min {
            ctx.error_at(
                n,
                "schema::bad-value",
                format!("`players.max` ({max}) is less than `players.min` ({})", out.min),
                "fewer than the minimum",
            );
        }
    }
    out.same_side = f.bool(ctx, "same_side", true);
    let names: Vec<String> = powers.iter().map(|p| p.name.clone()).collect();
    if let Some(list) = f.get("together") {
        match &list.value {
            Value::Array(items) => {
                for item in items {
                    if let Some(t) = read_group(ctx, item, &names, powers, out.same_side) {
                        out.together.push(t);
                    }
                }
            }
            _ => ctx.type_error(list, "players.together", "an array of tables"),
        }
    }
    f.finish(ctx);
    out
}

fn read_group(
    ctx: &mut Ctx,
    item: &Node,
    names: &[String],
    powers: &[Power],
    same_side: bool,
) -> Option<Together> {
    let mut g = Fields::of(ctx, item, "players.together", &TOGETHER)?;
    let listed = g.str_list(ctx, "powers");
    if g.table.get("powers").is_none() {
        g.required(ctx, "powers");
    }
    let below = g.opt_uint(ctx, "below");
    let at_least = g.opt_uint(ctx, "at_least");
    g.finish(ctx);
    let mut group = Vec::new();
    let mut ok = true;
    for (name, n) in &listed {
        match names.iter().position(|p| p == name) {
            Some(i) if group.contains(&PowerId(i as u8)) => {
                ctx.error_at(
                    n,
                    "schema::duplicate",
                    format!("`{name}` is listed twice in one group"),
                    "listed again",
                );
                ok = false;
            }
            Some(i) => group.push(PowerId(i as u8)),
            None => {
                unknown_name(ctx, n, "power", name, names);
                ok = false;
            }
        }
    }
    if !ok || listed.is_empty() {
        return None;
    }
    if group.len() < 2 {
        ctx.error_at(
            item,
            "schema::bad-value",
            "a group of `players.together` names at least two powers".into(),
            "one power",
        );
        return None;
    }
    if same_side {
        let side = &powers[group[0].index()].side;
        if let Some((other, n)) = listed.iter().find(|(name, _)| {
            names
                .iter()
                .position(|p| p == name)
                .is_some_and(|i| &powers[i].side != side)
        }) {
            ctx.error_at(
                n,
                "schema::conflict",
                format!("a player's powers are all on one side, but {other} is not of the {side}"),
                "another side",
            )
            .help = Some("set `same_side = false` for a table where one player may play both sides".into());
            return None;
        }
    }
    Some(Together {
        powers: group,
        below,
        at_least,
    })
}
