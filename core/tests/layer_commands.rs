//! Commands a layer adds (`[commands]`): read from the player's line and written back in one
//! form, given only in their phases, carried out or refused by the layer's `command` handler,
//! listed by the legal actions, and declared with clear errors when the data is wrong.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use warroom_core::game::command::Command;
use warroom_core::game::Game;
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, RuleSet};

fn mini() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/editions/mini")
}

static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

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

/// The mini edition with a layer of `data` (and `lua`, when given); the load's result.
fn load(data: &str, lua: Option<&str>) -> Result<RuleSet, Vec<String>> {
    let dir = std::env::temp_dir().join(format!(
        "warroom-layer-commands-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let scripts = if lua.is_some() {
        "scripts = [\"gift.lua\"]\n"
    } else {
        ""
    };
    std::fs::write(
        dir.join("layer.toml"),
        format!(
            "[layer]\nname = \"gifts\"\nkind = \"house\"\nextends = [{:?}]\nfiles = [\"gift.toml\"]\n{scripts}",
            mini().display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(dir.join("gift.toml"), data).unwrap();
    if let Some(l) = lua {
        std::fs::write(dir.join("gift.lua"), l).unwrap();
    }
    let mut req = LoadRequest::new(mini().parent().unwrap().to_path_buf(), "mini");
    req.with = vec![dir.display().to_string()];
    rules::load(&req).map_err(|e| e.problems.iter().map(|p| p.message.clone()).collect())
}

fn game(data: &str, lua: Option<&str>) -> Game {
    let rules = load(data, lua).unwrap_or_else(|p| panic!("{p:#?}"));
    Game::new(Arc::new(rules), "mini", &[], None, 1).unwrap()
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
