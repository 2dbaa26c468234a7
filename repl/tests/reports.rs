//! The rule scripts' reports in the REPL: `objectives [POWER]` lists a power's national
//! objectives, met or not and what they pay now; `victory` and `status` show the victory
//! cities held and since when; a report no script answers is refused with what there is.

mod support;
use support::{text, warroom};

#[test]
fn objectives_and_victory_are_shown_as_they_stand() {
    let script = r#"objectives
objectives Soviet Union
edit control Novgorod Germany
edit control Russia Germany
edit control France Germany
edit control "United Kingdom" Germany
edit control Egypt Italy
victory
end phase
end phase
end phase
end phase
end phase
end phase
status
report weather
"#;
    let o = warroom(&["play", "europe1940"], script);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    for want in [
        // Germany at peace with the Soviet Union, holding Denmark and Norway.
        "E40-NO-GER-1 Soviet wheat and oil (5 IPCs): met: 5 IPCs now — Germany not at war with Soviet Union",
        "E40-NO-GER-2 Lebensraum (5 IPCs each): not met — wanting: Germany at war with Soviet Union",
        "E40-NO-USSR-4 The capture of Berlin (10 IPCs, once a game): not met — wanting: Soviet Union controls Germany",
        "victory: the Axis hold 8 of 11 victory cities (8 to win);",
        // After Germany's turn: the count has held since its end.
        "victory: the Axis hold 8 of 11 victory cities (8 to win), 8 or more since the end of Germany's turn in round 1;",
        "the Allies hold neither of Berlin and Rome",
        "rejected: no rule script of these rules answers `report weather`",
    ] {
        assert!(t.contains(want), "`{want}` not in:\n{t}");
    }
}
