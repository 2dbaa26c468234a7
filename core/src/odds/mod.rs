//! Battle odds: how a battle is likely to end, from the battle code itself (principles §9).
//!
//! A `Question` is a battle as it would start (a `Battle` set up by the game or from a unit
//! list) with its `Profiles` and a retreat policy. Two ways to answer it:
//!
//! - `exact`: a Markov chain over the units each side has left. Who fires at what value comes
//!   from `Battle::fire_groups_in`, which casualties a side gives up from `casualties::suggest`
//!   (the order of loss of real play), when a battle is over from `Battle::check_over`; the
//!   chain only enumerates the dice instead of rolling them.
//! - `sampled`: Monte Carlo drawn from the chain's rounds: the same transitions, a few draws
//!   per battle; when asked for runs, or when the chain is too big to enumerate.
//! - `sim`: Monte Carlo, fighting clones of the battle with `Battle::advance` and seeded dice,
//!   for what the chain cannot express (seaborne units retreating, rule scripts that may carry
//!   what they hear from step to step).
//!
//! Rule scripts that can change a battle (`before_combat_step` handlers, `game::BattleScripts`)
//! are never ignored: they see the round and the step, not the units, so `plan` asks them once
//! per round and step for the chain and the drawn battles; where that is not enough, `sim`
//! fights every battle with them through the observer of real play. The answer names them
//! (`Odds::scripts`, and `Method::MonteCarlo::why` when fought).
//!
//! Architecture invariant: both read only the `Question`; neither sees the game state, so
//! `warroom odds` and `odds SPACE` in the REPL give the same answer for the same units.

mod exact;
mod plan;
mod sample;
mod sim;
mod spec;

pub use exact::exact;
pub use sample::sampled;
pub use sim::monte_carlo;
pub use spec::{parse_noted_units, parse_units, Noted, Spec};

use crate::combat::{Battle, Outcome, Profiles, Side, Status};
use crate::game::BattleScripts;
use crate::rules::{Domain, UnitTypeId};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A battle to compute.
#[derive(Clone, Debug)]
pub struct Question {
    pub profiles: Profiles,
    /// The battle as set up, before its first step: units, bombarding ships, where the
    /// attacker may retreat and each side's order of loss.
    pub battle: Battle,
    pub retreat: RetreatPolicy,
    /// The rule scripts that can change the battle (`None`: none can). With them, the battle
    /// is fought through the battle code and the scripts, never answered by the chain.
    pub scripts: Option<Arc<BattleScripts>>,
    /// Defending aircraft aboard a damaged carrier that launches nothing: no part in the
    /// battle, lost if the carrier sinks (the calculator does not follow their fate).
    pub cargo: Vec<(UnitTypeId, u32)>,
}

/// When the attacker retreats, asked at each "press attack or retreat" step where it may.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RetreatPolicy {
    /// At the end of this round and any later one.
    pub after_round: Option<u32>,
    /// When fewer than this many attacking units are left.
    pub fewer_than: Option<u32>,
    /// When only aircraft are left.
    pub only_air: bool,
}

impl RetreatPolicy {
    pub fn never(&self) -> bool {
        self.after_round.is_none() && self.fewer_than.is_none() && !self.only_air
    }

    fn wants(&self, round: u32, left: u32, all_air: bool) -> bool {
        self.after_round.is_some_and(|n| round >= n)
            || self.fewer_than.is_some_and(|k| left < k)
            || (self.only_air && all_air && left > 0)
    }

    /// Whether the attacker's units still in the battle make it retreat now.
    pub(crate) fn wants_now(&self, p: &Profiles, b: &Battle) -> bool {
        let mut left = 0;
        let mut all_air = true;
        for (_, u) in b.alive(Side::Attacker) {
            left += 1;
            all_air &= p.of(u.kind).domain == Domain::Air;
        }
        self.wants(b.round, left, all_air)
    }
}

/// A probability or an average, with the half-width of its 95% confidence interval (0 when
/// computed exactly).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub margin: f64,
}

