//! Declarations of war and powers at peace, on the real 1940 boards: who starts at peace
//! (scenario `at_peace`), when war may be declared (`[politics]`), the rulebooks' conditions
//! (the editions' politics.lua, vetoing `validate_declaration`) and what peace forbids.
//! Test names end with the rule ids of ../shared/rules/special.md they check.

mod support;

use support::*;
use warroom_core::game::state::Relation;
use warroom_core::game::Game;

fn relation(g: &Game, a: &str, b: &str) -> Relation {
    let r = g.rules();
    let (a, b) = (r.power(a).unwrap(), r.power(b).unwrap());
    g.state().relations[a.index()][b.index()]
}

/// End phases until `power`'s phase `phase` of round `round`.
fn advance_to_round(g: &mut Game, round: u32, power: &str, phase: &str) {
    for _ in 0..2000 {
        let p = g.rules().power_info(g.current_power()).name.clone();
        if g.state().round == round && p == power && g.current_phase().id == phase {
            return;
        }
        ok(g, "end phase");
    }
    panic!("never reached round {round} {power} {phase}");
}

/// Answer the battle in progress with the defaults (seeded dice) until it is over.
fn fight_out(g: &mut Game) {
    use warroom_core::combat::Need;
    for _ in 0..50 {
        let waiting = g.state().combat.as_ref().and_then(|b| b.waiting.clone());
        match waiting {
            None => return,
            Some(Need::PressOrRetreat) => ok(g, "press"),
            Some(Need::Casualties(_)) => ok(g, "casualties"),
            Some(other) => panic!("unexpected question {other:?}"),
        };
    }
    panic!("the battle did not end");
}

#[test]
fn europe_starts_with_the_soviet_union_and_the_united_states_at_peace_e40_pol_ger_uk_ita_fra() {
    let g = game("europe1940", &[], None);
    for axis in ["Germany", "Italy"] {
        for allied in ["United Kingdom", "France"] {
            assert_eq!(relation(&g, axis, allied), Relation::War, "{axis} and {allied}");
        }
        for neutral in ["Soviet Union", "United States"] {
            assert_eq!(
                relation(&g, axis, neutral),
                Relation::Peace,
                "{axis} and {neutral}"
            );
            assert_eq!(
                relation(&g, neutral, axis),
                Relation::Peace,
                "{neutral} and {axis}"
            );
        }
    }
    assert_eq!(relation(&g, "Germany", "Italy"), Relation::Allied);
    assert_eq!(relation(&g, "Soviet Union", "United States"), Relation::Allied);
}

#[test]
fn editions_without_at_peace_start_every_enemy_at_war() {
    let g = game("1941", &[], None);
    assert_eq!(relation(&g, "Germany", "Soviet Union"), Relation::War);
    assert_eq!(relation(&g, "Japan", "United States"), Relation::War);
    let mut g = game("anniversary", &[], None);
    assert_eq!(relation(&g, "Italy", "China"), Relation::War);
    advance_to(&mut g, "Germany", "combat_move");
    let r = refused(&mut g, "declare war on Soviet Union", "declare-war");
    assert!(r.message.contains("already at war"), "{r}");
}

