//! Strategic bombing raids on the board (`fight` on a raided territory, before any other
//! battle): the air battle against interceptors (`intercept.rs` chooses them), antiaircraft
//! fire at each bomber (a raided facility's own `anti_air`, else the defenders' gun), and the
//! damage each raided facility takes, up to its cap. Scripts hear it as a small battle with the
//! steps `anti_air` and `raid_damage`.

use super::fight::{at_war, profiles, RULE_DICE};
use super::state::State;
use super::Rejection;
use crate::combat::{Battle, Combatant, Gate, Observer, Report, Side, Status, TableDice, ValueChange};
use crate::rules::{PowerId, RuleSet, SpaceId, Step};

fn reject(rule: &str, msg: impl Into<String>) -> Rejection {
    Rejection::new(msg).by(rule)
}

/// A strategic bombing raid, fought in one go: the territory's antiaircraft gun fires one die
/// at each bomber, then each surviving bomber rolls its bombing dice; the total (plus any
/// per-bomber bonus) damages the industrial complex, up to its damage cap.
///
/// With dice from the table, the faces must all be typed first; if they are not, nothing
/// happens and the message says how many more are needed (the antiaircraft faces typed stay
/// queued, so the same faces decide the same survivors).
/// A strategic bombing raid, fought in one go. It is announced to scripts like a battle's
/// steps: `anti_air` (a veto: no antiaircraft fire; `combat_value` changes what the gun hits
/// on) and `raid_damage` (a veto: no damage), with `casualties` for the bombers shot down.
pub(super) fn raid(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    space: SpaceId,
    obs: &mut dyn Observer,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let mut raid = Raid::new(rules, s, power, space);
    let escorts = raid.air_battle(s, out)?;
    let bombers = raid.bombers.clone();
    let survivors = raid.anti_air_fire(s, obs, out)?;
    for (id, _) in bombers
        .iter()
        .filter(|(id, _)| !survivors.iter().any(|(s, _)| s == id))
    {
        s.remove_unit(space, *id);
    }
    // Escorts that came through the air battle have fought, as the bombers have.
    let mut done = survivors.clone();
    done.extend(escorts);
    if survivors.is_empty() || raid.announce(obs, Step::RaidDamage)?.is_none() {
        finish_raid(s, space, &done);
        return Ok(());
    }
    raid.damage(s, &survivors, out)?;
    obs.after_step(&raid.seen, Step::RaidDamage);
    finish_raid(s, space, &done);
    Ok(())
}

/// A strategic bombing raid being fought: the bombers over the space, the antiaircraft gun
/// that fires at them (if any), and the raid as scripts see it, a small `Battle` in which the
/// bombers attack and the enemy units there defend.
struct Raid<'a> {
    rules: &'a RuleSet,
    power: PowerId,
    space: SpaceId,
    name: String,
    seen: Battle,
    bombers: Vec<(u32, crate::rules::UnitTypeId)>,
    /// The facility each bomber raids (the one named in combat move, else the first there that
    /// can be damaged), in the order of `bombers`.
    targets: Vec<Option<crate::rules::FacilityTypeId>>,
    /// The defenders' antiaircraft gun that fires at bombers, and what it hits on.
    gun: Option<(crate::rules::UnitTypeId, u8)>,
}

