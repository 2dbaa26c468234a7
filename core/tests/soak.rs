//! A short soak in every `cargo test`: random games of each edition that plays, a few rounds
//! each, every invariant checked after every command (`warroom soak` runs thousands).

mod support;

use std::path::Path;
use std::sync::Arc;
use warroom_core::game::save;
use warroom_core::layers::LoadRequest;
use warroom_core::rules;
use warroom_core::soak::{self, Checks, GameSpec, Unwatched};

fn soak(edition: &str, with: &[&str], scenario: Option<&str>, seeds: std::ops::Range<u64>, rounds: u32) {
    soak_watched(edition, with, scenario, seeds, rounds, &mut Unwatched);
}

/// [`soak`], with `watch` hearing every game.
fn soak_watched(
    edition: &str,
    with: &[&str],
    scenario: Option<&str>,
    seeds: std::ops::Range<u64>,
    rounds: u32,
    watch: &mut dyn soak::Watch,
) {
    let mut req = LoadRequest::new(support::editions(), edition);
    req.with = with.iter().map(|s| s.to_string()).collect();
    let rules = Arc::new(rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems)));
    let editions = support::editions();
    let load = |text: &str| {
        save::open(Path::new("soak.toml"), text.as_bytes(), &editions)
            .map(|l| (l.game, l.warnings.iter().map(|w| w.to_string()).collect()))
            .map_err(|e| e.to_string())
    };
    let mut commands = 0;
    for seed in seeds {
        let spec = GameSpec {
            edition: edition.to_string(),
            with: req.with.clone(),
            scenario: scenario.map(String::from),
            seed,
            rounds,
        };
        match soak::play(&rules, &spec, Checks::default(), &load, watch) {
            Ok(p) => {
                assert!(p.rounds >= 1, "seed {seed}: the game did not get going");
                commands += p.commands;
            }
            Err(f) => panic!("{edition} {with:?} seed {seed}: {f}\n--- save ---\n{}", f.save),
        }
    }
    assert!(commands > 100, "{edition}: only {commands} commands played");
}

#[test]
fn random_games_of_1941_keep_every_invariant() {
    soak("1941", &[], None, 1..4, 3);
}

#[test]
fn random_games_of_anniversary_1941_keep_every_invariant() {
    soak(
        "anniversary",
        &["research", "national-objectives"],
        Some("1941"),
        1..3,
        2,
    );
}

#[test]
fn random_games_of_anniversary_1942_keep_every_invariant() {
    soak("anniversary", &["national-objectives"], Some("1942"), 1..3, 2);
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let mut req = LoadRequest::new(support::editions(), "1941");
    req.with = Vec::new();
    let rules = Arc::new(rules::load(&req).unwrap());
    let spec = GameSpec {
        edition: "1941".into(),
        with: Vec::new(),
        scenario: None,
        seed: 5,
        rounds: 1,
    };
    let checks = Checks {
        replay: false,
        save_round_trip: false,
    };
    let no_load = |_: &str| Err("not asked".to_string());
    let a = soak::play(&rules, &spec, checks, &no_load, &mut Unwatched).unwrap();
    let b = soak::play(&rules, &spec, checks, &no_load, &mut Unwatched).unwrap();
    assert_eq!((a.commands, a.final_hash), (b.commands, b.final_hash));
    let other = soak::play(
        &rules,
        &GameSpec { seed: 6, ..spec },
        checks,
        &no_load,
        &mut Unwatched,
    )
    .unwrap();
    assert_ne!(a.final_hash, other.final_hash, "another seed plays another game");
}

/// With both per-game checks on, loading the save is the replay: a load that finds a state
/// differing from a saved hash fails the game as not deterministic.
#[test]
fn a_save_that_replays_to_another_state_is_a_nondeterministic_game() {
    let rules = Arc::new(rules::load(&LoadRequest::new(support::editions(), "1941")).unwrap());
    let spec = GameSpec {
        edition: "1941".into(),
        with: Vec::new(),
        scenario: None,
        seed: 5,
        rounds: 1,
    };
    let editions = support::editions();
    let drifting = |text: &str| {
        save::open(Path::new("soak.toml"), text.as_bytes(), &editions)
            .map(|l| {
                (
                    l.game,
                    vec!["the state after command 3 differs from the saved hash".to_string()],
                )
            })
            .map_err(|e| e.to_string())
    };
    let f = soak::play(&rules, &spec, Checks::default(), &drifting, &mut Unwatched).unwrap_err();
    assert_eq!(f.invariant, "deterministic", "{f}");
    assert!(f.message.contains("command 3"), "{f}");
    // Without the replay check the same load only has to give the same file back.
    let checks = Checks {
        replay: false,
        save_round_trip: true,
    };
    assert!(soak::play(&rules, &spec, checks, &drifting, &mut Unwatched).is_ok());
}

fn game_1941() -> warroom_core::game::Game {
    support::game("1941", &[], None)
}

