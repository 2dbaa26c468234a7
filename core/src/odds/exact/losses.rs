//! What hits do to a side's state: casualties as `casualties::suggest` would choose them on the
//! battle made of the state, worked out on counts; a fire's results on a state, one entry per
//! distinct result; each side's chains of losses (the states one hit apart down its order of
//! loss).

use super::*;

/// Room `Chain::casualties_counted` reuses: it runs about a thousand times an answer.
#[derive(Default)]
pub(super) struct CountRoom {
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
pub(super) struct StruckRoom {
    kept: Vec<(usize, f64)>,
    starts: Vec<usize>,
    at: Vec<usize>,
    hits: Vec<(u32, TypeSet)>,
    out: Vec<(u32, u32, f64)>,
}

impl Chain<'_> {
    /// `side` in state `st` takes the hits of fire `fire`: each distinct (state after, units
    /// destroyed) with its probability.
    pub(super) fn struck(&mut self, side: Side, st: u32, fire: u32) -> Struck {
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
            let cap: usize = s
                .counts(st)
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

    /// `side` in state `st` takes `hits`: its state after, and the units destroyed (as a
    /// state of their own).
    pub(super) fn casualties(&mut self, side: Side, st: u32, hits: &[(u32, TypeSet)]) -> (u32, u32) {
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
    pub(super) fn packed(&mut self, hits: &[(u32, TypeSet)]) -> Option<u64> {
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
    pub(super) fn casualties_new(&mut self, side: Side, st: u32, hits: &[(u32, TypeSet)]) -> (u32, u32) {
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
    pub(super) fn casualties_counted(&mut self, side: Side, st: u32, hits: &[(u32, TypeSet)]) -> (u32, u32) {
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
        let counts = &s.counts(st);
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
    pub(super) fn loss_order(&mut self, side: Side) -> std::rc::Rc<Vec<usize>> {
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
    pub(super) fn suggest_on_battle(&mut self, side: Side, st: u32, hits: &[(u32, TypeSet)]) -> (u32, u32) {
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
    pub(super) fn hittable(&self, side: Side, st: u32) -> TypeSet {
        let kinds = self.sides[si(side)].kinds(st);
        self.p
            .units
            .iter()
            .filter(|u| u.takes_hits && has(kinds, u.kind))
            .fold(0, |a, u| a | (1 << u.kind.0))
    }

    /// Where `st` sits on a chain of losses: (chain, position).
    pub(in crate::odds) fn place(&mut self, side: Side, st: u32) -> (usize, usize) {
        if self.sides[si(side)].place[st as usize].is_none() {
            self.walk(side, st);
        }
        let (c, at) = self.sides[si(side)].place[st as usize].expect("walked");
        (c as usize, at as usize)
    }

    /// The state `h` hits further down `st`'s order of loss (`casualties::slots`).
    pub(super) fn down_chain(&mut self, side: Side, st: u32, h: u32) -> u32 {
        if self.sides[si(side)].place[st as usize].is_none() {
            self.walk(side, st);
        }
        let (c, at) = self.sides[si(side)].place[st as usize].expect("walked");
        let chain = &self.sides[si(side)].chains[c as usize];
        chain[(at as usize + h as usize).min(chain.len() - 1)]
    }

    /// The chain of losses from `st`: the state after each further slot of its order of loss.
    pub(in crate::odds) fn walk(&mut self, side: Side, st: u32) {
        let b = match side {
            Side::Attacker => self.battle(Some(st), None, false),
            Side::Defender => self.battle(None, Some(st), false),
        };
        let slots = casualties::slots(&b, self.p, side, &b.orders[si(side)]);
        let s = &mut self.sides[si(side)];
        let mut counts: Vec<u16> = s.counts(st).to_vec();
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
    pub(super) fn dead_between(&mut self, side: Side, before: u32, after: u32) -> u32 {
        if before == after {
            return self.empty[si(side)];
        }
        let s = &mut self.sides[si(side)];
        // Per (type, ashore, owner): units before less units after, as hp-1 classes.
        let mut killed = vec![0u16; s.classes.len()];
        let b = &s.counts(before);
        let a = &s.counts(after);
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
}