#[test]
fn germany_declares_war_on_the_soviet_union_at_the_start_of_combat_move_and_attacks_e40_pol_ger_e40_dow_timing(
) {
    let mut g = game("europe1940", &[], None);
    let r = refused(&mut g, "declare war on Soviet Union", "declare-war-timing");
    assert!(r.message.contains("start of Combat Move"), "{r}");
    advance_to(&mut g, "Germany", "combat_move");
    let r = refused(
        &mut g,
        "move 3 infantry, tank from Poland to \"Eastern Poland\"",
        "powers-at-peace",
    );
    assert!(
        r.message.contains("Germany is at peace with Soviet Union")
            && r.message
                .contains("`declare war on \"Soviet Union\"` at the start of Combat Move"),
        "{r}"
    );
    let out = ok(&mut g, "declare war on sov");
    assert!(logged(&out, "Germany declares war on Soviet Union"), "{out:?}");
    assert_eq!(relation(&g, "Germany", "Soviet Union"), Relation::War);
    assert_eq!(relation(&g, "Soviet Union", "Germany"), Relation::War);
    // Only the two of them: Italy and the United States are as they were (E40-DOW-EFFECT).
    assert_eq!(relation(&g, "Italy", "Soviet Union"), Relation::Peace);
    assert_eq!(relation(&g, "Germany", "United States"), Relation::Peace);
    let r = refused(&mut g, "declare war on Soviet Union", "declare-war");
    assert!(r.message.contains("already at war"), "{r}");
    refused(&mut g, "declare war on Italy", "declare-war");
    ok(&mut g, "move 3 infantry, tank from Poland to \"Eastern Poland\"");
    let east = g.rules().board.find("Eastern Poland").unwrap();
    assert!(
        g.state().this_turn.battle(east).is_some(),
        "the attack is a battle"
    );
    ok(&mut g, "end phase");
    let out = ok(&mut g, "fight \"Eastern Poland\"");
    assert!(
        logged(
            &out,
            "Germany attacks with 3 Infantry, 1 Tank; Soviet Union defends with 2 Infantry"
        ),
        "{out:?}"
    );
}

#[test]
fn a_declaration_after_a_move_in_the_phase_is_refused_e40_dow_timing() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "declare war on Soviet Union");
    ok(&mut g, "move 3 infantry, tank from Poland to \"Eastern Poland\"");
    let r = refused(&mut g, "declare war on United States", "declare-war-timing");
    assert!(r.message.contains("before any combat movement"), "{r}");
    // Taking the move back puts the phase at its start again.
    ok(&mut g, "undo");
    ok(&mut g, "declare war on United States");
    assert_eq!(relation(&g, "Germany", "United States"), Relation::War);
    // Later phases are not the start of combat move.
    ok(&mut g, "end phase");
    let r = refused(&mut g, "declare war on Soviet Union", "declare-war");
    assert!(r.message.contains("already"), "{r}");
}

#[test]
fn a_declaration_is_undone_like_any_command() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    let before = g.hash();
    ok(&mut g, "declare war on Soviet Union");
    ok(&mut g, "undo");
    assert_eq!(g.hash(), before);
    assert_eq!(relation(&g, "Germany", "Soviet Union"), Relation::Peace);
}

#[test]
fn the_soviet_union_may_not_declare_war_before_its_fourth_turn_e40_pol_ussr() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Soviet Union", "combat_move");
    let r = refused(&mut g, "declare war on Germany", "europe1940.E40-POL-USSR");
    assert!(
        r.message.contains("before its 4th turn") && r.message.contains("this is its turn 1"),
        "{r}"
    );
    refused(&mut g, "declare war on Italy", "europe1940.E40-POL-USSR");
    advance_to_round(&mut g, 3, "Soviet Union", "combat_move");
    refused(&mut g, "declare war on Germany", "europe1940.E40-POL-USSR");
    advance_to_round(&mut g, 4, "Soviet Union", "combat_move");
    ok(&mut g, "declare war on Germany");
    ok(&mut g, "declare war on Italy");
    assert_eq!(relation(&g, "Italy", "Soviet Union"), Relation::War);
}

#[test]
fn the_soviet_union_may_declare_war_once_an_axis_power_declared_war_on_it_e40_pol_ussr() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "declare war on Soviet Union");
    advance_to(&mut g, "Soviet Union", "combat_move");
    // At war with Germany already; Italy is now a power it may declare war on.
    refused(&mut g, "declare war on Germany", "declare-war");
    let out = ok(&mut g, "declare war on Italy");
    assert!(logged(&out, "Soviet Union declares war on Italy"), "{out:?}");
    assert_eq!(relation(&g, "Italy", "Soviet Union"), Relation::War);
    // The United States is not freed by a war that is not its own.
    advance_to(&mut g, "United States", "combat_move");
    refused(&mut g, "declare war on Germany", "europe1940.E40-POL-US");
}

