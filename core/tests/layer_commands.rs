//! Commands a layer adds (`[commands]`): read from the player's line and written back in one
//! form, given only in their phases, carried out or refused by the layer's `command` handler,
//! listed by the legal actions, and declared with clear errors when the data is wrong.

mod support;

use warroom_core::game::command::Command;
use warroom_core::game::Game;
use warroom_core::rules::{self, RuleSet};

/// Red may give Blue 1 to 3 IPCs in its purchase phase: `gift AMOUNT POWER`.
const GIFT: &str = r#"
[commands.gift]
help = "give Blue some IPCs"
example = "gift 2 Blue"
phases = ["purchase"]
args = [
  { name = "amount", kind = "number", min = 1, max = 3 },
  { name = "to", kind = "power" },
]
"#;

const GIFT_LUA: &str = r#"
warroom.on("command", { id = "house.gift", filter = { command = "gift" } }, function(ev, game)
  if ev.args.to ~= "Blue" then
    return { veto = "gifts go to Blue" }
  end
  game:request({ command = "add_ipcs", power = ev.power, amount = -ev.args.amount })
  game:request({ command = "add_ipcs", power = ev.args.to, amount = ev.args.amount })
end)
"#;

/// The layer's files: `data`, and `lua` when given.
fn files<'a>(data: &'a str, lua: Option<&'a str>) -> Vec<(&'static str, &'a str)> {
    let mut files = vec![("gift.toml", data)];
    files.extend(lua.map(|l| ("gift.lua", l)));
    files
}

/// The mini edition with a layer of `data` (and `lua`, when given); the load's result.
fn load(data: &str, lua: Option<&str>) -> Result<RuleSet, Vec<String>> {
    support::mini_with_layer(&files(data, lua))
}

fn game(data: &str, lua: Option<&str>) -> Game {
    support::mini_game_with_layer(&files(data, lua))
}

#[test]
fn a_layer_command_is_carried_out_by_its_handler() {
    let mut g = game(GIFT, Some(GIFT_LUA));
    let out = g.execute("gift 2 Blue").unwrap();
    assert!(
        out.iter()
            .any(|l| l.contains("[house.gift] Blue receives 2 IPCs")),
        "{out:#?}"
    );
    assert_eq!(g.state().treasuries[..], [18, 14]);
    // The history holds the canonical text, which reads back as the same command.
    assert_eq!(g.history().last().unwrap().text, "gift 2 Blue");
    let again = Command::parse(g.rules(), "GIFT 2 blue").unwrap();
    assert_eq!(again.to_text(g.rules()), "gift 2 Blue");
    // Undo takes it back, requests and all.
    g.execute("undo").unwrap();
    assert_eq!(g.state().treasuries[..], [20, 12]);
}

#[test]
fn a_layer_command_is_refused_with_the_reason() {
    let mut g = game(GIFT, Some(GIFT_LUA));
    for (line, why) in [
        ("gift 2 Red", "gifts go to Blue"),
        (
            "gift 4 Blue",
            "gift: amount is a whole number from 1 to 3, not `4`",
        ),
        ("gift Blue", "usage: gift AMOUNT TO (e.g. gift 2 Blue)"),
        ("gift 2 Green", "gift: no power `Green`"),
        ("gfit 2 Blue", "did you mean `gift`?"),
    ] {
        let before = g.hash();
        let e = g.execute(line).expect_err(line).to_string();
        assert!(e.contains(why), "`{line}`: {e}");
        assert_eq!(g.hash(), before, "`{line}` left a trace");
    }
    g.execute("end phase").unwrap();
    let e = g.execute("gift 1 Blue").unwrap_err().to_string();
    assert!(
        e.contains("`gift` is given in Purchase Units, not in Combat Move"),
        "{e}"
    );
}

#[test]
fn a_layer_command_without_a_handler_is_refused() {
    let mut g = game(GIFT, None);
    let e = g.execute("gift 1 Blue").unwrap_err().to_string();
    assert!(e.contains("no rule script carries out `gift`"), "{e}");
}

#[test]
fn the_legal_actions_list_the_calls_the_scripts_accept() {
    let mut g = game(GIFT, Some(GIFT_LUA));
    let mut gifts: Vec<String> = g
        .legal_actions()
        .iter()
        .filter(|c| matches!(c, Command::Layer(_)))
        .map(|c| c.to_text(g.rules()))
        .collect();
    gifts.sort();
    assert_eq!(gifts, ["gift 1 Blue", "gift 2 Blue", "gift 3 Blue"]);
    g.execute("end phase").unwrap();
    assert!(!g.legal_actions().iter().any(|c| matches!(c, Command::Layer(_))));
}

#[test]
fn a_wrong_declaration_is_a_located_error() {
    for (data, why) in [
        (
            "[commands.Gift]\nhelp = \"x\"\nexample = \"x\"\nphases = [\"purchase\"]\n",
            "`Gift` is not a command name",
        ),
        (
            "[commands.buy]\nhelp = \"x\"\nexample = \"x\"\nphases = [\"purchase\"]\n",
            "`buy` is a command of the engine's own",
        ),
        (
            "[commands.gift]\nhelp = \"x\"\nexample = \"x\"\nphases = [\"purchse\"]\n",
            "purchse",
        ),
        (
            "[commands.gift]\nhelp = \"x\"\nexample = \"x\"\nphases = [\"purchase\"]\nargs = [{ name = \"n\", kind = \"number\" }]\n",
            "it needs `min` and `max`",
        ),
        (
            "[commands.gift]\nhelp = \"x\"\nexample = \"x\"\nphases = [\"purchase\"]\nargs = [{ name = \"n\", kind = \"colour\" }]\n",
            "colour",
        ),
        (
            "[commands.gift]\nhelp = \"x\"\nexample = \"x\"\nphases = [\"purchase\"]\nargs = [{ name = \"p\", kind = \"power\" }, { name = \"p\", kind = \"space\" }]\n",
            "two arguments named `p`",
        ),
        (
            "[commands.gift]\nhelp = \"x\"\nphases = [\"purchase\"]\n",
            "example",
        ),
    ] {
        let problems = load(data, None).expect_err(data);
        assert!(problems.iter().any(|p| p.contains(why)), "{data}: {problems:#?}");
    }
}

/// Every verb the engine reads is one a layer may not take.
#[test]
fn the_engines_verbs_are_reserved() {
    use warroom_core::game::command::{ALIASES, VERBS};
    for v in VERBS.iter().chain(ALIASES) {
        assert!(rules::BUILT_IN_VERBS.contains(v), "`{v}` is not reserved");
    }
}
