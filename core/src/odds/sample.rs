//! Monte Carlo over the chain: battles drawn round by round from the transitions the exact
//! chain takes from the battle code.
//!
//! A round's outcomes and their probabilities are what the chain computes for the units left
//! (`Battle::fire_groups_in` for the dice, `casualties::suggest` and `slots` for the losses,
//! `Battle::check_over` for the end), kept once computed; a battle is then a few draws from
//! the engine's generator instead of one die per unit and a casualty choice per hit. In an
//! ordinary round each side's hits are one draw from its distribution and its losses the
//! next units down its order of loss, so a battle costs a handful of table lookups.
//!
//! It answers what the chain answers, and also battles too big to enumerate: only the unit
//! combinations the drawn battles reach are computed. What the chain cannot express is an
//! `Err`, and `calculate` then fights the battles with `Battle::advance` (`sim`).
//!
//! Runs are cut into fixed chunks, each with its own seed and its own chain, so the answer
//! depends on the seed and the number of runs, never on the number of threads.

use super::exact::{Chain, End, Map, Mid};
use super::{outcome_key, Method, Odds, Question, Tally};
use crate::combat::{Outcome, Side};
use crate::game::dice::Dice;
use std::rc::Rc;

/// Battles per chunk: enough that computing the chain's tables is a small part of the work.
const CHUNK: u64 = 1 << 16;

/// A battle still going after this many rounds is taken for one that cannot end.
const MAX_ROUNDS: u32 = 10_000;

/// Where a battle is between rounds.
#[derive(Clone, Copy)]
enum At {
    /// Over: (outcome, attacker's state, defender's state).
    Over(u8, u32, u32),
    Between(u32, u32),
}

/// What the first round's own steps lead to.
#[derive(Clone, Copy)]
enum First {
    At(At),
    /// The rest of the first round still to fight.
    Mid(Mid),
}

/// Outcomes with their probabilities, for drawing.
struct Draws<T> {
    cumulative: Vec<f64>,
    items: Vec<T>,
}

impl<T: Copy> Draws<T> {
    fn new(list: impl IntoIterator<Item = (T, f64)>) -> Draws<T> {
        let mut d = Draws {
            cumulative: Vec::new(),
            items: Vec::new(),
        };
        let mut sum = 0.0;
        for (item, p) in list {
            sum += p;
            d.cumulative.push(sum);
            d.items.push(item);
        }
        d
    }

    fn draw(&self, u: f64) -> T {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let i = self.cumulative.partition_point(|c| *c <= u * total);
        self.items[i.min(self.items.len() - 1)]
    }
}

struct Sampler<'q> {
    chain: Chain<'q>,
    first: Draws<First>,
    /// The rest of the first round, from where its own steps left it.
    rest_of_first: Map<Mid, Rc<Draws<At>>>,
    /// Rounds from a pair of states, by `Chain::round_key`.
    rounds: Map<(u32, u32, u32), Rc<Draws<At>>>,
    plain: bool,
    counted: u32,
}

