//! One battle, fought step by step.
//!
//! A `Battle` is a small value: the units on the battle board, where the sequence stands, and
//! the question it is waiting on. `advance` fights until it needs a decision (casualties,
//! submerging, press or retreat, dice from the table) or the battle is over; the caller answers
//! with `choose_casualties`, `submerge`, `press` or `retreat` and advances again. The game,
//! the Monte Carlo calculator and tests all drive this same code.
//!
//! Architecture invariant: nothing here reads the game state or the rule set's strings; the
//! battle sees only `Profiles` and its own units, so a simulation clones one small value.

mod fire;

pub(crate) use fire::{low_luck_value, FireGroup, FireRoom};
use fire::{targets_of, Fired};

use super::casualties::{self, CasualtyOrder, HitGroup};
use super::profile::{has, Profiles, TypeSet};
use super::roll::Roller;
use crate::rules::{DiceRule, Domain, PowerId, SpaceId, Step, UnitTypeId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Attacker,
    Defender,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Fighting,
    /// Behind the casualty strip: still fires back this round, then removed.
    Hit,
    Dead,
    Submerged,
    Retreated,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Combatant {
    /// The game's unit id.
    pub id: u32,
    pub kind: UnitTypeId,
    pub owner: PowerId,
    pub side: Side,
    /// Hits it can still take.
    pub hp: u8,
    pub status: Status,
    /// Came ashore from the sea in this assault: cannot retreat.
    pub seaborne: bool,
    /// Dropped from the air with no friendly space the attackers came from to go back to: it
    /// cannot retreat and fights on, while aircraft still may retreat.
    pub stays: bool,
    /// Fired already this round (submarines in the surprise strike).
    pub fired: bool,
    /// Flown in as a paratrooper: antiaircraft fire reaches it as it reaches air units.
    pub airborne: bool,
    /// The value a rule set for this very unit (`combat_value` naming units, or a power's
    /// standing value for its type): it fires at this, support still adding; `true` for this
    /// round only.
    pub set_value: Option<(u8, bool)>,
}

// Written out: the derived encoding of the fields before `set_value`, then `set_value` only
// when a rule set one, so battles saved before it existed hash as they did.
impl std::hash::Hash for Combatant {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.id.hash(h);
        self.kind.hash(h);
        self.owner.hash(h);
        self.side.hash(h);
        self.hp.hash(h);
        self.status.hash(h);
        self.seaborne.hash(h);
        self.stays.hash(h);
        self.fired.hash(h);
        if let Some(v) = self.set_value {
            h.write_u8(0xa5);
            v.hash(h);
        }
        if self.airborne {
            h.write_u8(0xa6);
        }
    }
}

impl Combatant {
    pub fn new(id: u32, kind: UnitTypeId, owner: PowerId, side: Side, hp: u8) -> Combatant {
        Combatant {
            id,
            kind,
            owner,
            side,
            hp,
            status: Status::Fighting,
            seaborne: false,
            stays: false,
            fired: false,
            airborne: false,
            set_value: None,
        }
    }
    fn in_battle(&self) -> bool {
        matches!(self.status, Status::Fighting | Status::Hit)
    }
    /// Cannot leave the battle by retreating (aircraft aside, which always may).
    pub fn held(&self) -> bool {
        self.seaborne || self.stays
    }
}

/// Hits waiting for their owner to choose casualties.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CasualtyCall {
    /// The side that takes the hits.
    pub side: Side,
    pub step: Step,
    pub hits: Vec<HitGroup>,
    /// What the owner would lose by default (unit indices into `Battle::units`, one per hit).
    pub suggested: Vec<usize>,
    /// Destroyed at once (the attacker's casualties, antiaircraft hits) rather than moved
    /// behind the casualty strip to fire back (the defender's, surprise-strike hits included:
    /// a defending submarine hit by the attacker's strike still makes its own).
    pub remove_now: bool,
    /// Who chooses: the side taking the hits, or the attacker when defenders of several powers
    /// disagree.
    pub chooser: Side,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Need {
    /// Manual dice: the player types this many faces; `advance` again once the roller has
    /// them.
    Dice {
        count: u32,
        step: Step,
    },
    Casualties(CasualtyCall),
    /// This side decides whether its submarines submerge (before any dice of the round).
    Submerge {
        side: Side,
    },
    /// The attacker presses on or retreats (`Battle::retreat_to` lists where land and sea
    /// units may go).
    PressOrRetreat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The defender has no units left.
    AttackerWon,
    /// The attacker has no units left.
    DefenderWon,
    /// Both sides destroyed: the defender keeps the space.
    BothDestroyed,
    /// Units on both sides are left that cannot hurt each other.
    Stalemate,
    /// The attacker retreated.
    Retreated,
    /// A rule ended the battle (`end_battle`): both sides keep the units they have there.
    Ended,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Progress {
    Need,
    Over(Outcome),
    /// An observer stopped the battle (a failing script); the caller drops the attempt.
    Aborted,
}

/// What happened, for logs and events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A side rolled: `(value, faces)` per group, and the hits scored.
    Rolled {
        side: Side,
        step: Step,
        groups: Vec<(u8, Vec<u8>)>,
        hits: u32,
    },
    /// Units lost or damaged (unit indices; a damaged unit still has hit points).
    Casualties {
        side: Side,
        step: Step,
        units: Vec<usize>,
    },
    /// Defenseless units destroyed without dice.
    Defenseless {
        side: Side,
        units: Vec<usize>,
    },
    Submerged {
        side: Side,
        units: Vec<usize>,
    },
    Retreat {
        to: Option<SpaceId>,
        units: Vec<usize>,
    },
    Skipped {
        step: Step,
    },
    Over(Outcome),
}

/// What an observer says before a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Run,
    Skip,
    Abort,
    /// A rule ends the battle here: both sides keep what they have ([`Outcome::Ended`]).
    End,
}

