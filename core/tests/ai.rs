//! The computer opponent (`warroom_core::ai`): it plays whole games of every edition giving
//! only commands the game accepts, beats the random player of the soak, plays the same game
//! from the same seed, and changes its play with the rules loaded, not with code.

mod support;

use std::sync::Arc;
use warroom_core::ai::Ai;
use warroom_core::game::command::Command;
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, Piece, RuleSet};
use warroom_core::selfplay::{play, Brain, Ended};
use warroom_core::soak::GameSpec;

fn rules_for(edition: &str, with: &[String]) -> Arc<RuleSet> {
    let mut req = LoadRequest::new(support::editions(), edition);
    req.with = with.to_vec();
    Arc::new(rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems)))
}

fn spec(edition: &str, seed: u64, rounds: u32) -> GameSpec {
    GameSpec {
        edition: edition.to_string(),
        with: Vec::new(),
        scenario: None,
        seed,
        rounds,
    }
}

/// One game, the AI playing `side` (or every power, with `None`) and the random player the
/// rest, with every command's text.
fn game(rules: &Arc<RuleSet>, spec: &GameSpec, side: Option<&str>) -> (Ended, Vec<String>) {
    let mut told = Vec::new();
    let brain = |p| match side {
        Some(s) if rules.power_info(p).side != s => Brain::Random,
        _ => Brain::Ai,
    };
    let ended = play(rules, spec, &brain, &mut |_, t| told.push(t.text.clone()))
        .unwrap_or_else(|e| panic!("{} seed {}: {e}", spec.edition, spec.seed));
    (ended, told)
}

#[test]
fn the_ai_gives_only_commands_the_game_accepts_in_every_edition() {
    for edition in ["1941", "anniversary", "europe1940", "pacific1940", "global1940"] {
        let rules = rules_for(edition, &[]);
        // `play` fails if the game refuses a command the AI chose.
        let (ended, _) = game(&rules, &spec(edition, 7, 2), None);
        assert_eq!(
            ended.commands, ended.ai_commands,
            "{edition}: every power is the AI's"
        );
        assert!(ended.commands > 50, "{edition}: {ended:?}");
    }
}

#[test]
fn the_ai_beats_the_random_player_on_both_sides() {
    for (edition, games) in [("1941", 4), ("anniversary", 2)] {
        let rules = rules_for(edition, &[]);
        for side in ["Axis", "Allies"] {
            let won = (1..=games)
                .filter(|seed| {
                    let (ended, _) = game(&rules, &spec(edition, *seed, 40), Some(side));
                    ended.winner.as_deref() == Some(side)
                })
                .count();
            // The benchmark (`warroom selfplay --against random`) measures the rate; a game or
            // two lost here would be noise, losing most is a broken AI.
            assert!(
                won + 1 >= games as usize,
                "{edition} {side}: the AI won {won} of {games}"
            );
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let rules = rules_for("1941", &[]);
    let (a, told_a) = game(&rules, &spec("1941", 3, 3), Some("Allies"));
    let (b, told_b) = game(&rules, &spec("1941", 3, 3), Some("Allies"));
    assert_eq!(a, b);
    assert_eq!(told_a, told_b);
}

/// What the AI buys in `power`'s first purchase phase of a game (the powers before it ending
/// their phases without a move).
fn first_purchase(rules: &Arc<RuleSet>, edition: &str, with: &[String], power: &str) -> Vec<(String, u32)> {
    let mut g = Game::new(rules.clone(), edition, with, None, 1).unwrap();
    support::advance_to(&mut g, power, "purchase");
    let mut ai = Ai::new();
    let mut bought = Vec::new();
    while let Some(c) = ai.choose(&mut g) {
        match &c.command {
            Command::Buy {
                piece: Piece::Unit(k),
                count,
                ..
            } => bought.push((rules.unit(*k).id.clone(), *count)),
            Command::EndPhase => break,
            other => panic!("in the purchase phase the AI gave {other:?}"),
        }
        assert!(!c.reason.is_empty());
        g.apply(&c.command).unwrap();
    }
    bought
}

#[test]
fn a_house_rule_changes_what_the_ai_buys_without_ai_code() {
    const POWER: &str = "Japan";
    let tanks = |b: &[(String, u32)]| -> u32 { b.iter().filter(|(k, _)| k == "tank").map(|(_, n)| n).sum() };
    let plain = first_purchase(&rules_for("anniversary", &[]), "anniversary", &[], POWER);
    let layer = support::editions()
        .join("../tests/fixtures/house/tanks-attack-4")
        .display()
        .to_string();
    let with = vec![layer];
    let stronger = first_purchase(&rules_for("anniversary", &with), "anniversary", &with, POWER);
    assert!(!plain.is_empty(), "the AI buys something: {plain:?}");
    assert!(
        tanks(&stronger) > tanks(&plain),
        "tanks attacking at 4 are worth more: {plain:?} → {stronger:?}"
    );
}

/// The attacks the AI makes in Germany's first combat move, as (command, reason).
fn first_attacks(rules: &Arc<RuleSet>, with: &[String]) -> Vec<(String, String)> {
    let mut g = Game::new(rules.clone(), "1941", with, None, 1).unwrap();
    support::advance_to(&mut g, "Germany", "combat_move");
    let mut ai = Ai::new();
    let mut out = Vec::new();
    while let Some(c) = ai.choose(&mut g) {
        if c.command == Command::EndPhase {
            break;
        }
        out.push((c.command.to_text(rules), c.reason.clone()));
        g.apply(&c.command).unwrap();
    }
    out
}

#[test]
fn ai_weights_come_from_the_layers() {
    let rules = rules_for("1941", &[]);
    assert_eq!(rules.ai, warroom_core::rules::AiWeights::default());
    let bold = first_attacks(&rules, &[]);
    assert!(
        bold.iter().any(|(_, why)| !why.contains("100%")),
        "with the default odds some attack is less than sure: {bold:#?}"
    );
    // A layer that asks for certainty attacks nothing it might not take.
    let dir = std::env::temp_dir().join(format!("warroom-ai-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("layer.toml"),
        "[layer]\nname = \"careful\"\nkind = \"house\"\ntitle = \"t\"\nfiles = [\"ai.toml\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("ai.toml"),
        "[ai]\nattack_odds = 100\ncapital_odds = 100\n",
    )
    .unwrap();
    let with = vec![dir.display().to_string()];
    let careful = rules_for("1941", &with);
    assert_eq!(careful.ai.attack_odds, 100);
    assert_eq!(
        careful.ai.press_odds, rules.ai.press_odds,
        "fields not set keep their defaults"
    );
    let attacks = first_attacks(&careful, &with);
    std::fs::remove_dir_all(&dir).ok();
    assert!(attacks.len() < bold.len(), "{attacks:#?}");
    for (cmd, why) in &attacks {
        assert!(
            why.contains("100%"),
            "only sure attacks with attack_odds = 100: {cmd} ({why})"
        );
    }
}