impl<'a> Raid<'a> {
    fn new(rules: &'a RuleSet, s: &State, power: PowerId, space: SpaceId) -> Raid<'a> {
        let name = rules.board.space(space).name.clone();
        let p = profiles(rules, s, power, space);
        let units: Vec<Combatant> = s
            .space(space)
            .units
            .iter()
            .filter(|u| (u.owner == power && u.marks.bombing) || at_war(s, power, u.owner))
            .map(|u| {
                let side = if u.owner == power {
                    Side::Attacker
                } else {
                    Side::Defender
                };
                Combatant::new(u.id, u.kind, u.owner, side, 1)
            })
            .collect();
        let seen = Battle::new(space, false, power, units);
        let bombers: Vec<(u32, crate::rules::UnitTypeId)> = seen
            .alive(Side::Attacker)
            .filter(|(_, u)| rules.unit(u.kind).bombing_dice > 0)
            .map(|(_, u)| (u.id, u.kind))
            .collect();
        let gun = seen.alive(Side::Defender).find_map(|(_, u)| {
            let aa = p.of(u.kind).anti_air.as_ref()?;
            aa.vs_bombing.then_some((u.kind, aa.hit))
        });
        let ipc = rules.board.space(space).ipc;
        let first = s
            .space(space)
            .facilities
            .iter()
            .map(|f| f.kind)
            .find(|k| rules.facilities[k.index()].max_damage.resolve(ipc) > 0);
        let targets = bombers
            .iter()
            .map(|(id, _): &(u32, crate::rules::UnitTypeId)| {
                s.space(space)
                    .units
                    .iter()
                    .find(|u| u.id == *id)
                    .and_then(|u| u.marks.raid_target)
                    .or(first)
            })
            .collect();
        Raid {
            rules,
            power,
            space,
            name,
            seen,
            bombers,
            targets,
            gun,
        }
    }

    /// The air battle before the raid, when defenders intercept: one round, everyone hitting on
    /// `[rules] interception_value`; the attackers' hits down interceptors, the defenders' hits
    /// down escorts and bombers, each side's order of loss first, then the cheapest. The bombers left go on; returns the escorts
    /// left (they take no further part).
    fn air_battle(
        &mut self,
        s: &mut State,
        out: &mut Vec<String>,
    ) -> Result<Vec<(u32, crate::rules::UnitTypeId)>, Rejection> {
        let rules = self.rules;
        let here = &s.space(self.space).units;
        let escorts: Vec<(u32, crate::rules::UnitTypeId)> = here
            .iter()
            .filter(|u| u.owner == self.power && u.marks.bombing && rules.unit(u.kind).bombing_dice == 0)
            .map(|u| (u.id, u.kind))
            .collect();
        let interceptors: Vec<(u32, crate::rules::UnitTypeId)> = here
            .iter()
            .filter(|u| u.marks.intercepting && at_war(s, self.power, u.owner))
            .map(|u| (u.id, u.kind))
            .collect();
        if interceptors.is_empty() {
            return Ok(escorts);
        }
        let (a, d) = (self.bombers.len() + escorts.len(), interceptors.len());
        // What each unit hits on: its own `air_battle` value for its owner's techs (a jet
        // fighter's), else the rules' interception value.
        let value_of = |id: u32, k: crate::rules::UnitTypeId| {
            let owner = s
                .space(self.space)
                .units
                .iter()
                .find(|u| u.id == id)
                .map_or(self.power, |u| u.owner);
            rules
                .unit_for(k, &s.techs[owner.index()])
                .air_battle
                .unwrap_or(rules.switches.interception_value)
        };
        let av: Vec<u8> = self
            .bombers
            .iter()
            .chain(&escorts)
            .map(|(id, k)| value_of(*id, *k))
            .collect();
        let dv: Vec<u8> = interceptors.iter().map(|(id, k)| value_of(*id, *k)).collect();
        let Some(faces) = s.roll_table(a + d) else {
            return Err(self.short(a + d - s.dice_queue.len(), "the air battle"));
        };
        let (af, df) = faces.split_at(a);
        let hits = |f: &[u8], v: &[u8]| f.iter().zip(v).filter(|(x, v)| **x <= **v).count();
        let (ah, dh) = (hits(af, &av), hits(df, &dv));
        let shown = |f: &[u8]| f.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        // "@1", or each die's value where they differ ("@2 2 1").
        let at = |v: &[u8]| match v.first() {
            Some(x) if v.iter().all(|y| y == x) => format!("@{x}"),
            _ => format!("@{}", shown(v)),
        };
        out.push(format!(
            "air battle over {}: {} rolls {} [{}] → {ah} hit{}; the interceptors roll {} [{}] → {dh} hit{}",
            self.name,
            rules.power_info(self.power).name,
            at(&av),
            shown(af),
            if ah == 1 { "" } else { "s" },
            at(&dv),
            shown(df),
            if dh == 1 { "" } else { "s" }
        ));
        // Each side gives up the units it chose first (its order of loss), then the cheapest.
        let rank = |p: PowerId, k: crate::rules::UnitTypeId| {
            let order = &s.casualty_orders[p.index()];
            (
                order.iter().position(|o| *o == k).unwrap_or(usize::MAX),
                rules.unit(k).cost,
            )
        };
        let mut interceptors = interceptors;
        let owner_of = |id: u32| {
            s.space(self.space)
                .units
                .iter()
                .find(|u| u.id == id)
                .map_or(self.power, |u| u.owner)
        };
        interceptors.sort_by_key(|(id, k)| (rank(owner_of(*id), *k), *id));
        let mut lost: Vec<u32> = interceptors.iter().take(ah).map(|(id, _)| *id).collect();
        let mut attackers: Vec<(u32, crate::rules::UnitTypeId)> =
            self.bombers.iter().chain(&escorts).copied().collect();
        attackers.sort_by_key(|(id, k)| (rank(self.power, *k), *id));
        lost.extend(attackers.iter().take(dh).map(|(id, _)| *id));
        let mut names: Vec<String> = Vec::new();
        for id in &lost {
            if let Some(u) = s.space(self.space).units.iter().find(|u| u.id == *id) {
                names.push(format!(
                    "{} {}",
                    rules.power_info(u.owner).name,
                    rules.unit(u.kind).name
                ));
            }
            s.remove_unit(self.space, *id);
        }
        if !names.is_empty() {
            out.push(format!("lost in the air battle: {}", names.join(", ")));
        }
        let keep: Vec<bool> = self.bombers.iter().map(|(id, _)| !lost.contains(id)).collect();
        let mut k = keep.iter();
        self.targets.retain(|_| *k.next().expect("parallel"));
        self.bombers.retain(|(id, _)| !lost.contains(id));
        Ok(escorts.into_iter().filter(|(id, _)| !lost.contains(id)).collect())
    }

    /// The refusal when the table has not rolled enough dice for a step of the raid.
    fn short(&self, need: usize, what: &str) -> Rejection {
        let name = &self.name;
        reject(
            RULE_DICE,
            format!("roll {need} more dice for {what} over {name} (`roll F F ...`), then `fight` again"),
        )
    }

    /// Tell the scripts a step of the raid begins: `None` when one skips it, else the values
    /// they changed for it.
    fn announce(&self, obs: &mut dyn Observer, step: Step) -> Result<Option<Vec<ValueChange>>, Rejection> {
        match obs.before_step(&self.seen, step) {
            Gate::Abort => Err(Rejection::new("a rule script stopped the raid")),
            // A raid has no battle to end: the step is skipped.
            Gate::Skip | Gate::End => Ok(None),
            Gate::Run => Ok(Some(obs.changes())),
        }
    }

    /// The antiaircraft fire: one die at each bomber, hitting on the value of the facility it
    /// raids when that facility fires itself (`anti_air`), else on the defenders' gun's value
    /// (or what a script made it); the hits on a facility's raiders fall on those the attacker
    /// gives up first. The bombers that fly on.
    fn anti_air_fire(
        &mut self,
        s: &mut State,
        obs: &mut dyn Observer,
        out: &mut Vec<String>,
    ) -> Result<Vec<(u32, crate::rules::UnitTypeId)>, Rejection> {
        use crate::combat::Roller;
        let rules = self.rules;
        // The facility's own fire, with its holder's techs (a tech may sharpen it).
        let holder = s.space(self.space).controller.map(|c| rules.relation_holder(c));
        let techs: Vec<crate::rules::TechId> = holder.map(|h| s.techs[h.index()].clone()).unwrap_or_default();
        let own =
            |t: &Option<crate::rules::FacilityTypeId>| t.map_or(0, |k| rules.facility_anti_air(k, &techs));
        if self.gun.is_none() && self.targets.iter().all(|t| own(t) == 0) {
            return Ok(self.bombers.clone());
        }
        let Some(changes) = self.announce(obs, Step::AntiAir)? else {
            return Ok(self.bombers.clone());
        };
        let gun = self.gun.map(|(kind, hit)| {
            changes
                .iter()
                .rev()
                .find(|c| c.side == Side::Defender && c.kind == kind)
                .map_or(hit, |c| c.value)
        });
        // Each bomber's value, or none (no die at it).
        let values: Vec<Option<u8>> = self
            .targets
            .iter()
            .map(|t| match own(t) {
                0 => gun,
                v => Some(v),
            })
            .collect();
        let aimed: Vec<usize> = (0..values.len()).filter(|&i| values[i].is_some()).collect();
        let bombers = &self.bombers;
        let mut dice = TableDice {
            queue: &mut s.dice_queue,
            dice: &mut s.dice,
            manual: s.manual_dice,
        };
        let mut faces = Vec::new();
        if !dice.roll(aimed.len(), &mut faces) {
            return Err(self.short(aimed.len() - dice.queue.len(), "the antiaircraft fire"));
        }
        let shown: Vec<String> = faces.iter().map(u8::to_string).collect();
        // Each facility's (or the gun's) dice are rolled at the bombers raiding it; the attacker
        // gives up as many of those bombers as they hit, in its order of loss (000 · Strategic
        // and Tactical Bombing Raids: "a bomber of the attacker's choice").
        let order = &s.casualty_orders[self.power.index()];
        let rank = |k: crate::rules::UnitTypeId| {
            (
                order.iter().position(|o| *o == k).unwrap_or(usize::MAX),
                rules.unit(k).cost,
            )
        };
        let mut lost_ids: Vec<u32> = Vec::new();
        let mut groups: Vec<Option<crate::rules::FacilityTypeId>> = Vec::new();
        for &i in &aimed {
            if !groups.contains(&self.targets[i]) {
                groups.push(self.targets[i]);
            }
        }
        for g in groups {
            let members: Vec<usize> = aimed.iter().copied().filter(|&i| self.targets[i] == g).collect();
            let hits = members
                .iter()
                .filter(|&&i| {
                    let k = aimed.iter().position(|a| *a == i).unwrap_or(0);
                    faces[k] <= values[i].unwrap_or(0)
                })
                .count();
            let mut chosen: Vec<(u32, crate::rules::UnitTypeId)> =
                members.iter().map(|&i| bombers[i]).collect();
            chosen.sort_by_key(|(id, k)| (rank(*k), *id));
            lost_ids.extend(chosen.iter().take(hits).map(|(id, _)| *id));
        }
        let survivors: Vec<(u32, crate::rules::UnitTypeId)> = bombers
            .iter()
            .filter(|(id, _)| !lost_ids.contains(id))
            .copied()
            .collect();
        let lost = bombers.len() - survivors.len();
        let name = &self.name;
        out.push(format!(
            "antiaircraft fire over {name}: [{}] → {lost} bomber{} shot down",
            shown.join(" "),
            if lost == 1 { "" } else { "s" }
        ));
        self.shoot_down(&survivors, obs);
        obs.after_step(&self.seen, Step::AntiAir);
        Ok(survivors)
    }

    /// The bombers not among the survivors die in the scripts' battle too, and are reported
    /// as the attacker's casualties of the antiaircraft fire.
    fn shoot_down(&mut self, survivors: &[(u32, crate::rules::UnitTypeId)], obs: &mut dyn Observer) {
        let seen = &mut self.seen;
        let down: Vec<usize> = (0..seen.units.len())
            .filter(|&i| {
                let u = &seen.units[i];
                u.side == Side::Attacker && !survivors.iter().any(|(id, _)| *id == u.id)
            })
            .collect();
        for &i in &down {
            seen.units[i].hp = 0;
            seen.units[i].status = Status::Dead;
        }
        if !down.is_empty() {
            obs.report(
                seen,
                &Report::Casualties {
                    side: Side::Attacker,
                    step: Step::AntiAir,
                    units: down,
                },
            );
        }
    }

    /// The bombing: the surviving bombers' dice (and bonuses) in damage to the facility each
    /// raids, up to its cap; one roll per facility raided, in the order of the bombers.
    fn damage(
        &self,
        s: &mut State,
        survivors: &[(u32, crate::rules::UnitTypeId)],
        out: &mut Vec<String>,
    ) -> Result<(), Rejection> {
        use crate::combat::Roller;
        let (rules, name) = (self.rules, &self.name);
        let ipc = rules.board.space(self.space).ipc;
        let target_of = |id: u32| {
            self.bombers
                .iter()
                .position(|(b, _)| *b == id)
                .and_then(|i| self.targets[i])
        };
        let mut targets: Vec<crate::rules::FacilityTypeId> = Vec::new();
        for (id, _) in survivors {
            if let Some(t) = target_of(*id) {
                if !targets.contains(&t) {
                    targets.push(t);
                }
            }
        }
        let several = s
            .space(self.space)
            .facilities
            .iter()
            .filter(|f| rules.facilities[f.kind.index()].max_damage.resolve(ipc) > 0)
            .count()
            > 1;
        for target in targets {
            let raiders: Vec<&(u32, crate::rules::UnitTypeId)> = survivors
                .iter()
                .filter(|(id, _)| target_of(*id) == Some(target))
                .collect();
            let mut dice = TableDice {
                queue: &mut s.dice_queue,
                dice: &mut s.dice,
                manual: s.manual_dice,
            };
            // Each bombing die the best of `best_of` rolled (a heavy bomber's).
            let per: Vec<(usize, usize)> = raiders
                .iter()
                .map(|(_, k)| {
                    let u = rules.unit_for(*k, &s.techs[self.power.index()]);
                    (u.bombing_dice as usize, u.best_of.max(1) as usize)
                })
                .collect();
            let n: usize = per.iter().map(|(d, b)| d * b).sum();
            let mut rolled_faces = Vec::new();
            if !dice.roll(n, &mut rolled_faces) {
                return Err(self.short(n - dice.queue.len(), "the bombing"));
            }
            let mut damage_faces = Vec::new();
            let mut rest = rolled_faces.as_slice();
            for (d, b) in &per {
                for _ in 0..*d {
                    let (these, more) = rest.split_at(*b);
                    damage_faces.push(these.iter().copied().max().unwrap_or(0));
                    rest = more;
                }
            }
            let bonus: u32 = raiders.iter().map(|(_, k)| rules.unit(*k).bombing_bonus).sum();
            let rolled: u32 = damage_faces.iter().map(|f| u32::from(*f)).sum::<u32>() + bonus;
            let ft = &rules.facilities[target.index()];
            let Some(f) = s
                .space_mut(self.space)
                .facilities
                .iter_mut()
                .find(|f| f.kind == target)
            else {
                continue;
            };
            let cap = ft.max_damage.resolve(ipc);
            let applied = rolled.min(cap.saturating_sub(f.damage));
            f.damage += applied;
            let shown: Vec<String> = damage_faces.iter().map(u8::to_string).collect();
            let what = if several {
                format!("the {} of {name}", ft.name)
            } else {
                name.clone()
            };
            out.push(format!(
                "{} bomber{} raid {what}: [{}]{} → {applied} damage (now {} of at most {cap})",
                raiders.len(),
                if raiders.len() == 1 { "" } else { "s" },
                shown.join(" "),
                if bonus > 0 {
                    format!(" + {bonus}")
                } else {
                    String::new()
                },
                f.damage
            ));
        }
        Ok(())
    }
}

/// The surviving bombers have fought (they land in noncombat move), and the raid is over.
fn finish_raid(s: &mut State, space: SpaceId, survivors: &[(u32, crate::rules::UnitTypeId)]) {
    for u in s
        .space_mut(space)
        .units
        .iter_mut()
        .filter(|u| survivors.iter().any(|(id, _)| *id == u.id))
    {
        u.marks.fought = true;
    }
    if let Some(r) = s.this_turn.raids.iter_mut().find(|(r, _)| *r == space) {
        r.1 = true;
    }
}

/// What a bombing raid announced this turn is likely to do, from `runs` raids fought by the
/// raid's own code on copies of the board (the game's dice untouched): each unit type's
/// average losses, each raided facility's average damage added and how often it ends at its
/// cap, and the IPCs each side loses (units' cost; damage counts an IPC a point, its repair).
#[derive(Clone, Debug, PartialEq)]
pub struct RaidOdds {
    pub runs: u64,
    /// (unit type, how many fly in, average lost).
    pub attackers: Vec<(crate::rules::UnitTypeId, u32, f64)>,
    pub interceptors: Vec<(crate::rules::UnitTypeId, u32, f64)>,
    /// (facility type, damage before, average damage added, chance it ends at its cap, cap).
    pub damage: Vec<(crate::rules::FacilityTypeId, u32, f64, f64, u32)>,
    pub attacker_loss: f64,
    pub defender_loss: f64,
}

/// Raid odds for the raid announced in `space` (see [`RaidOdds`]). Rule scripts that hear
/// the raid's steps are not consulted: the answer says what the rules' data give.
pub fn raid_odds(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    space: SpaceId,
    runs: u64,
    seed: u64,
) -> Result<RaidOdds, String> {
    if !s.this_turn.raids.contains(&(space, false)) {
        let name = &rules.board.space(space).name;
        return Err(format!("no bombing raid on {name} waits to be fought this turn"));
    }
    let mut tally = RaidTally::before(rules, s, power, space);
    let runs = runs.max(1);
    for r in 0..runs {
        let mut c = s.clone();
        c.manual_dice = false;
        c.dice_queue.clear();
        c.dice = super::dice::Dice::seeded(seed.wrapping_mul(0x9E37_79B9).wrapping_add(r));
        raid(
            rules,
            &mut c,
            power,
            space,
            &mut crate::combat::Quiet,
            &mut Vec::new(),
        )
        .map_err(|e| e.to_string())?;
        tally.after(&c);
    }
    Ok(tally.odds(runs))
}

/// One group of units in a raid, by type: the ids that fly in, and how many of them were lost
/// over all the raids fought.
struct Flown {
    kind: crate::rules::UnitTypeId,
    ids: Vec<u32>,
    lost: u64,
}

/// What the raids fought on copies of the board add up to.
struct RaidTally<'a> {
    rules: &'a RuleSet,
    space: SpaceId,
    raiders: Vec<Flown>,
    interceptors: Vec<Flown>,
    /// (facility, damage before, cap, damage added in all, raids that ended at the cap).
    facilities: Vec<(crate::rules::FacilityTypeId, u32, u32, u64, u64)>,
    attacker_loss: u64,
    defender_loss: u64,
}