/// Germany takes London in its first turn: the board is cleared by hand, the capture is real.
fn germany_takes_london(g: &mut Game) {
    clear(g, "Scotland");
    clear(g, "United Kingdom");
    ok(g, "edit control Scotland Germany");
    ok(g, "edit add Scotland Germany 1 infantry");
    advance_to(g, "Germany", "combat_move");
    ok(g, "move 1 infantry from Scotland to \"United Kingdom\"");
    ok(g, "end phase");
    ok(g, "end phase");
    assert_eq!(controller(g, "United Kingdom").as_deref(), Some("Germany"));
}

#[test]
fn london_in_axis_hands_frees_the_soviet_union_and_the_united_states_e40_pol_ussr_e40_pol_us() {
    let mut g = game("europe1940", &[], None);
    germany_takes_london(&mut g);
    advance_to(&mut g, "Soviet Union", "combat_move");
    ok(&mut g, "declare war on Germany");
    advance_to(&mut g, "United States", "combat_move");
    ok(&mut g, "declare war on Italy");
    assert_eq!(relation(&g, "Italy", "United States"), Relation::War);
    // A save replays the capture, what the script remembered of it and the declarations.
    let text = g.save_text();
    assert!(text.contains("declare war on Italy"), "{text}");
    let loaded = warroom_core::game::save::load(std::path::Path::new("g.toml"), &text, &editions())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.hash(), g.hash());
    assert_eq!(relation(&loaded, "Soviet Union", "Germany"), Relation::War);
}

#[test]
fn the_united_states_may_declare_war_only_when_provoked_or_from_its_third_collect_income_e40_pol_us() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "United States", "combat_move");
    let r = refused(&mut g, "declare war on Germany", "europe1940.E40-POL-US");
    assert!(r.message.contains("North America"), "{r}");
    advance_to(&mut g, "United States", "collect_income");
    let r = refused(&mut g, "declare war on Germany", "europe1940.E40-POL-US");
    assert!(r.message.contains("only from its turn 3"), "{r}");
    // Collect Income is the United States' exception, nobody else's.
    advance_to(&mut g, "United Kingdom", "collect_income");
    refused(&mut g, "declare war on Germany", "declare-war");
    advance_to_round(&mut g, 3, "United States", "combat_move");
    refused(&mut g, "declare war on Germany", "europe1940.E40-POL-US");
    advance_to_round(&mut g, 3, "United States", "collect_income");
    ok(&mut g, "declare war on Germany");
    ok(&mut g, "declare war on Italy");
    assert_eq!(relation(&g, "United States", "Germany"), Relation::War);
    assert_eq!(relation(&g, "United States", "Italy"), Relation::War);
    // At war, the United States collects its income as before.
    ok(&mut g, "end phase");
    assert_eq!(g.rules().power_info(g.current_power()).name, "United Kingdom");
}

#[test]
fn the_united_states_may_declare_war_on_its_turn_after_an_axis_declaration_e40_pol_us() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "declare war on United States");
    advance_to(&mut g, "United States", "purchase");
    refused(&mut g, "declare war on Italy", "declare-war-timing");
    advance_to(&mut g, "United States", "combat_move");
    ok(&mut g, "declare war on Italy");
    assert_eq!(relation(&g, "United States", "Italy"), Relation::War);
}

#[test]
fn land_units_may_not_enter_a_territory_of_a_power_at_peace_e40_notwar_combat() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "noncombat_move");
    let r = refused(
        &mut g,
        "move 1 infantry from Poland to \"Eastern Poland\"",
        "powers-at-peace",
    );
    assert!(r.message.contains("at peace with Soviet Union"), "{r}");
    // Nor pass through one on the way (Slovakia Hungary to Baltic States through Eastern Poland).
    refused(
        &mut g,
        "move 1 tank from \"Slovakia Hungary\" to \"Baltic States\" via \"Eastern Poland\"",
        "powers-at-peace",
    );
}

