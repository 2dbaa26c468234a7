//! Assigning hits: which units can take which hits, the owner's default choice, and checking a
//! choice the owner typed.
//!
//! Hits come in groups that share the units they can reach (a submarine's hits never reach
//! aircraft; an aircraft's hits reach submarines only beside a destroyer of its side). Every
//! hit point of a unit is a slot; choosing casualties is matching hits to slots, and the rules
//! ("assign as many hits as possible", "transports only when nothing else can be chosen")
//! are statements about maximum matchings.

use super::battle::{Battle, Side, Status};
use super::profile::{has, Profiles, TypeSet};
use crate::rules::UnitTypeId;

/// `count` hits that can go to units of the types in `targets` (and, with `airborne`, to the
/// units flown in as paratroopers, whatever their type: antiaircraft hits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HitGroup {
    pub count: u32,
    pub targets: TypeSet,
    pub airborne: bool,
}

// Written out: `airborne` only when set, so battles saved before it existed hash as they did.
impl std::hash::Hash for HitGroup {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.count.hash(h);
        self.targets.hash(h);
        if self.airborne {
            h.write_u8(0xa6);
        }
    }
}

/// What a hit of a group can reach: (types, paratroopers too).
type Reach = (TypeSet, bool);

/// Whether a hit reaching `r` can go to unit `u`.
fn reaches(r: Reach, u: &super::battle::Combatant) -> bool {
    has(r.0, u.kind) || (r.1 && u.airborne)
}

/// How an owner gives up units when it does not choose itself.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CasualtyOrder {
    /// Unit types, first lost first. Types not listed follow, cheapest first.
    pub first: Vec<UnitTypeId>,
    /// An attacker in a territory keeps its last land unit able to capture as long as another
    /// unit can take the hit, so a won battle takes the territory.
    pub keep_capturer: bool,
}

/// Slots of one side's units that can take a hit now, each as the unit's index in the battle,
/// in the order the owner would give them up.
pub(crate) fn slots(b: &Battle, p: &Profiles, side: Side, order: &CasualtyOrder) -> Vec<usize> {
    let mut out = Vec::new();
    slots_ranked(b, side, order, &Ranked::new(b, p, side, order), &mut out);
    out
}

/// A side's units that can take hits, whatever their state, in the order of loss of units
/// alike in everything but the state: (goes last, rank, id). Fixed for a battle: the battle
/// keeps it from one casualty call to the next.
#[derive(Debug, Default)]
pub(crate) struct Ranked {
    /// Unit indices, in that order.
    order: Vec<usize>,
    /// Where those that go last begin in `order`.
    split: usize,
    /// Per unit index: its rank, and whether it is a land unit able to capture.
    rank: Vec<((usize, u32, u8), bool)>,
}

impl Ranked {
    pub(crate) fn new(b: &Battle, p: &Profiles, side: Side, order: &CasualtyOrder) -> Ranked {
        // A unit's rank and whether it captures depend on its type (and side) alone: worked
        // out once per type present.
        let mut by_kind: Vec<Option<(Rank, bool)>> = vec![None; p.units.len()];
        let mut rank = vec![((0, 0, 0), false); b.units.len()];
        let mut keyed: Vec<Keyed> = Vec::with_capacity(b.units.len());
        for (i, u) in b.units.iter().enumerate() {
            if u.side != side {
                continue;
            }
            let pr = p.of(u.kind);
            let r = *by_kind[u.kind.index()].get_or_insert_with(|| {
                (
                    kind_rank(p, order, u.kind, side),
                    pr.can_capture && pr.domain == crate::rules::Domain::Land,
                )
            });
            rank[i] = r;
            if pr.takes_hits {
                keyed.push(((pr.casualty_last, r.0, u.id), i));
            }
        }
        keyed.sort_unstable();
        let split = keyed.partition_point(|k| !k.0 .0);
        Ranked {
            order: keyed.into_iter().map(|(_, i)| i).collect(),
            split,
            rank,
        }
    }
}

/// (listed first, cost, value): see `kind_rank`.
type Rank = (usize, u32, u8);

/// ((goes last, rank, id), unit index)
type Keyed = ((bool, Rank, u32), usize);

