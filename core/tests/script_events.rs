//! The event catalogue and its return protocol (principle §5): ordering, filters, handled,
//! veto, the read-only game view, requests, and the per-layer store.

use std::path::{Path, PathBuf};

use warroom_core::script::{
    Event, EventKind, GameView, LazyFields, Outcome, ScriptError, ScriptErrorKind, ScriptHost, ScriptLimits,
    Value,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const EVENTS: &str = "tests/fixtures/scripts/events";

fn load_layer(host: &mut ScriptHost, layer: &str, scripts: &[&str]) -> Result<(), ScriptError> {
    let root = root();
    let scripts: Vec<String> = scripts.iter().map(|s| s.to_string()).collect();
    host.load_layer(
        layer,
        &root.join(EVENTS).join(layer),
        &root,
        &scripts,
        &root.join("tests/fixtures/scripts/shared"),
    )
}

/// The base layer, then the house layer on top of it.
fn both_layers() -> ScriptHost {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "base", &["rules.lua"]).expect("base loads");
    load_layer(&mut host, "house", &["house.lua"]).expect("house loads");
    host
}

fn base_only() -> ScriptHost {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "base", &["rules.lua"]).expect("base loads");
    host
}

fn bad(script: &str) -> ScriptError {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "base", &["rules.lua"]).expect("base loads");
    match load_layer(&mut host, "bad", &[script]) {
        Ok(()) => panic!("{script} should not load"),
        Err(e) => e,
    }
}

struct Game;

impl GameView for Game {
    fn round(&self) -> u32 {
        3
    }
    fn power(&self) -> &str {
        "China"
    }
    fn phase(&self) -> &str {
        "combat_move"
    }
    fn owner(&self, space: &str) -> Option<String> {
        (space == "Kwangtung").then(|| "Japan".to_owned())
    }
    fn treasury(&self, power: &str) -> Option<i64> {
        (power == "China").then_some(12)
    }
    fn units(&self, space: &str) -> Vec<(String, String, u32)> {
        if space != "Yunnan" {
            return Vec::new();
        }
        vec![
            ("China".into(), "infantry".into(), 3),
            ("United States".into(), "fighter".into(), 1),
        ]
    }
    fn relation(&self, a: &str, b: &str) -> Option<&'static str> {
        match (a, b) {
            ("China", "Japan") | ("Japan", "China") => Some("war"),
            _ => None,
        }
    }
}

fn messages(d: &warroom_core::script::Dispatch) -> Vec<String> {
    d.log.iter().map(|l| l.message.clone()).collect()
}

#[test]
fn order_is_priority_then_layer_then_registration() {
    let mut host = both_layers();
    let d = host
        .dispatch(&Event::new(EventKind::TurnBegin).with("power", "Germany"), &Game)
        .unwrap();
    assert_eq!(d.outcome, Outcome::Continue);
    // base.c was removed by the house layer; base.d was replaced but keeps its place (last,
    // priority -5) and now uses a module from the layer folder and one from scripts/.
    assert_eq!(
        messages(&d),
        [
            "base.b",
            "house.b",
            "base.a",
            "house.a",
            "[base.d replaced] power Germany"
        ]
    );
    let listed: Vec<String> = host
        .handlers(EventKind::TurnBegin)
        .into_iter()
        .map(|h| h.id)
        .collect();
    assert_eq!(listed, ["base.b", "house.b", "base.a", "house.a", "base.d"]);
    let d = &host.handlers(EventKind::TurnBegin)[4];
    assert_eq!(d.file, "tests/fixtures/scripts/events/house/house.lua");
    assert_eq!(d.layer, "base", "a replaced handler stays in its layer's place");
    assert!(d.line.is_some());
}

#[test]
fn log_lines_name_layer_and_handler() {
    let mut host = both_layers();
    let d = host
        .dispatch(&Event::new(EventKind::TurnBegin).with("power", "Japan"), &Game)
        .unwrap();
    let first = &d.log[0];
    assert_eq!(
        (first.layer.as_str(), first.handler.as_deref()),
        ("base", Some("base.b"))
    );
    let second = &d.log[1];
    assert_eq!(
        (second.layer.as_str(), second.handler.as_deref()),
        ("house", Some("house.b"))
    );
}