/// A rule setting one unit's value (`combat_value` naming units).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitValue {
    pub id: u32,
    pub value: u8,
    /// For this round only.
    pub round_only: bool,
}

/// A rule changing a unit type's value for one side, for the rest of the battle.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueChange {
    pub side: Side,
    pub kind: UnitTypeId,
    pub value: u8,
}

/// What a rule script does in a step of its own (`Step::Script`), in the order asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScriptAction {
    /// The side takes this many hits, without dice; its owner chooses the casualties.
    Hits { side: Side, count: u32 },
    /// The side's units of this type roll one die each, hitting at `value` or less; the
    /// hits go to the other side as the units' own would.
    Fire { side: Side, kind: UnitTypeId, value: u8 },
    /// The side rolls `dice` dice hitting at `value` or less, as that many units of the type
    /// would, whether or not any is there (kamikaze tokens); the hits go to the other side.
    Strike {
        side: Side,
        kind: UnitTypeId,
        value: u8,
        dice: u8,
    },
}

pub trait Observer {
    fn before_step(&mut self, _b: &Battle, _step: Step) -> Gate {
        Gate::Run
    }
    /// Value changes asked for in `before_step`, applied before the step runs.
    fn changes(&mut self) -> Vec<ValueChange> {
        Vec::new()
    }
    /// What a script step does, asked for in its `before_step`.
    fn actions(&mut self) -> Vec<ScriptAction> {
        Vec::new()
    }
    /// Values of single units asked for in `before_step`, applied before the step runs.
    fn unit_values(&mut self) -> Vec<UnitValue> {
        Vec::new()
    }
    /// Units a rule destroys (unit ids), asked for in `before_step`: gone before the step runs.
    fn removals(&mut self) -> Vec<u32> {
        Vec::new()
    }
    fn after_step(&mut self, _b: &Battle, _step: Step) {}
    fn report(&mut self, _b: &Battle, _r: &Report) {}
    /// Whether the observer wants the reports of dice rolled and casualties taken: a battle
    /// fought for the calculator spares itself building them when nobody reads them.
    fn listens(&self) -> bool {
        true
    }
}

