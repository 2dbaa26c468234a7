//! Movement rules of combat and noncombat move (../shared/rules/turn.md §3.2, §3.4; the 1941
//! rulebook's "Phase 2: Combat Move", "Special Combat Movement", "Phase 4: Noncombat Move"),
//! proven on the 1941 and Anniversary boards: legal moves, and refusals that name the rule
//! they apply and leave the game unchanged.

mod support;
use support::*;

const SU: &str = "Soviet Union";
const GER: &str = "Germany";
const UK: &str = "United Kingdom";
const US: &str = "United States";

fn at(power: &str, phase: &str) -> warroom_core::game::Game {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, power, phase);
    g
}

// --- land units ---------------------------------------------------------------------------

#[test]
fn land_units_stop_on_entering_a_hostile_territory() {
    let mut g = at(SU, "combat_move");
    ok(&mut g, "move 3 infantry from Karelia to Eastern Europe");
    assert_eq!(count(&g, "Eastern Europe", SU, "infantry"), 3);
    ok(&mut g, "move tank from Caucasus to Ukraine");
    refused(
        &mut g,
        "move tank from Ukraine to Eastern Europe",
        "stop-on-entering-hostile",
    );
    // A tank cannot pass an occupied hostile territory either.
    refused(
        &mut g,
        "move tank from Russia to Eastern Europe via West Russia",
        "blitz",
    );
}

#[test]
fn combat_moves_end_in_a_hostile_space() {
    let mut g = at(SU, "combat_move");
    let r = refused(
        &mut g,
        "move 1 infantry from Russia to Archangel",
        "combat-move-ends-hostile",
    );
    assert!(r.message.contains("noncombat move"), "{r}");
}

#[test]
fn a_tank_blitzes_through_one_empty_hostile_territory_and_takes_it() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 3 infantry");
    let out = ok(
        &mut g,
        "move tank from \"Eastern Europe\" to Archangel via Karelia",
    );
    assert!(out.iter().any(|l| l.contains("blitz through Karelia")), "{out:?}");
    assert_eq!(controller(&g, "Karelia").as_deref(), Some(GER));
    assert_eq!(count(&g, "Archangel", GER, "tank"), 1);
}

#[test]
fn the_engine_prefers_a_path_without_a_blitz() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 3 infantry");
    // Through empty Karelia (a blitz) or German-held West Russia: the engine takes the latter.
    ok(&mut g, "move tank from \"Eastern Europe\" to Archangel");
    assert_eq!(controller(&g, "Karelia").as_deref(), Some(SU));
    // Named explicitly, the blitz happens.
    ok(
        &mut g,
        "move tank from \"Eastern Europe\" to Archangel via Karelia",
    );
    assert_eq!(controller(&g, "Karelia").as_deref(), Some(GER));
}

#[test]
fn a_blitz_may_end_back_where_it_started() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 3 infantry");
    ok(
        &mut g,
        "move tank from \"Eastern Europe\" to \"Eastern Europe\" via Karelia",
    );
    assert_eq!(controller(&g, "Karelia").as_deref(), Some(GER));
    assert_eq!(count(&g, "Eastern Europe", GER, "tank"), 2);
}

#[test]
fn a_blitz_stops_at_an_industrial_complex_or_enemy_units() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit remove Caucasus \"Soviet Union\" 3 infantry");
    ok(&mut g, "edit remove Caucasus \"Soviet Union\" 1 tank");
    // Caucasus is empty of units but holds a Soviet industrial complex.
    let r = refused(&mut g, "move tank from Ukraine to Russia via Caucasus", "blitz");
    assert!(r.message.contains("facilities"), "{r}");
}

#[test]
fn noncombat_moves_stay_in_friendly_territory() {
    let mut g = at(SU, "noncombat_move");
    refused(
        &mut g,
        "move 1 infantry from Karelia to \"Eastern Europe\"",
        "noncombat-move-friendly",
    );
    ok(&mut g, "move 2 infantry from Russia to Archangel");
    assert_eq!(count(&g, "Archangel", SU, "infantry"), 5);
    // Through a hostile territory is no better than into one.
    refused(
        &mut g,
        "move tank from Caucasus to Karelia via \"West Russia\"",
        "noncombat-move-friendly",
    );
}

#[test]
fn units_that_moved_in_combat_move_sit_out_noncombat_move() {
    let mut g = at(SU, "combat_move");
    ok(&mut g, "edit remove \"West Russia\" Germany 3 infantry");
    ok(&mut g, "move tank from Russia to \"West Russia\"");
    ok(&mut g, "end phase"); // conduct combat: West Russia is taken
    ok(&mut g, "end phase");
    assert_eq!(controller(&g, "West Russia").as_deref(), Some(SU));
    refused(
        &mut g,
        "move tank from \"West Russia\" to Russia",
        "noncombat-after-combat",
    );
}

