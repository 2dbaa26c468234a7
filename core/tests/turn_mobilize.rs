//! Purchase limits and the mobilize phase (../shared/rules/turn.md §3.1, §3.5), proven on the
//! 1941 and Anniversary boards: where new units enter play, how many a factory takes, what
//! happens to units left over, and refusals that name the rule they apply.

mod support;
use support::*;

fn purchased(g: &warroom_core::game::Game, power: &str) -> u32 {
    let p = g.rules().power(power).unwrap();
    g.state().purchased[p.index()].iter().map(|(_, n)| *n).sum()
}

fn facilities(g: &warroom_core::game::Game, space: &str) -> usize {
    let s = g.rules().board.find(space).unwrap();
    g.state().space(s).facilities.len()
}

/// 002 · Phase 5: "the industrial complex in Germany can mobilize up to 4 units, either in that
/// territory or in sea zone 5." Germany also holds Caucasus (a second factory) so that it can
/// buy more than Germany's factory takes.
#[test]
fn germany_places_at_most_four_units_through_its_factory_1941_prod_ipc() {
    let mut g = game("1941", &[], None);
    ok(&mut g, "edit control Caucasus Germany");
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 4 infantry");
    ok(&mut g, "buy 2 destroyer");
    advance_to(&mut g, "Germany", "mobilize");
    let out = ok(&mut g, "place 2 destroyer in SZ 5");
    assert!(
        out.iter().any(|l| l == "Germany places 2 Destroyer in SZ 5"),
        "{out:?}"
    );
    // Two ships at sea used half of Germany's four.
    refused(&mut g, "place 3 infantry in Germany", "mobilize-production-limit");
    ok(&mut g, "place 2 infantry in Germany");
    refused(&mut g, "place 1 infantry in Germany", "mobilize-production-limit");
    // Caucasus (IPC 2) takes the rest.
    ok(&mut g, "place 2 infantry in Caucasus");
    assert_eq!(count(&g, "SZ 5", "Germany", "destroyer"), 2);
    assert_eq!(count(&g, "Germany", "Germany", "infantry"), 5);
    assert_eq!(count(&g, "Caucasus", "Germany", "infantry"), 2);
    assert_eq!(purchased(&g, "Germany"), 0);
}

#[test]
fn units_are_placed_only_in_the_mobilize_phase_and_only_if_bought() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "buy 1 infantry");
    assert!(g.execute("place 1 infantry in Germany").is_err());
    advance_to(&mut g, "Germany", "mobilize");
    refused(&mut g, "place 2 infantry in Germany", "mobilize-purchased-units");
    refused(&mut g, "place 1 tank in Germany", "mobilize-purchased-units");
    refused(
        &mut g,
        "place 1 infantry in Eastern Europe",
        "mobilize-at-factory",
    );
    ok(&mut g, "place 1 infantry in Germany");
}

/// 002 · Phase 5: "You cannot use industrial complexes that you captured this turn."
#[test]
fn a_factory_captured_this_turn_cannot_mobilize_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "buy 2 infantry");
    advance_to(&mut g, "Germany", "noncombat_move");
    ok(&mut g, "edit control Caucasus Germany");
    advance_to(&mut g, "Germany", "mobilize");
    refused(
        &mut g,
        "place 1 infantry in Caucasus",
        "mobilize-factory-held-since-start",
    );
    ok(&mut g, "place 2 infantry in Germany");
}

/// 002 · Phase 5: "You can never use an industrial complex controlled by a friendly power."
#[test]
fn a_power_never_mobilizes_at_a_friendly_powers_factory_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "United Kingdom", "purchase");
    ok(&mut g, "buy 2 infantry");
    advance_to(&mut g, "United Kingdom", "mobilize");
    refused(&mut g, "place 1 infantry in Russia", "mobilize-allied-factory");
    ok(&mut g, "place 1 infantry in India");
    ok(&mut g, "place 1 infantry in United Kingdom");
}

