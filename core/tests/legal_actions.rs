//! The legal actions, in both directions, on random positions of every edition that plays:
//! every action listed is accepted by `Game::apply`, and every single-unit command `apply`
//! accepts is listed. Positions come from random games (`soak::Player`), so they reach
//! battles waiting for answers, loaded transports, mobilization, research and the turns of
//! every power.

mod support;

use std::sync::Arc;
use warroom_core::game::command::{Command, Move, Pick};
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, FacilityTypeId, PhaseKind, Piece, RuleSet, SpaceId, UnitTypeId};
use warroom_core::soak::Player;

fn rules_for(edition: &str, with: &[&str]) -> Arc<RuleSet> {
    let mut req = LoadRequest::new(support::editions(), edition);
    req.with = with.iter().map(|s| s.to_string()).collect();
    Arc::new(rules::load(&req).unwrap_or_else(|e| panic!("{:#?}", e.problems)))
}

fn start(rules: &Arc<RuleSet>, edition: &str, with: &[&str], scenario: Option<&str>, seed: u64) -> Game {
    let with: Vec<String> = with.iter().map(|s| s.to_string()).collect();
    Game::new(rules.clone(), edition, &with, scenario, seed).unwrap()
}

/// The same game again, from its history.
fn replica(g: &Game) -> Game {
    let o = g.origin();
    let mut r = Game::new(g.rules().clone(), &o.edition, &o.with, Some(&o.scenario), o.seed).unwrap();
    for rec in g.history() {
        r.execute(&rec.text).unwrap();
    }
    r
}

/// Every single-unit command of the kinds the legal actions cover, over the whole board.
fn single_unit_commands(g: &Game) -> Vec<Command> {
    let rules = g.rules();
    let s = g.state();
    let power = g.current_power();
    let spaces: Vec<SpaceId> = (0..rules.board.spaces.len()).map(|i| SpaceId(i as u16)).collect();
    let mut out = Vec::new();
    if let Some(b) = &s.combat {
        out.push(Command::Press);
        out.push(Command::Retreat(None));
        out.extend(spaces.iter().map(|sp| Command::Retreat(Some(*sp))));
        out.push(Command::Casualties(Vec::new()));
        out.push(Command::Submerge(Vec::new()));
        let _ = b;
        return out;
    }
    out.push(Command::EndPhase);
    match g.current_phase().kind {
        PhaseKind::Purchase | PhaseKind::Research => {
            // Each economy of the power buys for itself (`buy ... for ECONOMY`).
            for economy in rules.economies(power) {
                let economy = (economy != power).then_some(economy);
                for u in 0..rules.units.len() {
                    out.push(Command::Buy {
                        piece: Piece::Unit(UnitTypeId(u as u16)),
                        count: 1,
                        economy,
                    });
                }
                for f in 0..rules.facilities.len() {
                    out.push(Command::Buy {
                        piece: Piece::Facility(FacilityTypeId(f as u16)),
                        count: 1,
                        economy,
                    });
                }
            }
            for f in 0..rules.facilities.len() {
                out.extend(spaces.iter().map(|sp| Command::Repair {
                    count: 1,
                    space: Some(*sp),
                    facility: Some(FacilityTypeId(f as u16)),
                }));
            }
        }
        PhaseKind::CombatMove | PhaseKind::NoncombatMove => {
            for &from in &spaces {
                let mut kinds: Vec<UnitTypeId> = s
                    .space(from)
                    .units
                    .iter()
                    .filter(|u| u.owner == power)
                    .map(|u| u.kind)
                    .collect();
                kinds.sort();
                kinds.dedup();
                for kind in kinds {
                    for &to in &spaces {
                        let raids = s
                            .space(to)
                            .facilities
                            .iter()
                            .map(|f| (false, true, Some(f.kind), false));
                        for (ignore, bombing, target, airborne) in [
                            (false, false, None, false),
                            (true, false, None, false),
                            (false, false, None, true),
                        ]
                        .into_iter()
                        .chain(raids)
                        {
                            out.push(Command::Move(Move {
                                units: vec![Pick::Kind { kind, count: 1 }],
                                from,
                                to,
                                via: Vec::new(),
                                ignore,
                                bombing,
                                target,
                                airborne,
                            }));
                        }
                    }
                }
            }
        }
        PhaseKind::ConductCombat => out.extend(spaces.iter().map(|sp| Command::Fight(Some(*sp)))),
        PhaseKind::Mobilize => {
            for (piece, _) in &s.purchased[power.index()] {
                for &space in &spaces {
                    out.push(Command::Place {
                        piece: *piece,
                        count: 1,
                        space,
                    });
                }
            }
        }
        PhaseKind::CollectIncome | PhaseKind::Script => {}
    }
    out
}

