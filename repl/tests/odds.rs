//! `warroom odds` and the REPL's `odds SPACE`: the same units give the same answer, and bad
//! input gets a clear message.

mod support;
use support::{text, warroom};

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
    assert!(
        t.starts_with("Monte Carlo, 3000 battles drawn from the chain"),
        "{t}"
    );
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

#[test]
fn odds_in_the_middle_of_a_battle_are_for_the_survivors_pressing_on() {
    // Germany attacks Baltic States (3 infantry, and an AA gun added) with 3 infantry and a
    // fighter, dice typed at the table. Round 1: the gun misses the fighter (6); German
    // infantry 1 6 6 and fighter 6 hit once; the Soviet infantry roll 2 6 6: one German
    // infantry falls. The attacker then decides whether to press on: 2 infantry and the
    // fighter against 2 infantry and a gun that no longer fires.
    let script = r#"edit add "Baltic States" "Soviet Union" 1 aa_gun
end phase
move 3 infantry, fighter from Poland to "Baltic States"
end phase
dice manual
fight Baltic States
odds baltic states
roll 6
odds baltic states
roll 1 6 6 6
roll 2 6 6
casualties
odds baltic states
"#;
    let o = warroom(&["play", "anniversary", "--strict"], script);
    let out = text(&o);
    assert!(!o.status.success(), "odds mid-round is refused: {out}");
    assert!(
        out.contains("the battle in Baltic States is in the middle of a round"),
        "{out}"
    );
    let script = script.replace("odds baltic states\nroll 6\nodds baltic states\n", "roll 6\n");
    // Not `--strict`: the script ends in the middle of the battle on purpose (a strict run fails
    // when the input ends with the game waiting for an answer).
    let o = warroom(&["play", "anniversary"], &script);
    let out = text(&o);
    assert!(o.status.success() && !out.contains("rejected:"), "{out}");
    let pressing = repl_answer(&out[out.rfind("> odds").expect("asked")..], "Baltic States");
    // The same as a new battle of the survivors without the gun, which fires in the first
    // round only: the endings' shares and the rounds left.
    let cli = warroom(
        &["odds", "--edition", "anniversary", "2 inf, 1 ftr", "vs", "2 inf"],
        "",
    );
    assert!(cli.status.success(), "{}", text(&cli));
    let cli = String::from_utf8_lossy(&cli.stdout).to_string();
    let shares = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| {
                ["attacker wins", "and takes it", "defender wins", "draw", "rounds"]
                    .iter()
                    .any(|k| l.trim_start().starts_with(k))
            })
            .map(String::from)
            .collect()
    };
    assert_eq!(shares(&pressing).len(), 5, "{pressing}");
    assert_eq!(shares(&pressing), shares(&cli), "{pressing}\n{cli}");
}

