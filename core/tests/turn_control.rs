//! Who holds what (../shared/rules/special.md, 1941-CAP-*, 1941-LIB-TERR, 1941-VC-*, AA50-CAP-*,
//! AA50-LIB-TERR, AA50-AA-CAPTURE, AA50-VC-*): capture and liberation of territories, capitals
//! and their treasuries, income without a capital, and victory as edition data, played on the
//! real 1941 and Anniversary boards. The cases that read better as data (victory, capital
//! capture, liberation) moved to regression scenarios under tests/scenarios.

mod support;
use support::*;
use warroom_core::game::Game;

/// End the current phase and the next one (combat move, then conduct combat).
fn fight(g: &mut Game) -> Vec<String> {
    let mut out = ok(g, "end phase");
    out.extend(ok(g, "end phase"));
    out
}

fn aa_owner(g: &Game, space: &str) -> Vec<String> {
    let r = g.rules();
    let id = r.board.find(space).unwrap();
    let aa = r.unit_type("aa_gun").unwrap();
    g.state()
        .space(id)
        .units
        .iter()
        .filter(|u| u.kind == aa)
        .map(|u| r.power_info(u.owner).name.clone())
        .collect()
}

// ---------------------------------------------------------------- capture and liberation

#[test]
fn land_units_capture_an_empty_enemy_territory_at_the_end_of_conduct_combat() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "Soviet Union", "combat_move");
    clear(&mut g, "West Russia");
    let (sov, ger) = (
        g.rules().power("Soviet Union").unwrap(),
        g.rules().power("Germany").unwrap(),
    );
    let (sov_before, ger_before) = (g.income(sov), g.income(ger));
    ok(&mut g, "move infantry from Karelia to West Russia");
    ok(&mut g, "end phase");
    assert_eq!(
        controller(&g, "West Russia").as_deref(),
        Some("Germany"),
        "not before combat"
    );
    let out = ok(&mut g, "end phase");
    assert!(logged(&out, "Soviet Union captures West Russia"), "{out:?}");
    assert_eq!(controller(&g, "West Russia").as_deref(), Some("Soviet Union"));
    assert_eq!(g.income(sov), sov_before + 1);
    assert_eq!(g.income(ger), ger_before - 1);
}

#[test]
fn a_power_without_its_capital_collects_nothing_and_skips_purchase_mobilize_and_income_1941_cap_effect() {
    let mut g = game("1941", &[], None);
    advance_to(&mut g, "United States", "collect_income");
    ok(&mut g, "edit control Russia Germany");
    ok(&mut g, "edit treasury Soviet Union 5");
    let sov = g.rules().power("Soviet Union").unwrap();
    assert_eq!(g.income(sov), 0, "1941-INCOME: no income without the capital");
    let out = ok(&mut g, "end phase");
    assert!(logged(&out, "Soviet Union skips Purchase Units"), "{out:?}");
    assert_eq!(g.rules().power_info(g.current_power()).name, "Soviet Union");
    assert_eq!(g.current_phase().id, "combat_move");
    advance_to(&mut g, "Soviet Union", "noncombat_move");
    let out = ok(&mut g, "end phase");
    assert!(logged(&out, "Soviet Union skips Mobilize New Units"), "{out:?}");
    assert!(logged(&out, "Soviet Union skips Collect Income"), "{out:?}");
    assert_eq!(g.rules().power_info(g.current_power()).name, "Germany");
    assert_eq!(treasury(&g, "Soviet Union"), 5);
}

#[test]
fn a_power_without_its_capital_collects_nothing_aa50_cap_effect_aa50_income_capital() {
    let mut g = game("anniversary", &[], None);
    advance_to(&mut g, "Soviet Union", "collect_income");
    ok(&mut g, "edit control Russia Germany");
    let before = treasury(&g, "Soviet Union");
    let out = ok(&mut g, "end phase");
    assert!(logged(&out, "Soviet Union collects 0 IPCs"), "{out:?}");
    assert_eq!(treasury(&g, "Soviet Union"), before);
    advance_to(&mut g, "Germany", "collect_income");
    let out = ok(&mut g, "end phase");
    assert!(logged(&out, "Soviet Union skips"), "{out:?}");
    assert_eq!(g.current_phase().id, "combat_move");
}

