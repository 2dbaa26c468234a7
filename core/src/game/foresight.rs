//! Foresight: questions about moves not made. The computer opponent (`crate::ai`) weighs an
//! attack before it moves a unit: the battle is set up on a copy of the state with the units
//! moved in by hand, and answered by the same `odds_question` that `odds SPACE` asks in play.
//! Nothing here changes the game.

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
