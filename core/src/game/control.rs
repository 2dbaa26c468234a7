//! Who holds what: capturing and liberating territories, capitals, income and victory.

use super::state::State;
use super::Rejection;
use crate::rules::{
    FacilityCapture, OnCapture, PhaseKind, PowerId, RuleSet, Scenario, SpaceId, VictoryCheck,
};
use std::sync::Arc;

pub fn capital_of(rules: &RuleSet, power: PowerId) -> Option<SpaceId> {
    rules.board.ids().find(|id| {
        let s = rules.board.space(*id);
        s.capital && s.owner == Some(power)
    })
}

/// Whether the power's capital is in its side's hands (a power with no capital on the board is
/// never "without its capital").
pub fn holds_capital(rules: &RuleSet, state: &State, power: PowerId) -> bool {
    match capital_of(rules, power) {
        None => true,
        Some(c) => state
            .space(c)
            .controller
            .is_some_and(|p| rules.power_info(p).side == rules.power_info(power).side),
    }
}

/// Whether one of the power's economies (the power itself, or a second economy it has) still
/// holds its capital: a power skips the phases a lost capital skips only when all are lost.
pub fn holds_a_capital(rules: &RuleSet, state: &State, power: PowerId) -> bool {
    rules
        .economies(power)
        .into_iter()
        .any(|p| holds_capital(rules, state, p))
}

/// Income the power would collect now: its territories' values, nothing while an enemy holds
/// its capital ("If your capital is under an enemy power's control, you cannot collect
/// income"), and nothing for a power whose turn has no collect-income phase
/// (`[turn.power_phases]`): it never collects.
pub fn income(rules: &RuleSet, state: &State, power: PowerId) -> i64 {
    if !holds_capital(rules, state, power) || !rules.has_phase(power, PhaseKind::CollectIncome) {
        return 0;
    }
    rules
        .board
        .ids()
        .filter(|id| state.space(*id).controller == Some(power))
        .map(|id| i64::from(rules.board.space(id).ipc))
        .sum()
}

/// Every economy of the power collects its own income, convoy losses counted apart (the
/// power's own first, then its second economies).
pub fn collect_incomes(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    out: &mut Vec<String>,
) -> Result<(), super::Rejection> {
    for p in rules.economies(power) {
        collect_income(rules, s, p, out)?;
    }
    Ok(())
}

fn collect_income(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    out: &mut Vec<String>,
) -> Result<(), super::Rejection> {
    let gross = income(rules, s, power);
    // Nothing to lose (a capital in enemy hands): no convoy dice are rolled.
    let lost = if gross > 0 {
        super::convoy::losses(rules, s, power, out)?
    } else {
        0
    };
    let income = (gross - lost).max(0);
    Arc::make_mut(&mut s.treasuries)[power.index()] += income;
    if lost > 0 {
        out.push(format!(
            "{} collects {income} IPCs ({gross} less {lost} in convoy losses)",
            rules.power_info(power).name
        ));
    } else {
        out.push(format!("{} collects {income} IPCs", rules.power_info(power).name));
    }
    Ok(())
}

fn same_side(rules: &RuleSet, a: PowerId, b: PowerId) -> bool {
    rules.power_info(a).side == rules.power_info(b).side
}

fn name(rules: &RuleSet, p: PowerId) -> &str {
    &rules.power_info(p).name
}