/// `slots`, from the side's units in their fixed order (`Ranked`), into `out`.
pub(crate) fn slots_ranked(
    b: &Battle,
    side: Side,
    order: &CasualtyOrder,
    ranked: &Ranked,
    out: &mut Vec<usize>,
) {
    let standing = |i: usize| b.units[i].status == Status::Fighting && b.units[i].hp > 0;
    out.clear();
    let keep = if order.keep_capturer && side == Side::Attacker && !b.sea {
        let mut keep: Option<usize> = None;
        for &i in &ranked.order {
            if standing(i) && ranked.rank[i].1 {
                // The last of equals, as `max_by_key` keeps.
                let better = keep.is_none_or(|k| {
                    (ranked.rank[i].0, std::cmp::Reverse(b.units[i].id))
                        >= (ranked.rank[k].0, std::cmp::Reverse(b.units[k].id))
                });
                if better {
                    keep = Some(i);
                }
            }
        }
        keep
    } else {
        None
    };
    // A slot's place is (casualty_last, lethal, kept, rank, id): a hit that does not destroy (a
    // battleship's first) is given up before any unit is lost, and the capturer kept goes
    // last of its class. Per `casualty_last` class, two passes over the units in their fixed
    // order: the hits that do not destroy, then those that do.
    for class in [&ranked.order[..ranked.split], &ranked.order[ranked.split..]] {
        let kept = keep.filter(|k| class.contains(k));
        for lethal in [false, true] {
            // Units of one hit point (a land battle's all) have no hit that does not destroy.
            if !lethal && !class.iter().any(|&i| standing(i) && b.units[i].hp > 1) {
                continue;
            }
            for &i in class.iter().filter(|&&i| Some(i) != kept).chain(kept.iter()) {
                if !standing(i) {
                    continue;
                }
                let n = if lethal { 1 } else { b.units[i].hp - 1 };
                out.extend(std::iter::repeat_n(i, usize::from(n)));
            }
        }
    }
}

/// Where units of a type stand in the owner's order of loss, before their state: listed
/// first, then cheapest, then weakest.
pub(crate) fn kind_rank(
    p: &Profiles,
    order: &CasualtyOrder,
    kind: UnitTypeId,
    side: Side,
) -> (usize, u32, u8) {
    let pr = p.of(kind);
    let listed = order
        .first
        .iter()
        .position(|k| *k == kind)
        .unwrap_or(order.first.len());
    let value = if side == Side::Attacker {
        pr.attack
    } else {
        pr.defense
    };
    (listed, pr.cost, value)
}

/// Hits, one entry per hit, most constrained groups first (they have the fewest places to go).
fn expand(b: &Battle, hits: &[HitGroup]) -> Vec<Reach> {
    let mut groups: Vec<&HitGroup> = hits.iter().filter(|h| h.count > 0).collect();
    groups.sort_by_key(|h| {
        b.units
            .iter()
            .filter(|u| reaches((h.targets, h.airborne), u))
            .count()
    });
    groups
        .iter()
        .flat_map(|h| std::iter::repeat_n((h.targets, h.airborne), h.count as usize))
        .collect()
}

/// Kuhn's augmenting paths: hits to slots, trying slots in their order. Slots matched stay
/// matched while later hits augment, so a first pass over some slots keeps them all.
struct Matching<'a> {
    hits: &'a [Reach],
    /// Each slot's unit: (type, flown in as a paratrooper).
    kinds: Vec<(UnitTypeId, bool)>,
    slot_of_hit: Vec<Option<usize>>,
    hit_of_slot: Vec<Option<usize>>,
    seen: Vec<bool>,
}

impl<'a> Matching<'a> {
    fn new(b: &Battle, hits: &'a [Reach], slots: &'a [usize]) -> Self {
        Matching::of_kinds(
            hits,
            slots
                .iter()
                .map(|&i| (b.units[i].kind, b.units[i].airborne))
                .collect(),
        )
    }

    fn of_kinds(hits: &'a [Reach], kinds: Vec<(UnitTypeId, bool)>) -> Self {
        Matching::in_room(hits, kinds, MatchRoom::default())
    }

    /// A matching using the room's vectors (`kinds` already in `room.kinds`'s place).
    fn in_room(hits: &'a [Reach], kinds: Vec<(UnitTypeId, bool)>, room: MatchRoom) -> Self {
        let MatchRoom {
            mut slot_of_hit,
            mut hit_of_slot,
            seen,
            ..
        } = room;
        slot_of_hit.clear();
        slot_of_hit.resize(hits.len(), None);
        hit_of_slot.clear();
        hit_of_slot.resize(kinds.len(), None);
        Matching {
            hits,
            slot_of_hit,
            hit_of_slot,
            kinds,
            seen,
        }
    }