/// An observer that watches nothing (simulations).
pub struct Quiet;
impl Observer for Quiet {
    fn listens(&self) -> bool {
        false
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Cursor {
    first_round: bool,
    index: usize,
    /// Progress inside the step.
    sub: u8,
}

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Battle {
    pub space: SpaceId,
    pub sea: bool,
    pub attacker: PowerId,
    pub units: Vec<Combatant>,
    /// Ships bombarding the territory before the first round: they fire, nothing fires back.
    pub bombarding: Vec<Combatant>,
    /// Where attacking land and sea units may retreat. Aircraft may always retreat: they stay
    /// and land in noncombat move.
    pub retreat_to: Vec<SpaceId>,
    /// Rounds fought so far (1 during the first round).
    pub round: u32,
    pub dice_drawn: u32,
    pub waiting: Option<Need>,
    pub outcome: Option<Outcome>,
    /// Where the retreating land and sea units went.
    pub retreated_to: Option<SpaceId>,
    pub orders: [CasualtyOrder; 2],
    cursor: Cursor,
    /// Scratch space for the faces of one roll.
    faces: Vec<u8>,
    /// Submarines making this round's surprise strike (unit ids).
    strikers: Vec<u32>,
    /// Units their surprise strike hit this round (unit ids), removed when it ends.
    struck: Vec<u32>,
    /// Values rules changed for this battle (the last change of a type and side wins).
    pub changed: Vec<ValueChange>,
    /// What is left to do of the script step in progress.
    scripted: Vec<ScriptAction>,
    scratch: Room,
}

/// Where the battle keeps its `Scratch`: boxed, so that a step takes it out and puts it back
/// by moving a pointer, not the room itself; empty while a step has it (or before the first
/// step asks). Never compared or hashed, like what it holds.
#[derive(Debug, Default)]
struct Room(Option<Box<Scratch>>);

impl Room {
    fn take(&mut self) -> Box<Scratch> {
        self.0.take().unwrap_or_default()
    }

    fn put(&mut self, scratch: Box<Scratch>) {
        self.0 = Some(scratch);
    }
}

impl PartialEq for Room {
    fn eq(&self, _: &Room) -> bool {
        true
    }
}

impl Eq for Room {}

impl std::hash::Hash for Room {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Room a battle reuses from step to step, so a battle fought for the calculator allocates
/// nothing once warm. Not part of what the battle is: never compared, hashed or copied.
#[derive(Debug, Default)]
struct Scratch {
    values: Vec<u8>,
    raised: Vec<i16>,
    supported: Vec<bool>,
    pools: Vec<(TypeSet, i16, u32)>,
    groups: Vec<FireGroup>,
    /// The hits of the fire in progress, and the casualties suggested for them.
    hits: Vec<HitGroup>,
    chosen: Vec<usize>,
    /// The vectors of the last casualty call answered, for the next call to fill.
    spare: (Vec<HitGroup>, Vec<usize>),
    /// `check_over` found the battle going on at the end of the step just run (removing
    /// casualties, or "press attack or retreat"), and nothing has changed since: the check
    /// that would follow (the next step's, the round's end) would find the same.
    settled: bool,
    /// Each side's units in their fixed order of loss (`casualties::ranked`), and what it was
    /// worked out for: the units, the orders and the profiles (by address).
    ranked: [casualties::Ranked; 2],
    ranked_for: Option<RankedFor>,
    /// Whether each side can hit the other, for the types the sides had (and the profiles, by
    /// address): it changes only when a type leaves the battle.
    hitting: Option<(usize, [TypeSet; 2], [bool; 2])>,
}

/// What `Scratch::ranked` was worked out for: each unit's (id, type, side), the orders, and the
/// profiles' address.
type RankedFor = (Vec<(u32, UnitTypeId, Side)>, [CasualtyOrder; 2], usize);

impl Scratch {
    /// `ranked`, worked out again unless the battle's units and orders are those it was
    /// worked out for.
    fn rank(&mut self, b: &Battle, p: &Profiles) {
        let at = p as *const Profiles as usize;
        if let Some((units, orders, of)) = &self.ranked_for {
            if *of == at
                && *orders == b.orders
                && units.len() == b.units.len()
                && units
                    .iter()
                    .zip(&b.units)
                    .all(|(r, u)| r.0 == u.id && r.1 == u.kind && r.2 == u.side)
            {
                return;
            }
        }
        for side in [Side::Attacker, Side::Defender] {
            self.ranked[idx(side)] = casualties::Ranked::new(b, p, side, &b.orders[idx(side)]);
        }
        let units = b.units.iter().map(|u| (u.id, u.kind, u.side)).collect();
        self.ranked_for = Some((units, b.orders.clone(), at));
    }
}

// Written out for `clone_from`: the calculator refills one battle from its starting position
// for every battle it fights, and the vectors keep their room. The destructuring makes a new
// field a compile error here.
impl Clone for Battle {
    fn clone(&self) -> Battle {
        let mut b = Battle::new(self.space, self.sea, self.attacker, Vec::new());
        b.clone_from(self);
        b
    }

    fn clone_from(&mut self, source: &Battle) {
        let Battle {
            space,
            sea,
            attacker,
            units,
            bombarding,
            retreat_to,
            round,
            dice_drawn,
            waiting,
            outcome,
            retreated_to,
            orders,
            cursor,
            faces,
            strikers,
            struck,
            changed,
            scripted,
            scratch: _,
        } = source;
        self.space = *space;
        self.sea = *sea;
        self.attacker = *attacker;
        self.units.clone_from(units);
        self.bombarding.clone_from(bombarding);
        self.retreat_to.clone_from(retreat_to);
        self.round = *round;
        self.dice_drawn = *dice_drawn;
        self.waiting.clone_from(waiting);
        self.outcome = *outcome;
        self.retreated_to = *retreated_to;
        for (mine, theirs) in self.orders.iter_mut().zip(orders) {
            mine.first.clone_from(&theirs.first);
            mine.keep_capturer = theirs.keep_capturer;
        }
        self.cursor = *cursor;
        self.faces.clone_from(faces);
        self.strikers.clone_from(strikers);
        self.struck.clone_from(struck);
        self.changed.clone_from(changed);
        self.scripted.clone_from(scripted);
    }
}

fn idx(side: Side) -> usize {
    match side {
        Side::Attacker => 0,
        Side::Defender => 1,
    }
}

impl Battle {
    pub fn new(space: SpaceId, sea: bool, attacker: PowerId, units: Vec<Combatant>) -> Battle {
        Battle {
            space,
            sea,
            attacker,
            units,
            bombarding: Vec::new(),
            retreat_to: Vec::new(),
            round: 1,
            dice_drawn: 0,
            waiting: None,
            outcome: None,
            retreated_to: None,
            orders: [
                CasualtyOrder {
                    first: Vec::new(),
                    keep_capturer: true,
                },
                CasualtyOrder::default(),
            ],
            cursor: Cursor {
                first_round: true,
                index: 0,
                sub: 0,
            },
            faces: Vec::new(),
            strikers: Vec::new(),
            struck: Vec::new(),
            changed: Vec::new(),
            scripted: Vec::new(),
            scratch: Room::default(),
        }
    }

    /// The battle as it stands before its next round, for the calculator: the attacker is
    /// deciding whether to press on, and presses on. `None` in the middle of a round.
    pub fn pressed_on(&self, p: &Profiles) -> Option<Battle> {
        if self.outcome.is_some() || self.waiting != Some(Need::PressOrRetreat) {
            return None;
        }
        let mut b = self.clone();
        b.waiting = None;
        b.next_step();
        // Only a round's last step leads straight into the next round.
        if b.step(p).is_some() {
            return None;
        }
        b.next_round();
        Some(b)
    }

    /// Whether the battle stands at the start of a step list: `Some(true)` before the first
    /// round's own steps, `Some(false)` before an ordinary round.
    pub(crate) fn at_list_start(&self) -> Option<bool> {
        (self.outcome.is_none() && self.waiting.is_none() && self.cursor.index == 0 && self.cursor.sub == 0)
            .then_some(self.cursor.first_round)
    }

    /// The step in progress (or next), if the battle is not over.
    pub fn step(&self, p: &Profiles) -> Option<Step> {
        self.steps(p).get(self.cursor.index).copied()
    }

    /// The step list the battle is in: the first round's preliminaries, or a round's.
    fn steps<'p>(&self, p: &'p Profiles) -> &'p [Step] {
        if self.cursor.first_round {
            &p.rules.first_round
        } else {
            &p.rules.round
        }
    }

    pub fn alive(&self, side: Side) -> impl Iterator<Item = (usize, &Combatant)> {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.side == side && u.in_battle())
    }

    /// The powers with units on a side, in id order (`fighting`: only those still fighting).
    pub fn powers(&self, side: Side, fighting: bool) -> Vec<PowerId> {
        let mut owners = Vec::new();
        self.powers_into(side, fighting, &mut owners);
        owners
    }

    /// `powers`, into `owners` (room a caller asking at every step keeps).
    pub fn powers_into(&self, side: Side, fighting: bool, owners: &mut Vec<PowerId>) {
        owners.clear();
        owners.extend(
            self.units
                .iter()
                .filter(|u| u.side == side && (!fighting || u.status == Status::Fighting))
                .map(|u| u.owner),
        );
        owners.sort();
        owners.dedup();
    }

    /// The types a side has in the battle (units fighting, or hit and about to go).
    pub(crate) fn types(&self, side: Side) -> TypeSet {
        self.both_types()[idx(side)]
    }

