//! What a unit type is in battle, resolved from the rule set once: values, hit points, and
//! every tag-based ability turned into a set of unit types, so the battle loop compares bits
//! instead of strings.

use crate::rules::{CombatRules, Domain, OnCapture, Repair, RuleSet, TechId, UnitType, UnitTypeId};

/// A set of unit types (bit `i` = `UnitTypeId(i)`); editions have at most 64 types.
pub type TypeSet = u64;

pub fn has(set: TypeSet, kind: UnitTypeId) -> bool {
    kind.0 < 64 && (set >> kind.0) & 1 == 1
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SupportProfile {
    pub targets: TypeSet,
    pub attack: i8,
    pub defense: i8,
    pub count: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AntiAirProfile {
    pub hit: u8,
    pub max_dice: Option<u32>,
    pub dice_per_target: u32,
    pub targets: TypeSet,
    pub one_per_space: bool,
    pub vs_bombing: bool,
}

impl AntiAirProfile {
    /// One die per aircraft, each die for a named aircraft (Anniversary): the dice pick the
    /// casualties. Otherwise the attacker chooses which aircraft the hits destroy.
    pub fn aimed(&self) -> bool {
        self.max_dice.is_none() && self.dice_per_target == 1
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    pub kind: UnitTypeId,
    pub attack: u8,
    /// Dice each unit rolls when it attacks.
    pub attack_dice: u8,
    /// Dice rolled for each attack die, the best kept (`best_of`).
    pub best_of: u8,
    pub defense: u8,
    pub hits: u8,
    pub domain: Domain,
    pub first_strike: bool,
    pub submerge: bool,
    /// Enemy types whose presence in the battle cancels first strike, submerging and evasion.
    pub negated_by: TypeSet,
    /// Types this unit's hits can never go to (submarines: aircraft).
    pub cannot_target: TypeSet,
    /// Hits from aircraft reach it only when the aircraft's side has one of these types in the
    /// battle (submarines: a destroyer).
    pub evades_air_unless: Option<TypeSet>,
    pub defenseless: bool,
    pub casualty_last: bool,
    /// Units captured with their territory (Anniversary AA guns) are never casualties.
    pub takes_hits: bool,
    pub can_capture: bool,
    pub bombard: u8,
    pub repair_after_combat: bool,
    pub support: Vec<SupportProfile>,
    pub anti_air: Option<AntiAirProfile>,
    pub cost: u32,
    pub carrier_capacity: u32,
}

#[derive(Clone, Debug)]
pub struct Profiles {
    pub units: Vec<Profile>,
    pub rules: CombatRules,
    /// The types that can take hits, and those that evade aircraft unless the aircraft's side
    /// has one of a set of types: worked out once, asked in every step of every battle.
    pub(crate) hittable: TypeSet,
    pub(crate) evaders: Vec<(UnitTypeId, TypeSet)>,
    /// The types with a surprise strike, and those that may submerge.
    pub(crate) first_strikers: TypeSet,
    pub(crate) submergers: TypeSet,
    /// The types that raise others' values, attacking and defending.
    pub(crate) supporters: [TypeSet; 2],
}

impl Profiles {
    pub fn new(rules: &RuleSet) -> Profiles {
        Profiles::with_techs(rules, &[], &[])
    }

    /// Profiles for a battle between a side holding `attack` techs and one holding `defense`
    /// techs: what a unit does when attacking (its attack, dice, support, bombardment and the
    /// rest) comes from the attacker's version of it, its defense and antiaircraft fire from
    /// the defender's.
    pub fn with_techs(rules: &RuleSet, attack: &[TechId], defense: &[TechId]) -> Profiles {
        let tagged = |tags: &[String]| -> TypeSet {
            let mut set = 0;
            for (i, u) in rules.units.iter().enumerate().take(64) {
                if tags.iter().any(|t| u.has_tag(t)) {
                    set |= 1 << i;
                }
            }
            set
        };
        let units = (0..rules.units.len())
            .map(|i| {
                let kind = UnitTypeId(i as u16);
                (kind, rules.unit_for(kind, attack), rules.unit_for(kind, defense))
            })
            .map(|(kind, u, d): (UnitTypeId, &UnitType, &UnitType)| Profile {
                kind,
                attack: u.attack.min(12) as u8,
                attack_dice: u.attack_dice.clamp(1, 6) as u8,
                best_of: u.best_of.clamp(1, 6) as u8,
                defense: d.defense.min(12) as u8,
                hits: u.hits.clamp(1, 255) as u8,
                domain: u.domain,
                first_strike: u.first_strike,
                submerge: u.submerge,
                negated_by: tagged(&u.negated_by),
                cannot_target: tagged(&u.cannot_target),
                evades_air_unless: u.evades_unless.as_ref().map(|t| tagged(std::slice::from_ref(t))),
                defenseless: u.defenseless || (u.attack == 0 && u.defense == 0 && u.anti_air.is_none()),
                casualty_last: u.casualty_last,
                takes_hits: u.on_capture != OnCapture::Capture,
                can_capture: u.can_capture,
                bombard: u.bombard.min(12) as u8,
                repair_after_combat: u.repair == Repair::EndOfCombat,
                support: u
                    .support
                    .iter()
                    .map(|s| SupportProfile {
                        targets: tagged(&s.tags),
                        attack: s.attack.clamp(-12, 12) as i8,
                        defense: s.defense.clamp(-12, 12) as i8,
                        count: s.count.min(255) as u8,
                    })
                    .collect(),
                anti_air: d.anti_air.as_ref().map(|a| AntiAirProfile {
                    hit: a.hit.min(12) as u8,
                    max_dice: a.max_dice,
                    dice_per_target: a.dice_per_target,
                    targets: tagged(&a.targets),
                    one_per_space: a.one_per_space,
                    vs_bombing: a.vs_bombing,
                }),
                cost: u.cost,
                carrier_capacity: u.carrier_capacity,
            })
            .collect::<Vec<Profile>>();
        let hittable = units
            .iter()
            .filter(|u| u.takes_hits && u.kind.0 < 64)
            .fold(0, |a, u| a | (1 << u.kind.0));
        let evaders = units
            .iter()
            .filter(|u| u.takes_hits && u.kind.0 < 64)
            .filter_map(|u| u.evades_air_unless.map(|need| (u.kind, need)))
            .collect();
        let set_of = |f: fn(&Profile) -> bool| {
            units
                .iter()
                .filter(|u| f(u) && u.kind.0 < 64)
                .fold(0, |a, u| a | (1 << u.kind.0))
        };
        let (first_strikers, submergers) = (set_of(|u| u.first_strike), set_of(|u| u.submerge));
        let supporters = [
            set_of(|u| u.support.iter().any(|s| s.attack != 0 && s.count > 0)),
            set_of(|u| u.support.iter().any(|s| s.defense != 0 && s.count > 0)),
        ];
        Profiles {
            units,
            rules: rules.combat.clone(),
            hittable,
            evaders,
            first_strikers,
            submergers,
            supporters,
        }
    }

    pub fn of(&self, kind: UnitTypeId) -> &Profile {
        &self.units[kind.index()]
    }
}