/// 002 · Liberating a Territory: taken while the original controller's capital is in enemy
/// hands, "you capture the territory instead ... and you can use any industrial complex there
/// until the original controller's capital is liberated."
#[test]
fn a_friendly_powers_factory_is_usable_only_while_its_capital_is_lost_1941() {
    let mut g = game("1941", &[], None);
    ok(&mut g, "edit control Caucasus \"United Kingdom\"");
    advance_to(&mut g, "United Kingdom", "purchase");
    ok(&mut g, "buy 1 infantry");
    advance_to(&mut g, "United Kingdom", "mobilize");
    // Moscow stands: the Soviet factory is not the United Kingdom's to use.
    refused(&mut g, "place 1 infantry in Caucasus", "mobilize-allied-factory");

    let mut g = game("1941", &[], None);
    ok(&mut g, "edit control Caucasus \"United Kingdom\"");
    ok(&mut g, "edit control Russia Germany");
    advance_to(&mut g, "United Kingdom", "purchase");
    ok(&mut g, "buy 1 infantry");
    advance_to(&mut g, "United Kingdom", "mobilize");
    ok(&mut g, "place 1 infantry in Caucasus");
    assert_eq!(count(&g, "Caucasus", "United Kingdom", "infantry"), 1);
}

/// 002 · Restrictions on Placement: "New sea units can enter play even in a hostile sea zone.
/// No combat occurs" — but only next to an eligible factory.
#[test]
fn sea_units_enter_play_next_to_a_factory_even_in_a_hostile_zone_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 2 destroyer");
    advance_to(&mut g, "Germany", "mobilize");
    ok(&mut g, "edit add \"SZ 5\" \"United Kingdom\" 1 battleship");
    refused(&mut g, "place 1 destroyer in Germany", "mobilize-sea-adjacent");
    refused(&mut g, "place 1 destroyer in SZ 7", "mobilize-sea-adjacent");
    ok(&mut g, "place 2 destroyer in SZ 5");
    assert_eq!(count(&g, "SZ 5", "Germany", "destroyer"), 2);
    assert_eq!(count(&g, "SZ 5", "United Kingdom", "battleship"), 1);
    ok(&mut g, "end phase");
    assert_eq!(count(&g, "SZ 5", "Germany", "destroyer"), 2);
}

/// 002 · Restrictions on Placement: "Place new land units and bombers only in territories
/// containing eligible industrial complexes. Land units cannot enter play on transports."
#[test]
fn land_units_and_bombers_never_enter_play_at_sea_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 1 transport");
    ok(&mut g, "buy 1 infantry");
    ok(&mut g, "buy 1 bomber");
    advance_to(&mut g, "Germany", "mobilize");
    ok(&mut g, "place 1 transport in SZ 5");
    refused(
        &mut g,
        "place 1 infantry in SZ 5",
        "mobilize-in-factory-territory",
    );
    refused(&mut g, "place 1 bomber in SZ 5", "mobilize-in-factory-territory");
    ok(&mut g, "place 1 infantry in Germany");
    ok(&mut g, "place 1 bomber in Germany");
    assert_eq!(count(&g, "SZ 5", "Germany", "infantry"), 0);
    assert_eq!(count(&g, "Germany", "Germany", "bomber"), 2);
}

/// 002 · Restrictions on Placement: "You can even place new fighters on an aircraft carrier
/// currently being mobilized."
#[test]
fn fighters_enter_play_on_a_carrier_placed_this_phase_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 1 aircraft_carrier");
    ok(&mut g, "buy 3 fighter");
    advance_to(&mut g, "Germany", "mobilize");
    refused(&mut g, "place 1 fighter in SZ 5", "mobilize-fighter-carrier");
    ok(&mut g, "place 1 aircraft_carrier in SZ 5");
    refused(&mut g, "place 3 fighter in SZ 5", "mobilize-fighter-carrier");
    ok(&mut g, "place 2 fighter in SZ 5");
    ok(&mut g, "place 1 fighter in Germany");
    ok(&mut g, "end phase");
    assert_eq!(
        count(&g, "SZ 5", "Germany", "fighter"),
        2,
        "both fighters have room and survive"
    );
}

/// 002 · Restrictions on Placement: "you cannot place a new fighter on a carrier owned by a
/// friendly power."
#[test]
fn a_new_fighter_may_not_go_on_an_allys_carrier_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "United Kingdom", "purchase");
    ok(&mut g, "buy 1 fighter");
    advance_to(&mut g, "United Kingdom", "mobilize");
    ok(&mut g, "edit add \"SZ 8\" \"United States\" 1 aircraft_carrier");
    refused(&mut g, "place 1 fighter in SZ 8", "mobilize-fighter-carrier");
    ok(&mut g, "place 1 fighter in United Kingdom");
}

/// 002 · Phase 1: "You can purchase as many units of any type as you can afford and currently
/// have the ability to mobilize."
#[test]
fn purchases_are_capped_by_production_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 3 infantry");
    refused(&mut g, "buy 2 tank", "purchase-production-capacity");
    ok(&mut g, "buy 1 tank");
    refused(&mut g, "buy 1 infantry", "purchase-production-capacity");
    assert_eq!(treasury(&g, "Germany"), 100 - 9 - 6);
}

