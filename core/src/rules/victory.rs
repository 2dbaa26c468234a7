//! The `[victory]` section: how a side wins, as data.
//!
//! Each condition names a side, the moment it is checked (when one power's turn ends, or when
//! a complete round ends) and a set of spaces the side must hold enough of (a list of
//! territories, or every victory city on the board).
//!
//! ```toml
//! [victory.north]
//! side = "North"
//! after_turn_of = "Blue"               # or: end_of_round = true
//! spaces = ["Alpha", "Beta", "Gamma"]  # or: victory_cities = true
//! count = 2                            # default: all of them
//! ```

use super::build::unknown_name;
use super::read::{Ctx, Fields};
use super::schema::{Field, Table};
use super::{Board, Power, PowerId, SpaceId};
use crate::diag::Problem;
use crate::tree::{closest_key, Entry};

/// When a victory condition is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VictoryCheck {
    /// When this power's turn ends.
    AfterTurnOf(PowerId),
    /// When the last power of the scenario's turn order has played (a complete round).
    EndOfRound,
}

/// One way to win: `side` holds at least `count` of `spaces` at the moment `check` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VictoryCondition {
    /// The key of the condition (`victory.ID`).
    pub id: String,
    pub side: String,
    pub check: VictoryCheck,
    pub spaces: Vec<SpaceId>,
    pub count: u32,
}

/// `[victory.<condition>]`.
pub(crate) static VICTORY: Table = Table {
    path: "victory.<condition>",
    doc: "One way to win, checked in data order: `side` wins when its powers control at least \
          `count` of the spaces at the moment named. Exactly one of `after_turn_of` / \
          `end_of_round = true`, and one of `spaces` / `victory_cities = true`.",
    fields: &[
        Field::req("side", "string", "the side that wins (a `side` of `[powers]`)"),
        Field::opt(
            "after_turn_of",
            "string",
            "checked when this power's turn ends (its host's, for a power playing within another's turn)",
        ),
        Field::def(
            "end_of_round",
            "bool",
            "false",
            "checked when the last power of the turn order has played",
        ),
        Field::opt("spaces", "[string]", "the territories to hold"),
        Field::def(
            "victory_cities",
            "bool",
            "false",
            "the spaces to hold are every space with a `victory_city`",
        ),
        Field::def(
            "count",
            "int",
            "all of the spaces",
            "how many of the spaces the side must hold",
        ),
    ],
};

