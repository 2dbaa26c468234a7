//! Game state: everything that changes during play, and nothing that does not.

use super::dice::Dice;
use crate::rules::{FacilityTypeId, Piece, PowerId, RuleSet, Scenario, SpaceId, UnitTypeId};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Stable within a game, so logs and commands can name one unit.
    pub id: u32,
    pub kind: UnitTypeId,
    pub owner: PowerId,
    /// Hits taken (two-hit battleships).
    pub damage: u32,
    /// Movement points used this turn.
    pub moved: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Facility {
    pub kind: FacilityTypeId,
    pub damage: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpaceState {
    /// Who controls the territory now (`None` for sea zones and neutrals).
    pub controller: Option<PowerId>,
    pub units: Vec<Unit>,
    pub facilities: Vec<Facility>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    Allied,
    War,
    /// Not at war (the 1940 editions start some powers at peace).
    Peace,
}

impl Relation {
    pub fn name(self) -> &'static str {
        match self {
            Relation::Allied => "allied",
            Relation::War => "war",
            Relation::Peace => "peace",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub round: u32,
    /// Index into the scenario's turn order.
    pub turn: usize,
    /// Index into the rule set's phase sequence.
    pub phase: usize,
    pub spaces: Vec<SpaceState>,
    pub treasuries: Vec<i64>,
    pub techs: Vec<Vec<String>>,
    /// `relations[a][b]`, symmetric.
    pub relations: Vec<Vec<Relation>>,
    /// Units bought this turn and waiting for mobilization, per power.
    pub purchased: Vec<Vec<(Piece, u32)>>,
    pub next_unit_id: u32,
    pub dice: Dice,
    pub winner: Option<String>,
}

impl State {
    /// The starting position of a scenario.
    pub fn setup(rules: &RuleSet, scenario: &Scenario, seed: u64) -> State {
        let n = rules.powers.len();
        let mut spaces: Vec<SpaceState> = rules
            .board
            .spaces
            .iter()
            .map(|s| SpaceState {
                controller: if s.is_sea() { None } else { s.owner },
                ..SpaceState::default()
            })
            .collect();
        for (space, power) in &scenario.control {
            spaces[space.index()].controller = Some(*power);
        }
        let mut next_unit_id = 0;
        for p in &scenario.setup {
            match p.piece {
                Piece::Unit(kind) => {
                    for _ in 0..p.count {
                        spaces[p.space.index()].units.push(Unit {
                            id: next_unit_id,
                            kind,
                            owner: p.owner,
                            damage: 0,
                            moved: 0,
                        });
                        next_unit_id += 1;
                    }
                }
                Piece::Facility(kind) => {
                    for _ in 0..p.count {
                        spaces[p.space.index()]
                            .facilities
                            .push(Facility { kind, damage: 0 });
                    }
                }
            }
        }
        for (space, kind, dmg) in &scenario.damage {
            if let Some(f) = spaces[space.index()]
                .facilities
                .iter_mut()
                .find(|f| f.kind == *kind)
            {
                f.damage = *dmg;
            }
        }
        let mut treasuries = vec![0; n];
        for (p, ipcs) in &scenario.ipcs {
            treasuries[p.index()] = *ipcs;
        }
        let relations = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        if rules.powers[a].side == rules.powers[b].side {
                            Relation::Allied
                        } else {
                            Relation::War
                        }
                    })
                    .collect()
            })
            .collect();
        State {
            round: 1,
            turn: 0,
            phase: 0,
            spaces,
            treasuries,
            techs: vec![Vec::new(); n],
            relations,
            purchased: vec![Vec::new(); n],
            next_unit_id,
            dice: Dice::seeded(seed),
            winner: None,
        }
    }

    pub fn space(&self, id: SpaceId) -> &SpaceState {
        &self.spaces[id.index()]
    }

    /// A stable 64-bit hash of the whole state (FNV-1a over a canonical encoding).
    ///
    /// Architecture invariant: the encoding lists every field of `State` explicitly; a field
    /// added to `State` must be added here, or saves would not notice it diverging.
    pub fn hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.u64(u64::from(self.round));
        h.u64(self.turn as u64);
        h.u64(self.phase as u64);
        h.u64(self.spaces.len() as u64);
        for s in &self.spaces {
            h.u64(s.controller.map_or(u64::MAX, |p| p.0 as u64));
            h.u64(s.units.len() as u64);
            for u in &s.units {
                h.u64(u64::from(u.id));
                h.u64(u.kind.0 as u64);
                h.u64(u.owner.0 as u64);
                h.u64(u64::from(u.damage));
                h.u64(u64::from(u.moved));
            }
            h.u64(s.facilities.len() as u64);
            for f in &s.facilities {
                h.u64(f.kind.0 as u64);
                h.u64(u64::from(f.damage));
            }
        }
        for t in &self.treasuries {
            h.u64(*t as u64);
        }
        for techs in &self.techs {
            h.u64(techs.len() as u64);
            for t in techs {
                h.bytes(t.as_bytes());
            }
        }
        for row in &self.relations {
            for r in row {
                h.u64(*r as u64);
            }
        }
        for p in &self.purchased {
            h.u64(p.len() as u64);
            for (piece, n) in p {
                let (tag, id) = match piece {
                    Piece::Unit(u) => (0, u.0),
                    Piece::Facility(f) => (1, f.0),
                };
                h.u64(tag);
                h.u64(id as u64);
                h.u64(u64::from(*n));
            }
        }
        h.u64(u64::from(self.next_unit_id));
        for w in self.dice.state() {
            h.u64(w);
        }
        h.u64(self.dice.rolled);
        match &self.winner {
            Some(w) => h.bytes(w.as_bytes()),
            None => h.u64(0),
        }
        h.0
    }
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        for byte in b {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn u64(&mut self, v: u64) {
        for byte in v.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