/// `ignoring` or `bombing` where there is nothing to ignore or bomb: the same move as without,
/// which is listed.
fn same_as_plain(g: &mut Game, c: &Command, out: &[String], legal: &[Command]) -> bool {
    let Command::Move(m) = c else { return false };
    if !(m.ignore || m.bombing) {
        return false;
    }
    let plain = Command::Move(Move {
        ignore: false,
        bombing: false,
        target: None,
        ..m.clone()
    });
    legal.contains(&plain) && g.dry_run(&plain).as_deref() == Ok(out)
}

/// Walk a random game; at every `every`-th command check both directions of the property.
fn check_edition(
    edition: &str,
    with: &[&str],
    scenario: Option<&str>,
    seed: u64,
    steps: usize,
    every: usize,
) {
    let rules = rules_for(edition, with);
    let mut g = start(&rules, edition, with, scenario, seed);
    let mut player = Player::seeded(seed);
    let mut checked = 0;
    let mut listed_total = 0;
    for step in 0..steps {
        if step % every == 0 {
            let legal = g.legal_actions();
            assert!(
                !legal.is_empty() || g.state().winner.is_some(),
                "{edition} step {step}: no legal action"
            );
            listed_total += legal.len();
            // Listed → accepted, by apply itself on a copy of the game.
            let mut copy = replica(&g);
            for a in &legal {
                let text = a.to_text(&rules);
                let before = copy.hash();
                if let Err(e) = copy.apply(a) {
                    panic!(
                        "{edition} step {step} ({}): listed `{text}` is refused: {e}",
                        g.current_phase().title
                    );
                }
                // Back to the position: undo where it reaches, else rebuild.
                if copy.undoable().is_empty() || copy.apply(&Command::Undo).is_err() || copy.hash() != before
                {
                    copy = replica(&g);
                }
            }
            // Accepted → listed, for every single-unit command over the whole board.
            for c in single_unit_commands(&g) {
                if let Ok(out) = g.dry_run(&c) {
                    assert!(
                        legal.contains(&c) || same_as_plain(&mut g, &c, &out, &legal),
                        "{edition} step {step} ({} of {}): `{}` is accepted but not listed",
                        g.current_phase().title,
                        rules.power_info(g.current_power()).name,
                        c.to_text(&rules)
                    );
                }
            }
            // The candidates in parts (the random player's stack by stack) are the whole list.
            let mut parts = g.candidate_actions_but_moves();
            for i in 0..g.state().spaces.len() {
                parts.extend(g.candidate_moves_from(warroom_core::rules::SpaceId(i as u16)));
            }
            let whole = g.candidate_actions();
            assert!(
                parts.len() == whole.len() && whole.iter().all(|c| parts.contains(c)),
                "{edition} step {step}: candidates by space differ from the whole list"
            );
            checked += 1;
        }
        if player.step(&mut g).is_none() {
            break;
        }
    }
    assert!(
        checked > 0 && listed_total > checked,
        "{edition}: the walk checked nothing"
    );
}

#[test]
fn legal_actions_of_1941_are_accepted_and_complete() {
    check_edition("1941", &[], None, 7, 400, 23);
}

#[test]
fn legal_actions_of_anniversary_1941_are_accepted_and_complete() {
    check_edition(
        "anniversary",
        &["research", "national-objectives"],
        Some("1941"),
        11,
        400,
        29,
    );
}

#[test]
fn legal_actions_of_anniversary_1942_are_accepted_and_complete() {
    check_edition("anniversary", &["research"], Some("1942"), 13, 400, 47);
}

