//! Land units carried by air (`[units.ID] air_transport`) with the values the Anniversary
//! paratroopers do not use, on the house layer tests/fixtures/house/airborne: bombers carry
//! two infantry or tanks, fly on past hostile territories, may raid while carrying and carry in
//! noncombat move too. The Anniversary advance itself is covered by the AA50-RD-PARA
//! regression scenarios.

mod support;
use support::*;
use warroom_core::game::Game;

const GER: &str = "Germany";
const SU: &str = "Soviet Union";

fn airborne(phase: &str) -> Game {
    let layer = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/house/airborne");
    let mut g = game(layer.to_str().unwrap(), &[], Some("1941"));
    advance_to(&mut g, GER, phase);
    ok(&mut g, "edit add Germany Germany 2 tank");
    g
}

/// Refused with this text in the message; the game is unchanged.
fn refused_saying(g: &mut Game, cmd: &str, fragment: &str) -> String {
    let before = g.hash();
    let r = g.execute(cmd).expect_err(cmd);
    assert!(r.message.contains(fragment), "`{cmd}`: {r}");
    assert_eq!(g.hash(), before, "a refused command changed the game");
    r.to_string()
}

fn unit_marks(g: &Game, space: &str, unit: &str) -> Vec<warroom_core::game::state::Marks> {
    let r = g.rules();
    let s = r.board.find(space).unwrap();
    let u = r.unit_type(unit).unwrap();
    g.state()
        .space(s)
        .units
        .iter()
        .filter(|x| x.kind == u)
        .map(|x| x.marks.clone())
        .collect()
}

#[test]
fn a_bomber_carries_two_units_past_a_hostile_territory() {
    let mut g = airborne("combat_move");
    let out = ok(
        &mut g,
        "move 1 bomber, 1 infantry, 1 tank from Germany to Belorussia via Poland, \"Baltic States\"",
    );
    assert!(
        logged(&out, "(1 Infantry, 1 Tank dropped from the air)"),
        "{out:?}"
    );
    for unit in ["bomber", "infantry", "tank"] {
        assert_eq!(count(&g, "Belorussia", GER, unit), 1, "{unit}");
    }
    assert!(unit_marks(&g, "Belorussia", "tank").iter().all(|m| m.dropped));
    // Flown over, not entered: the Soviet units there are not attacked and it is not taken.
    assert_eq!(controller(&g, "Baltic States").as_deref(), Some(SU));
    let battles: Vec<_> = g.state().this_turn.battles.iter().map(|b| b.space).collect();
    assert_eq!(battles, [g.rules().board.find("Belorussia").unwrap()]);
}

#[test]
fn units_beyond_the_capacity_move_on_their_own() {
    let mut g = airborne("combat_move");
    let r = refused_saying(
        &mut g,
        "move 1 bomber, 2 infantry, 1 tank from Germany to Belorussia",
        "no room left on the Bomber for Tank (each carries 2 units by air)",
    );
    // The units named first ride.
    assert!(
        r.contains("Bomber, Tank carrying 2 Infantry in Germany can reach"),
        "{r}"
    );
    // Two bombers take all three.
    ok(&mut g, "edit add Germany Germany 1 bomber");
    ok(
        &mut g,
        "move 2 bomber, 2 infantry, 1 tank from Germany to Belorussia",
    );
    assert_eq!(count(&g, "Belorussia", GER, "infantry"), 2);
    assert_eq!(count(&g, "Belorussia", GER, "tank"), 1);
}

#[test]
fn a_bomber_carries_in_noncombat_move_to_a_friendly_territory_only() {
    let mut g = airborne("noncombat_move");
    let r = g
        .execute("move 1 bomber, 1 infantry from Germany to \"Baltic States\"")
        .expect_err("a drop into a hostile territory in noncombat move");
    assert_eq!(r.rule.as_deref(), Some("noncombat-move-friendly"), "{r}");
    // Over the sea to Norway, where an infantry could not walk.
    let before = count(&g, "Norway", GER, "infantry");
    let out = ok(&mut g, "move 1 bomber, 1 infantry from Germany to Norway");
    assert!(logged(&out, "(1 Infantry dropped from the air)"), "{out:?}");
    assert_eq!(count(&g, "Norway", GER, "infantry"), before + 1);
    refused_saying(
        &mut g,
        &format!("move {} infantry from Norway to Finland", before + 1),
        "dropped by air this turn and moves no further",
    );
}

#[test]
fn a_bomber_raids_while_its_cargo_attacks_the_raided_territory() {
    let mut g = airborne("combat_move");
    clear(&mut g, "Karelia S.S.R.");
    ok(&mut g, "edit add \"Karelia S.S.R.\" \"Soviet Union\" 1 infantry");
    ok(
        &mut g,
        "move 1 bomber, 1 infantry from Germany to \"Karelia S.S.R.\" bombing",
    );
    let karelia = g.rules().board.find("Karelia S.S.R.").unwrap();
    assert!(g.state().this_turn.raids.contains(&(karelia, false)));
    assert!(g.state().this_turn.battle(karelia).is_some());
    assert!(unit_marks(&g, "Karelia S.S.R.", "bomber")[0].bombing);
    let cargo = &unit_marks(&g, "Karelia S.S.R.", "infantry");
    assert!(cargo.iter().any(|m| m.dropped && !m.bombing), "{cargo:?}");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    ok(&mut g, "roll 3 1 6");
    let raid = ok(&mut g, "fight");
    assert!(logged(&raid, "3 damage"), "{raid:?}");
    let battle = ok(&mut g, "fight");
    assert!(
        logged(&battle, "Germany attacks with 1 Infantry;"),
        "the raiding bomber sits the battle out: {battle:?}"
    );
    assert_eq!(controller(&g, "Karelia S.S.R.").as_deref(), Some(GER));
}
