//! Purchases by a value model: each unit type is worth `buy_attack × attack + buy_defense ×
//! defence + buy_move × (movement − 1)` plus its hit points (`[ai]`), weighed per IPC while
//! money is short and per place at the factories while places are (a rich power buys its
//! best units, a poor one the most value for its money); each type bought again is worth a
//! little less so the army stays mixed; with the capital threatened, defence alone counts, and
//! a victory city with a factory whose defenders fall short of its guard (`Sight::guard_need`)
//! gets the defenders it lacks first. No more is bought than the factories can place this
//! turn.

use super::sight::{Sight, FAR};
use super::Choice;
use crate::game::command::Command;
use crate::game::Game;
use crate::rules::{Domain, Piece, UnitTypeId};

/// Hit points weigh as much as this many points of attack or defence (a cheap unit that
/// takes a hit protects the rest).
const HIT_WORTH: u32 = 3;

pub(super) fn plan(game: &mut Game) -> Vec<Choice> {
    let rules = game.rules().clone();
    let me = game.current_power();
    let s = game.state().clone();
    let sight = Sight::new(&rules, &s, me);
    let factories = crate::game::mobilize::factories(&rules, &s, me);
    let waiting: u32 = s.purchased[me.index()].iter().map(|(_, n)| *n).sum();
    let mut cart = Cart {
        money: s.treasuries[me.index()],
        capacity: factories
            .iter()
            .map(|(_, c)| *c)
            .sum::<u32>()
            .saturating_sub(waiting),
        bought: Vec::new(),
    };
    let threatened = sight.capital().is_some_and(|c| {
        let (attack, defence) = sight.threat(c);
        defence * 100 < attack * rules.ai.capital_guard
    });
    let front = sight.front();
    let kinds = values(game, &sight, &factories, &front, threatened);
    let guarded = !threatened && defenders(&sight, &factories, &kinds, &mut cart);
    // A power whose capital cannot reach the enemy by land needs ships to carry its armies.
    let goal = sight.objectives();
    let naval = sight.capital().is_some_and(|c| goal[c.index()] == FAR);
    let mut fleet = false;
    if naval && !threatened {
        // Transports need warships to live: what the enemy could strike their gathering
        // zones with is matched first.
        if let Some((k, cost, n)) = warships_wanted(game, &sight, cart.money, cart.capacity) {
            cart.add(k, cost, n);
            fleet = true;
        }
        if let Some((k, cost, n)) = transports_wanted(game, &sight, &front, &goal) {
            let n = n.min(cart.capacity).min(cart.affords(cost));
            if n > 0 {
                cart.add(k, cost, n);
            }
        }
    }
    by_value(&kinds, &mut cart);
    let why = if guarded {
        "a victory city's defenders fall short of what the enemies nearby call for, then the most value for the money"
    } else if fleet {
        "warships to guard the transports' waters against the enemy's fleet and aircraft (`[ai] fleet_guard`), ships to carry the army, then the most value for the money"
    } else if naval && !threatened {
        "the most value for the money (`[ai] buy_*`), and ships to carry the army"
    } else if threatened {
        "the capital is threatened, so defence first"
    } else {
        "the most value for the money (`[ai] buy_*`)"
    };
    cart.bought
        .into_iter()
        .map(|(k, n)| {
            Choice::new(
                Command::Buy {
                    piece: Piece::Unit(k),
                    count: n,
                    economy: None,
                },
                format!("buys {n} {}: {why}", rules.unit(k).name),
            )
        })
        .collect()
}

/// A purchase being worked out: the IPCs and factory places left, and what is bought so far
/// (per unit type, in the order first bought).
struct Cart {
    money: i64,
    capacity: u32,
    bought: Vec<(UnitTypeId, u32)>,
}

impl Cart {
    /// How many of a unit of this cost the money left buys.
    fn affords(&self, cost: u32) -> u32 {
        u32::try_from(self.money / i64::from(cost.max(1))).unwrap_or(0)
    }

    fn add(&mut self, kind: UnitTypeId, cost: u32, n: u32) {
        self.money -= i64::from(cost * n);
        self.capacity -= n;
        self.count(kind, n);
    }

    fn count(&mut self, kind: UnitTypeId, n: u32) {
        match self.bought.iter_mut().find(|b| b.0 == kind) {
            Some(b) => b.1 += n,
            None => self.bought.push((kind, n)),
        }
    }

    fn of(&self, kind: UnitTypeId) -> u32 {
        self.bought.iter().find(|b| b.0 == kind).map_or(0, |b| b.1)
    }
}