#[test]
fn a_dry_run_changes_nothing() {
    let rules = rules_for("anniversary", &["national-objectives"]);
    let mut g = start(&rules, "anniversary", &["national-objectives"], None, 3);
    let mut player = Player::seeded(3);
    for step in 0..120 {
        if step % 4 != 0 {
            player.step(&mut g);
            continue;
        }
        let before = (g.hash(), g.history().len(), g.log().len(), g.undoable().len());
        for a in g.candidate_actions() {
            let _ = g.dry_run(&a);
            assert_eq!(
                (g.hash(), g.history().len(), g.log().len(), g.undoable().len()),
                before,
                "dry run of `{}` left a trace",
                a.to_text(&rules)
            );
        }
        if player.step(&mut g).is_none() {
            break;
        }
    }
}

/// Europe 1940: its mechanisms' commands (raids on named facilities, scrambles, interceptions,
/// passage through canals, upgrades) listed when accepted and accepted when listed.
#[test]
fn legal_actions_of_europe_1940_are_accepted_and_complete() {
    check_edition("europe1940", &[], None, 5, 300, 29);
}

/// Paratroopers (Global 1940, the major powers holding the advance from the start): every
/// flight from an air base that is accepted is listed, and every one listed is accepted; after
/// one flies, the next ones listed keep to the same territory and the allowance.
#[test]
fn paratrooper_flights_are_listed_when_accepted_and_accepted_when_listed() {
    let layer = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/house/paratroopers-from-the-start")
        .to_string_lossy()
        .into_owned();
    let rules = rules_for("global1940", &[&layer]);
    let mut g = start(&rules, "global1940", &[&layer], None, 1);
    while g.current_phase().kind != PhaseKind::CombatMove {
        g.apply(&Command::EndPhase).unwrap();
    }
    let power = g.current_power();
    let spaces: Vec<SpaceId> = rules.board.ids().collect();
    for flight in 0..3 {
        let legal = g.legal_actions();
        let listed: Vec<Command> = legal
            .into_iter()
            .filter(|c| matches!(c, Command::Move(m) if m.airborne))
            .collect();
        for c in &listed {
            if let Err(e) = g.dry_run(c) {
                panic!("flight {flight}: listed `{}` refused: {e}", c.to_text(&rules));
            }
        }
        for &from in &spaces {
            let mut kinds: Vec<UnitTypeId> = g
                .state()
                .space(from)
                .units
                .iter()
                .filter(|u| u.owner == power)
                .map(|u| u.kind)
                .collect();
            kinds.sort();
            kinds.dedup();
            for kind in kinds {
                for &to in &spaces {
                    let c = Command::Move(Move {
                        airborne: true,
                        ..Move::plain(vec![Pick::Kind { kind, count: 1 }], from, to)
                    });
                    if g.dry_run(&c).is_ok() {
                        assert!(
                            listed.contains(&c),
                            "flight {flight}: `{}` accepted, not listed",
                            c.to_text(&rules)
                        );
                    }
                }
            }
        }
        if flight < 2 {
            assert!(!listed.is_empty(), "flight {flight}: no paratroopers may fly");
            g.apply(&listed[0]).unwrap();
        }
    }
}

/// An edition that fights no strategic bombing raids (`[combat] conduct` without
/// `bombing_raids`, as 1941) offers no `bombing` move: `dry_run` would refuse every one.
#[test]
fn no_raid_is_proposed_where_the_edition_fights_none() {
    let bomber = "[units.bomber]\nname = \"Bomber\"\ndomain = \"air\"\ncost = 12\nattack = 4\ndefense = 1\nmove = 6\nbombing_dice = 1\n";
    let raids = "[combat]\nconduct = [\"bombing_raids\", \"amphibious_assaults\", \"general_combat\"]\n";
    let bombing = |files: &[(&str, &str)]| {
        let mut g = support::mini_game_with_layer(files);
        support::advance_to(&mut g, "Red", "combat_move");
        support::ok(&mut g, "edit add Redland Red 1 bomber");
        let rules = g.rules().clone();
        g.candidate_actions()
            .iter()
            .map(|c| c.to_text(&rules))
            .filter(|t| t.contains(" bombing"))
            .count()
    };
    assert_eq!(bombing(&[("bomber.toml", bomber)]), 0);
    assert_eq!(bombing(&[("bomber.toml", bomber), ("raids.toml", raids)]), 1);
}
