//! Conduct combat on the board: which battle comes next, setting a battle up from the units in
//! its space, passing the players' answers to it, and writing its result back (casualties with
//! their cargo, damage and repair, retreats, capture).
//!
//! The battle itself is `crate::combat::Battle`; this module is the only place that translates
//! between it and the game state.

use super::command::Pick;
use super::state::{Relation, State};
use super::{control, movement, Rejection};
use crate::combat::{
    Battle, Combatant, Gate, Need, Observer, Outcome, Profiles, Progress, Report, Side, Status, TableDice,
};
use crate::rules::{ConductStep, Domain, PowerId, RuleSet, SpaceId, Step};

pub const RULE_ORDER: &str = "conduct-combat-order";
pub const RULE_ONE_BATTLE: &str = "one-battle-at-a-time";
pub const RULE_RETREAT: &str = "retreat";
pub const RULE_CASUALTIES: &str = "casualties";
pub const RULE_DICE: &str = "dice-from-the-table";

fn reject(rule: &str, msg: impl Into<String>) -> Rejection {
    Rejection::new(msg).by(rule)
}

pub(super) fn at_war(s: &State, a: PowerId, b: PowerId) -> bool {
    s.relations[a.index()][b.index()] == Relation::War
}

fn allied(s: &State, a: PowerId, b: PowerId) -> bool {
    a == b || s.relations[a.index()][b.index()] == Relation::Allied
}

/// Which conduct-combat sub-step a battle belongs to.
fn conduct_step(rules: &RuleSet, s: &State, space: SpaceId) -> ConductStep {
    let assault = if rules.board.space(space).is_sea() {
        s.this_turn
            .battles
            .iter()
            .any(|b| b.amphibious_from.contains(&space))
    } else {
        s.this_turn
            .battle(space)
            .is_some_and(|b| !b.amphibious_from.is_empty())
    };
    if assault && rules.combat.conduct.contains(&ConductStep::AmphibiousAssaults) {
        ConductStep::AmphibiousAssaults
    } else {
        ConductStep::GeneralCombat
    }
}

fn rank(rules: &RuleSet, step: ConductStep) -> usize {
    rules
        .combat
        .conduct
        .iter()
        .position(|c| *c == step)
        .unwrap_or(usize::MAX)
}

/// Sea battles an amphibious assault on this territory waits for.
fn sea_battles_first(rules: &RuleSet, s: &State, space: SpaceId) -> Vec<SpaceId> {
    if rules.board.space(space).is_sea() {
        return Vec::new();
    }
    let zones = s
        .this_turn
        .battle(space)
        .map(|b| b.amphibious_from.clone())
        .unwrap_or_default();
    zones
        .into_iter()
        .filter(|z| s.this_turn.battle(*z).is_some_and(|b| !b.fought))
        .collect()
}

/// The battle `fight` picks when no space is named: the first of the earliest sub-step, sea
/// battles before the assaults they open.
fn next_battle(rules: &RuleSet, s: &State) -> Option<SpaceId> {
    if let Some((r, _)) = s.this_turn.raids.iter().find(|(_, fought)| !fought) {
        return Some(*r);
    }
    let open: Vec<SpaceId> = s
        .this_turn
        .battles
        .iter()
        .filter(|b| !b.fought)
        .map(|b| b.space)
        .collect();
    let first = open.iter().copied().min_by_key(|sp| {
        (
            rank(rules, conduct_step(rules, s, *sp)),
            !rules.board.space(*sp).is_sea(),
        )
    })?;
    Some(
        sea_battles_first(rules, s, first)
            .first()
            .copied()
            .unwrap_or(first),
    )
}

/// `fight [SPACE]`: set up the battle and fight until it needs a decision.
pub fn fight(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    space: Option<SpaceId>,
    bombarding: Option<&[(crate::rules::UnitTypeId, u32)]>,
    obs: &mut dyn Observer,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    if let Some(b) = &s.combat {
        return Err(reject(
            RULE_ONE_BATTLE,
            format!(
                "the battle in {} is not over; each battle is fought to its end before the next",
                rules.board.space(b.space).name
            ),
        ));
    }
    let space = match space {
        Some(sp) => sp,
        None => {
            next_battle(rules, s).ok_or_else(|| Rejection::new("no battle is left to fight; `end phase`"))?
        }
    };
    let name = &rules.board.space(space).name;
    if s.this_turn.raids.contains(&(space, false)) {
        return super::raid::raid(rules, s, power, space, obs, out);
    }
    if let Some((r, _)) = s.this_turn.raids.iter().find(|(_, fought)| !fought) {
        return Err(reject(
            RULE_ORDER,
            format!(
                "bombing raids come before other battles: fight the raid on {} first",
                rules.board.space(*r).name
            ),
        ));
    }
    let Some(announced) = s.this_turn.battle(space) else {
        return Err(reject(
            RULE_ORDER,
            format!("no battle was announced in {name} this turn (battles are announced by combat moves)"),
        ));
    };
    if announced.fought {
        return Err(reject(
            RULE_ORDER,
            format!("the battle in {name} has been fought"),
        ));
    }
    let step = conduct_step(rules, s, space);
    if let Some(earlier) = s
        .this_turn
        .battles
        .iter()
        .filter(|b| !b.fought && b.space != space)
        .find(|b| rank(rules, conduct_step(rules, s, b.space)) < rank(rules, step))
    {
        let e = conduct_step(rules, s, earlier.space);
        return Err(reject(
            RULE_ORDER,
            format!(
                "{} come before {}: fight {} first",
                e.name().replace('_', " "),
                step.name().replace('_', " "),
                rules.board.space(earlier.space).name
            ),
        ));
    }
    if let Some(z) = sea_battles_first(rules, s, space).first() {
        return Err(reject(
            RULE_ORDER,
            format!(
                "the sea battle in {} comes before the assault on {name}: fight it first",
                rules.board.space(*z).name
            ),
        ));
    }
    if bombarding.is_some() && rules.board.space(space).is_sea() {
        return Err(reject(
            RULE_ORDER,
            format!("ships bombard a territory assaulted from the sea; {name} is a sea zone"),
        ));
    }
    // Cargo waiting on a cleared sea zone comes ashore for the assault.
    movement::land_assault_cargo(rules, s, power, space, out);
    let p = profiles(rules, s, power, space);
    let mut battle = setup(rules, &p, s, power, space);
    if let Some(chosen) = bombarding {
        battle.bombarding =
            super::bombardment::chosen_bombardment(rules, &p, s, power, space, &battle, chosen)?;
    }
    describe_setup(rules, s, &battle, out);
    s.combat = Some(battle);
    drive(rules, &p, s, power, obs, out)
}

