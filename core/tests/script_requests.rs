//! What rule scripts may ask for outside battles: each request changes the game as documented
//! and logs its line with the handler's id, or fails the whole command with the handler's name
//! and leaves the game as it was. Each case is a request (a Lua table) asked in an event of the
//! mini edition, and what must come of it. The queries such rules read (`start_owner`,
//! `units_of`) are here too.

mod support;

use warroom_core::game::Game;
use warroom_core::rules::SpaceId;

/// A game of the mini edition with a layer whose one handler, on `event`, asks for `request`.
fn game_asking(event: &str, request: &str) -> Game {
    game_asking_with(event, request, None)
}

/// [`game_asking`], the layer also holding `victory.toml` (when given).
fn game_asking_with(event: &str, request: &str, victory: Option<&str>) -> Game {
    game_with_lua(
        &format!("warroom.on({event:?}, {{ id = \"house.ask\" }}, function(ev, game)\n  game:request({request})\nend)\n"),
        victory,
    )
}

/// A game of the mini edition with a layer running `lua` (and holding `victory.toml`, when
/// given).
fn game_with_lua(lua: &str, victory: Option<&str>) -> Game {
    let mut files = vec![("ask.lua", lua)];
    files.extend(victory.map(|v| ("victory.toml", v)));
    support::mini_game_with_layer(&files)
}

fn space(g: &Game, name: &str) -> SpaceId {
    g.rules().board.find(name).unwrap()
}

