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
    const POWER: &str = "Germany";
    let tanks = |b: &[(String, u32)]| -> u32 { b.iter().filter(|(k, _)| k == "tank").map(|(_, n)| n).sum() };
    let plain = first_purchase(&rules_for("anniversary", &[]), "anniversary", &[], POWER);
    let dir = ai_layer("cheap-tanks", "[units.tank]\ncost = 4\n");
    let with = vec![dir.display().to_string()];
    let cheaper = first_purchase(&rules_for("anniversary", &with), "anniversary", &with, POWER);
    std::fs::remove_dir_all(&dir).ok();
    assert!(!plain.is_empty(), "the AI buys something: {plain:?}");
    assert!(
        tanks(&cheaper) > tanks(&plain),
        "tanks at 4 IPCs are worth more for the money: {plain:?} → {cheaper:?}"
    );
}

/// The commands the AI gives until it ends the phase, as (command, reason), each applied.
fn phase_choices(g: &mut Game) -> Vec<(String, String)> {
    let rules = g.rules().clone();
    let mut ai = Ai::new();
    let mut out = Vec::new();
    while let Some(c) = ai.choose(g) {
        if c.command == Command::EndPhase {
            break;
        }
        out.push((c.command.to_text(&rules), c.reason.clone()));
        g.apply(&c.command).unwrap();
    }
    out
}

/// The attacks the AI makes in Germany's first combat move, as (command, reason).
fn first_attacks(rules: &Arc<RuleSet>, with: &[String]) -> Vec<(String, String)> {
    attacks_after(rules, with, |_| {})
}

/// The same, after `setup` changed the board.
fn attacks_after(rules: &Arc<RuleSet>, with: &[String], setup: impl Fn(&mut Game)) -> Vec<(String, String)> {
    let mut g = Game::new(rules.clone(), "1941", with, None, 1).unwrap();
    support::advance_to(&mut g, "Germany", "combat_move");
    setup(&mut g);
    phase_choices(&mut g)
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

/// A house layer of one data file (`[ai]` settings, a unit's values), written to a fresh
/// folder (removed by the caller).
fn ai_layer(name: &str, toml: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("warroom-ai-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("layer.toml"),
        format!("[layer]\nname = \"{name}\"\nkind = \"house\"\ntitle = \"t\"\nfiles = [\"ai.toml\"]\n"),
    )
    .unwrap();
    std::fs::write(dir.join("ai.toml"), toml).unwrap();
    dir
}

#[test]
fn a_conquest_the_enemy_can_retake_weighs_against_the_attack() {
    let rules = rules_for("1941", &[]);
    let caucasus =
        |attacks: &[(String, String)]| attacks.iter().filter(|(c, _)| c.ends_with("to Caucasus")).count();
    let open = first_attacks(&rules, &[]);
    assert!(caucasus(&open) > 0, "Germany attacks the Caucasus: {open:#?}");
    assert!(
        open.iter()
            .any(|(_, why)| why.contains("exposed to a counter-attack")),
        "the reason tells what a counter-attack would cost: {open:#?}"
    );
    // A Soviet army next door would retake it at once.
    let army = |g: &mut Game| {
        support::ok(g, "edit add Urals \"Soviet Union\" 8 tank");
    };
    let guarded = attacks_after(&rules, &[], army);
    assert_eq!(caucasus(&guarded), 0, "{guarded:#?}");
    // A layer that ignores counter-attacks makes the attack all the same.
    let dir = ai_layer("reckless", "[ai]\ncounter_attack = 0\n");
    let with = vec![dir.display().to_string()];
    let reckless = attacks_after(&rules_for("1941", &with), &with, army);
    std::fs::remove_dir_all(&dir).ok();
    assert!(caucasus(&reckless) > 0, "{reckless:#?}");
}

/// The commands the AI gives in the Soviet Union's first noncombat move of the Anniversary
/// Edition, with a German army of tanks put in the Ukraine first.
fn soviet_noncombat(with: &[String]) -> Vec<(String, String)> {
    let rules = rules_for("anniversary", with);
    let mut g = Game::new(rules.clone(), "anniversary", with, Some("1941"), 1).unwrap();
    support::advance_to(&mut g, "Soviet Union", "noncombat_move");
    support::ok(&mut g, "edit add Ukraine Germany 10 tank");
    phase_choices(&mut g)
}

#[test]
fn threatened_capitals_and_victory_cities_are_reinforced() {
    let moves = soviet_noncombat(&[]);
    let into = |m: &[(String, String)], space: &str| {
        m.iter()
            .filter(|(c, why)| {
                c.ends_with(&format!("to {space}")) && why.starts_with(&format!("reinforces {space}"))
            })
            .count()
    };
    assert!(
        into(&moves, "Caucasus") + into(&moves, "Russia") > 0,
        "Stalingrad and Moscow, next to ten German tanks, are reinforced: {moves:#?}"
    );
    let dir = ai_layer("unguarded", "[ai]\ncapital_guard = 0\ncity_guard = 0\n");
    let with = vec![dir.display().to_string()];
    let careless = soviet_noncombat(&with);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        into(&careless, "Caucasus") + into(&careless, "Russia"),
        0,
        "{careless:#?}"
    );
}

