//! The fast path: plain rounds (both sides fire, casualties go, every hit reaches every unit)
//! over dense tables, one per pair of chains of losses, in an order where every state comes
//! after those leading to it.

use super::*;

/// A side's hits from one state: the probabilities from `offset` hits on, tails dropped.
pub(in crate::odds) struct Hits {
    pub(in crate::odds) offset: usize,
    p: Vec<f64>,
    /// `tail[k]`: the probability of `offset + k` hits or more.
    tail: Vec<f64>,
}

impl Hits {
    /// The probability that these hits leave the enemy where it is: none scored, or nothing
    /// left on its chain of losses to take them (`last`).
    pub(in crate::odds) fn stays(&self, last: bool) -> f64 {
        match (last, self.offset) {
            (true, _) => 1.0,
            (false, 0) => self.p[0],
            (false, _) => 0.0,
        }
    }

    /// The number of hits a draw `u` (uniform in [0, 1)) stands for.
    pub(in crate::odds) fn draw(&self, u: f64) -> usize {
        // Tails were dropped: the draw is over what is kept.
        let x = (1.0 - u) * self.tail[0];
        let k = self.tail.partition_point(|t| *t >= x);
        self.offset + k.saturating_sub(1).min(self.p.len() - 1)
    }
}

impl Chain<'_> {
    /// A state's hits in a plain round, worked out once: read them with `hits_at`.
    pub(in crate::odds) fn hits(&mut self, side: Side, st: u32) -> u32 {
        if let Some(h) = self.sides[si(side)].hits[st as usize] {
            return h;
        }
        let f = self.fire(side, st, Who::All);
        let d: &[f64] = match f.dists.as_slice() {
            [] => &[1.0],
            [d] => d,
            _ => unreachable!("plain battles have one target set"),
        };
        let lo = d.iter().position(|x| *x > NEGLIGIBLE).unwrap_or(0);
        let hi = d.iter().rposition(|x| *x > NEGLIGIBLE).unwrap_or(0);
        let p = d[lo..=hi].to_vec();
        let mut tail = vec![0.0; p.len() + 1];
        for k in (0..p.len()).rev() {
            tail[k] = tail[k + 1] + p[k];
        }
        let s = &mut self.sides[si(side)];
        let h = s.hit_table.len() as u32;
        s.hit_table.push(Hits { offset: lo, p, tail });
        s.hits[st as usize] = Some(h);
        h
    }

    /// The hits `hits` gave.
    pub(in crate::odds) fn hits_at(&self, side: Side, h: u32) -> &Hits {
        &self.sides[si(side)].hit_table[h as usize]
    }

    /// Plain rounds over dense tables, one per pair of chains of losses: a state's position
    /// on its chain only grows, so one pass in position order sees every state after all
    /// those leading to it. States leaving the chains (defenseless units destroyed) are
    /// returned for the general path.
    pub(super) fn dense(
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
        let wide = Spread::wide();
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
                        *over.entry((crate::odds::outcome_key(o), a, d)).or_default() += m;
                        continue;
                    }
                    if c.may_retreat && self.retreats(a, u32::MAX)? {
                        *over
                            .entry((crate::odds::outcome_key(Outcome::Retreated), a, d))
                            .or_default() += m;
                        continue;
                    }
                    let (ha, hd) = (self.hits(Side::Attacker, a), self.hits(Side::Defender, d));
                    let (ha, hd) = (self.hits_at(Side::Attacker, ha), self.hits_at(Side::Defender, hd));
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
                    let spread = Spread {
                        rows: (pa + hd.offset, la),
                        from: start.min(ld - 1),
                        src: &ha.p[..run],
                        spill: (run < ha.p.len()).then(|| ha.tail[run]),
                        to: &hd.p,
                        visits,
                    };
                    spread.onto(&mut mass, ld, wide);
                }
            }
        }
        Ok(leftover)
    }

    /// The policy's answer for an attacker that may retreat, as the round's last step asks.
    pub(in crate::odds) fn retreats(&self, a: u32, round: u32) -> Result<bool, String> {
        if self.q.retreat.never() {
            return Ok(false);
        }
        let s = &self.sides[0];
        let present = s.present[a as usize];
        let all_air = present & !self.air_classes == 0;
        if !self.q.retreat.wants(round, s.units(a), all_air) {
            return Ok(false);
        }
        if present & self.seaborne_classes != 0 {
            return Err("units that came ashore fight on when the others retreat".into());
        }
        Ok(true)
    }
}

/// What one state's round spreads over the table: `visits` times the defender's hits (`to`,
/// from row `rows.0` on, rows past the last (`rows.1 - 1`) landing on it) times the attacker's
/// (`src`, from column `from` on; `spill` is what lands on the last column).
struct Spread<'a> {
    rows: (usize, usize),
    from: usize,
    src: &'a [f64],
    spill: Option<f64>,
    to: &'a [f64],
    visits: f64,
}

impl Spread<'_> {
    /// Whether this processor adds four numbers at a time (AVX): the same additions and
    /// products in the same order, so the answer does not change with the processor.
    fn wide() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    fn onto(&self, mass: &mut [f64], ld: usize, wide: bool) {
        #[cfg(target_arch = "x86_64")]
        if wide {
            // SAFETY: `wide` is `Spread::wide()`: this processor has AVX.
            return unsafe { self.onto_avx(mass, ld) };
        }
        let _ = wide;
        self.onto_plain(mass, ld);
    }

    /// `onto_plain`, compiled for AVX: the loop is the multiply-adds of exact answers on big
    /// battles, and the compiler vectorizes it twice as wide.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn onto_avx(&self, mass: &mut [f64], ld: usize) {
        self.onto_plain(mass, ld);
    }

    #[inline(always)]
    fn onto_plain(&self, mass: &mut [f64], ld: usize) {
        let (first, la) = self.rows;
        let run = self.src.len();
        for (i, q) in self.to.iter().enumerate() {
            let ta = (first + i).min(la - 1);
            let row = &mut mass[ta * ld..(ta + 1) * ld];
            let vq = self.visits * q;
            for (dst, r) in row[self.from..self.from + run].iter_mut().zip(self.src) {
                *dst += vq * r;
            }
            if let Some(t) = self.spill {
                row[ld - 1] += vq * t;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Spread;

    /// Numbers with all their bits in use, so that any other rounding shows.
    fn odd(n: usize, seed: u64) -> Vec<f64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect()
    }

    #[test]
    fn the_wide_and_the_plain_spread_give_the_same_bits() {
        let (la, ld) = (23, 37);
        for (first, from, run, spill) in [
            (0, 0, 30, None),
            (5, 3, 33, Some(0.25)),
            (20, 36, 0, Some(0.5)),
            (1, 7, 1, None),
        ] {
            let src = odd(run, 1);
            let to = odd(9, 2);
            let spread = Spread {
                rows: (first, la),
                from,
                src: &src,
                spill,
                to: &to,
                visits: 0.123_456_789_012_345_67,
            };
            let start = odd(la * ld, 3);
            let (mut plain, mut wide) = (start.clone(), start.clone());
            spread.onto(&mut plain, ld, false);
            spread.onto(&mut wide, ld, Spread::wide());
            assert!(plain != start, "the spread changed nothing");
            let differ: Vec<usize> = (0..plain.len())
                .filter(|&k| plain[k].to_bits() != wide[k].to_bits())
                .collect();
            assert!(
                differ.is_empty(),
                "cells {differ:?} differ (rows from {first}, columns from {from}, run {run})"
            );
        }
    }
}
