//! Movement rules of combat and noncombat move (../shared/rules/turn.md §3.2, §3.4), proven on
//! the 1941 and Anniversary boards: legal moves and refusals that name the rule they apply.

mod support;
use support::*;

#[test]
fn land_units_attack_an_adjacent_enemy_territory() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Soviet Union", "combat_move");
    ok(&mut g, "move 3 infantry from Karelia to Eastern Europe");
    assert_eq!(count(&g, "Eastern Europe", "Soviet Union", "infantry"), 3);
    ok(&mut g, "move tank from Caucasus to Ukraine");
    refused(
        &mut g,
        "move tank from Ukraine to Eastern Europe",
        "stop-on-entering-hostile",
    );
}
