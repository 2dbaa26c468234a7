//! A round on states: the `[combat]` step list (or the rule scripts' plan of it) as ops, each
//! played on (attacker state, defender state, hits waiting) with its probability: fire, hits,
//! casualties, the anti-aircraft shot, script steps, the end-of-step check.

use super::*;

impl Chain<'_> {
    /// Round `round`'s steps (with the first round's own list first, when `first`), as ops.
    pub(super) fn ops(&mut self, first: bool, round: u32) -> Result<Vec<Op>, String> {
        let mut ops = Vec::new();
        if let Some(plans) = &mut self.plans {
            // The steps the scripts let run, each after the values changed by then.
            let (id, plan) = plans.round(round)?;
            let list = |ops: &mut Vec<Op>, steps: &[crate::odds::plan::Planned], in_first: bool| {
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
    pub(super) fn settle(&mut self, m: Mid) -> (Mid, Check) {
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
    pub(super) fn set_changed(&mut self, id: u32) {
        if id != self.changed_id || self.changed.is_empty() {
            if let Some(plans) = &self.plans {
                self.changed = plans.changed[id as usize].clone();
            }
            self.changed_id = id;
        }
    }

    /// `side` takes `h` hits reaching `targets` in a script step; its casualties go at once
    /// or behind the casualty strip.
    pub(super) fn hit(&mut self, m: Mid, side: Side, h: u32, targets: TypeSet, remove_now: bool) -> Mid {
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
    pub(super) fn script(
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
                                s.counts(st)
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
    pub(super) fn strikers(&self, side: Side, own: u32, enemy: u32) -> TypeSet {
        let kinds = self.sides[si(side)].kinds(own);
        let enemy = self.sides[si(side.other())].kinds(enemy);
        self.p
            .units
            .iter()
            .filter(|u| has(kinds, u.kind) && u.first_strike && u.negated_by & enemy == 0)
            .fold(0, |a, u| a | (1 << u.kind.0))
    }

    /// One round from the start of it: where it ends, with probabilities.
    pub(in crate::odds) fn round(
        &mut self,
        a: u32,
        d: u32,
        first: bool,
        round: u32,
    ) -> Result<Vec<End>, String> {
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
    pub(in crate::odds) fn play(
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
    pub(in crate::odds) fn plain(&self) -> bool {
        self.fast_round
            && self.plans.is_none()
            && self.template_kinds.iter().all(|(_, k)| {
                let u = self.p.of(*k);
                !u.first_strike && u.cannot_target == 0 && u.evades_air_unless.is_none()
            })
    }

    pub(super) fn op(
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
                self.settle_op(op, m, w, round, &mut keep, ends)?
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
            Op::Step(Step::SurpriseStrike) => self.surprise_strike(m, w, &mut keep),
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
            Op::Step(Step::Bombardment) => self.bombardment(m, w, &mut keep),
            Op::Step(s) => {
                return Err(format!(
                    "the `{}` step has no place in the chain",
                    self.p.rules.step_name(s)
                ))
            }
        }
        Ok(())
    }

    /// The end of a step list, removing casualties, or pressing on or retreating: the state
    /// settled (defenseless units gone, the battle perhaps over), the attacker asked.
    fn settle_op(
        &mut self,
        op: Op,
        m: Mid,
        w: f64,
        round: u32,
        keep: &mut dyn FnMut(Mid, f64),
        ends: &mut Vec<End>,
    ) -> Result<(), String> {
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
        if matches!(op, Op::Step(Step::PressOrRetreat)) && c.may_retreat && self.retreats(m.a, round)? {
            ends.push(End::Over(Outcome::Retreated, m.a, m.dcas, w));
            return Ok(());
        }
        keep(m, w);
        Ok(())
    }

    /// A surprise strike, as `Battle::surprise_strike` plays it: both sides' first strikers at
    /// once, the attacker's victims striking back before they go.
    fn surprise_strike(&mut self, m: Mid, w: f64, keep: &mut dyn FnMut(Mid, f64)) {
        let dfire = self.add(Side::Defender, m.dcas, m.dhit);
        let sa = self.strikers(Side::Attacker, m.a, dfire);
        let sd = self.strikers(Side::Defender, m.dcas, m.a);
        if sa == 0 && sd == 0 {
            keep(m, w);
            return;
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

    /// Bombardment: the bombarding ships' dice, their hits on the defender's land units.
    fn bombardment(&mut self, m: Mid, w: f64, keep: &mut dyn FnMut(Mid, f64)) {
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

    /// Antiaircraft fire, as `Battle::anti_air` fires it.
    pub(super) fn anti_air(&mut self, m: Mid, w: f64, keep: &mut dyn FnMut(Mid, f64)) {
        let dfire = self.add(Side::Defender, m.dcas, m.dhit);
        let ds = &self.sides[1];
        let mut guns = 0u32;
        let mut gun = None;
        for (k, n) in ds.counts(dfire).iter().enumerate() {
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
        let targets: Vec<(usize, u16)> = s
            .counts(m.a)
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
            let mut combos: Vec<(Vec<u16>, f64)> = vec![(s.counts(m.a).to_vec(), 1.0)];
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
