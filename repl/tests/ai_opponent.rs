//! The computer opponent as a user meets it: `warroom selfplay` (whole games, wins per side
//! with their intervals), `warroom play --ai POWERS` (the AI's turns told command by command
//! with its reasons, `undo` limited to the human's own commands, saves that go on), and the
//! `hint` command.

mod support;
use support::{text, view, warroom};

/// Soviet Union's six phases of 1941's first round, ended one by one: Germany plays next.
const SOVIET_TURN: &str = "end phase\nend phase\nend phase\nend phase\nend phase\nend phase\n";

#[test]
fn selfplay_reports_wins_per_side_with_their_intervals_and_exits_0() {
    let o = warroom(
        &["selfplay", "1941", "--games", "2", "--rounds", "2", "--jobs", "1"],
        "",
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(
        t.lines().next().unwrap_or("").starts_with(
            "selfplay 1941, scenario 1941: 2 games of at most 2 rounds, seeds 1..=2, the AI against itself"
        ),
        "{t}"
    );
    for side in ["Allies", "Axis"] {
        let row = t
            .lines()
            .find(|l| l.trim_start().starts_with(side) && l.contains(" won "))
            .unwrap_or_else(|| panic!("no row for {side}:\n{t}"));
        assert!(row.contains(" of 2 (") && row.contains("95% CI"), "{row}");
    }
    // Two rounds are too few for either side to win 1941.
    assert!(
        t.lines()
            .any(|l| l.trim_start().starts_with("undecided") && l.contains(" 2 (no winner within 2 rounds)")),
        "{t}"
    );
    let speed = t
        .lines()
        .find(|l| l.starts_with("2 games in "))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(
        speed.contains("games/s") && speed.contains("s a game") && speed.contains("chosen by the AI"),
        "{speed}"
    );
}

/// `--against random` without `--ai`: the AI plays each side in turn, and the report says how it
/// fared against the random player on each.
#[test]
fn selfplay_against_random_measures_the_ai_on_each_side_in_turn() {
    let o = warroom(
        &[
            "selfplay",
            "1941",
            "--games",
            "2",
            "--rounds",
            "1",
            "--against",
            "random",
        ],
        "",
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("the AI playing Allies, then Axis in turn"), "{t}");
    let record = t
        .lines()
        .find(|l| l.starts_with("the AI against the random player won "))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(record.contains(" of 2 ("), "{record}");
    for side in ["Allies", "Axis"] {
        assert!(
            t.lines()
                .any(|l| l.trim_start().starts_with(&format!("playing {side}:")) && l.contains(" of 1 (")),
            "no line for the AI as {side}:\n{t}"
        );
    }
    // The random player's commands are counted apart from the AI's.
    let speed = t.lines().find(|l| l.starts_with("2 games in ")).unwrap();
    let numbers: Vec<u64> = speed
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    let n = numbers.len();
    assert!(n >= 2 && numbers[n - 1] < numbers[n - 2], "{speed}");
}

#[test]
fn selfplay_trace_tells_each_command_with_who_chose_it_and_why() {
    let o = warroom(
        &[
            "selfplay",
            "1941",
            "--games",
            "1",
            "--rounds",
            "1",
            "--ai",
            "axis",
            "--against",
            "random",
            "--trace",
            "--jobs",
            "2",
        ],
        "",
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("--trace plays one game at a time"), "{t}");
    let lines: Vec<&str> = t.lines().collect();
    let ai = lines
        .iter()
        .position(|l| l.starts_with("[seed 1 round 1] Germany (AI): buy "))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(lines[ai + 1].starts_with("    why: buys "), "{}", lines[ai + 1]);
    let random = lines
        .iter()
        .position(|l| l.starts_with("[seed 1 round 1] Soviet Union (random): "))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(!lines[random + 1].contains("why:"), "{}", lines[random + 1]);
}

#[test]
fn an_unknown_power_or_side_for_the_ai_is_refused_with_the_valid_names() {
    for args in [
        &["selfplay", "1941", "--games", "1", "--ai", "axis,Atlantis"][..],
        &["play", "1941", "--ai", "Atlantis"][..],
    ] {
        let o = warroom(args, "");
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
        assert!(t.contains("no side or power `Atlantis`"), "{t}");
        assert!(
            t.contains("sides: Allies, Axis") && t.contains("Germany") && t.contains("`all`"),
            "{t}"
        );
        assert!(!t.contains("panicked"), "{t}");
    }
}

/// `--ai axis`: the human plays the Soviet turn; Germany's is played by the AI, a header for
/// each phase, each command with its reason and what the game said. The AI stops where a human
/// power decides (the British defender's submarines) and goes on once it has.
#[test]
fn the_ai_plays_its_powers_turns_and_tells_each_command_with_its_reason() {
    let mut input = SOVIET_TURN.to_string();
    input.push_str("hint\nsubmerge none\ncasualties\n");
    let o = warroom(&["play", "1941", "--ai", "axis"], &input);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("the AI plays Germany, Japan; you play the others"),
        "{t}"
    );
    let turn = view(&t, "end phase");
    assert!(
        turn.contains(&"== round 1: Germany (AI), Purchase Units =="),
        "{turn:#?}"
    );
    assert!(
        turn.contains(&"== round 1: Germany (AI), Combat Move =="),
        "{turn:#?}"
    );
    let buy = turn
        .iter()
        .position(|l| l.starts_with("Germany (AI): buy "))
        .unwrap_or_else(|| panic!("{turn:#?}"));
    assert!(turn[buy + 1].starts_with("  why: buys "), "{turn:#?}");
    assert!(turn[buy + 2].starts_with("  Germany buys "), "{turn:#?}");
    assert!(
        turn.iter()
            .any(|l| l.starts_with("  why: attacks ") && l.contains("% to ") && l.contains("TUV swing")),
        "{turn:#?}"
    );
    // The British defender decides: the AI hands over, and `hint` answers for Britain.
    assert!(
        turn.last()
            .unwrap()
            .contains("the defender's submarines may submerge"),
        "{turn:#?}"
    );
    let hint = view(&t, "hint");
    assert_eq!(
        hint[0], "hint for United Kingdom (Conduct Combat): the AI would play",
        "{hint:#?}"
    );
    // The human answered (submarines, then casualties): the AI fights on.
    let after = view(&t, "casualties");
    assert!(
        after.iter().any(|l| l.starts_with("== round 1: Germany (AI)")),
        "{after:#?}"
    );
    assert!(
        after.iter().any(|l| l.starts_with("Germany (AI): ")),
        "{after:#?}"
    );
}

