//! What rule scripts know and keep of single units, and the questions they ask players: tags
//! (`mark`, `clear_mark`), what each unit did this turn and where it began it (`each_unit`,
//! `unit`, a battle's `combatants`), values set for one unit or for a power's type
//! (`combat_value` naming units, `set_value`), units destroyed or a battle ended by a rule, and
//! `choose` with its `answer`. Each request also has its refusal here.

mod support;

use support::*;
use warroom_core::game::command::Command;
use warroom_core::game::Game;

fn mini_with(lua: &str) -> Game {
    mini_game_with_layer(&[("rule.lua", lua)])
}

/// The tags of every unit of the mini edition's Redland, as `id:tags` text.
fn tags_in(g: &Game, space: &str) -> Vec<String> {
    let id = g.rules().board.find(space).unwrap();
    g.state()
        .space(id)
        .units
        .iter()
        .filter(|u| !u.tags.is_empty())
        .map(|u| format!("{}:{}", g.rules().unit(u.kind).id, u.tags.describe()))
        .collect()
}

/// The last command must fail naming the handler, with `why` in its message, and change
/// nothing.
fn refused_by_rule(g: &mut Game, cmd: &str, why: &str) {
    let before = g.hash();
    let e = g.execute(cmd).expect_err(why).to_string();
    assert!(e.contains("handler `house."), "{e}");
    assert!(e.contains(why), "expected `{why}` in: {e}");
    assert_eq!(g.hash(), before, "a refused command left a trace");
}

#[test]
fn a_tag_stays_on_units_until_a_script_clears_it() {
    let mut g = mini_with(
        r#"warroom.on("phase_end", { id = "house.mark", filter = { phase = "purchase" } }, function(ev, game)
  local ids = {}
  for _, u in ipairs(game:each_unit("Redland")) do
    if u.unit == "infantry" then table.insert(ids, u.id) end
  end
  game:request({ command = "mark", units = { ids[1], ids[2] }, tag = "veteran" })
  game:request({ command = "mark", units = { ids[1] }, tag = "kills", add = 2, reason = "drill" })
end)
warroom.on("phase_end", { id = "house.read", filter = { phase = "combat_move" } }, function(ev, game)
  local parts = {}
  for _, u in ipairs(game:each_unit("Redland")) do
    table.insert(parts, u.unit .. "=" .. (u.tags.veteran or 0) .. "/" .. (u.tags.kills or 0))
  end
  warroom.log(table.concat(parts, " "))
  game:request({ command = "clear_mark", tag = "veteran" })
end)
"#,
    );
    let out = ok(&mut g, "end phase");
    assert!(
        logged(&out, "[house.mark] marked veteran: 2 Infantry of Red in Redland"),
        "{out:#?}"
    );
    assert!(
        logged(
            &out,
            "[house.mark] marked kills +2: 1 Infantry of Red in Redland (drill)"
        ),
        "{out:#?}"
    );
    assert_eq!(
        tags_in(&g, "Redland"),
        ["infantry:kills 2, veteran", "infantry:veteran"]
    );
    let out = ok(&mut g, "end phase");
    assert!(
        logged(
            &out,
            "[house.read] infantry=1/2 infantry=1/0 infantry=0/0 tank=0/0"
        ),
        "{out:#?}"
    );
    assert!(
        logged(&out, "[house.read] veteran cleared: 2 Infantry of Red in Redland"),
        "{out:#?}"
    );
    assert_eq!(tags_in(&g, "Redland"), ["infantry:kills 2"]);
    // The game hashes what units carry, so saves check it.
    let fresh = mini_with("");
    assert_ne!(g.state().hash(), fresh.state().hash());
}

