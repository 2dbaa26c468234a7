//! Conduct combat on the real boards (../shared/rules/turn.md §3.3 and §4): battles set up from
//! the units in a space, fought with dice typed at the table (`dice manual` + `roll`), so every
//! test knows exactly how many dice a battle drew: with manual dice a battle that wants more
//! faces than were typed waits for them, and faces left over stay queued.

mod support;
use support::*;
use warroom_core::game::Game;

/// The battle is over and used exactly the faces typed.
fn finished_with_all_faces(g: &Game) {
    assert!(
        g.state().combat.is_none(),
        "the battle is still waiting: {:?}",
        g.state().combat
    );
    assert!(
        g.state().dice_queue.is_empty(),
        "{} typed faces were not used",
        g.state().dice_queue.len()
    );
}

fn waiting(g: &Game) -> Option<warroom_core::combat::Need> {
    g.state().combat.as_ref().and_then(|b| b.waiting.clone())
}

fn damage(g: &Game, space: &str, power: &str, unit: &str) -> Vec<u32> {
    let r = g.rules();
    let s = r.board.find(space).unwrap();
    let p = r.power(power).unwrap();
    let u = r.unit_type(unit).unwrap();
    g.state()
        .space(s)
        .units
        .iter()
        .filter(|x| x.owner == p && x.kind == u)
        .map(|x| x.damage)
        .collect()
}

#[test]
fn antiaircraft_fire_destroys_planes_before_combat_and_the_gun_is_captured() {
    let mut g = game("anniversary", &[], Some("1941"));
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Poland", "Baltic States"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add Poland Germany 2 infantry");
    ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 1 infantry");
    ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 2 aa_gun");
    ok(&mut g, "move 2 infantry from Poland to \"Baltic States\"");
    ok(&mut g, "edit add Germany Germany 1 fighter");
    ok(&mut g, "move 2 fighter from Germany to \"Baltic States\"");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    // One gun fires though there are two, one die per fighter: the first die (a 1) downs the
    // first fighter, the second misses. Then the infantry roll 1 and 4 (one hit), the surviving
    // fighter 6, and the Soviet infantry defends with a 5.
    ok(&mut g, "roll 1 3");
    let out = ok(&mut g, "fight Baltic States");
    assert!(matches!(
        waiting(&g),
        Some(warroom_core::combat::Need::Dice { count: 3, .. })
    ));
    assert_eq!(count(&g, "Baltic States", "Germany", "fighter"), 1, "{out:?}");
    refused(&mut g, "end phase", "one-battle-at-a-time");
    let out = ok(&mut g, "roll 1 4 6 5");
    finished_with_all_faces(&g);
    assert_eq!(count(&g, "Baltic States", "Germany", "infantry"), 2, "{out:?}");
    assert_eq!(count(&g, "Baltic States", "Soviet Union", "infantry"), 0);
    assert_eq!(controller(&g, "Baltic States").as_deref(), Some("Germany"));
    assert_eq!(
        count(&g, "Baltic States", "Germany", "aa_gun"),
        2,
        "AA guns are captured: {out:?}"
    );
    assert!(logged(&out, "Germany captures Baltic States"), "{out:?}");
}

#[test]
fn retreat_goes_where_a_land_unit_came_from_a_blitzed_territory_counts_a_flown_over_one_does_not() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Eastern Europe", "West Russia", "Archangel", "Karelia"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit control \"Eastern Europe\" Germany");
    ok(&mut g, "edit control \"West Russia\" \"Soviet Union\"");
    ok(&mut g, "edit control Archangel \"Soviet Union\"");
    ok(&mut g, "edit add Karelia \"Soviet Union\" 2 infantry");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 1 infantry");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 1 tank");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 1 fighter");
    ok(&mut g, "move infantry from \"Eastern Europe\" to Karelia");
    ok(
        &mut g,
        "move tank from \"Eastern Europe\" to Karelia via \"West Russia\"",
    );
    ok(
        &mut g,
        "move fighter from \"Eastern Europe\" to Karelia via \"West Russia\", Archangel",
    );
    assert_eq!(
        controller(&g, "West Russia").as_deref(),
        Some("Germany"),
        "blitzed"
    );
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    ok(&mut g, "roll 6 6 6 6 6");
    ok(&mut g, "fight Karelia");
    assert_eq!(waiting(&g), Some(warroom_core::combat::Need::PressOrRetreat));
    refused(&mut g, "retreat to Archangel", "retreat");
    refused(&mut g, "retreat", "retreat");
    let out = ok(&mut g, "retreat to \"West Russia\"");
    finished_with_all_faces(&g);
    assert_eq!(count(&g, "West Russia", "Germany", "infantry"), 1, "{out:?}");
    assert_eq!(count(&g, "West Russia", "Germany", "tank"), 1);
    // Aircraft retreat in place and land in noncombat move.
    assert_eq!(count(&g, "Karelia", "Germany", "fighter"), 1);
    assert_eq!(controller(&g, "Karelia").as_deref(), Some("Soviet Union"));
    refused(&mut g, "fight Karelia", "conduct-combat-order");
}

