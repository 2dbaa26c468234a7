//! Arranging a position before play: what a regression scenario changes about a scenario's
//! setup (an empty board, units placed, control, treasuries, relations) and where in the turn
//! it starts.
//!
//! Arranging is not a command: it happens before the first command, leaves no history and is
//! not undoable, because a scenario's start is part of its definition, like the setup itself.

use super::state::{Facility, Relation, State, Unit};
use super::Game;
use crate::rules::{Piece, PowerId, RuleSet, Scenario, SpaceId};
use std::sync::Arc;

/// Where in the turn a position starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub round: u32,
    pub power: PowerId,
    /// The phase's id (`combat_move`, ...).
    pub phase: String,
}

/// Changes to a scenario's setup, applied in the order of the fields.
#[derive(Clone, Debug, Default)]
pub struct Arrangement {
    /// Start from a board without units or facilities (control stays as the setup has it).
    pub empty_board: bool,
    /// Spaces emptied of units (facilities stay).
    pub clear: Vec<SpaceId>,
    pub position: Option<Position>,
    pub units: Vec<(SpaceId, PowerId, Piece, u32)>,
    /// `None` leaves a territory uncontrolled.
    pub control: Vec<(SpaceId, Option<PowerId>)>,
    pub treasury: Vec<(PowerId, i64)>,
    pub relations: Vec<(PowerId, PowerId, Relation)>,
    pub techs: Vec<(PowerId, Vec<crate::rules::TechId>)>,
    /// Damage on a facility of a space, by the facility's piece.
    pub damage: Vec<(SpaceId, Piece, u32)>,
    /// Units bought and waiting for mobilization, per power (replacing what is waiting).
    pub purchased: Vec<(PowerId, Vec<(Piece, u32)>)>,
    /// Faces rolled at the table, used in order; the game then takes dice only from the table
    /// (a battle waits for more faces rather than rolling).
    pub dice: Option<Vec<u8>>,
}

impl Game {
    /// Change the starting position. Only before the first command: a game under way has a
    /// history that must replay from its origin.
    pub fn arrange(&mut self, a: &Arrangement) -> Result<(), String> {
        if !self.history.is_empty() {
            return Err("a game under way cannot be rearranged".into());
        }
        let rules = self.rules.clone();
        let mut s = self.state.clone();
        if a.empty_board {
            for i in 0..s.spaces.len() {
                let sp = s.spaces.edit(i);
                sp.units.clear();
                sp.facilities.clear();
            }
        }
        for space in &a.clear {
            s.space_mut(*space).units.clear();
        }
        if let Some(p) = &a.position {
            start_at(&rules, self.scenario(), &mut s, p)?;
        }
        place_pieces(&rules, &mut s, &a.units)?;
        for (space, power) in &a.control {
            if rules.board.space(*space).is_sea() {
                return Err(format!(
                    "{} is a sea zone: sea zones are not controlled",
                    rules.board.space(*space).name
                ));
            }
            s.space_mut(*space).controller = *power;
        }
        for (power, ipcs) in &a.treasury {
            Arc::make_mut(&mut s.treasuries)[power.index()] = *ipcs;
        }
        for (x, y, relation) in &a.relations {
            if rules.relation_holder(*x) == rules.relation_holder(*y) {
                return Err("a power has no relation with itself".into());
            }
            // A power's economies (`economy_of`) share its relations.
            let r: &crate::rules::RuleSet = &rules;
            let with = |p: PowerId| -> Vec<PowerId> {
                r.power_ids()
                    .filter(|q| r.relation_holder(*q) == r.relation_holder(p))
                    .collect()
            };
            for a in with(*x) {
                for b in with(*y) {
                    Arc::make_mut(&mut s.relations)[a.index()][b.index()] = *relation;
                    Arc::make_mut(&mut s.relations)[b.index()][a.index()] = *relation;
                }
            }
        }
        for (power, techs) in &a.techs {
            Arc::make_mut(&mut s.techs)[power.index()] = techs.clone();
        }
        for (space, piece, damage) in &a.damage {
            set_damage(&rules, &mut s, *space, *piece, *damage)?;
        }
        for (power, pieces) in &a.purchased {
            Arc::make_mut(&mut s.purchased)[power.index()] = pieces.clone();
        }
        if let Some(faces) = &a.dice {
            s.manual_dice = true;
            s.dice_queue = faces.clone();
        }
        // The arranged position is what "at the start of the turn" means from now on.
        super::start_turn_records(&rules, self.scenario(), &mut s);
        self.state = s;
        self.undo.clear();
        Ok(())
    }
}