#[test]
fn tag_requests_are_refused_with_the_reason() {
    for (request, why) in [
        (
            r#"{ command = "mark", units = { 999 }, tag = "veteran" }"#,
            "no unit #999 is on the board",
        ),
        (
            r#"{ command = "mark", units = { 0 }, tag = "two words" }"#,
            "needs tag = a name of letters",
        ),
        (
            r#"{ command = "mark", units = { 0 }, tag = "v", value = 1, add = 1 }"#,
            "not both",
        ),
        (
            r#"{ command = "mark", units = 0, tag = "v" }"#,
            "needs units = a list of 1 to 99 unit ids",
        ),
        (
            r#"{ command = "mark", units = { 0 }, tag = "v", value = 5000 }"#,
            "from -1000 to 1000",
        ),
        (r#"{ command = "clear_mark", units = { 0 } }"#, "needs tag"),
        (
            r#"{ command = "mark", units = { 0 }, tag = "v", colour = "red" }"#,
            "mark takes no field `colour`",
        ),
    ] {
        let mut g = mini_with(&format!(
            "warroom.on(\"phase_end\", {{ id = \"house.ask\" }}, function(ev, game)\n  game:request({request})\nend)\n"
        ));
        refused_by_rule(&mut g, "end phase", why);
    }
}

#[test]
fn a_units_table_says_what_it_did_this_turn_and_where_it_began_it() {
    let mut g = mini_with(
        r#"warroom.on("phase_end", { id = "house.read", filter = { phase = "noncombat_move" } }, function(ev, game)
  for _, u in ipairs(game:each_unit("Middle")) do
    warroom.log(u.unit, "id" .. u.id, table.concat(u.did, "+"), "from", u.started, "now", u.space)
    local again = game:unit(u.id)
    warroom.log("again", again.unit, again.space, tostring(game:unit(4242)))
  end
  for _, s in ipairs(game:start_units("Redland")) do
    warroom.log("began in Redland:", s.owner, s.unit, s.count)
  end
end)
"#,
    );
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    ok(&mut g, "move tank from Redland to Middle");
    let out = ok(&mut g, "end phase");
    assert!(
        logged(&out, "[house.read] tank id3 moved from Redland now Middle"),
        "{out:#?}"
    );
    assert!(logged(&out, "[house.read] again tank Middle nil"), "{out:#?}");
    assert!(
        logged(&out, "[house.read] began in Redland: Red tank 1"),
        "{out:#?}"
    );
}

#[test]
fn remove_units_by_id_takes_those_units_off_the_board() {
    let mut g = mini_with(
        r#"warroom.on("phase_end", { id = "house.attrition", filter = { phase = "purchase" } }, function(ev, game)
  local ids = {}
  for _, u in ipairs(game:each_unit("Redland")) do
    if u.unit == "infantry" then table.insert(ids, u.id) end
  end
  game:request({ command = "remove_units", units = { ids[1], ids[3] }, reason = "winter" })
end)
"#,
    );
    let out = ok(&mut g, "end phase");
    assert!(
        logged(
            &out,
            "[house.attrition] removed: 2 Infantry of Red in Redland (winter)"
        ),
        "{out:#?}"
    );
    assert_eq!(count(&g, "Redland", "Red", "infantry"), 1);
    let mut g = mini_with(
        "warroom.on(\"phase_end\", { id = \"house.ask\" }, function(ev, game)\n  game:request({ command = \"remove_units\", units = { 0 }, power = \"Red\" })\nend)\n",
    );
    refused_by_rule(&mut g, "end phase", "not both");
}

#[test]
fn a_question_waits_for_its_answer_which_the_scripts_hear() {
    let mut g = mini_with(
        r#"warroom.on("phase_end", { id = "house.ask", filter = { phase = "purchase" } }, function(ev, game)
  game:request({ command = "choose", power = "Blue", question = "Raid the coast?", answers = { "raid", "wait" } })
end)
warroom.on("answer", { id = "house.heard", filter = { key = "house.ask" } }, function(ev, game)
  warroom.log(ev.power, "said", ev.answer, "to", ev.question)
  if ev.answer == "raid" then
    game:request({ command = "add_ipcs", power = "Blue", amount = 3, reason = "raid" })
  end
end)
"#,
    );
    let out = ok(&mut g, "end phase");
    assert!(
        logged(
            &out,
            "[house.ask] asks Blue: Raid the coast? — answer raid | wait"
        ),
        "{out:#?}"
    );
    // Nothing else is played until it is answered; the legal actions are its answers.
    let e = refused(&mut g, "end phase", "question-first");
    assert!(e.message.contains("`answer raid`"), "{}", e.message);
    assert_eq!(
        g.legal_actions(),
        vec![Command::Answer("raid".into()), Command::Answer("wait".into())]
    );
    let e = refused(&mut g, "answer sail", "question-first");
    assert!(e.message.contains("raid (1), wait (2)"), "{}", e.message);
    let out = ok(&mut g, "answer 1");
    assert!(logged(&out, "Blue answers “Raid the coast?”: raid"), "{out:#?}");
    assert!(
        logged(&out, "[house.heard] Blue said raid to Raid the coast?"),
        "{out:#?}"
    );
    assert_eq!(treasury(&g, "Blue"), 15);
    assert_eq!(g.history().last().map(|r| r.text.as_str()), Some("answer raid"));
    ok(&mut g, "end phase");
}

