//! Foresight: questions about moves not made. The computer opponent (`crate::ai`) weighs an
//! attack before it moves a unit: the battle is set up on a copy of the state with the units
//! moved in by hand, and answered by the same `odds_question` that `odds SPACE` asks in play.
//! It weighs the answers to a rule script's question by the board each would leave
//! ([`Game::preview`]), and a strategic bombing raid by raids fought on copies of the board
//! ([`Game::raid_outlook`]). Nothing here changes the game.

use super::state::State;
use super::Game;
use crate::rules::{PowerId, SpaceId};
use std::sync::Arc;

impl Game {
    /// The battle `attacker` would fight in `target` with these units (space, unit id) moved
    /// in, against what is there now: its odds question, rule scripts included. Units not
    /// found where named are left out; cargo moves with its transport, and cargo named on its
    /// own lands as an amphibious assault does.
    pub fn attack_question(
        &self,
        attacker: PowerId,
        target: SpaceId,
        units: &[(SpaceId, u32)],
    ) -> Result<crate::odds::Question, String> {
        let s = self.moved_in(target, units);
        let mut q = super::fight::odds_question(&self.rules, &s, attacker, target)?;
        q.scripts = self.battle_scripts().map(Arc::new);
        Ok(q)
    }

    /// The battle being fought as it stands, whatever decision it waits for (a submarine's
    /// dive, casualties): a question for battles fought out from here (Monte Carlo: the chain
    /// starts only from a round's beginning). `None` when no battle is under way.
    pub fn battle_question(&self) -> Option<crate::odds::Question> {
        let b = self.state.combat.as_ref().filter(|b| {
            // Fought out from here with the engine's dice: none may be awaited from a table.
            b.outcome.is_none() && !matches!(b.waiting, Some(crate::combat::Need::Dice { .. }))
        })?;
        Some(crate::odds::Question {
            profiles: super::fight::profiles(&self.rules, &self.state, b.attacker, b.space),
            battle: b.clone(),
            retreat: crate::odds::RetreatPolicy::default(),
            scripts: self.battle_scripts().map(Arc::new),
            cargo: Vec::new(),
        })
    }

    /// What a strategic bombing raid by `attacker` with these bombers (space, unit id) on
    /// `facility` in `target` is expected to do, as the engine fights it (antiaircraft fire,
    /// each surviving bomber's dice, the damage cap), over `runs` raids with seeded dice: the
    /// average damage done and the average cost of the bombers lost. Interceptors are not
    /// counted (they are declared when the raid is fought). `None` when the target has no
    /// such facility.
    pub fn raid_outlook(
        &self,
        attacker: PowerId,
        target: SpaceId,
        facility: crate::rules::FacilityTypeId,
        bombers: &[(SpaceId, u32)],
        runs: u32,
    ) -> Option<(f64, f64)> {
        let damage_of = |s: &State| {
            s.space(target)
                .facilities
                .iter()
                .find(|f| f.kind == facility)
                .map(|f| f.damage)
        };
        let before = damage_of(&self.state)?;
        let mut board = self.moved_in(target, bombers);
        let ids: Vec<u32> = bombers.iter().map(|(_, id)| *id).collect();
        let mut sent = 0;
        for u in board
            .space_mut(target)
            .units
            .iter_mut()
            .filter(|u| ids.contains(&u.id))
        {
            u.marks.bombing = true;
            u.marks.raid_target = Some(facility);
            sent += self.rules.unit(u.kind).cost;
        }
        board.manual_dice = false;
        board.dice_queue.clear();
        let (mut damage, mut lost) = (0.0, 0.0);
        for run in 0..runs.max(1) {
            let mut s = board.clone();
            s.dice = super::dice::Dice::seeded(u64::from(run) + 1);
            super::raid::raid(
                &self.rules,
                &mut s,
                attacker,
                target,
                &mut crate::combat::Quiet,
                &mut Vec::new(),
            )
            .ok()?;
            damage += f64::from(damage_of(&s)?.saturating_sub(before));
            let left: u32 = s
                .space(target)
                .units
                .iter()
                .filter(|u| ids.contains(&u.id))
                .map(|u| self.rules.unit(u.kind).cost)
                .sum();
            lost += f64::from(sent - left);
        }
        let n = f64::from(runs.max(1));
        Some((damage / n, lost / n))
    }

    /// The state `cmd` would leave, without changing the game (as [`Game::dry_run`]: the
    /// scripts' stores are restored, dice are rolled on a copy).
    pub fn preview(&mut self, cmd: &super::command::Command) -> Result<State, super::Rejection> {
        self.rehearse(cmd).map(|a| a.next)
    }

    fn moved_in(&self, target: SpaceId, units: &[(SpaceId, u32)]) -> State {
        let mut s = self.state.clone();
        for &(from, id) in units {
            if from == target {
                continue;
            }
            let mut moved = s.remove_unit(from, id);
            // Cargo named on its own comes ashore (an assault); a transport keeps its cargo.
            if let Some(u) = moved.first_mut() {
                u.aboard = None;
            }
            s.space_mut(target).units.extend(moved);
        }
        let b = s.this_turn.battle_mut(target);
        b.fought = false;
        s
    }
}