#[test]
fn submarines_submerge_from_a_lost_battle() {
    let rules = rules_for("1941", &[]);
    let mut g = Game::new(rules.clone(), "1941", &[], None, 1).unwrap();
    support::advance_to(&mut g, "United Kingdom", "combat_move");
    support::ok(&mut g, "edit add \"SZ 10\" \"United Kingdom\" 4 battleship");
    support::ok(&mut g, "move 4 battleship from \"SZ 10\" to \"SZ 9\"");
    support::advance_to(&mut g, "United Kingdom", "conduct_combat");
    let mut ai = Ai::new();
    let mut submerged = None;
    for _ in 0..20 {
        let Some(c) = ai.choose(&mut g) else { break };
        if let Command::Submerge(picks) = &c.command {
            submerged = Some((picks.clone(), c.reason.clone()));
            break;
        }
        g.apply(&c.command).unwrap();
    }
    let (picks, why) = submerged.expect("Germany's submarine is asked whether it submerges");
    assert!(
        !picks.is_empty(),
        "four battleships against one submarine: it submerges ({why})"
    );
    assert!(why.contains("to win from here"), "{why}");
}

/// What the United States buys first in 1941, after `setup`.
fn american_purchase(setup: impl Fn(&mut Game)) -> Vec<(String, u32, String)> {
    let rules = rules_for("1941", &[]);
    let mut g = Game::new(rules.clone(), "1941", &[], None, 1).unwrap();
    support::advance_to(&mut g, "United States", "purchase");
    setup(&mut g);
    let mut ai = Ai::new();
    let mut out = Vec::new();
    while let Some(c) = ai.choose(&mut g) {
        let Command::Buy {
            piece: Piece::Unit(k),
            count,
            ..
        } = &c.command
        else {
            break;
        };
        out.push((rules.unit(*k).id.clone(), *count, c.reason.clone()));
        g.apply(&c.command).unwrap();
    }
    out
}

#[test]
fn a_power_that_needs_transports_buys_warships_against_the_enemy_fleet() {
    let warships = |b: &[(String, u32, String)]| -> u32 {
        b.iter()
            .filter(|(k, ..)| {
                ["destroyer", "battleship", "aircraft_carrier", "submarine"].contains(&k.as_str())
            })
            .map(|(_, n, _)| n)
            .sum()
    };
    let money = |g: &mut Game| {
        support::ok(g, "edit treasury \"United States\" 60");
    };
    let calm = american_purchase(money);
    let fleet = american_purchase(|g| {
        money(g);
        support::ok(g, "edit add \"SZ 10\" Germany 4 battleship");
    });
    assert!(warships(&fleet) > warships(&calm), "{calm:#?} → {fleet:#?}");
    assert!(
        fleet.iter().any(|(.., why)| why.contains("fleet_guard")),
        "the reason names the weight: {fleet:#?}"
    );
}

#[test]
fn a_rule_scripts_question_gets_the_answer_that_serves_the_power() {
    let script = r#"
warroom.on("phase_begin", { id = "gift.ask" }, function(ev, game)
  if ev.power == "Germany" and ev.phase_kind == "CombatMove" and ev.round == 1 then
    game:request({ command = "choose", power = "Germany", key = "gift",
      question = "Who gets the tanks?", answers = { "soviets", "germans" } })
  end
end)
warroom.on("answer", { id = "gift.answer", filter = { key = "gift" } }, function(ev, game)
  if ev.answer == "soviets" then
    game:request({ command = "add_units", power = "Soviet Union", unit = "tank", count = 3, space = "Russia" })
  else
    game:request({ command = "add_units", power = "Germany", unit = "tank", count = 1, space = "Germany" })
  end
end)
"#;
    let mut g = support::anniversary_game_with_layer(&[("gift.lua", script)]);
    support::advance_to(&mut g, "Germany", "purchase");
    support::ok(&mut g, "end phase");
    assert_eq!(g.state().questions.0.len(), 1, "the script asked");
    let mut ai = Ai::new();
    let c = ai.choose(&mut g).expect("Germany answers");
    assert_eq!(c.command, Command::Answer("germans".into()), "{}", c.reason);
    assert!(c.reason.contains("better off"), "{}", c.reason);
}