#[test]
fn choose_is_refused_with_the_reason() {
    for (request, why) in [
        (
            r#"{ command = "choose", power = "Blue", question = "Go?", answers = { "yes" } }"#,
            "2 to 10 texts",
        ),
        (
            r#"{ command = "choose", power = "Blue", question = "Go?", answers = { "yes", "Yes" } }"#,
            "listed twice",
        ),
        (
            r#"{ command = "choose", power = "Blue", question = "Go?", answers = { "yes", "2" } }"#,
            "not a number",
        ),
        (
            r#"{ command = "choose", power = "Blue", question = "", answers = { "yes", "no" } }"#,
            "non-empty line",
        ),
        (
            r#"{ command = "choose", power = "Green", question = "Go?", answers = { "yes", "no" } }"#,
            "needs power",
        ),
    ] {
        let mut g = mini_with(&format!(
            "warroom.on(\"phase_end\", {{ id = \"house.ask\" }}, function(ev, game)\n  game:request({request})\nend)\n"
        ));
        refused_by_rule(&mut g, "end phase", why);
    }
}

#[test]
fn set_value_stands_for_a_powers_units_until_the_turn_ends_or_it_is_cleared() {
    let mut g = mini_with(
        r#"warroom.on("phase_end", { id = "house.drill", filter = { phase = "purchase" } }, function(ev, game)
  if ev.power == "Red" then
    game:request({ command = "set_value", power = "Red", unit = "infantry", value = "attack", to = 3, lasts = "turn" })
    game:request({ command = "set_value", power = "Red", unit = "tank", value = "defense", to = 5, lasts = "removed" })
  else
    game:request({ command = "clear_value", power = "Red", unit = "tank", value = "defense" })
  end
end)
"#,
    );
    let out = ok(&mut g, "end phase");
    assert!(
        logged(&out, "[house.drill] Red's Infantry attack at 3 this turn"),
        "{out:#?}"
    );
    assert_eq!(g.state().standing_values.0.len(), 2);
    // Red's turn ends: the value for the turn is gone, the other stands until cleared.
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    ok(&mut g, "end phase");
    assert_eq!(g.state().standing_values.0.len(), 1);
    let out = ok(&mut g, "end phase");
    assert!(
        logged(&out, "[house.drill] Red's Tank defense is the printed one again"),
        "{out:#?}"
    );
    assert!(g.state().standing_values.0.is_empty());
    for (request, why) in [
        (
            r#"{ command = "clear_value", power = "Red", unit = "tank", value = "attack" }"#,
            "no attack is set",
        ),
        (
            r#"{ command = "set_value", power = "Red", unit = "tank", value = "attack", to = 7, lasts = "turn" }"#,
            "from 0 to 6",
        ),
        (
            r#"{ command = "set_value", power = "Red", unit = "tank", value = "attack", to = 4, lasts = "ever" }"#,
            "lasts = \"turn\" or \"removed\"",
        ),
        (
            r#"{ command = "set_value", power = "Red", unit = "tank", value = "cost", to = 4, lasts = "turn" }"#,
            "value = \"attack\" or \"defense\"",
        ),
    ] {
        let mut g = mini_with(&format!(
            "warroom.on(\"phase_end\", {{ id = \"house.ask\" }}, function(ev, game)\n  game:request({request})\nend)\n"
        ));
        refused_by_rule(&mut g, "end phase", why);
    }
}

