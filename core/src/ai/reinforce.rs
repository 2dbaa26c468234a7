//! Noncombat moves: aircraft that must land are landed first (nearest the front among the
//! places they can reach); then land units march towards the front, a stack at a time, from
//! spaces that are not on it already and can spare them.

use super::sight::{Sight, FAR};
use super::Choice;
use crate::game::command::{Command, Move, Pick};
use crate::game::Game;
use crate::rules::{Domain, SpaceId};

pub(super) fn next(game: &mut Game) -> Option<Choice> {
    let rules = game.rules().clone();
    let me = game.current_power();
    let s = game.state().clone();
    let sight = Sight::new(&rules, &s, me);
    let front = sight.front();
    let mv = |units: Vec<Pick>, from: SpaceId, to: SpaceId| {
        Command::Move(Move {
            units,
            from,
            to,
            via: Vec::new(),
            ignore: false,
            bombing: false,
            target: None,
            airborne: false,
        })
    };
    for u in game.unlanded_air() {
        let mut landings = u.landings.clone();
        landings.sort_by_key(|sp| front[sp.index()].saturating_sub(1));
        for to in landings {
            let c = mv(vec![Pick::Id(u.id)], u.space, to);
            if game.dry_run(&c).is_ok() {
                let why = format!(
                    "lands the {} from {} in {}",
                    rules.unit(u.kind).name,
                    rules.board.space(u.space).name,
                    rules.board.space(to).name
                );
                return Some(Choice::new(c, why));
            }
        }
    }
    // Land stacks behind the front, farthest first.
    let mut sources: Vec<SpaceId> = rules
        .board
        .ids()
        .filter(|sp| {
            !sight.is_sea(*sp)
                && front[sp.index()] != FAR
                && front[sp.index()] > 1
                && sight.own_units(*sp).any(|u| rules.unit(u.kind).domain == Domain::Land)
        })
        .collect();
    sources.sort_by_key(|sp| (std::cmp::Reverse(front[sp.index()]), *sp));
    for from in sources {
        let spare = sight.spare(from);
        let here = front[from.index()];
        let mut moves: Vec<(u32, Command, String)> = Vec::new();
        for c in game.candidate_moves_from(from) {
            let Command::Move(m) = &c else { continue };
            let [Pick::Kind { kind, count: 1 }] = m.units[..] else {
                continue;
            };
            let t = rules.unit(kind);
            let there = front[m.to.index()];
            if t.domain != Domain::Land || sight.is_sea(m.to) || there >= here {
                continue;
            }
            let n = sight
                .own_units(from)
                .filter(|u| u.kind == kind && u.aboard.is_none() && spare.contains(&u.id))
                .count() as u32;
            if n == 0 {
                continue;
            }
            let why = format!(
                "moves {} towards the front: {} to {} ({there} step(s) from it)",
                t.name,
                rules.board.space(from).name,
                rules.board.space(m.to).name
            );
            moves.push((there, mv(vec![Pick::Kind { kind, count: n }], from, m.to), why));
        }
        moves.sort_by_key(|(d, ..)| *d);
        for (_, c, why) in moves {
            if game.dry_run(&c).is_ok() {
                return Some(Choice::new(c, why));
            }
        }
    }
    None
}
