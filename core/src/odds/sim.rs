//! Monte Carlo: clones of the battle fought to the end by `Battle::advance` with seeded dice,
//! the owners' suggested casualties, no submerging, and the retreat policy at each "press
//! attack or retreat".
//!
//! The runs are cut into fixed chunks, each with its own seed drawn from the question's, and
//! threads take chunks: the answer depends on the seed and the number of runs, never on the
//! number of threads.

use super::{left_per_type, Method, Odds, Question, Tally};
use crate::combat::{Battle, Need, Outcome, Progress, Quiet, Side};
use crate::game::dice::Dice;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

const CHUNK: u64 = 4096;

pub fn monte_carlo(
    q: &Question,
    runs: u64,
    seed: u64,
    threads: Option<usize>,
    endings: usize,
    why: Option<String>,
) -> Odds {
    let runs = runs.max(1);
    let chunks = runs.div_ceil(CHUNK);
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, chunks as usize);
    let next = AtomicU64::new(0);
    let tallies: Mutex<Vec<(u64, Tally)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= chunks {
                    break;
                }
                let n = CHUNK.min(runs - c * CHUNK);
                let t = chunk(q, n, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(c));
                tallies.lock().expect("no thread panics holding it").push((c, t));
            });
        }
    });
    let mut parts = tallies.into_inner().expect("threads are done");
    // Merged in chunk order, so float sums do not depend on which thread finished first.
    parts.sort_by_key(|(c, _)| *c);
    let mut all = Tally::default();
    for (_, t) in parts {
        all.merge(t);
    }
    all.odds(q, Method::MonteCarlo { runs, why }, Some(runs), endings)
}

fn chunk(q: &Question, n: u64, seed: u64) -> Tally {
    let mut dice = Dice::seeded(seed);
    let mut t = Tally::default();
    let types = q.profiles.units.len();
    for _ in 0..n {
        let mut b = q.battle.clone();
        let outcome = fight(q, &mut b, &mut dice);
        let r = f64::from(b.round);
        t.rounds += r;
        t.rounds_sq += r * r;
        t.add(
            outcome,
            left_per_type(&b, Side::Attacker, types),
            left_per_type(&b, Side::Defender, types),
            1.0,
        );
    }
    t
}

/// One battle to its end, as `Battle::auto` fights it but retreating when the policy says.
pub(crate) fn fight(q: &Question, b: &mut Battle, dice: &mut Dice) -> Outcome {
    let p = &q.profiles;
    loop {
        match b.advance(p, dice, &mut Quiet) {
            Progress::Over(o) => return o,
            // Quiet never aborts.
            Progress::Aborted => return Outcome::Stalemate,
            Progress::Need => match b.waiting.clone() {
                Some(Need::Casualties(_)) => {
                    b.choose_casualties(p, None, &mut Quiet)
                        .expect("suggested casualties are valid");
                }
                Some(Need::Submerge { side }) => {
                    b.submerge(p, side, &[], &mut Quiet)
                        .expect("not submerging is always allowed");
                }
                Some(Need::PressOrRetreat) => {
                    if q.retreat.wants_now(p, b) {
                        let to = b.retreat_to.first().copied();
                        b.retreat(p, to, &mut Quiet)
                            .expect("a retreat the battle offered");
                    } else {
                        b.press().expect("pressing on is always allowed");
                    }
                }
                // Seeded dice never wait.
                Some(Need::Dice { .. }) | None => return Outcome::Stalemate,
            },
        }
    }
}
