//! The exact calculator: a Markov chain over what each side has left.
//!
//! A side's state is how many units of each class (unit type, hit points left, came ashore,
//! owner) it has. A round is the `[combat]` step list played on states instead of units:
//! where `Battle` rolls dice, the chain enumerates every number of hits with its probability;
//! where `Battle` asks for casualties, the chain takes `casualties::suggest` on the state made
//! into units (memoized); where `Battle` checks whether the battle is over, it calls
//! `Battle::check_over` on one unit per class present (memoized: the answer depends only on
//! which classes are present).
//!
//! Rounds after the first are usually "both sides fire, casualties go": the hits of each
//! side then depend only on its own units, and a side's casualties, when every hit can reach
//! every unit, are the next units down its order of loss. Those rounds take the fast path:
//! a state's successor after `h` hits is read from its chain of losses, and the probability
//! moves over a dense table in an order where every state comes after those that lead to it,
//! so a state that keeps itself (no hits) is resolved at once by a geometric series.
//!
//! What the chain cannot express (script steps, rule scripts that can change the battle,
//! units that came ashore retreating) is an `Err` naming it; `calculate` then fights the
//! battle by Monte Carlo.

use super::plan::Plans;
use super::{Method, Odds, Question, Tally};
use crate::combat::casualties;
use crate::combat::profile::{has, TypeSet};
use crate::combat::FireRoom;
use crate::combat::{Battle, Combatant, Outcome, Profiles, Quiet, ScriptAction, Side, Status, ValueChange};
use crate::rules::{DiceRule, Domain, PowerId, Step, UnitTypeId};
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// Unit combinations (pairs of side states) the chain may go through before giving up.
const MAX_STATES: usize = 3_000_000;

/// Probability mass below this is dropped: the chain's answer is exact to far better than
/// the 1e-9 its tests ask for.
const NEGLIGIBLE: f64 = 1e-15;

/// Unit combinations over rounds the chain goes through when rule scripts make it count
/// rounds one by one, before handing the battle to drawn Monte Carlo.
const MAX_SCRIPTED: usize = 200_000;

/// A fast hasher for small integer keys (the states' own, never user input).
#[derive(Default)]
pub(super) struct Fx(u64);
impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}
pub(super) type Map<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// Hits as (count, target set) per group.
type HitList = Vec<(u32, TypeSet)>;
/// States still fighting, with their probabilities.
type Mids = Vec<(Mid, f64)>;
/// A side's results of a fire: (state after, units destroyed, probability).
type Struck = std::rc::Rc<[(u32, u32, f64)]>;
/// Starting masses of a dense table: (attacker position, defender position, mass).
type Starts = Vec<(u32, u32, f64)>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Class {
    kind: UnitTypeId,
    hp: u8,
    seaborne: bool,
    owner: PowerId,
}

impl Class {
    /// A unit's class at `hp` hit points. Units that cannot retreat (came ashore, dropped
    /// from the air) share one class.
    fn of(u: &Combatant, hp: u8) -> Class {
        Class {
            kind: u.kind,
            hp,
            seaborne: u.held(),
            owner: u.owner,
        }
    }
}

/// Room `Chain::casualties_counted` reuses: it runs about a thousand times an answer.
#[derive(Default)]
struct CountRoom {
    first_unit: Vec<usize>,
    kinds: Vec<UnitTypeId>,
    last: Vec<bool>,
    unit_of: Vec<usize>,
    groups: Vec<(u32, TypeSet)>,
    expanded: Vec<TypeSet>,
    taken: Vec<u8>,
    slots_taken: Vec<usize>,
    after: Vec<u16>,
    killed: Vec<u16>,
    matching: casualties::MatchRoom,
}

/// Room `Chain::struck` reuses from one call to the next.
#[derive(Default)]
struct StruckRoom {
    kept: Vec<(usize, f64)>,
    starts: Vec<usize>,
    at: Vec<usize>,
    hits: Vec<(u32, TypeSet)>,
    out: Vec<(u32, u32, f64)>,
}

/// The states of one side, interned.
pub(super) struct Sides {
    classes: Vec<Class>,
    /// `at_hp[k][hp]`: the class of class `k`'s units at `hp` hit points (`class_of`, looked
    /// up once).
    at_hp: Vec<Vec<Option<usize>>>,
    counts: Vec<Box<[u16]>>,
    index: Map<Box<[u16]>, u32>,
    /// Hit points left, per state: no transition raises it.
    hp: Vec<u32>,
    /// Classes present, per state (bit per class).
    present: Vec<u64>,
    /// Where a state sits on a chain of losses: (chain, position).
    pub(super) place: Vec<Option<(u32, u32)>>,
    pub(super) chains: Vec<Vec<u32>>,
    /// A state's hits in a plain round, once asked for.
    hits: Vec<Option<std::rc::Rc<Hits>>>,
}

impl Sides {
    fn new(classes: Vec<Class>) -> Sides {
        let at_hp = classes
            .iter()
            .map(|c| {
                (0..=c.hp)
                    .map(|hp| classes.iter().position(|x| *x == Class { hp, ..*c }))
                    .collect()
            })
            .collect();
        Sides {
            classes,
            at_hp,
            counts: Vec::new(),
            index: Map::default(),
            hp: Vec::new(),
            present: Vec::new(),
            place: Vec::new(),
            chains: Vec::new(),
            hits: Vec::new(),
        }
    }

    fn intern(&mut self, counts: &[u16]) -> u32 {
        if let Some(&i) = self.index.get(counts) {
            return i;
        }
        let i = self.counts.len() as u32;
        let hp = counts
            .iter()
            .zip(&self.classes)
            .map(|(n, c)| u32::from(*n) * u32::from(c.hp))
            .sum();
        let present = counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .fold(0u64, |a, (k, _)| a | (1 << k));
        self.counts.push(counts.into());
        self.index.insert(counts.into(), i);
        self.hp.push(hp);
        self.present.push(present);
        self.place.push(None);
        self.hits.push(None);
        i
    }

    /// The class of class `k`'s units at `hp` hit points (no more than the class's own).
    fn at_hp(&self, k: usize, hp: u8) -> usize {
        match self.at_hp[k].get(usize::from(hp)).copied().flatten() {
            Some(x) => x,
            None => self.class_of(Class {
                hp,
                ..self.classes[k]
            }),
        }
    }

    fn class_of(&self, c: Class) -> usize {
        self.classes
            .iter()
            .position(|x| *x == c)
            .expect("every hit-point variant of a class is listed")
    }

    /// Unit types present.
    fn kinds(&self, s: u32) -> TypeSet {
        let mut set = 0;
        for (k, n) in self.counts[s as usize].iter().enumerate() {
            if *n > 0 {
                set |= 1 << self.classes[k].kind.0;
            }
        }
        set
    }

    fn units(&self, s: u32) -> u32 {
        self.counts[s as usize].iter().map(|n| u32::from(*n)).sum()
    }
}

/// What one side's fire can do: per target set, the distribution of hits.
struct Fire {
    targets: Vec<TypeSet>,
    dists: Vec<Vec<f64>>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Who {
    All,
    Only(TypeSet),
    Except(TypeSet),
}

#[derive(Clone, Copy)]
pub(super) struct Check {
    pub(super) outcome: Option<Outcome>,
    /// Classes destroyed without dice (defenseless units), per side.
    pub(super) removed: [u64; 2],
    pub(super) may_retreat: bool,
}

/// A state in the middle of a round: the attacker, the defender's units still fighting, and
/// its units hit this round, behind the casualty strip (they fire back, then go); `ahit`: the
/// attacker's units a script step hit, waiting for the step removing casualties (they no
/// longer fire, but are still there when the battle checks whether it is over).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Mid {
    pub(super) a: u32,
    pub(super) dcas: u32,
    pub(super) dhit: u32,
    pub(super) ahit: u32,
    pub(super) fired: [TypeSet; 2],
}

pub(super) enum End {
    Over(Outcome, u32, u32, f64),
    Next(u32, u32, f64),
}

#[derive(Clone, Copy)]
pub(super) enum Op {
    Step(Step),
    /// `Battle::check_over`, as the battle runs it between step lists.
    Settle,
    /// The values rules have changed, from here on (an index into `Plans::changed`).
    Values(u32),
    /// A script step: the actions of the planned step `index` of round plan `plan`'s first
    /// round list (`first`) or round list.
    Script {
        plan: u32,
        first: bool,
        index: u32,
    },
}

pub(super) struct Chain<'q> {
    q: &'q Question,
    p: &'q Profiles,
    pub(super) sides: [Sides; 2],
    /// Units of each type in the battle at the start, both sides: `casualties::suggest` orders
    /// hit groups by them (dead units stay in a battle's list).
    template_kinds: Vec<(Side, UnitTypeId)>,
    /// The same, counted: units of each (side, type) at the start.
    template_counts: Vec<((Side, UnitTypeId), u32)>,
    /// Each side's classes in their order of loss (`loss_order`), once worked out.
    loss_orders: [Option<std::rc::Rc<Vec<usize>>>; 2],
    /// Vectors `casualties_counted` reuses from one call to the next.
    count_room: CountRoom,
    /// Each side state's fire, by (side, state, who fires, values changed): an index into
    /// `fires`.
    fire_memo: Map<(u8, u32, Who, u32), u32>,
    fires: Vec<std::rc::Rc<Fire>>,
    /// Each distinct fire's index, by its groups: (value, targets in the battle, dice, best of).
    fire_ids: Map<Vec<(u8, TypeSet, u32, u8)>, u32>,
    /// The battle and the room `fire_id` works in, and the vector it makes a signature in.
    fire_battle: Option<Battle>,
    fire_room: FireRoom,
    signature: Vec<(u8, TypeSet, u32, u8)>,
    cas_memo: Map<(u8, u32, u64), (u32, u32)>,
    /// The target sets hits are packed with (`packed`).
    target_sets: Vec<TypeSet>,
    /// `cas_memo` for hits of more than four groups.
    cas_memo_long: Map<(u8, u32, HitList), (u32, u32)>,
    /// What a fire does to a side's state: (state after, units destroyed, probability), by
    /// (side hit, its state, fire): one entry per distinct result, so a round's steps go
    /// through each side's results once instead of through every combination of hits.
    struck_memo: Map<(u8, u32, u32), Struck>,
    struck_room: StruckRoom,
    /// `add`'s answers: (side, state, state) → the two together.
    add_memo: Map<(u8, u32, u32), u32>,
    check_memo: Map<(u64, u64), Check>,
    last_check: Option<((u64, u64), Check)>,
    /// `binomials[v][n]`: hits from `n` dice hitting on `v` or less.
    binomials: [Vec<Vec<f64>>; 7],
    /// Unit types in the battle.
    here: TypeSet,
    round_steps: Vec<Step>,
    /// Whether the battle starts before its first round's own steps (else between rounds).
    first_round: bool,
    /// The number of the battle's next round.
    pub(super) first_number: u32,
    fast_round: bool,
    low_luck: bool,
    pub(super) empty: [u32; 2],
    states: usize,
    /// The battle's rule scripts, asked once per round (`None`: the battle has none).
    plans: Option<Plans<'q>>,
    /// The values rules have changed at the step being played (an index into
    /// `Plans::changed`; 0 with no scripts) and the changes themselves.
    changed_id: u32,
    changed: Vec<ValueChange>,
}