#[test]
fn a_reader_that_goes_away_ends_warroom_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_warroom"))
        .args([
            "odds",
            "--edition",
            "anniversary",
            "40 inf, 20 art, 20 tank, 10 ftr",
            "vs",
            "50 inf, 10 art, 10 tank, 10 ftr, 1 aa",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run warroom");
    // As `warroom odds ... | head -0`: the reader is gone before the answer is printed.
    drop(child.stdout.take());
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn warroom_odds_honours_a_layers_battle_scripts_and_says_how() {
    // dug-in's handler sees only the round and the step: the chain asks it once per round.
    let dug_in = support::root().join("tests/fixtures/house/dug-in");
    let o = warroom(
        &[
            "odds",
            "--edition",
            dug_in.to_str().unwrap(),
            "4 inf, 2 tank",
            "vs",
            "5 inf",
            "--json",
        ],
        "",
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("\"method\": \"exact\""), "{out}");
    assert!(
        out.contains("\"rule_scripts\": [\"handler `dug_in.first_round` in ")
            && out.contains("dug_in.lua:3\"]"),
        "{out}"
    );
    let shown = warroom(
        &[
            "odds",
            "--edition",
            dug_in.to_str().unwrap(),
            "4 inf, 2 tank",
            "vs",
            "5 inf",
        ],
        "",
    );
    let shown = text(&shown);
    assert!(
        shown.lines().nth(1).is_some_and(|l| l
            .starts_with("  with rule scripts handler `dug_in.first_round` in ")
            && l.ends_with("(asked once per round and step)")),
        "{shown}"
    );
    let plain = warroom(
        &[
            "odds",
            "--edition",
            "anniversary",
            "4 inf, 2 tank",
            "vs",
            "5 inf",
            "--json",
        ],
        "",
    );
    assert_ne!(
        text(&plain).split("\"attacker_wins\"").nth(1),
        out.split("\"attacker_wins\"").nth(1),
        "dug-in infantry changes nothing?"
    );
    // In play, `odds SPACE` asks the same handler about the battle on the board.
    let script = r#"end phase
move 4 infantry, 1 artillery from Poland to "East Poland"
odds east pol
"#;
    let o = warroom(&["play", dug_in.to_str().unwrap(), "--strict"], script);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let repl = repl_answer(&out, "East Poland");
    assert!(
        repl.starts_with("exact (") && repl.contains("with rule scripts handler `dug_in.first_round` in "),
        "{repl}"
    );
    // quiet-skies tallies casualties in its store: every battle is fought with the scripts,
    // and the answer says why, naming the handlers.
    let quiet = support::root().join("tests/fixtures/house/quiet-skies");
    let o = warroom(
        &[
            "odds",
            "--edition",
            quiet.to_str().unwrap(),
            "2 inf, 1 ftr",
            "vs",
            "2 inf, 1 aa",
            "--runs",
            "300",
        ],
        "",
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let first = out.lines().next().unwrap_or("");
    assert!(
        first.starts_with("Monte Carlo, 300 battles fought")
            && first.contains("rule scripts change this battle (handler `skies.no_aa_in_round_one` in ")
            && first.contains("handler `skies.tally` in ")
            && first.contains("fought through the battle code with the scripts"),
        "{out}"
    );
}

/// House rules that read what units did or carry (`editions/house/blitzkrieg`, `veterans`)
/// change the odds of a battle from unit lists when the lists say so in brackets.
#[test]
fn warroom_odds_honours_house_rules_on_what_units_did_and_carry() {
    let attacker_wins = |with: &str, battle: &str| -> f64 {
        let o = warroom(
            &[
                "odds",
                "--edition",
                "anniversary",
                "--with",
                with,
                "--json",
                "--runs",
                "1500",
                battle,
            ],
            "",
        );
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        let key = "\"attacker_wins\": {\"value\": ";
        let at = t.find(key).unwrap_or_else(|| panic!("{t}")) + key.len();
        t[at..]
            .split([',', '}'])
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{t}"))
    };
    // A tank at 4 rather than 3 in the first round: about 56% against 50%.
    let blitzed = attacker_wins("house/blitzkrieg", "1 tank [blitzed] vs 1 inf");
    let plain = attacker_wins("house/blitzkrieg", "1 tank vs 1 inf");
    assert!(blitzed > plain + 0.03, "blitzed {blitzed}, not {plain}");
    let veterans = attacker_wins("house/veterans", "2 inf [veteran] vs 2 inf");
    let fresh = attacker_wins("house/veterans", "2 inf vs 2 inf");
    assert!(veterans > fresh + 0.05, "veterans {veterans}, fresh {fresh}");
    let o = warroom(
        &["odds", "--edition", "anniversary", "2 inf [two words!] vs 1 inf"],
        "",
    );
    assert!(
        text(&o).contains("a note is `damaged`, what the units did"),
        "{}",
        text(&o)
    );
}

/// A damaged carrier at the table (`edit damage`) and in a unit list (`1 cv [damaged]`) give
/// the same odds: it sinks at one more hit, and its fighters are cargo that does not fight.
#[test]
fn a_damaged_carrier_has_the_same_odds_at_the_table_and_in_a_unit_list() {
    let script = r#"edit add "SZ 109" "United Kingdom" 1 aircraft_carrier
edit add "SZ 109" "United Kingdom" 2 fighter
edit damage "SZ 109" "United Kingdom" 1 aircraft_carrier
show "SZ 109"
edit add "SZ 110" Germany 3 submarine
end phase
move 3 sub from "SZ 110" to "SZ 109"
odds "SZ 109"
"#;
    let o = warroom(&["play", "europe1940", "--strict"], script);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("1 Aircraft Carrier (1 damaged)"), "{out}");
    let repl = repl_answer(&out, "SZ 109");
    assert!(
        repl.contains("cargo             2 Fighter aboard a damaged carrier"),
        "{repl}"
    );
    // SZ 109 also holds a British transport and destroyer from the setup.
    let cli = warroom(
        &[
            "odds",
            "--edition",
            "europe1940",
            "3 sub",
            "vs",
            "1 trn, 1 dd, 1 cv [damaged], 2 ftr",
        ],
        "",
    );
    assert!(cli.status.success(), "{}", text(&cli));
    assert_eq!(repl.trim_end(), String::from_utf8_lossy(&cli.stdout).trim_end());
    let undamaged = warroom(
        &[
            "odds",
            "--edition",
            "europe1940",
            "3 sub",
            "vs",
            "1 trn, 1 dd, 1 cv, 2 ftr",
        ],
        "",
    );
    assert_ne!(text(&undamaged).trim_end(), repl.trim_end());
    for (battle, expect) in [
        ("1 inf vs 1 inf [damaged]", "only units of two hits are damaged"),
        ("1 sub vs 2 bb [damaged], 1 bb", ""),
    ] {
        let o = warroom(&["odds", "--edition", "europe1940", battle], "");
        if expect.is_empty() {
            assert!(o.status.success(), "{battle}: {}", text(&o));
        } else {
            assert_eq!(o.status.code(), Some(2), "{battle}: {}", text(&o));
            assert!(text(&o).contains(expect), "{battle}: {}", text(&o));
        }
    }
}

/// `odds SPACE` on a bombing raid: raids fought on copies of the board. A tactical bomber meets
/// one interceptor (both at 1), then the air base's own antiaircraft die (at 1): it is lost
/// 1/6 + 5/6 · 1/6 ≈ 0.306 of the time; surviving (25/36), it does 1d6 (3.5) to the base:
/// 2.43 on average, 6 (the cap) 25/216 ≈ 11.6% of the time; the fighter falls 1/6 of the time.
#[test]
fn odds_on_a_bombing_raid_give_losses_and_damage_as_the_rules_make_them() {
    let script = r#"edit add "Holland/Belgium" Germany 1 tactical_bomber
end phase
move tactical_bomber from "Holland/Belgium" to "United Kingdom" bombing air_base
end phase
intercept 1 fighter in "United Kingdom"
odds "United Kingdom" runs 40000
"#;
    let o = warroom(&["play", "europe1940", "--strict"], script);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let number = |after: &str| -> f64 {
        let at = out
            .find(after)
            .unwrap_or_else(|| panic!("no `{after}` in:\n{out}"))
            + after.len();
        out[at..]
            .trim_start()
            .split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("{out}"))
    };
    let near =
        |x: f64, want: f64, tol: f64| assert!((x - want).abs() < tol, "{x} is not about {want}:\n{out}");
    near(number("raiders lost"), 0.306, 0.015);
    near(number("interceptors lost"), 0.167, 0.012);
    near(number("Air Base          +"), 2.43, 0.06);
    near(number("at its cap"), 11.6, 0.9);
}
