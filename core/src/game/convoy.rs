//! Convoy disruption (the 1940 games): as a power collects income, each convoy sea zone next to
//! territories it controls, holding units of a power at war with it that roll `convoy_dice`,
//! costs it the faces up to `[rules] convoy_hits_up_to` of those dice, no more than the IPC value
//! of its territories next to the zone, and no territory more than its own value over all zones.
//! Dice come from the table first, then the engine: with manual dice the collection waits for
//! the faces.

use super::state::{Relation, State};
use super::Rejection;
use crate::rules::{PowerId, RuleSet, SpaceId};

/// Refusal rule id: convoy dice wait for faces typed at the table.
pub const RULE_CONVOY: &str = "convoy-dice";

/// The convoy zones where enemy units would roll against the power if it collected income now.
pub fn threats(rules: &RuleSet, s: &State, power: PowerId) -> Vec<SpaceId> {
    if rules.switches.convoy_hits_up_to == 0 || !rules.power_info(power).convoy_losses {
        return Vec::new();
    }
    rules
        .board
        .ids()
        .filter(|z| {
            let sp = rules.board.space(*z);
            sp.convoy
                && sp
                    .adjacent
                    .iter()
                    .any(|t| !rules.board.space(*t).is_sea() && s.space(*t).controller == Some(power))
                && s.space(*z).units.iter().any(|u| {
                    s.relations[power.index()][u.owner.index()] == Relation::War
                        && rules.unit_for(u.kind, &s.techs[u.owner.index()]).convoy_dice > 0
                })
        })
        .collect()
}

/// What the power loses to convoy disruption now (rolling the dice), with a log line per zone.
pub fn losses(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    out: &mut Vec<String>,
) -> Result<i64, Rejection> {
    let hit = rules.switches.convoy_hits_up_to;
    if hit == 0 || !rules.power_info(power).convoy_losses {
        return Ok(0);
    }
    struct Raid {
        zone: SpaceId,
        mine: Vec<SpaceId>,
        who: String,
        faces: Vec<u8>,
        rolled: u32,
    }
    let mut raids: Vec<Raid> = Vec::new();
    for zone in rules.board.ids() {
        let z = rules.board.space(zone);
        if !z.convoy {
            continue;
        }
        let mine: Vec<SpaceId> = z
            .adjacent
            .iter()
            .copied()
            .filter(|t| !rules.board.space(*t).is_sea() && s.space(*t).controller == Some(power))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let mut raiders: Vec<(String, u32)> = Vec::new();
        let mut dice = 0u32;
        for u in &s.space(zone).units {
            if s.relations[power.index()][u.owner.index()] != Relation::War {
                continue;
            }
            let n = rules.unit_for(u.kind, &s.techs[u.owner.index()]).convoy_dice;
            if n == 0 {
                continue;
            }
            dice += n;
            let name = rules.unit(u.kind).name.clone();
            match raiders.iter_mut().find(|(k, _)| *k == name) {
                Some((_, c)) => *c += 1,
                None => raiders.push((name, 1)),
            }
        }
        if dice == 0 {
            continue;
        }
        let Some(faces) = s.roll_table(dice as usize) else {
            return Err(Rejection::new(format!(
                "convoy disruption in {} needs {dice} dice from the table: type the faces (`roll ...`), then `end phase` again",
                z.name
            ))
            .by(RULE_CONVOY));
        };
        let rolled = faces.iter().filter(|f| **f <= hit).map(|f| u32::from(*f)).sum();
        let who: Vec<String> = raiders.iter().map(|(n, c)| format!("{c} {n}")).collect();
        raids.push(Raid {
            zone,
            mine,
            who: who.join(", "),
            faces,
            rolled,
        });
    }
    // Each zone loses no more than it rolled and its territories are worth, each territory no
    // more than its value over all zones: the most that can be lost so (`flow::assign`).
    let mut territories: Vec<SpaceId> = raids.iter().flat_map(|r| r.mine.iter().copied()).collect();
    territories.sort();
    territories.dedup();
    let rolled: Vec<u32> = raids.iter().map(|r| r.rolled).collect();
    let worth: Vec<u32> = territories.iter().map(|t| rules.board.space(*t).ipc).collect();
    let lost = super::flow::assign(&rolled, &worth, |z, t| raids[z].mine.contains(&territories[t])).met;
    let mut total = 0i64;
    for (r, l) in raids.iter().zip(&lost) {
        let text: Vec<String> = r.faces.iter().map(u8::to_string).collect();
        out.push(format!(
            "convoy disruption in {}: {} roll {} → {} loses {l} IPC{}{}",
            rules.board.space(r.zone).name,
            r.who,
            text.join(" "),
            rules.power_info(power).name,
            if *l == 1 { "" } else { "s" },
            if *l < r.rolled {
                format!(" ({} rolled; no territory loses more than it is worth)", r.rolled)
            } else {
                String::new()
            }
        ));
        total += i64::from(*l);
    }
    Ok(total)
}