/// The battle's profiles under the techs of the attacker and of the defender: the power
/// holding the territory, or at sea the first enemy power with units there. (Defending units of
/// several powers share one defender's techs.)
pub(super) fn profiles(rules: &RuleSet, s: &State, power: PowerId, space: SpaceId) -> Profiles {
    let sp = s.space(space);
    let defender = sp
        .controller
        .filter(|c| *c != power && at_war(s, power, *c))
        .or_else(|| sp.units.iter().map(|u| u.owner).find(|o| at_war(s, power, *o)));
    let none = Vec::new();
    let defense = defender.map_or(&none, |d| &s.techs[d.index()]);
    Profiles::with_techs(rules, &s.techs[power.index()], defense)
}

/// The profiles of the battle being fought (its defenders as they were when it began).
fn current_profiles(rules: &RuleSet, s: &State) -> Profiles {
    let Some(b) = &s.combat else {
        return Profiles::new(rules);
    };
    let defenders = b.powers(Side::Defender, false);
    let controller = s.space(b.space).controller.filter(|c| defenders.contains(c));
    let none = Vec::new();
    let defense = controller
        .or(defenders.first().copied())
        .map_or(&none, |d| &s.techs[d.index()]);
    Profiles::with_techs(rules, &s.techs[b.attacker.index()], defense)
}

/// The battle as it stands on the board.
fn setup(rules: &RuleSet, p: &Profiles, s: &State, power: PowerId, space: SpaceId) -> Battle {
    let sea = rules.board.space(space).is_sea();
    let here = &s.space(space).units;
    // A damaged carrier that launches nothing (`disabled_when_damaged`): the defending air units
    // its side's working decks there cannot hold are cargo on it and do not fight.
    let mut deck_room: Option<u32> = None;
    if sea
        && here
            .iter()
            .any(|c| c.damage > 0 && rules.unit(c.kind).disabled_when_damaged)
    {
        deck_room = Some(
            here.iter()
                .filter(|c| c.owner != power && at_war(s, power, c.owner))
                .map(|c| c.deck(rules))
                .sum(),
        );
    }
    let mut units = Vec::new();
    for u in here {
        let pr = p.of(u.kind);
        let hp = pr.hits.saturating_sub(u.damage.min(255) as u8).max(1);
        if u.owner == power {
            // Cargo (an ally's fighters on an attacking carrier too) does not fight, nor do
            // bombers raiding the industrial complex.
            if u.aboard.is_some() || u.marks.bombing {
                continue;
            }
            let mut c = Combatant::new(u.id, u.kind, u.owner, Side::Attacker, hp);
            c.seaborne = !sea && pr.domain == Domain::Land && u.marks.unloaded == Some(space);
            c.airborne = u.marks.airborne_from.is_some();
            units.push(c);
        } else if at_war(s, power, u.owner) {
            // Interceptors fight the raid's air battle and no other battle.
            if u.marks.intercepting {
                continue;
            }
            // Fighters on a defending carrier fight in the air; a transport's cargo does not.
            if let Some(carrier) = u.aboard {
                let on_carrier = here
                    .iter()
                    .find(|c| c.id == carrier)
                    .is_some_and(|c| c.deck(rules) > 0);
                if !(on_carrier && pr.domain == Domain::Air) {
                    continue;
                }
            }
            if let (Some(room), Domain::Air, None) = (deck_room.as_mut(), pr.domain, u.aboard) {
                let cost = rules.unit(u.kind).carrier_cost.unwrap_or(1);
                if *room < cost {
                    continue;
                }
                *room -= cost;
            }
            units.push(Combatant::new(u.id, u.kind, u.owner, Side::Defender, hp));
        }
    }
    // Values rule scripts set for a power's units of a type.
    if !s.standing_values.0.is_empty() {
        for c in &mut units {
            let defense = c.side == Side::Defender;
            if let Some(v) = s.standing_values.of(c.owner, c.kind, defense) {
                c.set_value = Some((v, false));
            }
        }
    }
    let mut b = Battle::new(space, sea, power, units);
    // Each side loses units in its owner's order; defenders of several powers follow the one
    // with most units there.
    b.orders[0].first = s.casualty_orders[power.index()].clone();
    let mut owners: Vec<(usize, PowerId)> = Vec::new();
    for c in b.units.iter().filter(|c| c.side == Side::Defender) {
        match owners.iter_mut().find(|(_, o)| *o == c.owner) {
            Some((n, _)) => *n += 1,
            None => owners.push((1, c.owner)),
        }
    }
    if let Some((_, main)) = owners.iter().max_by_key(|(n, o)| (*n, std::cmp::Reverse(*o))) {
        b.orders[1].first = s.casualty_orders[main.index()].clone();
    }
    b.retreat_to = retreat_options(rules, s, power, space);
    // Units dropped from the air, and paratroopers, retreat with the others to where the
    // attackers came from ("retreat normally"); with no such space (their carrier came over the
    // sea, or only an amphibious assault goes with them) they stay.
    if b.retreat_to.is_empty() {
        for c in b.units.iter_mut().filter(|c| c.side == Side::Attacker) {
            c.stays = here
                .iter()
                .any(|u| u.id == c.id && (u.marks.dropped || u.marks.airborne_from.is_some()));
        }
    }
    if !sea {
        b.bombarding = super::bombardment::bombardment(rules, p, s, power, space, &b);
    }
    b
}