/// The land and air units the game sells this power now, with their cost and worth by the
/// value model (defence alone with the capital `threatened`). Ships are bought for what they
/// carry and guard (`warships_wanted`, `transports_wanted`), not by this model: a ship the
/// AI cannot use well is money not spent on the front. A power with no land front at its
/// factories values movement twice.
fn values(
    game: &mut Game,
    sight: &Sight,
    factories: &[(crate::rules::SpaceId, u32)],
    front: &[u32],
    threatened: bool,
) -> Vec<(UnitTypeId, u32, f64)> {
    let rules = sight.rules;
    let w = &rules.ai;
    let techs = &sight.s.techs[sight.me.index()];
    let land_front = factories.iter().any(|(t, _)| front[t.index()] != FAR);
    let mut kinds = Vec::new();
    for i in 0..rules.units.len() {
        let k = UnitTypeId(i as u16);
        let t = rules.unit_for(k, techs);
        if t.domain == Domain::Sea || t.cost == 0 || !sells(game, k) {
            continue;
        }
        let worth = if threatened {
            f64::from(t.defense * 2 + t.hits * HIT_WORTH)
        } else {
            let moves = if land_front { w.buy_move } else { w.buy_move * 2 };
            f64::from(
                w.buy_attack * t.attack * t.attack_dice.max(1)
                    + w.buy_defense * t.defense
                    + moves * t.movement.saturating_sub(1)
                    + HIT_WORTH * t.hits,
            )
        };
        kinds.push((k, t.cost, worth));
    }
    kinds
}

/// Defenders for the victory cities at factories short of their guard: the most defence per
/// IPC among `kinds`, as many as they lack, with no more than half the money. Whether any
/// were bought.
fn defenders(
    sight: &Sight,
    factories: &[(crate::rules::SpaceId, u32)],
    kinds: &[(UnitTypeId, u32, f64)],
    cart: &mut Cart,
) -> bool {
    let rules = sight.rules;
    let techs = &sight.s.techs[sight.me.index()];
    let short: u32 = factories
        .iter()
        .filter_map(|(sp, _)| sight.guard_need(*sp).map(|(need, def)| need.saturating_sub(def)))
        .sum();
    if short == 0 {
        return false;
    }
    let per_ipc = |cost: u32, t: &crate::rules::UnitType| f64::from(t.defense) / f64::from(cost.max(1));
    let Some((k, cost, t)) = kinds
        .iter()
        .map(|(k, cost, _)| (*k, *cost, rules.unit_for(*k, techs)))
        .filter(|(_, _, t)| t.domain == Domain::Land && t.defense > 0)
        .max_by(|a, b| {
            per_ipc(a.1, a.2)
                .total_cmp(&per_ipc(b.1, b.2))
                .then(b.0.cmp(&a.0))
        })
    else {
        return false;
    };
    let half = u32::try_from(cart.money / 2 / i64::from(cost.max(1))).unwrap_or(0);
    let n = short.div_ceil(t.defense).min(cart.capacity).min(half);
    if n == 0 {
        return false;
    }
    cart.add(k, cost, n);
    true
}

/// The rest of the money by the value model, one unit at a time: worth per IPC while money
/// is short, per factory place while places are; each one of a type already bought makes the
/// next a fifth less wanted.
fn by_value(kinds: &[(UnitTypeId, u32, f64)], cart: &mut Cart) {
    for placed in 0..cart.capacity {
        let slots = cart.capacity - placed;
        let per_place = cart.money as f64 / f64::from(slots);
        let best = kinds
            .iter()
            .filter(|(_, cost, _)| i64::from(*cost) <= cart.money)
            .map(|&(k, cost, worth)| {
                let score = worth / f64::from(cost).max(per_place);
                (k, cost, score / (1.0 + 0.2 * f64::from(cart.of(k))))
            })
            .max_by(|a, b| a.2.total_cmp(&b.2).then(b.0.cmp(&a.0)));
        let Some((k, cost, _)) = best else { break };
        cart.money -= i64::from(cost);
        cart.count(k, 1);
    }
}

/// The zones where this power's transports gather: beside its factories, where new ones are
/// placed, and wherever they are now.
pub(super) fn gathering(sight: &Sight) -> Vec<crate::rules::SpaceId> {
    let rules = sight.rules;
    let mut zones: Vec<crate::rules::SpaceId> = Vec::new();
    for (f, _) in crate::game::mobilize::factories(rules, sight.s, sight.me) {
        zones.extend(rules.board.space(f).adjacent.iter().filter(|z| sight.is_sea(**z)));
    }
    for z in rules.board.ids().filter(|z| sight.is_sea(*z)) {
        if sight
            .own_units(z)
            .any(|u| rules.unit(u.kind).transport_capacity > 0)
        {
            zones.push(z);
        }
    }
    zones.sort();
    zones.dedup();
    zones
}