/// `power` takes the territory from the enemy (its land units won there).
///
/// - "Original" owner means the owner printed on the board (`Space.owner`): a scenario's
///   `control` overlay is a marker put on top of the printed symbol, not a new
///   original owner.
/// - Liberation: a territory originally owned by another power of the capturer's side goes back
///   to that power, unless that power's capital is in enemy hands; then the capturer keeps it.
///   The rulebooks test the capital "at the end of the turn"; it is tested now, which is the
///   same thing: during the capturer's turn only its side captures, so the capital cannot fall,
///   and if the capital is liberated later in the turn, the capital's liberation hands back every
///   original territory friendly powers hold, this one included.
/// - The capital of an enemy: the capturer takes all unspent IPCs of the capital's original
///   owner. Liberating a capital takes nothing, and hands the owner's other original
///   territories held by friendly powers back to it. (One rulebook says "from the original owner
///   only, not subsequent controllers", another "the original controller". They never differ:
///   a capital retaken by its side always returns to its owner, so an enemy capital is only
///   ever captured from its original owner, and no `[rules]` switch is needed.)
/// - Units of the losing side left in the territory: `on_capture = "capture"` ones change
///   hands (to whoever now holds the territory) and are marked captured; others are destroyed.
///   Facilities follow the territory's controller; taken from the enemy, their `on_capture`
///   applies (destroy, downgrade).
pub fn capture(rules: &RuleSet, s: &mut State, space: SpaceId, power: PowerId, out: &mut Vec<String>) {
    let info = rules.board.space(space);
    let from_enemy = s
        .space(space)
        .controller
        .is_some_and(|p| !same_side(rules, p, power));
    let holder = take_control(rules, s, space, power, out);
    // A former neutral held by a power is a territory like any other.
    s.neutrals.remove(space);
    units_left_behind(rules, s, space, power, holder, out);
    if from_enemy {
        facilities_change_hands(rules, s, space, holder, out);
    }
    if info.capital && from_enemy {
        if let Some(o) = info.owner {
            if !same_side(rules, o, power) {
                // To the economy the capital falls under (its power's other economy, if that
                // is where it lies), whoever holds that economy's own capital.
                plunder(rules, s, o, rules.economy_for(power, space), out);
            } else {
                liberate_capital(rules, s, space, o, out);
            }
        }
    }
    if !s.this_turn.captured.contains(&space) {
        s.this_turn.captured.push(space);
    }
}

/// Who holds the territory now — the capturer, or the original owner it is liberated for —
/// said as it happens; the new holder.
fn take_control(
    rules: &RuleSet,
    s: &mut State,
    space: SpaceId,
    power: PowerId,
    out: &mut Vec<String>,
) -> PowerId {
    let info = rules.board.space(space);
    // A territory printed as one of the capturer's own economies is not liberated: it falls
    // under the economy it lies in, like any territory the power takes.
    let original = info
        .owner
        .filter(|o| !rules.same_power(*o, power) && same_side(rules, *o, power));
    // A territory the capturer may never control (`cannot_control`) goes to its original
    // owner, an ally (checked when the rules are built), whatever that ally's capital.
    let barred = rules.power_info(power).cannot_control.contains(&space);
    let taker = rules.economy_for(power, space);
    let holder = match original {
        Some(o) if barred => o,
        // Its own capital goes back to its owner whatever else holds.
        Some(o) if info.capital => o,
        // The economy of the ally the territory falls under must hold its capital.
        Some(o) if holds_capital(rules, s, rules.economy_for(o, space)) => rules.economy_for(o, space),
        _ => taker,
    };
    s.space_mut(space).controller = Some(holder);
    if barred && holder != power {
        out.push(format!(
            "{} takes {} for {}: {} may occupy it but never control it",
            name(rules, power),
            info.name,
            name(rules, holder),
            name(rules, power)
        ));
    } else if holder == taker && taker != power {
        out.push(format!(
            "{} captures {} (for {})",
            name(rules, power),
            info.name,
            name(rules, holder)
        ));
    } else if holder == power {
        match original {
            Some(o) => out.push(format!(
                "{} captures {} ({}'s capital is in enemy hands, so it is not liberated)",
                name(rules, power),
                info.name,
                name(rules, o)
            )),
            None => out.push(format!("{} captures {}", name(rules, power), info.name)),
        }
    } else {
        out.push(format!(
            "{} liberates {}: it returns to {}",
            name(rules, power),
            info.name,
            name(rules, holder)
        ));
    }
    holder
}

