//! Placement: each army unit bought goes first where a capital or victory city's defenders
//! fall short of its guard (as many as it lacks), else to the space nearest the front where
//! the game accepts it, a transport where troops wait for one, a warship where the power's
//! transports gather and the enemy could strike them hardest, else nearest the enemy's coast;
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
    // What each space's defenders lack (`Sight::guard_need`).
    let short = |sp: SpaceId| -> u32 {
        sight
            .guard_need(sp)
            .map_or(0, |(need, defence)| need.saturating_sub(defence))
    };
    let shortfalls: Vec<(SpaceId, u32)> = spaces
        .iter()
        .filter(|sp| !sight.is_sea(**sp))
        .map(|sp| (*sp, short(*sp)))
        .filter(|(_, by)| *by > 0)
        .collect();
    let lacking = |sp: SpaceId| shortfalls.iter().find(|s| s.0 == sp).map_or(0, |s| s.1);
    // What the enemy could strike this power's transports with beyond their guard, in each
    // zone where they gather (`buy::gathering`): warships go there first.
    let gathering = super::buy::gathering(&sight);
    let gaps: Vec<(SpaceId, u32)> = spaces
        .iter()
        .filter(|z| gathering.contains(z))
        .map(|z| {
            let (attack, defence) = sight.sea_threat(*z);
            (*z, (attack * rules.ai.fleet_guard / 100).saturating_sub(defence))
        })
        .collect();
    let exposed = |z: SpaceId| gaps.iter().find(|g| g.0 == z).map_or(0, |g| g.1);
    // Where each kind of piece goes first: an army nearest the front (by land, then by sea),
    // a transport where the most troops wait for one, a warship nearest the enemy's coast.
    let order = |piece: Piece| -> Vec<SpaceId> {
        let mut l = spaces.clone();
        match piece {
            Piece::Unit(k) if rules.unit(k).transport_capacity > 0 => {
                l.sort_by_key(|z| (std::cmp::Reverse(waiting_ashore(*z)), assault[z.index()], *z))
            }
            Piece::Unit(k) if rules.unit(k).domain == Domain::Sea => {
                l.sort_by_key(|z| (std::cmp::Reverse(exposed(*z)), assault[z.index()], *z))
            }
            Piece::Unit(k) if rules.unit(k).defense > 0 => l.sort_by_key(|sp| {
                (
                    std::cmp::Reverse(lacking(*sp)),
                    near(*sp),
                    by_sea[sp.index()],
                    *sp,
                )
            }),
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
            // A space short of defenders takes what it lacks; the rest go on to the front.
            let by = lacking(space);
            let guard = match piece {
                Piece::Unit(k) if by > 0 && rules.unit(k).defense > 0 => {
                    let lacks = by.div_ceil(rules.unit(k).defense);
                    (lacks < lo).then_some(lacks)
                }
                _ => None,
            };
            let lo = guard.unwrap_or(lo);
            let what = match piece {
                Piece::Unit(k) => rules.unit(k).name.clone(),
                Piece::Facility(f) => rules.facilities[f.index()].name.clone(),
            };
            let name = &rules.board.space(space).name;
            let why = match near(space) {
                _ if by > 0 => format!(
                    "places {lo} {what} in {name}: its defence is {by} short of what the enemies nearby call for"
                ),
                FAR => format!("places {lo} {what} in {name}"),
                d => format!("places {lo} {what} in {name}, {d} step(s) from the front"),
            };
            return Some(Choice::new(place(lo), why));
        }
    }
    None
}