    /// `types` of both sides, in one pass without branches (every step asks).
    fn both_types(&self) -> [TypeSet; 2] {
        let mut t = [0; 2];
        for u in &self.units {
            if matches!(u.status, Status::Fighting | Status::Hit) && u.kind.0 < 64 {
                t[idx(u.side)] |= 1 << u.kind.0;
            }
        }
        t
    }

    fn present(&self, side: Side, set: TypeSet) -> bool {
        self.types(side) & set != 0
    }

    /// A unit's special abilities are cancelled by an enemy type in the battle (a destroyer
    /// facing submarines).
    fn negated(&self, p: &Profiles, u: &Combatant) -> bool {
        let n = p.of(u.kind).negated_by;
        n != 0 && self.present(u.side.other(), n)
    }

    /// The unit types a hit from this unit can go to.
    pub(crate) fn targets(&self, p: &Profiles, shooter: UnitTypeId, side: Side) -> TypeSet {
        if p.of(shooter).domain == Domain::Air && !p.evaders.is_empty() {
            targets_of(p, shooter, self.types(side))
        } else {
            targets_of(p, shooter, 0)
        }
    }

    /// Whether any unit of `side` can hit any unit of the other side, given the types each
    /// side has (`types`).
    fn can_hit(&self, p: &Profiles, side: Side, types: [TypeSet; 2]) -> bool {
        let enemies = types[idx(side.other())] & p.hittable;
        if enemies == 0 {
            return false;
        }
        let mut mine = types[idx(side)];
        while mine != 0 {
            let kind = UnitTypeId(mine.trailing_zeros() as u16);
            mine &= mine - 1;
            let pr = p.of(kind);
            let value = if side == Side::Attacker {
                pr.attack
            } else {
                pr.defense
            };
            if value > 0 && targets_of(p, kind, types[idx(side)]) & enemies != 0 {
                return true;
            }
        }
        false
    }

    /// `can_hit` for both sides, remembered for the types last asked about.
    fn hitting(&mut self, p: &Profiles, types: [TypeSet; 2]) -> [bool; 2] {
        let at = p as *const Profiles as usize;
        if let Some((of, t, hitting)) = self.scratch.0.as_ref().and_then(|s| s.hitting) {
            if of == at && t == types {
                return hitting;
            }
        }
        let hitting = [
            self.can_hit(p, Side::Attacker, types),
            self.can_hit(p, Side::Defender, types),
        ];
        if let Some(s) = &mut self.scratch.0 {
            s.hitting = Some((at, types, hitting));
        }
        hitting
    }

    fn has_units(&self, p: &Profiles, side: Side) -> bool {
        self.types(side) & p.hittable != 0
    }

    /// Condition A of "press attack or retreat", and defenseless units: `Some` when the battle
    /// is over.
    pub(crate) fn check_over(&mut self, p: &Profiles, obs: &mut dyn Observer) -> Option<Outcome> {
        let mut types = self.both_types();
        for side in [Side::Defender, Side::Attacker] {
            // Units that cannot fire at anything, alone with an enemy that can hit them, are
            // destroyed without dice. An attacker's are, only when it cannot retreat.
            let hitting = self.hitting(p, types);
            if types[idx(side)] & p.hittable != 0
                && !hitting[idx(side)]
                && hitting[idx(side.other())]
                && (side == Side::Defender || !self.may_retreat(p))
            {
                let mut enemy_targets: TypeSet = 0;
                let mut enemy = types[idx(side.other())];
                while enemy != 0 {
                    let kind = UnitTypeId(enemy.trailing_zeros() as u16);
                    enemy &= enemy - 1;
                    enemy_targets |= targets_of(p, kind, types[idx(side.other())]);
                }
                let doomed: Vec<usize> = self
                    .alive(side)
                    .filter(|(_, u)| p.of(u.kind).defenseless && has(enemy_targets, u.kind))
                    .map(|(i, _)| i)
                    .collect();
                if !doomed.is_empty() {
                    for &i in &doomed {
                        self.units[i].status = Status::Dead;
                        self.units[i].hp = 0;
                    }
                    obs.report(self, &Report::Defenseless { side, units: doomed });
                    types[idx(side)] = self.types(side);
                }
            }
        }
        let att = types[0] & p.hittable != 0;
        let def = types[1] & p.hittable != 0;
        let outcome = match (att, def) {
            (false, false) => Some(Outcome::BothDestroyed),
            (true, false) => Some(Outcome::AttackerWon),
            (false, true) => Some(Outcome::DefenderWon),
            (true, true) if self.hitting(p, types) == [false, false] => Some(Outcome::Stalemate),
            _ => None,
        };
        if let Some(o) = outcome {
            self.finish(o, obs);
        }
        outcome
    }

    /// See `Scratch::settled`.
    fn settled(&self) -> bool {
        self.scratch.0.as_ref().is_some_and(|s| s.settled)
    }

    fn set_settled(&mut self, settled: bool) {
        if let Some(s) = &mut self.scratch.0 {
            s.settled = settled;
        }
    }

    fn finish(&mut self, o: Outcome, obs: &mut dyn Observer) {
        // Units hit and waiting behind the casualty strip are lost, even when the battle ends
        // before the step removing casualties (a script step's check, with the attacker gone):
        // the board must not keep what the battle counts as destroyed.
        for u in &mut self.units {
            if u.status == Status::Hit {
                u.status = Status::Dead;
            }
        }
        self.outcome = Some(o);
        self.waiting = None;
        obs.report(self, &Report::Over(o));
    }

    /// Attacking units that may retreat, and whether they have somewhere to go.
    pub fn may_retreat(&self, p: &Profiles) -> bool {
        let mut any = false;
        for (_, u) in self.alive(Side::Attacker) {
            let air = p.of(u.kind).domain == Domain::Air;
            if u.held() {
                continue;
            }
            if !air && self.retreat_to.is_empty() {
                return false;
            }
            any = true;
        }
        any
    }