#[test]
fn aircraft_may_not_fly_over_a_neutral_power_until_war_is_declared_e40_notwar_combat() {
    let cmd = "move 1 fighter from \"Slovakia Hungary\" to Romania via \"Eastern Poland\"";
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "noncombat_move");
    refused(&mut g, cmd, "powers-at-peace");
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "declare war on Soviet Union");
    advance_to(&mut g, "Germany", "noncombat_move");
    ok(&mut g, cmd);
    assert_eq!(count(&g, "Romania", "Germany", "fighter"), 1);
}

#[test]
fn a_territory_holding_units_of_a_power_at_peace_cannot_be_attacked_e40_notwar_combat() {
    let mut g = game("europe1940", &[], None);
    ok(&mut g, "edit add Normandy/Bordeaux \"Soviet Union\" 1 infantry");
    advance_to(&mut g, "Germany", "combat_move");
    let r = refused(
        &mut g,
        "move 1 tank from Holland/Belgium to Normandy/Bordeaux",
        "powers-at-peace",
    );
    assert!(r.message.contains("at peace with Soviet Union"), "{r}");
    refused(
        &mut g,
        "move 1 fighter from Holland/Belgium to Normandy/Bordeaux",
        "powers-at-peace",
    );
    ok(&mut g, "move 1 tank from Holland/Belgium to France");
}

#[test]
fn ships_of_a_power_at_peace_neither_block_nor_fight_e40_notwar_move_e40_notwar_combat() {
    // SZ 115 holds a Soviet submarine and cruiser. German ships share it in noncombat move...
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "noncombat_move");
    ok(&mut g, "move 1 cruiser from \"SZ 114\" to \"SZ 115\"");
    // ... and attacking a British ship there leaves the Soviet ships out of the battle.
    let mut g = game("europe1940", &[], None);
    ok(&mut g, "edit add \"SZ 115\" \"United Kingdom\" 1 destroyer");
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "move 1 cruiser from \"SZ 114\" to \"SZ 115\"");
    ok(&mut g, "end phase");
    let out = ok(&mut g, "fight \"SZ 115\"");
    assert!(
        logged(
            &out,
            "Germany attacks with 1 Cruiser; United Kingdom defends with 1 Destroyer"
        ),
        "{out:?}"
    );
    assert!(!logged(&out, "Soviet"), "{out:?}");
    fight_out(&mut g);
    assert_eq!(count(&g, "SZ 115", "Soviet Union", "submarine"), 1);
    assert_eq!(count(&g, "SZ 115", "Soviet Union", "cruiser"), 1);
}

#[test]
fn a_saved_declaration_replays() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "declare war on sov");
    ok(&mut g, "move 3 infantry, tank from Poland to \"Eastern Poland\"");
    let text = g.save_text();
    assert!(text.contains("declare war on"), "{text}");
    let loaded = warroom_core::game::save::load(std::path::Path::new("g.toml"), &text, &editions())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.hash(), g.hash());
    assert_eq!(relation(&loaded, "Germany", "Soviet Union"), Relation::War);
}

#[test]
fn global_starts_japan_at_war_with_china_alone_g40_pol_jpn_g40_pol_ger() {
    let g = game("global1940", &[], None);
    assert_eq!(relation(&g, "Japan", "China"), Relation::War);
    for p in [
        "Soviet Union",
        "United States",
        "United Kingdom",
        "UK Pacific",
        "ANZAC",
        "France",
        "Netherlands",
    ] {
        assert_eq!(relation(&g, "Japan", p), Relation::Peace, "Japan and {p}");
    }
    for p in ["United Kingdom", "UK Pacific", "ANZAC", "France"] {
        assert_eq!(relation(&g, "Germany", p), Relation::War, "Germany and {p}");
        assert_eq!(relation(&g, "Italy", p), Relation::War, "Italy and {p}");
    }
    for p in ["Soviet Union", "United States", "China"] {
        assert_eq!(relation(&g, "Germany", p), Relation::Peace, "Germany and {p}");
        assert_eq!(relation(&g, "Italy", p), Relation::Peace, "Italy and {p}");
    }
}