/// Each invariant can fail: commands outside the rules (`edit`, never drawn by the player)
/// make the changes a broken rule would.
#[test]
fn the_invariants_notice_what_the_rules_never_do() {
    use warroom_core::game::command::Command;
    let check = |line: &str| {
        let mut g = game_1941();
        let before = soak::Snapshot::of(&g);
        let cmd = Command::parse(g.rules(), line).expect("parses");
        g.apply(&cmd).expect("the edit is accepted");
        let rules = g.rules().clone();
        soak::check_state(&rules, &before, &g, &cmd).map_err(|(name, _)| name)
    };
    assert_eq!(
        check("edit add Russia \"Soviet Union\" 1 infantry"),
        Err("units-conserved")
    );
    assert_eq!(
        check("edit remove Russia \"Soviet Union\" 1 infantry"),
        Err("units-conserved")
    );
    assert_eq!(check("end phase"), Ok(()));
    let mut g = game_1941();
    g.execute("edit add \"SZ 5\" Germany 1 infantry").unwrap();
    assert_eq!(
        soak::units_where_they_may_be(g.rules(), g.state()).map_err(|(n, _)| n),
        Err("units-where-they-may-be")
    );
    let mut g = game_1941();
    g.execute("edit control Russia Germany").unwrap();
    assert_eq!(
        soak::air_units_landed(g.rules(), g.state()).map_err(|(n, _)| n),
        Err("air-units-land"),
        "the Soviet fighter in Russia has nowhere to land"
    );
}

/// A failure carries a save and a scenario that reproduce the game.
#[test]
fn a_failure_is_written_as_a_save_and_a_scenario() {
    let mut g = game_1941();
    g.execute("buy 1 infantry").unwrap();
    let f = soak::fail(&g, "units-conserved", "a test".into(), None);
    assert!(f.save.contains("text = \"buy 1 infantry\""), "{}", f.save);
    assert!(f.scenario.contains("buy 1 infantry"), "{}", f.scenario);
    assert_eq!(f.to_string(), "units-conserved broken: a test");
}

/// Counts the commands applied whose text starts with a verb.
struct Counting {
    verb: &'static str,
    seen: u64,
}

impl soak::Watch for Counting {
    fn applied(&mut self, _: &warroom_core::game::Game, cmd: &str, _: &[String]) {
        if cmd.starts_with(self.verb) {
            self.seen += 1;
        }
    }
}

/// House rules built on scripts' requests and a layer's own command: the random games walk
/// them (the Lend-Lease command is given and accepted) and keep every invariant.
#[test]
fn random_games_with_house_rules_of_requests_and_commands_keep_every_invariant() {
    let mut lend = Counting {
        verb: "lend ",
        seen: 0,
    };
    soak_watched(
        "anniversary",
        &["house/partisans", "house/ten-cities", "house/aid"],
        Some("1942"),
        1..4,
        2,
        &mut lend,
    );
    assert!(lend.seen > 0, "no `lend` was accepted in three games");
}

/// House rules on single units and questions: tags kept on units (veterans), values set for
/// single units in battle (blitzkrieg, veterans) and a question Japan answers in the enemy's
/// turn (kamikaze). The random games answer the questions asked and keep every invariant.
#[test]
fn random_games_with_house_rules_of_tags_and_questions_keep_every_invariant() {
    /// Answers given, and units made veterans.
    struct Seen {
        answers: u64,
        veterans: u64,
    }
    impl soak::Watch for Seen {
        fn applied(&mut self, _: &warroom_core::game::Game, cmd: &str, out: &[String]) {
            self.answers += u64::from(cmd.starts_with("answer "));
            self.veterans += out
                .iter()
                .filter(|l| l.contains("[house.veterans] marked veteran"))
                .count() as u64;
        }
    }
    let mut seen = Seen {
        answers: 0,
        veterans: 0,
    };
    soak_watched(
        "anniversary",
        &["house/veterans", "house/blitzkrieg", "house/kamikaze"],
        Some("1941"),
        1..4,
        6,
        &mut seen,
    );
    assert!(seen.answers > 0, "no question was answered in three games");
    assert!(seen.veterans > 0, "no unit became a veteran in three games");
}

/// The 1940 mechanisms walked by random games of Europe 1940: scrambles and interceptions given,
/// passage asked through canals, bombing raids
/// on named facilities, convoy losses collected, upgrades and bases in play; every invariant
/// holds.
#[test]
fn random_1940_games_walk_scrambles_raids_and_convoys() {
    #[derive(Default)]
    struct Seen {
        scrambles: u64,
        intercepts: u64,
        passages: u64,
        raids: u64,
        convoys: u64,
        neutrals_attacked: u64,
        neutrals_taken: u64,
    }
    impl soak::Watch for Seen {
        fn applied(&mut self, _: &warroom_core::game::Game, cmd: &str, out: &[String]) {
            let has = |s: &str| out.iter().filter(|l| l.contains(s)).count() as u64;
            self.neutrals_attacked += has(" neutral): it joins the ");
            self.neutrals_taken += has(", a friendly neutral");
            self.scrambles += u64::from(cmd.starts_with("scramble "));
            self.intercepts += u64::from(cmd.starts_with("intercept "));
            self.passages += u64::from(cmd.starts_with("ask passage "));
            self.raids += u64::from(cmd.contains(" bombing "));
            self.convoys += out.iter().filter(|l| l.starts_with("convoy disruption")).count() as u64;
        }
    }
    let mut seen = Seen::default();
    soak_watched("europe1940", &[], None, 5..13, 6, &mut seen);
    assert!(seen.scrambles > 0, "no scramble in eight games");
    assert!(seen.raids > 0, "no bombing raid in eight games");
    assert!(seen.intercepts > 0, "no interception in eight games");
    assert!(seen.passages > 0, "no passage asked in eight games");
    assert!(seen.convoys > 0, "no convoy disruption in eight games");
    assert!(seen.neutrals_attacked > 0, "no neutral attacked in eight games");
    assert!(
        seen.neutrals_taken > 0,
        "no friendly neutral taken in eight games"
    );
}