#[test]
fn neutral_territories_cannot_be_entered_or_overflown() {
    let mut g = at(SU, "combat_move");
    refused(
        &mut g,
        "move 1 infantry from Caucasus to Turkey",
        "neutral-impassable",
    );
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    // A fighter may not cross Turkey even though the path is short.
    ok(&mut g, "edit add Caucasus \"Soviet Union\" 1 fighter");
    refused(
        &mut g,
        "move fighter from Caucasus to \"Southern Europe\" via Turkey ",
        "neutral-impassable",
    );
}

#[test]
fn a_mistyped_move_is_refused_with_a_hint() {
    let mut g = at(SU, "combat_move");
    let r = g
        .execute("move 3 infantry from Karelai to Eastern Europe")
        .unwrap_err();
    assert!(r.message.contains("did you mean `Karelia`"), "{r}");
    let r = g.execute("move 3 infantry Karelia Eastern Europe").unwrap_err();
    assert!(r.message.contains("usage: move"), "{r}");
    let r = g
        .execute("move 9 infantry from Karelia to \"Eastern Europe\"")
        .unwrap_err();
    assert!(r.message.contains("3 Infantry"), "{r}");
}

// --- air units ----------------------------------------------------------------------------

#[test]
fn air_units_must_show_a_landing_place_before_combat() {
    let mut g = at(GER, "combat_move");
    // Germany's fighter (move 4): to Karelia is 2 spaces, 2 left to come home.
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 2 infantry");
    ok(&mut g, "move fighter from Germany to Karelia");
    // A bomber (move 6) to Caucasus is 3 spaces, 3 left: Ukraine or Eastern Europe are friendly.
    ok(&mut g, "move bomber from Germany to Caucasus");
    // A fighter from Western Europe to Russia needs 4 spaces: nothing left to land.
    let r = refused(
        &mut g,
        "move fighter from \"Western Europe\" to Russia",
        "air-must-be-able-to-land",
    );
    assert!(r.message.contains("0 movement left"), "{r}");
}

#[test]
fn a_fighter_may_use_its_whole_move_only_where_a_carrier_can_meet_it() {
    // Four spaces out to a battle in SZ 7 leaves nothing: it must land right there.
    const FAR: &str = "move fighter from \"United Kingdom\" to \"SZ 7\" via \"SZ 8\", \"SZ 9\", \"SZ 6\"";
    let setup = |g: &mut warroom_core::game::Game| {
        ok(g, "edit remove \"SZ 14\" \"United Kingdom\" 1 aircraft_carrier");
        ok(g, "edit add \"SZ 7\" Germany 1 destroyer");
    };
    let mut g = at(UK, "combat_move");
    setup(&mut g);
    refused(&mut g, FAR, "air-must-be-able-to-land");
    // A carrier that can still sail there is a landing place.
    ok(&mut g, "edit add \"SZ 14\" \"United Kingdom\" 1 aircraft_carrier");
    ok(&mut g, FAR);
    // So is a carrier bought this turn, to be mobilized next to London: the promise is noted.
    let mut g = at(UK, "purchase");
    ok(&mut g, "buy 1 aircraft_carrier");
    ok(&mut g, "end phase");
    setup(&mut g);
    let out = ok(&mut g, FAR);
    assert!(
        out.iter().any(|l| l.contains("must be mobilized in SZ 7")),
        "{out:?}"
    );
}

#[test]
fn an_air_units_move_is_shared_between_combat_and_noncombat_move() {
    let mut g = at(GER, "combat_move");
    // Western Europe to Karelia overland is 3 spaces: the fighter has 1 left for noncombat move.
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 2 infantry");
    ok(
        &mut g,
        "move fighter from \"Western Europe\" to Karelia via Germany, \"Eastern Europe\"",
    );
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 1 infantry");
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    refused(&mut g, "move fighter from Karelia to Germany", "movement-range");
    ok(&mut g, "move fighter from Karelia to \"Eastern Europe\"");
}

#[test]
fn air_units_cannot_capture_territory_alone() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 3 infantry");
    refused(
        &mut g,
        "move fighter from Germany to Karelia",
        "air-cannot-capture",
    );
    ok(&mut g, "move 1 infantry from \"Eastern Europe\" to Karelia");
    ok(&mut g, "move fighter from Germany to Karelia");
}

#[test]
fn air_units_land_only_where_friendly_since_the_start_of_the_turn() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 3 infantry");
    ok(&mut g, "move 1 infantry from \"Eastern Europe\" to Karelia");
    ok(&mut g, "move fighter from Germany to Karelia");
    ok(&mut g, "end phase");
    ok(&mut g, "end phase"); // Karelia captured
    assert_eq!(controller(&g, "Karelia").as_deref(), Some(GER));
    refused(
        &mut g,
        "move fighter from Karelia to Karelia via \"Eastern Europe\"",
        "air-landing",
    );
    // The fighter used 2 of 4 moves: home is 2 away.
    ok(&mut g, "move fighter from Karelia to Germany");
    assert_eq!(count(&g, "Germany", GER, "fighter"), 1);
}