    /// Fight until a decision is needed or the battle is over.
    pub fn advance(&mut self, p: &Profiles, dice: &mut dyn Roller, obs: &mut dyn Observer) -> Progress {
        // Dice are answered by the roller, not by a call: try the roll again (nothing was
        // consumed; the step resumes where it stopped).
        if matches!(self.waiting, Some(Need::Dice { .. })) {
            self.waiting = None;
        }
        // The caller may have changed the battle since it was last checked.
        self.set_settled(false);
        loop {
            if let Some(o) = self.outcome {
                return Progress::Over(o);
            }
            if self.waiting.is_some() {
                return Progress::Need;
            }
            let Some(step) = self.step(p) else {
                // End of the step list: the first round's preliminaries lead into round one;
                // a round leads into the next.
                if self.cursor.first_round {
                    self.cursor = Cursor {
                        first_round: false,
                        index: 0,
                        sub: 0,
                    };
                } else {
                    self.next_round();
                }
                if !self.settled() {
                    self.check_over(p, obs);
                }
                continue;
            };
            if self.cursor.sub == 0 {
                match obs.before_step(self, step) {
                    Gate::Run => {
                        let changes = obs.changes();
                        let values = obs.unit_values();
                        if !changes.is_empty() || !values.is_empty() {
                            self.set_settled(false);
                        }
                        for c in changes {
                            self.changed.retain(|x| !(x.side == c.side && x.kind == c.kind));
                            self.changed.push(c);
                        }
                        self.set_values(&values);
                        let removed = obs.removals();
                        if !removed.is_empty() {
                            self.set_settled(false);
                            self.destroy(&removed, step, p, obs);
                            if self.outcome.is_some() {
                                continue;
                            }
                        }
                        self.scripted = obs.actions();
                    }
                    Gate::End => {
                        self.finish(Outcome::Ended, obs);
                        continue;
                    }
                    Gate::Skip => {
                        obs.report(self, &Report::Skipped { step });
                        self.next_step();
                        continue;
                    }
                    Gate::Abort => return Progress::Aborted,
                }
                self.cursor.sub = 1;
            }
            if step != Step::PressOrRetreat {
                self.set_settled(false);
            }
            match self.run_step(step, p, dice, obs) {
                Some(need) => {
                    self.waiting = Some(need);
                    return Progress::Need;
                }
                None => {
                    if self.outcome.is_none() {
                        obs.after_step(self, step);
                        self.next_step();
                    }
                }
            }
        }
    }

    fn next_step(&mut self) {
        self.cursor.index += 1;
        self.cursor.sub = 0;
    }

    fn next_round(&mut self) {
        self.round += 1;
        self.cursor = Cursor {
            first_round: false,
            index: 0,
            sub: 0,
        };
        for u in &mut self.units {
            u.fired = false;
            if u.set_value.is_some_and(|(_, round_only)| round_only) {
                u.set_value = None;
            }
        }
    }

    /// Units a rule destroys outright (by unit id; those gone already are passed over),
    /// reported as each side's casualties; the battle may be over then.
    fn destroy(&mut self, ids: &[u32], step: Step, p: &Profiles, obs: &mut dyn Observer) {
        for side in [Side::Attacker, Side::Defender] {
            let mut units = Vec::new();
            for (i, u) in self.units.iter_mut().enumerate() {
                if u.side == side && u.in_battle() && ids.contains(&u.id) {
                    u.hp = 0;
                    u.status = Status::Dead;
                    units.push(i);
                }
            }
            if !units.is_empty() {
                obs.report(self, &Report::Casualties { side, step, units });
            }
        }
        self.check_over(p, obs);
    }

    /// Values rules set for single units (unknown ids are the caller's to refuse).
    pub fn set_values(&mut self, values: &[UnitValue]) {
        for v in values {
            if let Some(u) = self.units.iter_mut().find(|u| u.id == v.id) {
                u.set_value = Some((v.value, v.round_only));
            }
        }
    }

    /// Run (or resume) one step; `Some` when it must wait.
    fn run_step(
        &mut self,
        step: Step,
        p: &Profiles,
        dice: &mut dyn Roller,
        obs: &mut dyn Observer,
    ) -> Option<Need> {
        match step {
            Step::AntiAir => self.anti_air(p, dice, obs),
            Step::Bombardment => self.bombardment(p, dice, obs),
            Step::SurpriseStrike => self.surprise_strike(p, dice, obs),
            Step::AttackerFires => self.fire_step(step, Side::Attacker, p, dice, obs),
            Step::DefenderFires => self.fire_step(step, Side::Defender, p, dice, obs),
            Step::RemoveCasualties => {
                for u in &mut self.units {
                    if u.status == Status::Hit {
                        u.status = Status::Dead;
                    }
                }
                let over = self.check_over(p, obs).is_some();
                self.set_settled(!over);
                None
            }
            Step::PressOrRetreat => {
                if !self.settled() && self.check_over(p, obs).is_some() {
                    return None;
                }
                self.set_settled(true);
                if self.cursor.sub == 1 && self.may_retreat(p) {
                    self.cursor.sub = 2;
                    return Some(Need::PressOrRetreat);
                }
                None
            }
            Step::Script(_) => self.script_step(step, p, dice, obs),
            // Fought by the game's raid, never listed in a battle's rounds.
            Step::RaidDamage => None,
        }
    }