/// How a battle ended, and who was left.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    pub outcome: Outcome,
    /// Units left per type (damaged units count as units), in unit-type order.
    pub attackers: Vec<(UnitTypeId, u32)>,
    pub defenders: Vec<(UnitTypeId, u32)>,
    pub probability: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    /// The Markov chain; `states` is how many unit combinations it went through.
    Exact { states: usize },
    /// `runs` battles drawn round by round from the chain's transitions; `why` says why the
    /// chain could not answer exactly, when it was tried.
    Sampled { runs: u64, why: Option<String> },
    /// `runs` battles fought by `Battle::advance`; `why` says why the chain could not answer,
    /// when it was tried.
    MonteCarlo { runs: u64, why: Option<String> },
}

/// The answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Odds {
    pub method: Method,
    /// The defender has nothing left and the attacker has.
    pub attacker_wins: Estimate,
    /// The attacker wins with a land unit able to take the territory (land battles).
    pub takes_territory: Option<Estimate>,
    pub defender_wins: Estimate,
    /// Both sides destroyed, or units left on both sides that cannot hurt each other.
    pub draw: Estimate,
    pub retreats: Estimate,
    pub rounds: Estimate,
    /// Average units left per type.
    pub attackers_left: Vec<(UnitTypeId, f64)>,
    pub defenders_left: Vec<(UnitTypeId, f64)>,
    /// Average IPCs each side loses (the cost of its units destroyed).
    pub attacker_loss: Estimate,
    pub defender_loss: Estimate,
    /// The likeliest endings, most likely first.
    pub endings: Vec<Ending>,
    /// The rule-script handlers the battles were fought with (`handler `id` in file:line`).
    pub scripts: Vec<String>,
    /// The question's defending aircraft held as cargo on a damaged carrier.
    pub cargo: Vec<(UnitTypeId, u32)>,
}

impl Odds {
    /// What the attacker gains in total unit value: the defender's losses less its own.
    pub fn tuv_swing(&self) -> f64 {
        self.defender_loss.value - self.attacker_loss.value
    }
}

/// How to answer.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Monte Carlo with this many battles instead of the chain.
    pub runs: Option<u64>,
    /// Battles fought when the chain cannot answer and no `runs` was given.
    pub fallback_runs: Option<u64>,
    pub seed: u64,
    /// Threads for Monte Carlo (default: one per core).
    pub threads: Option<usize>,
    /// Endings listed.
    pub endings: usize,
}

pub const DEFAULT_RUNS: u64 = 100_000;
/// Battles fought when rule scripts change the battle and no `runs` was given: each asks the
/// scripts at every step, some hundred times slower than a battle drawn from the chain.
pub const SCRIPTED_RUNS: u64 = 20_000;
/// Endings listed when `Options::endings` is 0.
pub const DEFAULT_ENDINGS: usize = 6;

/// The chain when it can answer, else Monte Carlo; with rule scripts that change the battle,
/// battles fought with them. `Err` when a rule script fails in a battle.
pub fn calculate(q: &Question, o: &Options) -> Result<Odds, String> {
    let endings = if o.endings == 0 {
        DEFAULT_ENDINGS
    } else {
        o.endings
    };
    let default_runs = if q.scripts.is_some() {
        SCRIPTED_RUNS
    } else {
        DEFAULT_RUNS
    };
    if let Some(why) = q.scripts.as_ref().and_then(|s| s.chain_why_not()) {
        let runs = o.runs.or(o.fallback_runs).unwrap_or(default_runs);
        return monte_carlo(q, runs, o.seed, o.threads, endings, Some(why));
    }
    let (runs, why) = match o.runs {
        Some(runs) => (runs, None),
        None => match exact(q, endings) {
            Ok(odds) => return Ok(odds),
            Err(why) => (o.fallback_runs.unwrap_or(default_runs), Some(why)),
        },
    };
    // Drawn from the chain where it can say what a round does (a battle too big to enumerate
    // still can), else fought by the battle code.
    match sampled(q, runs, o.seed, o.threads, endings, why.clone()) {
        Ok(odds) => Ok(odds),
        Err(not_sampled) => monte_carlo(
            q,
            runs,
            o.seed,
            o.threads,
            endings,
            Some(why.unwrap_or(not_sampled)),
        ),
    }
}