    fn augment(&mut self, h: usize, allowed: &dyn Fn(usize) -> bool, seen: &mut [bool]) -> bool {
        for s in 0..self.kinds.len() {
            let (kind, airborne) = self.kinds[s];
            let (types, to_airborne) = self.hits[h];
            if seen[s] || !allowed(s) || !(has(types, kind) || (to_airborne && airborne)) {
                continue;
            }
            seen[s] = true;
            let free = match self.hit_of_slot[s] {
                None => true,
                Some(other) => self.augment(other, allowed, seen),
            };
            if free {
                self.hit_of_slot[s] = Some(h);
                self.slot_of_hit[h] = Some(s);
                return true;
            }
        }
        false
    }

    fn run(&mut self, allowed: &dyn Fn(usize) -> bool) {
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        seen.resize(self.kinds.len(), false);
        for h in 0..self.hits.len() {
            if self.slot_of_hit[h].is_none() {
                seen.fill(false);
                self.augment(h, allowed, &mut seen);
            }
        }
        self.seen = seen;
    }

    fn size(&self) -> usize {
        self.hit_of_slot.iter().filter(|h| h.is_some()).count()
    }
}

/// The owner's default casualties for these hits: one unit index per hit taken (a unit with
/// several hit points may appear more than once). Hits that can go nowhere are lost.
pub fn suggest(b: &Battle, p: &Profiles, side: Side, hits: &[HitGroup], order: &CasualtyOrder) -> Vec<usize> {
    let slots = slots(b, p, side, order);
    match as_one(b, &slots, hits) {
        Some((reach, count)) => {
            let mut slots = slots;
            first_reached(b, &mut slots, reach, count);
            slots
        }
        None => matched(b, p, hits, &slots),
    }
}

/// `suggest`, from the side's units in their fixed order (`ranked`), into `chosen` (room the
/// battle keeps: no allocation when all hits reach the same units); whether the owner has a
/// choice (`has_choice`).
pub(crate) fn suggest_ranked(
    b: &Battle,
    p: &Profiles,
    side: Side,
    hits: &[HitGroup],
    order: &CasualtyOrder,
    ranked: &Ranked,
    chosen: &mut Vec<usize>,
) -> bool {
    slots_ranked(b, side, order, ranked, chosen);
    if let Some((reach, count)) = as_one(b, chosen, hits) {
        return first_reached(b, chosen, reach, count);
    }
    *chosen = matched(b, p, hits, chosen);
    has_choice(b, p, side, hits, chosen)
}

/// Hits that all reach the same units: the matching takes the first `count` slots they reach,
/// in slot order (those that go last come last in it), kept in `slots`. Whether the owner has
/// a choice: some slot reached is left, and the units reached are not all alike.
fn first_reached(b: &Battle, slots: &mut Vec<usize>, reach: Reach, count: usize) -> bool {
    let mut n = count;
    let mut reachable = 0;
    let mut first: Option<usize> = None;
    let mut alike = true;
    slots.retain(|&i| {
        let u = &b.units[i];
        if !reaches(reach, u) {
            return false;
        }
        reachable += 1;
        match first {
            None => first = Some(i),
            Some(f) => alike &= same_choice(&b.units[f], u),
        }
        let take = n > 0;
        n -= usize::from(take);
        take
    });
    reachable != slots.len() && !alike
}

/// Two units the owner would not tell apart as casualties.
fn same_choice(a: &super::battle::Combatant, u: &super::battle::Combatant) -> bool {
    u.kind == a.kind && u.owner == a.owner && u.hp == a.hp && u.held() == a.held() && u.airborne == a.airborne
}

/// The matching of hits to slots: one unit index per hit taken.
fn matched(b: &Battle, p: &Profiles, hits: &[HitGroup], slots: &[usize]) -> Vec<usize> {
    let hits = expand(b, hits);
    let last: Vec<bool> = slots
        .iter()
        .map(|&i| p.of(b.units[i].kind).casualty_last)
        .collect();
    let mut m = Matching::new(b, &hits, slots);
    m.run(&|s| !last[s]);
    m.run(&|_| true);
    // The slots taken, in slot order: a unit's non-lethal slots come first, so two hits on a
    // battleship read as "damaged, then sunk".
    (0..slots.len())
        .filter(|&s| m.hit_of_slot[s].is_some())
        .map(|s| slots[s])
        .collect()
}

/// `suggest`'s matching over slots described without a battle (the calculator's chain, from
/// counts): each slot's unit type and whether it goes last, in the order of loss, and the hits'
/// target sets one per hit, most constrained group first (as `expand` orders them). The slots
/// taken, in slot order.
pub(crate) fn match_kinds(
    kinds: &[UnitTypeId],
    last: &[bool],
    hits: &[TypeSet],
    room: &mut MatchRoom,
    taken: &mut Vec<usize>,
) {
    if kinds.len() <= 64 {
        return match_small(kinds, last, hits, room, taken);
    }
    match_any(kinds, last, hits, room, taken);
}