    /// A script step: its actions one by one; an action is dropped once its dice are rolled,
    /// so the step resumes at the next one after casualties are chosen.
    fn script_step(
        &mut self,
        step: Step,
        p: &Profiles,
        dice: &mut dyn Roller,
        obs: &mut dyn Observer,
    ) -> Option<Need> {
        // Units hit here fire back only if the round still has a step removing them.
        let remove_now = !self.steps(p)[self.cursor.index..].contains(&Step::RemoveCasualties);
        while let Some(&action) = self.scripted.first() {
            if self.outcome.is_some() {
                return None;
            }
            let (side, hits) = match action {
                ScriptAction::Hits { side, count } => {
                    self.scripted.remove(0);
                    (
                        side,
                        vec![HitGroup {
                            count,
                            targets: !0,
                            airborne: false,
                        }],
                    )
                }
                ScriptAction::Fire { side, kind, value }
                | ScriptAction::Strike {
                    side, kind, value, ..
                } => {
                    // `fire`: a die per unit of the type there (the attacker's hit units no
                    // longer fire); `strike`: the dice asked, whatever is there.
                    let n = match action {
                        ScriptAction::Strike { dice: n, .. } => usize::from(n),
                        _ => self
                            .alive(side)
                            .filter(|(_, u)| {
                                u.kind == kind && !(side == Side::Attacker && u.status == Status::Hit)
                            })
                            .count(),
                    };
                    if n > 0 {
                        if let Some(need) = self.roll(n, step, dice) {
                            return Some(need);
                        }
                    }
                    self.scripted.remove(0);
                    if n == 0 {
                        continue;
                    }
                    let faces = self.faces.clone();
                    let count = faces.iter().filter(|f| **f <= value).count() as u32;
                    obs.report(
                        self,
                        &Report::Rolled {
                            side,
                            step,
                            groups: vec![(value, faces)],
                            hits: count,
                        },
                    );
                    let targets = self.targets(p, kind, side);
                    (
                        side.other(),
                        vec![HitGroup {
                            count,
                            targets,
                            airborne: false,
                        }],
                    )
                }
            };
            if hits[0].count == 0 {
                continue;
            }
            let need = self.with_scratch(|b, s| b.call_casualties(step, side, &hits, remove_now, p, obs, s));
            if let Some(need) = need {
                return Some(need);
            }
            self.check_over(p, obs);
        }
        if self.outcome.is_none() {
            self.check_over(p, obs);
        }
        None
    }

    /// `f` with the battle's room taken out of it (and put back after).
    fn with_scratch<T>(&mut self, f: impl FnOnce(&mut Battle, &mut Scratch) -> T) -> T {
        let mut scratch = self.scratch.take();
        let out = f(self, &mut scratch);
        self.scratch.put(scratch);
        out
    }

    /// Ask the side for casualties, or take them at once when there is no choice to make; in
    /// the battle's room, taken out (`with_scratch`, or a fire step that has it).
    #[allow(clippy::too_many_arguments)]
    fn call_casualties(
        &mut self,
        step: Step,
        side: Side,
        hits: &[HitGroup],
        remove_now: bool,
        p: &Profiles,
        obs: &mut dyn Observer,
        scratch: &mut Scratch,
    ) -> Option<Need> {
        scratch.rank(self, p);
        let mut chosen = std::mem::take(&mut scratch.chosen);
        let ranked = &scratch.ranked[idx(side)];
        let choice =
            casualties::suggest_ranked(self, p, side, hits, &self.orders[idx(side)], ranked, &mut chosen);
        let need = if chosen.is_empty() {
            None
        } else if !choice {
            self.apply_casualties(step, side, &chosen, remove_now, obs);
            None
        } else {
            let (mut h, mut suggested) = std::mem::take(&mut scratch.spare);
            h.clear();
            h.extend_from_slice(hits);
            suggested.clone_from(&chosen);
            Some(Need::Casualties(CasualtyCall {
                side,
                step,
                hits: h,
                suggested,
                remove_now,
                chooser: side,
            }))
        };
        scratch.chosen = chosen;
        need
    }

    fn apply_casualties(
        &mut self,
        step: Step,
        side: Side,
        chosen: &[usize],
        remove_now: bool,
        obs: &mut dyn Observer,
    ) {
        for &i in chosen {
            let u = &mut self.units[i];
            u.hp = u.hp.saturating_sub(1);
            if u.hp == 0 {
                u.status = if remove_now { Status::Dead } else { Status::Hit };
                if step == Step::SurpriseStrike {
                    self.struck.push(u.id);
                }
            }
        }
        if obs.listens() {
            // A unit taking two hits (a battleship's both) is reported once.
            let mut units = chosen.to_vec();
            units.sort_unstable();
            units.dedup();
            obs.report(self, &Report::Casualties { side, step, units });
        }
    }

    fn anti_air(&mut self, p: &Profiles, dice: &mut dyn Roller, obs: &mut dyn Observer) -> Option<Need> {
        if self.cursor.sub >= 2 {
            return None;
        }
        let guns: Vec<usize> = self
            .alive(Side::Defender)
            .filter(|(_, u)| p.of(u.kind).anti_air.is_some())
            .map(|(i, _)| i)
            .collect();
        let &first = guns.first()?;
        let gun = self.units[first].kind;
        let mut aa = p.of(gun).anti_air.clone().expect("a gun");
        // A rule's `combat_value` for the gun changes what it hits on.
        if let Some(c) = self
            .changed
            .iter()
            .find(|c| c.side == Side::Defender && c.kind == gun)
        {
            aa.hit = c.value;
        }
        let mut targets: Vec<usize> = self
            .alive(Side::Attacker)
            .filter(|(_, u)| has(aa.targets, u.kind) || u.airborne)
            .map(|(i, _)| i)
            .collect();
        if targets.is_empty() {
            return None;
        }
        // Aimed dice go to the aircraft in a fixed order: by type, then by unit id.
        targets.sort_by_key(|&i| (self.units[i].kind, self.units[i].id));
        let firing = if aa.one_per_space { 1 } else { guns.len() as u32 };
        let wanted = targets.len() as u32 * aa.dice_per_target;
        let n = match aa.max_dice {
            Some(m) => wanted.min(firing * m),
            None => wanted,
        } as usize;
        if let Some(need) = self.roll(n, Step::AntiAir, dice) {
            return Some(need);
        }
        let faces = self.faces.clone();
        let hits = faces.iter().filter(|f| **f <= aa.hit).count() as u32;
        obs.report(
            self,
            &Report::Rolled {
                side: Side::Defender,
                step: Step::AntiAir,
                groups: vec![(aa.hit, faces.clone())],
                hits,
            },
        );
        self.cursor.sub = 2;
        if hits == 0 {
            return None;
        }
        if aa.aimed() {
            let chosen: Vec<usize> = targets
                .iter()
                .zip(&faces)
                .filter(|(_, f)| **f <= aa.hit)
                .map(|(&i, _)| i)
                .collect();
            // An aimed die destroys its aircraft outright.
            for &i in &chosen {
                self.units[i].hp = 1;
            }
            self.apply_casualties(Step::AntiAir, Side::Attacker, &chosen, true, obs);
            return None;
        }
        let group = HitGroup {
            count: hits,
            targets: aa.targets,
            airborne: true,
        };
        self.with_scratch(|b, s| b.call_casualties(Step::AntiAir, Side::Attacker, &[group], true, p, obs, s))
    }