impl<'a> RaidTally<'a> {
    /// The raiders, interceptors and raided facilities as the raid begins.
    fn before(rules: &'a RuleSet, s: &State, power: PowerId, space: SpaceId) -> RaidTally<'a> {
        let group = |keep: &dyn Fn(&super::state::Unit) -> bool| {
            let mut v: Vec<Flown> = Vec::new();
            for u in s.space(space).units.iter().filter(|u| keep(u)) {
                match v.iter_mut().find(|f| f.kind == u.kind) {
                    Some(f) => f.ids.push(u.id),
                    None => v.push(Flown {
                        kind: u.kind,
                        ids: vec![u.id],
                        lost: 0,
                    }),
                }
            }
            v
        };
        let ipc = rules.board.space(space).ipc;
        RaidTally {
            rules,
            space,
            raiders: group(&|u| u.owner == power && u.marks.bombing),
            interceptors: group(&|u| u.marks.intercepting && at_war(s, power, u.owner)),
            facilities: s
                .space(space)
                .facilities
                .iter()
                .map(|f| {
                    (
                        f.kind,
                        f.damage,
                        rules.facilities[f.kind.index()].max_damage.resolve(ipc),
                        0,
                        0,
                    )
                })
                .filter(|f| f.2 > 0)
                .collect(),
            attacker_loss: 0,
            defender_loss: 0,
        }
    }

    /// One raid fought: the units missing from the space, the damage added.
    fn after(&mut self, c: &State) {
        let here = &c.space(self.space).units;
        let count = |groups: &mut Vec<Flown>, loss: &mut u64| {
            for g in groups.iter_mut() {
                let left = here.iter().filter(|u| g.ids.contains(&u.id)).count() as u64;
                let lost = g.ids.len() as u64 - left;
                g.lost += lost;
                *loss += lost * u64::from(self.rules.unit(g.kind).cost);
            }
        };
        count(&mut self.raiders, &mut self.attacker_loss);
        count(&mut self.interceptors, &mut self.defender_loss);
        for f in &mut self.facilities {
            let now = c
                .space(self.space)
                .facilities
                .iter()
                .find(|x| x.kind == f.0)
                .map_or(f.1, |x| x.damage);
            let more = u64::from(now.saturating_sub(f.1));
            f.3 += more;
            self.defender_loss += more;
            f.4 += u64::from(now >= f.2);
        }
    }

    fn odds(&self, runs: u64) -> RaidOdds {
        let n = runs as f64;
        let avg = |groups: &[Flown]| {
            groups
                .iter()
                .map(|g| (g.kind, g.ids.len() as u32, g.lost as f64 / n))
                .collect()
        };
        RaidOdds {
            runs,
            attackers: avg(&self.raiders),
            interceptors: avg(&self.interceptors),
            damage: self
                .facilities
                .iter()
                .map(|f| (f.0, f.1, f.3 as f64 / n, f.4 as f64 / n, f.2))
                .collect(),
            attacker_loss: self.attacker_loss as f64 / n,
            defender_loss: self.defender_loss as f64 / n,
        }
    }
}
