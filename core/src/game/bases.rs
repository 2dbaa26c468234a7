//! Air and naval bases at work (the 1940 games): the movement they add to friendly units that
//! begin their turn at them, and the ships a naval base repairs free. A base works while its
//! damage is below its `inoperative_at`; it works for whoever held its territory when the turn
//! began, so a base captured this turn serves its captor from the captor's next turn.

use super::state::State;
use crate::rules::{Domain, PowerId, Repair, RuleSet, SpaceId};

/// A base serves its holder and the allies sharing with it (politics::shares).
fn friendly(rules: &RuleSet, s: &State, a: PowerId, b: PowerId) -> bool {
    super::politics::shares(rules, s, a, b)
}

/// Whether the rules have any base giving movement (so games without bases pay nothing).
fn any_bonus(rules: &RuleSet) -> bool {
    rules
        .facilities
        .iter()
        .any(|f| f.air_move_bonus > 0 || f.sea_move_bonus > 0)
}

/// A turn begins: units of the powers playing it that begin it at an operative friendly base
/// get its movement bonus for the turn (air units in the base's territory, sea units in the
/// sea zones it borders; units on carriers are at sea and get none from an air base).
pub fn range_bonuses(rules: &RuleSet, s: &mut State, powers: &[PowerId]) {
    if !any_bonus(rules) {
        return;
    }
    // What the units had from where they stood before (an arranged position) is recomputed.
    for i in 0..s.spaces.len() {
        let stale = s.spaces[i]
            .units
            .iter()
            .any(|u| u.marks.range_bonus != 0 && powers.contains(&u.owner));
        if stale {
            for u in s
                .spaces
                .edit(i)
                .units
                .iter_mut()
                .filter(|u| powers.contains(&u.owner))
            {
                u.marks.range_bonus = 0;
            }
        }
    }
    for i in 0..s.spaces.len() {
        let here = SpaceId(i as u16);
        let Some(holder) = s.space(here).controller else {
            continue;
        };
        let (mut air, mut sea) = (0u32, 0u32);
        for f in &s.space(here).facilities {
            let ft = &rules.facilities[f.kind.index()];
            if ft.operative(f.damage) {
                air = air.max(ft.air_move_bonus);
                sea = sea.max(ft.sea_move_bonus);
            }
        }
        let grant = |s: &mut State, at: SpaceId, domain: Domain, bonus: u32| {
            let gets: Vec<usize> = s
                .space(at)
                .units
                .iter()
                .enumerate()
                .filter(|(_, u)| {
                    powers.contains(&u.owner)
                        && friendly(rules, s, u.owner, holder)
                        && rules.unit(u.kind).domain == domain
                        && u.aboard.is_none()
                })
                .map(|(k, _)| k)
                .collect();
            if gets.is_empty() {
                return;
            }
            let units = &mut s.space_mut(at).units;
            for k in gets {
                let b = &mut units[k].marks.range_bonus;
                *b = (*b).max(bonus.min(255) as u8);
            }
        };
        if air > 0 {
            grant(s, here, Domain::Air, air);
        }
        if sea > 0 {
            for z in rules.board.space(here).adjacent.clone() {
                if rules.board.space(z).is_sea() {
                    grant(s, z, Domain::Sea, sea);
                }
            }
        }
    }
}

/// The power's Purchase phase ends: its damaged units that repair at a naval base and stand in
/// a sea zone bordering an operative friendly one are repaired free (a base repaired in this
/// phase counts).
pub fn repair_at_bases(rules: &RuleSet, s: &mut State, power: PowerId, out: &mut Vec<String>) {
    if !rules.facilities.iter().any(|f| f.repairs) {
        return;
    }
    for i in 0..s.spaces.len() {
        let zone = SpaceId(i as u16);
        if !rules.board.space(zone).is_sea() {
            continue;
        }
        let damaged = s
            .space(zone)
            .units
            .iter()
            .any(|u| u.owner == power && u.damage > 0 && rules.unit(u.kind).repair == Repair::NavalBase);
        if !damaged {
            continue;
        }
        // A power with two economies repairs only where the economy the base falls under holds
        // its capital ("An economy whose capital is held by the Axis can't ... repair units").
        let economies = rules.economies(power).len() > 1;
        let base = rules.board.space(zone).adjacent.iter().find(|t| {
            let sp = s.space(**t);
            sp.controller.is_some_and(|c| friendly(rules, s, power, c))
                && (!economies || super::control::holds_capital(rules, s, rules.economy_for(power, **t)))
                && sp.facilities.iter().any(|f| {
                    let ft = &rules.facilities[f.kind.index()];
                    ft.repairs && ft.operative(f.damage)
                })
        });
        let Some(base) = base.copied() else {
            continue;
        };
        let mut fixed = Vec::new();
        for u in s.space_mut(zone).units.iter_mut() {
            if u.owner == power && u.damage > 0 && rules.unit(u.kind).repair == Repair::NavalBase {
                u.damage = 0;
                fixed.push(rules.unit(u.kind).name.clone());
            }
        }
        out.push(format!(
            "the naval base in {} repairs the {} in {}",
            rules.board.space(base).name,
            fixed.join(", "),
            rules.board.space(zone).name
        ));
    }
}