#[test]
fn filters_match_payload_fields() {
    let mut host = base_only();
    let fire = |host: &mut ScriptHost, power: &str| {
        let ev = Event::new(EventKind::TurnEnd)
            .with("round", 1)
            .with("power", power);
        messages(&host.dispatch(&ev, &Game).unwrap())
    };
    assert_eq!(fire(&mut host, "China"), ["base.china", "base.everyone"]);
    assert_eq!(fire(&mut host, "Japan"), ["base.axis", "base.everyone"]);
    assert_eq!(fire(&mut host, "Germany"), ["base.axis", "base.everyone"]);
    assert_eq!(fire(&mut host, "United Kingdom"), ["base.everyone"]);
    // A payload without the filtered field matches no filtered handler.
    let d = host.dispatch(&Event::new(EventKind::TurnEnd), &Game).unwrap();
    assert_eq!(messages(&d), ["base.everyone"]);
}

#[test]
fn handled_stops_lower_handlers() {
    let mut host = base_only();
    let ev = Event::new(EventKind::CollectIncome)
        .with("power", "China")
        .with("income", 12);
    let d = host.dispatch(&ev, &Game).unwrap();
    assert_eq!(
        d.outcome,
        Outcome::Handled {
            by: "base.bonus".into()
        }
    );
    assert_eq!(messages(&d), ["bonus for China"], "base.never must not run");
    assert_eq!(d.requests.len(), 1);
    assert_eq!(d.requests[0].by, "base.bonus");
    assert_eq!(
        d.requests[0].command,
        Value::map([
            ("amount", Value::Int(5)),
            ("command", "add_ipcs".into()),
            ("power", "China".into())
        ])
    );
}

fn purchase(cost: i64, ipcs: i64) -> Event {
    Event::new(EventKind::ValidatePurchase)
        .with("power", "China")
        .with("cost", cost)
        .with("ipcs", ipcs)
        .with(
            "units",
            Value::list([Value::map([
                ("unit", Value::from("infantry")),
                ("count", Value::from(4)),
            ])]),
        )
}

#[test]
fn a_veto_names_the_handler_and_reason_and_leaves_no_trace() {
    let mut host = base_only();
    let before = host.store_snapshot();
    let d = host.dispatch(&purchase(15, 12), &Game).unwrap();
    assert_eq!(
        d.outcome,
        Outcome::Veto {
            by: "base.budget".into(),
            reason: "cannot spend 15 IPCs with 12 in hand".into()
        }
    );
    assert!(d.requests.is_empty(), "requests made before a veto are dropped");
    assert_eq!(
        host.store_snapshot(),
        before,
        "store changes before a veto are rolled back"
    );

    let d = host.dispatch(&purchase(9, 12), &Game).unwrap();
    assert_eq!(d.outcome, Outcome::Continue);
    assert_eq!(d.requests.len(), 1);
    let purchases = host
        .store_snapshot()
        .get("base")
        .and_then(|s| s.get("purchases"))
        .cloned();
    assert_eq!(purchases, Some(Value::Int(1)));
}

#[test]
fn vetoing_an_event_that_cannot_be_vetoed_is_an_error() {
    let mut host = base_only();
    let ev = Event::new(EventKind::TerritoryCaptured)
        .with("space", "Yunnan")
        .with("power", "Japan");
    let err = host.dispatch(&ev, &Game).unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::BadReturn);
    assert!(
        err.message.contains("event territory_captured cannot be vetoed"),
        "{err}"
    );
    assert_eq!(err.handler.as_deref(), Some("base.bad_veto"));
    assert_eq!(err.event, Some(EventKind::TerritoryCaptured));
    assert_eq!(
        err.location().as_deref(),
        Some("tests/fixtures/scripts/events/base/rules.lua:40")
    );
}