    fn bombardment(&mut self, p: &Profiles, dice: &mut dyn Roller, obs: &mut dyn Observer) -> Option<Need> {
        if self.cursor.sub >= 2 || self.bombarding.is_empty() {
            return None;
        }
        let mut groups: Vec<(u8, usize)> = Vec::new();
        for b in &self.bombarding {
            let v = p.of(b.kind).bombard;
            if v == 0 {
                continue;
            }
            match groups.iter_mut().find(|g| g.0 == v) {
                Some(g) => g.1 += 1,
                None => groups.push((v, 1)),
            }
        }
        groups.sort();
        let n = groups.iter().map(|g| g.1).sum();
        if n == 0 {
            return None;
        }
        if let Some(need) = self.roll(n, Step::Bombardment, dice) {
            return Some(need);
        }
        let faces = self.faces.clone();
        let mut k = 0;
        let mut hits = 0;
        let mut rolled = Vec::new();
        for (v, count) in groups {
            let these = &faces[k..k + count];
            k += count;
            hits += these.iter().filter(|f| **f <= v).count() as u32;
            rolled.push((v, these.to_vec()));
        }
        obs.report(
            self,
            &Report::Rolled {
                side: Side::Attacker,
                step: Step::Bombardment,
                groups: rolled,
                hits,
            },
        );
        self.cursor.sub = 2;
        if hits == 0 {
            return None;
        }
        // Ships fire "against enemy land units in the territory"; the casualties fire back.
        let land: TypeSet = p
            .units
            .iter()
            .filter(|u| u.domain == Domain::Land && u.takes_hits)
            .fold(0, |a, u| a | (1 << u.kind.0));
        let group = HitGroup {
            count: hits,
            targets: land,
            airborne: false,
        };
        self.with_scratch(|b, s| {
            b.call_casualties(Step::Bombardment, Side::Defender, &[group], false, p, obs, s)
        })
    }

    /// Submarines whose abilities are not cancelled, of one side.
    pub(crate) fn strikers(&self, p: &Profiles, side: Side) -> Vec<usize> {
        if self.types(side) & p.first_strikers == 0 {
            return Vec::new();
        }
        self.alive(side)
            .filter(|(_, u)| u.status == Status::Fighting && p.of(u.kind).first_strike && !self.negated(p, u))
            .map(|(i, _)| i)
            .collect()
    }

    pub(crate) fn may_submerge(&self, p: &Profiles, side: Side) -> bool {
        if self.types(side) & p.submergers == 0 {
            return false;
        }
        self.alive(side)
            .any(|(_, u)| u.status == Status::Fighting && p.of(u.kind).submerge && !self.negated(p, u))
    }

    fn surprise_strike(
        &mut self,
        p: &Profiles,
        dice: &mut dyn Roller,
        obs: &mut dyn Observer,
    ) -> Option<Need> {
        // sub 1: the attacker decides to submerge; 2: the defender; 3: who strikes is fixed
        // before anyone is hit; 4: the attacker's strikers fire; 5: the defender's (those just
        // hit too: all submarines fire before casualties are taken); 6: the defender's
        // casualties go.
        loop {
            match self.cursor.sub {
                1 => {
                    // Nothing in the battle strikes first or submerges: straight to the end.
                    let [a, d] = self.both_types();
                    if (a | d) & (p.first_strikers | p.submergers) == 0 {
                        self.cursor.sub = 6;
                        continue;
                    }
                    self.cursor.sub = 2;
                    if self.may_submerge(p, Side::Attacker) {
                        return Some(Need::Submerge { side: Side::Attacker });
                    }
                }
                2 => {
                    self.cursor.sub = 3;
                    if self.may_submerge(p, Side::Defender) {
                        return Some(Need::Submerge { side: Side::Defender });
                    }
                }
                3 => {
                    let mut ids: Vec<u32> = Vec::new();
                    for side in [Side::Attacker, Side::Defender] {
                        ids.extend(self.strikers(p, side).into_iter().map(|i| self.units[i].id));
                    }
                    // Without strikers nobody fires in this step: on to its end.
                    self.cursor.sub = if ids.is_empty() { 6 } else { 4 };
                    self.strikers = ids;
                }
                4 | 5 => {
                    let side = if self.cursor.sub == 4 {
                        Side::Attacker
                    } else {
                        Side::Defender
                    };
                    let ids = self.strikers.clone();
                    match self.fire(
                        Step::SurpriseStrike,
                        side,
                        p,
                        dice,
                        obs,
                        |u| ids.contains(&u.id),
                        true,
                    ) {
                        Fired::NeedDice(n) => return Some(n),
                        Fired::Done(need) => {
                            self.cursor.sub += 1;
                            if need.is_some() {
                                return need;
                            }
                        }
                    }
                }
                _ => {
                    // Only the submarines' victims go now; units hit by a bombardment fire back.
                    let struck = std::mem::take(&mut self.struck);
                    for u in &mut self.units {
                        if u.status == Status::Hit && struck.contains(&u.id) {
                            u.status = Status::Dead;
                        }
                    }
                    self.check_over(p, obs);
                    return None;
                }
            }
        }
    }