#[test]
fn an_aa_gun_is_captured_with_its_territory_and_cannot_move_that_turn_aa50_aa_capture() {
    let mut g = game("anniversary", &[], None);
    advance_to(&mut g, "Germany", "combat_move");
    clear(&mut g, "East Poland");
    ok(&mut g, "edit add East Poland Soviet Union 1 aa_gun");
    ok(&mut g, "edit add Poland Germany 1 infantry");
    ok(&mut g, "move infantry from Poland to East Poland");
    let out = fight(&mut g);
    assert!(logged(&out, "Germany captures East Poland"), "{out:?}");
    assert!(logged(&out, "Germany takes over the Antiaircraft Gun"), "{out:?}");
    assert_eq!(aa_owner(&g, "East Poland"), vec!["Germany"]);
    refused(
        &mut g,
        "move aa_gun from East Poland to Poland",
        "noncombat-after-combat",
    );
}

#[test]
fn liberating_a_capital_returns_its_aa_guns_but_not_those_outside_aa50_cap_lib() {
    let mut g = game("anniversary", &[], None);
    advance_to(&mut g, "United Kingdom", "combat_move");
    ok(&mut g, "edit control Russia Germany");
    clear(&mut g, "Russia");
    ok(&mut g, "edit add Russia Germany 1 aa_gun"); // taken with Moscow
    ok(&mut g, "edit control Belorussia United Kingdom");
    clear(&mut g, "Belorussia");
    ok(&mut g, "edit add Belorussia United Kingdom 1 aa_gun");
    ok(&mut g, "edit add Archangel United Kingdom 1 infantry");
    ok(&mut g, "move infantry from Archangel to Russia");
    let out = fight(&mut g);
    assert!(logged(&out, "United Kingdom liberates Russia"), "{out:?}");
    assert_eq!(controller(&g, "Russia").as_deref(), Some("Soviet Union"));
    assert_eq!(aa_owner(&g, "Russia"), vec!["Soviet Union"]);
    assert_eq!(controller(&g, "Belorussia").as_deref(), Some("Soviet Union"));
    assert_eq!(aa_owner(&g, "Belorussia"), vec!["United Kingdom"]);
}

#[test]
fn a_liberated_territory_returns_with_its_aa_gun_aa50_lib_terr() {
    let mut g = game("anniversary", &[], Some("1942"));
    // 1942: Belorussia starts under a German marker on a Soviet symbol; the Soviet Union is
    // its original owner.
    assert_eq!(controller(&g, "Belorussia").as_deref(), Some("Germany"));
    advance_to(&mut g, "United Kingdom", "combat_move");
    clear(&mut g, "Belorussia");
    ok(&mut g, "edit add Belorussia Germany 1 aa_gun");
    ok(&mut g, "edit add Archangel United Kingdom 1 infantry");
    ok(&mut g, "move infantry from Archangel to Belorussia");
    let out = fight(&mut g);
    assert!(logged(&out, "United Kingdom liberates Belorussia"), "{out:?}");
    assert_eq!(controller(&g, "Belorussia").as_deref(), Some("Soviet Union"));
    assert_eq!(aa_owner(&g, "Belorussia"), vec!["Soviet Union"]);
}

// ---------------------------------------------------------------- victory

#[test]
fn the_victory_city_count_accepts_only_13_15_or_18() {
    let mut req = warroom_core::layers::LoadRequest::new(editions(), "anniversary");
    req.with = vec!["victory-cities:count=14".to_string()];
    let err = warroom_core::rules::load(&req).expect_err("14 is not an option");
    let text: Vec<String> = err.problems.iter().map(|p| p.message.clone()).collect();
    assert!(text.iter().any(|m| m.contains("13, 15, 18")), "{text:?}");
}