#[test]
fn a_bad_return_value_is_an_error() {
    let mut host = base_only();
    let err = host
        .dispatch(&Event::new(EventKind::Research).with("power", "Germany"), &Game)
        .unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::BadReturn);
    assert!(err.message.contains("bad return value (a number)"), "{err}");
    assert_eq!(err.handler.as_deref(), Some("base.bad_return"));
    assert_eq!(err.line, Some(45), "{err}");
}

/// The events that ask "may this happen?" (validate_*, before_*, a layer's `command`) may be
/// vetoed; of those, only `command`'s handlers may also ask for commands.
#[test]
fn only_the_events_that_ask_can_veto() {
    let vetoable: Vec<&str> = EventKind::ALL
        .iter()
        .filter(|k| k.can_veto())
        .map(|k| k.name())
        .collect();
    assert_eq!(
        vetoable,
        [
            "validate_purchase",
            "validate_declaration",
            "validate_move",
            "validate_placement",
            "before_combat_step",
            "command"
        ]
    );
    let asking_and_requesting: Vec<&str> = EventKind::ALL
        .iter()
        .filter(|k| k.can_veto() && k.may_request())
        .map(|k| k.name())
        .collect();
    assert_eq!(asking_and_requesting, ["command"]);
    for k in EventKind::ALL {
        assert_eq!(EventKind::from_name(k.name()), Some(k));
    }
    assert_eq!(EventKind::from_name("turn_start"), None);
}

#[test]
fn removing_a_missing_handler_is_an_error_at_load() {
    let err = bad("remove_missing.lua");
    assert_eq!(err.kind, ScriptErrorKind::Registration);
    assert_eq!(
        err.location().as_deref(),
        Some("tests/fixtures/scripts/events/bad/remove_missing.lua:4")
    );
    assert!(err.message.contains("base.does_not_exist"), "{err}");
}

#[test]
fn an_unknown_event_is_an_error_at_load() {
    let err = bad("unknown_event.lua");
    assert_eq!(err.kind, ScriptErrorKind::Registration);
    assert_eq!(
        err.location().as_deref(),
        Some("tests/fixtures/scripts/events/bad/unknown_event.lua:2")
    );
    assert!(err.message.contains("unknown event 'turn_start'"), "{err}");
    assert!(
        err.message.contains("turn_begin"),
        "the message lists the real events: {err}"
    );
}

#[test]
fn a_duplicate_id_is_an_error_at_load() {
    let err = bad("duplicate_id.lua");
    assert_eq!(err.kind, ScriptErrorKind::Registration);
    assert_eq!(err.line, Some(2), "{err}");
    assert!(err.message.contains("duplicate handler id 'bad.twice'"), "{err}");
    assert!(
        err.message.contains("duplicate_id.lua:1"),
        "names the first registration: {err}"
    );
}

#[test]
fn a_filter_on_a_field_the_event_lacks_is_an_error_at_load() {
    let err = bad("filter_field.lua");
    assert_eq!(err.kind, ScriptErrorKind::Registration);
    assert_eq!(err.line, Some(1), "{err}");
    assert!(err.message.contains("filter field 'nation'"), "{err}");
}

#[test]
fn handlers_cannot_register_during_play() {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "bad", &["late_register.lua"]).unwrap();
    let err = host
        .dispatch(&Event::new(EventKind::TurnBegin), &Game)
        .unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Registration);
    assert_eq!(err.line, Some(2), "{err}");
    assert!(host.handlers(EventKind::TurnEnd).is_empty());
}