#[test]
fn air_units_left_without_a_landing_place_are_lost_at_the_end_of_noncombat_move() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 3 infantry");
    ok(&mut g, "move 1 infantry from \"Eastern Europe\" to Karelia");
    ok(&mut g, "move fighter from Germany to Karelia");
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    let out = ok(&mut g, "end phase");
    assert!(
        out.iter()
            .any(|l| l.contains("Fighter in Karelia has no safe landing place")),
        "{out:?}"
    );
    assert_eq!(count(&g, "Karelia", GER, "fighter"), 0);
}

// --- sea units ----------------------------------------------------------------------------

#[test]
fn ships_stop_in_a_hostile_sea_zone_but_submarines_slip_through() {
    let mut g = at(GER, "noncombat_move");
    // SZ 8 holds the British battleship: a submarine passes it, a battleship may not enter.
    ok(&mut g, "move submarine from \"SZ 9\" to \"SZ 7\" via \"SZ 8\"");
    refused(
        &mut g,
        "move battleship from \"SZ 5\" to \"SZ 8\" via \"SZ 6\"",
        "noncombat-move-friendly",
    );
}

#[test]
fn a_destroyer_stops_a_submarine() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit add \"SZ 8\" \"United Kingdom\" 1 destroyer");
    refused(
        &mut g,
        "move submarine from \"SZ 9\" to \"SZ 7\" via \"SZ 8\"",
        "stop-on-entering-hostile",
    );
    ok(&mut g, "move submarine from \"SZ 9\" to \"SZ 8\"");
}

#[test]
fn enemy_submarines_and_transports_do_not_block() {
    let mut g = at(UK, "noncombat_move");
    // SZ 9 holds only a German submarine: the British destroyer passes through to SZ 14.
    ok(&mut g, "move destroyer from \"SZ 10\" to \"SZ 14\" via \"SZ 9\"");
}

#[test]
fn canals_open_only_to_the_side_holding_them_at_the_start_of_the_turn() {
    let mut g = at(GER, "combat_move");
    ok(&mut g, "edit add \"SZ 17\" Germany 1 destroyer");
    ok(&mut g, "edit add \"SZ 28\" \"United Kingdom\" 1 destroyer");
    refused(
        &mut g,
        "move destroyer from \"SZ 17\" to \"SZ 28\"",
        "canals-and-straits",
    );
    // Taking both canal territories now does not open it this turn.
    ok(&mut g, "edit control \"Anglo-Egypt Sudan\" Germany");
    ok(&mut g, "edit control \"Middle East\" Germany");
    refused(
        &mut g,
        "move destroyer from \"SZ 17\" to \"SZ 28\"",
        "canals-and-straits",
    );
    // Air units ignore canals.
    ok(&mut g, "edit add \"Southern Europe\" Germany 1 bomber");
    ok(
        &mut g,
        "move bomber from \"Southern Europe\" to \"SZ 28\" via \"SZ 17\"",
    );
}

#[test]
fn the_turkish_straits_are_closed_to_ships() {
    let mut g = at(SU, "noncombat_move");
    ok(&mut g, "edit add \"SZ 18\" \"Soviet Union\" 1 destroyer");
    refused(
        &mut g,
        "move destroyer from \"SZ 18\" to \"SZ 17\"",
        "canals-and-straits",
    );
}

#[test]
fn the_board_wraps_around() {
    let mut g = at(US, "noncombat_move");
    ok(&mut g, "edit add \"SZ 36\" \"United States\" 1 destroyer");
    ok(&mut g, "move destroyer from \"SZ 36\" to \"SZ 20\"");
    assert_eq!(count(&g, "SZ 20", US, "destroyer"), 1);
}

// --- transports ---------------------------------------------------------------------------

#[test]
fn transports_load_move_and_offload_in_noncombat_move() {
    let mut g = at(UK, "noncombat_move");
    ok(
        &mut g,
        "edit add \"Eastern Canada\" \"United Kingdom\" 1 infantry",
    );
    ok(&mut g, "move tank, infantry from \"Eastern Canada\" to \"SZ 10\"");
    assert_eq!(count(&g, "SZ 10", UK, "tank"), 1);
    ok(&mut g, "move transport from \"SZ 10\" to \"SZ 8\" via \"SZ 9\"");
    assert_eq!(count(&g, "SZ 8", UK, "tank"), 1, "cargo moves with its transport");
    ok(&mut g, "move tank, infantry from \"SZ 8\" to \"United Kingdom\"");
    assert_eq!(count(&g, "United Kingdom", UK, "tank"), 1);
    // An offloaded transport moves no further.
    refused(
        &mut g,
        "move transport from \"SZ 8\" to \"SZ 7\"",
        "transport-offloading",
    );
}

#[test]
fn transport_capacity_is_one_unit_plus_one_infantry() {
    let mut g = at(UK, "noncombat_move");
    ok(&mut g, "edit add \"Eastern Canada\" \"United Kingdom\" 1 tank");
    refused(
        &mut g,
        "move 2 tank from \"Eastern Canada\" to \"SZ 10\"",
        "transport-capacity",
    );
    ok(
        &mut g,
        "edit add \"Eastern Canada\" \"United Kingdom\" 2 infantry",
    );
    refused(
        &mut g,
        "move 1 tank, 2 infantry from \"Eastern Canada\" to \"SZ 10\"",
        "transport-capacity",
    );
    ok(
        &mut g,
        "move 1 tank, 1 infantry from \"Eastern Canada\" to \"SZ 10\"",
    );
}