impl<'q> Sampler<'q> {
    fn new(q: &'q Question) -> Result<Sampler<'q>, String> {
        let mut chain = Chain::new(q)?;
        let start = Mid {
            a: chain.start(Side::Attacker),
            dcas: chain.start(Side::Defender),
            dhit: chain.empty[1],
            ahit: chain.empty[0],
            fired: [0, 0],
        };
        let ops = chain.first_ops()?;
        let (mids, ends) = chain.play(vec![(start, 1.0)], &ops, chain.first_number)?;
        let merged = chain.merges_first(&mids);
        let first = Draws::new(ends.into_iter().map(|e| (First::At(at(&e)), weight(&e))).chain(
            mids.into_iter().map(|(m, w)| {
                let f = if merged {
                    First::At(At::Between(m.a, m.dcas))
                } else {
                    First::Mid(m)
                };
                (f, w)
            }),
        ));
        Ok(Sampler {
            plain: chain.plain(),
            counted: chain.counted_rounds(),
            chain,
            first,
            rest_of_first: Map::default(),
            rounds: Map::default(),
        })
    }

    /// One battle: how it ended and the rounds it took.
    fn battle(&mut self, dice: &mut Dice) -> Result<((u8, u32, u32), u32), String> {
        let mut rounds = 0;
        let mut next = self.chain.first_number;
        let mut at = match self.first.draw(dice.uniform()) {
            // Over before the first round's dice: that was still a round, as the chain counts.
            First::At(at @ At::Over(..)) => {
                rounds = 1;
                at
            }
            First::At(at) => at,
            First::Mid(m) => {
                rounds = 1;
                next += 1;
                self.rest_of_first(m)?.draw(dice.uniform())
            }
        };
        loop {
            let (a, d) = match at {
                At::Over(o, a, d) => return Ok(((o, a, d), rounds)),
                At::Between(a, d) => (a, d),
            };
            if rounds >= MAX_ROUNDS {
                return Err(format!("a battle went on for more than {MAX_ROUNDS} rounds"));
            }
            if next <= self.counted {
                rounds += 1;
                at = self.round(a, d, next)?.draw(dice.uniform());
                next += 1;
                continue;
            }
            if self.plain {
                match self.plain_rounds(a, d, &mut rounds, dice)? {
                    At::Over(o, a, d) => return Ok(((o, a, d), rounds)),
                    // Defenseless units were destroyed, leaving the chains of losses: the
                    // battle goes on from there.
                    At::Between(x, y) => {
                        at = At::Between(x, y);
                        continue;
                    }
                }
            }
            rounds += 1;
            at = self.round(a, d, u32::MAX)?.draw(dice.uniform());
        }
    }

    fn rest_of_first(&mut self, m: Mid) -> Result<Rc<Draws<At>>, String> {
        if let Some(d) = self.rest_of_first.get(&m) {
            return Ok(d.clone());
        }
        let ops = self.chain.round_ops(self.chain.first_number)?;
        let (left, ends) = self.chain.play(vec![(m, 1.0)], &ops, self.chain.first_number)?;
        let empty = self.chain.empty;
        if left.iter().any(|(m, _)| m.dhit != empty[1] || m.ahit != empty[0]) {
            return Err("units hit stay in the battle: the round has no step removing casualties".into());
        }
        let d = Rc::new(Draws::new(
            ends.iter()
                .map(|e| (at(e), weight(e)))
                .chain(left.iter().map(|(m, w)| (At::Between(m.a, m.dcas), *w))),
        ));
        self.rest_of_first.insert(m, d.clone());
        Ok(d)
    }

    fn round(&mut self, a: u32, d: u32, round: u32) -> Result<Rc<Draws<At>>, String> {
        let key = (a, d, self.chain.round_key(round)?);
        if let Some(x) = self.rounds.get(&key) {
            return Ok(x.clone());
        }
        let ends = self.chain.round(a, d, false, round)?;
        if super::exact::stay(&ends, a, d) >= 1.0 - 1e-12 {
            return Err("a round that can never change anything".into());
        }
        let x = Rc::new(Draws::new(ends.iter().map(|e| (at(e), weight(e)))));
        self.rounds.insert(key, x.clone());
        Ok(x)
    }

    /// Ordinary rounds down both sides' chains of losses, until the battle is over or
    /// defenseless units go (`Between`, for the general round).
    fn plain_rounds(&mut self, a: u32, d: u32, rounds: &mut u32, dice: &mut Dice) -> Result<At, String> {
        let (ca, mut pa) = self.chain.place(Side::Attacker, a);
        let (cd, mut pd) = self.chain.place(Side::Defender, d);
        let la = self.chain.sides[0].chains[ca].len();
        let ld = self.chain.sides[1].chains[cd].len();
        loop {
            let (a, d) = (
                self.chain.sides[0].chains[ca][pa],
                self.chain.sides[1].chains[cd][pd],
            );
            let c = self.chain.check(a, d);
            if c.removed != [0, 0] {
                // Destroyed before anything else, as the battle does between rounds.
                let x = self.chain.without(Side::Attacker, a, c.removed[0]);
                let y = self.chain.without(Side::Defender, d, c.removed[1]);
                return Ok(At::Between(x, y));
            }
            if let Some(o) = c.outcome {
                return Ok(At::Over(outcome_key(o), a, d));
            }
            if c.may_retreat && self.chain.retreats(a, u32::MAX)? {
                return Ok(At::Over(outcome_key(Outcome::Retreated), a, d));
            }
            if *rounds >= MAX_ROUNDS {
                return Err(format!("a battle went on for more than {MAX_ROUNDS} rounds"));
            }
            let (ha, hd) = (
                self.chain.hits(Side::Attacker, a),
                self.chain.hits(Side::Defender, d),
            );
            let (ha, hd) = (
                self.chain.hits_at(Side::Attacker, ha),
                self.chain.hits_at(Side::Defender, hd),
            );
            if ha.stays(pd == ld - 1) * hd.stays(pa == la - 1) >= 1.0 - 1e-12 {
                return Err("a round that can never change anything".into());
            }
            *rounds += 1;
            let to_a = hd.draw(dice.uniform());
            let to_d = ha.draw(dice.uniform());
            pa = (pa + to_a).min(la - 1);
            pd = (pd + to_d).min(ld - 1);
        }
    }
}

fn at(e: &End) -> At {
    match e {
        End::Over(o, a, d, _) => At::Over(outcome_key(*o), *a, *d),
        End::Next(a, d, _) => At::Between(*a, *d),
    }
}

fn weight(e: &End) -> f64 {
    match e {
        End::Over(.., p) | End::Next(.., p) => *p,
    }
}

fn chunk(q: &Question, n: u64, seed: u64) -> Result<Tally, String> {
    let mut s = Sampler::new(q)?;
    let mut dice = Dice::seeded(seed);
    let mut over: Map<(u8, u32, u32), f64> = Map::default();
    let (mut rounds, mut rounds_sq) = (0.0, 0.0);
    for _ in 0..n {
        let (end, r) = s.battle(&mut dice)?;
        *over.entry(end).or_default() += 1.0;
        let r = f64::from(r);
        rounds += r;
        rounds_sq += r * r;
    }
    let mut t = s.chain.tally(over);
    t.rounds = rounds;
    t.rounds_sq = rounds_sq;
    Ok(t)
}

/// `runs` battles drawn from the chain's transitions, or why the chain cannot give them.
pub fn sampled(
    q: &Question,
    runs: u64,
    seed: u64,
    threads: Option<usize>,
    endings: usize,
    why_not_exact: Option<String>,
) -> Result<Odds, String> {
    // The chain's own checks first, so a battle it cannot express fails at once.
    Sampler::new(q)?;
    let runs = runs.max(1);
    let mut all = Tally::default();
    // Merged in chunk order, so float sums do not depend on which thread finished first.
    for t in super::in_chunks(runs, CHUNK, seed, threads, |n, seed| chunk(q, n, seed)) {
        all.merge(t?);
    }
    Ok(all.odds(
        q,
        Method::Sampled {
            runs,
            why: why_not_exact,
        },
        Some(runs),
        endings,
    ))
}
