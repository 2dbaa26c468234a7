//! Placement: each unit bought goes to the space nearest the front where the game accepts
//! it, as many at once as it takes there.

use super::sight::{Sight, FAR};
use super::Choice;
use crate::game::command::Command;
use crate::game::Game;
use crate::rules::Piece;

pub(super) fn next(game: &mut Game) -> Option<Choice> {
    let rules = game.rules().clone();
    let me = game.current_power();
    let s = game.state().clone();
    let waiting = s.purchased.get(me.index())?.clone();
    let sight = Sight::new(&rules, &s, me);
    let front = sight.front();
    let mut spaces: Vec<_> = crate::game::mobilize::unit_spaces(&rules, &s, me);
    // Nearest the front first; a sea zone as near as the nearest territory beside it.
    let near = |sp: crate::rules::SpaceId| -> u32 {
        if sight.is_sea(sp) {
            rules
                .board
                .space(sp)
                .adjacent
                .iter()
                .map(|a| front[a.index()])
                .min()
                .unwrap_or(FAR)
        } else {
            front[sp.index()]
        }
    };
    spaces.sort_by_key(|sp| (near(*sp), *sp));
    for (piece, n) in waiting {
        if n == 0 {
            continue;
        }
        for &space in &spaces {
            let place = |count| Command::Place { piece, count, space };
            if game.dry_run(&place(1)).is_err() {
                continue;
            }
            // As many as the space takes: the accepted counts run from 1 up to some limit.
            let (mut lo, mut hi) = (1, n);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if game.dry_run(&place(mid)).is_ok() {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            let what = match piece {
                Piece::Unit(k) => rules.unit(k).name.clone(),
                Piece::Facility(f) => rules.facilities[f.index()].name.clone(),
            };
            let name = &rules.board.space(space).name;
            let why = match near(space) {
                FAR => format!("places {lo} {what} in {name}"),
                d => format!("places {lo} {what} in {name}, {d} step(s) from the front"),
            };
            return Some(Choice::new(place(lo), why));
        }
    }
    None
}