/// Units the losing side left behind: `on_capture = "capture"` ones change hands (marked
/// captured), the others are destroyed.
fn units_left_behind(
    rules: &RuleSet,
    s: &mut State,
    space: SpaceId,
    power: PowerId,
    holder: PowerId,
    out: &mut Vec<String>,
) {
    let info = rules.board.space(space);
    let mut taken = Vec::new();
    let mut destroyed = Vec::new();
    let sp = s.space_mut(space);
    sp.units.retain_mut(|u| {
        // Interceptors are in the air over it: they land one space away as Conduct Combat ends
        // (`scramble::fly_home`).
        if same_side(rules, u.owner, power) || u.marks.intercepting {
            return true;
        }
        let kind = rules.unit(u.kind);
        if kind.on_capture == OnCapture::Capture {
            // Units are the power's, never an economy's.
            u.owner = rules.relation_holder(holder);
            u.marks.captured = true;
            taken.push(kind.name.clone());
            true
        } else {
            destroyed.push(kind.name.clone());
            false
        }
    });
    for t in taken {
        out.push(format!(
            "{} takes over the {t} in {}",
            name(rules, holder),
            info.name
        ));
    }
    for d in destroyed {
        out.push(format!("the {d} left alone in {} is destroyed", info.name));
    }
}

/// Facilities taken from the enemy follow the territory, as their `on_capture` says
/// (change hands, destroyed, downgraded).
fn facilities_change_hands(
    rules: &RuleSet,
    s: &mut State,
    space: SpaceId,
    holder: PowerId,
    out: &mut Vec<String>,
) {
    let info = rules.board.space(space);
    let facilities = &mut s.space_mut(space).facilities;
    facilities.retain_mut(|f| {
        let ft = &rules.facilities[f.kind.index()];
        match &ft.on_capture {
            FacilityCapture::Capture => {
                out.push(format!(
                    "the {} in {} now belongs to {}",
                    ft.name,
                    info.name,
                    name(rules, holder)
                ));
                true
            }
            FacilityCapture::Destroy => {
                out.push(format!("the {} in {} is destroyed", ft.name, info.name));
                false
            }
            FacilityCapture::Downgrade(to) => {
                let nt = &rules.facilities[to.index()];
                out.push(format!(
                    "the {} in {} becomes a {} of {}",
                    ft.name,
                    info.name,
                    nt.name,
                    name(rules, holder)
                ));
                f.kind = *to;
                f.damage = f.damage.min(nt.max_damage.resolve(info.ipc));
                true
            }
        }
    });
}

/// The capturer of an enemy capital takes its original owner's unspent IPCs (even if the
/// capturer's own capital is enemy-held).
fn plunder(rules: &RuleSet, s: &mut State, owner: PowerId, capturer: PowerId, out: &mut Vec<String>) {
    let ipcs = std::mem::take(&mut Arc::make_mut(&mut s.treasuries)[owner.index()]);
    Arc::make_mut(&mut s.treasuries)[capturer.index()] += ipcs;
    out.push(format!(
        "{} takes {ipcs} IPCs from {}'s treasury",
        name(rules, capturer),
        name(rules, owner)
    ));
}

/// The owner's other original territories held by friendly powers go back to it, with their
/// facilities; units (AA guns) outside the capital keep their owners.
fn liberate_capital(rules: &RuleSet, s: &mut State, capital: SpaceId, owner: PowerId, out: &mut Vec<String>) {
    out.push(format!(
        "{}'s capital {} is liberated",
        name(rules, owner),
        rules.board.space(capital).name
    ));
    for id in rules.board.ids() {
        let info = rules.board.space(id);
        let held = s.space(id).controller;
        if id == capital || info.owner != Some(owner) {
            continue;
        }
        if let Some(h) = held.filter(|h| !rules.same_power(*h, owner) && same_side(rules, *h, owner)) {
            s.space_mut(id).controller = Some(rules.economy_for(owner, id));
            out.push(format!(
                "{} returns from {} to {}",
                info.name,
                name(rules, h),
                name(rules, owner)
            ));
        }
    }
}

fn at_war(s: &State, a: PowerId, b: PowerId) -> bool {
    s.relations[a.index()][b.index()] == super::state::Relation::War
}

/// An enemy unit that must be beaten before its space is taken. On land, units that are
/// captured with the territory (AA guns) or have no combat value do not hold it.
fn defends(rules: &RuleSet, s: &State, power: PowerId, u: &super::state::Unit, land: bool) -> bool {
    let kind = rules.unit(u.kind);
    at_war(s, power, u.owner) && !(land && (kind.on_capture == OnCapture::Capture || kind.defenseless))
}