/// `(owner, unit id, count)` of each stack in a space, as text: `Red infantry 3, Red tank 1`.
fn units(g: &Game, name: &str) -> String {
    let mut by: Vec<(String, String, u32)> = Vec::new();
    for u in &g.state().space(space(g, name)).units {
        let owner = g.rules().power_info(u.owner).name.clone();
        let kind = g.rules().unit(u.kind).id.clone();
        match by.iter_mut().find(|(o, k, _)| *o == owner && *k == kind) {
            Some(e) => e.2 += 1,
            None => by.push((owner, kind, 1)),
        }
    }
    by.sort();
    by.iter()
        .map(|(o, k, n)| format!("{o} {k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Ask `request` at the end of Red's purchase phase; it must be accepted, log `line` with the
/// handler's id, and leave the game so `then` holds.
fn accepted(request: &str, line: &str, then: impl Fn(&Game)) {
    let mut g = game_asking("phase_end", request);
    let out = g
        .execute("end phase")
        .unwrap_or_else(|e| panic!("`{request}` refused: {e}"));
    assert!(
        out.iter().any(|l| l.contains("[house.ask]") && l.contains(line)),
        "`{request}`: no line with `{line}` in {out:#?}"
    );
    then(&g);
}

/// Ask `request` in `event` (reached by the commands `steps`, the last of which fires it): the
/// last command must fail naming the handler, with `why` in its message, and change nothing.
fn refused_in(event: &str, steps: &[&str], request: &str, why: &str) {
    refused_in_with(event, steps, request, why, None);
}

fn refused_in_with(event: &str, steps: &[&str], request: &str, why: &str, victory: Option<&str>) {
    let mut g = game_asking_with(event, request, victory);
    let (last, before_it) = steps.split_last().unwrap();
    for s in before_it {
        g.execute(s).unwrap();
    }
    let before = g.hash();
    let e = g.execute(last).expect_err(request).to_string();
    assert!(e.contains("handler `house.ask`"), "`{request}`: {e}");
    assert!(e.contains(why), "`{request}`: expected `{why}` in: {e}");
    assert_eq!(g.hash(), before, "`{request}` left a trace");
}

fn refused(request: &str, why: &str) {
    refused_in("phase_end", &["end phase"], request, why);
}

const RED_TURN: &[&str] = &["end phase", "end phase", "end phase", "end phase"];

#[test]
fn set_control_hands_a_territory_over_and_nothing_else() {
    accepted(
        r#"{ command = "set_control", space = "Middle", power = "Blue", reason = "partisans" }"#,
        "Blue now controls Middle (partisans)",
        |g| {
            let middle = g.state().space(space(g, "Middle"));
            assert_eq!(middle.controller, g.rules().power("Blue"));
            assert_eq!(g.state().treasuries[0], 20, "no IPCs change hands");
        },
    );
    refused(
        r#"{ command = "set_control", space = "SZ 1", power = "Blue" }"#,
        "SZ 1 is a sea zone",
    );
    refused(
        r#"{ command = "set_control", space = "Peaks", power = "Blue" }"#,
        "Peaks is neutral",
    );
    refused(
        r#"{ command = "set_control", space = "Atlantis", power = "Blue" }"#,
        "set_control needs space = the name of a space",
    );
    refused(
        r#"{ command = "set_control", space = "Middle", power = "Green" }"#,
        "set_control needs power = the name of a power",
    );
}

#[test]
fn add_units_puts_new_units_on_the_board() {
    accepted(
        r#"{ command = "add_units", power = "Red", unit = "infantry", count = 2, space = "Middle" }"#,
        "Red gets 2 Infantry in Middle",
        |g| assert_eq!(units(g, "Middle"), "Red infantry 2"),
    );
    accepted(
        r#"{ command = "add_units", power = "Blue", unit = "transport", count = 1, space = "SZ 2" }"#,
        "Blue gets 1 Transport in SZ 2",
        |g| assert_eq!(units(g, "SZ 2"), "Blue transport 1"),
    );
    refused(
        r#"{ command = "add_units", power = "Red", unit = "infantry", count = 1, space = "SZ 1" }"#,
        "Infantry units cannot stand in SZ 1 (a sea zone)",
    );
    refused(
        r#"{ command = "add_units", power = "Red", unit = "transport", count = 1, space = "Middle" }"#,
        "cannot stand in Middle (a territory)",
    );
    refused(
        r#"{ command = "add_units", power = "Red", unit = "infantry", count = 0, space = "Middle" }"#,
        "add_units needs count = a whole number from 1 to 99",
    );
    refused(
        r#"{ command = "add_units", power = "Red", unit = "zeppelin", count = 1, space = "Middle" }"#,
        "add_units needs unit = a unit type id",
    );
    refused(
        r#"{ command = "add_units", power = "Red", unit = "infantry", count = 1, space = "Peaks" }"#,
        "Peaks is neutral",
    );
}

#[test]
fn remove_units_takes_units_off_the_board() {
    accepted(
        r#"{ command = "remove_units", power = "Red", unit = "infantry", count = 2, space = "Redland", reason = "attrition" }"#,
        "Red loses 2 Infantry in Redland (attrition)",
        |g| assert_eq!(units(g, "Redland"), "Red infantry 1, Red tank 1"),
    );
    refused(
        r#"{ command = "remove_units", power = "Red", unit = "infantry", count = 4, space = "Redland" }"#,
        "Red has 3 Infantry in Redland, not 4",
    );
    refused(
        r#"{ command = "remove_units", power = "Blue", unit = "infantry", count = 1, space = "Redland" }"#,
        "Blue has 0 Infantry in Redland, not 1",
    );
}

#[test]
fn move_units_transfers_units_by_no_path() {
    accepted(
        r#"{ command = "move_units", power = "Red", unit = "tank", count = 1, from = "Redland", to = "Blueland" }"#,
        "1 Tank of Red go from Redland to Blueland",
        |g| {
            assert_eq!(units(g, "Redland"), "Red infantry 3");
            assert_eq!(
                units(g, "Blueland"),
                "Blue heavy_tank 1, Blue infantry 2, Red tank 1"
            );
        },
    );
    accepted(
        r#"{ command = "move_units", power = "Red", unit = "transport", count = 1, from = "SZ 1", to = "SZ 2" }"#,
        "1 Transport of Red go from SZ 1 to SZ 2",
        |g| assert_eq!(units(g, "SZ 2"), "Red transport 1"),
    );
    refused(
        r#"{ command = "move_units", power = "Red", unit = "tank", count = 1, from = "Redland", to = "SZ 1" }"#,
        "Tank units cannot stand in SZ 1",
    );
    refused(
        r#"{ command = "move_units", power = "Red", unit = "tank", count = 2, from = "Redland", to = "Middle" }"#,
        "Red has 1 Tank in Redland, not 2",
    );
    refused(
        r#"{ command = "move_units", power = "Red", unit = "tank", count = 1, from = "Redland", to = "Redland" }"#,
        "from and to are both Redland",
    );
}

#[test]
fn set_relation_changes_how_two_powers_stand_both_ways() {
    accepted(
        r#"{ command = "set_relation", power = "Red", other = "Blue", relation = "peace" }"#,
        "Red and Blue are now at peace",
        |g| {
            let r = &g.state().relations;
            assert_eq!(r[0][1], warroom_core::game::state::Relation::Peace);
            assert_eq!(r[1][0], warroom_core::game::state::Relation::Peace);
        },
    );
    refused(
        r#"{ command = "set_relation", power = "Red", other = "Red", relation = "war" }"#,
        "power and other are both Red",
    );
    refused(
        r#"{ command = "set_relation", power = "Red", other = "Blue", relation = "truce" }"#,
        "relation = \"war\", \"peace\" or \"allied\"",
    );
}

#[test]
fn declare_winner_ends_the_game_in_victory_check_only() {
    let mut g = game_asking(
        "victory_check",
        r#"{ command = "declare_winner", side = "Allies", reason = "Red held out" }"#,
    );
    for s in &RED_TURN[..3] {
        g.execute(s).unwrap();
        assert_eq!(g.state().winner, None);
    }
    let out = g.execute(RED_TURN[3]).unwrap();
    assert!(
        out.iter()
            .any(|l| l.contains("[house.ask] Allies win (Red held out)")),
        "{out:#?}"
    );
    assert_eq!(g.state().winner.as_deref(), Some("Allies"));
    refused_in(
        "victory_check",
        RED_TURN,
        r#"{ command = "declare_winner", side = "Martians" }"#,
        "declare_winner needs side = a side of this edition (Allies, Axis) or \"none\"",
    );
    refused(
        r#"{ command = "declare_winner", side = "Allies" }"#,
        "declare_winner is asked in `victory_check`, not in `phase_end`",
    );
}

/// Red wins by the edition's own condition when its turn ends holding Redland.
const RED_WINS: &str = "[victory.red]\nside = \"Allies\"\nafter_turn_of = \"Red\"\nspaces = [\"Redland\"]\n";

#[test]
fn declare_winner_none_sets_the_engines_verdict_aside() {
    let mut plain = game_asking_with(
        "victory_check",
        r#"{ command = "add_ipcs", power = "Red", amount = 0 }"#,
        Some(RED_WINS),
    );
    for s in RED_TURN {
        plain.execute(s).unwrap();
    }
    assert_eq!(
        plain.state().winner.as_deref(),
        Some("Allies"),
        "the condition holds"
    );
    let mut g = game_asking_with(
        "victory_check",
        r#"{ command = "declare_winner", side = "none", reason = "no victory in round 1" }"#,
        Some(RED_WINS),
    );
    let mut out = Vec::new();
    for s in RED_TURN {
        out = g.execute(s).unwrap();
    }
    assert_eq!(g.state().winner, None);
    assert!(
        out.iter().any(|l| l.contains(
            "[house.ask] the Allies' victory is set aside: the game goes on (no victory in round 1)"
        )),
        "{out:#?}"
    );
    g.execute("end phase").expect("the game goes on");
    // Another side cannot be declared over the engine's verdict.
    refused_in_with(
        "victory_check",
        RED_TURN,
        r#"{ command = "declare_winner", side = "Axis" }"#,
        "the game is already won by the Allies",
        Some(RED_WINS),
    );
}

#[test]
fn an_unknown_request_is_refused_with_the_nearest_name() {
    refused(
        r#"{ command = "set_controll", space = "Middle", power = "Blue" }"#,
        "did you mean `set_control`?",
    );
    refused(
        r#"{ command = "add_units", power = "Red", unit = "infantry", cuont = 1, space = "Middle" }"#,
        "add_units takes no field `cuont`",
    );
}

/// What the queries say, logged by a handler: who held a space when the turn began (Middle,
/// changed by `edit` during the turn, still reads as Red's) and every unit of a power.
#[test]
fn scripts_read_the_start_of_turn_and_a_powers_units() {
    let mut g = game_with_lua(
        r#"warroom.on("phase_end", { id = "house.read" }, function(ev, game)
  local parts = {}
  for _, u in ipairs(game:units_of("Red")) do
    table.insert(parts, u.space .. ":" .. u.unit .. "=" .. u.count)
  end
  warroom.log("start", game:start_owner("Middle"), "now", game:owner("Middle"), table.concat(parts, " "))
  warroom.log("unknown", tostring(game:start_owner("Atlantis")), #game:units_of("Green"))
end)
"#,
        None,
    );
    g.execute("edit control Middle Blue").unwrap();
    let out = g.execute("end phase").unwrap();
    assert!(
        out.iter().any(|l| l
            .contains("[house.read] start Red now Blue Redland:infantry=3 Redland:tank=1 SZ 1:transport=1")),
        "{out:#?}"
    );
    assert!(
        out.iter().any(|l| l.contains("[house.read] unknown nil 0")),
        "{out:#?}"
    );
}

/// A `report` handler tells, and changes nothing: what it logs is the report; a request it asks
/// for fails the report (the game as it was), and what it writes to the store is put back.
#[test]
fn a_report_tells_and_changes_nothing() {
    let mut g = game_with_lua(
        r#"
warroom.on("report", { id = "house.count", filter = { report = "count" } }, function(ev, game)
  warroom.store.asked = (warroom.store.asked or 0) + 1
  warroom.log(ev.power .. " asked " .. warroom.store.asked .. " time(s)")
end)
warroom.on("report", { id = "house.greedy", filter = { report = "greedy" } }, function(ev, game)
  game:request({ command = "add_ipcs", power = ev.power, amount = 5 })
end)
"#,
        None,
    );
    let hash = g.hash();
    let lines = g.report("count", None).expect("a report");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].ends_with("asked 1 time(s)"), "{lines:?}");
    // The store was put back: asked again, it is the first time again.
    let lines = g.report("count", None).expect("a report");
    assert!(lines[0].ends_with("asked 1 time(s)"), "{lines:?}");
    assert!(g
        .report("nobody answers this", None)
        .expect("no lines")
        .is_empty());
    let err = g.report("greedy", None).expect_err("a request in a report");
    assert!(err.contains("house.greedy"), "{err}");
    assert_eq!(g.hash(), hash);
}