/// `runs` cut into chunks of `chunk` runs, each given its own seed drawn from `seed`, taken by
/// threads; the results in chunk order, so that they depend on the seed and the number of
/// runs, never on the number of threads. A chunk returning `Err` stops the chunks not begun.
pub(crate) fn in_chunks<T: Send>(
    runs: u64,
    chunk: u64,
    seed: u64,
    threads: Option<usize>,
    f: impl Fn(u64, u64) -> Result<T, String> + Sync,
) -> Vec<Result<T, String>> {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let chunks = runs.div_ceil(chunk);
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, chunks.max(1) as usize);
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let parts: std::sync::Mutex<Vec<(u64, Result<T, String>)>> = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let c = next.fetch_add(1, Ordering::Relaxed);
                if c >= chunks || failed.load(Ordering::Relaxed) {
                    break;
                }
                let n = chunk.min(runs - c * chunk);
                let r = f(n, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(c));
                if r.is_err() {
                    failed.store(true, Ordering::Relaxed);
                }
                parts.lock().expect("no thread panics holding it").push((c, r));
            });
        }
    });
    let mut parts = parts.into_inner().expect("threads are done");
    parts.sort_by_key(|(c, _)| *c);
    parts.into_iter().map(|(_, r)| r).collect()
}

/// Endings gathered by either method: weight per (outcome, attackers left, defenders left).
#[derive(Default)]
pub(crate) struct Tally {
    /// In key order, so that sums over it, and so the answer, never depend on a map's order.
    pub endings: BTreeMap<(OutcomeKey, Vec<u32>, Vec<u32>), f64>,
    pub total: f64,
    pub rounds: f64,
    pub rounds_sq: f64,
}

/// `Outcome` as a map key, in a fixed order.
pub(crate) type OutcomeKey = u8;

pub(crate) fn outcome_key(o: Outcome) -> OutcomeKey {
    match o {
        Outcome::AttackerWon => 0,
        Outcome::DefenderWon => 1,
        Outcome::BothDestroyed => 2,
        Outcome::Stalemate => 3,
        Outcome::Retreated => 4,
        Outcome::Ended => 5,
    }
}

pub(crate) fn outcome_of(k: OutcomeKey) -> Outcome {
    match k {
        0 => Outcome::AttackerWon,
        1 => Outcome::DefenderWon,
        2 => Outcome::BothDestroyed,
        3 => Outcome::Stalemate,
        4 => Outcome::Retreated,
        _ => Outcome::Ended,
    }
}

/// Units of a side still standing at the end, per unit type.
pub(crate) fn left_per_type(b: &Battle, side: Side, types: usize) -> Vec<u32> {
    let mut n = vec![0; types];
    for u in b.units.iter().filter(|u| u.side == side) {
        if matches!(u.status, Status::Fighting | Status::Submerged | Status::Retreated) {
            n[u.kind.index()] += 1;
        }
    }
    n
}

impl Tally {
    pub fn add(&mut self, outcome: Outcome, attackers: Vec<u32>, defenders: Vec<u32>, weight: f64) {
        *self
            .endings
            .entry((outcome_key(outcome), attackers, defenders))
            .or_default() += weight;
        self.total += weight;
    }

    pub fn merge(&mut self, other: Tally) {
        for (k, w) in other.endings {
            *self.endings.entry(k).or_default() += w;
        }
        self.total += other.total;
        self.rounds += other.rounds;
        self.rounds_sq += other.rounds_sq;
    }

