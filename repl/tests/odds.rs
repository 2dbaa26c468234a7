//! `warroom odds` and the REPL's `odds SPACE`: the same units give the same answer, and bad
//! input gets a clear message.

use std::process::Output;

mod support;
use support::warroom;

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The answer the REPL printed for `odds SPACE`, without the space's name.
fn repl_answer(out: &str, space: &str) -> String {
    let head = format!("{space}: ");
    let start = out
        .find(&head)
        .unwrap_or_else(|| panic!("no odds for {space} in:\n{out}"));
    out[start + head.len()..]
        .lines()
        .take_while(|l| !l.starts_with('>'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn odds_in_the_repl_match_warroom_odds_on_the_same_units() {
    // Anniversary 1941, Germany's first turn: artillery and a fighter against an AA gun, and
    // a submarine-and-destroyer fight at sea.
    let script = r#"edit add "East Poland" "Soviet Union" 1 aa_gun
edit add Poland Germany 1 fighter
edit add "SZ 6" "Soviet Union" 1 submarine
edit add "SZ 6" "Soviet Union" 1 destroyer
edit add "SZ 5" Germany 1 destroyer
end phase
move 4 infantry, 1 artillery, 2 tank, 1 fighter from Poland to "East Poland"
move 1 submarine, 1 cruiser, 1 destroyer from "SZ 5" to "SZ 6"
odds east pol
odds SZ 6
"#;
    let o = warroom(&["play", "anniversary", "--strict"], script);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    for (space, attackers, defenders) in [
        ("East Poland", "4 inf, 1 art, 2 tank, 1 ftr", "2 inf, 1 aa"),
        // SZ 6 holds a British destroyer from the setup: defenders of two powers.
        ("SZ 6", "1 sub, 1 cru, 1 dd", "1 sub, 2 dd"),
    ] {
        let repl = repl_answer(&out, space);
        assert!(repl.starts_with("exact ("), "{repl}");
        let cli = warroom(
            &["odds", "--edition", "anniversary", attackers, "vs", defenders],
            "",
        );
        assert!(cli.status.success(), "{}", text(&cli));
        assert_eq!(
            repl.trim_end(),
            String::from_utf8_lossy(&cli.stdout).trim_end(),
            "{space}"
        );
    }
}

#[test]
fn warroom_odds_answers_in_json_for_tools() {
    let o = warroom(
        &["odds", "--edition", "anniversary", "--json", "1 inf vs 1 inf"],
        "",
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.starts_with("{\"method\": \"exact\""), "{t}");
    assert!(t.contains("\"attacker_wins\": {\"value\": 0.25"), "{t}");
}

#[test]
fn warroom_odds_runs_monte_carlo_when_asked() {
    let o = warroom(
        &[
            "odds",
            "--edition",
            "anniversary",
            "--runs",
            "3000",
            "3 inf, 1 tank",
            "vs",
            "3 inf",
        ],
        "",
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.starts_with("Monte Carlo, 3000 battles"), "{t}");
    assert!(t.contains(" ± "), "{t}");
}

#[test]
fn warroom_odds_names_what_is_wrong_with_a_battle() {
    for (args, expect) in [
        (vec!["3 inf", "vs", "2 panzer"], "defenders: no unit `panzer`"),
        (vec!["3 inf, 2 tank"], "ATTACKERS vs DEFENDERS"),
        (vec!["2 bb vs 3 inf"], "Battleship cannot fight in a land battle"),
        (
            vec!["--attacker-techs", "jets", "2 ftr vs 2 inf"],
            "no tech `jets`: this rule set has none",
        ),
    ] {
        let mut all = vec!["odds", "--edition", "anniversary"];
        all.extend(args.iter().copied());
        let o = warroom(&all, "");
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(expect), "{expect}: {}", text(&o));
    }
}