/// 002 · Phase 5: excess units "return ... to the box. The cost of the excess units is
/// reimbursed to you."
#[test]
fn units_not_mobilized_are_refunded_at_turn_end_1941_overbuy_refund() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 2 infantry");
    ok(&mut g, "buy 1 tank");
    advance_to(&mut g, "Germany", "mobilize");
    ok(&mut g, "place 1 infantry in Germany");
    ok(&mut g, "end phase");
    let before = treasury(&g, "Germany");
    let income = g.income(g.rules().power("Germany").unwrap());
    advance_to(&mut g, "United Kingdom", "purchase");
    // Income, then 3 (infantry) + 6 (tank) back.
    assert_eq!(treasury(&g, "Germany"), before + income + 9);
    assert_eq!(purchased(&g, "Germany"), 0);
    assert_eq!(count(&g, "Germany", "Germany", "infantry"), 4);
}

/// 002 · Phase 5: "If you declared your intention to mobilize a new carrier in a specific sea
/// zone to provide a safe landing place for a fighter, you must do so."
#[test]
fn a_declared_carrier_must_be_mobilized_where_the_fighter_waits_1941() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 1 aircraft_carrier");
    ok(&mut g, "buy 3 infantry");
    // A fighter four spaces from SZ 5 attacks there: its only landing is a new carrier.
    ok(&mut g, "edit add \"SZ 12\" Germany 1 fighter");
    ok(&mut g, "edit add \"SZ 5\" \"United Kingdom\" 1 destroyer");
    advance_to(&mut g, "Germany", "combat_move");
    let out = ok(&mut g, "move fighter from SZ 12 to SZ 5");
    assert!(
        out.iter().any(|l| l.contains("must be mobilized in SZ 5")),
        "{out:?}"
    );
    advance_to(&mut g, "Germany", "conduct_combat");
    ok(&mut g, "edit remove \"SZ 5\" \"United Kingdom\" 1 destroyer");
    advance_to(&mut g, "Germany", "mobilize");
    ok(&mut g, "place 3 infantry in Germany");
    refused(&mut g, "end phase", "mobilize-declared-carrier");
    ok(&mut g, "place 1 aircraft_carrier in SZ 5");
    ok(&mut g, "end phase");
    assert_eq!(
        count(&g, "SZ 5", "Germany", "fighter"),
        1,
        "the fighter landed on the new carrier"
    );
}

/// The declared carrier keeps its place in Germany's production: land units may not use it up.
#[test]
fn units_may_not_use_up_the_production_a_declared_carrier_needs_1941() {
    let mut g = game("1941", &[], None);
    ok(&mut g, "edit control Caucasus Germany");
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 1 aircraft_carrier");
    ok(&mut g, "buy 4 infantry");
    ok(&mut g, "edit add \"SZ 12\" Germany 1 fighter");
    ok(&mut g, "edit add \"SZ 5\" \"United Kingdom\" 1 destroyer");
    advance_to(&mut g, "Germany", "combat_move");
    ok(&mut g, "move fighter from SZ 12 to SZ 5");
    advance_to(&mut g, "Germany", "conduct_combat");
    ok(&mut g, "edit remove \"SZ 5\" \"United Kingdom\" 1 destroyer");
    advance_to(&mut g, "Germany", "mobilize");
    // Four infantry fit Germany's production of 4, but leave no room for the promised carrier.
    refused(&mut g, "place 4 infantry in Germany", "mobilize-declared-carrier");
    ok(&mut g, "place 3 infantry in Germany");
    ok(&mut g, "place 1 infantry in Caucasus");
    ok(&mut g, "place 1 aircraft_carrier in SZ 5");
    assert_eq!(purchased(&g, "Germany"), 0);
    ok(&mut g, "end phase");
    assert_eq!(count(&g, "SZ 5", "Germany", "fighter"), 1);
}

