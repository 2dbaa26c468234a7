//! Monte Carlo: clones of the battle fought to the end by `Battle::advance` with seeded dice,
//! the owners' suggested casualties, no submerging, and the retreat policy at each "press
//! attack or retreat". When the question has rule scripts, each thread loads them into a Lua
//! host of its own and every battle is fought with the observer of real play
//! (`game::BattleScripts`): its handlers skip steps, change values and do script steps as in
//! a game.
//!
//! The runs are cut into fixed chunks, each with its own seed drawn from the question's, and
//! threads take chunks: the answer depends on the seed and the number of runs, never on the
//! number of threads.

use super::{outcome_key, outcome_of, Method, Odds, Question, Tally};
use crate::combat::{Battle, Need, Observer, Outcome, Progress, Quiet, Side, Status};
use crate::game::dice::Dice;
use std::collections::HashMap;

const CHUNK: u64 = 4096;

pub fn monte_carlo(
    q: &Question,
    runs: u64,
    seed: u64,
    threads: Option<usize>,
    endings: usize,
    why: Option<String>,
) -> Result<Odds, String> {
    let runs = runs.max(1);
    let mut all = Tally::default();
    // Merged in chunk order, so float sums do not depend on which thread finished first.
    for t in super::in_chunks(runs, CHUNK, seed, threads, |n, seed| chunk(q, n, seed)) {
        all.merge(t?);
    }
    Ok(all.odds(q, Method::MonteCarlo { runs, why }, Some(runs), endings))
}

fn chunk(q: &Question, n: u64, seed: u64) -> Result<Tally, String> {
    let mut dice = Dice::seeded(seed);
    let types = q.profiles.units.len();
    let mut scripts = q.scripts.as_ref().map(|s| s.host()).transpose()?;
    // One battle value, refilled from the question each run (its vectors keep their room),
    // and endings counted under a borrowed key: no allocation per battle once warm.
    let mut b = q.battle.clone();
    let mut key: Vec<u32> = Vec::with_capacity(1 + 2 * types);
    let mut counts: HashMap<Vec<u32>, u64> = HashMap::new();
    let (mut rounds, mut rounds_sq) = (0.0, 0.0);
    for _ in 0..n {
        b.clone_from(&q.battle);
        let outcome = match &mut scripts {
            Some(host) => host
                .fight(|obs| fight(q, &mut b, &mut dice, obs))
                .map_err(|e| format!("a rule script failed in a simulated battle: {e}"))?,
            None => fight(q, &mut b, &mut dice, &mut Quiet),
        };
        let r = f64::from(b.round);
        rounds += r;
        rounds_sq += r * r;
        key.clear();
        key.push(u32::from(outcome_key(outcome)));
        key.resize(1 + 2 * types, 0);
        for u in &b.units {
            if matches!(u.status, Status::Fighting | Status::Submerged | Status::Retreated) {
                let side = usize::from(u.side == Side::Defender);
                key[1 + side * types + u.kind.index()] += 1;
            }
        }
        match counts.get_mut(&key[..]) {
            Some(c) => *c += 1,
            None => {
                counts.insert(key.clone(), 1);
            }
        }
    }
    // Whole counts: the sums are exact, so the map's order cannot change the answer.
    let mut t = Tally::default();
    for (k, c) in counts {
        let (a, d) = k[1..].split_at(types);
        t.add(outcome_of(k[0] as u8), a.to_vec(), d.to_vec(), c as f64);
    }
    t.rounds = rounds;
    t.rounds_sq = rounds_sq;
    Ok(t)
}

/// One battle to its end, as `Battle::auto` fights it but retreating when the policy says.
pub(crate) fn fight(q: &Question, b: &mut Battle, dice: &mut Dice, obs: &mut dyn Observer) -> Outcome {
    let p = &q.profiles;
    loop {
        match b.advance(p, dice, obs) {
            Progress::Over(o) => return o,
            // A failing script: the observer keeps the error, which the caller reports.
            Progress::Aborted => return Outcome::Stalemate,
            Progress::Need => match &b.waiting {
                Some(Need::Casualties(_)) => {
                    b.choose_casualties(p, None, obs)
                        .expect("suggested casualties are valid");
                }
                &Some(Need::Submerge { side }) => {
                    b.submerge(p, side, &[], obs)
                        .expect("not submerging is always allowed");
                }
                Some(Need::PressOrRetreat) => {
                    if q.retreat.wants_now(p, b) {
                        let to = b.retreat_to.first().copied();
                        b.retreat(p, to, obs).expect("a retreat the battle offered");
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