#[test]
fn the_game_view_is_readable_from_lua() {
    let mut host = base_only();
    let ev = Event::new(EventKind::PhaseBegin)
        .with("power", "China")
        .with("phase", "combat_move");
    let d = host.dispatch(&ev, &Game).unwrap();
    assert_eq!(
        messages(&d),
        [
            "round 3 power China phase combat_move",
            "Kwangtung owner Japan nowhere owner nil",
            "China treasury 12",
            "China and Japan war China and Atlantis nil",
            "unit 1 China infantry 3",
            "unit 2 United States fighter 1",
        ]
    );
    assert_eq!(d.requests.len(), 1);
    assert_eq!(d.requests[0].by, "base.reader");
    let cmd = &d.requests[0].command;
    assert_eq!(cmd.get("command").and_then(Value::as_str), Some("place"));
    assert_eq!(cmd.get("space").and_then(Value::as_str), Some("Yunnan"));
    // Maps read from Lua are sorted by key, never in `pairs` order.
    let Value::Map(m) = cmd else { panic!("a map") };
    let keys: Vec<&str> = m.keys().map(String::as_str).collect();
    assert_eq!(keys, ["command", "power", "space", "unit"]);
}

#[test]
fn misusing_the_game_handle_says_how_to_use_it() {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "handle", &["handle.lua"]).unwrap();
    let d = host
        .dispatch(&Event::new(EventKind::TurnBegin).with("power", "China"), &Game)
        .unwrap();
    let lines = messages(&d);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(
        lines[0].contains("game has no member 'ownr' (did you mean 'owner'?)"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("call it as game:owner(...), with a colon"),
        "{}",
        lines[1]
    );
    assert!(lines[2].contains("bad arguments to game:owner"), "{}", lines[2]);
    assert_eq!(lines[3], "Japan 3");
}

#[test]
fn an_event_nobody_handles_returns_an_empty_dispatch() {
    let mut host = base_only();
    let d = host
        .dispatch(&Event::new(EventKind::ValidateMove).with("power", "China"), &Game)
        .unwrap();
    assert_eq!(d, Default::default());
    assert!(
        d.requests.capacity() == 0 && d.log.capacity() == 0,
        "nothing allocated"
    );
}

#[test]
fn the_store_round_trips() {
    let mut host = base_only();
    for power in ["Japan", "Germany"] {
        let d = host
            .dispatch(&Event::new(EventKind::VictoryCheck).with("power", power), &Game)
            .unwrap();
        assert_eq!(d.outcome, Outcome::Continue);
    }
    let snap = host.store_snapshot();
    let base = snap.get("base").expect("a store for layer base");
    assert_eq!(base.get("count"), Some(&Value::Int(2)));
    assert_eq!(base.get("purchases"), Some(&Value::Int(0)));
    assert_eq!(
        base.get("captured"),
        Some(&Value::map([("combat_move", "Germany")]))
    );

    // A second host with the same rules picks up where the first left off.
    let mut other = base_only();
    assert_ne!(other.store_snapshot(), snap);
    other.restore_store(&snap).unwrap();
    assert_eq!(other.store_snapshot(), snap);
    let d = other
        .dispatch(&Event::new(EventKind::VictoryCheck).with("power", "Japan"), &Game)
        .unwrap();
    assert_eq!(messages(&d), ["count 3"]);

    // Richer values survive too: floats, nesting, lists, non-ASCII strings.
    let rich = Value::map([(
        "base",
        Value::map([
            ("ratio", Value::Float(0.25)),
            (
                "nested",
                Value::map([("list", Value::list([1i64, 2, 3])), ("name", "Sinkiang ✓".into())]),
            ),
            ("flag", Value::Bool(false)),
            ("big", Value::Int(1 << 40)),
        ]),
    )]);
    other.restore_store(&rich).unwrap();
    let back = other.store_snapshot();
    let base = back.get("base").unwrap();
    for key in ["ratio", "nested", "flag", "big"] {
        assert_eq!(base.get(key), rich.get("base").unwrap().get(key), "{key}");
    }
    assert_eq!(other.store_snapshot(), back, "snapshots are stable");
}

#[test]
fn restoring_an_unknown_layer_changes_nothing() {
    let mut host = base_only();
    let before = host.store_snapshot();
    let err = host
        .restore_store(&Value::map([("nope", Value::map([("x", 1i64)]))]))
        .unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Data);
    assert!(err.message.contains("'nope'"), "{err}");
    assert_eq!(host.store_snapshot(), before);
}

