//! Who fires and what the dice do: each unit's value this round (raised by support), the fire
//! groups a side rolls in (value, targets, dice, best of), the roll itself (dice from the
//! engine, or a wait for the table's) and the hit groups it makes. Anti-aircraft fire,
//! bombardment and the surprise strike (in `battle.rs`) roll through `roll` too.

use super::*;

/// How a side's fire went: waiting for the table's dice, or rolled (with the other side's
/// casualty call, when it has a choice to make).
pub(super) enum Fired {
    NeedDice(Need),
    Done(Option<Need>),
}

/// A fire group: (value, targets, dice (a unit rolling several counts once per die), dice
/// rolled for each die, the best kept).
pub(crate) type FireGroup = (u8, TypeSet, u32, u8);

/// The unit types a hit from a `shooter` can go to, when its side has the types `mine` in the
/// battle (aircraft reach submarines only beside a destroyer of theirs).
pub(super) fn targets_of(p: &Profiles, shooter: UnitTypeId, mine: TypeSet) -> TypeSet {
    let sp = p.of(shooter);
    let mut set = p.hittable & !sp.cannot_target;
    if sp.domain == Domain::Air {
        for &(kind, need) in &p.evaders {
            if mine & need == 0 {
                set &= !(1 << kind.0);
            }
        }
    }
    set
}

/// What a die kept as the best of `best` counts for under low luck: the value whose chance is
/// nearest the best of `best` dice hitting on `value` (`value` itself for one die).
pub(crate) fn low_luck_value(value: u8, best: u8) -> u8 {
    if best <= 1 {
        return value;
    }
    let miss = (1.0 - f64::from(value.min(6)) / 6.0).powi(i32::from(best));
    ((1.0 - miss) * 6.0).round().clamp(0.0, 6.0) as u8
}

/// The room [`Battle::fire_groups_in`] works in, kept by its caller.
#[derive(Default)]
pub(crate) struct FireRoom(Scratch);

impl FireRoom {
    /// The groups `Battle::fire_groups_in` worked out last.
    pub(crate) fn groups(&self) -> &[FireGroup] {
        &self.0.groups
    }
}

impl Battle {
    /// Roll `n` dice for the step, or wait for them.
    pub(super) fn roll(&mut self, n: usize, step: Step, dice: &mut dyn Roller) -> Option<Need> {
        let mut faces = std::mem::take(&mut self.faces);
        if !dice.roll(n, &mut faces) {
            self.faces = faces;
            return Some(Need::Dice {
                count: n as u32,
                step,
            });
        }
        self.dice_drawn += n as u32;
        self.faces = faces;
        None
    }