#[test]
fn boarding_is_a_land_units_whole_move() {
    let mut g = at(UK, "noncombat_move");
    ok(&mut g, "move tank from \"Eastern Canada\" to \"SZ 10\"");
    // Loaded units move only by offloading; units that moved cannot board.
    refused(
        &mut g,
        "move tank from \"SZ 10\" to \"SZ 9\"",
        "transport-loading",
    );
    // A unit that has moved cannot board.
    ok(&mut g, "edit add \"Eastern Canada\" \"United Kingdom\" 1 tank");
    ok(&mut g, "edit add \"SZ 13\" \"United Kingdom\" 1 transport");
    ok(&mut g, "move tank from \"Eastern Canada\" to \"Western Canada\"");
    ok(&mut g, "edit add \"SZ 49\" \"United Kingdom\" 1 transport");
    refused(
        &mut g,
        "move tank from \"Western Canada\" to \"SZ 49\"",
        "transport-loading",
    );
}

#[test]
fn cargo_loaded_in_combat_move_must_make_an_amphibious_assault() {
    let mut g = at(UK, "combat_move");
    ok(&mut g, "move tank from \"Eastern Canada\" to \"SZ 10\"");
    refused(&mut g, "end phase", "combat-cargo-must-assault");
    ok(&mut g, "move transport from \"SZ 10\" to \"SZ 8\" via \"SZ 9\"");
    // Offloading into a friendly territory is not a combat move.
    refused(
        &mut g,
        "move tank from \"SZ 8\" to \"United Kingdom\"",
        "combat-move-ends-hostile",
    );
    let out = ok(&mut g, "move tank from \"SZ 8\" to \"Western Europe\"");
    assert!(out.iter().any(|l| l.contains("amphibious assault")), "{out:?}");
    ok(&mut g, "end phase");
}

#[test]
fn an_amphibious_assault_waits_for_the_sea_battle() {
    let mut g = at(UK, "combat_move");
    ok(&mut g, "edit add \"SZ 7\" Germany 1 destroyer");
    ok(&mut g, "edit add \"SZ 8\" \"United Kingdom\" 1 transport");
    ok(&mut g, "edit add \"SZ 8\" \"United Kingdom\" 1 destroyer");
    ok(&mut g, "move 1 infantry from \"United Kingdom\" to \"SZ 8\"");
    // A transport attacks only along with a unit that has an attack value.
    refused(
        &mut g,
        "move transport from \"SZ 8\" to \"SZ 7\"",
        "attack-needs-an-attack-value",
    );
    ok(&mut g, "move transport, destroyer from \"SZ 8\" to \"SZ 7\"");
    // SZ 7 holds an enemy destroyer: the cargo waits aboard until the sea zone is cleared.
    let out = ok(&mut g, "move infantry from \"SZ 7\" to \"Western Europe\"");
    assert!(
        out.iter().any(|l| l.contains("once the sea zone is cleared")),
        "{out:?}"
    );
    assert_eq!(count(&g, "SZ 7", UK, "infantry"), 1);
    ok(&mut g, "end phase");
    // Neither battle has been fought.
    refused(&mut g, "end phase", "conduct-combat-all-battles");
    ok(&mut g, "edit remove \"SZ 7\" Germany 1 destroyer");
    refused(&mut g, "end phase", "conduct-combat-all-battles");
    for u in ["2 infantry", "1 tank", "1 fighter"] {
        ok(&mut g, &format!("edit remove \"Western Europe\" Germany {u}"));
    }
    let out = ok(&mut g, "end phase");
    assert!(
        out.iter().any(|l| l.contains("come ashore in Western Europe")),
        "{out:?}"
    );
    assert_eq!(count(&g, "Western Europe", UK, "infantry"), 1);
    assert_eq!(controller(&g, "Western Europe").as_deref(), Some(UK));
}

#[test]
fn a_transport_offloads_into_one_territory_per_turn() {
    let mut g = at(UK, "noncombat_move");
    ok(&mut g, "edit add \"SZ 6\" \"United Kingdom\" 1 transport");
    ok(
        &mut g,
        "edit add \"United Kingdom\" \"United Kingdom\" 1 infantry",
    );
    ok(&mut g, "edit remove \"Norway Finland\" Germany 2 infantry");
    ok(&mut g, "edit control \"Norway Finland\" \"United Kingdom\"");
    ok(&mut g, "move 2 infantry from \"United Kingdom\" to \"SZ 6\"");
    ok(&mut g, "move 1 infantry from \"SZ 6\" to \"United Kingdom\"");
    refused(
        &mut g,
        "move 1 infantry from \"SZ 6\" to \"Norway Finland\"",
        "transport-offloading",
    );
    ok(&mut g, "move 1 infantry from \"SZ 6\" to \"United Kingdom\"");
}