#[test]
fn a_store_that_is_not_plain_data_fails_the_dispatch_and_rolls_back() {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "bad", &["store_function.lua"]).unwrap();
    let before = host.store_snapshot();
    let err = host
        .dispatch(&Event::new(EventKind::TurnBegin), &Game)
        .unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Data);
    assert!(err.message.contains("callback"), "names the bad entry: {err}");
    assert_eq!(host.store_snapshot(), before);
    assert_eq!(before.get("bad").and_then(|s| s.get("ok")), Some(&Value::Int(1)));
}

#[test]
fn each_handler_gets_a_fresh_payload() {
    let mut host = base_only();
    let ev = Event::new(EventKind::AfterCombatStep)
        .with("space", "Egypt")
        .with("attacker", "Germany")
        .with("defenders", Value::list(["United Kingdom", "United States"]))
        .with("step", "fire");
    let d = host.dispatch(&ev, &Game).unwrap();
    assert_eq!(messages(&d), ["Egypt fire 2 United States"]);
}

/// `combatants` of a battle, counting how often it is worked out.
struct Combatants(std::cell::Cell<u32>);

impl LazyFields for Combatants {
    fn names(&self) -> &'static [&'static str] {
        &["combatants"]
    }
    fn build(&self, _: usize) -> Value {
        self.0.set(self.0.get() + 1);
        let unit = |id: i64, unit: &str| {
            Value::map([
                ("id", Value::from(id)),
                ("unit", unit.into()),
                ("owner", "Germany".into()),
                ("side", "attacker".into()),
                ("status", "fighting".into()),
                ("tags", Value::Map(Default::default())),
                ("did", Value::list(Vec::<Value>::new())),
                ("started", "".into()),
            ])
        };
        Value::list([unit(4, "armour"), unit(7, "infantry")])
    }
}

fn battle_end() -> Event {
    Event::new(EventKind::BattleEnd)
        .with("space", "Egypt")
        .with("attacker", "Germany")
        .with("defenders", Value::list(["United Kingdom"]))
        .with("combat_round", 2i64)
        .with("outcome", "attacker_won")
}

#[test]
fn a_lazy_payload_field_is_worked_out_once_and_only_when_read() {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "lazy", &["lazy.lua"]).unwrap();
    let lazy = Combatants(Default::default());
    let d = host.dispatch_with(&battle_end(), &lazy, &Game).unwrap();
    assert_eq!(
        messages(&d),
        [
            "read 2 armour",
            "keys attacker,combat_round,combatants,defenders,outcome,space armour",
            // `pairs` sees what is in the table: combatants only once read.
            "pairs 5 missing nil",
        ]
    );
    assert_eq!(lazy.0.get(), 1, "worked out once for all handlers");
    let kept = host.store_snapshot();
    let kept = kept
        .get("lazy")
        .and_then(|s| s.get("kept"))
        .expect("kept in the store");
    assert_eq!(kept.get("space"), Some(&Value::from("Egypt")));
    assert_eq!(
        kept.get("combatants"),
        None,
        "not read by that handler, so not in its table"
    );

    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "lazy", &["quiet.lua"]).unwrap();
    let lazy = Combatants(Default::default());
    let d = host.dispatch_with(&battle_end(), &lazy, &Game).unwrap();
    assert_eq!(messages(&d), ["outcome attacker_won"]);
    assert_eq!(lazy.0.get(), 0, "nobody read it");
}