/// End of conduct combat: every announced battle must be over. Territories the attacker
/// entered that have no defenders left are captured by its land units; amphibious cargo
/// waiting on a cleared sea zone comes ashore first.
pub fn conclude_battles(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    let battles: Vec<_> = s
        .this_turn
        .battles
        .iter()
        .filter(|b| !b.fought)
        .cloned()
        .collect();
    for b in &battles {
        let land = !rules.board.space(b.space).is_sea();
        let defenders = s
            .space(b.space)
            .units
            .iter()
            .any(|u| defends(rules, s, power, u, land));
        // Cargo waiting aboard attacks only if its sea zone was cleared: otherwise the landing
        // is prevented (scrambled aircraft nothing could destroy, 000 · Multinational Forces).
        let attackers = s.space(b.space).units.iter().any(|u| u.owner == power)
            || rules.board.ids().any(|z| {
                s.space(z)
                    .units
                    .iter()
                    .any(|u| u.owner == power && u.marks.assault == Some(b.space))
                    && super::movement::zone_cleared(rules, s, power, z)
            });
        if defenders && attackers {
            return Err(Rejection::new(format!(
                "the battle in {} has not been fought: `fight {}`",
                rules.board.space(b.space).name,
                rules.board.space(b.space).name
            ))
            .by("conduct-combat-all-battles"));
        }
    }
    for b in &battles {
        super::movement::land_assault_cargo(rules, s, power, b.space, out);
        let space = rules.board.space(b.space);
        if space.is_sea() {
            continue;
        }
        let sp = s.space(b.space);
        let defenders = sp.units.iter().any(|u| defends(rules, s, power, u, true));
        let capturer = sp
            .units
            .iter()
            .any(|u| u.owner == power && rules.unit(u.kind).can_capture);
        let hostile = sp.controller.is_some_and(|c| at_war(s, power, c))
            || super::neutrals::joined_against(rules, s, power, b.space);
        if !defenders && capturer && hostile {
            capture(rules, s, b.space, power, out);
        }
    }
    for i in 0..s.spaces.len() {
        // Spaces with nothing to change stay shared with the state before the command.
        if s.spaces[i]
            .units
            .iter()
            .any(|u| u.owner == power && u.marks.assault.is_some())
        {
            for u in s.spaces.edit(i).units.iter_mut().filter(|u| u.owner == power) {
                u.marks.assault = None;
            }
        }
    }
    s.this_turn.battles.clear();
    Ok(())
}

/// Checked after each power's turn ends (`power` is the one whose turn just ended, still at
/// `s.turn`): the first `[victory]` condition due now and met names the winning side.
pub fn check_victory(rules: &RuleSet, sc: &Scenario, s: &mut State, power: PowerId, out: &mut Vec<String>) {
    if s.winner.is_some() {
        return;
    }
    let end_of_round = s.turn + 1 == sc.turn_order.len();
    for c in &rules.victory {
        let due = match c.check {
            VictoryCheck::AfterTurnOf(p) => p == power,
            VictoryCheck::EndOfRound => end_of_round,
        };
        if !due {
            continue;
        }
        let held: Vec<SpaceId> = c
            .spaces
            .iter()
            .copied()
            .filter(|id| {
                s.space(*id)
                    .controller
                    .is_some_and(|p| rules.power_info(p).side == c.side)
            })
            .collect();
        if held.len() < c.count as usize {
            continue;
        }
        let names: Vec<&str> = held
            .iter()
            .map(|id| {
                let sp = rules.board.space(*id);
                sp.victory_city.as_deref().unwrap_or(&sp.name)
            })
            .collect();
        let when = match c.check {
            VictoryCheck::AfterTurnOf(p) => format!("the end of {}'s turn", name(rules, p)),
            VictoryCheck::EndOfRound => format!("the end of round {}", s.round),
        };
        out.push(format!(
            "{} win: they hold {} ({} of {}, {} needed) at {when} [victory.{}]",
            c.side,
            names.join(", "),
            held.len(),
            c.spaces.len(),
            c.count,
            c.id
        ));
        s.winner = Some(c.side.clone());
        return;
    }
}
