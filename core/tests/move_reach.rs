//! A move refused for want of a legal path says where the units can go this phase instead:
//! the spaces some path reaches under the same rules (hostile ones in combat move, friendly
//! ones in noncombat move), sorted, at most twelve named.

mod support;
use support::*;

fn reach_of(message: &str) -> Vec<&str> {
    let list = message
        .split(" can reach: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no reach in: {message}"));
    let list = list.split(" and ").next().unwrap();
    list.split(", ").collect()
}

#[test]
fn combat_move_lists_the_hostile_spaces_in_reach() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Soviet Union", "combat_move");
    let r = refused(&mut g, "move inf from Karelia to Japan", "movement-range");
    assert!(r.message.starts_with("no path from Karelia to Japan"), "{r}");
    assert!(r.message.contains("; Infantry in Karelia can reach: "), "{r}");
    assert_eq!(
        reach_of(&r.message),
        ["Eastern Europe", "Norway Finland", "West Russia"]
    );
    // The same list when the destination is next door but not a combat move's end.
    let r = refused(
        &mut g,
        "move inf from Karelia to Archangel",
        "combat-move-ends-hostile",
    );
    assert_eq!(
        reach_of(&r.message),
        ["Eastern Europe", "Norway Finland", "West Russia"]
    );
    // A path given with `via` that is too long.
    let r = refused(
        &mut g,
        "move inf from Karelia to Eastern Europe via West Russia",
        "movement-range",
    );
    assert_eq!(
        reach_of(&r.message),
        ["Eastern Europe", "Norway Finland", "West Russia"]
    );
}

#[test]
fn noncombat_move_lists_the_friendly_spaces_and_long_lists_are_cut() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Soviet Union", "noncombat_move");
    let r = refused(&mut g, "move inf from Karelia to Ukraine", "movement-range");
    assert_eq!(reach_of(&r.message), ["Archangel"]);
    advance_to(&mut g, "Germany", "noncombat_move");
    let r = refused(
        &mut g,
        "move bomber from Germany to Hawaiian Islands",
        "movement-range",
    );
    let shown = reach_of(&r.message);
    assert_eq!(shown.len(), 12, "{r}");
    assert!(
        r.message.contains(" more [") || r.message.ends_with(" more"),
        "{r}"
    );
    let mut sorted = shown.clone();
    sorted.sort_by_key(|n| warroom_core::rules::name_order(n));
    assert_eq!(shown, sorted);
}