    // ---- answers ----

    /// The owner's casualties for the hits waiting (unit indices, one per hit); `None` takes
    /// the suggested ones.
    pub fn choose_casualties(
        &mut self,
        p: &Profiles,
        chosen: Option<&[usize]>,
        obs: &mut dyn Observer,
    ) -> Result<(), String> {
        let Some(Need::Casualties(call)) = &self.waiting else {
            return Err("no casualties are waiting to be chosen".into());
        };
        if let Some(c) = chosen {
            casualties::check(self, p, call.side, &call.hits, c)?;
        }
        let Some(Need::Casualties(call)) = self.waiting.take() else {
            unreachable!("casualties are waiting")
        };
        let chosen = chosen.unwrap_or(&call.suggested);
        self.apply_casualties(call.step, call.side, chosen, call.remove_now, obs);
        if let Some(scratch) = &mut self.scratch.0 {
            scratch.spare = (call.hits, call.suggested);
        }
        Ok(())
    }

    /// Defenders of several powers disagree on their casualties: the attacker chooses.
    pub fn dispute(&mut self) -> Result<(), String> {
        let Some(Need::Casualties(call)) = &self.waiting else {
            return Err("no casualties are waiting to be chosen".into());
        };
        let side = call.side;
        if side != Side::Defender || self.powers(side, true).len() < 2 {
            return Err("only defenders of several powers can disagree on their casualties".into());
        }
        if let Some(Need::Casualties(call)) = &mut self.waiting {
            call.chooser = Side::Attacker;
        }
        Ok(())
    }

    /// The deciding side's submarines (unit indices) submerge; the others fire.
    pub fn submerge(
        &mut self,
        p: &Profiles,
        side: Side,
        units: &[usize],
        obs: &mut dyn Observer,
    ) -> Result<(), String> {
        if self.waiting != Some(Need::Submerge { side }) {
            return Err(format!(
                "the {} is not deciding about submarines now",
                side.name()
            ));
        }
        for &i in units {
            let u = self.units.get(i).ok_or("no such unit in the battle")?;
            if u.side != side || u.status != Status::Fighting || !p.of(u.kind).submerge || self.negated(p, u)
            {
                return Err(format!("unit #{} cannot submerge", u.id));
            }
        }
        for &i in units {
            self.units[i].status = Status::Submerged;
        }
        self.waiting = None;
        if !units.is_empty() {
            obs.report(
                self,
                &Report::Submerged {
                    side,
                    units: units.to_vec(),
                },
            );
            self.check_over(p, obs);
        }
        Ok(())
    }

    pub fn press(&mut self) -> Result<(), String> {
        if self.waiting != Some(Need::PressOrRetreat) {
            return Err("the attacker is not deciding whether to retreat now".into());
        }
        self.waiting = None;
        self.next_step();
        Ok(())
    }

    /// Retreat: aircraft stay in the space (they land in noncombat move), land and sea units go
    /// to `to`. Seaborne land units (and `stays` ones) cannot retreat and fight on alone.
    pub fn retreat(
        &mut self,
        p: &Profiles,
        to: Option<SpaceId>,
        obs: &mut dyn Observer,
    ) -> Result<(), String> {
        if self.waiting != Some(Need::PressOrRetreat) {
            return Err("the attacker is not deciding whether to retreat now".into());
        }
        let needs_place = self
            .alive(Side::Attacker)
            .any(|(_, u)| !u.held() && p.of(u.kind).domain != Domain::Air);
        match to {
            Some(t) if !self.retreat_to.contains(&t) => {
                return Err("the attackers cannot retreat there: only to an adjacent friendly space an attacking land or sea unit came from".into())
            }
            None if needs_place => {
                return Err(format!(
                    "say where the land and sea units retreat to ({} option{})",
                    self.retreat_to.len(),
                    if self.retreat_to.len() == 1 { "" } else { "s" }
                ))
            }
            _ => {}
        }
        let going: Vec<usize> = self
            .alive(Side::Attacker)
            .filter(|(_, u)| !u.held())
            .map(|(i, _)| i)
            .collect();
        for &i in &going {
            self.units[i].status = Status::Retreated;
        }
        self.retreated_to = to;
        self.waiting = None;
        obs.report(self, &Report::Retreat { to, units: going });
        // Seaborne units (and units dropped with nowhere to go) fight on; no further retreat is
        // possible for them.
        if self.has_units(p, Side::Attacker) {
            self.retreat_to.clear();
            self.next_step();
        } else {
            self.finish(Outcome::Retreated, obs);
        }
        Ok(())
    }

    /// Answer every question with the defaults (suggested casualties, no submerging, press
    /// on) until the battle is over or dice are missing: the calculator's way of fighting.
    pub fn auto(&mut self, p: &Profiles, dice: &mut dyn Roller, obs: &mut dyn Observer) -> Progress {
        loop {
            match self.advance(p, dice, obs) {
                Progress::Need => match self.waiting.clone() {
                    Some(Need::Casualties(_)) => {
                        self.choose_casualties(p, None, obs)
                            .expect("suggested casualties are valid");
                    }
                    Some(Need::Submerge { side }) => {
                        self.submerge(p, side, &[], obs)
                            .expect("not submerging is always allowed");
                    }
                    Some(Need::PressOrRetreat) => {
                        self.press().expect("pressing on is always allowed");
                    }
                    Some(Need::Dice { .. }) | None => return Progress::Need,
                },
                other => return other,
            }
        }
    }
}