/// `match_kinds` on any number of slots.
fn match_any(
    kinds: &[UnitTypeId],
    last: &[bool],
    hits: &[TypeSet],
    room: &mut MatchRoom,
    taken: &mut Vec<usize>,
) {
    let mut reach = std::mem::take(&mut room.reach);
    reach.clear();
    reach.extend(hits.iter().map(|&t| (t, false)));
    let mut slot_kinds = std::mem::take(&mut room.kinds);
    slot_kinds.clear();
    slot_kinds.extend(kinds.iter().map(|&k| (k, false)));
    let mut m = Matching::in_room(&reach, slot_kinds, std::mem::take(room));
    m.run(&|s| !last[s]);
    m.run(&|_| true);
    taken.clear();
    taken.extend((0..kinds.len()).filter(|&s| m.hit_of_slot[s].is_some()));
    let Matching {
        kinds: slot_kinds,
        slot_of_hit,
        hit_of_slot,
        seen,
        ..
    } = m;
    *room = MatchRoom {
        masks: Vec::new(),
        reach,
        kinds: slot_kinds,
        slot_of_hit,
        hit_of_slot,
        seen,
    };
}

/// `match_kinds` for at most 64 slots: the same augmenting paths, trying slots in the same
/// order, with each hit's slots as a bit set.
fn match_small(
    kinds: &[UnitTypeId],
    last: &[bool],
    hits: &[TypeSet],
    room: &mut MatchRoom,
    taken: &mut Vec<usize>,
) {
    let MatchRoom {
        masks, slot_of_hit, ..
    } = room;
    masks.clear();
    let mut prev: Option<(TypeSet, u64)> = None;
    for &t in hits {
        let m = match prev {
            Some((pt, m)) if pt == t => m,
            _ => kinds
                .iter()
                .enumerate()
                .filter(|(_, k)| has(t, **k))
                .fold(0u64, |m, (s, _)| m | 1 << s),
        };
        prev = Some((t, m));
        masks.push(m);
    }
    let mut hit_of_slot = [u32::MAX; 64];
    slot_of_hit.clear();
    slot_of_hit.resize(hits.len(), None);
    fn augment(
        h: usize,
        allowed: u64,
        seen: &mut u64,
        masks: &[u64],
        hit_of_slot: &mut [u32; 64],
        slot_of_hit: &mut [Option<usize>],
    ) -> bool {
        let mut candidates = masks[h] & allowed & !*seen;
        while candidates != 0 {
            let s = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            // A deeper path may have been through it since.
            if *seen >> s & 1 == 1 {
                continue;
            }
            *seen |= 1 << s;
            let free = match hit_of_slot[s] {
                u32::MAX => true,
                other => augment(other as usize, allowed, seen, masks, hit_of_slot, slot_of_hit),
            };
            if free {
                hit_of_slot[s] = h as u32;
                slot_of_hit[h] = Some(s);
                return true;
            }
        }
        false
    }
    let first: u64 = last
        .iter()
        .enumerate()
        .filter(|(_, l)| !**l)
        .fold(0, |m, (s, _)| m | 1 << s);
    let all: u64 = if kinds.len() == 64 {
        u64::MAX
    } else {
        (1 << kinds.len()) - 1
    };
    for allowed in [first, all] {
        for h in 0..hits.len() {
            if slot_of_hit[h].is_none() {
                let mut seen = 0;
                augment(h, allowed, &mut seen, masks, &mut hit_of_slot, slot_of_hit);
            }
        }
    }
    taken.clear();
    taken.extend((0..kinds.len()).filter(|&s| hit_of_slot[s] != u32::MAX));
}

/// Vectors `match_kinds` reuses from one call to the next (the chain calls it about a
/// thousand times an answer).
#[derive(Default)]
pub(crate) struct MatchRoom {
    /// Each hit's slots, as a bit set (`match_small`).
    masks: Vec<u64>,
    reach: Vec<Reach>,
    kinds: Vec<(UnitTypeId, bool)>,
    slot_of_hit: Vec<Option<usize>>,
    hit_of_slot: Vec<Option<usize>>,
    seen: Vec<bool>,
}

/// The hits as one group, when every group reaches the same units among those that can take
/// them (their type sets differing only in types not in the battle): what a group reaches, and
/// the hits in all.
fn as_one(b: &Battle, slots: &[usize], hits: &[HitGroup]) -> Option<(Reach, usize)> {
    let mut live = hits.iter().filter(|h| h.count > 0);
    let first = live.next()?;
    let reach = (first.targets, first.airborne);
    let mut count = first.count as usize;
    for h in live {
        let other = (h.targets, h.airborne);
        if slots
            .iter()
            .any(|&i| reaches(reach, &b.units[i]) != reaches(other, &b.units[i]))
        {
            return None;
        }
        count += h.count as usize;
    }
    Some((reach, count))
}

