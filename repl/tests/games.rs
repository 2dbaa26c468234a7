//! Whole games played through `warroom play` in batch mode, as checked-in scripts under
//! tests/games/. Each script's first line names the arguments it is played with
//! (`# args: play 1941 --seed 1`); it runs with `--strict`, so any rejected command fails the
//! test, and the final state is asserted from what the script's last views print.

mod support;
use support::{root, view, warroom};

/// Play a script with `--strict`; its output, after asserting every command was accepted.
fn play(script: &str, extra_input: &str) -> String {
    let text = std::fs::read_to_string(root().join("tests/games").join(script)).expect("game script");
    let args: Vec<&str> = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# args:"))
        .unwrap_or_else(|| panic!("{script}: the first line must be `# args: play EDITION ...`"))
        .split_whitespace()
        .collect();
    let mut args = args;
    args.push("--strict");
    let out = warroom(&args, &format!("{text}{extra_input}"));
    let shown = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{script}: a command was rejected:\n{}\n{}",
        shown.lines().rev().take(15).collect::<Vec<_>>().join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
    shown
}

fn has(out: &str, fragment: &str) {
    assert!(out.contains(fragment), "missing {fragment:?} in:\n{out}");
}

#[test]
fn a_whole_game_of_1941_is_played_from_the_first_soviet_purchase_to_an_axis_victory() {
    let out = play("1941-axis-victory.txt", "");
    // The rulebook's win: two Allied capitals at the end of the United States' turn.
    has(
        &out,
        "Axis win: they hold United Kingdom, Russia (2 of 3, 2 needed) at the end of United States's turn",
    );
    let status = view(&out, "status");
    assert!(status.contains(&"  the game is over: Axis won"), "{status:#?}");
    assert!(
        status.contains(&"  Germany          treasury   43  income  19"),
        "{status:#?}"
    );
    // Capitals held by the enemy collect nothing.
    assert!(
        status.contains(&"  United Kingdom   treasury    0  income   0"),
        "{status:#?}"
    );
    assert_eq!(
        view(&out, "show Russia")[0],
        "Russia (3 IPC), held by Germany, capital"
    );
    let london = view(&out, "show \"United Kingdom\"");
    assert_eq!(london[0], "United Kingdom (3 IPC), held by Germany, capital");
    assert!(london.contains(&"  Germany 5 Infantry"), "{london:#?}");
    // On the way: a capital lost and its treasury taken, transports sunk without dice.
    has(&out, "Germany takes 22 IPCs from United Kingdom's treasury");
    has(&out, "Germany's defenseless 3 Transport destroyed");
    has(
        &out,
        "United Kingdom skips Purchase Units (capital held by the enemy)",
    );
}