#[test]
fn a_transport_that_fought_in_combat_cannot_load_in_noncombat_move() {
    let mut g = at(UK, "combat_move");
    for u in ["2 infantry", "1 tank", "1 fighter"] {
        ok(&mut g, &format!("edit remove \"Western Europe\" Germany {u}"));
    }
    ok(&mut g, "move tank from \"Eastern Canada\" to \"SZ 10\"");
    ok(&mut g, "move transport from \"SZ 10\" to \"SZ 8\" via \"SZ 9\"");
    ok(&mut g, "move tank from \"SZ 8\" to \"Western Europe\"");
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    assert_eq!(controller(&g, "Western Europe").as_deref(), Some(UK));
    refused(
        &mut g,
        "move infantry from \"United Kingdom\" to \"SZ 8\"",
        "noncombat-after-combat",
    );
}

#[test]
fn offloading_past_ignored_submarines_needs_a_warship() {
    let mut g = at(UK, "combat_move");
    ok(&mut g, "edit add \"SZ 8\" Germany 1 submarine");
    ok(&mut g, "edit add \"SZ 8\" \"United Kingdom\" 1 transport");
    ok(&mut g, "edit remove \"SZ 8\" \"United Kingdom\" 1 battleship");
    ok(&mut g, "edit remove \"SZ 8\" \"United Kingdom\" 1 submarine");
    ok(&mut g, "move infantry from \"United Kingdom\" to \"SZ 8\"");
    // Moves are simultaneous: the warship may come after the offload, but it must come.
    ok(&mut g, "move infantry from \"SZ 8\" to \"Western Europe\"");
    refused(&mut g, "end phase", "offload-past-ignored-subs");
    ok(&mut g, "edit add \"SZ 8\" \"United Kingdom\" 1 destroyer");
    ok(&mut g, "end phase");
}

#[test]
fn cargo_is_lost_with_its_transport() {
    let mut g = at(UK, "noncombat_move");
    ok(&mut g, "move tank from \"Eastern Canada\" to \"SZ 10\"");
    let out = ok(&mut g, "edit remove \"SZ 10\" \"United Kingdom\" 1 transport");
    assert!(out.iter().any(|l| l.contains("aboard went down")), "{out:?}");
    assert_eq!(count(&g, "SZ 10", UK, "tank"), 0);
}

#[test]
fn allied_transports_carry_in_three_steps() {
    // 1. The United States loads onto a British transport on its own turn.
    let mut g = game("1941", &[], None);
    advance_to(&mut g, US, "noncombat_move");
    ok(&mut g, "edit add \"SZ 10\" \"United Kingdom\" 1 transport");
    ok(&mut g, "edit add \"Eastern Canada\" \"United States\" 1 infantry");
    ok(&mut g, "move infantry from \"Eastern Canada\" to \"SZ 10\"");
    assert_eq!(count(&g, "SZ 10", US, "infantry"), 1);
    // 2. Britain moves the transport (the American cargo rides along) on its turn.
    advance_to(&mut g, UK, "noncombat_move");
    ok(&mut g, "move 2 transport from \"SZ 10\" to \"SZ 8\" via \"SZ 9\"");
    assert_eq!(count(&g, "SZ 8", US, "infantry"), 1);
    // 3. The United States offloads on its next turn.
    advance_to(&mut g, US, "noncombat_move");
    ok(&mut g, "move infantry from \"SZ 8\" to \"United Kingdom\"");
    assert_eq!(count(&g, "United Kingdom", US, "infantry"), 1);
}

// --- carriers -----------------------------------------------------------------------------

#[test]
fn a_fighter_lands_on_a_carrier_with_room() {
    let mut g = at(UK, "noncombat_move");
    // SZ 14: a British carrier with one fighter aboard; room for one more.
    ok(&mut g, "edit add Gibraltar \"United Kingdom\" 2 fighter");
    ok(&mut g, "move fighter from Gibraltar to \"SZ 14\"");
    refused(&mut g, "move fighter from Gibraltar to \"SZ 14\"", "air-landing");
    // A bomber never lands at sea.
    ok(&mut g, "edit add Gibraltar \"United Kingdom\" 1 bomber");
    refused(&mut g, "move bomber from Gibraltar to \"SZ 15\"", "air-landing");
}

#[test]
fn guest_fighters_ride_a_moving_carrier_as_cargo() {
    let mut g = at(UK, "noncombat_move");
    // Swap the British fighter on the carrier for an American guest.
    ok(&mut g, "edit remove \"SZ 14\" \"United Kingdom\" 1 fighter");
    ok(&mut g, "edit add \"SZ 14\" \"United States\" 1 fighter");
    ok(&mut g, "move carrier from \"SZ 14\" to \"SZ 9\"");
    assert_eq!(count(&g, "SZ 9", US, "fighter"), 1);
    assert_eq!(count(&g, "SZ 14", US, "fighter"), 0);
}