pub fn read_victory(
    ctx: &mut Ctx,
    e: Option<&Entry>,
    powers: &[Power],
    board: &Board,
) -> Vec<VictoryCondition> {
    let Some(e) = e else { return Vec::new() };
    let Some(all) = Fields::names_of(ctx, &e.node, "victory") else {
        return Vec::new();
    };
    let mut sides: Vec<String> = Vec::new();
    for p in powers {
        if !sides.contains(&p.side) {
            sides.push(p.side.clone());
        }
    }
    let power_names: Vec<String> = powers.iter().map(|p| p.name.clone()).collect();
    let space_names: Vec<String> = board.spaces.iter().map(|s| s.name.clone()).collect();
    let mut out = Vec::new();
    for (id, ce) in &all.table.entries {
        let path = format!("victory.{id}");
        let Some(mut f) = Fields::of(ctx, &ce.node, &path, &VICTORY) else {
            continue;
        };
        let side = match (f.get("side"), f.req_str(ctx, "side")) {
            (Some(n), Some(s)) if !sides.contains(&s) => {
                let p = ctx.error_at(
                    n,
                    "schema::unknown-name",
                    format!("unknown side `{s}`"),
                    "no power is on this side",
                );
                p.help = Some(match closest_key(&s, sides.iter().map(String::as_str)) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None => format!("sides: {}", sides.join(", ")),
                });
                None
            }
            (_, s) => s,
        };

        let after = f.get("after_turn_of");
        let round_node = f.get("end_of_round");
        let end_of_round = f.bool(ctx, "end_of_round", false);
        let check = match (after, end_of_round) {
            (Some(n), false) => {
                super::read::as_str(ctx, n, &format!("{path}.after_turn_of")).and_then(|name| {
                    match power_names.iter().position(|p| *p == name) {
                        Some(i) => Some(VictoryCheck::AfterTurnOf(PowerId(i as u8))),
                        None => {
                            unknown_name(ctx, n, "power", &name, &power_names);
                            None
                        }
                    }
                })
            }
            (None, true) => Some(VictoryCheck::EndOfRound),
            (Some(n), true) => {
                let at = round_node.unwrap_or(n);
                let p = Problem::new(
                    "schema::bad-value",
                    format!("`{path}` sets both `after_turn_of` and `end_of_round`"),
                )
                .at(at.origin.label(ctx.sources, "one moment only"))
                .also(n.origin.label(ctx.sources, "`after_turn_of` is set here"))
                .help("keep one of them");
                ctx.problems.push(p);
                None
            }
            (None, false) => {
                ctx.error_at(
                    f.node,
                    "schema::missing-field",
                    format!("`{path}` says nothing about when it is checked"),
                    "no `after_turn_of` or `end_of_round = true`",
                )
                .help = Some("add `after_turn_of = \"POWER\"` or `end_of_round = true`".into());
                None
            }
        };

        let spaces_node = f.get("spaces");
        let vc_node = f.get("victory_cities");
        let by_vc = f.bool(ctx, "victory_cities", false);
        let mut spaces = Vec::new();
        let mut spaces_ok = true;
        match (spaces_node, by_vc) {
            (Some(n), false) => {
                for (s, sn) in super::read::str_list(ctx, n, &format!("{path}.spaces")) {
                    match board.find(&s) {
                        Some(id) if board.space(id).is_sea() => {
                            ctx.error_at(
                                sn,
                                "schema::bad-value",
                                format!("`{s}` is a sea zone; sea zones are not controlled"),
                                "not a territory",
                            );
                            spaces_ok = false;
                        }
                        Some(id) => {
                            if !spaces.contains(&id) {
                                spaces.push(id);
                            }
                        }
                        None => {
                            unknown_name(ctx, sn, "space", &s, &space_names);
                            spaces_ok = false;
                        }
                    }
                }
                if spaces.is_empty() && spaces_ok {
                    ctx.error_at(
                        n,
                        "schema::bad-value",
                        format!("`{path}.spaces` is empty"),
                        "no space to hold",
                    );
                    spaces_ok = false;
                }
            }
            (None, true) => {
                spaces = board
                    .ids()
                    .filter(|id| board.space(*id).victory_city.is_some())
                    .collect();
                if spaces.is_empty() {
                    ctx.error_at(
                        vc_node.unwrap_or(f.node),
                        "schema::bad-value",
                        format!("`{path}` counts victory cities, but the board has none"),
                        "no space has a `victory_city`",
                    );
                    spaces_ok = false;
                }
            }
            (Some(n), true) => {
                let p = Problem::new(
                    "schema::bad-value",
                    format!("`{path}` sets both `spaces` and `victory_cities = true`"),
                )
                .at(vc_node
                    .unwrap_or(n)
                    .origin
                    .label(ctx.sources, "one set of spaces only"))
                .also(n.origin.label(ctx.sources, "`spaces` is set here"))
                .help("keep one of them");
                ctx.problems.push(p);
                spaces_ok = false;
            }
            (None, false) => {
                ctx.error_at(
                    f.node,
                    "schema::missing-field",
                    format!("`{path}` names no spaces to hold"),
                    "no `spaces` or `victory_cities = true`",
                )
                .help = Some("add `spaces = [\"TERRITORY\", ...]` or `victory_cities = true`".into());
                spaces_ok = false;
            }
        }

        let count_node = f.get("count");
        let count = match count_node {
            None => Some(spaces.len() as u32),
            Some(n) => super::read::as_uint(ctx, n, &format!("{path}.count")).and_then(|c| {
                if spaces_ok && (c == 0 || c as usize > spaces.len()) {
                    ctx.error_at(
                        n,
                        "schema::bad-value",
                        format!("`{path}.count` must be between 1 and {}, found {c}", spaces.len()),
                        "out of range",
                    );
                    None
                } else {
                    Some(c)
                }
            }),
        };
        f.finish(ctx);
        if let (Some(side), Some(check), Some(count), true) = (side, check, count, spaces_ok) {
            out.push(VictoryCondition {
                id: id.clone(),
                side,
                check,
                spaces,
                count,
            });
        }
    }
    out
}