#[test]
fn defenseless_transports_are_sunk_without_dice_or_a_retreat_question_and_their_cargo_with_them() {
    let mut g = game("1941", &[], None);
    // The British load their transport on their own turn; Germany attacks it in round 2.
    advance_to(&mut g, "United Kingdom", "noncombat_move");
    for s in ["SZ 5", "SZ 6", "United Kingdom"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add \"SZ 6\" \"United Kingdom\" 1 transport");
    ok(
        &mut g,
        "edit add \"United Kingdom\" \"United Kingdom\" 2 infantry",
    );
    ok(&mut g, "move 2 infantry from \"United Kingdom\" to \"SZ 6\"");
    ok(&mut g, "edit add \"SZ 5\" Germany 1 destroyer");
    advance_to(&mut g, "Germany", "combat_move");
    assert_eq!(count(&g, "SZ 6", "United Kingdom", "infantry"), 2);
    ok(&mut g, "move destroyer from \"SZ 5\" to \"SZ 6\"");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    let out = ok(&mut g, "fight \"SZ 6\"");
    finished_with_all_faces(&g);
    assert!(
        logged(&out, "United Kingdom's defenseless 1 Transport destroyed"),
        "{out:?}"
    );
    assert!(
        logged(&out, "Infantry, Infantry aboard the Transport lost with it"),
        "{out:?}"
    );
    assert_eq!(count(&g, "SZ 6", "United Kingdom", "transport"), 0);
    assert_eq!(count(&g, "SZ 6", "United Kingdom", "infantry"), 0);
    assert_eq!(count(&g, "SZ 6", "Germany", "destroyer"), 1);
}

#[test]
fn a_battleship_absorbs_a_hit_and_is_repaired_when_the_battle_ends_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["SZ 5", "SZ 6"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add \"SZ 5\" Germany 1 battleship");
    ok(&mut g, "edit add \"SZ 6\" \"United Kingdom\" 1 destroyer");
    ok(&mut g, "move battleship from \"SZ 5\" to \"SZ 6\"");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    // Round 1: the battleship misses (6), the destroyer hits (1): the battleship is damaged.
    ok(&mut g, "roll 6 1");
    ok(&mut g, "fight \"SZ 6\"");
    assert_eq!(waiting(&g), Some(warroom_core::combat::Need::PressOrRetreat));
    assert_eq!(damage(&g, "SZ 6", "Germany", "battleship"), [1]);
    // Round 2: the battleship hits (4), the destroyer fires back from behind the strip (6).
    ok(&mut g, "roll 4 6");
    let out = ok(&mut g, "press");
    finished_with_all_faces(&g);
    assert_eq!(count(&g, "SZ 6", "United Kingdom", "destroyer"), 0, "{out:?}");
    assert_eq!(damage(&g, "SZ 6", "Germany", "battleship"), [0], "{out:?}");
    assert!(logged(&out, "is repaired"), "{out:?}");
}