fn si(side: Side) -> usize {
    match side {
        Side::Attacker => 0,
        Side::Defender => 1,
    }
}

/// The distribution of hits from `n` dice each hitting with probability `p`.
fn binomial_p(n: usize, p: f64) -> Vec<f64> {
    let mut row = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; row.len() + 1];
        for (k, x) in row.iter().enumerate() {
            next[k] += x * (1.0 - p);
            next[k + 1] += x * p;
        }
        row = next;
    }
    row
}

/// The distribution of hits from `n` dice hitting on `value` or less.
fn binomial(n: usize, value: u8) -> Vec<f64> {
    let p = f64::from(value.min(6)) / 6.0;
    let mut d = vec![0.0; n + 1];
    d[0] = 1.0;
    for i in 0..n {
        for k in (0..=i + 1).rev() {
            let hit = if k > 0 { d[k - 1] * p } else { 0.0 };
            d[k] = d[k] * (1.0 - p) + hit;
        }
    }
    d
}

fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if *x == 0.0 {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// The battle's answer from the chain, or why the chain cannot give it.
pub fn exact(q: &Question, endings: usize) -> Result<Odds, String> {
    let mut c = Chain::new(q)?;
    let tally = c.run()?;
    let states = c.states;
    Ok(tally.odds(q, Method::Exact { states }, None, endings))
}

impl<'q> Chain<'q> {
    pub(super) fn new(q: &'q Question) -> Result<Chain<'q>, String> {
        let b = &q.battle;
        let p = &q.profiles;
        // Handlers that may carry what they hear from step to step answer differently from
        // one state to another; such battles are fought with them (`sim`).
        if let Some(why) = q.scripts.as_ref().and_then(|s| s.chain_why_not()) {
            return Err(why);
        }
        let Some(first_round) = b.at_list_start() else {
            return Err("the battle is in the middle of a round; the chain starts between rounds".into());
        };
        let rules = &p.rules;
        for s in rules.first_round.iter().chain(&rules.round) {
            let scripted = matches!(s, Step::Script(_)) && q.scripts.is_some();
            if matches!(s, Step::Script(_) | Step::RaidDamage) && !scripted {
                return Err(format!(
                    "the `{}` step belongs to a rule script",
                    rules.step_name(*s)
                ));
            }
        }
        // Antiaircraft hits reach paratroopers beside the aircraft: one type, two classes of
        // target, which the chain's classes do not tell apart.
        let guns = b.units.iter().any(|u| {
            u.side == Side::Defender && u.status == Status::Fighting && p.of(u.kind).anti_air.is_some()
        });
        if guns && b.units.iter().any(|u| u.airborne && u.status == Status::Fighting) {
            return Err("paratroopers draw the antiaircraft fire".into());
        }
        // Without scripts to ask, the chain builds its battles from unit counts alone.
        if !b.changed.is_empty() && q.scripts.is_none() {
            return Err("a rule changed unit values earlier in this battle".into());
        }
        let plans = match q.scripts.as_deref() {
            Some(s) => Some(Plans::new(
                s.host()?,
                b.clone(),
                first_round,
                rules.first_round.clone(),
                rules.round.clone(),
            )),
            None => None,
        };
        let mut classes: [Vec<Class>; 2] = [Vec::new(), Vec::new()];
        // Units destroyed, submerged or gone stay in a battle's list; they no longer fight.
        for u in b.units.iter().filter(|u| u.status == Status::Fighting) {
            let list = &mut classes[si(u.side)];
            for hp in (1..=u.hp).rev() {
                let c = Class::of(u, hp);
                if !list.contains(&c) {
                    list.push(c);
                }
            }
        }
        if classes.iter().any(|c| c.len() > 64) {
            return Err("more than 64 kinds of units on a side".into());
        }
        let [ca, cd] = classes;
        let mut sides = [Sides::new(ca), Sides::new(cd)];
        let empty = [
            sides[0].intern(&vec![0; sides[0].classes.len()]),
            sides[1].intern(&vec![0; sides[1].classes.len()]),
        ];
        let round_steps = rules.round.clone();
        let pos = |s: Step| round_steps.iter().position(|x| *x == s);
        let fast_round = matches!(
            (pos(Step::AttackerFires), pos(Step::DefenderFires), pos(Step::RemoveCasualties)),
            (Some(a), Some(d), Some(r)) if a < d && d < r
        ) && pos(Step::PressOrRetreat)
            .is_none_or(|x| x > pos(Step::RemoveCasualties).unwrap_or(0))
            && round_steps
                .iter()
                .all(|s| !matches!(s, Step::AntiAir | Step::Bombardment));
        Ok(Chain {
            q,
            p,
            sides,
            template_kinds: b.units.iter().map(|u| (u.side, u.kind)).collect(),
            template_counts: {
                let mut c: Vec<((Side, UnitTypeId), u32)> = Vec::new();
                for u in &b.units {
                    match c.iter_mut().find(|(k, _)| *k == (u.side, u.kind)) {
                        Some((_, n)) => *n += 1,
                        None => c.push(((u.side, u.kind), 1)),
                    }
                }
                c
            },
            loss_orders: [None, None],
            count_room: CountRoom::default(),
            fire_memo: Map::default(),
            fires: Vec::new(),
            fire_ids: Map::default(),
            fire_battle: None,
            fire_room: FireRoom::default(),
            signature: Vec::new(),
            cas_memo: Map::default(),
            target_sets: Vec::new(),
            cas_memo_long: Map::default(),
            struck_memo: Map::default(),
            struck_room: StruckRoom::default(),
            add_memo: Map::default(),
            check_memo: Map::default(),
            last_check: None,
            binomials: Default::default(),
            here: b.units.iter().fold(0, |a, u| a | (1 << u.kind.0)),
            round_steps,
            first_round,
            first_number: b.round,
            fast_round,
            low_luck: rules.dice == DiceRule::LowLuck,
            empty,
            states: 0,
            plans,
            changed_id: 0,
            changed: Vec::new(),
        })
    }

    pub(super) fn start(&mut self, side: Side) -> u32 {
        let s = &mut self.sides[si(side)];
        let mut counts = vec![0u16; s.classes.len()];
        for u in self
            .q
            .battle
            .units
            .iter()
            .filter(|u| u.side == side && u.status == Status::Fighting)
        {
            let c = Class::of(u, u.hp);
            counts[s.class_of(c)] += 1;
        }
        s.intern(&counts)
    }

    // ---- states as units ----

    /// The states as a battle: units in class order (ids in that order, so ties in the order
    /// of loss fall as in a battle set up class by class), plus dead units so that each type
    /// is as numerous as at the start.
    fn battle(&self, a: Option<u32>, d: Option<u32>, fill: bool) -> Battle {
        let t = &self.q.battle;
        let mut units = Vec::with_capacity(self.template_kinds.len());
        for (side, st) in [(Side::Attacker, a), (Side::Defender, d)] {
            let Some(st) = st else { continue };
            let s = &self.sides[si(side)];
            for (k, n) in s.counts[st as usize].iter().enumerate() {
                let c = s.classes[k];
                for _ in 0..*n {
                    let mut u = Combatant::new(units.len() as u32 + 1, c.kind, c.owner, side, c.hp);
                    u.seaborne = c.seaborne;
                    units.push(u);
                }
            }
        }
        if fill {
            for &((side, kind), n) in &self.template_counts {
                let alive = units.iter().filter(|u| u.side == side && u.kind == kind).count() as u32;
                for _ in alive..n {
                    let mut u = Combatant::new(units.len() as u32 + 1, kind, PowerId(0), side, 1);
                    u.status = Status::Dead;
                    u.hp = 0;
                    units.push(u);
                }
            }
        }
        let mut b = Battle::new(t.space, t.sea, t.attacker, units);
        b.retreat_to = t.retreat_to.clone();
        b.orders = t.orders.clone();
        b
    }

    /// `b`'s units made those of `side`'s state `st` alone, as `battle` makes them (for the
    /// fire of one side, which the other's units do not change).
    fn refill(&self, b: &mut Battle, side: Side, st: u32) {
        b.units.clear();
        let s = &self.sides[si(side)];
        for (k, n) in s.counts[st as usize].iter().enumerate() {
            let c = s.classes[k];
            for _ in 0..*n {
                let mut u = Combatant::new(b.units.len() as u32 + 1, c.kind, c.owner, side, c.hp);
                u.seaborne = c.seaborne;
                b.units.push(u);
            }
        }
    }

    /// Counts of a side's units in a battle, by status.
    #[cfg(test)]
    fn counts_of(&self, b: &Battle, side: Side, status: Status) -> Vec<u16> {
        let s = &self.sides[si(side)];
        let mut counts = vec![0u16; s.classes.len()];
        for u in b
            .units
            .iter()
            .filter(|u| u.side == side && u.status == status && u.hp > 0)
        {
            let c = Class::of(u, u.hp);
            counts[s.class_of(c)] += 1;
        }
        counts
    }

    fn add(&mut self, side: Side, x: u32, y: u32) -> u32 {
        if y == self.empty[si(side)] {
            return x;
        }
        if x == self.empty[si(side)] {
            return y;
        }
        let key = (si(side) as u8, x, y);
        if let Some(&z) = self.add_memo.get(&key) {
            return z;
        }
        let s = &mut self.sides[si(side)];
        let c: Vec<u16> = s.counts[x as usize]
            .iter()
            .zip(s.counts[y as usize].iter())
            .map(|(a, b)| a + b)
            .collect();
        let z = s.intern(&c);
        self.add_memo.insert(key, z);
        z
    }

    pub(super) fn without(&mut self, side: Side, x: u32, classes: u64) -> u32 {
        if classes & self.sides[si(side)].present[x as usize] == 0 {
            return x;
        }
        let s = &mut self.sides[si(side)];
        let c: Vec<u16> = s.counts[x as usize]
            .iter()
            .enumerate()
            .map(|(k, n)| if classes >> k & 1 == 1 { 0 } else { *n })
            .collect();
        s.intern(&c)
    }

    // ---- the battle code, on states ----

    fn fire(&mut self, side: Side, st: u32, who: Who) -> std::rc::Rc<Fire> {
        let id = self.fire_id(side, st, who);
        self.fires[id as usize].clone()
    }

    /// What `side` in state `st` fires (its units `who`), as an index into `fires`.
    fn fire_id(&mut self, side: Side, st: u32, who: Who) -> u32 {
        let key = (si(side) as u8, st, who, self.changed_id);
        if let Some(f) = self.fire_memo.get(&key) {
            return *f;
        }
        // One battle and one room for every state's fire: only the units change.
        let mut b = self
            .fire_battle
            .take()
            .unwrap_or_else(|| self.battle(None, None, false));
        self.refill(&mut b, side, st);
        b.changed.clone_from(&self.changed);
        let who = |u: &Combatant| match who {
            Who::All => true,
            Who::Only(set) => has(set, u.kind),
            Who::Except(set) => !has(set, u.kind),
        };
        let groups = b.fire_groups_in(self.p, side, &who, &mut self.fire_room).to_vec();
        self.fire_battle = Some(b);
        // States that fire alike (a damaged battleship's, one with transports more) share one
        // fire, so what it does to a side is worked out once: the groups say how it fires.
        let mut signature = std::mem::take(&mut self.signature);
        signature.clear();
        signature.extend(
            groups
                .iter()
                .map(|(v, t, dice, best)| (*v, t & self.here, *dice, *best)),
        );
        if let Some(&id) = self.fire_ids.get(signature.as_slice()) {
            self.fire_memo.insert(key, id);
            self.signature = signature;
            return id;
        }
        let mut targets: Vec<TypeSet> = Vec::new();
        let mut dists: Vec<Vec<f64>> = Vec::new();
        let mut totals: Vec<u32> = Vec::new();
        // Dice as the battle pools them: per target set (low luck totals each pool).
        for (value, t, members, best) in &groups {
            let i = match targets.iter().position(|x| x == t) {
                Some(i) => i,
                None => {
                    targets.push(*t);
                    dists.push(vec![1.0]);
                    totals.push(0);
                    targets.len() - 1
                }
            };
            if self.low_luck {
                totals[i] += u32::from(crate::combat::low_luck_value(*value, *best)) * *members;
            } else if *best > 1 {
                // The best of `best` dice: a hit unless all miss.
                let miss = (1.0 - f64::from((*value).min(6)) / 6.0).powi(i32::from(*best));
                dists[i] = convolve(&dists[i], &binomial_p(*members as usize, 1.0 - miss));
            } else {
                dists[i] = convolve(&dists[i], self.binomial(*members as usize, *value));
            }
        }
        if self.low_luck {
            // Every 6 of a pool's total a sure hit, the rest one die.
            for (i, total) in totals.iter().enumerate() {
                let sure = (total / 6) as usize;
                let rest = f64::from(total % 6) / 6.0;
                let mut d = vec![0.0; sure + 2];
                d[sure] = 1.0 - rest;
                d[sure + 1] = rest;
                dists[i] = d;
            }
        }
        // Types absent from the battle are never hit: hits of sets differing only in them
        // (an aircraft's leaves out submarines, a tank's does not) go to the same units.
        let here = self.here;
        let (mut merged_t, mut merged_d): (Vec<TypeSet>, Vec<Vec<f64>>) = (Vec::new(), Vec::new());
        for (t, d) in targets.into_iter().zip(dists) {
            let t = t & here;
            match merged_t.iter().position(|x| *x == t) {
                Some(i) => merged_d[i] = convolve(&merged_d[i], &d),
                None => {
                    merged_t.push(t);
                    merged_d.push(d);
                }
            }
        }
        let (targets, dists) = (merged_t, merged_d);
        let id = self.fires.len() as u32;
        self.fires.push(std::rc::Rc::new(Fire { targets, dists }));
        self.fire_ids.insert(signature.clone(), id);
        self.signature = signature;
        self.fire_memo.insert(key, id);
        id
    }

    /// `side` in state `st` takes the hits of fire `fire`: each distinct (state after, units
    /// destroyed) with its probability.
    fn struck(&mut self, side: Side, st: u32, fire: u32) -> Struck {
        let key = (si(side) as u8, st, fire);
        if let Some(r) = self.struck_memo.get(&key) {
            return r.clone();
        }
        let f = self.fires[fire as usize].clone();
        let mut room = std::mem::take(&mut self.struck_room);
        let StruckRoom {
            kept,
            starts,
            at,
            hits,
            out,
        } = &mut room;
        out.clear();
        // Every combination of hits per target set, the last set's count turning fastest,
        // counts too unlikely to matter left out. Hits of a set beyond the hit points it can
        // reach change nothing (`casualties::suggest` matches hits to hit points: a hit that
        // finds none is lost and moves no other): they count as that many.
        // A set's hits reach so many hit points of the side; with none, its hits are lost and
        // change nothing (the set is left out, as if it scored none).
        // `kept` holds each set's (hits, probability) one after the other, from `starts[i]`.
        kept.clear();
        starts.clear();
        for (d, t) in f.dists.iter().zip(&f.targets) {
            starts.push(kept.len());
            let s = &self.sides[si(side)];
            let cap: usize = s.counts[st as usize]
                .iter()
                .zip(&s.classes)
                .filter(|(n, c)| **n > 0 && has(*t, c.kind) && self.p.of(c.kind).takes_hits)
                .map(|(n, c)| usize::from(*n) * usize::from(c.hp))
                .sum();
            if cap == 0 {
                kept.push((0, 1.0));
                continue;
            }
            let from = kept.len();
            kept.extend(
                (0..d.len().min(cap + 1))
                    .filter(|&k| d[k] > NEGLIGIBLE)
                    .map(|k| (k, d[k])),
            );
            if d.len() > cap + 1 {
                let tail: f64 = d[cap..].iter().filter(|q| **q > NEGLIGIBLE).sum();
                match kept[from..].last_mut() {
                    Some(last) if last.0 == cap => last.1 = tail,
                    _ if tail > NEGLIGIBLE => kept.push((cap, tail)),
                    _ => {}
                }
            }
        }
        starts.push(kept.len());
        let sets = f.targets.len();
        if (0..sets).any(|i| starts[i] == starts[i + 1]) {
            let r: Struck = out.as_slice().into();
            self.struck_memo.insert(key, r.clone());
            self.struck_room = room;
            return r;
        }
        at.clear();
        at.extend_from_slice(&starts[..sets]);
        loop {
            hits.clear();
            let mut p = 1.0;
            for (i, &j) in at.iter().enumerate() {
                let (k, q) = kept[j];
                p *= q;
                if k > 0 {
                    hits.push((k as u32, f.targets[i]));
                }
            }
            let (after, killed) = self.casualties(side, st, hits);
            match out.iter_mut().find(|(a, k, _)| (*a, *k) == (after, killed)) {
                Some(e) => e.2 += p,
                None => out.push((after, killed, p)),
            }
            // The next combination.
            let mut i = at.len();
            loop {
                if i == 0 {
                    let r: Struck = out.as_slice().into();
                    self.struck_memo.insert(key, r.clone());
                    self.struck_room = room;
                    return r;
                }
                i -= 1;
                at[i] += 1;
                if at[i] < starts[i + 1] {
                    break;
                }
                at[i] = starts[i];
            }
        }
    }

    /// `binomial(n, value)`, kept: each row is made from the one before.
    fn binomial(&mut self, n: usize, value: u8) -> &[f64] {
        let rows = &mut self.binomials[usize::from(value.min(6))];
        if rows.is_empty() {
            rows.push(vec![1.0]);
        }
        let p = f64::from(value.min(6)) / 6.0;
        while rows.len() <= n {
            let last = rows.last().expect("row 0");
            let mut next = vec![0.0; last.len() + 1];
            for (k, x) in last.iter().enumerate() {
                next[k] += x * (1.0 - p);
                next[k + 1] += x * p;
            }
            rows.push(next);
        }
        &rows[n]
    }

    /// `side` in state `st` takes `hits`: its state after, and the units destroyed (as a
    /// state of their own).
    fn casualties(&mut self, side: Side, st: u32, hits: &[(u32, TypeSet)]) -> (u32, u32) {
        let e = self.empty[si(side)];
        if hits.iter().all(|h| h.0 == 0) {
            return (st, e);
        }
        let short = self.packed(hits);
        let found = match short {
            Some(k) => self.cas_memo.get(&(si(side) as u8, st, k)),
            None => self.cas_memo_long.get(&(si(side) as u8, st, hits.to_vec())),
        };
        if let Some(r) = found {
            return *r;
        }
        let r = self.casualties_new(side, st, hits);
        match short {
            Some(k) => self.cas_memo.insert((si(side) as u8, st, k), r),
            None => self.cas_memo_long.insert((si(side) as u8, st, hits.to_vec()), r),
        };
        r
    }

    /// Hits of up to four groups in one word, 16 bits a group: the count (under 256) and the
    /// target set's index in `target_sets` (`None`: the hits do not fit).
    fn packed(&mut self, hits: &[(u32, TypeSet)]) -> Option<u64> {
        if hits.len() > 4 {
            return None;
        }
        let mut k = 0u64;
        for (i, &(n, t)) in hits.iter().enumerate() {
            let id = match self.target_sets.iter().position(|x| *x == t) {
                Some(id) => id,
                None => {
                    self.target_sets.push(t);
                    self.target_sets.len() - 1
                }
            };
            if n > 255 || id > 255 {
                return None;
            }
            k |= (u64::from(n) | (id as u64) << 8) << (16 * i);
        }
        Some(k)
    }

    /// [`Chain::casualties`] not asked before.
    fn casualties_new(&mut self, side: Side, st: u32, hits: &[(u32, TypeSet)]) -> (u32, u32) {
        // One group reaching every unit: the next units down the order of loss.
        if let [(h, t)] = hits {
            let hittable = self.hittable(side, st);
            if hittable & !t == 0 {
                let after = self.down_chain(side, st, *h);
                let dead = self.dead_between(side, st, after);
                return (after, dead);
            }
        }
        self.casualties_counted(side, st, hits)
    }

    /// `casualties::suggest` worked out on counts, as it would choose on the battle `battle`
    /// makes of the state (with `fill`): that battle lays the state's units out class by
    /// class, so their order of loss is the classes' in `loss_order`, unit by unit, and every
    /// type stands in it as numerous as at the start, which is what orders the hit groups.
    /// `suggest_on_battle` is the same answer the long way (the tests compare them).
    fn casualties_counted(&mut self, side: Side, st: u32, hits: &[(u32, TypeSet)]) -> (u32, u32) {
        let order = self.loss_order(side);
        let mut room = std::mem::take(&mut self.count_room);
        let CountRoom {
            first_unit,
            kinds,
            last,
            unit_of,
            groups,
            expanded,
            taken,
            slots_taken,
            after,
            killed,
            matching,
        } = &mut room;
        let t = &self.q.battle;
        let p = self.p;
        let s = &self.sides[si(side)];
        let counts = &s.counts[st as usize];
        let last_of = |k: usize| p.of(s.classes[k].kind).casualty_last;
        // The capturer kept: the first unit of the first class of the highest rank.
        let keep = if t.orders[si(side)].keep_capturer && side == Side::Attacker && !t.sea {
            let mut best: Option<((usize, u32, u8), usize)> = None;
            for (k, c) in s.classes.iter().enumerate() {
                let pr = p.of(c.kind);
                if counts[k] == 0 || !pr.takes_hits || !pr.can_capture || pr.domain != Domain::Land {
                    continue;
                }
                let r = casualties::kind_rank(p, &t.orders[si(side)], c.kind, side);
                if best.is_none_or(|(b, _)| r > b) {
                    best = Some((r, k));
                }
            }
            best.map(|(_, k)| k)
        } else {
            None
        };
        // Each unit: its class and its first hit's place in `taken`.
        first_unit.clear();
        let mut units = 0;
        for n in counts.iter() {
            first_unit.push(units);
            units += usize::from(*n);
        }
        kinds.clear();
        last.clear();
        unit_of.clear();
        for goes_last in [false, true] {
            let class = || order.iter().copied().filter(|&k| last_of(k) == goes_last);
            let kept = keep.filter(|&k| last_of(k) == goes_last);
            for lethal in [false, true] {
                let mut put = |k: usize, j: usize| {
                    let hp = s.classes[k].hp;
                    let n = if lethal { 1 } else { hp.saturating_sub(1) };
                    for _ in 0..n {
                        kinds.push(s.classes[k].kind);
                        last.push(goes_last);
                        unit_of.push(first_unit[k] + j);
                    }
                };
                for k in class() {
                    let skip = usize::from(Some(k) == kept);
                    for j in skip..usize::from(counts[k]) {
                        put(k, j);
                    }
                }
                if let Some(k) = kept {
                    put(k, 0);
                }
            }
        }
        // Most constrained groups first: by the units each reaches in that battle, both sides
        // at their starting numbers (a stable sort, as `expand`'s).
        groups.clear();
        groups.extend(hits.iter().copied().filter(|h| h.0 > 0));
        groups.sort_by_key(|(_, targets)| {
            self.template_counts
                .iter()
                .filter(|((_, kind), _)| has(*targets, *kind))
                .map(|(_, n)| *n)
                .sum::<u32>()
        });
        expanded.clear();
        expanded.extend(
            groups
                .iter()
                .flat_map(|&(n, targets)| std::iter::repeat_n(targets, n as usize)),
        );
        taken.clear();
        taken.resize(units, 0);
        casualties::match_kinds(kinds, last, expanded, matching, slots_taken);
        for &slot in slots_taken.iter() {
            taken[unit_of[slot]] += 1;
        }
        after.clear();
        after.resize(counts.len(), 0);
        killed.clear();
        killed.resize(counts.len(), 0);
        for (k, n) in counts.iter().enumerate() {
            let c = s.classes[k];
            for j in 0..usize::from(*n) {
                let left = c.hp - taken[first_unit[k] + j];
                if left == 0 {
                    killed[s.at_hp(k, 1)] += 1;
                } else {
                    after[s.at_hp(k, left)] += 1;
                }
            }
        }
        let s = &mut self.sides[si(side)];
        let states = (s.intern(after), s.intern(killed));
        self.count_room = room;
        states
    }

    /// A side's classes in their order of loss as units alike but for their state: (goes
    /// last, rank, class), worked out once.
    fn loss_order(&mut self, side: Side) -> std::rc::Rc<Vec<usize>> {
        if let Some(o) = &self.loss_orders[si(side)] {
            return o.clone();
        }
        let p = self.p;
        let order = &self.q.battle.orders[si(side)];
        let classes = &self.sides[si(side)].classes;
        let mut ks: Vec<usize> = (0..classes.len())
            .filter(|&k| p.of(classes[k].kind).takes_hits)
            .collect();
        ks.sort_by_key(|&k| {
            let kind = classes[k].kind;
            (
                p.of(kind).casualty_last,
                casualties::kind_rank(p, order, kind, side),
                k,
            )
        });
        let o = std::rc::Rc::new(ks);
        self.loss_orders[si(side)] = Some(o.clone());
        o
    }

    /// [`Chain::casualties_counted`] the long way: on the battle `battle` makes of the state.
    #[cfg(test)]
    fn suggest_on_battle(&mut self, side: Side, st: u32, hits: &[(u32, TypeSet)]) -> (u32, u32) {
        // The enemy's units take no part in choosing casualties: its types count only in
        // ordering the hit groups, and `fill` keeps every type as numerous as at the start.
        let other = self.empty[si(side.other())];
        let mut b = match side {
            Side::Attacker => self.battle(Some(st), Some(other), true),
            Side::Defender => self.battle(Some(other), Some(st), true),
        };
        let groups: Vec<casualties::HitGroup> = hits
            .iter()
            .map(|(count, targets)| casualties::HitGroup {
                count: *count,
                targets: *targets,
                airborne: false,
            })
            .collect();
        let chosen = casualties::suggest(&b, self.p, side, &groups, &b.orders[si(side)]);
        let mut dead = Vec::new();
        for i in chosen {
            let u = &mut b.units[i];
            u.hp = u.hp.saturating_sub(1);
            if u.hp == 0 {
                u.status = Status::Dead;
                u.hp = 1;
                dead.push(i);
            }
        }
        let after = self.counts_of(&b, side, Status::Fighting);
        let mut killed = vec![0u16; after.len()];
        for i in dead {
            let u = &b.units[i];
            let c = Class::of(u, 1);
            killed[self.sides[si(side)].class_of(c)] += 1;
        }
        let s = &mut self.sides[si(side)];
        (s.intern(&after), s.intern(&killed))
    }

    /// Unit types of the side that can take a hit.
    fn hittable(&self, side: Side, st: u32) -> TypeSet {
        let kinds = self.sides[si(side)].kinds(st);
        self.p
            .units
            .iter()
            .filter(|u| u.takes_hits && has(kinds, u.kind))
            .fold(0, |a, u| a | (1 << u.kind.0))
    }

    /// Where `st` sits on a chain of losses: (chain, position).
    pub(super) fn place(&mut self, side: Side, st: u32) -> (usize, usize) {
        if self.sides[si(side)].place[st as usize].is_none() {
            self.walk(side, st);
        }
        let (c, at) = self.sides[si(side)].place[st as usize].expect("walked");
        (c as usize, at as usize)
    }

    /// The state `h` hits further down `st`'s order of loss (`casualties::slots`).
    fn down_chain(&mut self, side: Side, st: u32, h: u32) -> u32 {
        if self.sides[si(side)].place[st as usize].is_none() {
            self.walk(side, st);
        }
        let (c, at) = self.sides[si(side)].place[st as usize].expect("walked");
        let chain = &self.sides[si(side)].chains[c as usize];
        chain[(at as usize + h as usize).min(chain.len() - 1)]
    }

    /// The chain of losses from `st`: the state after each further slot of its order of loss.
    pub(super) fn walk(&mut self, side: Side, st: u32) {
        let b = match side {
            Side::Attacker => self.battle(Some(st), None, false),
            Side::Defender => self.battle(None, Some(st), false),
        };
        let slots = casualties::slots(&b, self.p, side, &b.orders[si(side)]);
        let s = &mut self.sides[si(side)];
        let mut counts: Vec<u16> = s.counts[st as usize].to_vec();
        let mut hp: Vec<u8> = b.units.iter().map(|u| u.hp).collect();
        let mut chain = vec![st];
        for i in slots {
            let u = &b.units[i];
            let class = |hp: u8| Class::of(u, hp);
            counts[s.class_of(class(hp[i]))] -= 1;
            hp[i] -= 1;
            if hp[i] > 0 {
                counts[s.class_of(class(hp[i]))] += 1;
            }
            chain.push(s.intern(&counts));
        }
        let id = s.chains.len() as u32;
        for (pos, x) in chain.iter().enumerate() {
            if s.place[*x as usize].is_none() {
                s.place[*x as usize] = Some((id, pos as u32));
            }
        }
        s.chains.push(chain);
    }

    /// Units destroyed going from `before` to `after` down a chain of losses.
    fn dead_between(&mut self, side: Side, before: u32, after: u32) -> u32 {
        if before == after {
            return self.empty[si(side)];
        }
        let s = &mut self.sides[si(side)];
        // Per (type, ashore, owner): units before less units after, as hp-1 classes.
        let mut killed = vec![0u16; s.classes.len()];
        let b = &s.counts[before as usize];
        let a = &s.counts[after as usize];
        for (k, c) in s.classes.iter().enumerate() {
            if c.hp != 1 {
                continue;
            }
            let total = |v: &[u16]| -> u16 {
                s.classes
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.kind == c.kind && x.seaborne == c.seaborne && x.owner == c.owner)
                    .map(|(j, _)| v[j])
                    .sum()
            };
            killed[k] = total(b) - total(a);
        }
        s.intern(&killed)
    }

    /// `Battle::check_over` on one unit per class present.
    pub(super) fn check(&mut self, a: u32, d: u32) -> Check {
        let key = (
            self.sides[0].present[a as usize],
            self.sides[1].present[d as usize],
        );
        // Neighbouring states usually have the same classes present.
        if let Some((k, c)) = self.last_check {
            if k == key {
                return c;
            }
        }
        if let Some(c) = self.check_memo.get(&key) {
            self.last_check = Some((key, *c));
            return *c;
        }
        let one = |s: &Sides, bits: u64| -> Vec<u16> {
            (0..s.classes.len()).map(|k| (bits >> k & 1) as u16).collect()
        };
        let (ca, cd) = (one(&self.sides[0], key.0), one(&self.sides[1], key.1));
        let (sa, sd) = (self.sides[0].intern(&ca), self.sides[1].intern(&cd));
        let mut b = self.battle(Some(sa), Some(sd), false);
        let outcome = b.check_over(self.p, &mut Quiet);
        // The defenseless units check_over destroyed: units were made one per class present,
        // in class order.
        let mut removed = [0u64; 2];
        for (side, bits) in [(Side::Attacker, key.0), (Side::Defender, key.1)] {
            let classes: Vec<usize> = (0..64).filter(|k| bits >> k & 1 == 1).collect();
            let units: Vec<&Combatant> = b.units.iter().filter(|u| u.side == side).collect();
            for (k, u) in classes.iter().zip(units) {
                if u.status == Status::Dead {
                    removed[si(side)] |= 1 << k;
                }
            }
        }
        let may_retreat = outcome.is_none() && b.may_retreat(self.p);
        let c = Check {
            outcome,
            removed,
            may_retreat,
        };
        self.check_memo.insert(key, c);
        self.last_check = Some((key, c));
        c
    }
}

// ---- rounds ----

impl Chain<'_> {
    /// Round `round`'s steps (with the first round's own list first, when `first`), as ops.
    fn ops(&mut self, first: bool, round: u32) -> Result<Vec<Op>, String> {
        let mut ops = Vec::new();
        if let Some(plans) = &mut self.plans {
            // The steps the scripts let run, each after the values changed by then.
            let (id, plan) = plans.round(round)?;
            let list = |ops: &mut Vec<Op>, steps: &[super::plan::Planned], in_first: bool| {
                for (i, st) in steps.iter().enumerate() {
                    ops.push(Op::Values(st.changed));
                    ops.push(match st.step {
                        Step::Script(_) => Op::Script {
                            plan: id,
                            first: in_first,
                            index: i as u32,
                        },
                        s => Op::Step(s),
                    });
                }
                ops.push(Op::Settle);
            };
            if first {
                list(&mut ops, &plan.first, true);
            }
            list(&mut ops, &plan.round, false);
            return Ok(ops);
        }
        let rules = &self.p.rules;
        if first {
            ops.extend(rules.first_round.iter().map(|s| Op::Step(*s)));
            ops.push(Op::Settle);
        }
        ops.extend(self.round_steps.iter().map(|s| Op::Step(*s)));
        ops.push(Op::Settle);
        Ok(ops)
    }

    /// Settle a state: defenseless units go, and the battle may be over.
    fn settle(&mut self, m: Mid) -> (Mid, Check) {
        let dfire = self.add(Side::Defender, m.dcas, m.dhit);
        let afire = self.add(Side::Attacker, m.a, m.ahit);
        let c = self.check(afire, dfire);
        let m = Mid {
            a: self.without(Side::Attacker, m.a, c.removed[0]),
            dcas: self.without(Side::Defender, m.dcas, c.removed[1]),
            dhit: self.without(Side::Defender, m.dhit, c.removed[1]),
            ahit: self.without(Side::Attacker, m.ahit, c.removed[0]),
            fired: m.fired,
        };
        (m, c)
    }

    /// The values rules have changed, from the next step on.
    fn set_changed(&mut self, id: u32) {
        if id != self.changed_id || self.changed.is_empty() {
            if let Some(plans) = &self.plans {
                self.changed = plans.changed[id as usize].clone();
            }
            self.changed_id = id;
        }
    }

    /// `side` takes `h` hits reaching `targets` in a script step; its casualties go at once
    /// or behind the casualty strip.
    fn hit(&mut self, m: Mid, side: Side, h: u32, targets: TypeSet, remove_now: bool) -> Mid {
        match side {
            Side::Defender => {
                let (dcas, killed) = self.casualties(Side::Defender, m.dcas, &[(h, targets)]);
                let dhit = if remove_now {
                    m.dhit
                } else {
                    self.add(Side::Defender, m.dhit, killed)
                };
                Mid { dcas, dhit, ..m }
            }
            Side::Attacker => {
                let (a, killed) = self.casualties(Side::Attacker, m.a, &[(h, targets)]);
                let ahit = if remove_now {
                    m.ahit
                } else {
                    self.add(Side::Attacker, m.ahit, killed)
                };
                Mid { a, ahit, ..m }
            }
        }
    }

    /// A script step, as `Battle::script_step` plays it: its actions in order, the battle
    /// checked after each that scored hits and at the end.
    fn script(
        &mut self,
        m: Mid,
        w: f64,
        actions: &[ScriptAction],
        remove_now: bool,
        ends: &mut Vec<End>,
    ) -> Mids {
        let mut cur = vec![(m, w)];
        for act in actions {
            let mut next = Vec::new();
            for (m, w) in cur {
                let (side, dist, targets) = match *act {
                    ScriptAction::Hits { side, count } => {
                        let mut d = vec![0.0; count as usize + 1];
                        d[count as usize] = 1.0;
                        (side, d, !0)
                    }
                    ScriptAction::Fire { side, kind, value }
                    | ScriptAction::Strike {
                        side, kind, value, ..
                    } => {
                        let n: usize = match *act {
                            ScriptAction::Strike { dice, .. } => usize::from(dice),
                            _ => {
                                // Units on the casualty strip fire back only on defense.
                                let st = match side {
                                    Side::Attacker => m.a,
                                    Side::Defender => self.add(Side::Defender, m.dcas, m.dhit),
                                };
                                let s = &self.sides[si(side)];
                                s.counts[st as usize]
                                    .iter()
                                    .zip(&s.classes)
                                    .filter(|(_, c)| c.kind == kind)
                                    .map(|(n, _)| usize::from(*n))
                                    .sum()
                            }
                        };
                        if n == 0 {
                            next.push((m, w));
                            continue;
                        }
                        let afire = self.add(Side::Attacker, m.a, m.ahit);
                        let dfire = self.add(Side::Defender, m.dcas, m.dhit);
                        let targets = self
                            .battle(Some(afire), Some(dfire), false)
                            .targets(self.p, kind, side);
                        (side.other(), binomial(n, value), targets)
                    }
                };
                for (h, p) in dist.iter().enumerate() {
                    if *p <= NEGLIGIBLE {
                        continue;
                    }
                    if h == 0 {
                        next.push((m, w * p));
                        continue;
                    }
                    let hit = self.hit(m, side, h as u32, targets, remove_now);
                    let (hit, c) = self.settle(hit);
                    match c.outcome {
                        Some(o) => ends.push(End::Over(o, hit.a, hit.dcas, w * p)),
                        None => next.push((hit, w * p)),
                    }
                }
            }
            cur = next;
        }
        let mut out = Vec::new();
        for (m, w) in cur {
            let (m, c) = self.settle(m);
            match c.outcome {
                Some(o) => ends.push(End::Over(o, m.a, m.dcas, w)),
                None => out.push((m, w)),
            }
        }
        out
    }

    /// Kinds of `side`'s fighting units that make a surprise strike now.
    fn strikers(&self, side: Side, own: u32, enemy: u32) -> TypeSet {
        let kinds = self.sides[si(side)].kinds(own);
        let enemy = self.sides[si(side.other())].kinds(enemy);
        self.p
            .units
            .iter()
            .filter(|u| has(kinds, u.kind) && u.first_strike && u.negated_by & enemy == 0)
            .fold(0, |a, u| a | (1 << u.kind.0))
    }

    /// One round from the start of it: where it ends, with probabilities.
    pub(super) fn round(&mut self, a: u32, d: u32, first: bool, round: u32) -> Result<Vec<End>, String> {
        let start = Mid {
            a,
            dcas: d,
            dhit: self.empty[1],
            ahit: self.empty[0],
            fired: [0, 0],
        };
        let ops = self.ops(first, round)?;
        let (mids, mut ends) = self.play(vec![(start, 1.0)], &ops, round)?;
        for (m, w) in mids {
            if m.dhit != self.empty[1] || m.ahit != self.empty[0] {
                return Err("units hit stay in the battle: the round has no step removing casualties".into());
            }
            ends.push(End::Next(m.a, m.dcas, w));
        }
        Ok(ends)
    }

    /// Steps played on states: the states still fighting after them, and the endings.
    pub(super) fn play(
        &mut self,
        mut mids: Vec<(Mid, f64)>,
        ops: &[Op],
        round: u32,
    ) -> Result<(Mids, Vec<End>), String> {
        let mut ends = Vec::new();
        let mut next: Vec<(Mid, f64)> = Vec::new();
        for op in ops {
            next.clear();
            for &(m, w) in &mids {
                self.op(*op, m, w, round, &mut next, &mut ends)?;
            }
            // A fixed order keeps the sums, and so the answer, the same from run to run: the
            // sort is stable, so each state's probabilities add up in the order they came.
            next.sort_by_key(|(m, _)| (m.a, m.dcas, m.dhit, m.ahit, m.fired));
            mids.clear();
            for &(m, w) in &next {
                match mids.last_mut() {
                    Some((last, sum)) if *last == m => *sum += w,
                    _ => mids.push((m, w)),
                }
            }
        }
        Ok((mids, ends))
    }

    /// Whether every round is "both sides fire, casualties go", each side's hits reaching
    /// every enemy unit: no unit strikes first, evades aircraft or cannot hit some types.
    pub(super) fn plain(&self) -> bool {
        self.fast_round
            && self.plans.is_none()
            && self.template_kinds.iter().all(|(_, k)| {
                let u = self.p.of(*k);
                !u.first_strike && u.cannot_target == 0 && u.evades_air_unless.is_none()
            })
    }

    fn op(
        &mut self,
        op: Op,
        m: Mid,
        w: f64,
        round: u32,
        next: &mut Vec<(Mid, f64)>,
        ends: &mut Vec<End>,
    ) -> Result<(), String> {
        let mut keep = |m: Mid, p: f64| {
            if p > NEGLIGIBLE {
                next.push((m, p));
            }
        };
        match op {
            Op::Settle | Op::Step(Step::RemoveCasualties) | Op::Step(Step::PressOrRetreat) => {
                let m = if matches!(op, Op::Step(Step::RemoveCasualties)) {
                    Mid {
                        dhit: self.empty[1],
                        ahit: self.empty[0],
                        ..m
                    }
                } else {
                    m
                };
                let (m, c) = self.settle(m);
                if let Some(o) = c.outcome {
                    ends.push(End::Over(o, m.a, m.dcas, w));
                    return Ok(());
                }
                if matches!(op, Op::Step(Step::PressOrRetreat))
                    && c.may_retreat
                    && self.retreats(m.a, round)?
                {
                    ends.push(End::Over(Outcome::Retreated, m.a, m.dcas, w));
                    return Ok(());
                }
                keep(m, w);
            }
            Op::Step(Step::AttackerFires) => {
                let f = self.fire_id(Side::Attacker, m.a, Who::Except(m.fired[0]));
                let struck = self.struck(Side::Defender, m.dcas, f);
                for &(dcas, killed, p) in struck.iter() {
                    let dhit = self.add(Side::Defender, m.dhit, killed);
                    keep(Mid { dcas, dhit, ..m }, w * p);
                }
            }
            Op::Step(Step::DefenderFires) => {
                let dfire = self.add(Side::Defender, m.dcas, m.dhit);
                let f = self.fire_id(Side::Defender, dfire, Who::Except(m.fired[1]));
                let struck = self.struck(Side::Attacker, m.a, f);
                for &(a, _, p) in struck.iter() {
                    keep(Mid { a, ..m }, w * p);
                }
            }
            Op::Step(Step::SurpriseStrike) => {
                let dfire = self.add(Side::Defender, m.dcas, m.dhit);
                let sa = self.strikers(Side::Attacker, m.a, dfire);
                let sd = self.strikers(Side::Defender, m.dcas, m.a);
                if sa == 0 && sd == 0 {
                    keep(m, w);
                    return Ok(());
                }
                let fa = self.fire_id(Side::Attacker, m.a, Who::Only(sa));
                let fd = self.fire_id(Side::Defender, dfire, Who::Only(sd));
                let on_attacker = self.struck(Side::Attacker, m.a, fd);
                for &(dcas, _, p) in self.struck(Side::Defender, m.dcas, fa).iter() {
                    // The attacker's victims are struck: they still strike back, then go.
                    for &(a, _, q) in on_attacker.iter() {
                        keep(
                            Mid {
                                a,
                                dcas,
                                fired: [sa, sd],
                                ..m
                            },
                            w * p * q,
                        );
                    }
                }
            }
            Op::Step(Step::AntiAir) => self.anti_air(m, w, &mut keep),
            Op::Values(id) => {
                self.set_changed(id);
                keep(m, w);
            }
            Op::Script { plan, first, index } => {
                let plans = self.plans.as_mut().expect("script ops come from plans");
                let p = plans.plan(plan);
                let st = if first {
                    &p.first[index as usize]
                } else {
                    &p.round[index as usize]
                };
                let (actions, remove_now) = (st.actions.clone(), st.remove_now);
                for (m, p) in self.script(m, w, &actions, remove_now, ends) {
                    keep(m, p);
                }
            }
            Op::Step(Step::Bombardment) => {
                let mut groups: Vec<(u8, usize)> = Vec::new();
                for b in &self.q.battle.bombarding {
                    let v = self.p.of(b.kind).bombard;
                    if v == 0 {
                        continue;
                    }
                    match groups.iter_mut().find(|g| g.0 == v) {
                        Some(g) => g.1 += 1,
                        None => groups.push((v, 1)),
                    }
                }
                let mut dist = vec![1.0];
                for (v, n) in groups {
                    dist = convolve(&dist, &binomial(n, v));
                }
                let land: TypeSet = self
                    .p
                    .units
                    .iter()
                    .filter(|u| u.domain == Domain::Land && u.takes_hits)
                    .fold(0, |a, u| a | (1 << u.kind.0));
                for (h, p) in dist.iter().enumerate() {
                    if *p <= NEGLIGIBLE {
                        continue;
                    }
                    let (dcas, killed) = self.casualties(Side::Defender, m.dcas, &[(h as u32, land)]);
                    let dhit = self.add(Side::Defender, m.dhit, killed);
                    keep(Mid { dcas, dhit, ..m }, w * p);
                }
            }
            Op::Step(s) => {
                return Err(format!(
                    "the `{}` step has no place in the chain",
                    self.p.rules.step_name(s)
                ))
            }
        }
        Ok(())
    }

    /// Antiaircraft fire, as `Battle::anti_air` fires it.
    fn anti_air(&mut self, m: Mid, w: f64, keep: &mut dyn FnMut(Mid, f64)) {
        let dfire = self.add(Side::Defender, m.dcas, m.dhit);
        let ds = &self.sides[1];
        let mut guns = 0u32;
        let mut gun = None;
        for (k, n) in ds.counts[dfire as usize].iter().enumerate() {
            if *n > 0 && self.p.of(ds.classes[k].kind).anti_air.is_some() {
                guns += u32::from(*n);
                gun.get_or_insert(ds.classes[k].kind);
            }
        }
        let Some(gun) = gun else {
            keep(m, w);
            return;
        };
        let mut aa = self.p.of(gun).anti_air.clone().expect("a gun");
        // A rule's `combat_value` for the gun changes what it hits on, as in the battle.
        if let Some(c) = self
            .changed
            .iter()
            .find(|c| c.side == Side::Defender && c.kind == gun)
        {
            aa.hit = c.value;
        }
        let s = &self.sides[0];
        let targets: Vec<(usize, u16)> = s.counts[m.a as usize]
            .iter()
            .enumerate()
            .filter(|(k, n)| **n > 0 && has(aa.targets, s.classes[*k].kind))
            .map(|(k, n)| (k, *n))
            .collect();
        if targets.is_empty() {
            keep(m, w);
            return;
        }
        if aa.aimed() {
            // One die per aircraft: each is destroyed on its own die.
            let mut combos: Vec<(Vec<u16>, f64)> = vec![(s.counts[m.a as usize].to_vec(), 1.0)];
            for (k, n) in targets {
                let d = binomial(usize::from(n), aa.hit);
                let mut next = Vec::new();
                for (c, p) in &combos {
                    for (h, q) in d.iter().enumerate() {
                        if *q <= NEGLIGIBLE {
                            continue;
                        }
                        let mut c = c.clone();
                        c[k] -= h as u16;
                        next.push((c, p * q));
                    }
                }
                combos = next;
            }
            for (c, p) in combos {
                let a = self.sides[0].intern(&c);
                keep(Mid { a, ..m }, w * p);
            }
            return;
        }
        let wanted: u32 = targets.iter().map(|(_, n)| u32::from(*n)).sum::<u32>() * aa.dice_per_target;
        let firing = if aa.one_per_space { 1 } else { guns };
        let n = aa.max_dice.map_or(wanted, |mx| wanted.min(firing * mx));
        for (h, p) in binomial(n as usize, aa.hit).iter().enumerate() {
            if *p <= NEGLIGIBLE {
                continue;
            }
            let (a, _) = self.casualties(Side::Attacker, m.a, &[(h as u32, aa.targets)]);
            keep(Mid { a, ..m }, w * p);
        }
    }
}