/// The host keeps the last payload's table and changes only what differs: each step still
/// sees its own payload, whatever a handler did to the one before.
#[test]
fn each_step_sees_its_own_payload() {
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    load_layer(&mut host, "lazy", &["steps.lua"]).unwrap();
    let step = |name: &str, round: i64, defenders: &[&str]| {
        Event::new(EventKind::AfterCombatStep)
            .with("space", "Egypt")
            .with("attacker", "Germany")
            .with("defenders", Value::list(defenders.iter().copied()))
            .with("combat_round", round)
            .with("step", name)
    };
    let mut seen = Vec::new();
    for (i, ev) in [
        step("attacker_fires", 1, &["United Kingdom"]),
        step("defender_fires", 1, &["United Kingdom"]),
        step("attacker_fires", 2, &["United Kingdom", "United States"]),
        step("attacker_fires", 2, &["United Kingdom", "United States"]),
    ]
    .iter()
    .enumerate()
    {
        seen.extend(messages(&host.dispatch(ev, &Game).unwrap()));
        if i == 1 {
            // Another event in between, with other fields.
            host.dispatch(&Event::new(EventKind::TurnBegin).with("power", "China"), &Game)
                .unwrap();
        }
    }
    assert_eq!(
        seen,
        [
            "attacker_fires 1 United Kingdom",
            "defender_fires 1 United Kingdom",
            "attacker_fires 2 United Kingdom+United States",
            "attacker_fires 2 United Kingdom+United States",
        ]
    );
}

#[test]
fn values_that_lua_cannot_hold_exactly_are_refused() {
    let mut host = base_only();
    let ev = Event::new(EventKind::AfterCombatStep).with("combat_round", Value::Int(1 << 60));
    let err = host.dispatch(&ev, &Game).unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Data);
    assert!(err.message.contains("too large"), "{err}");
}

/// A script written to a fresh folder and loaded as a layer of its own: the load's error.
fn load_error(script: &str) -> ScriptError {
    let dir = std::env::temp_dir().join(format!("warroom-typo-{}-{}", std::process::id(), script.len()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("typo.lua"), script).unwrap();
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    let err = host
        .load_layer(
            "typo",
            &dir,
            &dir,
            &["typo.lua".to_string()],
            &root().join("tests/fixtures/scripts/shared"),
        )
        .expect_err(script);
    std::fs::remove_dir_all(&dir).unwrap();
    err
}

/// A handler's return value, dispatched: the error.
fn return_error(value: &str) -> ScriptError {
    let dir = std::env::temp_dir().join(format!("warroom-return-{}-{}", std::process::id(), value.len()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("ret.lua"),
        format!("warroom.on(\"validate_purchase\", {{ id = \"typo.ret\" }}, function(ev, game)\n  return {value}\nend)\n"),
    )
    .unwrap();
    let mut host = ScriptHost::new(ScriptLimits::default()).unwrap();
    host.load_layer(
        "typo",
        &dir,
        &dir,
        &["ret.lua".to_string()],
        &root().join("tests/fixtures/scripts/shared"),
    )
    .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    host.dispatch(&purchase(10, 20), &Game).expect_err(value)
}

#[test]
fn a_misspelt_name_gets_the_nearest_one() {
    for (script, hint) in [
        (
            "warroom.on(\"turn_begni\", { id = \"t.a\" }, function() end)",
            "(did you mean 'turn_begin'?)",
        ),
        (
            "warroom.on(\"turn_begin\", { id = \"t.a\", fitler = {} }, function() end)",
            "(did you mean 'filter'?)",
        ),
        (
            "warroom.on(\"turn_begin\", { id = \"t.a\", filter = { powr = \"Germany\" } }, function() end)",
            "(did you mean 'power'?)",
        ),
    ] {
        let err = load_error(script);
        assert_eq!(err.kind, ScriptErrorKind::Registration, "{script}");
        assert!(err.message.contains(hint), "{script}: {err}");
    }
    for (value, hint) in [
        ("{ vetoo = \"no\" }", "(did you mean 'veto'?)"),
        ("\"handeld\"", "(did you mean 'handled'?)"),
    ] {
        let err = return_error(value);
        assert_eq!(err.kind, ScriptErrorKind::BadReturn, "{value}");
        assert!(err.message.contains(hint), "{value}: {err}");
    }
    // Nothing near: no guess.
    assert!(!load_error("warroom.on(\"x\", { id = \"t.a\" }, function() end)")
        .message
        .contains("did you mean"));
}