/// The round, turn and phase a position starts in. A power playing within another's turn
/// starts at its step of that turn.
fn start_at(rules: &RuleSet, sc: &Scenario, s: &mut State, p: &Position) -> Result<(), String> {
    let host = rules.host_of(p.power).unwrap_or(p.power);
    let turn = sc
        .turn_order
        .iter()
        .position(|x| *x == host)
        .ok_or_else(|| format!("{} has no turn in this scenario", rules.power_info(host).name))?;
    let steps = rules.plan(host).steps(0);
    let phase = steps
        .iter()
        .position(|st| st.power == p.power && rules.phases[st.phase.index()].id == p.phase)
        .ok_or_else(|| {
            let ids: Vec<&str> = rules
                .turn_of(p.power)
                .iter()
                .map(|id| rules.phases[id.index()].id.as_str())
                .collect();
            format!(
                "{} has no phase `{}`; its phases: {}",
                rules.power_info(p.power).name,
                p.phase,
                ids.join(", ")
            )
        })?;
    if p.round == 0 {
        return Err("rounds count from 1".into());
    }
    s.round = p.round;
    s.turn = turn;
    s.phase = phase;
    s.choices = 0;
    Ok(())
}

/// Units and facilities placed on the board; land units put at sea board their power's
/// transports there.
fn place_pieces(
    rules: &RuleSet,
    s: &mut State,
    pieces: &[(SpaceId, PowerId, Piece, u32)],
) -> Result<(), String> {
    let mut sea_touched = Vec::new();
    for (space, owner, piece, count) in pieces {
        match piece {
            Piece::Unit(kind) => {
                for _ in 0..*count {
                    let id = s.next_unit_id;
                    s.next_unit_id += 1;
                    // A second economy's units are its power's.
                    let owner = rules.relation_holder(*owner);
                    s.space_mut(*space).units.push(Unit::new(id, *kind, owner));
                }
                if rules.board.space(*space).is_sea() {
                    sea_touched.push(*space);
                }
            }
            Piece::Facility(kind) => {
                if rules.board.space(*space).is_sea() {
                    return Err(format!(
                        "a facility cannot stand in sea zone {}",
                        rules.board.space(*space).name
                    ));
                }
                let f = &mut s.space_mut(*space).facilities;
                if !f.iter().any(|x| x.kind == *kind) {
                    f.push(Facility {
                        kind: *kind,
                        damage: 0,
                    });
                }
            }
        }
    }
    for space in sea_touched {
        super::state::board_cargo(rules, &mut s.space_mut(space).units);
    }
    Ok(())
}

/// Damage on a facility standing in the space.
fn set_damage(
    rules: &RuleSet,
    s: &mut State,
    space: SpaceId,
    piece: Piece,
    damage: u32,
) -> Result<(), String> {
    let kind = match piece {
        Piece::Facility(kind) => kind,
        // Units: that many of the type there have taken a hit (two-hit ships).
        Piece::Unit(kind) => {
            let t = rules.unit(kind);
            if t.hits < 2 {
                return Err(format!("a {} has one hit point; it cannot stand damaged", t.name));
            }
            let units = &mut s.space_mut(space).units;
            let mut left = damage;
            for u in units.iter_mut().filter(|u| u.kind == kind) {
                if left == 0 {
                    break;
                }
                u.damage = 1;
                left -= 1;
            }
            if left > 0 {
                return Err(format!(
                    "{} has fewer than {damage} {}",
                    rules.board.space(space).name,
                    t.name
                ));
            }
            return Ok(());
        }
    };
    match s.space_mut(space).facilities.iter_mut().find(|f| f.kind == kind) {
        Some(f) => {
            f.damage = damage;
            Ok(())
        }
        None => Err(format!(
            "{} has no {}",
            rules.board.space(space).name,
            rules.facilities[kind.index()].name
        )),
    }
}