/// Adjacent spaces an attacking land or sea unit came from, friendly now (a territory blitzed
/// this turn is); for sea battles, a sea zone friendly since the start of the turn.
fn retreat_options(rules: &RuleSet, s: &State, power: PowerId, space: SpaceId) -> Vec<SpaceId> {
    let sea = rules.board.space(space).is_sea();
    let from = s
        .this_turn
        .battle(space)
        .map(|b| b.entered_from.clone())
        .unwrap_or_default();
    from.into_iter()
        .filter(|e| {
            let info = rules.board.space(*e);
            if info.is_sea() != sea || !info.adjacent.contains(&space) {
                return false;
            }
            if sea {
                let hostile_now = s.space(*e).units.iter().any(|u| {
                    let t = rules.unit(u.kind);
                    at_war(s, power, u.owner) && t.domain == Domain::Sea && t.blocks_movement
                });
                // A zone fought over this turn was hostile when the turn began.
                !hostile_now && s.this_turn.battle(*e).is_none()
            } else {
                s.space(*e).controller.is_some_and(|c| allied(s, power, c))
            }
        })
        .collect()
}

/// Advance the battle in `s.combat` and write what happened to the board.
fn drive(
    rules: &RuleSet,
    p: &Profiles,
    s: &mut State,
    power: PowerId,
    obs: &mut dyn Observer,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let mut battle = s.combat.take().expect("a battle in progress");
    let progress = {
        let mut dice = TableDice {
            queue: &mut s.dice_queue,
            dice: &mut s.dice,
            manual: s.manual_dice,
        };
        let mut log = Log {
            rules,
            lines: Vec::new(),
            inner: obs,
        };
        let progress = battle.advance(p, &mut dice, &mut log);
        out.append(&mut log.lines);
        progress
    };
    sync(rules, s, &battle, out);
    match progress {
        Progress::Need => {
            out.push(describe_need(rules, &battle));
            s.combat = Some(battle);
            Ok(())
        }
        Progress::Over(o) => {
            conclude(rules, p, s, power, &battle, o, out);
            Ok(())
        }
        Progress::Aborted => Err(Rejection::new("a rule script stopped the battle")),
    }
}

/// Remove destroyed units from the board (with their cargo) and record damage.
fn sync(rules: &RuleSet, s: &mut State, b: &Battle, out: &mut Vec<String>) {
    for c in &b.units {
        let here = &mut s.space_mut(b.space).units;
        if c.status == Status::Dead {
            if !here.iter().any(|u| u.id == c.id) {
                continue;
            }
            // Aircraft defending from a carrier are in the air: they do not go down with it.
            for u in here.iter_mut() {
                if u.aboard == Some(c.id) && b.units.iter().any(|o| o.id == u.id && o.status != Status::Dead)
                {
                    u.aboard = None;
                }
            }
            // Air units trapped on a carrier that launched nothing (damaged before the battle,
            // so they did not fight) go down with it.
            let t = rules.unit(c.kind);
            if t.disabled_when_damaged && t.carrier_capacity > 0 {
                let mut room = t.carrier_capacity;
                let trapped: Vec<(u32, crate::rules::UnitTypeId)> = s
                    .space(b.space)
                    .units
                    .iter()
                    .filter(|u| {
                        u.owner == c.owner
                            && u.aboard.is_none()
                            && rules.unit(u.kind).domain == Domain::Air
                            && !b.units.iter().any(|o| o.id == u.id)
                    })
                    .filter(|u| {
                        let cost = rules.unit(u.kind).carrier_cost.unwrap_or(1);
                        let fits = room >= cost;
                        room = room.saturating_sub(cost);
                        fits
                    })
                    .map(|u| (u.id, u.kind))
                    .collect();
                for (id, kind) in trapped {
                    s.remove_unit(b.space, id);
                    out.push(format!(
                        "a {} trapped on the damaged {} is lost with it",
                        rules.unit(kind).name,
                        t.name
                    ));
                }
            }
            let gone = s.remove_unit(b.space, c.id);
            let lost: Vec<String> = gone
                .iter()
                .skip(1)
                .map(|u| rules.unit(u.kind).name.clone())
                .collect();
            if !lost.is_empty() {
                out.push(format!(
                    "{} aboard the {} lost with it",
                    lost.join(", "),
                    rules.unit(c.kind).name
                ));
            }
        } else if let Some(u) = here.iter_mut().find(|u| u.id == c.id) {
            u.damage =
                u32::from(rules.unit(c.kind).hits.min(255) as u8 - c.hp.min(rules.unit(c.kind).hits as u8));
        }
    }
}