/// 001 · Phase 6: "If you do not place some of your units the turn you purchase them, they are
/// not lost. You can place them on one of your future turns"; and Phase 2: "You may buy as many
/// units as you can afford."
#[test]
fn units_not_placed_wait_for_a_later_turn_aa50_mob_carryover() {
    let mut g = game("anniversary", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "buy 12 infantry");
    advance_to(&mut g, "Germany", "mobilize");
    ok(&mut g, "place 10 infantry in Germany");
    refused(&mut g, "place 1 infantry in Germany", "mobilize-production-limit");
    ok(&mut g, "end phase");
    let after_buy = 100 - 36;
    advance_to(&mut g, "Soviet Union", "purchase");
    assert_eq!(purchased(&g, "Germany"), 2, "kept, not refunded");
    assert!(treasury(&g, "Germany") >= after_buy);
    let t = treasury(&g, "Germany");
    advance_to(&mut g, "Germany", "mobilize");
    assert_eq!(treasury(&g, "Germany"), t, "nothing refunded at the turn's end");
    let before = count(&g, "Germany", "Germany", "infantry");
    ok(&mut g, "place 2 infantry in Germany");
    assert_eq!(count(&g, "Germany", "Germany", "infantry"), before + 2);
    assert_eq!(purchased(&g, "Germany"), 0);
}

/// 001 · Phase 6 / Industrial Complexes: "Place new industrial complexes in any territory that
/// you have controlled since the start of your turn and that has an income value of at least 1.
/// You cannot have more than one industrial complex per territory"; units mobilize only at
/// complexes "you have controlled since the start of your turn".
#[test]
fn an_industrial_complex_is_built_where_the_rules_allow_aa50_ic_build() {
    let mut g = game("anniversary", &[], None);
    advance_to(&mut g, "Germany", "purchase");
    ok(&mut g, "edit treasury Germany 100");
    ok(&mut g, "edit control Gibraltar Germany");
    ok(&mut g, "buy 3 industrial_complex");
    ok(&mut g, "buy 1 infantry");
    advance_to(&mut g, "Germany", "mobilize");
    refused(
        &mut g,
        "place industrial_complex in Gibraltar",
        "mobilize-facility-build",
    );
    refused(
        &mut g,
        "place industrial_complex in SZ 5",
        "mobilize-facility-build",
    );
    refused(
        &mut g,
        "place industrial_complex in Germany",
        "mobilize-facility-build",
    );
    refused(
        &mut g,
        "place 2 industrial_complex in Poland",
        "mobilize-facility-build",
    );
    ok(&mut g, "place industrial_complex in Poland");
    assert_eq!(facilities(&g, "Poland"), 1);
    refused(
        &mut g,
        "place industrial_complex in Poland",
        "mobilize-facility-build",
    );
    // Built this turn: it mobilizes from the next turn.
    refused(
        &mut g,
        "place 1 infantry in Poland",
        "mobilize-factory-held-since-start",
    );
    ok(&mut g, "end phase");
    advance_to(&mut g, "Germany", "mobilize");
    // Gibraltar is now German since the start of the turn, but worth 0 IPCs.
    refused(
        &mut g,
        "place industrial_complex in Gibraltar",
        "mobilize-facility-build",
    );
    let before = count(&g, "Poland", "Germany", "infantry");
    ok(&mut g, "place 1 infantry in Poland");
    assert_eq!(count(&g, "Poland", "Germany", "infantry"), before + 1);
}

/// 001 · Phase 6: "You cannot place your new units at an industrial complex owned by a friendly
/// power, unless that power's capital is in enemy control and you have taken control of the
/// industrial complex from an enemy power after the friendly power's capital was captured."
#[test]
fn a_friendly_powers_factory_is_usable_after_its_capital_fell_aa50_ic_ally() {
    let mut g = game("anniversary", &[], None);
    ok(&mut g, "edit control Caucasus \"United Kingdom\"");
    advance_to(&mut g, "United Kingdom", "purchase");
    ok(&mut g, "buy 1 infantry");
    advance_to(&mut g, "United Kingdom", "mobilize");
    refused(&mut g, "place 1 infantry in Caucasus", "mobilize-allied-factory");
    refused(&mut g, "place 1 infantry in Russia", "mobilize-allied-factory");

    let mut g = game("anniversary", &[], None);
    ok(&mut g, "edit control Caucasus \"United Kingdom\"");
    ok(&mut g, "edit control Russia Germany");
    advance_to(&mut g, "United Kingdom", "purchase");
    ok(&mut g, "buy 5 infantry");
    advance_to(&mut g, "United Kingdom", "mobilize");
    refused(
        &mut g,
        "place 5 infantry in Caucasus",
        "mobilize-production-limit",
    );
    ok(&mut g, "place 4 infantry in Caucasus");
    assert_eq!(count(&g, "Caucasus", "United Kingdom", "infantry"), 4);
}
