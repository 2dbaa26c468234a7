//! The `warroom` binary as a user runs it: exit codes and what it prints.

use std::path::PathBuf;

mod support;
use support::{root, text, view, warroom};

fn fixtures() -> PathBuf {
    root().join("tests/fixtures")
}

#[test]
fn check_passes_a_clean_edition_and_its_options() {
    let ed = fixtures().join("editions");
    let o = warroom(&["--editions", ed.to_str().unwrap(), "check", "mini"], "");
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("ok   mini --with cheap-tanks"), "{}", text(&o));
}

#[test]
fn check_reports_a_broken_layer_with_file_and_line_and_exits_1() {
    let ed = fixtures().join("editions");
    let broken = fixtures().join("broken/unknown-field");
    let o = warroom(
        &[
            "--editions",
            ed.to_str().unwrap(),
            "check",
            broken.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("unknown field `units.tank.atack`"), "{t}");
    assert!(t.contains("broken/unknown-field/patch.toml:2:1"), "{t}");
    assert!(t.contains("did you mean `attack`?"), "{t}");
}

#[test]
fn check_reports_every_problem_at_once() {
    let ed = fixtures().join("editions");
    let args: Vec<String> = ["unknown-field", "wrong-type", "remove-absent"]
        .iter()
        .map(|c| fixtures().join("broken").join(c).display().to_string())
        .collect();
    let mut all = vec!["--editions", ed.to_str().unwrap(), "check"];
    all.extend(args.iter().map(String::as_str));
    let o = warroom(&all, "");
    assert_eq!(o.status.code(), Some(1));
    let t = text(&o);
    assert!(t.contains("3 check(s) failed, 3 problem(s)"), "{t}");
}

#[test]
fn batch_play_prints_responses_and_strict_stops_at_a_rejection() {
    let ed = fixtures().join("editions");
    let script = "status\nbuy 2 inf\nbuy 99 tank\nend phase\n";
    let o = warroom(&["--editions", ed.to_str().unwrap(), "play", "mini"], script);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("Red buys 2 Infantry for 6 IPCs"), "{t}");
    assert!(t.contains("rejected: Red has 14 IPCs"), "{t}");
    assert!(t.contains("Red: Combat Move"), "{t}");

    let o = warroom(
        &["--editions", ed.to_str().unwrap(), "play", "mini", "--strict"],
        script,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(!text(&o).contains("Red: Combat Move"));
}

/// A game script that ends while the game waits for an answer (a battle's casualties, a
/// question) stopped short of what it meant to play: `--strict` fails, naming what waits.
#[test]
fn strict_batch_play_fails_when_the_input_ends_with_an_answer_waiting() {
    let waits = "end phase\nmove 3 infantry from \"Greater Southern Germany\" to Yugoslavia\n";
    let o = warroom(&["play", "europe1940", "--strict"], waits);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("the input ended while a question waits: United Kingdom: whose pieces stand for Yugoslavia's army"),
        "{}",
        text(&o)
    );
    let o = warroom(
        &["play", "europe1940", "--strict"],
        &format!("{waits}answer France\n"),
    );
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn play_saves_and_loads_a_game() {
    let ed = fixtures().join("editions");
    let dir = std::env::temp_dir().join(format!("warroom-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("g.toml");
    let o = warroom(
        &["--editions", ed.to_str().unwrap(), "play", "mini", "--seed", "9"],
        &format!("buy 1 tank\nend phase\nsave {}\n", save.display()),
    );
    assert!(text(&o).contains("saved 2 command(s)"), "{}", text(&o));
    let o = warroom(
        &[
            "--editions",
            ed.to_str().unwrap(),
            "play",
            "--load",
            save.to_str().unwrap(),
        ],
        "status\n",
    );
    let t = text(&o);
    assert!(t.contains("phase: Combat Move"), "{t}");
    assert!(t.contains("treasury   14"), "{t}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_mistyped_edition_is_a_clear_error() {
    let ed = fixtures().join("editions");
    let o = warroom(&["--editions", ed.to_str().unwrap(), "play", "minni"], "");
    assert!(!o.status.success());
    assert!(text(&o).contains("did you mean `mini`?"), "{}", text(&o));
}

#[test]
fn check_reports_a_lua_syntax_error_with_its_file_and_line() {
    let ed = fixtures().join("editions");
    let layer = fixtures().join("house/lua-syntax");
    let o = warroom(
        &[
            "--editions",
            ed.to_str().unwrap(),
            "check",
            layer.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("house/lua-syntax/rules.lua:3"), "{}", text(&o));
}

#[test]
fn import_triplea_writes_a_layer_that_checks_clean() {
    let dir = std::env::temp_dir().join(format!("warroom-import-{}", std::process::id()));
    let xml = fixtures().join("import/test-islands.xml");
    let o = warroom(
        &[
            "import",
            "triplea",
            xml.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
            "--name",
            "islands",
        ],
        "",
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(dir.join("layer.toml").is_file());
    let o = warroom(&["check", dir.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("2 powers"), "{}", text(&o));

    let bad = dir.join("bad.xml");
    std::fs::write(&bad, "<game><map><territory name=\"A\"></map></game>").unwrap();
    let o = warroom(
        &[
            "import",
            "triplea",
            bad.to_str().unwrap(),
            "--out",
            dir.join("x").to_str().unwrap(),
        ],
        "",
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("bad.xml:1:"), "{}", text(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn why_names_the_layer_and_line_that_set_a_value() {
    let ed = fixtures().join("editions");
    let o = warroom(
        &[
            "--editions",
            ed.to_str().unwrap(),
            "play",
            "mini",
            "--with",
            "cheap-tanks=4",
        ],
        "why tank cost\nwhy territories.redland.ipc\n",
    );
    let t = text(&o);
    assert!(t.contains("units.tank.cost = 4"), "{t}");
    assert!(t.contains("set by <command line>:1:1"), "{t}");
    assert!(
        t.contains("replacing editions/mini/units.toml:16:8 (layer mini)"),
        "{t}"
    );
    assert!(t.contains("territories.Redland.ipc = 5"), "{t}");
}

#[test]
fn play_moves_units_shows_battles_and_undoes() {
    let o = warroom(
        &["play", "1941"],
        "end phase\nmove 3 inf from Karelia to \"Eastern Europe\"\nmove tank from Caucasus to Ukraine\nstatus\nundo\nshow Ukraine\nmove tank from Caucasus to Turkey\n",
    );
    let t = text(&o);
    assert!(
        t.contains("Soviet Union moves 3 Infantry Karelia → Eastern Europe"),
        "{t}"
    );
    assert!(t.contains("battles: Eastern Europe, Ukraine"), "{t}");
    assert!(t.contains("undo: move 1 tank from Caucasus to Ukraine"), "{t}");
    assert!(
        !t.contains("Soviet Union 1 Tank"),
        "undo left the tank in Ukraine: {t}"
    );
    assert!(
        t.contains("[neutral-impassable]"),
        "a refusal names its rule: {t}"
    );
}

#[test]
fn play_fights_a_battle_with_dice_typed_at_the_table() {
    let o = warroom(
        &["play", "1941"],
        "end phase\nmove 3 inf from Karelia to \"Eastern Europe\"\nend phase\nend phase\ndice manual\nfight\nstatus\nroll 7\nhelp fight\n",
    );
    let t = text(&o);
    assert!(
        t.contains("rejected: the battle in Eastern Europe has not been fought: `fight Eastern Europe`"),
        "{t}"
    );
    assert!(
        t.contains("battle in Eastern Europe: Soviet Union attacks with 3 Infantry"),
        "{t}"
    );
    assert!(
        t.contains("fighting in Eastern Europe, round 1: waiting for"),
        "{t}"
    );
    assert!(t.contains("dice: typed at the table"), "{t}");
    assert!(t.contains("`7` is not a die face"), "{t}");
    assert!(t.contains("fight the next battle"), "{t}");
}

#[test]
fn battles_lists_each_battle_with_both_sides_and_what_the_one_in_progress_waits_for() {
    let o = warroom(
        &["play", "1941"],
        "battles\nend phase\nmove 3 inf from kar to eastern eu\nmove arm from cauc to ukr\nbattles\n\
         end phase\ndice manual\nfight eastern europe\nbattles\nhelp battles\n",
    );
    let t = text(&o);
    assert!(t.contains("no battles or raids this turn"), "{t}");
    assert!(
        t.contains("Eastern Europe (to fight): Soviet Union 3 Infantry  vs  Germany 4 Infantry, 2 Tank"),
        "{t}"
    );
    assert!(
        t.contains("Ukraine (to fight): Soviet Union 1 Tank  vs  Germany 3 Infantry, 2 Tank"),
        "{t}"
    );
    assert!(t.contains("Eastern Europe (being fought)"), "{t}");
    assert!(
        t.contains("in progress: Eastern Europe, round 1, waiting for 3 dice (`roll`)"),
        "{t}"
    );
    assert!(t.contains("  attacker: Soviet Union 3 Infantry"), "{t}");
    assert!(t.contains("  defender: Germany 4 Infantry, 2 Tank"), "{t}");
    assert!(t.contains("battles: this turn's battles and raids"), "{t}");
}

#[test]
fn dice_seeded_n_gives_the_same_battle_whatever_the_game_seed_and_replays_from_a_save() {
    let dir = std::env::temp_dir().join(format!("warroom-dice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("dice.toml");
    let script = |save: &str| {
        format!(
            "end phase\nmove 3 inf from kar to eastern eu\nend phase\ndice seeded 42\nfight\n\
             casualties\npress\ncasualties\npress\ncasualties\npress\nsave {save}\n"
        )
    };
    let run = |seed: &str| {
        let o = warroom(&["play", "1941", "--seed", seed], &script(save.to_str().unwrap()));
        let t = String::from_utf8_lossy(&o.stdout).to_string();
        // From the reseed on, the game seed makes no difference.
        t[t.find("> dice seeded 42").expect("the reseed ran")..].to_string()
    };
    let a = run("1");
    let b = run("977");
    assert!(a.contains("Soviet Union rolls @1 ["), "{a}");
    assert_eq!(a, b);
    assert_eq!(run("1"), a, "same seed, same script, same game");
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(saved.contains("dice seeded 42"), "{saved}");
    // Loading replays the reseed: the log shows the same rolls.
    let o = warroom(&["play", "--load", save.to_str().unwrap()], "log\n");
    let log = text(&o);
    let rolls: Vec<&str> = a.lines().filter(|l| l.contains(" rolls ")).collect();
    assert!(!rolls.is_empty(), "{a}");
    for r in rolls {
        assert!(log.contains(r), "`{r}` missing after load:\n{log}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_move_out_of_reach_is_refused_with_the_spaces_the_units_can_reach() {
    let o = warroom(
        &["play", "1941"],
        "end phase\nmove inf from kar to Japan\nend phase\nend phase\nmove inf from kar to ukr\n",
    );
    let t = text(&o);
    // Combat move: only hostile spaces.
    assert!(
        t.contains(
            "no path from Karelia to Japan within the units' movement; \
             Infantry in Karelia can reach: Eastern Europe, Norway Finland, West Russia [movement-range]"
        ),
        "{t}"
    );
    // Noncombat move: only friendly ones.
    assert!(
        t.contains("Infantry in Karelia can reach: Archangel [movement-range]"),
        "{t}"
    );
}

#[test]
fn a_mistyped_command_suggests_the_closest_one() {
    let o = warroom(
        &["play", "1941"],
        "mvoe 3 inf from kar to eastern eu\nstatsu\nbatles\nxyzzy\nhelp fihgt\n",
    );
    let t = text(&o);
    assert!(
        t.contains("rejected: unknown command `mvoe`; did you mean `move`?"),
        "{t}"
    );
    assert!(
        t.contains("rejected: unknown command `statsu`; did you mean `status`?"),
        "{t}"
    );
    assert!(
        t.contains("rejected: unknown command `batles`; did you mean `battles`?"),
        "{t}"
    );
    assert!(
        t.contains("rejected: unknown command `xyzzy`; `help` lists the commands"),
        "{t}"
    );
    assert!(t.contains("no command `fihgt`; did you mean `fight`?"), "{t}");
}

#[test]
fn views_take_prefixes_and_list_an_ambiguous_one() {
    let o = warroom(&["play", "1941"], "show kar\nshow east\nunits jap\nmap united\n");
    let t = text(&o);
    assert!(t.contains("Karelia (1 IPC), held by Soviet Union"), "{t}");
    assert!(
        t.contains("rejected: \"east\" could be: East Indies, East Mexico, Eastern Canada, Eastern Europe"),
        "{t}"
    );
    assert!(t.contains("Japan: "), "{t}");
    assert!(
        t.contains("rejected: \"united\" could be: United Kingdom, United States"),
        "{t}"
    );
}

#[test]
fn batch_quit_leaves_at_once_and_save_and_load_work_in_batch() {
    let ed = fixtures().join("editions");
    let dir = std::env::temp_dir().join(format!("warroom-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("b.toml");
    let o = warroom(
        &["--editions", ed.to_str().unwrap(), "play", "mini"],
        &format!(
            "buy 1 tank\nsave {s}\nend phase\nstatus\nload {s}\nstatus\nbuy 1 inf\nquit\nstatus\n",
            s = save.display()
        ),
    );
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("saved 1 command(s)"), "{t}");
    assert!(t.contains("phase: Combat Move"), "{t}");
    assert!(t.contains(&format!("loaded {}", save.display())), "{t}");
    let after_load = &t[t.find("loaded").unwrap()..];
    assert!(after_load.contains("phase: Purchase"), "{t}");
    assert!(!t.contains("unsaved"), "no warning in batch: {t}");
    assert_eq!(t.matches("> status").count(), 2, "nothing runs after quit: {t}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ending_noncombat_move_asks_where_to_land_aircraft_before_losing_them() {
    // A Soviet fighter left over German-held West Russia when noncombat move ends.
    let setup = "end phase\nend phase\nend phase\nedit add \"West Russia\" \"Soviet Union\" 1 fighter\n";
    let o = warroom(
        &["play", "1941"],
        &format!("{setup}end phase\nmove fighter from \"West Russia\" to Karelia\nend phase\nunits \"Soviet Union\"\n"),
    );
    let t = text(&o);
    assert!(
        t.contains("rejected: aircraft without a safe landing place would be lost [air-landing]"),
        "{t}"
    );
    // Nearest first: the four Soviet territories one space away.
    assert!(
        t.contains("in West Russia can land in Archangel, Caucasus, Karelia, Russia, "),
        "{t}"
    );
    assert!(t.contains("Soviet Union: Mobilize New Units"), "{t}");
    assert!(t.contains("Karelia: 3 Infantry, 1 Fighter"), "{t}");
    // Asked once: the same `end phase` again ends the phase and the fighter is lost.
    let o = warroom(&["play", "1941"], &format!("{setup}end phase\nend phase\n"));
    let t = text(&o);
    assert!(
        t.contains("Soviet Union Fighter in West Russia has no safe landing place and is lost"),
        "{t}"
    );
}

#[test]
fn batch_play_declares_war_in_europe_1940_and_strict_stops_at_a_vetoed_declaration() {
    // Germany at peace with the Soviet Union: the attack is refused until war is declared.
    let script = "relations\nend phase\ndeclare war on sov\nmove 3 inf, tank from Poland to \"Eastern Poland\"\nstatus\nrelations\nhelp declare\n";
    let o = warroom(&["play", "europe1940", "--strict"], script);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains(
            "Germany (Axis): at war with United Kingdom, France; at peace with Soviet Union, United States"
        ),
        "{t}"
    );
    assert!(t.contains("Germany declares war on Soviet Union"), "{t}");
    assert!(
        t.contains("Germany moves 3 Infantry, 1 Tank Poland → Eastern Poland"),
        "{t}"
    );
    assert!(
        t.contains("at peace with United States (`declare war on POWER`"),
        "{t}"
    );
    assert!(
        t.contains("Soviet Union (Allies): at war with Germany; at peace with Italy"),
        "{t}"
    );
    assert!(t.contains("e.g. declare war on \"Soviet Union\""), "{t}");

    // The Soviet Union may not declare war in its first turn: the script's refusal names the
    // rule, and --strict stops there.
    let script = "end phase\nend phase\nend phase\nend phase\nend phase\nend phase\nend phase\ndeclare war on Germany\nstatus\n";
    let o = warroom(&["play", "europe1940", "--strict"], script);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("rejected: the Soviet Union may not declare war on an Axis power before its 4th turn"),
        "{t}"
    );
    assert!(t.contains("[europe1940.E40-POL-USSR]"), "{t}");
    assert!(
        t.contains("line 8: rejected command `declare war on Germany`"),
        "{t}"
    );
    assert!(!t.contains("> status"), "{t}");

    // Refused moves say what to do.
    let o = warroom(
        &["play", "europe1940"],
        "end phase\nmove 1 tank from Poland to \"Eastern Poland\"\n",
    );
    let t = text(&o);
    assert!(
        t.contains("rejected: Germany is at peace with Soviet Union: `declare war on \"Soviet Union\"` at the start of Combat Move first"),
        "{t}"
    );
    assert!(t.contains("[powers-at-peace]"), "{t}");
}

/// AA50-CHINA-CONTROL: China's turn is played within the United States'; `status` names whose
/// part of the turn it is and the turn's order, `play` changes it, and a game saved in China's
/// part loads back to the same place.
#[test]
fn status_shows_chinas_part_of_the_us_turn_and_a_save_there_loads_back() {
    let dir = std::env::temp_dir().join(format!("warroom-segments-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("china.toml");
    let to_us_turn = "end phase\n".repeat(30);
    let o = warroom(
        &["play", "anniversary", "--strict"],
        &format!(
            "{to_us_turn}play \"United States\" first\nend phase\nend phase\nend phase\nstatus\nsave {}\n",
            save.display()
        ),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    let status: Vec<&str> = t
        .lines()
        .skip_while(|l| *l != "> status")
        .skip(1)
        .take_while(|l| !l.starts_with("> "))
        .collect();
    assert_eq!(
        status[0],
        "round 1, China (Allies), phase: Combat Move, in United States' turn"
    );
    assert_eq!(
        status[1],
        "  this turn: United States: Purchase Units, Combat Move, Conduct Combat | China: Combat Move (now), Conduct Combat | United States: Noncombat Move | China: Noncombat Move, Mobilize New Units | United States: Mobilize New Units, Collect Income"
    );
    assert_eq!(status[2], "  to mobilize: 3 Infantry");
    assert!(
        status.contains(&"  China            treasury    0  income   0"),
        "{status:#?}"
    );
    let o = warroom(
        &["play", "--load", save.to_str().unwrap()],
        "status\nplay China first\nmove infantry from Hupeh to Kiangsu\n",
    );
    let loaded = text(&o);
    assert!(o.status.success(), "{loaded}");
    assert!(loaded.contains(&status.join("\n")), "{loaded}");
    assert!(
        loaded.contains(
            "rejected: too late to change the order of this turn: United States has played its Combat Move"
        ),
        "{loaded}"
    );
    assert!(
        loaded.contains("China moves 1 Infantry Hupeh → Kiangsu"),
        "{loaded}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// A layer outside the project with a script error: checked alone and with each of its
/// edition's options, the error is shown once, at the path as written (one leading slash).
#[test]
fn check_reports_a_layers_own_problem_once_at_its_path() {
    let ed = fixtures().join("editions");
    let dir = std::env::temp_dir().join(format!("warroom-check-once-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("layer.toml"),
        format!(
            "[layer]\nname = \"once\"\nkind = \"house\"\nextends = [{:?}]\nscripts = [\"bad.lua\"]\n",
            ed.join("mini").display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("bad.lua"),
        "warroom.on(\"turn_begni\", { id = \"once.a\" }, function() end)\n",
    )
    .unwrap();
    let o = warroom(
        &["--editions", ed.to_str().unwrap(), "check", dir.to_str().unwrap()],
        "",
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    let shown = format!("{}:1: unknown event 'turn_begni'", dir.join("bad.lua").display());
    assert_eq!(t.matches(&shown).count(), 1, "{t}");
    assert!(t.contains("(did you mean 'turn_begin'?)"), "{t}");
    assert!(
        t.contains("--with cheap-tanks: 1 problem(s) (1 reported above)"),
        "{t}"
    );
    assert!(!t.contains("//"), "{t}");
}

/// A rule script's question at the table: the shell shows it, refuses other commands until it
/// is answered, and takes the answer; `show` lists the tags scripts keep on units.
#[test]
fn play_shows_a_rules_question_and_the_tags_on_units() {
    let save = root().join("tests/saves/anniversary-house-question-hash-scheme-4.toml");
    let editions = root().join("editions");
    let o = warroom(
        &[
            "--editions",
            editions.to_str().unwrap(),
            "play",
            "--load",
            save.to_str().unwrap(),
        ],
        "show \"Baltic States\"\nfight \"SZ 62\"\nanswer str\nshow \"SZ 62\"\n",
    );
    let t = text(&o);
    let shown = view(&t, "show \"Baltic States\"").join("\n");
    assert!(
        shown.contains("Germany Infantry #") && shown.contains(": veteran"),
        "{t}"
    );
    let refused = view(&t, "fight \"SZ 62\"").join("\n");
    assert!(
        refused.contains("a question waits for its answer first: Japan: Kamikaze strike in SZ 62?"),
        "{t}"
    );
    let answered = view(&t, "answer str").join("\n");
    assert!(answered.contains("Japan answers"), "{t}");
    assert!(
        answered.contains("[house.kamikaze] removed: 2 Fighter of Japan in SZ 62 (kamikaze)"),
        "{t}"
    );
    let after = view(&t, "show \"SZ 62\"").join("\n");
    assert!(!after.contains("Japan 2 Fighter"), "{t}");
}

/// The 1940 mechanisms in a player's words at the shell: `status` names the convoy zones where
/// enemy ships threaten a power's income, and the defenders' scramble while it is open.
#[test]
fn status_shows_convoy_threats_and_the_defenders_scrambles() {
    let editions = root().join("editions");
    let o = warroom(
        &["--editions", editions.to_str().unwrap(), "play", "europe1940"],
        "edit add \"SZ 109\" Germany 1 submarine\nstatus\nend phase\nedit add \"SZ 112\" Germany 1 destroyer\nedit add \"SZ 110\" \"United Kingdom\" 1 destroyer\nmove destroyer from \"SZ 112\" to \"SZ 110\"\nend phase\nstatus\n",
    );
    let t = text(&o);
    let first = view(&t, "status").join("\n");
    assert!(first.contains("convoys raided: SZ 109"), "{t}");
    assert!(
        t.contains("  scramble: up to 3 air unit(s) may rise from United Kingdom to SZ 109 or SZ 110"),
        "{t}"
    );
}