/// The Pacific 1940 mechanisms walked by random games: neutrals, kamikazes, the Dutch; every
/// invariant holds.
#[test]
fn random_pacific_1940_games_walk_neutrals_kamikazes_and_the_dutch() {
    #[derive(Default)]
    struct Seen {
        neutrals: u64,
        kamikazes: u64,
        dutch: u64,
    }
    impl soak::Watch for Seen {
        fn applied(&mut self, _: &warroom_core::game::Game, _: &str, out: &[String]) {
            let has = |s: &str| out.iter().filter(|l| l.contains(s)).count() as u64;
            self.neutrals += has("(a strict neutral)");
            self.kamikazes += has("Japan strikes at 2 or less");
            self.dutch += has("moved land units into a Dutch territory");
        }
    }
    let mut seen = Seen::default();
    soak_watched("pacific1940", &[], None, 29..37, 8, &mut seen);
    assert!(seen.neutrals > 0, "no neutral attacked in eight games");
    assert!(seen.kamikazes > 0, "no kamikaze attack in eight games");
    assert!(seen.dutch > 0, "no Dutch territory taken in eight games");
}

/// The United Kingdom's two economies walked by random Global 1940 games: purchases paid by
/// each treasury, units placed at each economy's factories, both collecting; every invariant
/// holds (units bought by an economy enter play as the power's).
#[test]
fn random_global_1940_games_walk_both_british_economies() {
    #[derive(Default)]
    struct Seen {
        pacific_buys: u64,
        pacific_places: u64,
        pacific_collects: u64,
    }
    impl soak::Watch for Seen {
        fn applied(&mut self, _: &warroom_core::game::Game, _: &str, out: &[String]) {
            let has = |s: &str| out.iter().filter(|l| l.contains(s)).count() as u64;
            self.pacific_buys += has("from UK Pacific's treasury");
            self.pacific_places += has("UK Pacific places ");
            self.pacific_collects += has("UK Pacific collects ");
        }
    }
    let mut seen = Seen::default();
    soak_watched("global1940", &[], None, 41..44, 3, &mut seen);
    assert!(seen.pacific_buys > 0, "no purchase by UK Pacific in three games");
    assert!(
        seen.pacific_places > 0,
        "no unit placed by UK Pacific in three games"
    );
    assert!(
        seen.pacific_collects > 0,
        "UK Pacific never collected in three games"
    );
}

/// Global 1940 with its Research & Development: research dice bought and lost, breakthroughs
/// and the advances they bring walked by random games; every invariant holds.
#[test]
fn random_global_1940_games_with_research_walk_breakthroughs() {
    #[derive(Default)]
    struct Seen {
        failed: u64,
        advances: u64,
    }
    impl soak::Watch for Seen {
        fn applied(&mut self, _: &warroom_core::game::Game, _: &str, out: &[String]) {
            let has = |s: &str| out.iter().filter(|l| l.contains(s)).count() as u64;
            self.failed += has("the research has failed");
            self.advances += has(" on Breakthrough Chart ");
        }
    }
    let mut seen = Seen::default();
    soak_watched("global1940", &["research"], None, 41..44, 3, &mut seen);
    assert!(seen.failed > 0, "no research failed in three games");
    assert!(seen.advances > 0, "no advance gained in three games");
}

/// Paratroopers walked by random Global 1940 games (the major powers hold the advance from the
/// start, tests/fixtures/house/paratroopers-from-the-start): infantry flown from air bases to
/// the battles their side's land units fight, antiaircraft fire reaching them; every invariant
/// holds.
#[test]
fn random_global_1940_games_walk_paratroopers() {
    #[derive(Default)]
    struct Seen {
        flights: u64,
    }
    impl soak::Watch for Seen {
        fn applied(&mut self, _: &warroom_core::game::Game, _: &str, out: &[String]) {
            self.flights += out.iter().filter(|l| l.contains(" as paratroopers")).count() as u64;
        }
    }
    let layer =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/paratroopers-from-the-start");
    let mut seen = Seen::default();
    soak_watched(
        "global1940",
        &[layer.to_str().unwrap()],
        None,
        41..44,
        3,
        &mut seen,
    );
    assert!(seen.flights > 0, "no paratroopers flew in three games");
}