#[test]
fn a_whole_game_replays_from_its_save_to_the_same_state() {
    let dir = std::env::temp_dir().join(format!("warroom-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("1941.toml");
    let out = play(
        "1941-axis-victory.txt",
        &format!("save {}\nstatus\n", save.display()),
    );
    let before = view(&out, "status").join("\n");
    let loaded = warroom(&["play", "--load", save.to_str().unwrap()], "status\n");
    let after = String::from_utf8_lossy(&loaded.stdout).into_owned();
    assert!(loaded.status.success(), "{after}");
    assert_eq!(view(&after, "status").join("\n"), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_same_script_and_seed_play_the_same_game() {
    let a = play("1941-axis-victory.txt", "");
    let b = play("1941-axis-victory.txt", "");
    assert_eq!(a, b);
}

#[test]
fn two_full_rounds_of_anniversary_1941_are_played_with_every_power() {
    let out = play("anniversary-two-rounds.txt", "");
    let status = view(&out, "status");
    assert_eq!(status[0], "round 3, Germany (Axis), phase: Purchase Units");
    // Incomes follow the captures: Germany 31 + East Poland, the Baltic States (Belorussia
    // taken and lost again) - Finland; the United Kingdom lost Hong Kong (Kwangtung), held Egypt.
    for line in [
        "  Germany          treasury   33  income  31",
        "  Soviet Union     treasury   39  income  30",
        "  Japan            treasury   20  income  20",
        "  United Kingdom   treasury  100  income  42",
        "  Italy            treasury   11  income  10",
        "  United States    treasury   55  income  40",
        // China never collects income (AA50-CHINA-INCOME).
        "  China            treasury    0  income   0",
    ] {
        assert!(status.contains(&line), "{line:?} not in {status:#?}");
    }
    // Two raids of 5 on London's complex: it can mobilize nothing now (AA50-SBR).
    let london = view(&out, "show \"United Kingdom\"");
    assert_eq!(london[1], "  Industrial Complex (damage 10)");
    has(
        &out,
        "antiaircraft fire over United Kingdom: [4] → 0 bombers shot down",
    );
    has(
        &out,
        "1 bomber raid United Kingdom: [5] → 5 damage (now 10 of at most 16)",
    );
    let held = |space: &str| view(&out, &format!("show {space}"))[0].to_string();
    assert!(held("\"Baltic States\"").ends_with("held by Germany"));
    assert!(held("Belorussia").ends_with("held by Soviet Union"));
    assert!(held("Finland").ends_with("held by Soviet Union"));
    assert!(held("Egypt").ends_with("held by United Kingdom"));
    assert!(held("Kwangtung").contains("held by Japan"));
    // The amphibious assaults were supported from the sea, one ship per unit offloaded.
    has(&out, "bombarding from the sea: 1 Cruiser, 1 Battleship");
    has(&out, "Germany's defenseless 1 Transport destroyed");
    // China's turn is played within the United States' (AA50-CHINA-CONTROL): its combat phases
    // before the US combat move, or, as chosen in round 2, after the US conduct combat.
    let order: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("China: ") || l.starts_with("United States: "))
        .collect();
    let us_turn = [
        "United States: Purchase Units",
        "China: Combat Move",
        "China: Conduct Combat",
        "United States: Combat Move",
        "United States: Conduct Combat",
        "United States: Noncombat Move",
        "China: Noncombat Move",
        "China: Mobilize New Units",
        "United States: Mobilize New Units",
        "United States: Collect Income",
    ];
    assert_eq!(order[..10], us_turn, "round 1");
    assert_eq!(
        order[10..],
        [
            "United States: Purchase Units",
            "United States: Combat Move",
            "United States: Conduct Combat",
            "China: Combat Move",
            "China: Conduct Combat",
            "United States: Noncombat Move",
            "China: Noncombat Move",
            "China: Mobilize New Units",
            "United States: Mobilize New Units",
            "United States: Collect Income",
        ],
        "round 2, the United States playing first"
    );
    has(
        &out,
        "United States plays first: China's Combat Move and Conduct Combat come after United States' Conduct Combat",
    );
    has(
        &out,
        "  this turn: United States: Purchase Units (now), Combat Move, Conduct Combat | China: Combat Move, Conduct Combat | United States: Noncombat Move | China: Noncombat Move, Mobilize New Units | United States: Mobilize New Units, Collect Income",
    );
    // China's free infantry: one per two Chinese territories free of Axis control (Japan took
    // Hupeh in round 1, Fukien in round 2), counted as the US turn begins and placed without a
    // factory where fewer than three units stood (AA50-CHINA-INCOME, AA50-CHINA-PLACE).
    has(
        &out,
        "China receives 3 Infantry (6 of the 9 Chinese territories free of Axis control, one per two), to place",
    );
    has(&out, "China places 3 Infantry in Sikang");
    has(
        &out,
        "China receives 2 Infantry (5 of the 9 Chinese territories free of Axis control, one per two), to place",
    );
    has(&out, "China places 2 Infantry in Chinghai");
}

/// A whole game recorded with `record` replays clean on the same rules, and on changed rules
/// (tanks attack at 4) reports the first command whose result differs, with both results.
#[test]
fn a_recorded_golden_game_replays_clean_and_reports_where_changed_rules_diverge() {
    let dir = std::env::temp_dir().join(format!("warroom-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let golden = dir.join("1941-golden.toml");
    let out = play("1941-axis-victory.txt", &format!("record {}\n", golden.display()));
    let recorded: usize = out
        .lines()
        .find_map(|l| l.strip_prefix("recorded ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no `recorded N command(s)` line:\n{out}"));
    assert!(recorded > 100, "{recorded}");
    let g = golden.to_str().unwrap();

    let same = warroom(&["replay", g], "");
    let text = String::from_utf8_lossy(&same.stdout).into_owned();
    assert!(same.status.success(), "{text}");
    assert_eq!(
        text.trim_end(),
        format!("replayed {recorded} of {recorded} commands: no divergence")
    );
    // The recording is a scenario too: `warroom test` runs it.
    let tested = warroom(&["test", g], "");
    assert!(
        tested.status.success(),
        "{}",
        String::from_utf8_lossy(&tested.stdout)
    );

    let layer = root().join("tests/fixtures/house/tanks-attack-4");
    let changed = warroom(&["replay", g, "--with", layer.to_str().unwrap()], "");
    let text = String::from_utf8_lossy(&changed.stdout).into_owned();
    assert_eq!(changed.status.code(), Some(1), "{text}");
    let first = text.lines().next().unwrap_or_default();
    assert!(first.starts_with("diverged at command "), "{text}");
    assert!(first.contains(&format!(" of {recorded}: `fight")), "{text}");
    // Every command before it replayed as recorded: the divergence is the first tank roll that
    // hits at 4 and not at 3, shown recorded and replayed side by side.
    assert!(
        text.contains("    recorded only: ") && text.contains("    replayed only: "),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("    replayed only: ") && l.contains("@4 [")),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// AA50-ORDER-42, AA50-OPT-RD, AA50-OPT-NO, AA50-CHINA-INCOME, AA50-CHINA-CONTROL: a whole 1942 round with Research
/// & Development and National Objectives on.
#[test]
fn a_full_1942_round_of_anniversary_is_played_with_research_and_national_objectives() {
    let out = play("anniversary-1942-round.txt", "");
    let status = view(&out, "status");
    assert_eq!(status[0], "round 2, Japan (Axis), phase: Research & Development");
    // Japan: 31 - 10 (2 researchers) - 13 (units) + 32 income + 10 bonus (two objectives).
    for line in [
        "  Japan            treasury   50  income  32  researchers 2",
        "  Soviet Union     treasury   35  income  24",
        "  Germany          treasury   59  income  37  researchers 1",
        "  United Kingdom   treasury   51  income  31",
        "  Italy            treasury   12  income  10  researchers 1",
        "  China            treasury    0  income   0",
        "  United States    treasury   45  income  38  techs: Heavy Bombers",
    ] {
        assert!(status.contains(&line), "{line:?} not in {status:#?}");
    }
    // The turn order of 1942, each turn opening with research; China, which has none (no
    // IPCs), plays within the US turn, its combat after the US research and purchase.
    let order: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with("round "))
        .filter(|l| {
            l.ends_with(": Research & Development")
                || l.ends_with(": Purchase Units") && l.starts_with("United States")
                || l.starts_with("China: ")
        })
        .collect();
    assert_eq!(
        order,
        [
            "Soviet Union: Research & Development",
            "Germany: Research & Development",
            "United Kingdom: Research & Development",
            "Italy: Research & Development",
            "United States: Research & Development",
            "United States: Purchase Units",
            "China: Combat Move",
            "China: Conduct Combat",
            "China: Noncombat Move",
            "China: Mobilize New Units",
            "Japan: Research & Development",
        ]
    );
    has(
        &out,
        "no 6: Japan keeps its 2 researcher token(s) for a later turn",
    );
    has(
        &out,
        "United States buys 2 researcher token(s) for 10 IPCs and rolls 2 research dice: 6 2",
    );
    has(&out, "a breakthrough! the researcher tokens are discarded");
    has(&out, "rolls 6 on Breakthrough Chart 2: Heavy Bombers");
    has(
        &out,
        "Japan receives 5 IPCs (AA50-NO-JPN-1 The Greater East Asia Co-Prosperity Sphere",
    );
    has(&out, "Soviet Union receives 5 IPCs (AA50-NO-USSR-2");
    has(&out, "United States receives 5 IPCs (AA50-NO-US-1");
    has(
        &out,
        "China receives 3 Infantry (6 of the 9 Chinese territories free of Axis control",
    );
    // The Flying Tigers, left over Hupeh by the retreat, land in China's noncombat move, after
    // the United States' noncombat move has ended.
    has(&out, "China retreats from Hupeh");
    has(&out, "China moves 1 Fighter Hupeh → Yunnan");
    has(&out, "China places 3 Infantry in Sikang");
    has(&out, "Japan captures Hupeh");
}

#[test]
fn four_rounds_of_europe_1940_take_france_invade_neutrals_and_bring_in_the_united_states() {
    let out = play("europe1940-four-rounds.txt", "");
    // Round 1: Paris falls; France plays on without its capital.
    has(&out, "Germany captures France");
    has(&out, "Germany takes 17 IPCs from France's treasury");
    has(
        &out,
        "France skips Purchase and Repair Units (capital held by the enemy)",
    );
    // A scramble from the British air base, an interception over London.
    has(
        &out,
        "United Kingdom scrambles 2 Fighter from United Kingdom to SZ 110",
    );
    has(
        &out,
        "United Kingdom intercepts the raid over United Kingdom with 1 Fighter",
    );
    has(
        &out,
        "2 bombers raid the Major Industrial Complex of United Kingdom",
    );
    // Neutrals: Bulgaria taken as a friendly neutral, Yugoslavia invaded and captured.
    has(
        &out,
        "Germany takes Bulgaria, a friendly neutral: its army of 4 Infantry stands as Germany's",
    );
    has(
        &out,
        "Germany attacks Yugoslavia (a pro-Allies neutral): it joins the Allies; its army of 5 Infantry stands",
    );
    has(&out, "Germany captures Yugoslavia");
    // The wars widen: Barbarossa, then the United States at its 3rd Collect Income.
    has(&out, "Germany declares war on Soviet Union");
    has(&out, "United States declares war on Germany");
    // Convoys raided, objectives paid.
    has(
        &out,
        "United Kingdom collects 24 IPCs (29 less 5 in convoy losses)",
    );
    has(&out, "Germany receives 5 IPCs (E40-NO-GER-1 Soviet wheat and oil");
    has(
        &out,
        "United States receives 20 IPCs (E40-NO-US-1 The arsenal of democracy",
    );
    let status = view(&out, "status");
    assert_eq!(
        status[0],
        "round 5, Germany (Axis), phase: Purchase and Repair Units"
    );
    assert!(
        status.contains(&"  Germany          treasury   58  income  46"),
        "{status:#?}"
    );
    assert!(
        status.contains(&"  France           treasury    0  income   0  convoys raided: SZ 98"),
        "{status:#?}"
    );
    assert_eq!(
        view(&out, "show Yugoslavia")[0],
        "Yugoslavia (2 IPC), held by Germany, a former neutral (no original owner: never liberated)"
    );
    assert_eq!(
        view(&out, "show France")[0],
        "France (4 IPC), held by Germany, capital, victory city Paris"
    );
}

#[test]
fn four_rounds_of_pacific_1940_bring_in_the_united_states_kamikazes_the_burma_road_and_the_dutch() {
    let out = play("pacific1940-four-rounds.txt", "");
    // Japan's war: the United States and the British (with ANZAC and the Dutch) at once.
    has(&out, "Japan declares war on United States");
    has(&out, "at war now: Japan with United Kingdom, ANZAC, Netherlands");
    // Kamikazes off Formosa and Iwo Jima: asked, struck, bombardment stopped.
    has(&out, "Kamikaze attack in SZ 20 (6 tokens left)");
    has(
        &out,
        "Japan strikes at 2 or less: United States Aircraft Carrier #121 in SZ 17 [2] hit, damaged",
    );
    has(&out, "no ship in SZ 17 bombards this turn");
    // China's artillery while the Burma Road is open; Yunnan taken, infantry only.
    has(&out, "China buys 1 Artillery for 4 IPCs");
    has(&out, "Japan captures Yunnan");
    has(&out, "China buys 4 Infantry for 12 IPCs");
    // The Dutch territories the British and ANZAC take by moving in.
    has(&out, "[P40-DUTCH] United Kingdom now controls Java");
    has(&out, "[P40-DUTCH] ANZAC now controls Dutch New Guinea");
    let status = view(&out, "status");
    assert_eq!(
        status[0],
        "round 5, Japan (Axis), phase: Purchase and Repair Units"
    );
    assert!(
        status.contains(&"  Japan            treasury   39  income  38"),
        "{status:#?}"
    );
    assert_eq!(view(&out, "show Java")[0], "Java (4 IPC), held by United Kingdom");
    assert_eq!(view(&out, "show Yunnan")[0], "Yunnan (1 IPC), held by Japan");
}

/// Global 1940, four rounds through the REPL (tests/games/global1940-four-rounds.txt): Paris
/// taken and Barbarossa, Japan at war with the United States and the British (with ANZAC and
/// the Dutch) and then the Soviet Union, the Soviet-Mongolian pact, both British economies
/// buying and placing at their own factories, the Dutch territories, national objectives paid.
#[test]
fn four_rounds_of_global_1940_bring_barbarossa_japans_war_mongolia_and_two_british_economies() {
    let out = play("global1940-four-rounds.txt", "");
    has(&out, "Germany captures France");
    has(&out, "Germany declares war on Soviet Union");
    has(&out, "Japan declares war on United States");
    has(
        &out,
        "at war now: Japan with United Kingdom, UK Pacific, ANZAC, Netherlands",
    );
    // The United Kingdom's two economies, each from its own treasury, each at its factories.
    has(
        &out,
        "United Kingdom buys 1 Fighter for 10 IPCs from United Kingdom's treasury (18 left)",
    );
    has(
        &out,
        "United Kingdom buys 4 Infantry for 12 IPCs from UK Pacific's treasury (5 left)",
    );
    has(&out, "UK Pacific places 4 Infantry in India");
    has(&out, "UK Pacific collects ");
    has(
        &out,
        "[G40-DUTCH] UK Pacific now controls Java (United Kingdom moved land units into a Dutch territory)",
    );
    // Japan attacks Soviet Amur, which borders Mongolia: the pact brings Mongolia to the Soviets.
    has(&out, "Japan captures Amur");
    has(
        &out,
        "[G40-MONGOLIA-PACT] Soviet Union takes Ulaanbaatar, a friendly neutral",
    );
    has(
        &out,
        "the Soviet-Mongolian pact has acted: Japan attacked Amur in round 2",
    );
    // Objectives, paid per economy and per power.
    has(
        &out,
        "[national_objectives.bonus] Germany receives 5 IPCs (G40-NO-GER-1 Soviet wheat and oil",
    );
    has(
        &out,
        "[national_objectives.bonus] United States receives 10 IPCs (G40-NO-US-1 Basic national sovereignty",
    );
    has(
        &out,
        "[national_objectives.bonus] China receives 6 IPCs (G40-NO-CHN-1",
    );
    let status = view(&out, "status");
    assert_eq!(
        status[0],
        "round 5, Germany (Axis), phase: Purchase and Repair Units"
    );
    assert!(
        status.contains(&"  United Kingdom   treasury   33  income  28  convoys raided: SZ 98, SZ 119"),
        "{status:#?}"
    );
    assert!(
        status.contains(&"    UK Pacific     treasury   11  income  11"),
        "{status:#?}"
    );
    assert!(
        status.contains(&"  Germany          treasury   51  income  44"),
        "{status:#?}"
    );
}