/// Japan's kamikaze question (house/kamikaze) comes after the Soviet combat move: the AI answers
/// it within the human's turn (strike or hold, as it weighs them). `undo` then would take back the AI's answer: refused. The human's
/// own commands are still taken back.
#[test]
fn undo_takes_back_only_the_humans_own_commands() {
    let mut input = "end phase\n".repeat(7);
    input.push_str(
        "edit add \"SZ 62\" Japan 1 aircraft_carrier\n\
         edit add \"SZ 62\" Japan 2 fighter\n\
         edit add \"SZ 61\" \"Soviet Union\" 2 destroyer\n\
         move 1 destroyer from \"SZ 61\" to \"SZ 62\"\n\
         undo\n\
         move 2 destroyer from \"SZ 61\" to \"SZ 62\"\n\
         end phase\n\
         undo\n",
    );
    let o = warroom(
        &["play", "anniversary", "--with", "house/kamikaze", "--ai", "japan"],
        &input,
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let own = view(&t, "move 1 destroyer from \"SZ 61\" to \"SZ 62\"");
    assert!(own[0].contains("moves 1 Destroyer"), "{own:#?}");
    // The first `undo` (of the human's move) is taken; the last is refused.
    let lines: Vec<&str> = t.lines().collect();
    let undos: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == "> undo")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(undos.len(), 2, "{t}");
    assert_eq!(
        lines[undos[0] + 1],
        "undo: move 1 destroyer from \"SZ 61\" to \"SZ 62\"",
        "{t}"
    );
    // The answer is the AI's to weigh (strike or hold); whichever it gave stays.
    let answered = view(&t, "end phase");
    let given = answered
        .iter()
        .find_map(|l| l.strip_prefix("Japan (AI): "))
        .unwrap_or_else(|| panic!("the AI answers: {answered:#?}"));
    assert!(given.starts_with("answer "), "{answered:#?}");
    assert_eq!(
        lines[undos[1] + 1],
        format!("rejected: the last command of this phase, `{given}`, was the AI's: `undo` takes back only your own commands"),
        "{t}"
    );
}

