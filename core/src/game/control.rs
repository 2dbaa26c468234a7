//! Who holds what: capturing and liberating territories, capitals, income and victory.

use super::state::State;
use super::Rejection;
use crate::rules::{PowerId, RuleSet, Scenario, SpaceId};

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

/// Income the power would collect now: its territories' values, nothing while an enemy holds
/// its capital.
pub fn income(rules: &RuleSet, state: &State, power: PowerId) -> i64 {
    if let Some(c) = capital_of(rules, power) {
        if state.space(c).controller != Some(power) {
            return 0;
        }
    }
    rules
        .board
        .ids()
        .filter(|id| state.space(*id).controller == Some(power))
        .map(|id| i64::from(rules.board.space(id).ipc))
        .sum()
}

pub fn collect_income(rules: &RuleSet, s: &mut State, power: PowerId, out: &mut Vec<String>) {
    let income = income(rules, s, power);
    s.treasuries[power.index()] += income;
    out.push(format!("{} collects {income} IPCs", rules.power_info(power).name));
}

/// `power` takes the territory: control changes, facilities and capturable units change hands.
pub fn capture(rules: &RuleSet, s: &mut State, space: SpaceId, power: PowerId, out: &mut Vec<String>) {
    let sp = &mut s.spaces[space.index()];
    sp.controller = Some(power);
    for u in &mut sp.units {
        if u.owner != power && rules.unit(u.kind).on_capture == crate::rules::OnCapture::Capture {
            u.owner = power;
            u.marks.captured = true;
        }
    }
    if !s.this_turn.captured.contains(&space) {
        s.this_turn.captured.push(space);
    }
    out.push(format!(
        "{} captures {}",
        rules.power_info(power).name,
        rules.board.space(space).name
    ));
}

fn at_war(s: &State, a: PowerId, b: PowerId) -> bool {
    s.relations[a.index()][b.index()] == super::state::Relation::War
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
    let battles = s.this_turn.battles.clone();
    for b in &battles {
        let defenders = s.space(b.space).units.iter().any(|u| at_war(s, power, u.owner));
        let attackers = s.space(b.space).units.iter().any(|u| u.owner == power)
            || s.spaces.iter().any(|sp| {
                sp.units
                    .iter()
                    .any(|u| u.owner == power && u.marks.assault == Some(b.space))
            });
        if defenders && attackers {
            return Err(Rejection::new(format!(
                "the battle in {} has not been fought; resolve it (combat dice are not in the engine yet: \
                 `edit remove` the casualties) and end the phase again",
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
        let defenders = sp.units.iter().any(|u| at_war(s, power, u.owner));
        let capturer = sp
            .units
            .iter()
            .any(|u| u.owner == power && rules.unit(u.kind).can_capture);
        let hostile = sp.controller.is_some_and(|c| at_war(s, power, c));
        if !defenders && capturer && hostile {
            capture(rules, s, b.space, power, out);
        }
    }
    for sp in &mut s.spaces {
        for u in sp.units.iter_mut().filter(|u| u.owner == power) {
            u.marks.assault = None;
        }
    }
    s.this_turn.battles.clear();
    Ok(())
}

/// Checked after each power's turn ends.
pub fn check_victory(_rules: &RuleSet, _sc: &Scenario, _s: &mut State, _power: PowerId, _out: &mut [String]) {
}