    /// A side fires: units matching `who` that have a value and have not fired this round.
    /// Returns a casualty call for the other side (or nothing when there are no hits).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fire(
        &mut self,
        step: Step,
        side: Side,
        p: &Profiles,
        dice: &mut dyn Roller,
        obs: &mut dyn Observer,
        who: impl Fn(&Combatant) -> bool,
        first_strike: bool,
    ) -> Fired {
        self.with_scratch(|b, scratch| {
            b.fire_groups_into(p, side, &who, scratch);
            match b.fire_groups_roll(step, side, p, dice, obs, &who, first_strike, scratch) {
                Err(need) => Fired::NeedDice(need),
                Ok(false) => Fired::Done(None),
                // The defender's hits are removed at once; the attacker's go behind the strip
                // (a submarine's victims until the surprise strike ends) and fire back.
                Ok(true) => {
                    let hits = std::mem::take(&mut scratch.hits);
                    let remove_now = side == Side::Defender;
                    let need = b.call_casualties(step, side.other(), &hits, remove_now, p, obs, scratch);
                    scratch.hits = hits;
                    Fired::Done(need)
                }
            }
        })
    }

    /// `fire`, the groups worked out (`scratch`): the dice still to come, or whether anything
    /// hit (the hits scored in `scratch.hits`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fire_groups_roll(
        &mut self,
        step: Step,
        side: Side,
        p: &Profiles,
        dice: &mut dyn Roller,
        obs: &mut dyn Observer,
        who: &dyn Fn(&Combatant) -> bool,
        first_strike: bool,
        scratch: &mut Scratch,
    ) -> Result<bool, Need> {
        let Scratch {
            groups,
            hits: hit_groups,
            values,
            ..
        } = scratch;
        hit_groups.clear();
        if groups.is_empty() {
            return Ok(false);
        }
        let low_luck = p.rules.dice == DiceRule::LowLuck;
        let mut rolled: Vec<(u8, Vec<u8>)> = Vec::new();
        if low_luck {
            // Per group of units that can hit the same targets: the sum of values; every 6 a
            // sure hit, the rest one die.
            let mut by_target: Vec<(TypeSet, u32)> = Vec::new();
            for g in groups.iter() {
                let total = u32::from(low_luck_value(g.0, g.3)) * g.2;
                match by_target.iter_mut().find(|b| b.0 == g.1) {
                    Some(b) => b.1 += total,
                    None => by_target.push((g.1, total)),
                }
            }
            let n = by_target.iter().filter(|b| b.1 % 6 != 0).count();
            if let Some(need) = self.roll(n, step, dice) {
                return Err(need);
            }
            let faces = self.faces.clone();
            let mut k = 0;
            for (targets, total) in by_target {
                let mut hits = total / 6;
                let rest = (total % 6) as u8;
                if rest != 0 {
                    let f = faces[k];
                    k += 1;
                    rolled.push((rest, vec![f]));
                    if f <= rest {
                        hits += 1;
                    }
                }
                hit_groups.push(HitGroup {
                    count: hits,
                    targets,
                    airborne: false,
                });
            }
        } else {
            let n: usize = groups.iter().map(|g| g.2 as usize * usize::from(g.3)).sum();
            if let Some(need) = self.roll(n, step, dice) {
                return Err(need);
            }
            let listens = obs.listens();
            let faces = &self.faces;
            let mut k = 0;
            for (value, targets, members, best) in groups.iter() {
                let best = usize::from(*best);
                let these = &faces[k..k + *members as usize * best];
                k += *members as usize * best;
                // Each die the best (lowest) of `best` rolled: the faces that count are shown.
                let kept = these.chunks(best).map(|c| c.iter().copied().min().unwrap_or(6));
                let hits = if listens {
                    let kept: Vec<u8> = kept.collect();
                    let hits = kept.iter().filter(|f| **f <= *value).count() as u32;
                    rolled.push((*value, kept));
                    hits
                } else if best == 1 {
                    these.iter().filter(|f| **f <= *value).count() as u32
                } else {
                    kept.filter(|f| *f <= *value).count() as u32
                };
                match hit_groups.iter_mut().find(|h| h.targets == *targets) {
                    Some(h) => h.count += hits,
                    None => hit_groups.push(HitGroup {
                        count: hits,
                        targets: *targets,
                        airborne: false,
                    }),
                }
            }
        }
        if first_strike {
            for (u, &v) in self.units.iter_mut().zip(values.iter()) {
                if shoots(u, side, v, who) {
                    u.fired = true;
                }
            }
        }
        let hits: u32 = hit_groups.iter().map(|h| h.count).sum();
        if obs.listens() {
            obs.report(
                self,
                &Report::Rolled {
                    side,
                    step,
                    groups: rolled,
                    hits,
                },
            );
        }
        Ok(hits > 0)
    }

    /// Who fires: `(value, targets, dice, best_of)` groups of the side's units matching `who`
    /// that have a value and have not fired this round, a unit once per die it rolls; each die
    /// is the best of `best_of` rolled (an attacker's `best_of`, else 1). Worked out in a room
    /// the caller keeps from call to call: the exact calculator asks for thousands of states'.
    pub(crate) fn fire_groups_in<'r>(
        &self,
        p: &Profiles,
        side: Side,
        who: &dyn Fn(&Combatant) -> bool,
        room: &'r mut FireRoom,
    ) -> &'r [FireGroup] {
        self.fire_groups_into(p, side, who, &mut room.0);
        &room.0.groups
    }

    /// `fire_groups_in`, into `scratch.groups` (with the side's values in `scratch.values`).
    pub(super) fn fire_groups_into(
        &self,
        p: &Profiles,
        side: Side,
        who: &dyn Fn(&Combatant) -> bool,
        scratch: &mut Scratch,
    ) {
        let mine = self.values_into(p, side, scratch);
        let Scratch { values, groups, .. } = scratch;
        groups.clear();
        for (u, &v) in self.units.iter().zip(values.iter()) {
            if !shoots(u, side, v, who) {
                continue;
            }
            let pr = p.of(u.kind);
            let t = targets_of(p, u.kind, mine);
            // A unit rolling several dice (`attack_dice`) counts once per die.
            let (dice, best) = if side == Side::Attacker {
                (u32::from(pr.attack_dice.max(1)), pr.best_of.max(1))
            } else {
                (1, 1)
            };
            match groups.iter_mut().find(|g| g.0 == v && g.1 == t && g.3 == best) {
                Some(g) => g.2 += dice,
                None => groups.push((v, t, dice, best)),
            }
        }
        // Keys are unique: units of one key share a group.
        groups.sort_unstable_by_key(|g| (g.0, g.1, g.3));
    }

    /// A fire step: roll (sub 1), then done (sub 2) once the dice are in.
    pub(super) fn fire_step(
        &mut self,
        step: Step,
        side: Side,
        p: &Profiles,
        dice: &mut dyn Roller,
        obs: &mut dyn Observer,
    ) -> Option<Need> {
        if self.cursor.sub >= 2 {
            return None;
        }
        match self.fire(step, side, p, dice, obs, |_| true, false) {
            Fired::NeedDice(n) => Some(n),
            Fired::Done(need) => {
                self.cursor.sub = 2;
                need
            }
        }
    }

    /// Each unit's value this round, into `scratch.values`: attack or defense, raised by
    /// supporting units. Returns the side's types in the battle (`types`), seen on the way.
    pub(super) fn values_into(&self, p: &Profiles, side: Side, scratch: &mut Scratch) -> TypeSet {
        let Scratch {
            values,
            raised,
            supported,
            pools,
            ..
        } = scratch;
        raised.clear();
        let supporters = p.supporters[idx(side)];
        let mut mine: TypeSet = 0;
        raised.extend(self.units.iter().map(|u| {
            // The other side's values are never read.
            if u.side != side {
                return 0;
            }
            if u.in_battle() && u.kind.0 < 64 {
                mine |= 1 << u.kind.0;
            }
            if let Some((v, _)) = u.set_value {
                return i16::from(v);
            }
            let pr = p.of(u.kind);
            let base = if side == Side::Attacker {
                pr.attack
            } else {
                pr.defense
            };
            let changed = self.changed.iter().find(|c| c.side == side && c.kind == u.kind);
            i16::from(changed.map_or(base, |c| c.value))
        }));
        let supported_here = mine & supporters != 0;
        // Supporters present: (targets, delta, count) pools, filled one supported unit each.
        pools.clear();
        if supported_here {
            for (_, u) in self.alive(side) {
                for s in &p.of(u.kind).support {
                    let delta = i16::from(if side == Side::Attacker {
                        s.attack
                    } else {
                        s.defense
                    });
                    if delta != 0 && s.count > 0 {
                        match pools.iter_mut().find(|q| q.0 == s.targets && q.1 == delta) {
                            Some(q) => q.2 += u32::from(s.count),
                            None => pools.push((s.targets, delta, u32::from(s.count))),
                        }
                    }
                }
            }
        }
        if !pools.is_empty() {
            supported.clear();
            supported.resize(self.units.len(), false);
            for &(targets, delta, mut count) in pools.iter() {
                for (i, u) in self.units.iter().enumerate() {
                    if count == 0 {
                        break;
                    }
                    if u.side == side && u.in_battle() && !supported[i] && has(targets, u.kind) {
                        supported[i] = true;
                        raised[i] += delta;
                        count -= 1;
                    }
                }
            }
        }
        values.clear();
        values.extend(raised.iter().map(|v| (*v).clamp(0, 6) as u8));
        mine
    }
}

/// Whether a unit of value `value` this round fires now for its `side`.
fn shoots(u: &Combatant, side: Side, value: u8, who: &dyn Fn(&Combatant) -> bool) -> bool {
    // Casualty-strip units fire back only on defense.
    u.side == side
        && u.in_battle()
        && !u.fired
        && value != 0
        && !(u.status == Status::Hit && side == Side::Attacker)
        && who(u)
}