/// The battle is over: repair, retreat, capture.
fn conclude(
    rules: &RuleSet,
    p: &Profiles,
    s: &mut State,
    power: PowerId,
    b: &Battle,
    outcome: Outcome,
    out: &mut Vec<String>,
) {
    let space = b.space;
    let name = rules.board.space(space).name.clone();
    for c in b.units.iter().filter(|c| c.status != Status::Dead) {
        if let Some(u) = s.space_mut(space).units.iter_mut().find(|u| u.id == c.id) {
            if p.of(c.kind).repair_after_combat && u.damage > 0 {
                u.damage = 0;
                out.push(format!("the {} in {name} is repaired", rules.unit(c.kind).name));
            }
            if c.side == Side::Attacker {
                u.marks.fought = true;
            }
        }
    }
    for c in &b.bombarding {
        for at in 0..s.spaces.len() {
            if let Some(i) = s.spaces[at].units.iter().position(|u| u.id == c.id) {
                s.spaces.edit(at).units[i].marks.fought = true;
            }
        }
    }
    // Retreating land and sea units leave with what they carry; aircraft stay to land later.
    if let Some(to) = b.retreated_to {
        let going: Vec<u32> = b
            .units
            .iter()
            .filter(|c| c.status == Status::Retreated && p.of(c.kind).domain != Domain::Air)
            .map(|c| c.id)
            .collect();
        let mut moving = s.take_units(space, |u| {
            going.contains(&u.id) || u.aboard.is_some_and(|a| going.contains(&a))
        });
        for u in &mut moving {
            // An assault its transport retreated from is off.
            u.marks.assault = None;
        }
        let staying = b
            .units
            .iter()
            .filter(|c| c.status == Status::Retreated && p.of(c.kind).domain == Domain::Air)
            .count();
        out.push(format!(
            "{} units retreat from {name} to {}{}",
            moving.len(),
            rules.board.space(to).name,
            if staying > 0 {
                format!("; the {staying} air unit(s) stay over {name} and land in noncombat move")
            } else {
                String::new()
            }
        ));
        s.space_mut(to).units.extend(moving);
    }
    let pname = rules.power_info(power).name.clone();
    match outcome {
        Outcome::AttackerWon => out.push(format!("{pname} wins the battle in {name}")),
        Outcome::DefenderWon => out.push(format!("the defenders hold {name}")),
        Outcome::BothDestroyed => out.push(format!(
            "both sides are destroyed in {name}; the defender keeps it"
        )),
        Outcome::Stalemate => out.push(format!(
            "the battle in {name} ends: the units left cannot hit each other"
        )),
        Outcome::Retreated => out.push(format!("{pname} retreats from {name}")),
        Outcome::Ended => out.push(format!(
            "a rule ends the battle in {name}: both sides stay, the defender keeps it"
        )),
    }
    if outcome == Outcome::AttackerWon && !b.sea {
        let capturer = b.units.iter().any(|c| {
            c.side == Side::Attacker && c.status == Status::Fighting && {
                let pr = p.of(c.kind);
                pr.domain == Domain::Land && pr.can_capture
            }
        });
        let hostile = s.space(space).controller.is_some_and(|c| at_war(s, power, c))
            || super::neutrals::joined_against(rules, s, power, space);
        if capturer && hostile {
            control::capture(rules, s, space, power, out);
        } else if !capturer {
            out.push(format!("no land unit survives to take {name}"));
        }
    }
    if let Some(bt) = s.this_turn.battles.iter_mut().find(|bt| bt.space == space) {
        bt.fought = true;
    }
    s.this_turn.outcomes.push((space, outcome));
}

/// Map picks (`2 infantry`, `#12`) onto units of one side of the battle, one entry per hit;
/// units the suggestion names are taken first.
fn picks_to_units(
    rules: &RuleSet,
    b: &Battle,
    side: Side,
    picks: &[Pick],
    suggested: &[usize],
) -> Result<Vec<usize>, String> {
    let mut chosen: Vec<usize> = Vec::new();
    let taken = |chosen: &Vec<usize>, i: usize| chosen.iter().filter(|&&j| j == i).count();
    for pick in picks {
        match pick {
            Pick::Id(id) => {
                let i = b
                    .units
                    .iter()
                    .position(|c| c.id == *id && c.side == side)
                    .ok_or_else(|| {
                        format!(
                            "unit #{id} is not among the {}'s units in this battle",
                            side.name()
                        )
                    })?;
                chosen.push(i);
            }
            Pick::Kind { kind, count } => {
                for _ in 0..*count {
                    // Suggested units first; then the unit with most hits left (a battleship
                    // is damaged before one is sunk).
                    let best = (0..b.units.len())
                        .filter(|&i| {
                            let c = &b.units[i];
                            c.kind == *kind
                                && c.side == side
                                && c.status == Status::Fighting
                                && taken(&chosen, i) < c.hp as usize
                        })
                        .min_by_key(|&i| {
                            let suggested_left =
                                suggested.iter().filter(|&&j| j == i).count() > taken(&chosen, i);
                            (
                                !suggested_left,
                                std::cmp::Reverse(b.units[i].hp as usize - taken(&chosen, i)),
                                b.units[i].id,
                            )
                        });
                    let Some(i) = best else {
                        return Err(format!(
                            "not that many {} can take hits here",
                            rules.unit(*kind).name
                        ));
                    };
                    chosen.push(i);
                }
            }
            Pick::All(kind) => {
                for (i, c) in b.units.iter().enumerate() {
                    if c.kind == *kind && c.side == side && c.status == Status::Fighting {
                        chosen.push(i);
                    }
                }
            }
        }
    }
    Ok(chosen)
}