    /// The summary. `runs`: the number of battles behind a Monte Carlo tally (margins are
    /// computed from it), `None` for the chain.
    pub fn odds(self, q: &Question, method: Method, runs: Option<u64>, listed: usize) -> Odds {
        let p = &q.profiles;
        let types = p.units.len();
        let start = |side| left_per_type(&q.battle, side, types);
        let (a0, d0) = (start(Side::Attacker), start(Side::Defender));
        let total = if self.total > 0.0 { self.total } else { 1.0 };
        let cost = |before: &[u32], after: &[u32]| -> f64 {
            before
                .iter()
                .zip(after)
                .enumerate()
                .map(|(k, (b, a))| f64::from(b.saturating_sub(*a)) * f64::from(p.units[k].cost))
                .sum()
        };
        let captures = |left: &[u32]| {
            left.iter()
                .enumerate()
                .any(|(k, n)| *n > 0 && p.units[k].can_capture && p.units[k].domain == Domain::Land)
        };
        let mut share = [0.0f64; 5];
        let mut takes = 0.0;
        let (mut al, mut dl) = (vec![0.0; types], vec![0.0; types]);
        let (mut aloss, mut aloss2, mut dloss, mut dloss2) = (0.0, 0.0, 0.0, 0.0);
        // Only endings as likely as the `listed`-th likeliest can be listed: the others are
        // summed, never made into lists (a big battle has thousands).
        let cut = {
            let mut p: Vec<f64> = self.endings.values().map(|w| w / total).collect();
            if listed == 0 {
                f64::INFINITY
            } else if p.len() > listed {
                let (_, nth, _) = p.select_nth_unstable_by(listed - 1, |x, y| y.total_cmp(x));
                *nth
            } else {
                f64::NEG_INFINITY
            }
        };
        let mut endings: Vec<Ending> = Vec::new();
        for ((o, a, d), w) in &self.endings {
            let f = w / total;
            share[*o as usize] += f;
            if *o == 0 && !q.battle.sea && captures(a) {
                takes += f;
            }
            for k in 0..types {
                al[k] += f * f64::from(a[k]);
                dl[k] += f * f64::from(d[k]);
            }
            let (ca, cd) = (cost(&a0, a), cost(&d0, d));
            aloss += f * ca;
            aloss2 += f * ca * ca;
            dloss += f * cd;
            dloss2 += f * cd * cd;
            if f.total_cmp(&cut).is_lt() {
                continue;
            }
            let list = |v: &[u32]| -> Vec<(UnitTypeId, u32)> {
                v.iter()
                    .enumerate()
                    .filter(|(_, n)| **n > 0)
                    .map(|(k, n)| (UnitTypeId(k as u16), *n))
                    .collect()
            };
            endings.push(Ending {
                outcome: outcome_of(*o),
                attackers: list(a),
                defenders: list(d),
                probability: f,
            });
        }
        endings.sort_by(|x, y| {
            y.probability
                .total_cmp(&x.probability)
                .then_with(|| outcome_key(x.outcome).cmp(&outcome_key(y.outcome)))
                .then_with(|| y.attackers.cmp(&x.attackers))
                .then_with(|| x.defenders.cmp(&y.defenders))
        });
        endings.truncate(listed);
        let n = runs.map(|r| r.max(1) as f64);
        let prop = |v: f64| Estimate {
            value: v,
            margin: n.map_or(0.0, |n| 1.96 * (v * (1.0 - v) / n).sqrt()),
        };
        let mean = |m: f64, sq: f64| Estimate {
            value: m,
            margin: n.map_or(0.0, |n| 1.96 * ((sq - m * m).max(0.0) / n).sqrt()),
        };
        let rounds = self.rounds / total;
        let per_type = |v: Vec<f64>| -> Vec<(UnitTypeId, f64)> {
            v.into_iter()
                .enumerate()
                .filter(|(k, x)| *x > 0.0 || a0[*k] + d0[*k] > 0)
                .map(|(k, x)| (UnitTypeId(k as u16), x))
                .collect()
        };
        let (al, dl) = (
            per_type(al)
                .into_iter()
                .filter(|(k, _)| a0[k.index()] > 0)
                .collect(),
            per_type(dl)
                .into_iter()
                .filter(|(k, _)| d0[k.index()] > 0)
                .collect(),
        );
        Odds {
            method,
            attacker_wins: prop(share[0]),
            takes_territory: (!q.battle.sea).then(|| prop(takes)),
            defender_wins: prop(share[1]),
            draw: prop(share[2] + share[3]),
            retreats: prop(share[4]),
            rounds: mean(rounds, self.rounds_sq / total),
            attackers_left: al,
            defenders_left: dl,
            attacker_loss: mean(aloss, aloss2),
            defender_loss: mean(dloss, dloss2),
            endings,
            scripts: q.scripts.as_ref().map_or(Vec::new(), |s| s.named()),
            cargo: q.cargo.clone(),
        }
    }
}