#[test]
fn own_fighters_launch_before_their_carrier_moves() {
    let mut g = at(UK, "noncombat_move");
    ok(&mut g, "move carrier from \"SZ 14\" to \"SZ 9\"");
    assert_eq!(
        count(&g, "SZ 14", UK, "fighter"),
        1,
        "the owner's fighter stays where it was"
    );
    // It may follow and land on the carrier where it ends its move.
    ok(&mut g, "move fighter from \"SZ 14\" to \"SZ 9\"");
    ok(&mut g, "end phase");
    assert_eq!(count(&g, "SZ 9", UK, "fighter"), 1);
}

#[test]
fn a_fighter_left_at_sea_without_its_carrier_is_lost() {
    let mut g = at(UK, "noncombat_move");
    ok(&mut g, "move carrier from \"SZ 14\" to \"SZ 10\" via \"SZ 9\"");
    let out = ok(&mut g, "end phase");
    assert!(
        out.iter()
            .any(|l| l.contains("Fighter in SZ 14 has no safe landing place")),
        "{out:?}"
    );
}

#[test]
fn a_carrier_that_can_still_reach_its_fighters_must_go_to_them() {
    let mut g = at(UK, "noncombat_move");
    ok(&mut g, "move carrier from \"SZ 14\" to \"SZ 9\"");
    let r = refused(&mut g, "end phase", "carrier-must-meet-fighters");
    assert!(r.message.contains("SZ 14"), "{r}");
    ok(&mut g, "move carrier from \"SZ 9\" to \"SZ 14\"");
    ok(&mut g, "end phase");
    assert_eq!(count(&g, "SZ 14", UK, "fighter"), 1);
}

// --- Anniversary --------------------------------------------------------------------------

#[test]
fn anniversary_aa_guns_move_only_in_noncombat_move() {
    let mut g = game("anniversary", &[], Some("1941"));
    advance_to(&mut g, GER, "combat_move");
    refused(
        &mut g,
        "move aa_gun from Germany to Poland",
        "noncombat-only-units",
    );
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    ok(&mut g, "move aa_gun from Germany to Poland");
    assert_eq!(count(&g, "Poland", GER, "aa_gun"), 1);
}

#[test]
fn anniversary_a_blitz_stops_at_an_aa_gun() {
    let mut g = game("anniversary", &[], Some("1941"));
    advance_to(&mut g, GER, "combat_move");
    for u in ["infantry", "artillery", "tank", "aa_gun", "fighter"] {
        let n = count(&g, "Baltic States", SU, u);
        if n > 0 {
            ok(
                &mut g,
                &format!("edit remove \"Baltic States\" \"Soviet Union\" {n} {u}"),
            );
        }
    }
    ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 1 aa_gun");
    ok(&mut g, "edit add Poland Germany 1 tank");
    refused(
        &mut g,
        "move tank from Poland to Poland via \"Baltic States\"",
        "blitz",
    );
    ok(&mut g, "edit remove \"Baltic States\" \"Soviet Union\" 1 aa_gun");
    ok(&mut g, "move tank from Poland to Poland via \"Baltic States\"");
    assert_eq!(controller(&g, "Baltic States").as_deref(), Some(GER));
}

#[test]
fn the_panama_canal_serves_the_side_that_holds_central_america() {
    let mut g = at("Japan", "noncombat_move");
    ok(&mut g, "edit add \"SZ 19\" Japan 1 destroyer");
    refused(
        &mut g,
        "move destroyer from \"SZ 19\" to \"SZ 12\"",
        "canals-and-straits",
    );
    advance_to(&mut g, US, "noncombat_move");
    ok(&mut g, "edit add \"SZ 19\" \"United States\" 1 destroyer");
    ok(&mut g, "move destroyer from \"SZ 19\" to \"SZ 12\"");
}

#[test]
fn combat_move_never_attacks_an_ally() {
    let mut g = at(UK, "combat_move");
    // Karelia is Soviet: for Britain it is friendly, so no combat move ends there.
    ok(&mut g, "edit add Archangel \"United Kingdom\" 1 infantry");
    refused(
        &mut g,
        "move infantry from Archangel to Karelia",
        "combat-move-ends-hostile",
    );
}

#[test]
fn anniversary_canals_and_neutrals() {
    let mut g = game("anniversary", &[], Some("1941"));
    advance_to(&mut g, GER, "noncombat_move");
    ok(&mut g, "edit add \"SZ 15\" Germany 1 destroyer");
    refused(
        &mut g,
        "move destroyer from \"SZ 15\" to \"SZ 34\"",
        "canals-and-straits",
    );
    refused(
        &mut g,
        "move 1 infantry from France to Spain",
        "neutral-impassable",
    );
    advance_to(&mut g, UK, "noncombat_move");
    ok(&mut g, "edit add \"SZ 15\" \"United Kingdom\" 1 destroyer");
    ok(&mut g, "move destroyer from \"SZ 15\" to \"SZ 34\"");
    ok(&mut g, "edit add \"SZ 19\" \"United Kingdom\" 1 destroyer");
    ok(&mut g, "move destroyer from \"SZ 19\" to \"SZ 20\"");
}

// --- undo ---------------------------------------------------------------------------------