/// An Anniversary battle: two German infantry from Poland against one Soviet infantry in the
/// Baltic States, dice typed at the table; the layer's Lua decides what rules apply.
fn baltic_battle(lua: &str) -> Game {
    let mut g = anniversary_game_with_layer(&[("rule.lua", lua)]);
    advance_to(&mut g, "Germany", "combat_move");
    for s in ["Poland", "Baltic States"] {
        clear(&mut g, s);
    }
    ok(&mut g, "edit add Poland Germany 2 infantry");
    ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 1 infantry");
    ok(&mut g, "move 2 infantry from Poland to \"Baltic States\"");
    ok(&mut g, "end phase");
    ok(&mut g, "dice manual");
    g
}

#[test]
fn a_rule_sets_the_value_of_single_units_for_a_round() {
    let mut g = baltic_battle(
        r#"warroom.on("before_combat_step", { id = "house.one", filter = { step = "attacker_fires" } }, function(ev, game)
  for _, c in ipairs(ev.combatants) do
    if c.side == "attacker" then
      game:request({ command = "combat_value", side = "attacker", units = { c.id }, value = 5, lasts = "round" })
      return
    end
  end
end)
"#,
    );
    // Round 1: one infantry at 5, one at 1: faces 6 and 6 miss; the defender's 6 misses.
    ok(&mut g, "roll 6 6 6");
    let out = ok(&mut g, "fight");
    assert!(logged(&out, "Germany rolls @1 [6] @5 [6] → 0 hits"), "{out:#?}");
    // Round 2: the handler asks again for round 2 (it asks every round): still one at 5.
    ok(&mut g, "roll 6 6 6");
    let out = ok(&mut g, "press");
    assert!(logged(&out, "Germany rolls @1 [6] @5 [6] → 0 hits"), "{out:#?}");
}

#[test]
fn a_value_set_for_the_round_is_gone_in_the_next() {
    let mut g = baltic_battle(
        r#"warroom.on("before_combat_step", { id = "house.once", filter = { step = "attacker_fires" } }, function(ev, game)
  if ev.combat_round == 1 then
    local ids = {}
    for _, c in ipairs(ev.combatants) do
      if c.side == "attacker" then table.insert(ids, c.id) end
    end
    game:request({ command = "combat_value", side = "attacker", units = ids, value = 3, lasts = "round" })
  end
end)
"#,
    );
    ok(&mut g, "roll 6 6 6");
    let out = ok(&mut g, "fight");
    assert!(logged(&out, "Germany rolls @3 [6 6] → 0 hits"), "{out:#?}");
    ok(&mut g, "roll 6 6 6");
    let out = ok(&mut g, "press");
    assert!(logged(&out, "Germany rolls @1 [6 6] → 0 hits"), "{out:#?}");
}

#[test]
fn a_rule_ends_a_battle_and_both_sides_stay() {
    let mut g = baltic_battle(
        r#"warroom.on("before_combat_step", { id = "house.truce", filter = { step = "attacker_fires" } }, function(ev, game)
  game:request({ command = "end_battle", reason = "a truce" })
end)
warroom.on("battle_end", { id = "house.heard" }, function(ev, game)
  warroom.log("outcome", ev.outcome, #ev.combatants)
end)
"#,
    );
    let out = ok(&mut g, "fight");
    assert!(logged(&out, "[house.truce] the battle ends: a truce"), "{out:#?}");
    assert!(logged(&out, "[house.heard] outcome ended 3"), "{out:#?}");
    assert!(
        logged(&out, "a rule ends the battle in Baltic States"),
        "{out:#?}"
    );
    assert!(g.state().combat.is_none());
    assert_eq!(count(&g, "Baltic States", "Germany", "infantry"), 2);
    assert_eq!(count(&g, "Baltic States", "Soviet Union", "infantry"), 1);
    assert_eq!(controller(&g, "Baltic States").as_deref(), Some("Soviet Union"));
    assert_eq!(g.state().dice_queue.len(), 0);
}

#[test]
fn a_rule_destroys_units_of_a_battle_before_a_step() {
    let mut g = baltic_battle(
        r#"warroom.on("before_combat_step", { id = "house.mines", filter = { step = "attacker_fires" } }, function(ev, game)
  if ev.combat_round > 1 then return end
  for _, c in ipairs(ev.combatants) do
    if c.side == "defender" then
      game:request({ command = "remove_units", units = { c.id } })
    end
  end
end)
"#,
    );
    let out = ok(&mut g, "fight");
    assert!(logged(&out, "Soviet Union loses 1 Infantry"), "{out:#?}");
    assert!(
        logged(&out, "Germany wins the battle in Baltic States"),
        "{out:#?}"
    );
    assert_eq!(controller(&g, "Baltic States").as_deref(), Some("Germany"));
}

