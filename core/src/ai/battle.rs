//! Fighting: battles are fought in the order the game offers them; casualties are the order
//! of loss the game suggests (cheapest first, as the rulebook's players do); the attacker
//! presses on while its odds of winning from where the battle stands reach `[ai] press_odds`
//! and retreats, where it may, when they fall below. Submarines submerge, where they may,
//! when their side's odds of winning from where the battle stands fall below `press_odds`
//! (they live to fight another day) and stay while the odds are good.

use super::Choice;
use crate::combat::{Need, Side, Status};
use crate::game::command::{Command, Pick};
use crate::game::Game;
use crate::rules::UnitTypeId;

/// The choices for the decision the battle waits for, best first.
pub(super) fn decide(game: &Game) -> Vec<Choice> {
    let Some(b) = &game.state().combat else {
        return Vec::new();
    };
    match &b.waiting {
        Some(Need::Casualties(_)) => vec![Choice::new(
            Command::Casualties(Vec::new()),
            "takes the casualties the order of loss suggests",
        )],
        Some(Need::Submerge { side }) => submerge(game, *side),
        Some(Need::PressOrRetreat) => press_or_retreat(game),
        _ => Vec::new(),
    }
}

fn press_or_retreat(game: &Game) -> Vec<Choice> {
    let Some(b) = &game.state().combat else {
        return Vec::new();
    };
    let rules = game.rules();
    let win = game.odds_question(b.space).ok().and_then(|q| super::odds(&q));
    let press = Choice::new(
        Command::Press,
        match &win {
            Some(o) => format!(
                "presses on: {:.0}% to win from here",
                o.attacker_wins.value * 100.0
            ),
            None => "presses on".to_owned(),
        },
    );
    let Some(o) = win else { return vec![press] };
    if o.attacker_wins.value * 100.0 >= f64::from(rules.ai.press_odds) {
        return vec![press];
    }
    let why = format!(
        "retreats: only {:.0}% to win from here (`[ai] press_odds` is {}%)",
        o.attacker_wins.value * 100.0,
        rules.ai.press_odds
    );
    let mut out: Vec<Choice> = b
        .retreat_to
        .iter()
        .map(|to| Choice::new(Command::Retreat(Some(*to)), why.clone()))
        .collect();
    out.push(press);
    out
}

fn submerge(game: &Game, side: Side) -> Vec<Choice> {
    let Some(b) = &game.state().combat else {
        return Vec::new();
    };
    let rules = game.rules();
    let stay = Choice::new(Command::Submerge(Vec::new()), "its submarines stay and fight");
    let Some(o) = game.battle_question().and_then(|q| super::sampled_odds(&q)) else {
        return vec![stay];
    };
    let win = match side {
        Side::Attacker => o.attacker_wins.value,
        Side::Defender => 1.0 - o.attacker_wins.value,
    };
    if win * 100.0 >= f64::from(rules.ai.press_odds) {
        return vec![Choice::new(
            Command::Submerge(Vec::new()),
            format!(
                "its submarines stay and fight: {:.0}% to win from here",
                win * 100.0
            ),
        )];
    }
    let mut subs: Vec<(UnitTypeId, u32)> = Vec::new();
    for c in b
        .units
        .iter()
        .filter(|c| c.side == side && c.status == Status::Fighting)
    {
        if rules.unit(c.kind).submerge {
            match subs.iter_mut().find(|k| k.0 == c.kind) {
                Some(k) => k.1 += 1,
                None => subs.push((c.kind, 1)),
            }
        }
    }
    let picks: Vec<Pick> = subs
        .into_iter()
        .map(|(kind, count)| Pick::Kind { kind, count })
        .collect();
    if picks.is_empty() {
        return vec![stay];
    }
    vec![
        Choice::new(
            Command::Submerge(picks),
            format!(
                "its submarines submerge: only {:.0}% to win from here (`[ai] press_odds` is {}%)",
                win * 100.0,
                rules.ai.press_odds
            ),
        ),
        stay,
    ]
}

/// The next battle of conduct combat.
pub(super) fn next_fight(game: &mut Game) -> Option<Choice> {
    let fight = Command::Fight(None);
    if game.dry_run(&fight).is_ok() {
        return Some(Choice::new(fight, "fights the next battle"));
    }
    None
}
