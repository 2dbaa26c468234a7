//! `reload`: the rules rebuilt from disk in the middle of a game.
//!
//! A game is its origin (edition, layers, scenario, seed) and its commands: that is what a save
//! holds and what loading replays. Reloading is the same: the new rule set is built and checked,
//! then the game's commands are replayed under it. The game that results is exactly the one a
//! save made afterwards loads back to, so a reload never leaves a save that cannot be read. If
//! the rules do not check clean, or a command of the game so far is refused under them, nothing
//! changes and the reason is given.

use super::{check_scripts, Game};
use crate::layers::LoadRequest;
use crate::rules::RuleSet;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Why the game stays under its old rules.
#[derive(Debug)]
pub enum ReloadError {
    /// The layers on disk do not make a rule set.
    Rules(crate::rules::LoadError),
    /// A script does not load.
    Scripts(crate::script::ScriptError),
    /// The game cannot start, or a command of it is refused, under the new rules.
    Replay(String),
}

impl std::fmt::Display for ReloadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReloadError::Rules(e) => write!(f, "{e}"),
            ReloadError::Scripts(e) => write!(f, "{e}"),
            ReloadError::Replay(m) => f.write_str(m),
        }
    }
}

/// The game under the new rules, and how the board differs from before.
pub struct Reloaded {
    pub game: Game,
    /// One line per difference a player can see, by name; empty when the board is the same.
    pub changes: Vec<String>,
}

impl Game {
    /// The game replayed under the rules as they are on disk now (`editions_dir` as at start).
    pub fn reload(&self, editions_dir: &Path) -> Result<Reloaded, ReloadError> {
        let o = self.origin();
        let mut req = LoadRequest::new(editions_dir, o.edition.clone());
        req.with = o.with.clone();
        let rules = crate::rules::load(&req).map_err(ReloadError::Rules)?;
        check_scripts(&rules).map_err(ReloadError::Scripts)?;
        let mut game = Game::new(Arc::new(rules), &o.edition, &o.with, Some(&o.scenario), o.seed)
            .map_err(|e| ReloadError::Replay(format!("the game cannot start under the new rules: {e}")))?;
        for (i, r) in self.history().iter().enumerate() {
            game.execute(&r.text).map_err(|e| {
                ReloadError::Replay(format!(
                    "command {} of this game, `{}`, is refused under the new rules: {e}",
                    i + 1,
                    r.text
                ))
            })?;
        }
        if let Some(seats) = self.seats() {
            let mut players = Vec::new();
            for pl in &seats.players {
                let mut powers = Vec::new();
                for p in pl {
                    let name = &self.rules().power_info(*p).name;
                    let id = game.rules().power(name).ok_or_else(|| {
                        ReloadError::Replay(format!("{name}, seated at the table, is not a power any more"))
                    })?;
                    powers.push(id);
                }
                players.push(powers);
            }
            game.seat_players(players)
                .map_err(|e| ReloadError::Replay(format!("the seating breaks the new rules: {e}")))?;
        }
        let changes = differences(self, &game);
        Ok(Reloaded { game, changes })
    }
}

/// What a player would see change on the board, by name (ids may differ between rule sets).
fn differences(old: &Game, new: &Game) -> Vec<String> {
    let mut out = Vec::new();
    let (ro, rn) = (old.rules(), new.rules());
    let (so, sn) = (old.state(), new.state());
    let at = |g: &Game| {
        format!(
            "round {}, {}, {}",
            g.state().round,
            g.rules().power_info(g.current_power()).name,
            g.current_phase().title
        )
    };
    if at(old) != at(new) {
        out.push(format!("now at {} (was {})", at(new), at(old)));
    }
    let treasuries = |r: &RuleSet, s: &super::state::State| -> BTreeMap<String, i64> {
        r.powers
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), s.treasuries.get(i).copied().unwrap_or(0)))
            .collect()
    };
    let (to, tn) = (treasuries(ro, so), treasuries(rn, sn));
    for (name, after) in &tn {
        let before = to.get(name).copied().unwrap_or(0);
        if before != *after {
            out.push(format!("{name} has {after} IPCs (was {before})"));
        }
    }
    // Per space: controller, and units per (owner, type).
    type Units = BTreeMap<(String, String), u32>;
    let board = |r: &RuleSet, s: &super::state::State| -> BTreeMap<String, (Option<String>, Units)> {
        let mut m = BTreeMap::new();
        for (i, sp) in s.spaces.iter().enumerate() {
            let name = r.board.spaces[i].name.clone();
            let owner = sp.controller.map(|p| r.power_info(p).name.clone());
            let mut units: Units = BTreeMap::new();
            for u in &sp.units {
                *units
                    .entry((r.power_info(u.owner).name.clone(), r.unit(u.kind).name.clone()))
                    .or_default() += 1;
            }
            m.insert(name, (owner, units));
        }
        m
    };
    let (bo, bn) = (board(ro, so), board(rn, sn));
    let none = (None, Units::new());
    for (space, (owner, units)) in &bn {
        let (was_owner, was_units) = bo.get(space).unwrap_or(&none);
        if owner != was_owner {
            let who = |o: &Option<String>| o.clone().unwrap_or_else(|| "nobody".into());
            out.push(format!(
                "{space} is held by {} (was {})",
                who(owner),
                who(was_owner)
            ));
        }
        let list = |u: &Units| -> String {
            if u.is_empty() {
                return "no units".into();
            }
            u.iter()
                .map(|((p, k), n)| format!("{p} {n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if units != was_units {
            out.push(format!("{space}: {} (was {})", list(units), list(was_units)));
        }
    }
    if so.winner != sn.winner {
        out.push(match &sn.winner {
            Some(w) => format!("the game is won: {w}"),
            None => "the game is no longer won".into(),
        });
    }
    out
}
