//! Placement: each army unit bought goes to the space nearest the front where the game
//! accepts it, a transport where troops wait for one, a warship nearest the enemy's coast;
//! as many at once as the space takes.

use super::sight::{Sight, FAR};
use super::Choice;
use crate::game::command::Command;
use crate::game::Game;
use crate::rules::{Domain, Piece, SpaceId};

pub(super) fn next(game: &mut Game) -> Option<Choice> {
    let rules = game.rules().clone();
    let me = game.current_power();
    let s = game.state().clone();
    let waiting = s.purchased.get(me.index())?.clone();
    let sight = Sight::new(&rules, &s, me);
    let front = sight.front();
    let goal = sight.objectives();
    let spaces: Vec<_> = crate::game::mobilize::unit_spaces(&rules, &s, me);
    let by_sea = sight.front_by_sea();
    let assault = super::sealift::to_assault(&sight);
    // A sea zone is as near the front as the nearest territory beside it.
    let near = |sp: SpaceId| -> u32 {
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
    // Land units that wait on a coast for a ship: cut off from the front, or far from it.
    let waiting_ashore = |z: SpaceId| -> usize {
        rules
            .board
            .space(z)
            .adjacent
            .iter()
            .filter(|a| !sight.is_sea(**a) && Sight::wants_ship(&front, &goal, **a))
            .map(|a| {
                sight
                    .own_units(*a)
                    .filter(|u| {
                        let t = rules.unit(u.kind);
                        t.domain == Domain::Land && t.transport_cost.is_some()
                    })
                    .count()
            })
            .sum()
    };
    // Where each kind of piece goes first: an army nearest the front (by land, then by sea),
    // a transport where the most troops wait for one, a warship nearest the enemy's coast.
    let order = |piece: Piece| -> Vec<SpaceId> {
        let mut l = spaces.clone();
        match piece {
            Piece::Unit(k) if rules.unit(k).transport_capacity > 0 => {
                l.sort_by_key(|z| (std::cmp::Reverse(waiting_ashore(*z)), assault[z.index()], *z))
            }
            Piece::Unit(k) if rules.unit(k).domain == Domain::Sea => {
                l.sort_by_key(|z| (assault[z.index()], *z))
            }
            _ => l.sort_by_key(|sp| (near(*sp), by_sea[sp.index()], *sp)),
        }
        l
    };
    // Armies first: a transport goes where they are.
    let mut waiting = waiting;
    waiting.sort_by_key(|(piece, _)| match piece {
        Piece::Unit(k) => rules.unit(*k).domain == Domain::Sea,
        Piece::Facility(_) => false,
    });
    for (piece, n) in waiting {
        if n == 0 {
            continue;
        }
        for space in order(piece) {
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