#[test]
fn transports_are_taken_last_and_the_owner_chooses_casualties() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["SZ 5", "SZ 6"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add \"SZ 5\" Germany 2 battleship");
    ok(&mut g, "edit add \"SZ 6\" \"United Kingdom\" 1 destroyer");
    ok(&mut g, "edit add \"SZ 6\" \"United Kingdom\" 1 aircraft_carrier");
    ok(&mut g, "edit add \"SZ 6\" \"United Kingdom\" 1 transport");
    ok(&mut g, "move 2 battleship from \"SZ 5\" to \"SZ 6\"");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    ok(&mut g, "roll 1 6");
    ok(&mut g, "fight \"SZ 6\"");
    let Some(warroom_core::combat::Need::Casualties(call)) = waiting(&g) else {
        panic!("expected a casualty choice, got {:?}", waiting(&g));
    };
    assert_eq!(call.suggested.len(), 1);
    refused(&mut g, "casualties transport", "casualties");
    refused(&mut g, "casualties 2 destroyer", "casualties");
    // The carrier (dearer) instead of the suggested destroyer: the owner's choice.
    ok(&mut g, "roll 6 6 6");
    ok(&mut g, "casualties aircraft_carrier");
    // The carrier fired back from behind the strip with the destroyer (6 6): no hits.
    assert_eq!(waiting(&g), Some(warroom_core::combat::Need::PressOrRetreat));
    assert_eq!(count(&g, "SZ 6", "United Kingdom", "aircraft_carrier"), 0);
    assert_eq!(count(&g, "SZ 6", "United Kingdom", "destroyer"), 1);
    assert_eq!(g.state().dice_queue.len(), 1, "two defenders rolled");
}

#[test]
fn bombardment_is_limited_to_one_ship_per_unit_offloaded_and_amphibious_assaults_come_first_aa50() {
    let mut g = game("anniversary", &[], Some("1941"));
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["SZ 5", "Karelia S.S.R.", "Baltic States", "Poland"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add \"SZ 5\" Germany 1 transport");
    ok(&mut g, "edit add \"SZ 5\" Germany 1 battleship");
    ok(&mut g, "edit add \"SZ 5\" Germany 1 cruiser");
    ok(&mut g, "edit add Poland Germany 1 infantry");
    ok(&mut g, "edit add \"Karelia S.S.R.\" \"Soviet Union\" 1 infantry");
    ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 1 infantry");
    ok(&mut g, "move infantry from Germany to \"SZ 5\"");
    ok(&mut g, "move infantry from \"SZ 5\" to \"Karelia S.S.R.\"");
    ok(&mut g, "move infantry from Poland to \"Baltic States\"");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    refused(&mut g, "fight Baltic States", "conduct-combat-order");
    // One infantry came ashore: only the battleship bombards (1), not the cruiser; the
    // infantry attacks (6) and the hit Soviet infantry fires back (6). Three dice, not four.
    ok(&mut g, "roll 1 6 6");
    let out = ok(&mut g, "fight");
    finished_with_all_faces(&g);
    assert!(logged(&out, "bombardment"), "{out:?}");
    assert_eq!(
        count(&g, "Karelia S.S.R.", "Soviet Union", "infantry"),
        0,
        "{out:?}"
    );
    assert_eq!(controller(&g, "Karelia S.S.R.").as_deref(), Some("Germany"));
    ok(&mut g, "roll 1 6");
    ok(&mut g, "fight");
    finished_with_all_faces(&g);
    assert_eq!(controller(&g, "Baltic States").as_deref(), Some("Germany"));
    let out = ok(&mut g, "end phase");
    assert!(logged(&out, "Noncombat Move"), "{out:?}");
}

#[test]
fn battles_cannot_be_undone_and_must_all_be_fought() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Eastern Europe", "Karelia"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add Karelia \"Soviet Union\" 1 infantry");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 3 infantry");
    ok(&mut g, "move 3 infantry from \"Eastern Europe\" to Karelia");
    ok(&mut g, "end phase");
    refused(&mut g, "end phase", "conduct-combat-all-battles");
    ok(&mut g, "roll 1 6 6 6");
    ok(&mut g, "fight");
    assert!(g.state().combat.is_none());
    assert!(g.execute("undo").is_err(), "dice seen cannot be taken back");
    assert_eq!(controller(&g, "Karelia").as_deref(), Some("Germany"));
    assert_eq!(count(&g, "Karelia", "Germany", "infantry"), 3);
}

