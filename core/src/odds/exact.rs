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

mod dense;
mod losses;
mod rounds;

pub(super) use dense::Hits;
use losses::{CountRoom, StruckRoom};

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

/// A state's counts hashed, as `Sides::index` keeps them.
fn hash_counts(counts: &[u16]) -> u64 {
    let mut h = Fx::default();
    for c in counts {
        h.write_u16(*c);
    }
    h.finish()
}

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

/// The states of one side, interned.
pub(super) struct Sides {
    classes: Vec<Class>,
    /// `at_hp[k][hp]`: the class of class `k`'s units at `hp` hit points (`class_of`, looked
    /// up once).
    at_hp: Vec<Vec<Option<usize>>>,
    /// Each state's units per class, one after the other (`Sides::counts`).
    all_counts: Vec<u16>,
    /// States by their counts: ids hashed by `all_counts`.
    index: hashbrown::HashTable<u32>,
    /// Hit points left, per state: no transition raises it.
    hp: Vec<u32>,
    /// Classes present, per state (bit per class).
    present: Vec<u64>,
    /// Where a state sits on a chain of losses: (chain, position).
    pub(super) place: Vec<Option<(u32, u32)>>,
    pub(super) chains: Vec<Vec<u32>>,
    /// A state's hits in a plain round, once asked for: an index into `hit_table`.
    hits: Vec<Option<u32>>,
    pub(super) hit_table: Vec<Hits>,
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
        // Room for the states of a middling battle from the start: growing these vectors
        // one doubling at a time cost more than the room.
        const STATES: usize = 32;
        Sides {
            all_counts: Vec::with_capacity(STATES * classes.len()),
            classes,
            at_hp,
            index: hashbrown::HashTable::with_capacity(STATES),
            hp: Vec::with_capacity(STATES),
            present: Vec::with_capacity(STATES),
            place: Vec::with_capacity(STATES),
            chains: Vec::new(),
            hits: Vec::with_capacity(STATES),
            hit_table: Vec::with_capacity(STATES),
        }
    }

    fn intern(&mut self, counts: &[u16]) -> u32 {
        let n = counts.len();
        let all = &self.all_counts;
        let found = self
            .index
            .find(hash_counts(counts), |&i| &all[i as usize * n..][..n] == counts);
        if let Some(&i) = found {
            return i;
        }
        let i = self.hp.len() as u32;
        self.index.insert_unique(hash_counts(counts), i, |&j| {
            hash_counts(&all[j as usize * n..][..n])
        });
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
        self.all_counts.extend_from_slice(counts);
        self.hp.push(hp);
        self.present.push(present);
        self.place.push(None);
        self.hits.push(None);
        i
    }

    /// State `s`'s units per class.
    pub(super) fn counts(&self, s: u32) -> &[u16] {
        let n = self.classes.len();
        &self.all_counts[s as usize * n..][..n]
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
        for (k, n) in self.counts(s).iter().enumerate() {
            if *n > 0 {
                set |= 1 << self.classes[k].kind.0;
            }
        }
        set
    }

    fn units(&self, s: u32) -> u32 {
        self.counts(s).iter().map(|n| u32::from(*n)).sum()
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
    /// The vector `convolve_into` works in.
    convolve_room: Vec<f64>,
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
    /// The attacker's classes of air units, and of units that came ashore (bit per class).
    air_classes: u64,
    seaborne_classes: u64,
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

/// `d` made its convolution with `b`, worked out in `room` (which keeps `d`'s old vector for
/// the next call).
fn convolve_into(d: &mut Vec<f64>, b: &[f64], room: &mut Vec<f64>) {
    if let [one] = d.as_slice() {
        if *one == 1.0 {
            d.clear();
            d.extend_from_slice(b);
            return;
        }
    }
    room.clear();
    room.resize(d.len() + b.len() - 1, 0.0);
    for (i, x) in d.iter().enumerate() {
        if *x == 0.0 {
            continue;
        }
        for (o, y) in room[i..].iter_mut().zip(b) {
            *o += x * y;
        }
    }
    std::mem::swap(d, room);
}

/// Why the chain cannot answer `q`'s battle, if it cannot; else whether the battle starts
/// before its first round's own steps (`Battle::at_list_start`).
fn refusal(q: &Question) -> Result<bool, String> {
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
    let guns = b
        .units
        .iter()
        .any(|u| u.side == Side::Defender && u.status == Status::Fighting && p.of(u.kind).anti_air.is_some());
    if guns && b.units.iter().any(|u| u.airborne && u.status == Status::Fighting) {
        return Err("paratroopers draw the antiaircraft fire".into());
    }
    // Without scripts to ask, the chain builds its battles from unit counts alone.
    if !b.changed.is_empty() && q.scripts.is_none() {
        return Err("a rule changed unit values earlier in this battle".into());
    }
    Ok(first_round)
}

/// Each side's classes (type, hit points, cannot retreat, owner) among its units still
/// fighting, every hit-point variant of a class listed.
fn classes_of(b: &Battle) -> Result<[Vec<Class>; 2], String> {
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
    Ok(classes)
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
        // Room in the memos for a middling battle's fires and states from the start, as in
        // `Sides::new`.
        const ROOM: usize = 128;
        let b = &q.battle;
        let p = &q.profiles;
        let first_round = refusal(q)?;
        let rules = &p.rules;
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
        let [ca, cd] = classes_of(b)?;
        let bits = |f: &dyn Fn(&Class) -> bool| {
            ca.iter()
                .enumerate()
                .filter(|(_, c)| f(c))
                .fold(0u64, |a, (k, _)| a | 1 << k)
        };
        let air_classes = bits(&|c| p.of(c.kind).domain == Domain::Air);
        let seaborne_classes = bits(&|c| c.seaborne);
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
            fire_memo: Map::with_capacity_and_hasher(ROOM, Default::default()),
            fires: Vec::with_capacity(ROOM),
            fire_ids: Map::with_capacity_and_hasher(ROOM, Default::default()),
            fire_battle: None,
            fire_room: FireRoom::default(),
            signature: Vec::new(),
            convolve_room: Vec::new(),
            cas_memo: Map::with_capacity_and_hasher(ROOM, Default::default()),
            target_sets: Vec::new(),
            cas_memo_long: Map::default(),
            struck_memo: Map::default(),
            struck_room: StruckRoom::default(),
            add_memo: Map::default(),
            check_memo: Map::with_capacity_and_hasher(ROOM, Default::default()),
            last_check: None,
            binomials: Default::default(),
            here: b.units.iter().fold(0, |a, u| a | (1 << u.kind.0)),
            round_steps,
            first_round,
            first_number: b.round,
            fast_round,
            low_luck: rules.dice == DiceRule::LowLuck,
            empty,
            air_classes,
            seaborne_classes,
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
            for (k, n) in s.counts(st).iter().enumerate() {
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
        for (k, n) in s.counts(st).iter().enumerate() {
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
        let c: Vec<u16> = s
            .counts(x)
            .iter()
            .zip(s.counts(y).iter())
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
        let c: Vec<u16> = s
            .counts(x)
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
        let groups = b.fire_groups_in(self.p, side, &who, &mut self.fire_room);
        // States that fire alike (a damaged battleship's, one with transports more) share one
        // fire, so what it does to a side is worked out once: the groups say how it fires.
        let here = self.here;
        let mut signature = std::mem::take(&mut self.signature);
        signature.clear();
        signature.extend(
            groups
                .iter()
                .map(|(v, t, dice, best)| (*v, t & here, *dice, *best)),
        );
        self.fire_battle = Some(b);
        if let Some(&id) = self.fire_ids.get(signature.as_slice()) {
            self.fire_memo.insert(key, id);
            self.signature = signature;
            return id;
        }
        // Types absent from the battle are never hit: hits of sets differing only in them
        // (an aircraft's leaves out submarines, a tank's does not) go to the same units, so
        // dice are pooled by the set within the battle. Low luck totals each of the battle's
        // own pools first (the signature keeps only what is in the battle: low-luck fires
        // are worked out from the battle's groups).
        let (targets, dists) = if self.low_luck {
            self.low_luck_fire()
        } else {
            let mut targets: Vec<TypeSet> = Vec::new();
            let mut dists: Vec<Vec<f64>> = Vec::new();
            let mut room = std::mem::take(&mut self.convolve_room);
            for &(value, t, members, best) in &signature {
                let i = match targets.iter().position(|x| *x == t) {
                    Some(i) => i,
                    None => {
                        targets.push(t);
                        dists.push(Vec::with_capacity(members as usize * 2 + 1));
                        dists.last_mut().expect("pushed").push(1.0);
                        targets.len() - 1
                    }
                };
                if best > 1 {
                    // The best of `best` dice: a hit unless all miss.
                    let miss = (1.0 - f64::from(value.min(6)) / 6.0).powi(i32::from(best));
                    convolve_into(
                        &mut dists[i],
                        &binomial_p(members as usize, 1.0 - miss),
                        &mut room,
                    );
                } else {
                    let row = self.binomial(members as usize, value);
                    convolve_into(&mut dists[i], row, &mut room);
                }
            }
            self.convolve_room = room;
            (targets, dists)
        };
        let id = self.fires.len() as u32;
        self.fires.push(std::rc::Rc::new(Fire { targets, dists }));
        self.fire_ids.insert(signature.clone(), id);
        self.signature = signature;
        self.fire_memo.insert(key, id);
        id
    }

    /// A low-luck fire from the groups `fire_groups_in` last left in the room: every 6 of a
    /// pool's total a sure hit, the rest one die; pools differing only in types absent from
    /// the battle then go to the same units.
    fn low_luck_fire(&self) -> (Vec<TypeSet>, Vec<Vec<f64>>) {
        let mut pools: Vec<(TypeSet, u32)> = Vec::new();
        for (value, t, members, best) in self.fire_room.groups() {
            let total = u32::from(crate::combat::low_luck_value(*value, *best)) * *members;
            match pools.iter_mut().find(|(x, _)| x == t) {
                Some((_, n)) => *n += total,
                None => pools.push((*t, total)),
            }
        }
        let mut targets: Vec<TypeSet> = Vec::new();
        let mut dists: Vec<Vec<f64>> = Vec::new();
        for (t, total) in pools {
            let sure = (total / 6) as usize;
            let rest = f64::from(total % 6) / 6.0;
            let mut d = vec![0.0; sure + 2];
            d[sure] = 1.0 - rest;
            d[sure + 1] = rest;
            let t = t & self.here;
            match targets.iter().position(|x| *x == t) {
                Some(i) => dists[i] = convolve(&dists[i], &d),
                None => {
                    targets.push(t);
                    dists.push(d);
                }
            }
        }
        (targets, dists)
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

    /// `Battle::check_over` on one unit per class present.
    #[inline]
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
        self.check_classes(key)
    }

    /// `check` for states with these classes present (bit sets per side), remembered.
    fn check_classes(&mut self, key: (u64, u64)) -> Check {
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
                for (k, n) in s.counts(st).iter().enumerate() {
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
