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
    let mut waiting = s.purchased.get(me.index())?.clone();
    let sight = Sight::new(&rules, &s, me);
    let map = Places::of(&sight);
    // Armies first: a transport goes where they are.
    waiting.sort_by_key(|(piece, _)| match piece {
        Piece::Unit(k) => rules.unit(*k).domain == Domain::Sea,
        Piece::Facility(_) => false,
    });
    for (piece, n) in waiting {
        if n == 0 {
            continue;
        }
        for space in map.order(piece) {
            let Some(most) = most_accepted(game, piece, space, n) else {
                continue;
            };
            // A space short of defenders takes what it lacks; the rest go on to the front.
            let by = map.lacking(space);
            let count = match piece {
                Piece::Unit(k) if by > 0 && rules.unit(k).defense > 0 => {
                    most.min(by.div_ceil(rules.unit(k).defense))
                }
                _ => most,
            };
            let what = match piece {
                Piece::Unit(k) => rules.unit(k).name.clone(),
                Piece::Facility(f) => rules.facilities[f.index()].name.clone(),
            };
            let name = &rules.board.space(space).name;
            let why = match map.near(space) {
                _ if by > 0 => format!(
                    "places {count} {what} in {name}: its defence is {by} short of what the enemies nearby call for"
                ),
                FAR => format!("places {count} {what} in {name}"),
                d => format!("places {count} {what} in {name}, {d} step(s) from the front"),
            };
            return Some(Choice::new(Command::Place { piece, count, space }, why));
        }
    }
    None
}

/// The most of `n` pieces the game lets this power place in `space` now (the accepted counts
/// run from 1 up to some limit); `None` when not even one.
fn most_accepted(game: &mut Game, piece: Piece, space: SpaceId, n: u32) -> Option<u32> {
    let place = |count| Command::Place { piece, count, space };
    game.dry_run(&place(1)).ok()?;
    let (mut lo, mut hi) = (1, n);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if game.dry_run(&place(mid)).is_ok() {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

/// The spaces this power may place units in, with what decides where each piece goes.
struct Places<'s, 'a> {
    sight: &'s Sight<'a>,
    spaces: Vec<SpaceId>,
    front: Vec<u32>,
    goal: Vec<u32>,
    by_sea: Vec<u32>,
    assault: Vec<u32>,
    /// What each territory's defenders lack (`Sight::guard_need`), where they lack some.
    shortfalls: Vec<(SpaceId, u32)>,
    /// What the enemy could strike this power's transports with beyond their guard, in each
    /// zone where they gather (`buy::gathering`).
    gaps: Vec<(SpaceId, u32)>,
}

impl<'s, 'a> Places<'s, 'a> {
    fn of(sight: &'s Sight<'a>) -> Self {
        let rules = sight.rules;
        let spaces = crate::game::mobilize::unit_spaces(rules, sight.s, sight.me);
        let shortfalls = spaces
            .iter()
            .filter(|sp| !sight.is_sea(**sp))
            .filter_map(|sp| {
                let (need, defence) = sight.guard_need(*sp)?;
                Some((*sp, need.saturating_sub(defence)))
            })
            .filter(|(_, by)| *by > 0)
            .collect();
        let gathering = super::buy::gathering(sight);
        let gaps = spaces
            .iter()
            .filter(|z| gathering.contains(z))
            .map(|z| {
                let (attack, defence) = sight.sea_threat(*z);
                (*z, (attack * rules.ai.fleet_guard / 100).saturating_sub(defence))
            })
            .collect();
        Places {
            sight,
            front: sight.front(),
            goal: sight.objectives(),
            by_sea: sight.front_by_sea(),
            assault: super::sealift::to_assault(sight),
            spaces,
            shortfalls,
            gaps,
        }
    }

    fn lacking(&self, sp: SpaceId) -> u32 {
        self.shortfalls.iter().find(|s| s.0 == sp).map_or(0, |s| s.1)
    }

    fn exposed(&self, z: SpaceId) -> u32 {
        self.gaps.iter().find(|g| g.0 == z).map_or(0, |g| g.1)
    }

    /// Steps to the front; a sea zone is as near as the nearest territory beside it.
    fn near(&self, sp: SpaceId) -> u32 {
        let board = &self.sight.rules.board;
        if self.sight.is_sea(sp) {
            board
                .space(sp)
                .adjacent
                .iter()
                .map(|a| self.front[a.index()])
                .min()
                .unwrap_or(FAR)
        } else {
            self.front[sp.index()]
        }
    }

    /// Land units that wait on the coasts beside a zone for a ship: cut off from the front,
    /// or far from it.
    fn waiting_ashore(&self, z: SpaceId) -> usize {
        let (sight, rules) = (self.sight, self.sight.rules);
        rules
            .board
            .space(z)
            .adjacent
            .iter()
            .filter(|a| !sight.is_sea(**a) && Sight::wants_ship(&self.front, &self.goal, **a))
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
    }

    /// Where a piece goes first: a transport where the most troops wait for one, a warship
    /// where the transports are most exposed (then nearest the enemy's coast), a defender
    /// where a city lacks defence most, then any army nearest the front (by land, then by sea).
    fn order(&self, piece: Piece) -> Vec<SpaceId> {
        let rules = self.sight.rules;
        let mut l = self.spaces.clone();
        let (assault, by_sea) = (&self.assault, &self.by_sea);
        match piece {
            Piece::Unit(k) if rules.unit(k).transport_capacity > 0 => {
                l.sort_by_cached_key(|z| (std::cmp::Reverse(self.waiting_ashore(*z)), assault[z.index()], *z))
            }
            Piece::Unit(k) if rules.unit(k).domain == Domain::Sea => {
                l.sort_by_key(|z| (std::cmp::Reverse(self.exposed(*z)), assault[z.index()], *z))
            }
            Piece::Unit(k) if rules.unit(k).defense > 0 => l.sort_by_key(|sp| {
                (
                    std::cmp::Reverse(self.lacking(*sp)),
                    self.near(*sp),
                    by_sea[sp.index()],
                    *sp,
                )
            }),
            _ => l.sort_by_key(|sp| (self.near(*sp), by_sea[sp.index()], *sp)),
        }
        l
    }
}