/// A player's answer to the battle waiting: casualties, submerging, press or retreat.
pub fn answer(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    cmd: &super::command::Command,
    obs: &mut dyn Observer,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    use super::command::Command;
    let Some(mut b) = s.combat.clone() else {
        return Err(Rejection::new(
            "no battle is being fought; `fight` starts the next one",
        ));
    };
    let p = current_profiles(rules, s);
    let mut log = Log {
        rules,
        lines: Vec::new(),
        inner: obs,
    };
    let res = match (cmd, b.waiting.clone()) {
        (Command::Casualties(picks), Some(Need::Casualties(call))) => if picks.is_empty() {
            b.choose_casualties(&p, None, &mut log)
        } else {
            picks_to_units(rules, &b, call.side, picks, &call.suggested)
                .and_then(|chosen| b.choose_casualties(&p, Some(&chosen), &mut log))
        }
        .map_err(|e| reject(RULE_CASUALTIES, e)),
        (Command::Submerge(picks), Some(Need::Submerge { side })) => {
            let chosen = if picks.is_empty() {
                Ok(Vec::new())
            } else {
                picks_to_units(rules, &b, side, picks, &[])
            };
            chosen
                .and_then(|c| b.submerge(&p, side, &c, &mut log))
                .map_err(Rejection::new)
        }
        (Command::Press, Some(Need::PressOrRetreat)) => b.press().map_err(Rejection::new),
        (Command::Disagree, Some(Need::Casualties(_))) => b
            .dispute()
            .map(|_| {
                log.lines.push(format!(
                    "the defenders disagree: {} chooses their casualties",
                    rules.power_info(b.attacker).name
                ))
            })
            .map_err(|e| reject(RULE_CASUALTIES, e)),
        (Command::Retreat(to), Some(Need::PressOrRetreat)) => {
            b.retreat(&p, *to, &mut log).map_err(|e| reject(RULE_RETREAT, e))
        }
        (Command::Roll(_), Some(Need::Dice { .. })) => Ok(()),
        (_, Some(need)) => Err(Rejection::new(format!(
            "the battle in {} is waiting for something else: {}",
            rules.board.space(b.space).name,
            need_text(rules, &b, &need)
        ))),
        (_, None) => Err(Rejection::new("the battle is not waiting for an answer")),
    };
    out.append(&mut log.lines);
    res?;
    let _ = power;
    s.combat = Some(b);
    drive(rules, &p, s, power, obs, out)
}