#[test]
fn undo_takes_back_moves_in_order_within_the_phase() {
    let mut g = at(SU, "combat_move");
    let start = g.hash();
    ok(&mut g, "move 3 infantry from Karelia to \"Eastern Europe\"");
    let after_one = g.hash();
    ok(&mut g, "move tank from Caucasus to Ukraine");
    ok(&mut g, "undo");
    assert_eq!(g.hash(), after_one);
    ok(&mut g, "undo");
    assert_eq!(g.hash(), start);
    let r = g.execute("undo").unwrap_err();
    assert!(r.message.contains("nothing to undo"), "{r}");
}

#[test]
fn undo_does_not_reach_into_a_finished_phase() {
    let mut g = game("1941", &[], None);
    ok(&mut g, "buy 1 infantry");
    ok(&mut g, "undo");
    assert_eq!(treasury(&g, SU), 7);
    ok(&mut g, "buy 1 infantry");
    ok(&mut g, "end phase");
    assert!(g.execute("undo").is_err());
    assert_eq!(treasury(&g, SU), 4);
}

#[test]
fn undo_replays_from_a_save() {
    let mut g = at(SU, "combat_move");
    ok(&mut g, "move 3 infantry from Karelia to \"Eastern Europe\"");
    ok(&mut g, "undo");
    ok(&mut g, "move 2 infantry from Karelia to \"Eastern Europe\"");
    let text = g.save_text();
    let loaded = warroom_core::game::save::load(std::path::Path::new("g.toml"), &text, &editions())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.hash(), g.hash());
    assert_eq!(count(&loaded, "Eastern Europe", SU, "infantry"), 2);
}

#[test]
fn a_house_rule_script_can_veto_a_move_by_its_path() {
    let layer =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/no-long-tank-moves");
    let mut g = game(layer.to_str().unwrap(), &[], None);
    advance_to(&mut g, GER, "combat_move");
    ok(&mut g, "edit remove Karelia \"Soviet Union\" 3 infantry");
    let r = refused(
        &mut g,
        "move tank from \"Eastern Europe\" to Archangel via Karelia",
        "house.short_tank_moves",
    );
    assert!(r.message.contains("Eastern Europe to Archangel"), "{r}");
    assert_eq!(
        controller(&g, "Karelia").as_deref(),
        Some(SU),
        "the vetoed blitz took nothing"
    );
    ok(&mut g, "move tank from \"Eastern Europe\" to Karelia");
}

#[test]
fn stranded_defending_fighters_move_one_space_to_land_or_are_lost() {
    // Germany sinks the British carrier in SZ 14 (by hand: combat comes with its own issue).
    let mut g = at(GER, "conduct_combat");
    ok(
        &mut g,
        "edit remove \"SZ 14\" \"United Kingdom\" 1 aircraft_carrier",
    );
    let out = ok(&mut g, "end phase");
    assert!(
        out.iter()
            .any(|l| l.contains("Fighter stranded in SZ 14 lands in Gibraltar")),
        "{out:?}"
    );
    assert_eq!(count(&g, "Gibraltar", UK, "fighter"), 1);
    // With no friendly territory or carrier within one space, it is lost.
    let mut g = at(GER, "conduct_combat");
    ok(&mut g, "edit add \"SZ 16\" \"United Kingdom\" 1 fighter");
    let out = ok(&mut g, "end phase");
    assert!(
        out.iter()
            .any(|l| l.contains("stranded in SZ 16 has nowhere to land")),
        "{out:?}"
    );
    assert_eq!(count(&g, "SZ 16", UK, "fighter"), 0);
}

#[test]
fn ships_sharing_a_sea_zone_with_enemy_warships_fight_or_leave() {
    // Enemy warships arrived in SZ 14 since Britain's last turn.
    let mut g = at(UK, "combat_move");
    ok(&mut g, "edit add \"SZ 14\" Germany 1 battleship");
    // Leaving is a combat move that may end in a friendly zone (an escape)...
    ok(&mut g, "move carrier from \"SZ 14\" to \"SZ 13\"");
    ok(&mut g, "move fighter from \"SZ 14\" to Gibraltar");
    ok(&mut g, "end phase");
    assert!(g.state().this_turn.battles.is_empty(), "nothing stayed to fight");
    // ...and staying means a battle.
    let mut g = at(UK, "combat_move");
    ok(&mut g, "edit add \"SZ 14\" Germany 1 battleship");
    ok(&mut g, "end phase");
    refused(&mut g, "end phase", "conduct-combat-all-battles");
}