/// The warship to buy (the most defence and hits per IPC the game sells this power), its
/// cost and how many: enough to match `[ai] fleet_guard` percent of what the enemy could throw
/// at the most threatened zone where its transports gather, with at most two thirds of the
/// money.
fn warships_wanted(
    game: &mut Game,
    sight: &Sight,
    money: i64,
    capacity: u32,
) -> Option<(UnitTypeId, u32, u32)> {
    let rules = sight.rules;
    let gap = gathering(sight)
        .into_iter()
        .map(|z| {
            let (attack, defence) = sight.sea_threat(z);
            (attack * rules.ai.fleet_guard / 100).saturating_sub(defence)
        })
        .max()
        .filter(|g| *g > 0)?;
    let techs = &sight.s.techs[sight.me.index()];
    let worth = |k: UnitTypeId| {
        let t = rules.unit_for(k, techs);
        f64::from(t.defense * 2 + t.hits * HIT_WORTH) / f64::from(t.cost.max(1))
    };
    let kind = (0..rules.units.len())
        .map(|i| UnitTypeId(i as u16))
        .filter(|k| {
            let t = rules.unit_for(*k, techs);
            t.domain == Domain::Sea
                && t.transport_capacity == 0
                && t.attack > 0
                && t.defense > 0
                && t.cost > 0
        })
        .filter(|k| sells(game, *k))
        .max_by(|a, b| worth(*a).total_cmp(&worth(*b)).then(b.cmp(a)))?;
    let t = rules.unit_for(kind, techs);
    let n = gap
        .div_ceil(t.defense)
        .min(capacity)
        .min(u32::try_from(money * 2 / 3 / i64::from(t.cost.max(1))).unwrap_or(0));
    (n > 0).then_some((kind, t.cost, n))
}

/// The transport to buy (the cheapest the game sells to this power), its cost and how many:
/// enough for two land units each of those cut off from the front by land, at least two in
/// all, three a turn at most.
fn transports_wanted(
    game: &mut Game,
    sight: &Sight,
    front: &[u32],
    goal: &[u32],
) -> Option<(UnitTypeId, u32, u32)> {
    let rules = sight.rules;
    let techs = &sight.s.techs[sight.me.index()];
    let kind = (0..rules.units.len())
        .map(|i| UnitTypeId(i as u16))
        .filter(|k| {
            let t = rules.unit_for(*k, techs);
            t.domain == Domain::Sea && t.transport_capacity > 0 && t.cost > 0
        })
        .filter(|k| sells(game, *k))
        .min_by_key(|k| (rules.unit_for(*k, techs).cost, *k))?;
    let mut ships = 0u32;
    let mut waiting = 0u32;
    for sp in rules.board.ids() {
        for u in sight.own_units(sp) {
            let t = rules.unit(u.kind);
            if t.transport_capacity > 0 {
                ships += 1;
            } else if t.domain == Domain::Land
                && t.transport_cost.is_some()
                && !sight.is_sea(sp)
                && Sight::wants_ship(front, goal, sp)
            {
                waiting += 1;
            }
        }
    }
    let want = waiting.div_ceil(2).max(2).saturating_sub(ships).min(3);
    Some((kind, rules.unit_for(kind, techs).cost, want))
}

/// Whether the game sells this power one unit of the type now.
fn sells(game: &mut Game, kind: UnitTypeId) -> bool {
    game.dry_run(&Command::Buy {
        piece: Piece::Unit(kind),
        count: 1,
        economy: None,
    })
    .is_ok()
}

/// Research dice for `[ai] research` percent of the IPCs in hand (to the nearest die), where the game has research
/// and the game accepts them now; `None` otherwise.
pub(super) fn research(game: &mut Game) -> Option<Choice> {
    let rules = game.rules().clone();
    let r = rules.research.as_ref()?;
    let me = game.current_power();
    let s = game.state();
    if s.breakthrough_pending || s.this_turn.researched {
        return None;
    }
    let money = s.treasuries[me.index()];
    // To the nearest die: a tenth of 40 IPCs buys one die at 5.
    let share = money as f64 * f64::from(rules.ai.research) / 100.0;
    let dice = (share / f64::from(r.token_cost.max(1))).round() as i64;
    let dice = u32::try_from(dice).ok().filter(|n| *n > 0)?;
    let c = Command::Research(dice);
    game.dry_run(&c).ok()?;
    Some(Choice::new(
        c,
        format!(
            "buys {dice} research {}: {}% of its IPCs (`[ai] research`)",
            if dice == 1 { "die" } else { "dice" },
            rules.ai.research
        ),
    ))
}