/// Count units of a side by type, for the log: "2 infantry, 1 tank".
fn summary(rules: &RuleSet, units: impl Iterator<Item = crate::rules::UnitTypeId>) -> String {
    let mut counts: Vec<(crate::rules::UnitTypeId, u32)> = Vec::new();
    for k in units {
        match counts.iter_mut().find(|(c, _)| *c == k) {
            Some((_, n)) => *n += 1,
            None => counts.push((k, 1)),
        }
    }
    counts.sort();
    if counts.is_empty() {
        return "nothing".into();
    }
    counts
        .iter()
        .map(|(k, n)| format!("{n} {}", rules.unit(*k).name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Casualties as the owner would read them: a unit taking more than one hit is named once,
/// with its hits (`1 Battleship (2 hits)`).
fn hits_summary(rules: &RuleSet, b: &Battle, chosen: &[usize]) -> String {
    let mut per_unit: Vec<(usize, u32)> = Vec::new();
    for &i in chosen {
        match per_unit.iter_mut().find(|(u, _)| *u == i) {
            Some((_, n)) => *n += 1,
            None => per_unit.push((i, 1)),
        }
    }
    let mut groups: Vec<(crate::rules::UnitTypeId, u32, u32)> = Vec::new();
    for (i, hits) in per_unit {
        let k = b.units[i].kind;
        match groups.iter_mut().find(|(g, h, _)| *g == k && *h == hits) {
            Some((_, _, n)) => *n += 1,
            None => groups.push((k, hits, 1)),
        }
    }
    groups.sort();
    groups
        .iter()
        .map(|(k, hits, n)| {
            let name = &rules.unit(*k).name;
            if *hits > 1 {
                let each = if *n > 1 { " each" } else { "" };
                format!("{n} {name} ({hits} hits{each})")
            } else {
                format!("{n} {name}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe_setup(rules: &RuleSet, s: &State, b: &Battle, out: &mut Vec<String>) {
    let name = &rules.board.space(b.space).name;
    let defenders = b.powers(Side::Defender, false);
    let dnames: Vec<&str> = defenders
        .iter()
        .map(|p| rules.power_info(*p).name.as_str())
        .collect();
    let defense = if dnames.is_empty() {
        "nobody defends it".to_string()
    } else {
        format!(
            "{} defend{} with {}",
            dnames.join(" and "),
            if dnames.len() == 1 { "s" } else { "" },
            summary(
                rules,
                b.units
                    .iter()
                    .filter(|c| c.side == Side::Defender)
                    .map(|c| c.kind)
            )
        )
    };
    out.push(format!(
        "battle in {name}: {} attacks with {}; {defense}",
        rules.power_info(b.attacker).name,
        summary(
            rules,
            b.units
                .iter()
                .filter(|c| c.side == Side::Attacker)
                .map(|c| c.kind)
        ),
    ));
    if !b.bombarding.is_empty() {
        out.push(format!(
            "bombarding from the sea: {}",
            summary(rules, b.bombarding.iter().map(|c| c.kind))
        ));
    }
    let _ = s;
}

fn need_text(rules: &RuleSet, b: &Battle, need: &Need) -> String {
    match need {
        Need::Dice { count, step } => format!(
            "roll {count} dice for {} and type the faces: `roll F F ...`",
            rules.combat.step_name(*step).replace('_', " ")
        ),
        Need::Casualties(call) => {
            let hits: u32 = call.hits.iter().map(|h| h.count).sum();
            let owners = b.powers(call.side, true);
            let chooser = if call.chooser == Side::Attacker && call.side == Side::Defender {
                format!("{} chooses for the defenders", rules.power_info(b.attacker).name)
            } else if owners.len() > 1 {
                "the defenders choose together (`disagree` lets the attacker choose)".to_string()
            } else {
                format!(
                    "{} chooses",
                    owners.first().map_or("", |p| rules.power_info(*p).name.as_str())
                )
            };
            format!(
                "the {} takes {hits} hit{} ({} can be taken), {chooser}: suggested {}; `casualties` accepts, or `casualties UNITS` (e.g. `casualties 2 infantry` or `#12`)",
                call.side.name(),
                if hits == 1 { "" } else { "s" },
                call.suggested.len(),
                hits_summary(rules, b, &call.suggested),
            )
        }
        Need::Submerge { side } => format!(
            "the {}'s submarines may submerge before the dice: `submerge UNITS` or `submerge none`",
            side.name()
        ),
        Need::PressOrRetreat => {
            let to: Vec<&str> = b
                .retreat_to
                .iter()
                .map(|s| rules.board.space(*s).name.as_str())
                .collect();
            // Only aircraft left to retreat (the land units that came overland are gone, the
            // seaborne ones and those dropped with nowhere to go cannot): no space to name.
            let walkers = b
                .alive(Side::Attacker)
                .any(|(_, u)| !u.held() && rules.unit(u.kind).domain != crate::rules::Domain::Air);
            if to.is_empty() || !walkers {
                "the attacker may `press` on, or `retreat` (aircraft only: they stay and land in noncombat move)".into()
            } else {
                format!(
                    "the attacker may `press` on, or `retreat to SPACE` ({})",
                    to.join(", ")
                )
            }
        }
    }
}

fn describe_need(rules: &RuleSet, b: &Battle) -> String {
    match &b.waiting {
        Some(n) => format!(
            "battle in {}, round {}: {}",
            rules.board.space(b.space).name,
            b.round,
            need_text(rules, b, n)
        ),
        None => String::new(),
    }
}

/// Renders reports as log lines and passes everything on to the game's observer.
struct Log<'a, 'o> {
    rules: &'a RuleSet,
    lines: Vec<String>,
    inner: &'o mut dyn Observer,
}

impl Observer for Log<'_, '_> {
    fn before_step(&mut self, b: &Battle, step: Step) -> Gate {
        self.inner.before_step(b, step)
    }
    fn changes(&mut self) -> Vec<crate::combat::ValueChange> {
        self.inner.changes()
    }
    fn actions(&mut self) -> Vec<crate::combat::ScriptAction> {
        self.inner.actions()
    }
    fn unit_values(&mut self) -> Vec<crate::combat::UnitValue> {
        self.inner.unit_values()
    }
    fn removals(&mut self) -> Vec<u32> {
        self.inner.removals()
    }
    fn after_step(&mut self, b: &Battle, step: Step) {
        self.inner.after_step(b, step)
    }
    fn report(&mut self, b: &Battle, r: &Report) {
        let rules = self.rules;
        let who = |side: Side| match side {
            Side::Attacker => rules.power_info(b.attacker).name.clone(),
            Side::Defender => match b.powers(side, false).as_slice() {
                [one] => rules.power_info(*one).name.clone(),
                // One subject, for "loses" and "rolls".
                _ => "the defending side".to_string(),
            },
        };
        let line = match r {
            Report::Rolled {
                side,
                step,
                groups,
                hits,
            } => {
                let g: Vec<String> = groups
                    .iter()
                    .map(|(v, f)| {
                        let faces: Vec<String> = f.iter().map(u8::to_string).collect();
                        format!("@{v} [{}]", faces.join(" "))
                    })
                    .collect();
                format!(
                    "round {}, {}: {} rolls {} → {hits} hit{}",
                    b.round,
                    rules.combat.step_name(*step).replace('_', " "),
                    who(*side),
                    g.join(" "),
                    if *hits == 1 { "" } else { "s" }
                )
            }
            Report::Casualties { side, units, .. } => {
                let lost = summary(
                    rules,
                    units
                        .iter()
                        .filter(|&&i| b.units[i].hp == 0)
                        .map(|&i| b.units[i].kind),
                );
                let damaged = summary(
                    rules,
                    units
                        .iter()
                        .filter(|&&i| b.units[i].hp > 0)
                        .map(|&i| b.units[i].kind),
                );
                let mut t = format!("{} loses {lost}", who(*side));
                if units.iter().all(|&i| b.units[i].hp > 0) {
                    t = format!("{}: {damaged} damaged", who(*side));
                } else if units.iter().any(|&i| b.units[i].hp > 0) {
                    t.push_str(&format!("; {damaged} damaged"));
                }
                t
            }
            Report::Defenseless { side, units } => format!(
                "{}'s defenseless {} destroyed",
                who(*side),
                summary(rules, units.iter().map(|&i| b.units[i].kind))
            ),
            Report::Submerged { side, units } => format!(
                "{} submerges {}",
                who(*side),
                summary(rules, units.iter().map(|&i| b.units[i].kind))
            ),
            Report::Retreat { to, units } => format!(
                "{} retreats {}{}",
                who(Side::Attacker),
                summary(rules, units.iter().map(|&i| b.units[i].kind)),
                to.map(|t| format!(" to {}", rules.board.space(t).name))
                    .unwrap_or_default()
            ),
            Report::Skipped { step } => {
                format!("{} skipped", rules.combat.step_name(*step).replace('_', " "))
            }
            Report::Over(_) => String::new(),
        };
        if !line.is_empty() {
            self.lines.push(line);
        }
        self.inner.report(b, r);
    }
}

/// Faces typed at the table: queued for the next rolls, and a battle waiting for dice goes on.
pub fn roll(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    faces: &[u8],
    obs: &mut dyn Observer,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    s.dice_queue.extend_from_slice(faces);
    let waiting = s
        .combat
        .as_ref()
        .and_then(|b| b.waiting.clone())
        .and_then(|n| match n {
            Need::Dice { count, .. } => Some(count),
            _ => None,
        });
    match waiting {
        Some(count) if (s.dice_queue.len() as u32) < count => {
            out.push(format!(
                "{} of {count} faces typed; type the rest",
                s.dice_queue.len()
            ));
            Ok(())
        }
        Some(_) => {
            if let Some(b) = &mut s.combat {
                b.waiting = None;
            }
            let p = current_profiles(rules, s);
            drive(rules, &p, s, power, obs, out)
        }
        None => {
            out.push(format!(
                "{} face(s) queued for the next rolls",
                s.dice_queue.len()
            ));
            Ok(())
        }
    }
}

pub const RULE_ROCKET: &str = "rocket-attack";

/// `rocket from A at B`: a unit able to (`rocket`, which a tech may give) attacks an enemy
/// facility within its range, once per turn, in the bombing-raid step of conduct combat (before
/// any other battle is fought). Its dice of damage add to the facility's, up to its cap.
/// What launches a rocket: a unit (by id) or the facility of the territory it is fired from.
enum Launcher {
    Unit(u32),
    Facility,
}

/// An operative facility of the power's in `from` whose rocket (a tech's) has not fired this
/// turn: its name and rocket.
fn facility_launcher(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
) -> Option<(Launcher, String, crate::rules::Rocket)> {
    let held = s
        .space(from)
        .controller
        .is_some_and(|c| rules.same_power(c, power));
    if !held || s.this_turn.facility_rockets.0.contains(&from) {
        return None;
    }
    let techs = &s.techs[rules.relation_holder(power).index()];
    s.space(from).facilities.iter().find_map(|f| {
        let ft = &rules.facilities[f.kind.index()];
        let r = rules.facility_rocket(f.kind, techs)?;
        ft.operative(f.damage)
            .then(|| (Launcher::Facility, ft.name.clone(), r))
    })
}

/// `(from, target, facility)`: where the rocket flies from, the territory it strikes, and the
/// facility there it strikes (`None`: the first that can be damaged).
pub fn rocket(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    phase: crate::rules::PhaseKind,
    (from, target, chosen): (SpaceId, SpaceId, Option<crate::rules::FacilityTypeId>),
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    if phase != crate::rules::PhaseKind::ConductCombat {
        return Err(reject(
            RULE_ROCKET,
            "rockets are fired in conduct combat, with the bombing raids",
        ));
    }
    if s.combat.is_some() || s.this_turn.battles.iter().any(|b| b.fought) {
        return Err(reject(
            RULE_ROCKET,
            "rockets are fired in the strategic bombing raid step, before the other battles",
        ));
    }
    let techs = &s.techs[power.index()];
    let launcher = s
        .space(from)
        .units
        .iter()
        .filter(|u| u.owner == power && !s.this_turn.rockets_fired.contains(&u.id))
        .find_map(|u| {
            rules
                .unit_for(u.kind, techs)
                .rocket
                .map(|r| (Launcher::Unit(u.id), rules.unit(u.kind).name.clone(), r))
        })
        .or_else(|| facility_launcher(rules, s, power, from));
    let from_name = rules.board.space(from).name.clone();
    let Some((launched, kind_name, r)) = launcher else {
        return Err(reject(
            RULE_ROCKET,
            format!("{from_name} has no unit of yours that can still make a rocket attack this turn, nor a facility that can"),
        ));
    };
    let ipc = rules.board.space(target).ipc;
    let to_name = rules.board.space(target).name.clone();
    let enemy = s.space(target).controller.is_some_and(|c| at_war(s, power, c));
    let facility = s.spaces[target.index()].facilities.iter().position(|f| {
        rules.facilities[f.kind.index()].max_damage.resolve(ipc) > 0 && chosen.is_none_or(|c| f.kind == c)
    });
    let (true, Some(fi)) = (enemy, facility) else {
        return Err(reject(
            RULE_ROCKET,
            format!("{to_name} has no enemy facility a rocket can damage"),
        ));
    };
    // Spaces apart, counted over the board's adjacencies (never through a neutral territory
    // for a rocket that may not fly over one).
    let mut dist = vec![u32::MAX; rules.board.spaces.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    dist[from.index()] = 0;
    while let Some(x) = queue.pop_front() {
        if x != from && !r.over_neutrals && super::neutrals::standing(rules, s, x).is_some() {
            continue;
        }
        for &y in &rules.board.space(x).adjacent {
            if dist[y.index()] == u32::MAX {
                dist[y.index()] = dist[x.index()] + 1;
                queue.push_back(y);
            }
        }
    }
    if dist[target.index()] > r.range {
        return Err(reject(
            RULE_ROCKET,
            format!(
                "{to_name} is beyond the rocket's range of {} spaces from {from_name}{}",
                r.range,
                if r.over_neutrals {
                    ""
                } else {
                    " (it flies over no neutral territory)"
                }
            ),
        ));
    }
    let Some(faces) = s.roll_table(r.dice as usize) else {
        return Err(reject(
            RULE_DICE,
            format!(
                "type the {} face(s) of the rocket first (`roll F`), then the rocket command again",
                r.dice
            ),
        ));
    };
    let rolled: u32 = faces.iter().map(|f| u32::from(*f)).sum();
    let f = &mut s.space_mut(target).facilities[fi];
    let cap = rules.facilities[f.kind.index()].max_damage.resolve(ipc);
    let applied = rolled.min(cap.saturating_sub(f.damage));
    f.damage += applied;
    let now = f.damage;
    match launched {
        Launcher::Unit(id) => s.this_turn.rockets_fired.push(id),
        Launcher::Facility => s.this_turn.facility_rockets.0.push(from),
    }
    let shown: Vec<String> = faces.iter().map(u8::to_string).collect();
    out.push(format!(
        "a rocket from the {kind_name} in {from_name} strikes {to_name}: [{}] → {applied} damage (now {now} of at most {cap})",
        shown.join(" ")
    ));
    Ok(())
}

/// The battle announced in `space` as it would start now, for the calculator: the units on
/// the board, cargo coming ashore, bombarding ships, retreat spaces and each side's order of
/// loss and techs, exactly as `fight` would set it up. For the battle being fought, once the
/// attacker is deciding whether to press on: its survivors, from the next round.
pub fn odds_question(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    space: SpaceId,
) -> Result<crate::odds::Question, String> {
    let name = &rules.board.space(space).name;
    if let Some(b) = s.combat.as_ref().filter(|b| b.space == space) {
        // Between rounds, the question is whether to press on: the survivors as they stand.
        let p = profiles(rules, s, b.attacker, space);
        return match b.pressed_on(&p) {
            Some(battle) => Ok(crate::odds::Question {
                profiles: p,
                battle,
                retreat: crate::odds::RetreatPolicy::default(),
                scripts: None,
                cargo: Vec::new(),
            }),
            None => Err(format!(
                "the battle in {name} is in the middle of a round; odds are for a battle not \
                 begun, or when the attacker decides whether to press on or retreat"
            )),
        };
    }
    if s.this_turn.raids.iter().any(|(r, _)| *r == space) {
        return Err(format!("{name} is a bombing raid, not a battle"));
    }
    let Some(announced) = s.this_turn.battle(space) else {
        return Err(format!(
            "no battle was announced in {name} this turn (`battles` lists them)"
        ));
    };
    if announced.fought {
        return Err(format!("the battle in {name} has been fought"));
    }
    // Cargo comes ashore when the battle begins; it is moved on a copy of the board.
    let mut board = s.clone();
    movement::land_assault_cargo(rules, &mut board, power, space, &mut Vec::new());
    let p = profiles(rules, &board, power, space);
    let battle = setup(rules, &p, &board, power, space);
    // At sea, defending aircraft left out of the battle are held on a damaged carrier.
    let mut cargo: Vec<(crate::rules::UnitTypeId, u32)> = Vec::new();
    if battle.sea {
        for u in board.space(space).units.iter().filter(|u| {
            u.owner != power
                && at_war(&board, power, u.owner)
                && rules.unit(u.kind).domain == Domain::Air
                && !battle.units.iter().any(|c| c.id == u.id)
        }) {
            match cargo.iter_mut().find(|(k, _)| *k == u.kind) {
                Some((_, n)) => *n += 1,
                None => cargo.push((u.kind, 1)),
            }
        }
    }
    Ok(crate::odds::Question {
        profiles: p,
        battle,
        retreat: crate::odds::RetreatPolicy::default(),
        scripts: None,
        cargo,
    })
}