/// Whether the owner had any choice: `false` when every unit that could be hit is hit, or all
/// candidates are alike.
pub fn has_choice(b: &Battle, p: &Profiles, side: Side, hits: &[HitGroup], suggested: &[usize]) -> bool {
    // Slots that some hit reaches, counted, and whether their units are all alike (the order
    // of the slots does not matter here).
    let mut reachable = 0;
    let mut first: Option<&super::battle::Combatant> = None;
    let mut alike = true;
    for u in &b.units {
        if u.side != side || u.status != Status::Fighting || !p.of(u.kind).takes_hits || u.hp == 0 {
            continue;
        }
        if !hits
            .iter()
            .any(|h| h.count > 0 && reaches((h.targets, h.airborne), u))
        {
            continue;
        }
        reachable += usize::from(u.hp);
        match first {
            None => first = Some(u),
            Some(f) => alike &= same_choice(f, u),
        }
    }
    reachable != suggested.len() && !alike
}

/// Check casualties the owner chose (one unit index per hit): every hit that can be taken is
/// taken, each by a unit it can reach, and units that go last go only when nothing else could.
pub fn check(
    b: &Battle,
    p: &Profiles,
    side: Side,
    hits: &[HitGroup],
    chosen: &[usize],
) -> Result<(), String> {
    let order = CasualtyOrder::default();
    let all = slots(b, p, side, &order);
    let expanded = expand(b, hits);
    for &i in chosen {
        let count = chosen.iter().filter(|&&j| j == i).count();
        let Some(u) = b.units.get(i) else {
            return Err(format!("there is no unit {i} in the battle"));
        };
        if u.side != side || u.status != Status::Fighting || !p.of(u.kind).takes_hits {
            return Err(format!("unit #{} cannot be a casualty now", u.id));
        }
        if count > u.hp as usize {
            return Err(format!(
                "unit #{} can take {} more hit{}",
                u.id,
                u.hp,
                if u.hp == 1 { "" } else { "s" }
            ));
        }
    }
    let mut full = Matching::new(b, &expanded, &all);
    full.run(&|_| true);
    let most = full.size();
    if chosen.len() != most {
        return Err(format!(
            "{most} hit{} must be taken; {} chosen",
            if most == 1 { "" } else { "s" },
            chosen.len()
        ));
    }
    // The chosen units as slots: each unit index once per hit chosen for it.
    let mut mine = Matching::new(b, &expanded, chosen);
    mine.run(&|_| true);
    if mine.size() != chosen.len() {
        return Err(
            "those units cannot take these hits (submarines cannot hit aircraft; aircraft hit submarines only beside a destroyer of theirs)"
                .into(),
        );
    }
    let last: Vec<bool> = all.iter().map(|&i| p.of(b.units[i].kind).casualty_last).collect();
    let mut first_pass = Matching::new(b, &expanded, &all);
    first_pass.run(&|s| !last[s]);
    let others = first_pass.size();
    let chosen_others = chosen
        .iter()
        .filter(|&&i| !p.of(b.units[i].kind).casualty_last)
        .count();
    if chosen_others < others {
        let name = chosen
            .iter()
            .find(|&&i| p.of(b.units[i].kind).casualty_last)
            .map(|&i| b.units[i].id)
            .unwrap_or_default();
        return Err(format!(
            "unit #{name} may be chosen only when no other unit can take the hit (transports are taken last)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit-set matching takes the slots the general one takes, on made-up slots and hits.
    #[test]
    fn small_matchings_take_the_slots_the_general_one_takes() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let (mut small, mut any) = (MatchRoom::default(), MatchRoom::default());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..2000 {
            let slots = 1 + next(64) as usize;
            let kinds: Vec<UnitTypeId> = (0..slots).map(|_| UnitTypeId(next(6) as u16)).collect();
            let last: Vec<bool> = (0..slots).map(|_| next(4) == 0).collect();
            let hits: Vec<TypeSet> = (0..next(slots as u64 + 4)).map(|_| 1 + next(63)).collect();
            match_small(&kinds, &last, &hits, &mut small, &mut a);
            match_any(&kinds, &last, &hits, &mut any, &mut b);
            assert_eq!(a, b, "kinds {kinds:?} last {last:?} hits {hits:?}");
        }
    }
}
