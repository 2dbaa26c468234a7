//! Rule scripts for the chain: each round's steps as the battle's `before_combat_step`
//! handlers would have them, asked once per round instead of once per battle.
//!
//! A handler asked before a step sees the step's payload (space, attacker, defenders, combat
//! round, step) and the board the odds were asked on; none of it depends on the units left, so
//! in every battle reaching a round the handlers answer alike, as long as nothing they carry
//! between calls changes while battles are fought. `BattleScripts::chain_why_not` refuses the
//! chain where something could (handlers hearing casualties or the end of steps may carry what
//! they saw into the store); a handler that writes the store when asked fails the plan here.
//! Either way the battles are then fought with the scripts (`sim`).
//!
//! Each round's answers (run or skipped, the values rules have changed by then, a script
//! step's actions) are computed in order, when the chain or a drawn battle first reaches the
//! round, and interned: rounds answered alike share their transitions.

use crate::combat::{Battle, Gate, ScriptAction, ValueChange};
use crate::game::BattleHost;
use crate::rules::Step;
use std::rc::Rc;

/// One step of a round, as the handlers have it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Planned {
    pub step: Step,
    /// The values rules have changed when the step runs (its own request included), as an
    /// index into `Plans::changed`.
    pub changed: u32,
    /// What a script step does.
    pub actions: Vec<ScriptAction>,
    /// Units hit in this step go at once: no later step of its list removes casualties.
    pub remove_now: bool,
}

/// A step the handlers let run, as they answered (`first`: in the first round's own list).
struct Asked {
    first: bool,
    step: Step,
    changed: Vec<ValueChange>,
    actions: Vec<ScriptAction>,
    remove_now: bool,
}

/// A round's steps that run (skipped ones are left out), the first round's own list first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct RoundPlan {
    pub first: Vec<Planned>,
    pub round: Vec<Planned>,
}

pub(super) struct Plans<'q> {
    host: BattleHost<'q>,
    /// The battle as the handlers see it (its round set for each question).
    probe: Battle,
    first_round: bool,
    first_number: u32,
    first_steps: Vec<Step>,
    round_steps: Vec<Step>,
    /// Per round from the first, an index into `plans`.
    rounds: Vec<u32>,
    plans: Vec<Rc<RoundPlan>>,
    /// Lists of changed values, interned; `current` is the last round's, carried into the next.
    pub changed: Vec<Vec<ValueChange>>,
    current: Vec<ValueChange>,
}

impl<'q> Plans<'q> {
    pub(super) fn new(
        host: BattleHost<'q>,
        probe: Battle,
        first_round: bool,
        first_steps: Vec<Step>,
        round_steps: Vec<Step>,
    ) -> Plans<'q> {
        let current = probe.changed.clone();
        Plans {
            host,
            first_number: probe.round,
            probe,
            first_round,
            first_steps,
            round_steps,
            rounds: Vec::new(),
            plans: Vec::new(),
            changed: Vec::new(),
            current,
        }
    }

    /// The plan of round `round` (numbered as the battle numbers them) and its id: rounds with
    /// the same id are the same.
    pub(super) fn round(&mut self, round: u32) -> Result<(u32, Rc<RoundPlan>), String> {
        let at = round.saturating_sub(self.first_number) as usize;
        while self.rounds.len() <= at {
            let r = self.first_number + self.rounds.len() as u32;
            let plan = self.ask(r)?;
            let id = match self.plans.iter().position(|p| **p == plan) {
                Some(i) => i as u32,
                None => {
                    self.plans.push(Rc::new(plan));
                    self.plans.len() as u32 - 1
                }
            };
            self.rounds.push(id);
        }
        let id = self.rounds[at];
        Ok((id, self.plans[id as usize].clone()))
    }

    /// A plan by its id.
    pub(super) fn plan(&self, id: u32) -> Rc<RoundPlan> {
        self.plans[id as usize].clone()
    }

    fn intern(&mut self, list: &[ValueChange]) -> u32 {
        match self.changed.iter().position(|c| c == list) {
            Some(i) => i as u32,
            None => {
                self.changed.push(list.to_vec());
                self.changed.len() as u32 - 1
            }
        }
    }

    /// Ask the handlers about every step of round `r`, as `Battle::advance` asks them.
    fn ask(&mut self, r: u32) -> Result<RoundPlan, String> {
        let mut probe = self.probe.clone();
        probe.round = r;
        let lists: Vec<(bool, Vec<Step>)> = if r == self.first_number && self.first_round {
            vec![
                (true, self.first_steps.clone()),
                (false, self.round_steps.clone()),
            ]
        } else {
            vec![(false, self.round_steps.clone())]
        };
        let mut current = std::mem::take(&mut self.current);
        let mut asked: Vec<Asked> = Vec::new();
        let mut per_unit = false;
        let answered = self.host.fight(|obs| {
            for (first, steps) in &lists {
                for (i, &step) in steps.iter().enumerate() {
                    probe.changed = current.clone();
                    match obs.before_step(&probe, step) {
                        Gate::Run => {
                            if !obs.unit_values().is_empty() || !obs.removals().is_empty() {
                                per_unit = true;
                                return false;
                            }
                            for c in obs.changes() {
                                current.retain(|x| !(x.side == c.side && x.kind == c.kind));
                                current.push(c);
                            }
                            let actions = obs.actions();
                            let remove_now = !steps[i..].contains(&Step::RemoveCasualties);
                            asked.push(Asked {
                                first: *first,
                                step,
                                changed: current.clone(),
                                actions,
                                remove_now,
                            });
                        }
                        Gate::Skip => {}
                        Gate::End => {
                            per_unit = true;
                            return false;
                        }
                        Gate::Abort => return false,
                    }
                }
            }
            true
        })?;
        if per_unit {
            return Err(
                "a rule script sets the value of single units, destroys them or ends a battle, which the units left do not show, so every battle is fought through the battle code with the scripts"
                    .into(),
            );
        }
        if !answered {
            return Err("a rule script failed when asked about a battle step".into());
        }
        if self.host.wrote_store() {
            return Err(
                "a rule script writes warroom.store while a battle is fought (later steps may depend on it), so every battle is fought through the battle code with the scripts"
                    .into(),
            );
        }
        self.current = current;
        let mut plan = RoundPlan {
            first: Vec::new(),
            round: Vec::new(),
        };
        for a in asked {
            let p = Planned {
                step: a.step,
                changed: self.intern(&a.changed),
                actions: a.actions,
                remove_now: a.remove_now,
            };
            if a.first {
                plan.first.push(p);
            } else {
                plan.round.push(p);
            }
        }
        Ok(plan)
    }
}