#[test]
fn japan_declaring_on_the_united_kingdom_is_war_with_anzac_and_the_dutch_and_frees_the_us_g40_pol_jpn_g40_pol_us(
) {
    let mut g = game("global1940", &[], None);
    advance_to(&mut g, "Japan", "combat_move");
    // UK Pacific is the United Kingdom's economy: declaring on it is declaring on the UK.
    let out = ok(&mut g, "declare war on \"UK Pacific\"");
    assert!(logged(&out, "Japan declares war on United Kingdom"), "{out:?}");
    assert!(
        logged(
            &out,
            "at war now: Japan with United Kingdom, UK Pacific, ANZAC, Netherlands"
        ),
        "{out:?}"
    );
    for p in ["United Kingdom", "UK Pacific", "ANZAC", "Netherlands"] {
        assert_eq!(relation(&g, "Japan", p), Relation::War, "Japan and {p}");
    }
    assert_eq!(relation(&g, "Japan", "France"), Relation::Peace);
    assert_eq!(relation(&g, "Japan", "United States"), Relation::Peace);
    assert_eq!(relation(&g, "Germany", "Netherlands"), Relation::War);
    advance_to(&mut g, "United States", "combat_move");
    ok(&mut g, "declare war on Japan");
    ok(&mut g, "declare war on Germany");
}

#[test]
fn the_united_kingdom_declares_war_on_japan_for_anzac_too_g40_pol_uk() {
    let mut g = game("global1940", &[], None);
    advance_to(&mut g, "United Kingdom", "combat_move");
    ok(&mut g, "declare war on Japan");
    assert_eq!(relation(&g, "ANZAC", "Japan"), Relation::War);
    assert_eq!(relation(&g, "UK Pacific", "Japan"), Relation::War);
    // Not a Japanese declaration: the United States stays bound.
    advance_to_round(&mut g, 2, "United States", "combat_move");
    refused(&mut g, "declare war on Japan", "global1940.G40-POL-US");
}

#[test]
fn the_soviet_union_may_declare_war_on_japan_but_not_on_germany_g40_pol_ussr() {
    let mut g = game("global1940", &[], None);
    advance_to(&mut g, "Soviet Union", "combat_move");
    let r = refused(&mut g, "declare war on Germany", "global1940.G40-POL-USSR");
    assert!(r.message.contains("before turn 4"), "{r}");
    ok(&mut g, "declare war on Japan");
    // A war with Japan does not free it toward Germany, nor touch Japan's other relations.
    refused(&mut g, "declare war on Italy", "global1940.G40-POL-USSR");
    assert_eq!(relation(&g, "Japan", "United Kingdom"), Relation::Peace);
    assert_eq!(relation(&g, "Japan", "United States"), Relation::Peace);
}

#[test]
fn italy_declares_war_on_each_power_independently_e40_pol_ita_g40_pol_ita() {
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Italy", "combat_move");
    ok(&mut g, "declare war on United States");
    assert_eq!(relation(&g, "Italy", "United States"), Relation::War);
    assert_eq!(relation(&g, "Italy", "Soviet Union"), Relation::Peace);
    assert_eq!(relation(&g, "Germany", "United States"), Relation::Peace);
    let mut g = game("global1940", &[], None);
    advance_to(&mut g, "Italy", "combat_move");
    ok(&mut g, "declare war on China");
    assert_eq!(relation(&g, "Italy", "China"), Relation::War);
    assert_eq!(relation(&g, "Germany", "China"), Relation::Peace);
}

#[test]
fn anzac_declares_war_on_japan_for_the_united_kingdom_and_france_for_itself_g40_pol_anz_g40_pol_fra() {
    let mut g = game("global1940", &[], None);
    advance_to(&mut g, "ANZAC", "combat_move");
    ok(&mut g, "declare war on Japan");
    for p in ["United Kingdom", "UK Pacific", "ANZAC", "Netherlands"] {
        assert_eq!(relation(&g, "Japan", p), Relation::War, "Japan and {p}");
    }
    assert_eq!(relation(&g, "Japan", "France"), Relation::Peace);
    advance_to(&mut g, "France", "combat_move");
    let out = ok(&mut g, "declare war on Japan");
    assert!(!logged(&out, "at war now"), "France alone: {out:?}");
    assert_eq!(relation(&g, "Japan", "France"), Relation::War);
    assert_eq!(relation(&g, "Japan", "United States"), Relation::Peace);
}