/// Where the AI lands a Soviet fighter left at sea beside Karelia in the Soviet noncombat
/// move of 1941, after `setup`: the command and its reason.
fn fighter_landing(setup: impl Fn(&mut Game)) -> (String, String) {
    let rules = rules_for("1941", &[]);
    let mut g = Game::new(rules.clone(), "1941", &[], None, 1).unwrap();
    support::advance_to(&mut g, "Soviet Union", "noncombat_move");
    support::ok(&mut g, "edit add \"SZ 4\" \"Soviet Union\" 1 fighter");
    setup(&mut g);
    let mut ai = Ai::new();
    let c = ai.choose(&mut g).expect("the AI lands it");
    (c.command.to_text(&rules), c.reason)
}

#[test]
fn aircraft_land_where_the_enemy_cannot_take_them() {
    // Archangel and Karelia are as near the front as Moscow, but the German army next to them
    // outnumbers their few defenders; Moscow holds.
    let (cmd, why) = fighter_landing(|_| {});
    assert!(cmd.ends_with("to Russia"), "{cmd}: {why}");
    // With a German army beside Moscow too, the capital is short of its guard: the fighter
    // lands there all the same, to help hold it, not in a safe corner far from the war.
    let (cmd, why) = fighter_landing(|g| {
        support::ok(g, "edit add Urals Germany 30 infantry");
    });
    assert!(cmd.ends_with("to Russia"), "{cmd}: {why}");
}

/// The AI's moves in Germany's first noncombat move of 1941, after `setup`.
fn german_noncombat(setup: impl Fn(&mut Game)) -> Vec<(String, String)> {
    let rules = rules_for("1941", &[]);
    let mut g = Game::new(rules.clone(), "1941", &[], None, 1).unwrap();
    support::advance_to(&mut g, "Germany", "noncombat_move");
    setup(&mut g);
    phase_choices(&mut g)
}

#[test]
fn armies_do_not_march_where_the_enemy_would_destroy_them() {
    let into = |m: &[(String, String)]| {
        m.iter()
            .filter(|(c, _)| c.ends_with("to \"Eastern Europe\""))
            .count()
    };
    let open = german_noncombat(|_| {});
    assert!(into(&open) > 0, "the army marches east: {open:#?}");
    let guarded = german_noncombat(|g| {
        support::ok(g, "edit add Karelia \"Soviet Union\" 40 infantry");
    });
    assert_eq!(
        into(&guarded),
        0,
        "forty Soviet infantry wait next door: {guarded:#?}"
    );
}

/// Red's first combat move in the mini edition with a bomber in Redland (a layer adds the
/// unit type and strategic bombing raids) and these `[ai]` settings (with `capital_odds = 100` Blue's capital, Blueland,
/// is not attacked): its industrial complex is there to raid.
fn mini_raids(ai: &str) -> Vec<(String, String)> {
    let bomber = "[units.bomber]\nname = \"Bomber\"\ndomain = \"air\"\ncost = 12\nattack = 4\ndefense = 1\nmove = 6\nbombing_dice = 1\n";
    let raids = "[combat]\nconduct = [\"bombing_raids\", \"amphibious_assaults\", \"general_combat\"]\n";
    let mut g =
        support::mini_game_with_layer(&[("bomber.toml", bomber), ("raids.toml", raids), ("ai.toml", ai)]);
    support::advance_to(&mut g, "Red", "combat_move");
    support::ok(&mut g, "edit add Redland Red 1 bomber");
    phase_choices(&mut g)
}

#[test]
fn bombers_raid_where_the_damage_outweighs_the_bombers_lost() {
    let raids = |m: &[(String, String)]| m.iter().filter(|(c, _)| c.contains(" bombing")).count();
    let plain = mini_raids("[ai]\ncapital_odds = 100\n");
    assert_eq!(raids(&plain), 1, "the bomber raids Blueland: {plain:#?}");
    assert!(
        plain
            .iter()
            .any(|(_, why)| why.starts_with("raids the Industrial Complex in Blueland")),
        "{plain:#?}"
    );
    assert_eq!(raids(&mini_raids("[ai]\ncapital_odds = 100\nbombing = 0\n")), 0);
}