// ---- the whole battle ----

impl Chain<'_> {
    fn run(&mut self) -> Result<Tally, String> {
        let (a0, d0) = (self.start(Side::Attacker), self.start(Side::Defender));
        let mut over: Map<(u8, u32, u32), f64> = Map::default();
        let mut rounds = 0.0;
        let mut layer: Map<(u32, u32), f64> = Map::default();
        let start = Mid {
            a: a0,
            dcas: d0,
            dhit: self.empty[1],
            ahit: self.empty[0],
            fired: [0, 0],
        };
        // The first round's own steps (antiaircraft fire, bombardment), then its rounds'.
        let ops = self.first_ops()?;
        let (mids, ends) = self.play(vec![(start, 1.0)], &ops, self.first_number)?;
        // A battle over before its first round's dice (antiaircraft fire took every
        // attacker) still had a first round, as `Battle::round` counts.
        let over_at_once: f64 = ends
            .iter()
            .map(|e| if let End::Over(.., p) = e { *p } else { 0.0 })
            .sum();
        for end in ends {
            self.record(end, 1.0, &mut over, &mut layer);
        }
        self.states = 1;
        let plain = self.plain();
        let mut round = self.first_number;
        if self.merges_first(&mids) {
            // Round one is an ordinary round from here: its states join the others.
            rounds += over_at_once;
            for (m, w) in mids {
                *layer.entry((m.a, m.dcas)).or_default() += w;
            }
            round = 0;
        } else {
            rounds += 1.0;
            let ops = self.round_ops(self.first_number)?;
            let (left, ends) = self.play(mids, &ops, self.first_number)?;
            for end in ends {
                self.record(end, 1.0, &mut over, &mut layer);
            }
            for (m, w) in left {
                if m.dhit != self.empty[1] || m.ahit != self.empty[0] {
                    return Err(
                        "units hit stay in the battle: the round has no step removing casualties".into(),
                    );
                }
                *layer.entry((m.a, m.dcas)).or_default() += w;
            }
        }
        // Rounds counted one by one while the policy or the scripts look at them (scripts:
        // until no mass is left); after that only the units left matter.
        let counted = self.counted_rounds();
        while round < counted && !layer.is_empty() {
            round += 1;
            let mut next: Map<(u32, u32), f64> = Map::default();
            let mut here: Vec<((u32, u32), f64)> = layer.into_iter().collect();
            here.sort_by_key(|(k, _)| *k);
            for ((a, d), m) in here {
                self.states += 1;
                if self.plans.is_some() && self.states > MAX_SCRIPTED {
                    return Err(format!(
                        "the rule scripts are asked round by round, and this battle takes more than {MAX_SCRIPTED} unit combinations over its rounds"
                    ));
                }
                rounds += m;
                let ends = self.round(a, d, false, round)?;
                let stays = ends
                    .iter()
                    .any(|e| matches!(e, End::Next(x, y, p) if (*x, *y) == (a, d) && *p >= 1.0 - 1e-12));
                if stays {
                    return Err("a round that can never change anything".into());
                }
                for end in ends {
                    self.record(end, m, &mut over, &mut next);
                }
            }
            // Counted one by one, a battle's rounds go on while any mass is left: what is too
            // little to matter is dropped, as within a round.
            next.retain(|_, m| *m > NEGLIGIBLE);
            layer = next;
        }
        // Pairs the dense tables leave are unsettled: defenseless units go before anything.
        let mut unsettled = Map::default();
        if plain {
            unsettled = self.dense(layer, &mut over, &mut rounds)?;
            layer = Map::default();
        }
        self.rounds_left(layer, unsettled, &mut over, &mut rounds)?;
        let mut tally = self.tally(over);
        tally.rounds = rounds * tally.total;
        Ok(tally)
    }

    /// The rounds after those counted one by one, to the end of the battle, in an order where
    /// a pair of states comes after every pair leading to it: by the hit points both sides
    /// have left, most first (a round that changes anything takes some), then by state.
    ///
    /// `layer` holds pairs as a round leaves them (settled, the retreat asked). A standard
    /// round ([`Chain::standard_round`]) sends its mass straight to each pair of the product
    /// of the two sides' results, unsettled (`raw`): such a pair is settled, and the retreat
    /// asked, when its turn comes, once for all the mass that reached it, as the battle does
    /// between rounds. `unsettled` pairs (from the dense tables) are taken the same way.
    fn rounds_left(
        &mut self,
        layer: Map<(u32, u32), f64>,
        unsettled: Map<(u32, u32), f64>,
        over: &mut Map<(u8, u32, u32), f64>,
        rounds: &mut f64,
    ) -> Result<(), String> {
        let standard = self.standard_round();
        let asks_retreat = self.round_steps.contains(&Step::PressOrRetreat);
        let mut fresh: Vec<Map<(u32, u32), f64>> = Vec::new();
        let mut raw = Raw::default();
        let mut entries: Vec<((u32, u32), f64)> = unsettled.into_iter().collect();
        entries.sort_by_key(|(k, _)| *k);
        for ((a, d), m) in entries {
            raw.put(a, d, self.hp_of(a, d), m);
        }
        let mut entries: Vec<((u32, u32), f64)> = layer.into_iter().collect();
        entries.sort_by_key(|(k, _)| *k);
        for ((a, d), m) in entries {
            let h = self.hp_of(a, d);
            if fresh.len() <= h {
                fresh.resize_with(h + 1, Map::default);
            }
            *fresh[h].entry((a, d)).or_default() += m;
        }
        let mut bucket: Vec<((u32, u32), f64)> = Vec::new();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        let mut next: Vec<(u32, u32, f64)> = Vec::new();
        let mut h = fresh.len().max(raw.buckets.len());
        while h > 0 {
            let b = h - 1;
            let fresh_here = fresh.get(b).is_some_and(|f| !f.is_empty());
            let raw_here = raw.buckets.get(b).is_some_and(|r| !r.is_empty());
            if !fresh_here && !raw_here {
                h -= 1;
                continue;
            }
            bucket.clear();
            if fresh_here {
                bucket.extend(fresh[b].drain());
                bucket.sort_by_key(|(k, _)| *k);
            }
            pairs.clear();
            if raw_here {
                std::mem::swap(&mut pairs, &mut raw.buckets[b]);
                pairs.sort_unstable();
            }
            let from_raw = pairs.iter().map(|&(a, d)| ((a, d), true));
            let work: Vec<((u32, u32), bool)> =
                bucket.iter().map(|&(k, _)| (k, false)).chain(from_raw).collect();
            for (i, ((a, d), settle)) in work.into_iter().enumerate() {
                let m = if settle { raw.take(a, d) } else { bucket[i].1 };
                if m <= 0.0 {
                    continue;
                }
                if settle && !self.arrive(a, d, m, asks_retreat, &mut raw, over)? {
                    continue;
                }
                self.states += 1;
                if self.states > MAX_STATES {
                    return Err(format!("more than {MAX_STATES} combinations of units"));
                }
                if let Some((ss, _)) = standard {
                    self.successors(a, d, ss, &mut next);
                    let stay: f64 = next
                        .iter()
                        .filter(|(x, y, _)| (*x, *y) == (a, d))
                        .map(|(.., p)| *p)
                        .sum();
                    let visits = visits(m, stay)?;
                    *rounds += visits;
                    for &(x, y, p) in &next {
                        if (x, y) == (a, d) || visits * p <= NEGLIGIBLE {
                            continue;
                        }
                        let to = self.hp_of(x, y);
                        if to >= h {
                            return Err("a round that gave units hit points".into());
                        }
                        raw.put(x, y, to, visits * p);
                    }
                    continue;
                }
                let ends = self.round(a, d, false, u32::MAX)?;
                let visits = visits(m, stay(&ends, a, d))?;
                *rounds += visits;
                for end in ends {
                    match end {
                        End::Next(x, y, _) if (x, y) == (a, d) => {}
                        End::Next(x, y, p) => {
                            if visits * p > NEGLIGIBLE {
                                // Hit points never come back (a total kept is taken again).
                                let to = self.hp_of(x, y);
                                if to >= h {
                                    return Err("a round that gave units hit points".into());
                                }
                                *fresh[to].entry((x, y)).or_default() += visits * p;
                            }
                        }
                        End::Over(o, x, y, p) => {
                            *over.entry((super::outcome_key(o), x, y)).or_default() += visits * p;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Mass `m` arriving unsettled at `(a, d)` is settled, as the battle does between rounds:
    /// defenseless units go (the mass moves on, fewer hit points), the battle may be over, the
    /// attacker may retreat. Whether the pair fights a round.
    fn arrive(
        &mut self,
        a: u32,
        d: u32,
        m: f64,
        asks_retreat: bool,
        raw: &mut Raw,
        over: &mut Map<(u8, u32, u32), f64>,
    ) -> Result<bool, String> {
        let c = self.check(a, d);
        if c.removed != [0, 0] {
            let x = self.without(Side::Attacker, a, c.removed[0]);
            let y = self.without(Side::Defender, d, c.removed[1]);
            raw.put(x, y, self.hp_of(x, y), m);
            return Ok(false);
        }
        let ended = match c.outcome {
            Some(o) => Some(o),
            None if asks_retreat && c.may_retreat && self.retreats(a, u32::MAX)? => Some(Outcome::Retreated),
            None => None,
        };
        if let Some(o) = ended {
            *over.entry((super::outcome_key(o), a, d)).or_default() += m;
        }
        Ok(ended.is_none())
    }

    /// Whether a round is the standard one, `[surprise strike,] attacker fires, defender
    /// fires, remove casualties[, press or retreat]`, with no script asked: (with a surprise
    /// strike, with a press-or-retreat step).
    fn standard_round(&self) -> Option<(bool, bool)> {
        if self.plans.is_some() {
            return None;
        }
        let steps = &self.round_steps;
        let ss = steps.first() == Some(&Step::SurpriseStrike);
        let rest = &steps[usize::from(ss)..];
        match rest {
            [Step::AttackerFires, Step::DefenderFires, Step::RemoveCasualties] => Some((ss, false)),
            [Step::AttackerFires, Step::DefenderFires, Step::RemoveCasualties, Step::PressOrRetreat] => {
                Some((ss, true))
            }
            _ => None,
        }
    }

    /// A standard round from `(a, d)`: every pair of states it may leave, unsettled, with its
    /// probability, as `round` plays it: the surprise strikes of both sides at once, then each
    /// side's fire on the other (the defender's units hit fire back, so the defender fires as
    /// it stood after the strikes), the two results independent.
    fn successors(&mut self, a: u32, d: u32, ss: bool, out: &mut Vec<(u32, u32, f64)>) {
        out.clear();
        let (sa, sd) = if ss {
            (
                self.strikers(Side::Attacker, a, d),
                self.strikers(Side::Defender, d, a),
            )
        } else {
            (0, 0)
        };
        let mut after_strikes: Vec<(u32, u32, f64)> = Vec::new();
        if sa == 0 && sd == 0 {
            after_strikes.push((a, d, 1.0));
        } else {
            let fa = self.fire_id(Side::Attacker, a, Who::Only(sa));
            let fd = self.fire_id(Side::Defender, d, Who::Only(sd));
            let on_attacker = self.struck(Side::Attacker, a, fd);
            for &(d1, _, p) in self.struck(Side::Defender, d, fa).iter() {
                for &(a1, _, q) in on_attacker.iter() {
                    if p * q > NEGLIGIBLE {
                        after_strikes.push((a1, d1, p * q));
                    }
                }
            }
        }
        for (a1, d1, p1) in after_strikes {
            let fa = self.fire_id(Side::Attacker, a1, Who::Except(sa));
            let on_defender = self.struck(Side::Defender, d1, fa);
            let fd = self.fire_id(Side::Defender, d1, Who::Except(sd));
            let on_attacker = self.struck(Side::Attacker, a1, fd);
            for &(d2, _, q) in on_defender.iter() {
                let pq = p1 * q;
                if pq <= NEGLIGIBLE {
                    continue;
                }
                for &(a2, _, r) in on_attacker.iter() {
                    out.push((a2, d2, pq * r));
                }
            }
        }
    }

    /// The first round's own steps (antiaircraft fire, bombardment), then a settling.
    pub(super) fn first_ops(&mut self) -> Result<Vec<Op>, String> {
        if !self.first_round {
            return Ok(vec![Op::Settle]);
        }
        if self.plans.is_some() {
            let mut ops = self.ops(true, self.first_number)?;
            // Only the first list: the round's own follows from `round_ops`.
            let end = ops
                .iter()
                .position(|o| matches!(o, Op::Settle))
                .expect("each list ends in a settling");
            ops.truncate(end + 1);
            return Ok(ops);
        }
        let mut ops: Vec<Op> = self.p.rules.first_round.iter().map(|s| Op::Step(*s)).collect();
        ops.push(Op::Settle);
        Ok(ops)
    }

    /// Round `round`'s steps, then a settling.
    pub(super) fn round_ops(&mut self, round: u32) -> Result<Vec<Op>, String> {
        self.ops(false, round)
    }

    /// What a round's transitions depend on besides the units: its number while the retreat
    /// policy counts rounds, the scripts' plan for it (rounds planned alike share it).
    pub(super) fn round_key(&mut self, round: u32) -> Result<u32, String> {
        let counted = self.counted_rounds();
        match &mut self.plans {
            Some(plans) => Ok(plans.round(round)?.0),
            None if round <= counted => Ok(round),
            None => Ok(u32::MAX),
        }
    }

    /// Whether the states left after the first round's own steps go on as ordinary rounds
    /// (the first round counted among them).
    pub(super) fn merges_first(&self, mids: &[(Mid, f64)]) -> bool {
        self.plain()
            && self.q.retreat.after_round.is_none()
            && mids.iter().all(|(m, _)| m.dhit == self.empty[1])
    }

    /// The round up to which rounds are counted one by one: while the retreat policy looks
    /// at their number, and with scripts, always.
    pub(super) fn counted_rounds(&self) -> u32 {
        if self.plans.is_some() {
            return u32::MAX;
        }
        self.q.retreat.after_round.unwrap_or(0)
    }

    /// Endings by (outcome, attacker's state, defender's state) as unit counts per type.
    pub(super) fn tally(&self, over: Map<(u8, u32, u32), f64>) -> Tally {
        let mut tally = Tally::default();
        let types = self.p.units.len();
        let mut ends: Vec<((u8, u32, u32), f64)> = over.into_iter().collect();
        ends.sort_by_key(|(k, _)| *k);
        for ((o, a, d), w) in ends {
            let per = |s: &Sides, st: u32| -> Vec<u32> {
                let mut v = vec![0u32; types];
                for (k, n) in s.counts[st as usize].iter().enumerate() {
                    v[s.classes[k].kind.index()] += u32::from(*n);
                }
                v
            };
            let (pa, pd) = (per(&self.sides[0], a), per(&self.sides[1], d));
            tally.add(super::outcome_of(o), pa, pd, w);
        }
        tally
    }

    /// The hit points both sides have left.
    fn hp_of(&self, a: u32, d: u32) -> usize {
        (self.sides[0].hp[a as usize] + self.sides[1].hp[d as usize]) as usize
    }

    fn record(
        &self,
        end: End,
        m: f64,
        over: &mut Map<(u8, u32, u32), f64>,
        layer: &mut Map<(u32, u32), f64>,
    ) {
        match end {
            End::Over(o, a, d, p) => *over.entry((super::outcome_key(o), a, d)).or_default() += m * p,
            End::Next(a, d, p) => *layer.entry((a, d)).or_default() += m * p,
        }
    }
}

/// The probability that a round from `(a, d)` leaves it where it is.
pub(super) fn stay(ends: &[End], a: u32, d: u32) -> f64 {
    ends.iter()
        .map(|e| match e {
            End::Next(x, y, p) if (*x, *y) == (a, d) => *p,
            _ => 0.0,
        })
        .sum()
}

/// The rounds mass `m` fights at a pair a round leaves where it is with probability `stay`:
/// such rounds repeat, and the mass leaves through the others.
fn visits(m: f64, stay: f64) -> Result<f64, String> {
    if stay >= 1.0 - 1e-12 {
        return Err("a round that can never change anything".into());
    }
    Ok(m / (1.0 - stay))
}

/// Mass waiting at pairs of states a standard round reached, settled when taken, and per total
/// of hit points the pairs reached. (A map: the states of both sides may number thousands,
/// the pairs reached far fewer.)
#[derive(Default)]
struct Raw {
    mass: Map<(u32, u32), f64>,
    buckets: Vec<Vec<(u32, u32)>>,
}

impl Raw {
    fn put(&mut self, a: u32, d: u32, hp: usize, m: f64) {
        let e = self.mass.entry((a, d)).or_insert(0.0);
        if *e == 0.0 {
            if self.buckets.len() <= hp {
                self.buckets.resize_with(hp + 1, Vec::new);
            }
            self.buckets[hp].push((a, d));
        }
        *e += m;
    }

    fn take(&mut self, a: u32, d: u32) -> f64 {
        self.mass.remove(&(a, d)).unwrap_or(0.0)
    }
}

// ---- the fast path ----

/// A side's hits from one state: the probabilities from `offset` hits on, tails dropped.
pub(super) struct Hits {
    pub(super) offset: usize,
    p: Vec<f64>,
    /// `tail[k]`: the probability of `offset + k` hits or more.
    tail: Vec<f64>,
}

impl Hits {
    /// The probability that these hits leave the enemy where it is: none scored, or nothing
    /// left on its chain of losses to take them (`last`).
    pub(super) fn stays(&self, last: bool) -> f64 {
        match (last, self.offset) {
            (true, _) => 1.0,
            (false, 0) => self.p[0],
            (false, _) => 0.0,
        }
    }

    /// The number of hits a draw `u` (uniform in [0, 1)) stands for.
    pub(super) fn draw(&self, u: f64) -> usize {
        // Tails were dropped: the draw is over what is kept.
        let x = (1.0 - u) * self.tail[0];
        let k = self.tail.partition_point(|t| *t >= x);
        self.offset + k.saturating_sub(1).min(self.p.len() - 1)
    }
}

impl Chain<'_> {
    pub(super) fn hits(&mut self, side: Side, st: u32) -> std::rc::Rc<Hits> {
        if let Some(h) = &self.sides[si(side)].hits[st as usize] {
            return h.clone();
        }
        let f = self.fire(side, st, Who::All);
        let d = match f.dists.as_slice() {
            [] => vec![1.0],
            [d] => d.clone(),
            _ => unreachable!("plain battles have one target set"),
        };
        let lo = d.iter().position(|x| *x > NEGLIGIBLE).unwrap_or(0);
        let hi = d.iter().rposition(|x| *x > NEGLIGIBLE).unwrap_or(0);
        let p = d[lo..=hi].to_vec();
        let mut tail = vec![0.0; p.len() + 1];
        for k in (0..p.len()).rev() {
            tail[k] = tail[k + 1] + p[k];
        }
        let h = std::rc::Rc::new(Hits { offset: lo, p, tail });
        self.sides[si(side)].hits[st as usize] = Some(h.clone());
        h
    }

    /// Plain rounds over dense tables, one per pair of chains of losses: a state's position
    /// on its chain only grows, so one pass in position order sees every state after all
    /// those leading to it. States leaving the chains (defenseless units destroyed) are
    /// returned for the general path.
    fn dense(
        &mut self,
        layer: Map<(u32, u32), f64>,
        over: &mut Map<(u8, u32, u32), f64>,
        rounds: &mut f64,
    ) -> Result<Map<(u32, u32), f64>, String> {
        let mut blocks: BTreeMap<(u32, u32), Starts> = BTreeMap::new();
        let mut entries: Vec<((u32, u32), f64)> = layer.into_iter().collect();
        entries.sort_by_key(|(k, _)| *k);
        for ((a, d), m) in entries {
            if self.sides[0].place[a as usize].is_none() {
                self.walk(Side::Attacker, a);
            }
            if self.sides[1].place[d as usize].is_none() {
                self.walk(Side::Defender, d);
            }
            let (ca, pa) = self.sides[0].place[a as usize].expect("walked");
            let (cd, pd) = self.sides[1].place[d as usize].expect("walked");
            blocks.entry((ca, cd)).or_default().push((pa, pd, m));
        }
        let mut leftover: Map<(u32, u32), f64> = Map::default();
        for ((ca, cd), start) in blocks {
            let chain_a = self.sides[0].chains[ca as usize].clone();
            let chain_d = self.sides[1].chains[cd as usize].clone();
            let (la, ld) = (chain_a.len(), chain_d.len());
            let mut mass = vec![0.0f64; la * ld];
            for (pa, pd, m) in start {
                mass[pa as usize * ld + pd as usize] += m;
            }
            for pa in 0..la {
                for pd in 0..ld {
                    let m = mass[pa * ld + pd];
                    if m <= NEGLIGIBLE {
                        continue;
                    }
                    self.states += 1;
                    let (a, d) = (chain_a[pa], chain_d[pd]);
                    let c = self.check(a, d);
                    if c.removed != [0, 0] {
                        *leftover.entry((a, d)).or_default() += m;
                        continue;
                    }
                    if let Some(o) = c.outcome {
                        *over.entry((super::outcome_key(o), a, d)).or_default() += m;
                        continue;
                    }
                    if c.may_retreat && self.retreats(a, u32::MAX)? {
                        *over
                            .entry((super::outcome_key(Outcome::Retreated), a, d))
                            .or_default() += m;
                        continue;
                    }
                    let ha = self.hits(Side::Attacker, a);
                    let hd = self.hits(Side::Defender, d);
                    let stay = ha.stays(pd == ld - 1) * hd.stays(pa == la - 1);
                    if stay >= 1.0 - 1e-12 {
                        return Err("a round that can never change anything".into());
                    }
                    let visits = m / (1.0 - stay);
                    *rounds += visits;
                    // Hits past the end of the defender's chain all land on its last state;
                    // the rest is one contiguous run of the row, which the compiler vectorizes.
                    // What lands back on this state is mass already counted by `visits`.
                    let start = pd + ha.offset;
                    let run = (ld - 1).saturating_sub(start).min(ha.p.len());
                    for (i, q) in hd.p.iter().enumerate() {
                        let ta = (pa + hd.offset + i).min(la - 1);
                        let row = &mut mass[ta * ld..(ta + 1) * ld];
                        let vq = visits * q;
                        for (dst, r) in row[start.min(ld - 1)..][..run].iter_mut().zip(&ha.p[..run]) {
                            *dst += vq * r;
                        }
                        if run < ha.p.len() {
                            row[ld - 1] += vq * ha.tail[run];
                        }
                    }
                }
            }
        }
        Ok(leftover)
    }

    /// The policy's answer for an attacker that may retreat, as the round's last step asks.
    pub(super) fn retreats(&self, a: u32, round: u32) -> Result<bool, String> {
        let s = &self.sides[0];
        let counts = &s.counts[a as usize];
        let left = s.units(a);
        let all_air = counts
            .iter()
            .enumerate()
            .all(|(k, n)| *n == 0 || self.p.of(s.classes[k].kind).domain == Domain::Air);
        if !self.q.retreat.wants(round, left, all_air) {
            return Ok(false);
        }
        if counts
            .iter()
            .enumerate()
            .any(|(k, n)| *n > 0 && s.classes[k].seaborne)
        {
            return Err("units that came ashore fight on when the others retreat".into());
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layers::LoadRequest;
    use crate::odds::Spec;
    use std::path::Path;

    /// The recorded battles' forces (tests/odds/golden.toml), each as a question on its rule
    /// set: (the battle's text, the question).
    fn recorded() -> Vec<(String, Question)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let text = std::fs::read_to_string(root.join("tests/odds/golden.toml")).expect("golden.toml");
        let data: toml::Value = toml::from_str(&text).expect("golden.toml is TOML");
        let mut out = Vec::new();
        for b in data["battle"].as_array().expect("[[battle]] tables") {
            let mut req = LoadRequest::new(root.join("editions"), b["edition"].as_str().expect("edition"));
            for layer in b["with"].as_array().expect("with") {
                req = req.with(layer.as_str().expect("a layer"));
            }
            let rules = std::sync::Arc::new(crate::rules::load(&req).expect("the rules load"));
            // The forces only: options (amphibious, bombard, retreat) change nothing here.
            let text = b["battle"].as_str().expect("battle");
            let forces = text.split(';').next().expect("forces");
            let (a, d) = forces.split_once(" vs ").expect("A vs D");
            let spec = Spec::of_forces(&rules, a, d).expect("the battle's units");
            out.push((text.to_string(), spec.question(&rules).expect("a battle")));
        }
        out
    }

    /// Casualties worked out on counts are those `casualties::suggest` chooses on the battle,
    /// for the states reached from the start by hits of the target sets the battle's units
    /// fire at, one and two groups at a time, in every recorded battle the chain answers.
    #[test]
    fn casualties_on_counts_are_those_suggested_on_the_battle() {
        let mut compared = 0;
        for (text, q) in recorded() {
            let Ok(mut c) = Chain::new(&q) else { continue };
            for side in [Side::Attacker, Side::Defender] {
                // What the other side's units can reach, and every type that takes hits.
                let mut sets: Vec<TypeSet> = q
                    .battle
                    .alive(side.other())
                    .map(|(_, u)| q.battle.targets(&q.profiles, u.kind, side.other()))
                    .collect();
                sets.push(q.profiles.hittable);
                sets.sort();
                sets.dedup();
                let mut hits: Vec<Vec<(u32, TypeSet)>> = Vec::new();
                for &a in &sets {
                    for n in 1..=3 {
                        hits.push(vec![(n, a)]);
                        for &b in sets.iter().filter(|&&b| b != a) {
                            hits.push(vec![(n, a), (1, b)]);
                            hits.push(vec![(1, b), (n, a)]);
                        }
                    }
                }
                let mut todo = vec![c.start(side)];
                let mut seen = std::collections::HashSet::new();
                while let Some(st) = todo.pop() {
                    if seen.len() >= 30 || !seen.insert(st) {
                        continue;
                    }
                    for h in &hits {
                        let counted = c.casualties_counted(side, st, h);
                        let long = c.suggest_on_battle(side, st, h);
                        assert_eq!(counted, long, "{text}: {side:?} state {st} takes {h:?}");
                        compared += 1;
                        todo.push(counted.0);
                    }
                }
            }
        }
        assert!(compared > 5000, "only {compared} cases compared");
    }
}
