//! The board as one power sees it: who is an enemy, how far each territory is from the front,
//! what could attack a space next turn, what units are worth.

use crate::game::state::{Relation, State, Unit};
use crate::rules::{Domain, PowerId, RuleSet, SpaceId};
use std::collections::VecDeque;

/// Far: no path.
pub(super) const FAR: u32 = u32::MAX;

pub(super) struct Sight<'a> {
    pub rules: &'a RuleSet,
    pub s: &'a State,
    pub me: PowerId,
    /// This power's capital, if it holds one: read once (every guard asks for it).
    capital: Option<SpaceId>,
}

impl<'a> Sight<'a> {
    pub fn new(rules: &'a RuleSet, s: &'a State, me: PowerId) -> Sight<'a> {
        let board = &rules.board;
        let capital = board.ids().find(|sp| {
            let space = board.space(*sp);
            space.capital && space.owner == Some(me) && s.space(*sp).controller == Some(me)
        });
        Sight {
            rules,
            s,
            me,
            capital,
        }
    }

    pub fn at_war(&self, other: PowerId) -> bool {
        self.s.relations[self.me.index()][other.index()] == Relation::War
    }

    pub fn friendly(&self, other: PowerId) -> bool {
        other == self.me || self.s.relations[self.me.index()][other.index()] == Relation::Allied
    }

    pub fn is_sea(&self, sp: SpaceId) -> bool {
        self.rules.board.space(sp).is_sea()
    }

    /// A land territory held by a power at war with this one.
    pub fn hostile_land(&self, sp: SpaceId) -> bool {
        !self.is_sea(sp) && self.s.space(sp).controller.is_some_and(|c| self.at_war(c))
    }

    pub fn enemy_units(&self, sp: SpaceId) -> impl Iterator<Item = &'a Unit> + '_ {
        self.s
            .space(sp)
            .units
            .iter()
            .filter(move |u| self.at_war(u.owner))
    }

    pub fn own_units(&self, sp: SpaceId) -> impl Iterator<Item = &'a Unit> + '_ {
        let me = self.me;
        self.s.space(sp).units.iter().filter(move |u| u.owner == me)
    }

    /// Steps over land from each space to the nearest hostile territory (or territory holding
    /// enemy land units): 0 there, 1 next to it. Sea zones and territories cut off by the sea
    /// are `FAR`.
    pub fn front(&self) -> Vec<u32> {
        let sources = self.rules.board.ids().filter(|sp| {
            !self.is_sea(*sp)
                && (self.hostile_land(*sp)
                    || self
                        .enemy_units(*sp)
                        .any(|u| self.rules.unit(u.kind).domain == Domain::Land))
        });
        steps_to(self.rules, sources, |sp| !self.is_sea(sp))
    }

    /// Steps over land from each space to the nearest enemy capital or victory city (the
    /// objectives that win the game); `FAR` where none can be reached by land.
    pub fn objectives(&self) -> Vec<u32> {
        let board = &self.rules.board;
        let sources = board.ids().filter(|sp| {
            let space = board.space(*sp);
            self.hostile_land(*sp) && (space.capital || space.victory_city.is_some())
        });
        steps_to(self.rules, sources, |sp| !self.is_sea(sp))
    }

    /// Steps from each space to the nearest hostile territory over land and sea alike: how
    /// far an army is from the fight when it may be carried by sea.
    pub fn front_by_sea(&self) -> Vec<u32> {
        let sources = self.rules.board.ids().filter(|sp| self.hostile_land(*sp));
        steps_to(self.rules, sources, |_| true)
    }

    /// Steps from `from` to every space, over land only (`land`) or over anything (as aircraft
    /// fly), up to `limit`.
    pub fn steps_from(&self, from: SpaceId, land: bool, limit: u32) -> Vec<u32> {
        self.steps_within(from, limit, |sp| !land || !self.is_sea(sp))
    }

    /// Steps from `from` to every space, through those `through` admits, up to `limit`.
    fn steps_within(&self, from: SpaceId, limit: u32, through: impl Fn(SpaceId) -> bool) -> Vec<u32> {
        let board = &self.rules.board;
        let mut dist = vec![FAR; board.spaces.len()];
        dist[from.index()] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some(sp) = queue.pop_front() {
            let d = dist[sp.index()];
            if d >= limit {
                continue;
            }
            for &a in &board.space(sp).adjacent {
                if through(a) && dist[a.index()] == FAR {
                    dist[a.index()] = d + 1;
                    queue.push_back(a);
                }
            }
        }
        dist
    }

    /// What the enemies' warships and aircraft could throw at the sea zone `zone` next turn
    /// (attack values, ships within their movement by sea, aircraft within half theirs); and what
    /// this power's side defends it with now.
    pub fn sea_threat(&self, zone: SpaceId) -> (u32, u32) {
        // Enemy ships already there count: they strike what gathers there.
        self.strike(zone, Domain::Sea, true, |sp| self.is_sea(sp))
    }

    /// What the enemies could throw at `space` next turn, as the sum of the attack values of
    /// their land units within their movement over land and their aircraft within half their
    /// movement, since they must land again (not counting any in `space` itself: those are
    /// fighting there); and what this power's side defends it with now, as the sum of defence
    /// values.
    pub fn threat(&self, space: SpaceId) -> (u32, u32) {
        self.strike(space, Domain::Land, false, |sp| !self.is_sea(sp))
    }

    /// The attack of the enemy units of `surface` (moving through the spaces `through` admits)
    /// and of their aircraft that could reach `space` next turn (with those in it already when
    /// `here`), and the defence there now.
    fn strike(
        &self,
        space: SpaceId,
        surface: Domain,
        here: bool,
        through: impl Fn(SpaceId) -> bool,
    ) -> (u32, u32) {
        let most = self.rules.units.iter().map(|u| u.movement).max().unwrap_or(1);
        let by_surface = self.steps_within(space, most, through);
        let by_air = self.steps_from(space, false, most);
        let mut attack = 0;
        for sp in self.rules.board.ids() {
            let (ds, da) = (by_surface[sp.index()], by_air[sp.index()]);
            if (ds == FAR && da == FAR) || (sp == space && !here) {
                continue;
            }
            for u in self.enemy_units(sp) {
                let t = self.rules.unit(u.kind);
                let d = match t.domain {
                    // An aircraft flies out and back (or on to a landing) on one move.
                    Domain::Air if da <= t.movement.div_ceil(2) => da,
                    Domain::Air => continue,
                    d if d == surface => ds,
                    _ => continue,
                };
                if d != FAR && d <= t.movement.max(1) {
                    attack += t.attack * t.attack_dice.max(1);
                }
            }
        }
        let defence = self
            .s
            .space(space)
            .units
            .iter()
            .filter(|u| self.friendly(u.owner))
            .map(|u| self.rules.unit(u.kind).defense)
            .sum();
        (attack, defence)
    }

    /// Whether land units here should take ship: cut off from every enemy by land, or far
    /// from the front with no capital or victory city of the enemy to march on (`front` and
    /// `goal`: [`Sight::front`] and [`Sight::objectives`]).
    pub fn wants_ship(front: &[u32], goal: &[u32], sp: SpaceId) -> bool {
        let (f, g) = (front[sp.index()], goal[sp.index()]);
        f == FAR || (g == FAR && f > 2)
    }

    /// This power's capital, if it holds one.
    pub fn capital(&self) -> Option<SpaceId> {
        self.capital
    }

    /// The defence a space of this power's should keep against the attack the enemies nearby
    /// could make on it: `[ai] capital_guard` percent of it in the capital, `city_guard` in
    /// another victory city it holds; `None` for other spaces, which it may empty.
    pub fn guard_need(&self, space: SpaceId) -> Option<(u32, u32)> {
        let board = self.rules.board.space(space);
        let weight = if Some(space) == self.capital() {
            self.rules.ai.capital_guard
        } else if board.victory_city.is_some() && self.s.space(space).controller == Some(self.me) {
            self.rules.ai.city_guard
        } else {
            return None;
        };
        let (attack, defence) = self.threat(space);
        Some((attack * weight / 100, defence))
    }

    /// The units in a space this power may take away and still guard it ([`Sight::guard_need`]):
    /// all of them but in its capital and victory cities, where as many stay, strongest
    /// defence per attack first, as the enemies nearby call for.
    pub fn spare(&self, space: SpaceId) -> Vec<u32> {
        let mut mine: Vec<&Unit> = self.own_units(space).collect();
        let Some((need, mut defence)) = self.guard_need(space) else {
            return mine.iter().map(|u| u.id).collect();
        };
        // The units that attack best for what they defend leave first.
        mine.sort_by_key(|u| {
            let t = self.rules.unit(u.kind);
            (std::cmp::Reverse(t.attack as i64 - t.defense as i64), t.cost)
        });
        let mut out = Vec::new();
        for u in mine {
            let d = self.rules.unit(u.kind).defense;
            if defence.saturating_sub(d) < need {
                break;
            }
            defence -= d;
            out.push(u.id);
        }
        out
    }
}

/// The odds that an attack of `attack` pips takes a space held with `defence` pips, by the
/// square law (a rough guess for a battle not yet set up: the exact odds need its units).
pub(super) fn rough_odds(attack: u32, defence: u32) -> f64 {
    let (a, d) = (f64::from(attack), f64::from(defence));
    if a == 0.0 {
        return 0.0;
    }
    a * a / (a * a + d * d)
}

/// Steps from each space to the nearest of `sources` (0 there), moving only through spaces
/// `through` admits; `FAR` where none can be reached.
pub(super) fn steps_to(
    rules: &RuleSet,
    sources: impl Iterator<Item = SpaceId>,
    through: impl Fn(SpaceId) -> bool,
) -> Vec<u32> {
    let board = &rules.board;
    let mut dist = vec![FAR; board.spaces.len()];
    let mut queue = VecDeque::new();
    for sp in sources {
        dist[sp.index()] = 0;
        queue.push_back(sp);
    }
    while let Some(sp) = queue.pop_front() {
        let d = dist[sp.index()];
        for &a in &board.space(sp).adjacent {
            if through(a) && dist[a.index()] == FAR {
                dist[a.index()] = d + 1;
                queue.push_back(a);
            }
        }
    }
    dist
}