#[test]
fn a_house_rule_can_skip_a_combat_step_change_values_and_hear_casualties_and_captures() {
    let layer = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/quiet-skies");
    let mut g = game(layer.to_str().unwrap(), &[], Some("1941"));
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Poland", "Baltic States"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add Poland Germany 1 infantry");
    ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 1 infantry");
    ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 1 aa_gun");
    ok(&mut g, "move infantry from Poland to \"Baltic States\"");
    ok(&mut g, "move fighter from Germany to \"Baltic States\"");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    // No antiaircraft die; the infantry attacks at 2 this round (a script's combat_value): it
    // hits with a 2, the fighter misses (6), the defender misses (6).
    ok(&mut g, "roll 2 6 6");
    let out = ok(&mut g, "fight");
    finished_with_all_faces(&g);
    assert!(
        logged(
            &out,
            "anti air: no antiaircraft fire in the first round of the war [skies.no_aa_in_round_one]"
        ),
        "{out:?}"
    );
    assert!(
        logged(&out, "Soviet Union loses 1 as defender in Baltic States"),
        "{out:?}"
    );
    assert!(
        logged(&out, "Germany takes Baltic States from Soviet Union"),
        "{out:?}"
    );
    assert_eq!(count(&g, "Baltic States", "Germany", "fighter"), 1);
    assert_eq!(controller(&g, "Baltic States").as_deref(), Some("Germany"));
}

#[test]
fn a_house_rule_adds_battle_steps_of_its_own_that_fire_and_deal_hits() {
    let layer = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/spearhead");
    let mut g = game(layer.to_str().unwrap(), &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Eastern Europe", "Karelia"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add Karelia \"Soviet Union\" 2 infantry");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 2 infantry");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 1 tank");
    ok(&mut g, "move 2 infantry, tank from \"Eastern Europe\" to Karelia");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    // Spearhead: the tank's one die at 2 hits (1), and that defender never fires. Round 1:
    // three attacking dice and one defending die miss. Round 2 the same, then attrition costs
    // each side a unit: the last defender, and an attacker of the attacker's choice.
    ok(&mut g, "roll 1 6 6 6 6 6 6 6 6");
    let out = ok(&mut g, "fight");
    assert!(logged(&out, "spearhead: Germany rolls @2 [1] → 1 hit"), "{out:?}");
    assert_eq!(waiting(&g), Some(warroom_core::combat::Need::PressOrRetreat));
    let out = ok(&mut g, "press");
    assert!(
        matches!(waiting(&g), Some(warroom_core::combat::Need::Casualties(_))),
        "{out:?}"
    );
    ok(&mut g, "casualties tank");
    finished_with_all_faces(&g);
    assert_eq!(controller(&g, "Karelia").as_deref(), Some("Germany"));
    assert_eq!(count(&g, "Karelia", "Germany", "infantry"), 2);
    assert_eq!(count(&g, "Karelia", "Germany", "tank"), 0);
    assert_eq!(count(&g, "Karelia", "Soviet Union", "infantry"), 0);
}

#[test]
fn hits_requested_in_an_engine_step_fail_the_fight_and_leave_the_battle_unfought() {
    let layer =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/misplaced-hits");
    let mut g = game(layer.to_str().unwrap(), &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "move 3 infantry, tank from \"Eastern Europe\" to Karelia");
    ok(&mut g, "end phase");
    let before = g.hash();
    let err = refused(&mut g, "fight", "misplaced.hits");
    assert!(err.message.contains("script_steps"), "{}", err.message);
    assert_eq!(g.hash(), before);
    assert!(g.state().combat.is_none());
}