/// `hint`: the AI's suggestion with its reason, applied to nothing; in purchase and combat move,
/// its plan for the whole phase, each group of commands followed by its reason.
#[test]
fn hint_shows_what_the_ai_would_play_and_why_without_playing_it() {
    let o = warroom(&["play", "1941", "--strict"], "hint\nstatus\n");
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let purchase = view(&t, "hint");
    assert_eq!(
        purchase[0], "hint for Soviet Union (Purchase Units): the AI's plan for the phase, in order",
        "{purchase:#?}"
    );
    assert!(purchase[1].starts_with("  buy "), "{purchase:#?}");
    assert!(purchase[2].starts_with("    why: buys "), "{purchase:#?}");
    assert_eq!(purchase[purchase.len() - 2], "  end phase", "{purchase:#?}");
    // Nothing was bought: the Soviet treasury is whole, the phase unchanged.
    let status = view(&t, "status");
    assert_eq!(
        status[0], "round 1, Soviet Union (Allies), phase: Purchase Units",
        "{status:#?}"
    );
    assert!(
        status
            .iter()
            .any(|l| l.starts_with("  Soviet Union     treasury    7")),
        "{status:#?}"
    );
}

#[test]
fn hint_in_combat_move_names_the_attacks_with_their_odds() {
    let o = warroom(&["play", "1941"], "end phase\nhint\n");
    let t = text(&o);
    let plan = view(&t, "hint");
    assert!(
        plan[0].starts_with("hint for Soviet Union (Combat Move)"),
        "{plan:#?}"
    );
    let moves = plan.iter().filter(|l| l.starts_with("  move ")).count();
    let reasons: Vec<&&str> = plan
        .iter()
        .filter(|l| l.starts_with("    why: attacks "))
        .collect();
    assert!(!reasons.is_empty(), "{plan:#?}");
    assert!(reasons.iter().all(|r| r.contains("% to ")), "{reasons:#?}");
    // The units of one attack share their reason, given once.
    assert!(moves >= reasons.len(), "{plan:#?}");
}

/// `--ai all --ai-rounds 1`: the AI plays every power through round 1, then hands the game over.
#[test]
fn the_ai_plays_every_power_through_the_rounds_it_is_given() {
    let o = warroom(
        &["play", "1941", "--ai", "all", "--ai-rounds", "1", "--strict"],
        "status\n",
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("the AI plays every power"), "{t}");
    for power in [
        "Soviet Union",
        "Germany",
        "United Kingdom",
        "Japan",
        "United States",
    ] {
        assert!(
            t.contains(&format!("== round 1: {power} (AI), Purchase Units ==")),
            "{power}: {t}"
        );
    }
    assert!(
        t.contains(
            "round 2 begins: the AI played to the end of round 1 (--ai-rounds); every power is yours now"
        ),
        "{t}"
    );
    assert!(view(&t, "status")[0].starts_with("round 2, Soviet Union"), "{t}");
}

/// A game saved with the AI's moves in it is just commands: it loads as any save, and loaded
/// with `--ai` again the AI plays on from where it stood.
#[test]
fn a_game_saved_with_the_ais_moves_loads_and_the_ai_goes_on() {
    let file = std::env::temp_dir().join(format!("warroom-ai-save-{}.toml", std::process::id()));
    let f = file.to_str().unwrap();
    let mut input = SOVIET_TURN.to_string();
    input.push_str(&format!("save {f}\n"));
    let o = warroom(&["play", "1941", "--ai", "axis"], &input);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(view(&t, &format!("save {f}"))[0].starts_with("saved "), "{t}");
    // Without the AI: the board as the AI left it, the British defender to decide.
    let plain = warroom(&["play", "--load", f], "battles\n");
    let pt = text(&plain);
    assert!(plain.status.success(), "{pt}");
    assert!(
        view(&pt, "battles")
            .iter()
            .any(|l| l.contains("SZ 8 (being fought)")),
        "{pt}"
    );
    // With it: the British answer, and Germany's AI fights on.
    let again = warroom(
        &["play", "--load", f, "--ai", "axis"],
        "submerge none\ncasualties\n",
    );
    let at = text(&again);
    assert!(again.status.success(), "{at}");
    assert!(
        view(&at, "casualties")
            .iter()
            .any(|l| l.starts_with("Germany (AI): ")),
        "{at}"
    );
    let _ = std::fs::remove_file(&file);
}