/// A blitz given in two commands (into the empty enemy territory, then on) is the same move as
/// the blitz given in one: the same board, the same battles.
#[test]
fn a_blitz_given_in_steps_is_the_blitz_over_the_whole_path() {
    let setup = |g: &mut warroom_core::game::Game| {
        advance_to(g, "Germany", "combat_move");
        clear(g, "Ukraine");
        ok(g, "edit control Ukraine \"Soviet Union\"");
    };
    let mut whole = game("1941", &[], None);
    setup(&mut whole);
    let out = ok(
        &mut whole,
        "move 1 tank from \"Eastern Europe\" to Caucasus via Ukraine",
    );
    assert!(out.iter().any(|l| l == "blitz through Ukraine"), "{out:?}");
    let mut steps = game("1941", &[], None);
    setup(&mut steps);
    ok(&mut steps, "move 1 tank from \"Eastern Europe\" to Ukraine");
    let out = ok(&mut steps, "move 1 tank from Ukraine to Caucasus");
    assert!(out.iter().any(|l| l == "blitz through Ukraine"), "{out:?}");
    assert_eq!(
        steps.state().hash(),
        whole.state().hash(),
        "the same game either way"
    );
    ok(&mut steps, "undo");
    ok(&mut steps, "undo");
    ok(&mut steps, "edit add \"Eastern Europe\" Germany 1 tank");
    ok(&mut steps, "move 1 tank from \"Eastern Europe\" to Ukraine");
    ok(&mut steps, "edit add Ukraine \"Soviet Union\" 1 infantry");
    // Not through an occupied territory (the defender appeared there: an edit, as at the table).
    refused(
        &mut steps,
        "move 1 tank from Ukraine to Caucasus",
        "stop-on-entering-hostile",
    );
}

/// One carrier bought meets fighters in one sea zone: a second fighter counting on it in
/// another zone is refused (found by `warroom soak`: two promises, one carrier, and a mobilize
/// phase that could never end).
#[test]
fn one_new_carrier_is_promised_to_one_sea_zone_only() {
    const TO_SZ7: &str = "move fighter from \"United Kingdom\" to \"SZ 7\" via \"SZ 8\", \"SZ 9\", \"SZ 6\"";
    const TO_SZ6: &str = "move fighter from \"United Kingdom\" to \"SZ 6\" via \"SZ 7\", \"SZ 8\", \"SZ 9\"";
    // Carriers bought, none left at sea near London, enemy ships in SZ 6 and SZ 7, two fighters.
    let carriers_bought = |n: u32| {
        let mut g = at(UK, "purchase");
        ok(&mut g, "edit treasury \"United Kingdom\" 30");
        ok(&mut g, &format!("buy {n} aircraft_carrier"));
        ok(&mut g, "end phase");
        ok(
            &mut g,
            "edit remove \"SZ 14\" \"United Kingdom\" 1 aircraft_carrier",
        );
        ok(&mut g, "edit add \"SZ 7\" Germany 1 destroyer");
        ok(&mut g, "edit add \"SZ 6\" Germany 1 destroyer");
        ok(&mut g, "edit add \"United Kingdom\" \"United Kingdom\" 1 fighter");
        g
    };
    let mut g = carriers_bought(1);
    let out = ok(&mut g, TO_SZ7);
    assert!(
        out.iter().any(|l| l.contains("must be mobilized in SZ 7")),
        "{out:?}"
    );
    // The carrier cannot be in two places.
    refused(&mut g, TO_SZ6, "air-must-be-able-to-land");
    // With a second one bought, each zone has its carrier.
    let mut g = carriers_bought(2);
    ok(&mut g, TO_SZ7);
    let out = ok(&mut g, TO_SZ6);
    assert!(
        out.iter().any(|l| l.contains("must be mobilized in SZ 6")),
        "{out:?}"
    );
}

/// `air_units_must_land` holds noncombat move while an air unit can still land; a landing a
/// rule script refuses (`validate_move`, as G40-POL-USSR-THEATRE keeps the Allies out of a
/// Soviet Union neutral on one map) is no landing: the unit is lost, the phase goes on.
#[test]
fn a_landing_a_rule_script_refuses_does_not_hold_up_noncombat_move() {
    let grounded = r#"
warroom.on("validate_move", { id = "grounded" }, function(ev, game)
  if ev.power ~= "Germany" then return end
  for _, u in ipairs(ev.units) do
    if u.unit == "fighter" then return { veto = "German fighters are grounded" } end
  end
end)
"#;
    let start = |files: &[(&str, &str)]| {
        let rules = layer_over(&editions().join("global1940"), "global1940", files)
            .unwrap_or_else(|p| panic!("{p:#?}"));
        let mut g =
            warroom_core::game::Game::new(std::sync::Arc::new(rules), "global1940", &[], None, 1).unwrap();
        advance_to(&mut g, "Germany", "noncombat_move");
        ok(&mut g, "edit add \"SZ 113\" Germany 1 fighter");
        g
    };
    // Without the script the fighter must land first.
    let mut g = start(&[("none.lua", "")]);
    assert!(g.landable_air().iter().any(|u| !u.landings.is_empty()));
    refused(&mut g, "end phase", "air-units-must-land");
    // With it, the engine's landings are all refused: none is open.
    let mut g = start(&[("grounded.lua", grounded)]);
    assert!(g.unlanded_air().iter().any(|u| !u.landings.is_empty()));
    assert!(
        g.landable_air().iter().all(|u| u.landings.is_empty()),
        "{:?}",
        g.landable_air()
    );
    let out = ok(&mut g, "end phase");
    assert!(logged(&out, "no safe landing place and is lost"), "{out:#?}");
}