#[test]
fn a_bombing_raid_fires_its_steps_to_scripts_which_change_the_gun_and_veto_the_damage() {
    let layer = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/radar");
    let mut g = game(layer.to_str().unwrap(), &[], Some("1941"));
    advance_to(&mut g, "Germany", "combat_move");
    clear(&mut g, "United Kingdom");
    ok(&mut g, "edit add \"United Kingdom\" \"United Kingdom\" 1 aa_gun");
    clear(&mut g, "Germany");
    ok(&mut g, "edit add Germany Germany 3 bomber");
    ok(&mut g, "move 3 bomber from Germany to \"United Kingdom\" bombing");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    // Radar: the gun hits on 2 as well as 1, so one bomber of three falls; the damage step is
    // vetoed, so no damage dice are drawn at all.
    ok(&mut g, "roll 2 3 5");
    let out = ok(&mut g, "fight");
    finished_with_all_faces(&g);
    assert!(logged(&out, "[2 3 5] → 1 bomber shot down"), "{out:?}");
    assert!(logged(&out, "Germany loses 1 over United Kingdom"), "{out:?}");
    assert!(
        logged(
            &out,
            "raid damage: decoy factories: the bombs fall on empty fields [radar.decoys]"
        ),
        "{out:?}"
    );
    assert_eq!(count(&g, "United Kingdom", "Germany", "bomber"), 2);
    assert_eq!(facility_damage(&g, "United Kingdom"), 0);
}

#[test]
fn a_saved_game_with_battles_replays_to_the_same_state() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "move 3 infantry, tank from \"Eastern Europe\" to Karelia");
    ok(&mut g, "end phase");
    // Seeded dice: answer whatever the battle asks until it is over.
    ok(&mut g, "fight Karelia");
    for _ in 0..50 {
        match waiting(&g) {
            None => break,
            Some(warroom_core::combat::Need::PressOrRetreat) => {
                ok(&mut g, "press");
            }
            Some(warroom_core::combat::Need::Casualties(_)) => {
                ok(&mut g, "casualties");
            }
            Some(other) => panic!("unexpected question {other:?}"),
        }
    }
    assert!(g.state().combat.is_none());
    let text = g.save_text();
    let loaded = warroom_core::game::save::load(std::path::Path::new("g.toml"), &text, &editions())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.hash(), g.hash());
}

fn facility_damage(g: &Game, space: &str) -> u32 {
    let s = g.rules().board.find(space).unwrap();
    g.state().space(s).facilities.iter().map(|f| f.damage).sum()
}

#[test]
fn a_strategic_bombing_raid_damages_the_complex_up_to_twice_the_territory_value_aa50_sbr() {
    let mut g = game("anniversary", &[], Some("1941"));
    advance_to(&mut g, "Germany", "combat_move");
    clear(&mut g, "United Kingdom");
    ok(&mut g, "edit add \"United Kingdom\" \"United Kingdom\" 1 aa_gun");
    ok(
        &mut g,
        "edit add \"United Kingdom\" \"United Kingdom\" 1 infantry",
    );
    ok(&mut g, "edit add Germany Germany 4 bomber");
    refused(
        &mut g,
        "move infantry from Germany to Poland bombing",
        "strategic-bombing-raid",
    );
    let bombers = count(&g, "Germany", "Germany", "bomber");
    ok(
        &mut g,
        &format!("move {bombers} bomber from Germany to \"United Kingdom\" bombing"),
    );
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    // One antiaircraft die per bomber: the first is shot down (1), the others survive (6).
    let mut faces = vec!["1".to_string()];
    faces.extend(std::iter::repeat_n("6".to_string(), bombers - 1));
    ok(&mut g, &format!("roll {}", faces.join(" ")));
    let r = refused(&mut g, "fight", "dice-from-the-table");
    assert!(
        r.message
            .contains(&format!("roll {} more dice for the bombing", bombers - 1)),
        "{r}"
    );
    let dmg: Vec<String> = std::iter::repeat_n("6".to_string(), bombers - 1).collect();
    ok(&mut g, &format!("roll {}", dmg.join(" ")));
    let out = ok(&mut g, "fight");
    finished_with_all_faces(&g);
    assert_eq!(
        count(&g, "United Kingdom", "Germany", "bomber"),
        bombers - 1,
        "{out:?}"
    );
    let ipc = g
        .rules()
        .board
        .space(g.rules().board.find("United Kingdom").unwrap())
        .ipc;
    // 6 per surviving bomber, never more than twice the territory's value.
    assert!(6 * (bombers as u32 - 1) > 2 * ipc, "the raid tests the cap");
    assert_eq!(
        facility_damage(&g, "United Kingdom"),
        (6 * (bombers as u32 - 1)).min(2 * ipc),
        "{out:?}"
    );
    // The raiders took no part in a battle: the British infantry is untouched.
    assert_eq!(count(&g, "United Kingdom", "United Kingdom", "infantry"), 1);
    ok(&mut g, "end phase");
}