/// A layer on top of 1941 that replaces `[victory]` with `data`; the problems it loads with.
fn victory_problems(case: &str, data: &str) -> Vec<(String, String, Option<String>)> {
    let dir = std::env::temp_dir().join(format!("warroom-victory-{}-{case}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("layer.toml"),
        "[layer]\nname = \"bad-victory\"\nkind = \"house\"\nextends = [\"1941\"]\nfiles = [\"victory.toml\"]\n",
    )
    .unwrap();
    std::fs::write(dir.join("victory.toml"), data).unwrap();
    let req = warroom_core::layers::LoadRequest::new(editions(), dir.display().to_string());
    let out = match warroom_core::rules::load(&req) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .problems
            .iter()
            .map(|p| {
                (
                    p.code.to_string(),
                    p.message.clone(),
                    p.location().map(str::to_string),
                )
            })
            .collect(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn bad_victory_data_is_reported_where_it_is_written() {
    let cases = [
        ("side", "[victory.axis]\nside = \"Axsi\"\n", "unknown side `Axsi`"),
        (
            "power",
            "[victory.axis]\nafter_turn_of = \"Untied States\"\n",
            "unknown power `Untied States`",
        ),
        (
            "space",
            "[victory.axis]\nspaces = [\"London\"]\n",
            "unknown space `London`",
        ),
        (
            "sea",
            "[victory.axis]\nspaces = [\"SZ 5\"]\ncount = 1\n",
            "is a sea zone",
        ),
        ("count", "[victory.axis]\ncount = 4\n", "must be between 1 and 3"),
        (
            "field",
            "[victory.axis]\ncuont = 2\n",
            "unknown field `victory.axis.cuont`",
        ),
        (
            "when",
            "[victory.axis]\nend_of_round = true\n",
            "sets both `after_turn_of` and `end_of_round`",
        ),
        (
            "set",
            "[victory.axis]\nvictory_cities = true\n",
            "sets both `spaces` and `victory_cities = true`",
        ),
    ];
    for (case, data, fragment) in cases {
        let problems = victory_problems(case, data);
        assert_eq!(problems.len(), 1, "{case}: {problems:#?}");
        let (_, message, location) = &problems[0];
        assert!(message.contains(fragment), "{case}: {message}");
        let location = location
            .as_deref()
            .unwrap_or_else(|| panic!("{case}: not located"));
        assert!(location.contains("victory.toml:2"), "{case}: {location}");
    }
}

/// Anniversary China holds 7 IPCs of territory at the start of both scenarios but has no
/// IPCs and never collects income (its turn has no collect-income phase); Japan collects the
/// printed values of the Chinese territories it holds (Kiangsu 2, Manchuria 3).
#[test]
fn china_holds_territory_but_collects_no_income_aa50_china_income_aa50_china_ipcvalue() {
    for scenario in ["1941", "1942"] {
        let g = game("anniversary", &[], Some(scenario));
        let r = g.rules();
        let china = r.power("China").unwrap();
        let held: u32 = r
            .board
            .ids()
            .filter(|id| g.state().space(*id).controller == Some(china))
            .map(|id| r.board.space(id).ipc)
            .sum();
        assert_eq!(held, 7, "{scenario}: China's territories");
        assert_eq!(g.income(china), 0, "{scenario}: China's income");
        assert_eq!(g.state().treasuries[china.index()], 0, "{scenario}: China's IPCs");
        let phases: Vec<&str> = r
            .turn_of(china)
            .iter()
            .map(|p| r.phases[p.index()].id.as_str())
            .collect();
        assert_eq!(
            phases,
            ["combat_move", "conduct_combat", "noncombat_move", "mobilize"],
            "{scenario}"
        );
    }
}