#[test]
fn china_may_declare_war_on_germany_only_after_german_units_enter_china_g40_pol_chn() {
    let mut g = game("global1940", &[], None);
    advance_to(&mut g, "China", "combat_move");
    refused(&mut g, "declare war on Germany", "global1940.G40-POL-CHN");
    // A German infantry in Japanese-held Jehol (placed by hand) moves into Japanese-held
    // Manchuria, a territory Chinese units may enter; Chinese-held Chahar it may not enter.
    ok(&mut g, "edit add Jehol Germany 1 infantry");
    advance_to_round(&mut g, 2, "Germany", "noncombat_move");
    refused(&mut g, "move 1 infantry from Jehol to Chahar", "powers-at-peace");
    ok(&mut g, "move 1 infantry from Jehol to Manchuria");
    advance_to_round(&mut g, 2, "China", "combat_move");
    refused(&mut g, "declare war on Italy", "global1940.G40-POL-CHN");
    ok(&mut g, "declare war on Germany");
}

#[test]
fn pacific_starts_japan_at_war_with_china_alone_and_binds_the_united_states() {
    let mut g = game("pacific1940", &[], None);
    assert_eq!(relation(&g, "Japan", "China"), Relation::War);
    assert_eq!(relation(&g, "Japan", "United States"), Relation::Peace);
    assert_eq!(relation(&g, "Japan", "ANZAC"), Relation::Peace);
    advance_to(&mut g, "United States", "combat_move");
    refused(&mut g, "declare war on Japan", "pacific1940.G40-POL-US");
    advance_to_round(&mut g, 3, "United States", "collect_income");
    ok(&mut g, "declare war on Japan");
}

#[test]
fn a_script_veto_changes_nothing() {
    // The refusal is the script's; the game (state and stores) is as before (`refused`).
    let mut g = game("europe1940", &[], None);
    advance_to(&mut g, "Soviet Union", "combat_move");
    let before = g.history().len();
    refused(&mut g, "declare war on Germany", "europe1940.E40-POL-USSR");
    assert_eq!(g.history().len(), before);
    assert_eq!(relation(&g, "Soviet Union", "Germany"), Relation::Peace);
}

/// The Soviet Union's Berlin bonus is paid the first time it holds Germany, and never again,
/// even after a save and a load (the objectives' layer keeps it in its store): e40_no_ussr_4.
#[test]
fn the_soviet_berlin_bonus_is_paid_once_and_a_save_remembers_it_e40_no_ussr_4() {
    let mut g = game("europe1940", &[], None);
    ok(&mut g, "edit relation Germany \"Soviet Union\" war");
    // Berlin Soviet, and empty: German aircraft there would have to fly elsewhere to land.
    clear(&mut g, "Germany");
    ok(&mut g, "edit control Germany \"Soviet Union\"");
    advance_to(&mut g, "Soviet Union", "collect_income");
    let out = ok(&mut g, "end phase");
    assert!(logged(&out, "E40-NO-USSR-4"), "{out:?}");
    let text = g.save_text();
    let mut g = warroom_core::game::save::load(std::path::Path::new("g.toml"), &text, &editions())
        .unwrap_or_else(|e| panic!("{e}"));
    advance_to(&mut g, "Soviet Union", "collect_income");
    let before = treasury(&g, "Soviet Union");
    let out = ok(&mut g, "end phase");
    assert!(!logged(&out, "E40-NO-USSR-4"), "{out:?}");
    // Still paid: Siberia, Lend-Lease and Germany itself (originally German).
    assert!(logged(&out, "E40-NO-USSR-3"), "{out:?}");
    assert!(treasury(&g, "Soviet Union") > before);
}