#[test]
fn bombing_raids_exist_only_where_the_edition_has_them_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    refused(
        &mut g,
        "move bomber from Germany to \"United Kingdom\" bombing",
        "strategic-bombing-raid",
    );
}

#[test]
fn defenders_of_several_powers_who_disagree_let_the_attacker_choose_1941_multinat() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Eastern Europe", "Karelia"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add Karelia \"Soviet Union\" 1 infantry");
    ok(&mut g, "edit add Karelia \"United Kingdom\" 1 tank");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 2 tank");
    ok(&mut g, "move 2 tank from \"Eastern Europe\" to Karelia");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    ok(&mut g, "roll 1 6");
    let out = ok(&mut g, "fight");
    assert!(logged(&out, "the defenders choose together"), "{out:?}");
    let out = ok(&mut g, "disagree");
    assert!(logged(&out, "Germany chooses for the defenders"), "{out:?}");
    ok(&mut g, "roll 6 6");
    ok(&mut g, "casualties tank");
    assert_eq!(count(&g, "Karelia", "United Kingdom", "tank"), 0);
    assert_eq!(count(&g, "Karelia", "Soviet Union", "infantry"), 1);
}

#[test]
fn a_power_sets_the_order_in_which_it_gives_up_units() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Eastern Europe", "Karelia"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add Karelia \"Soviet Union\" 1 infantry");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 2 infantry");
    ok(&mut g, "edit add \"Eastern Europe\" Germany 1 tank");
    ok(&mut g, "move 2 infantry, tank from \"Eastern Europe\" to Karelia");
    ok(&mut g, "end phase");
    let out = ok(&mut g, "order Germany tank");
    assert!(logged(&out, "Germany gives up Tank first"), "{out:?}");
    ok(&mut g, "dice manual");
    ok(&mut g, "roll 6 6 6 1");
    let out = ok(&mut g, "fight");
    assert!(logged(&out, "suggested 1 Tank"), "{out:?}");
    ok(&mut g, "casualties");
    assert_eq!(count(&g, "Karelia", "Germany", "tank"), 0);
    assert_eq!(count(&g, "Karelia", "Germany", "infantry"), 2);
    assert!(g.execute("order Germany factory").is_err());
}

#[test]
fn casualties_with_one_possible_choice_are_taken_and_logged_not_asked() {
    let mut g = game("anniversary", &[], Some("1941"));
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Poland", "Baltic States"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add Poland Germany 2 infantry");
    ok(&mut g, "edit add Poland Germany 1 tank");
    ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 2 infantry");
    ok(&mut g, "move 2 infantry, 1 tank from Poland to \"Baltic States\"");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    // The attackers roll 1, 6, 6 (one hit); the two Soviet infantry are alike, so losing one
    // is the only choice. Both still fire back, 1 and 6: a hit the Germans may give to an
    // infantry or the tank — that is asked.
    ok(&mut g, "roll 1 6 6 1 6");
    let out = ok(&mut g, "fight \"Baltic States\"");
    assert!(
        out.iter().any(|l| l == "Soviet Union loses 1 Infantry"),
        "{out:#?}"
    );
    assert!(
        matches!(waiting(&g), Some(warroom_core::combat::Need::Casualties(c)) if c.side == warroom_core::combat::Side::Attacker),
        "a real choice is still asked: {:?}",
        waiting(&g)
    );
    ok(&mut g, "casualties 1 infantry");
    // Round 2: the Germans (1 infantry, 1 tank) roll 1 and 6, one hit on the last defender:
    // the only choice again; it misses with a 6, and the battle is won.
    ok(&mut g, "press");
    let out = ok(&mut g, "roll 1 6 6");
    assert!(
        out.iter().any(|l| l == "Soviet Union loses 1 Infantry"),
        "{out:#?}"
    );
    finished_with_all_faces(&g);
}