#[test]
fn battle_requests_are_refused_with_the_reason() {
    for (lua, why) in [
        (
            r#"game:request({ command = "combat_value", side = "defender", units = { 9999 }, value = 3 })"#,
            "not among the defenders of this battle",
        ),
        (
            r#"game:request({ command = "remove_units", units = { 9999 } })"#,
            "unit #9999 is not in this battle",
        ),
        (
            r#"game:request({ command = "combat_value", side = "attacker", unit = "infantry", value = 3, lasts = "round" })"#,
            "for single units",
        ),
        (
            r#"game:request({ command = "mark", units = "all", tag = "x" })"#,
            "not a list of unit ids",
        ),
        (
            r#"game:request({ command = "choose", power = "Germany", question = "Go?", answers = { "a", "b" } })"#,
            "in battles scripts may ask only for",
        ),
    ] {
        let mut g = baltic_battle(&format!(
            "warroom.on(\"before_combat_step\", {{ id = \"house.ask\", filter = {{ step = \"attacker_fires\" }} }}, function(ev, game)\n  {lua}\nend)\n"
        ));
        let before = g.hash();
        let e = g.execute("fight").expect_err(why).to_string();
        assert!(
            e.contains("handler `house.ask`") && e.contains(why),
            "expected `{why}` in: {e}"
        );
        assert_eq!(g.hash(), before);
    }
}

#[test]
fn end_battle_is_asked_before_a_step_only() {
    let mut g = baltic_battle(
        "warroom.on(\"after_combat_step\", { id = \"house.ask\" }, function(ev, game)\n  game:request({ command = \"end_battle\" })\nend)\n",
    );
    ok(&mut g, "roll 6 6 6");
    let before = g.hash();
    let e = g.execute("fight").expect_err("refused").to_string();
    assert!(
        e.contains("handler `house.ask`") && e.contains("in before_combat_step"),
        "{e}"
    );
    assert_eq!(g.hash(), before);
}

/// A script step rolling dice for units that are not there (`fire` with `dice`).
#[test]
fn fire_with_dice_rolls_for_units_that_are_not_there() {
    let combat =
        "[combat]\nscript_steps = [\"volley\"]\nfirst_round = [\"volley\", \"bombardment\", \"anti_air\"]\n";
    let volley = |dice: &str| {
        format!(
            "warroom.on(\"before_combat_step\", {{ id = \"house.volley\", filter = {{ step = \"volley\" }} }}, function(ev, game)\n  game:request({{ command = \"fire\", side = \"attacker\", unit = \"fighter\", value = 6, dice = {dice} }})\nend)\n"
        )
    };
    let battle = |lua: &str| {
        let mut g = anniversary_game_with_layer(&[("combat.toml", combat), ("rule.lua", lua)]);
        advance_to(&mut g, "Germany", "combat_move");
        for s in ["Poland", "Baltic States"] {
            clear(&mut g, s);
        }
        ok(&mut g, "edit add Poland Germany 1 infantry");
        ok(&mut g, "edit add \"Baltic States\" \"Soviet Union\" 1 infantry");
        ok(&mut g, "move infantry from Poland to \"Baltic States\"");
        ok(&mut g, "end phase");
        ok(&mut g, "dice manual");
        g
    };
    let mut g = battle(&volley("2"));
    ok(&mut g, "roll 6 6");
    let out = ok(&mut g, "fight");
    assert!(
        logged(&out, "volley: Germany rolls @6 [6 6] → 2 hits"),
        "{out:#?}"
    );
    assert!(
        logged(&out, "Germany wins the battle in Baltic States"),
        "{out:#?}"
    );
    let mut g = battle(&volley("0"));
    let e = g.execute("fight").expect_err("refused").to_string();
    assert!(e.contains("dice is a whole number from 1 to 20"), "{e}");
}
