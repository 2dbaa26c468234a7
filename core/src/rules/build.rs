//! From the merged tree to a typed, cross-checked [`RuleSet`].

use super::read::{as_str, as_uint, Ctx, Fields};
use super::schema::{Field, Table as SchemaTable};
use super::*;
use crate::diag::Problem;
use crate::layers::{LayerKind, Merged};
use crate::tree::{closest_key, Entry, Table, Value};

/// The top level of a data file: its sections.
pub(crate) static ROOT: SchemaTable = SchemaTable {
    path: "",
    doc: "The sections of a data file. A layer may set any of them; an edition's merged data \
          needs powers, a board and a scenario.",
    fields: &[
        Field::opt(
            "powers",
            "<power> → table",
            "the powers, by full name: `powers.<power>`",
        ),
        Field::opt("turn", "table", "the phases of every power's turn: `turn`"),
        Field::opt(
            "phases",
            "<phase> → table",
            "the phases turns are made of, by id: `phases.<phase>`",
        ),
        Field::opt(
            "units",
            "<unit> → table",
            "unit types, by snake_case id: `units.<unit>`",
        ),
        Field::opt(
            "facilities",
            "<facility> → table",
            "facility types (factories, bases), by id: `facilities.<facility>`",
        ),
        Field::opt(
            "territories",
            "<territory> → table",
            "the land spaces of the board, by name: `territories.<territory>`",
        ),
        Field::opt(
            "sea_zones",
            "<sea_zone> → table",
            "the sea spaces of the board, by name: `sea_zones.<sea_zone>`",
        ),
        Field::opt(
            "canals",
            "<canal> → table",
            "canals and straits linking sea zones: `canals.<canal>`",
        ),
        Field::opt(
            "scenarios",
            "<scenario> → table",
            "starting positions, by id: `scenarios.<scenario>`",
        ),
        Field::opt("rules", "table", "edition-wide switches: `rules`"),
        Field::opt(
            "combat",
            "table",
            "the sub-steps of conduct combat and the steps of a battle: `combat`",
        ),
        Field::opt(
            "victory",
            "<condition> → table",
            "how a side wins, as named conditions: `victory.<condition>`",
        ),
        Field::opt(
            "commands",
            "<command> → table",
            "commands a layer adds to the game's language, carried out by its scripts: `commands.<command>`",
        ),
        Field::opt(
            "players",
            "table",
            "how many may play and which powers one player plays together: `players`",
        ),
        Field::opt(
            "politics",
            "table",
            "when war may be declared and who goes to war together: `politics`",
        ),
        Field::opt("research", "table", "how technologies are researched: `research`"),
        Field::opt(
            "ai",
            "table",
            "the computer opponent's weights and thresholds: `ai`",
        ),
        Field::opt(
            "techs",
            "<tech> → table",
            "technologies and what they change: `techs.<tech>`",
        ),
    ],
};

/// `[units.<unit>]`.
pub(crate) static UNIT: SchemaTable = SchemaTable {
    path: "units.<unit>",
    doc: "A unit type. Everything the engine knows of a unit is here; a tech patches these same \
          fields (`techs.<tech>.units.<unit>`).",
    fields: &[
        Field::req("name", "string", "display name"),
        Field::def("abbrevs", "[string]", "[]", "extra names the REPL accepts (`inf`)"),
        Field::opt("inherits", "string", "a unit type whose fields fill every field this one does not set (after all layers merge); cycles are errors"),
        Field::req("domain", "string", "where it moves and fights").one_of(&["land", "sea", "air"]),
        Field::req("cost", "int", "IPCs to buy one"),
        Field::req("attack", "int", "attack value: each die hits on this or less"),
        Field::req("defense", "int", "defense value"),
        Field::req("move", "int", "movement allowance"),
        Field::def("hits", "int", "1", "hit points (a two-hit ship: 2)"),
        Field::def("repair", "string", "end_of_combat", "when damage on a unit with more than one hit point heals")
            .one_of(&["end_of_combat", "naval_base", "never"]),
        Field::def("tags", "[string]", "[]", "classes other rules refer to (`infantry`, `surface_warship`, `capital_ship`)"),
        Field::def("can_capture", "bool", "true for land units", "a survivor that takes the territory"),
        Field::def("blitz", "bool", "false", "may pass one unoccupied hostile territory in combat move, taking it"),
        Field::opt("blitz_with", "string", "may blitz only paired one-to-one with this unit type in the same move"),
        Field::opt("move_with", "table", "a movement of its own when paired with another unit type: `units.<unit>.move_with`"),
        Field::def("combat_move", "bool", "true", "false: moves only in noncombat move"),
        Field::opt("transport_cost", "int", "room it takes on a transport; absent: cannot be transported"),
        Field::def("transport_capacity", "int", "0", "room it offers as a transport"),
        Field::opt("carrier_cost", "int", "room it takes on a carrier; absent: cannot land on carriers"),
        Field::def("carrier_capacity", "int", "0", "room it offers as a carrier"),
        Field::def("intercepts", "bool", "false", "an air unit that escorts bombers in a raid (`move ... bombing` with them) and intercepts raiders over its own territory (`intercept`): a one-round air battle before the raid (the 1940 fighter)"),
        Field::def("scramble", "bool", "false", "an air unit that may scramble from a territory whose facility has a `scramble_limit` to an attacked sea zone next to it"),
        Field::def("disabled_when_damaged", "bool", "false", "a carrier that, damaged, launches and lands nothing: air units on it are trapped as cargo (the 1940 carrier)"),
        Field::def("first_strike", "bool", "false", "fires in the surprise-strike step; its casualties are removed before they fire back"),
        Field::def("submerge", "bool", "false", "may submerge instead of firing"),
        Field::def("negated_by", "[string]", "[]", "tags of enemy units whose presence cancels its first_strike, submerge, evasion and stealth_move"),
        Field::def("anti_sub", "bool", "false", "cancels the abilities of enemy units whose `negated_by` names its tags"),
        Field::def("cannot_target", "[string]", "[]", "domains or tags its hits can never be assigned to (`air`)"),
        Field::opt("evades_unless", "string", "hits from air units reach it only when their side has a unit with this tag in the battle"),
        Field::def("blocks_movement", "bool", "true", "false: enemy units may move through its sea zone"),
        Field::def("stealth_move", "bool", "false", "may move through hostile sea zones, unless an enemy unit with a tag of its `negated_by` is there"),
        Field::def("defenseless", "bool", "false", "cannot fire; destroyed without dice when left alone with an enemy that can hit it"),
        Field::def("casualty_last", "bool", "false", "taken as a casualty only when nothing else can be"),
        Field::def("bombard", "int", "0", "offshore bombardment value (0: does not bombard)"),
        Field::def("convoy_dice", "int", "0", "dice it rolls against an enemy's convoy in a convoy sea zone (`[rules] convoy_hits_up_to`)"),
        Field::def("bombing_dice", "int", "0", "dice per unit in a strategic bombing raid (0: makes no raids)"),
        Field::def("bombing_bonus", "int", "0", "added to each of its bombing dice's damage"),
        Field::def("raids", "[string]", "[]", "the facility types it may raid (empty: any that can be damaged): the 1940 tactical bomber raids bases only"),
        Field::def("attack_dice", "int", "1", "dice each unit rolls when attacking, each of which may hit (1 to 6)"),
        Field::def("best_of", "int", "1", "dice rolled for each of its dice, the best kept: attacking in a battle (one hit at most per die) and for its bombing damage in a raid (1 to 6; the 1940 heavy bomber: 2)"),
        Field::opt("air_battle", "int", "what it hits on in a raid's air battle as escort or interceptor (absent: `[rules] interception_value`)"),
        Field::opt("rocket", "table", "a rocket attack on an enemy facility: `units.<unit>.rocket`"),
        Field::opt("air_transport", "table", "land units it carries by air (air units only): `units.<unit>.air_transport`"),
        Field::def("support", "[table]", "[]", "values it adds to other units: `units.<unit>.support[]`"),
        Field::opt("anti_air", "table", "antiaircraft fire: `units.<unit>.anti_air`"),
        Field::def("on_capture", "string", "destroy", "what becomes of it when the territory is taken with it alone")
            .one_of(&["capture", "destroy"]),
    ],
};

/// `[units.<unit>.move_with]`.
pub(crate) static MOVE_WITH: SchemaTable = SchemaTable {
    path: "units.<unit>.move_with",
    doc: "Moving paired one-to-one with another unit type in the same move, the unit's movement \
          is `move`: `{ unit = \"tank\", move = 2 }`.",
    fields: &[
        Field::req("unit", "string", "the partner's unit type"),
        Field::req("move", "int", "the movement when paired"),
    ],
};

/// `[units.<unit>.rocket]`.
pub(crate) static ROCKET: SchemaTable = SchemaTable {
    path: "units.<unit>.rocket",
    doc: "Once per turn, in conduct combat before any battle, `rocket from SPACE at TARGET` \
          damages an enemy facility within range.",
    fields: &[
        Field::req(
            "range",
            "int",
            "spaces to the target, counted over every adjacency",
        ),
        Field::def("dice", "int", "1", "dice of damage"),
        Field::def(
            "over_neutrals",
            "bool",
            "true",
            "false: the spaces between launcher and target include no neutral territory",
        ),
    ],
};

/// Reads a `rocket` table (a unit's, or a tech's patch of a facility).
pub(super) fn read_rocket(ctx: &mut Ctx, mut r: Fields) -> Rocket {
    let rocket = Rocket {
        range: r.req_uint(ctx, "range").unwrap_or(0),
        dice: r.uint(ctx, "dice", 1),
        over_neutrals: r.bool(ctx, "over_neutrals", true),
    };
    r.finish(ctx);
    rocket
}

/// `[units.<unit>.air_transport]`.
pub(crate) static AIR_TRANSPORT: SchemaTable = SchemaTable {
    path: "units.<unit>.air_transport",
    doc: "An air unit carrying land units: land units in the same `move` ride it and are dropped \
          where it ends (docs/editions.md, `air_transport`).",
    fields: &[
        Field::req(
            "carries",
            "[string]",
            "tags of the land units it carries (a unit type's id, `land`, or one of its tags)",
        ),
        Field::def("capacity", "int", "1", "units it carries at once"),
        Field::def(
            "stop_at_first_hostile",
            "bool",
            "true",
            "carrying, it stops in the first hostile territory it enters and drops its cargo there",
        ),
        Field::def(
            "raid",
            "bool",
            "false",
            "may make a strategic bombing raid while carrying",
        ),
        Field::def(
            "noncombat",
            "bool",
            "false",
            "carries in noncombat move too (to a friendly territory)",
        ),
    ],
};

/// `[[units.<unit>.support]]`.
pub(crate) static SUPPORT: SchemaTable = SchemaTable {
    path: "units.<unit>.support[]",
    doc: "One kind of support a unit gives: each supporting unit raises `count` units with one \
          of `tags` in the same battle.",
    fields: &[
        Field::req("tags", "[string]", "tags (or ids) of the units it raises"),
        Field::def("attack", "int", "0", "added to their attack"),
        Field::def("defense", "int", "0", "added to their defense"),
        Field::def("count", "int", "1", "units each supporting unit raises"),
    ],
};

/// `[units.<unit>.anti_air]`.
pub(crate) static ANTI_AIR: SchemaTable = SchemaTable {
    path: "units.<unit>.anti_air",
    doc: "Antiaircraft fire in the `anti_air` step: dice rolled = min(guns firing × `max_dice`, \
          attacking targets × `dice_per_target`).",
    fields: &[
        Field::def("hit", "int", "1", "each die hits on this or less"),
        Field::opt(
            "max_dice",
            "int",
            "dice one gun rolls at most; absent: no cap per gun",
        ),
        Field::def("dice_per_target", "int", "1", "dice each attacking target draws"),
        Field::def("targets", "[string]", "[\"air\"]", "domains or tags it fires at"),
        Field::def(
            "first_round_only",
            "bool",
            "true",
            "fires before the first round only",
        ),
        Field::def(
            "one_per_space",
            "bool",
            "false",
            "only one gun fires per territory",
        ),
        Field::def(
            "vs_bombing",
            "bool",
            "false",
            "fires at the bombers of a strategic bombing raid on its territory",
        ),
    ],
};

/// `[facilities.<facility>]`.
pub(crate) static FACILITY: SchemaTable = SchemaTable {
    path: "facilities.<facility>",
    doc: "A facility type: factories, air and naval bases. Facilities stand in territories; \
          scenarios place them like units.",
    fields: &[
        Field::req("name", "string", "display name"),
        Field::def("abbrevs", "[string]", "[]", "extra names the REPL accepts (`ic`)"),
        Field::opt("cost", "int", "IPCs to build one; absent: cannot be bought"),
        Field::def("production", "int | \"territory\" | \"2x territory\"", "0", "units it mobilizes per turn (`\"territory\"`: the territory's IPC value); above 0 makes it a factory"),
        Field::def("max_damage", "int | \"territory\" | \"2x territory\"", "0", "damage it can take (0: cannot be damaged)"),
        Field::def("requires_ipc", "int", "0", "least IPC value of a territory it is built in"),
        Field::def("on_islands", "bool", "true", "may be built on an island (`island = true` territories)"),
        Field::def("original_only", "bool", "false", "built only in a territory the power originally held (its printed owner)"),
        Field::def("coastal", "bool", "false", "built only in a territory bordering a sea zone"),
        Field::opt("upgrades_from", "string", "an upgrade, not a facility of its own: placed on this facility (undamaged), which becomes `upgrades_to` when the Mobilize phase ends"),
        Field::opt("upgrades_to", "string", "what the facility upgraded becomes (with `upgrades_from`); its building rules apply"),
        Field::def("on_capture", "\"capture\" | \"destroy\" | \"downgrade:<facility>\"", "capture", "what becomes of it when its territory is taken"),
        Field::def("air_move_bonus", "int", "0", "movement added to friendly air units that begin their turn in its territory (an air base)"),
        Field::def("sea_move_bonus", "int", "0", "movement added to friendly sea units that begin their turn in a sea zone its territory borders (a naval base)"),
        Field::def("repairs", "bool", "false", "units with `repair = \"naval_base\"` in the sea zones its territory borders are repaired free as their owner's Purchase phase ends (a naval base)"),
        Field::def("inoperative_at", "int", "0", "damage at which it stops working: no movement bonus, no repairs (0: never)"),
        Field::def("scramble_limit", "int", "0", "how many air units (`scramble`) may rise from its territory to defend the attacked sea zones next to it, while it is operative (the 1940 air base: 3)"),
        Field::def("anti_air", "int", "0", "its own antiaircraft fire in a raid on it: one die per bomber raiding it, hitting on this or less (0: none; the 1940 complexes and bases: 1)"),
    ],
};

/// Fields of a space, territory or sea zone.
const SPACE_FIELDS: &[Field] = &[
    Field::def("ipc", "int", "0", "IPC value (territories; 0 for none)"),
    Field::opt(
        "owner",
        "string",
        "original owner (a power); absent on a territory: neutral",
    ),
    Field::def("capital", "bool", "false", "the owner's capital"),
    Field::opt("victory_city", "string", "the name of the victory city in it"),
    Field::def("island", "bool", "false", "an island or island group"),
    Field::opt("neutral", "string", "the kind of neutral it is (territories)").one_of(&[
        "impassable",
        "pro_axis",
        "pro_allies",
        "strict",
    ]),
    Field::opt("standing_army", "<unit> → int", "the units of a neutral's army"),
    Field::opt(
        "map",
        "string",
        "which physical map it is on, on a board joined from several",
    ),
    Field::def("convoy", "bool", "false", "a convoy sea zone"),
    Field::def(
        "tags",
        "[string]",
        "[]",
        "marks the map prints on it, read by rule scripts",
    ),
    Field::def(
        "adjacent",
        "[string]",
        "[]",
        "neighbouring spaces; adjacency must be symmetric",
    ),
];

/// `[territories.<territory>]`.
pub(crate) static TERRITORY: SchemaTable = SchemaTable {
    path: "territories.<territory>",
    doc: "A land space of the board, by its printed name.",
    fields: SPACE_FIELDS,
};

/// `[sea_zones.<sea_zone>]`.
pub(crate) static SEA_ZONE: SchemaTable = SchemaTable {
    path: "sea_zones.<sea_zone>",
    doc: "A sea space of the board (`\"SZ 5\"`); the same fields as a territory.",
    fields: SPACE_FIELDS,
};

/// `[canals.<canal>]`.
pub(crate) static CANAL: SchemaTable = SchemaTable {
    path: "canals.<canal>",
    doc: "A canal or strait: sea units pass between its two sea zones only if their side held \
          every `controlled_by` territory at the start of the turn.",
    fields: &[
        Field::def("kind", "string", "canal", "what it is").one_of(&["canal", "strait"]),
        Field::req("connects", "[string]", "the two sea zones it links"),
        Field::def(
            "controlled_by",
            "[string]",
            "[]",
            "territories one side must all hold",
        ),
        Field::def(
            "open_to",
            "[string]",
            "[]",
            "unit tags that always pass, whoever holds it (`[\"submarine\"]`: Gibraltar)",
        ),
    ],
};

/// `[scenarios.<scenario>]`.
pub(crate) static SCENARIO: SchemaTable = SchemaTable {
    path: "scenarios.<scenario>",
    doc: "A starting position: who plays in which order, who holds what, which units stand where.",
    fields: &[
        Field::def("title", "string", "its id", "display name"),
        Field::req(
            "turn_order",
            "[string]",
            "the powers that take turns, in order (a power playing within another's turn is not listed)",
        ),
        Field::opt("ipcs", "<power> → int", "IPCs each power starts with"),
        Field::opt(
            "control",
            "<territory> → string",
            "who holds a territory at the start, when not its owner",
        ),
        Field::opt(
            "setup",
            "<space> → <power> → <piece> → int",
            "units and facilities at the start, by space, then owner, then unit or facility type",
        ),
        Field::opt(
            "damage",
            "<territory> → <facility> → int",
            "damage on facilities at the start",
        ),
        Field::def(
            "at_peace",
            "[[string, string]]",
            "[]",
            "pairs of powers on opposite sides that start at peace; every other such pair starts at war",
        ),
    ],
};

/// `[rules]`.
pub(crate) static RULES: SchemaTable = SchemaTable {
    path: "rules",
    doc: "Edition-wide switches the engine reads.",
    fields: &[
        Field::def("unplaceable_units", "string", "refund", "what becomes of bought units that cannot be mobilized")
            .one_of(&["refund", "keep"]),
        Field::def("blitz_blocked_by_facilities", "bool", "true", "a blitzing unit stops in a hostile territory holding a facility"),
        Field::def("allied_factories", "string", "never", "a factory the power controls in a territory a friendly power owned: never usable, or only while that power's capital is in enemy hands")
            .one_of(&["never", "capital_lost"]),
        Field::def("purchase_limited_by_production", "bool", "false", "a purchase may not exceed what the power's factories can mobilize this turn"),
        Field::def("interception_value", "int", "1", "what every unit hits on in a raid's air battle (escorts and bombers against interceptors), one round"),
        Field::def("allies_share_only_at_war", "bool", "false", "allied powers share territories, carriers, transports and naval bases only while both are at war with someone (sea zones always)"),
        Field::def("air_units_must_land", "bool", "false", "noncombat move may not end while an air unit with a safe landing place within reach is left where it would be lost (no ditching on purpose)"),
        Field::def("convoy_hits_up_to", "int", "0", "convoy disruption: as a power collects income, enemy units in a convoy sea zone next to its territories roll their `convoy_dice`, and every face up to this value is lost in IPCs (0: no convoy disruption)"),
    ],
};

/// `[phases.<phase>]`.
pub(crate) static PHASE: SchemaTable = SchemaTable {
    path: "phases.<phase>",
    doc: "A phase of a turn: a title and the engine machinery it runs.",
    fields: &[
        Field::def("title", "string", "its id", "display name"),
        Field::req(
            "kind",
            "string",
            "the engine machinery the phase runs (`script`: none, for rule scripts)",
        )
        .one_of(&[
            "research",
            "purchase",
            "combat_move",
            "conduct_combat",
            "noncombat_move",
            "mobilize",
            "collect_income",
            "script",
        ]),
        Field::def(
            "skipped_without_capital",
            "bool",
            "false",
            "a power whose capital is in enemy hands skips it",
        ),
    ],
};

/// `[turn]`.
pub(crate) static TURN: SchemaTable = SchemaTable {
    path: "turn",
    doc: "The phases of a turn, for every power or for one.",
    fields: &[
        Field::def(
            "phases",
            "[string]",
            "[]",
            "every power's turn: phase ids of `[phases]`, in order",
        ),
        Field::opt(
            "power_phases",
            "<power> → [string]",
            "a power's own turn, replacing `phases` for it",
        ),
        Field::opt(
            "within",
            "<power> → table",
            "a power with no turn of its own, playing within another's: `turn.within.<power>`",
        ),
    ],
};

pub fn build(merged: Merged, project_root: std::path::PathBuf) -> Result<RuleSet, LoadError> {
    let Merged {
        layers,
        mut tree,
        sources,
        mut problems,
    } = merged;
    let is_edition = layers.iter().any(|l| l.kind == LayerKind::Edition);
    {
        let mut ctx = Ctx {
            sources: &sources,
            problems: Problems::default(),
            tree: None,
        };
        resolve_inheritance(&mut ctx, &mut tree);
        problems.0.append(&mut ctx.problems.0);
    }
    let mut ctx = Ctx {
        sources: &sources,
        problems: Problems::default(),
        tree: Some(&tree),
    };
    let empty = Table::default();
    let top = tree.as_table().unwrap_or(&empty);
    unknown_sections(&mut ctx, top);
    let section = |name: &str| {
        super::schema::note_read(&ROOT, name);
        top.entries.get(name)
    };

    let (mut powers, power_spaces) = read_powers(&mut ctx, section("powers"));
    let (phases, turn, power_turns, guests) =
        read_phases(&mut ctx, section("phases"), section("turn"), &powers);
    let plans = super::turn::plans(powers.len(), &turn, &power_turns, &guests);
    let mut units = read_units(&mut ctx, section("units"));
    let facilities = read_facilities(&mut ctx, section("facilities"));
    // blitz_with, move_with and air_transport refer to other unit types; resolve once all
    // types are known.
    let known = UnitNames::of(&units);
    for u in units.iter_mut() {
        let node = section("units")
            .and_then(|e| e.node.as_table())
            .and_then(|t| t.get(&u.id));
        if let Some(n) = node {
            resolve_unit_refs(&mut ctx, n, &known, u);
        }
    }
    let board = read_board(
        &mut ctx,
        section("territories"),
        section("sea_zones"),
        section("canals"),
        &powers,
        &units,
    );
    resolve_power_spaces(&mut ctx, &mut powers, &power_spaces, &board);
    let politics = super::politics::read_politics(&mut ctx, section("politics"), &powers, &phases);
    let (techs, unit_techs) =
        super::tech::read_techs(&mut ctx, section("techs"), section("units"), &units, &facilities);
    let research = super::tech::read_research(&mut ctx, section("research"), &techs);
    let scenarios = read_scenarios(
        &mut ctx,
        section("scenarios"),
        &politics,
        &powers,
        &units,
        &facilities,
        &board,
    );
    check_turn_orders(&mut ctx, section("scenarios"), &scenarios, &guests, &powers);
    let switches = read_switches(&mut ctx, section("rules"));
    let victory = super::victory::read_victory(&mut ctx, section("victory"), &powers, &board);
    let commands = super::commands::read_commands(&mut ctx, section("commands"), &phases);
    let players = super::players::read_players(&mut ctx, section("players").map(|e| &e.node), &powers);
    let combat = super::combat::read_combat(&mut ctx, section("combat"));
    let ai = super::ai::read_ai(&mut ctx, section("ai"));
    check_limits(&mut ctx, &section);

    if is_edition {
        check_complete(&mut ctx, &powers, &board, &scenarios);
    }
    let default_scenario = layers.iter().rev().find_map(|l| l.default_scenario.clone());
    if is_edition {
        check_default_scenario(&mut ctx, &layers, &scenarios);
    }
    problems.0.append(&mut ctx.problems.0);
    report_once(&mut problems);
    if !problems.is_empty() {
        return Err(LoadError { problems });
    }
    let scripts = layers
        .iter()
        .filter(|l| !l.scripts.is_empty())
        .map(|l| LayerScripts {
            layer: l.name.clone(),
            dir: l.dir.clone(),
            display_dir: l.display_dir.clone(),
            files: l.scripts.clone(),
        })
        .collect();
    Ok(RuleSet {
        layers,
        sources,
        tree,
        powers,
        turn,
        power_turns,
        guests,
        plans,
        players,
        phases,
        commands,
        units,
        facilities,
        board,
        scenarios,
        switches,
        victory,
        combat,
        politics,
        ai,
        techs,
        unit_techs,
        research,
        scripts,
        default_scenario,
        project_root,
    })
}

/// Top-level keys that are not sections of an edition, with the nearest section name.
fn unknown_sections(ctx: &mut Ctx, top: &Table) {
    for (k, e) in &top.entries {
        if ROOT.field(k).is_none() {
            let mut p = Problem::new("schema::unknown-section", format!("unknown section `{k}`"))
                .at(e.key.label(ctx.sources, "not a section of an edition"));
            if let Some(s) = closest_key(k, ROOT.keys()) {
                p = p.help(format!("did you mean `{s}`?"));
            } else {
                p = p.help(format!(
                    "sections: {}",
                    ROOT.keys().collect::<Vec<_>>().join(", ")
                ));
            }
            ctx.problems.push(p);
        }
    }
}

/// Sections with more entries than the engine numbers.
fn check_limits<'t>(ctx: &mut Ctx, section: &dyn Fn(&str) -> Option<&'t Entry>) {
    too_many(
        ctx,
        &[section("units")],
        "unit types",
        64,
        "merge unit types that differ only in name",
    );
    too_many(
        ctx,
        &[section("powers")],
        "powers",
        255,
        "powers are numbered in a byte",
    );
    too_many(
        ctx,
        &[section("phases")],
        "phases",
        255,
        "phases are numbered in a byte",
    );
    too_many(
        ctx,
        &[section("territories"), section("sea_zones")],
        "spaces",
        usize::from(u16::MAX),
        "spaces are numbered in 16 bits",
    );
    too_many(
        ctx,
        &[section("facilities")],
        "facility types",
        usize::from(u16::MAX),
        "facility types are numbered in 16 bits",
    );
}

/// An edition (not a layer on one) defines powers, a board and a scenario.
fn check_complete(ctx: &mut Ctx, powers: &[Power], board: &Board, scenarios: &[Scenario]) {
    if powers.is_empty() {
        ctx.problems.push(
            Problem::new("schema::incomplete", "the edition defines no powers")
                .help("add a [powers.NAME] table"),
        );
    }
    if board.spaces.is_empty() {
        ctx.problems.push(
            Problem::new("schema::incomplete", "the edition defines no board")
                .help("add [territories.NAME] and [sea_zones.NAME] tables"),
        );
    }
    if scenarios.is_empty() {
        ctx.problems.push(
            Problem::new("schema::incomplete", "the edition defines no scenario")
                .help("add a [scenarios.ID] table"),
        );
    }
}

/// The last layer's `default_scenario` names a scenario of the edition.
fn check_default_scenario(ctx: &mut Ctx, layers: &[Layer], scenarios: &[Scenario]) {
    let Some(layer) = layers.iter().rev().find(|l| l.default_scenario.is_some()) else {
        return;
    };
    let Some(d) = &layer.default_scenario else { return };
    if scenarios.iter().any(|s| &s.id == d) {
        return;
    }
    let mut p = Problem::new(
        "schema::unknown-name",
        format!("default_scenario `{d}` is not a scenario of this edition"),
    );
    if let Some(at) = &layer.default_scenario_at {
        p = p.at(at.label(ctx.sources, "no such scenario"));
    }
    let ids: Vec<&str> = scenarios.iter().map(|s| s.id.as_str()).collect();
    p = match closest_key(d, ids.iter().copied()) {
        Some(s) => p.help(format!("did you mean `{s}`?")),
        None => p.help(format!("scenarios: {}", ids.join(", "))),
    };
    ctx.problems.push(p);
}

/// One mistake found twice (once per heir of a unit, or as a bad value and then as a bad
/// type) is reported once: the first report at a place is the most specific.
fn report_once(problems: &mut Problems) {
    let mut seen = std::collections::HashSet::new();
    problems.0.retain(|p| {
        seen.insert((
            p.location().map(str::to_string),
            p.primary.is_none().then(|| p.message.clone()),
        ))
    });
}

/// More entries in keyed sections (read together, in order) than the engine numbers: a
/// problem at the first entry past `limit`.
fn too_many(ctx: &mut Ctx, sections: &[Option<&Entry>], what: &str, limit: usize, why: &str) {
    let entries: Vec<&Entry> = sections
        .iter()
        .flatten()
        .filter_map(|e| e.node.as_table())
        .flat_map(|t| t.entries.values())
        .collect();
    if let Some(e) = entries.get(limit) {
        let p = Problem::new(
            "schema::too-many",
            format!("{} {what}; the engine handles at most {limit}", entries.len()),
        )
        .at(e.key.label(ctx.sources, "one too many"))
        .help(why.to_string());
        ctx.problems.push(p);
    }
}

/// The names other unit fields refer to unit types by.
pub(super) struct UnitNames {
    pub ids: Vec<String>,
    /// Every tag that names some land unit type: ids, tags and `land`.
    pub land_tags: Vec<String>,
}

impl UnitNames {
    pub fn of(units: &[UnitType]) -> UnitNames {
        let mut land_tags: Vec<String> = vec!["land".to_string()];
        for u in units.iter().filter(|u| u.domain == Domain::Land) {
            for t in std::iter::once(&u.id).chain(&u.tags) {
                if !land_tags.contains(t) {
                    land_tags.push(t.clone());
                }
            }
        }
        UnitNames {
            ids: units.iter().map(|u| u.id.clone()).collect(),
            land_tags,
        }
    }
}

/// `blitz_with`, `move_with` and `air_transport.carries` of a unit's table, which name other
/// unit types.
pub(super) fn resolve_unit_refs(ctx: &mut Ctx, node: &Node, known: &UnitNames, u: &mut UnitType) {
    let unit_ids = &known.ids;
    if let Some(n) = node.lookup(&["air_transport", "carries"]) {
        if let Value::Array(items) = &n.value {
            for item in items {
                if let Value::Str(tag) = &item.value {
                    if !known.land_tags.contains(tag) {
                        unknown_name(ctx, item, "land unit tag", tag, &known.land_tags);
                    }
                }
            }
        }
    }
    let find = |ctx: &mut Ctx, n: &Node| -> Option<UnitTypeId> {
        let s = as_str(ctx, n, "unit type")?;
        match unit_ids.iter().position(|x| *x == s) {
            Some(j) => Some(UnitTypeId(j as u16)),
            None => {
                unknown_name(ctx, n, "unit type", &s, unit_ids);
                None
            }
        }
    };
    if let Some(n) = node.lookup(&["blitz_with"]) {
        u.blitz_with = find(ctx, n);
    }
    if let Some(n) = node.lookup(&["move_with"]) {
        let Some(mut f) = Fields::of(ctx, n, &format!("units.{}.move_with", u.id), &MOVE_WITH) else {
            return;
        };
        let partner = f.required(ctx, "unit").and_then(|n| find(ctx, n));
        let movement = f.req_uint(ctx, "move");
        f.finish(ctx);
        u.move_with = partner.zip(movement);
    }
}

pub(super) fn unknown_name(ctx: &mut Ctx, node: &Node, what: &str, name: &str, known: &[String]) {
    let mut p = Problem::new("schema::unknown-name", format!("unknown {what} `{name}`"))
        .at(node.origin.label(ctx.sources, format!("no such {what}")));
    if let Some(s) = closest_key(name, known.iter().map(String::as_str)) {
        p = p.help(format!("did you mean `{s}`?"));
    }
    ctx.problems.push(p);
}

/// Fill each unit's missing fields from its `inherits` parent, parents first.
///
/// A cycle is reported once, at the edge written last (usually the new patch that closed it),
/// and that edge is dropped so the rest of the rule set can still be checked without a cascade.
fn resolve_inheritance(ctx: &mut Ctx, tree: &mut Node) {
    let Value::Table(top) = &mut tree.value else {
        return;
    };
    let Some(units_entry) = top.entries.get_mut("units") else {
        return;
    };
    let Value::Table(units) = &mut units_entry.node.value else {
        return;
    };
    let parent_of = |units: &Table, name: &str| -> Option<(String, Node)> {
        let n = units.get(name)?.lookup(&["inherits"])?;
        match &n.value {
            Value::Str(s) => Some((s.clone(), n.clone())),
            _ => None,
        }
    };
    let names: Vec<String> = units.entries.keys().cloned().collect();
    // Unknown parents and cycles first.
    for name in &names {
        if let Some((p, node)) = parent_of(units, name) {
            if units.get(&p).is_none() {
                unknown_name(ctx, &node, "unit type", &p, &names);
                remove_inherits(units, name);
            }
        }
    }
    loop {
        let mut cycle: Option<Vec<String>> = None;
        'search: for start in &names {
            let mut chain = vec![start.clone()];
            let mut cur = start.clone();
            while let Some((p, _)) = parent_of(units, &cur) {
                if let Some(pos) = chain.iter().position(|c| *c == p) {
                    cycle = Some(chain[pos..].to_vec());
                    break 'search;
                }
                chain.push(p.clone());
                cur = p;
            }
        }
        let Some(cycle) = cycle else { break };
        let edges: Vec<(String, Node)> = cycle
            .iter()
            .filter_map(|c| parent_of(units, c).map(|(_, n)| (c.clone(), n)))
            .collect();
        let (culprit, node) = edges
            .iter()
            .max_by_key(|(_, n)| (n.origin.file, n.origin.span.start))
            .cloned()
            .expect("a cycle has edges");
        let mut shown = cycle.clone();
        shown.push(cycle[0].clone());
        let mut p = Problem::new(
            "schema::inheritance-cycle",
            format!(
                "unit types inherit from each other in a cycle: {}",
                shown.join(" -> ")
            ),
        )
        .at(node.origin.label(ctx.sources, "this `inherits` closes the cycle"));
        for (other, n) in &edges {
            if *other != culprit {
                p = p.also(n.origin.label(ctx.sources, format!("`{other}` inherits here")));
            }
        }
        ctx.problems.push(p);
        remove_inherits(units, &culprit);
    }
    let mut done: Vec<String> = Vec::new();
    for name in &names {
        fill_from_parent(units, name, &mut done);
    }
}

fn remove_inherits(units: &mut Table, name: &str) {
    if let Some(Entry { node, .. }) = units.entries.get_mut(name) {
        if let Value::Table(t) = &mut node.value {
            t.entries.shift_remove("inherits");
        }
    }
}

fn fill_from_parent(units: &mut Table, name: &str, done: &mut Vec<String>) {
    if done.iter().any(|d| d == name) {
        return;
    }
    done.push(name.to_string());
    let parent = units
        .get(name)
        .and_then(|n| n.lookup(&["inherits"]))
        .and_then(|n| match &n.value {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        });
    let Some(pname) = parent else { return };
    fill_from_parent(units, &pname, done);
    let parent_table = units.get(&pname).and_then(|n| n.as_table()).cloned();
    if let (Some(pt), Some(Entry { node, .. })) = (parent_table, units.entries.get_mut(name)) {
        if let Value::Table(child) = &mut node.value {
            for (k, e) in pt.entries {
                if k != "inherits" && !child.entries.contains_key(&k) {
                    child.entries.insert(k, e);
                }
            }
        }
    }
}

/// `[powers.<power>]`.
pub(crate) static POWER: SchemaTable = SchemaTable {
    path: "powers.<power>",
    doc: "A power, by its full name (`\"Red\"`). Turn order and starting IPCs are per scenario.",
    fields: &[
        Field::req("side", "string", "the side it plays on; powers of one side are allies"),
        Field::opt("colour", "string", "`\"#rrggbb\"` for the terminal"),
        Field::opt("abbrev", "string", "short name the REPL accepts"),
        Field::opt("economy_of", "string", "a second economy of this power: one power with two treasuries; its units are the power's, it buys, collects and mobilizes on the power's turn, and shares its relations"),
        Field::opt("economy_map", "string", "with `economy_of`: the territories the power holds on this `map` fall under this economy (absent: those printed as this economy's)"),
        Field::def("economy_also", "[string]", "[]", "with `economy_of`: territories under this economy besides"),
        Field::def("economy_except", "[string]", "[]", "with `economy_of`: territories on its `economy_map` that are not under this economy"),
        Field::opt("confined_to", "[string]", "the only spaces its units may enter, pass through (aircraft too) and end a move in; absent: anywhere"),
        Field::def("cannot_control", "[string]", "[]", "territories it may take but never control: taken, each goes to its original owner, another power of its side"),
        Field::def("board_transports", "bool", "true", "false: its land units are never loaded onto transports"),
        Field::def("convoy_losses", "bool", "true", "false: it never loses IPCs to convoy disruption"),
        Field::opt("counters", "<name> → int", "tokens and counts the power starts with, read by rule scripts (`{ tokens = 6 }`)"),
        Field::def("at_war_off_map", "bool", "false", "at war with powers not on this board: never a power at war with no one"),
        Field::def("mobilize_at", "string", "factories", "where its new units enter play: at factories, or (land and air units) in any territory it controls")
            .one_of(&["factories", "controlled_territories"]),
    ],
};

/// Space names a power's table lists, resolved once the board is read.
struct PowerSpaces<'n> {
    confined_to: Option<&'n Node>,
    cannot_control: Option<&'n Node>,
    economy_map: Option<(String, &'n Node)>,
    economy_also: Option<&'n Node>,
    economy_except: Option<&'n Node>,
}

fn read_powers<'n>(ctx: &mut Ctx, e: Option<&'n Entry>) -> (Vec<Power>, Vec<PowerSpaces<'n>>) {
    let Some(e) = e else {
        return (Vec::new(), Vec::new());
    };
    let Some(f) = Fields::names_of(ctx, &e.node, "powers") else {
        return (Vec::new(), Vec::new());
    };
    let mut out = Vec::new();
    let mut spaces = Vec::new();
    let names: Vec<String> = f.table.entries.keys().cloned().collect();
    let mut economy: Vec<Option<(String, &Node)>> = Vec::new();
    for (name, pe) in &f.table.entries {
        let Some(mut pf) = Fields::of(ctx, &pe.node, &format!("powers.{name}"), &POWER) else {
            continue;
        };
        let side = pf.req_str(ctx, "side").unwrap_or_default();
        let colour = pf.str(ctx, "colour");
        let abbrev = pf.str(ctx, "abbrev");
        let eco = pf
            .get("economy_of")
            .and_then(|n| as_str(ctx, n, "economy_of").map(|s| (s, n)));
        let board_transports = pf.bool(ctx, "board_transports", true);
        let convoy_losses = pf.bool(ctx, "convoy_losses", true);
        let at_war_off_map = pf.bool(ctx, "at_war_off_map", false);
        let mut counters = Vec::new();
        if let Some(c) = pf.names(ctx, "counters") {
            for (n, ne) in &c.table.entries {
                let v = as_uint(ctx, &ne.node, "counters").unwrap_or(0);
                counters.push((n.clone(), i64::from(v)));
            }
        }
        let mobilize_at = pf
            .choice(
                ctx,
                "mobilize_at",
                &[
                    ("factories", MobilizeAt::Factories),
                    ("controlled_territories", MobilizeAt::ControlledTerritories),
                ],
            )
            .unwrap_or(MobilizeAt::Factories);
        spaces.push(PowerSpaces {
            confined_to: pf.get("confined_to"),
            cannot_control: pf.get("cannot_control"),
            economy_map: pf
                .get("economy_map")
                .and_then(|n| as_str(ctx, n, "economy_map").map(|s| (s, n))),
            economy_also: pf.get("economy_also"),
            economy_except: pf.get("economy_except"),
        });
        pf.finish(ctx);
        economy.push(eco);
        out.push(Power {
            name: name.clone(),
            side,
            colour,
            abbrev,
            economy_of: None,
            economy_territories: Vec::new(),
            confined_to: None,
            cannot_control: Vec::new(),
            board_transports,
            convoy_losses,
            at_war_off_map,
            counters,
            mobilize_at,
            origin: pe.node.origin.clone(),
        });
    }
    for (i, eco) in economy.into_iter().enumerate() {
        if let Some((s, n)) = eco {
            match names.iter().position(|x| *x == s) {
                Some(j) => out[i].economy_of = Some(PowerId(j as u8)),
                None => unknown_name(ctx, n, "power", &s, &names),
            }
        }
    }
    (out, spaces)
}

/// `confined_to` and `cannot_control`, once the board is known. A territory a power cannot
/// control must have an original owner of the power's side to go to when the power takes it.
fn resolve_power_spaces(ctx: &mut Ctx, powers: &mut [Power], lists: &[PowerSpaces], board: &Board) {
    let all_names: Vec<String> = board.spaces.iter().map(|s| s.name.clone()).collect();
    for (i, l) in lists.iter().enumerate() {
        let pname = powers[i].name.clone();
        let side = powers[i].side.clone();
        fn ids<'n>(
            ctx: &mut Ctx,
            n: &'n Node,
            what: &str,
            board: &Board,
            all: &[String],
        ) -> Vec<(SpaceId, &'n Node)> {
            let mut out = Vec::new();
            for (s, sn) in super::read::str_list(ctx, n, what) {
                match board
                    .by_name
                    .get(&s.to_lowercase())
                    .filter(|id| board.space(**id).name == s)
                {
                    Some(id) => out.push((*id, sn)),
                    None => unknown_name(ctx, sn, "space", &s, all),
                }
            }
            out
        }
        if let Some(n) = l.confined_to {
            let list = ids(ctx, n, &format!("powers.{pname}.confined_to"), board, &all_names);
            if list.is_empty() && matches!(&n.value, Value::Array(a) if a.is_empty()) {
                ctx.error_at(
                    n,
                    "schema::bad-value",
                    format!("`powers.{pname}.confined_to` lists no space: its units could never move"),
                    "empty list",
                )
                .help = Some("list the spaces the power's units may enter, or remove the field".into());
            }
            powers[i].confined_to = Some(list.into_iter().map(|(id, _)| id).collect());
        }
        if let Some(n) = l.cannot_control {
            let mut list = Vec::new();
            for (id, sn) in ids(
                ctx,
                n,
                &format!("powers.{pname}.cannot_control"),
                board,
                &all_names,
            ) {
                let sp = board.space(id);
                let owner = sp.owner.map(|o| &powers[o.index()]);
                match owner {
                    Some(o) if !sp.is_sea() && o.side == side && o.name != pname => list.push(id),
                    _ => {
                        let why = if sp.is_sea() {
                            "it is a sea zone".to_string()
                        } else {
                            match owner {
                                None => "it has no original owner".to_string(),
                                Some(o) if o.name == pname => format!("its original owner is {pname} itself"),
                                Some(o) => format!("its original owner {} is not on the {side} side", o.name),
                            }
                        };
                        ctx.error_at(
                            sn,
                            "schema::bad-value",
                            format!("{pname} cannot be kept from controlling `{}`: {why}", sp.name),
                            "not a territory of an ally",
                        )
                        .help = Some(
                            "a territory the power takes but cannot control goes to its original owner, which must be another power of its side".into(),
                        );
                    }
                }
            }
            powers[i].cannot_control = list;
        }
        resolve_economy(ctx, &mut powers[i], l, board, &all_names, i);
    }
}

/// The territories an economy (`economy_of`) covers: those on its `economy_map` (or, without
/// one, those printed as its own), with `economy_also`, without `economy_except`.
fn resolve_economy(
    ctx: &mut Ctx,
    power: &mut Power,
    l: &PowerSpaces,
    board: &Board,
    all: &[String],
    index: usize,
) {
    let pname = power.name.clone();
    let named = |ctx: &mut Ctx, n: Option<&Node>, field: &str| -> Vec<SpaceId> {
        let Some(n) = n else { return Vec::new() };
        let mut out = Vec::new();
        for (s, sn) in super::read::str_list(ctx, n, &format!("powers.{pname}.{field}")) {
            match board
                .by_name
                .get(&s.to_lowercase())
                .filter(|id| board.space(**id).name == s && !board.space(**id).is_sea())
            {
                Some(id) => out.push(*id),
                None => unknown_name(ctx, sn, "territory", &s, all),
            }
        }
        out
    };
    let also = named(ctx, l.economy_also, "economy_also");
    let except = named(ctx, l.economy_except, "economy_except");
    if power.economy_of.is_none() {
        let stray = [
            l.economy_map.as_ref().map(|(_, n)| *n),
            l.economy_also,
            l.economy_except,
        ];
        if let Some(n) = stray.into_iter().flatten().next() {
            ctx.error_at(
                n,
                "schema::bad-value",
                format!("{pname} is not an economy of another power: `economy_map`, `economy_also` and `economy_except` need `economy_of`"),
                "without economy_of",
            );
        }
        return;
    }
    if let Some((m, n)) = &l.economy_map {
        if !board.spaces.iter().any(|s| s.map.as_deref() == Some(m.as_str())) {
            ctx.error_at(
                n,
                "schema::bad-value",
                format!("no space of the board is on the map `{m}` (`map` of `[territories]`)"),
                "unknown map",
            );
        }
    }
    let me = PowerId(index as u8);
    let mut list: Vec<SpaceId> = board
        .ids()
        .filter(|id| {
            let sp = board.space(*id);
            let on = match &l.economy_map {
                Some((m, _)) => sp.map.as_deref() == Some(m.as_str()),
                None => sp.owner == Some(me),
            };
            !sp.is_sea() && ((on && !except.contains(id)) || also.contains(id))
        })
        .collect();
    list.sort();
    power.economy_territories = list;
}

/// A power playing within another's turn (`[turn.within]`) has no place in a scenario's
/// `turn_order`, and its host must have one.
fn check_turn_orders(
    ctx: &mut Ctx,
    section: Option<&Entry>,
    scenarios: &[Scenario],
    guests: &[super::Guest],
    powers: &[Power],
) {
    let name = |p: PowerId| powers[p.index()].name.as_str();
    for sc in scenarios {
        let Some(n) = section.and_then(|e| e.node.lookup(&[sc.id.as_str(), "turn_order"])) else {
            continue;
        };
        for g in guests {
            let host = name(g.host);
            if sc.turn_order.contains(&g.power) {
                let at = match &n.value {
                    Value::Array(items) => items
                        .iter()
                        .find(|i| matches!(&i.value, Value::Str(s) if s == name(g.power)))
                        .unwrap_or(n),
                    _ => n,
                };
                ctx.error_at(
                    at,
                    "schema::conflict",
                    format!(
                        "{} plays within {} turn ([turn.within]); it has no turn of its own",
                        name(g.power),
                        super::possessive(host)
                    ),
                    "played within another turn",
                )
                .help = Some(format!("remove {} from `turn_order`", name(g.power)));
            } else if !sc.turn_order.contains(&g.host) {
                ctx.error_at(
                    n,
                    "schema::conflict",
                    format!(
                        "{} plays within {} turn, but {host} has no turn in scenario `{}`",
                        name(g.power),
                        super::possessive(host),
                        sc.id
                    ),
                    "the host is missing",
                );
            }
        }
    }
}

/// `[turn.power_phases]`: powers with a turn of their own.
type PowerTurns = Vec<(PowerId, Vec<PhaseId>)>;

fn read_phases(
    ctx: &mut Ctx,
    phases: Option<&Entry>,
    turn: Option<&Entry>,
    powers: &[Power],
) -> (Vec<Phase>, Vec<PhaseId>, PowerTurns, Vec<super::Guest>) {
    let mut out = Vec::new();
    if let Some(e) = phases {
        if let Some(f) = Fields::names_of(ctx, &e.node, "phases") {
            for (id, pe) in &f.table.entries {
                let Some(mut pf) = Fields::of(ctx, &pe.node, &format!("phases.{id}"), &PHASE) else {
                    continue;
                };
                let title = pf.str(ctx, "title").unwrap_or_else(|| id.clone());
                let kind = pf.req_choice(
                    ctx,
                    "kind",
                    &[
                        ("research", PhaseKind::Research),
                        ("purchase", PhaseKind::Purchase),
                        ("combat_move", PhaseKind::CombatMove),
                        ("conduct_combat", PhaseKind::ConductCombat),
                        ("noncombat_move", PhaseKind::NoncombatMove),
                        ("mobilize", PhaseKind::Mobilize),
                        ("collect_income", PhaseKind::CollectIncome),
                        ("script", PhaseKind::Script),
                    ],
                );
                let skipped = pf.bool(ctx, "skipped_without_capital", false);
                pf.finish(ctx);
                out.push(Phase {
                    id: id.clone(),
                    title,
                    kind: kind.unwrap_or(PhaseKind::Script),
                    skipped_without_capital: skipped,
                });
            }
        }
    }
    let mut order = Vec::new();
    let mut power_turns = Vec::new();
    let mut guests = Vec::new();
    if let Some(e) = turn {
        if let Some(mut f) = Fields::of(ctx, &e.node, "turn", &TURN) {
            let ids: Vec<String> = out.iter().map(|p| p.id.clone()).collect();
            let phase_list = |ctx: &mut Ctx, items: Vec<(String, &Node)>| -> Vec<PhaseId> {
                let mut l: Vec<PhaseId> = Vec::new();
                for (name, n) in items {
                    match ids.iter().position(|x| *x == name) {
                        Some(i) if l.contains(&PhaseId(i as u8)) => {
                            ctx.error_at(
                                n,
                                "schema::duplicate",
                                format!("phase `{name}` is listed twice in one turn"),
                                "listed again",
                            );
                        }
                        Some(i) => l.push(PhaseId(i as u8)),
                        None => unknown_name(ctx, n, "phase", &name, &ids),
                    }
                }
                l
            };
            let items = f.str_list(ctx, "phases");
            order = phase_list(ctx, items);
            if let Some(t) = f.names(ctx, "power_phases") {
                let names: Vec<String> = powers.iter().map(|p| p.name.clone()).collect();
                for (name, pe) in &t.table.entries {
                    let items = super::read::str_list(ctx, &pe.node, &format!("turn.power_phases.{name}"));
                    let empty = items.is_empty();
                    let list = phase_list(ctx, items);
                    if empty && matches!(&pe.node.value, Value::Array(_)) {
                        ctx.error_at(
                            &pe.node,
                            "schema::bad-value",
                            format!(
                                "`turn.power_phases.{name}` lists no phase: the power would have no turn"
                            ),
                            "empty list",
                        )
                        .help = Some(
                            "list the phases of the power's turn, or remove it from power_phases".into(),
                        );
                    }
                    match names.iter().position(|p| p == name) {
                        Some(i) => power_turns.push((PowerId(i as u8), list)),
                        None => {
                            let mut p =
                                Problem::new("schema::unknown-name", format!("unknown power `{name}`"))
                                    .at(pe.key.label(ctx.sources, "no such power"));
                            if let Some(s) = closest_key(name, names.iter().map(String::as_str)) {
                                p = p.help(format!("did you mean `{s}`?"));
                            }
                            ctx.problems.push(p);
                        }
                    }
                }
            }
            if let Some(n) = f.get("within") {
                guests = super::turn::read_within(ctx, n, powers, &out, &order, &mut power_turns);
            }
            f.finish(ctx);
        }
    }
    (out, order, power_turns, guests)
}

fn read_units(ctx: &mut Ctx, e: Option<&Entry>) -> Vec<UnitType> {
    let Some(e) = e else { return Vec::new() };
    let Some(f) = Fields::names_of(ctx, &e.node, "units") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, ue) in &f.table.entries {
        if let Some(unit) = read_unit(ctx, id, &ue.node) {
            out.push(unit);
        }
    }
    out
}

/// One unit type from its (merged) table; `None` when it is not a table.
pub(super) fn read_unit(ctx: &mut Ctx, id: &str, node: &Node) -> Option<UnitType> {
    {
        let path = format!("units.{id}");
        let mut u = Fields::of(ctx, node, &path, &UNIT)?;
        u.get("inherits");
        u.get("blitz_with"); // resolved after all types are read
        u.get("move_with");
        let name = u.req_str(ctx, "name").unwrap_or_else(|| id.to_string());
        let domain = u.req_choice(
            ctx,
            "domain",
            &[("land", Domain::Land), ("sea", Domain::Sea), ("air", Domain::Air)],
        );
        let domain = domain.unwrap_or(Domain::Land);
        let support = match u.get("support") {
            Some(n) => read_support(ctx, n, &path),
            None => Vec::new(),
        };
        let anti_air = u.table(ctx, "anti_air", &ANTI_AIR).map(|mut a| {
            let aa = AntiAir {
                hit: a.uint(ctx, "hit", 1),
                max_dice: a.opt_uint(ctx, "max_dice"),
                dice_per_target: a.uint(ctx, "dice_per_target", 1),
                targets: {
                    let t: Vec<String> = a.str_list(ctx, "targets").into_iter().map(|(s, _)| s).collect();
                    if t.is_empty() {
                        vec!["air".to_string()]
                    } else {
                        t
                    }
                },
                first_round_only: a.bool(ctx, "first_round_only", true),
                one_per_space: a.bool(ctx, "one_per_space", false),
                vs_bombing: a.bool(ctx, "vs_bombing", false),
            };
            a.finish(ctx);
            aa
        });
        let unit = UnitType {
            id: id.to_string(),
            name,
            abbrevs: u.str_list(ctx, "abbrevs").into_iter().map(|(s, _)| s).collect(),
            domain,
            cost: u.req_uint(ctx, "cost").unwrap_or(0),
            attack: u.req_uint(ctx, "attack").unwrap_or(0),
            defense: u.req_uint(ctx, "defense").unwrap_or(0),
            movement: u.req_uint(ctx, "move").unwrap_or(0),
            hits: u.uint(ctx, "hits", 1).max(1),
            repair: u
                .choice(
                    ctx,
                    "repair",
                    &[
                        ("end_of_combat", Repair::EndOfCombat),
                        ("naval_base", Repair::NavalBase),
                        ("never", Repair::Never),
                    ],
                )
                .unwrap_or(Repair::EndOfCombat),
            tags: u.str_list(ctx, "tags").into_iter().map(|(s, _)| s).collect(),
            can_capture: u.bool(ctx, "can_capture", domain == Domain::Land),
            blitz: u.bool(ctx, "blitz", false),
            blitz_with: None,
            move_with: None,
            combat_move: u.bool(ctx, "combat_move", true),
            transport_cost: u.opt_uint(ctx, "transport_cost"),
            transport_capacity: u.uint(ctx, "transport_capacity", 0),
            carrier_cost: u.opt_uint(ctx, "carrier_cost"),
            carrier_capacity: u.uint(ctx, "carrier_capacity", 0),
            disabled_when_damaged: u.bool(ctx, "disabled_when_damaged", false),
            scramble: u.bool(ctx, "scramble", false),
            intercepts: u.bool(ctx, "intercepts", false),
            first_strike: u.bool(ctx, "first_strike", false),
            submerge: u.bool(ctx, "submerge", false),
            negated_by: u
                .str_list(ctx, "negated_by")
                .into_iter()
                .map(|(s, _)| s)
                .collect(),
            anti_sub: u.bool(ctx, "anti_sub", false),
            cannot_target: u
                .str_list(ctx, "cannot_target")
                .into_iter()
                .map(|(s, _)| s)
                .collect(),
            evades_unless: u.str(ctx, "evades_unless"),
            blocks_movement: u.bool(ctx, "blocks_movement", true),
            stealth_move: u.bool(ctx, "stealth_move", false),
            defenseless: u.bool(ctx, "defenseless", false),
            casualty_last: u.bool(ctx, "casualty_last", false),
            bombard: u.uint(ctx, "bombard", 0),
            convoy_dice: u.uint(ctx, "convoy_dice", 0),
            bombing_dice: u.uint(ctx, "bombing_dice", 0),
            bombing_bonus: u.uint(ctx, "bombing_bonus", 0),
            raids: u.str_list(ctx, "raids").into_iter().map(|(s, _)| s).collect(),
            attack_dice: u.uint(ctx, "attack_dice", 1).clamp(1, 6),
            best_of: u.uint(ctx, "best_of", 1).clamp(1, 6),
            air_battle: u
                .get("air_battle")
                .and_then(|n| super::read::as_uint(ctx, n, "air_battle"))
                .map(|v| v.min(6) as u8),
            rocket: u.table(ctx, "rocket", &ROCKET).map(|r| read_rocket(ctx, r)),
            air_transport: read_air_transport(ctx, &mut u, domain),
            support,
            anti_air,
            on_capture: u
                .choice(
                    ctx,
                    "on_capture",
                    &[("capture", OnCapture::Capture), ("destroy", OnCapture::Destroy)],
                )
                .unwrap_or(OnCapture::Destroy),
        };
        u.finish(ctx);
        Some(unit)
    }
}

/// `air_transport`: an air unit carrying land units. What it carries is checked against the
/// unit types once all are known (`resolve_unit_refs`).
fn read_air_transport(ctx: &mut Ctx, u: &mut Fields, domain: Domain) -> Option<AirTransport> {
    let mut a = u.table(ctx, "air_transport", &AIR_TRANSPORT)?;
    if domain != Domain::Air {
        ctx.error_at(
            a.node,
            "schema::bad-value",
            format!(
                "`{}` is for air units; this unit's domain is {}",
                a.path,
                domain.name()
            ),
            "not an air unit",
        );
    }
    let carries: Vec<String> = a.str_list(ctx, "carries").into_iter().map(|(s, _)| s).collect();
    if carries.is_empty() && a.table.get("carries").is_none() {
        a.required(ctx, "carries");
    }
    let capacity = a.uint(ctx, "capacity", 1);
    if capacity == 0 {
        if let Some(n) = a.table.get("capacity") {
            ctx.error_at(
                n,
                "schema::out-of-range",
                format!("`{}.capacity` must be at least 1", a.path),
                "carries nothing",
            );
        }
    }
    let at = AirTransport {
        carries,
        capacity: capacity.max(1),
        stop_at_first_hostile: a.bool(ctx, "stop_at_first_hostile", true),
        raid: a.bool(ctx, "raid", false),
        noncombat: a.bool(ctx, "noncombat", false),
    };
    a.finish(ctx);
    Some(at)
}

fn read_support(ctx: &mut Ctx, n: &Node, path: &str) -> Vec<Support> {
    let Value::Array(items) = &n.value else {
        ctx.type_error(n, &format!("{path}.support"), "an array of tables");
        return Vec::new();
    };
    let mut out = Vec::new();
    for item in items {
        let Some(mut s) = Fields::of(ctx, item, &format!("{path}.support"), &SUPPORT) else {
            continue;
        };
        let tags: Vec<String> = s.str_list(ctx, "tags").into_iter().map(|(t, _)| t).collect();
        if tags.is_empty() {
            s.required(ctx, "tags");
        }
        let sup = Support {
            tags,
            attack: support_value(ctx, &mut s, "attack"),
            defense: support_value(ctx, &mut s, "defense"),
            count: s.uint(ctx, "count", 1),
        };
        s.finish(ctx);
        out.push(sup);
    }
    out
}

/// What a support adds to a value: up to [`MAX_COUNT`] either way.
fn support_value(ctx: &mut Ctx, s: &mut Fields, key: &'static str) -> i32 {
    let Some(n) = s.get(key) else { return 0 };
    let most = i64::from(MAX_COUNT);
    let what = format!("{}.{key}", s.path);
    super::read::as_int_in(ctx, n, &what, -most..=most).map_or(0, |v| v as i32)
}

fn read_amount(ctx: &mut Ctx, f: &mut Fields, key: &'static str, default: Amount) -> Amount {
    let Some(n) = f.get(key) else { return default };
    match &n.value {
        Value::Int(_) => as_uint(ctx, n, key).map_or(default, Amount::Fixed),
        Value::Str(s) if s == "territory" => Amount::Territory,
        Value::Str(s) if s == "2x territory" => Amount::TwiceTerritory,
        _ => {
            ctx.type_error(n, key, "an integer, \"territory\" or \"2x territory\"");
            default
        }
    }
}

fn read_facilities(ctx: &mut Ctx, e: Option<&Entry>) -> Vec<FacilityType> {
    let Some(e) = e else { return Vec::new() };
    let Some(f) = Fields::names_of(ctx, &e.node, "facilities") else {
        return Vec::new();
    };
    let ids: Vec<String> = f.table.entries.keys().cloned().collect();
    let mut out = Vec::new();
    for (id, fe) in &f.table.entries {
        let Some(mut ff) = Fields::of(ctx, &fe.node, &format!("facilities.{id}"), &FACILITY) else {
            continue;
        };
        let name = ff.req_str(ctx, "name").unwrap_or_else(|| id.clone());
        let abbrevs = ff.str_list(ctx, "abbrevs").into_iter().map(|(s, _)| s).collect();
        let cost = ff.opt_uint(ctx, "cost");
        let production = read_amount(ctx, &mut ff, "production", Amount::Fixed(0));
        let max_damage = read_amount(ctx, &mut ff, "max_damage", Amount::Fixed(0));
        let requires_ipc = ff.uint(ctx, "requires_ipc", 0);
        let on_islands = ff.bool(ctx, "on_islands", true);
        let original_only = ff.bool(ctx, "original_only", false);
        let coastal = ff.bool(ctx, "coastal", false);
        let facility_named = |ctx: &mut Ctx, n: Option<&Node>, key: &str| {
            let n = n?;
            let name = as_str(ctx, n, key)?;
            match ids.iter().position(|x| *x == name) {
                Some(j) => Some(FacilityTypeId(j as u16)),
                None => {
                    unknown_name(ctx, n, "facility", &name, &ids);
                    None
                }
            }
        };
        let from = facility_named(ctx, ff.get("upgrades_from"), "upgrades_from");
        let to = facility_named(ctx, ff.get("upgrades_to"), "upgrades_to");
        let upgrade = match (
            from,
            to,
            ff.get("upgrades_from").is_some() != ff.get("upgrades_to").is_some(),
        ) {
            (Some(from), Some(to), _) => Some(super::Upgrade { from, to }),
            (_, _, true) => {
                let n = ff
                    .get("upgrades_from")
                    .or(ff.get("upgrades_to"))
                    .expect("one of them");
                ctx.error_at(
                    n,
                    "schema::missing-field",
                    "an upgrade names both `upgrades_from` and `upgrades_to`".into(),
                    "the other is missing",
                );
                None
            }
            _ => None,
        };
        let on_capture = match ff.get("on_capture") {
            None => FacilityCapture::Capture,
            Some(n) => match as_str(ctx, n, "on_capture").as_deref() {
                Some("capture") | None => FacilityCapture::Capture,
                Some("destroy") => FacilityCapture::Destroy,
                Some(s) => match s.strip_prefix("downgrade:") {
                    Some(target) => match ids.iter().position(|x| x == target) {
                        Some(j) => FacilityCapture::Downgrade(FacilityTypeId(j as u16)),
                        None => {
                            unknown_name(ctx, n, "facility", target, &ids);
                            FacilityCapture::Capture
                        }
                    },
                    None => {
                        ctx.error_at(
                            n,
                            "schema::bad-value",
                            format!("`on_capture` cannot be {s:?}"),
                            "expected capture, destroy or downgrade:ID",
                        );
                        FacilityCapture::Capture
                    }
                },
            },
        };
        let air = ff.uint(ctx, "air_move_bonus", 0);
        let sea = ff.uint(ctx, "sea_move_bonus", 0);
        let repairs = ff.bool(ctx, "repairs", false);
        let inoperative_at = ff.uint(ctx, "inoperative_at", 0);
        let anti_air = ff.uint(ctx, "anti_air", 0).min(6) as u8;
        let scramble_limit = ff.uint(ctx, "scramble_limit", 0);
        ff.finish(ctx);
        out.push(FacilityType {
            id: id.clone(),
            name,
            abbrevs,
            cost,
            production,
            max_damage,
            requires_ipc,
            on_islands,
            original_only,
            coastal,
            upgrade,
            on_capture,
            air_move_bonus: air,
            sea_move_bonus: sea,
            repairs,
            inoperative_at,
            anti_air,
            scramble_limit,
        });
    }
    out
}

fn read_board(
    ctx: &mut Ctx,
    territories: Option<&Entry>,
    sea_zones: Option<&Entry>,
    canals: Option<&Entry>,
    powers: &[Power],
    units: &[UnitType],
) -> Board {
    let power_names: Vec<String> = powers.iter().map(|p| p.name.clone()).collect();
    let unit_names: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
    // First pass: names, so adjacency can refer forward.
    let mut entries: Vec<(&String, &Entry, SpaceKind)> = Vec::new();
    for (section, kind) in [(territories, SpaceKind::Land), (sea_zones, SpaceKind::Sea)] {
        let Some(e) = section else { continue };
        let what = if kind == SpaceKind::Land {
            "territories"
        } else {
            "sea_zones"
        };
        let Some(t) = Fields::names_of(ctx, &e.node, what) else {
            continue;
        };
        for (name, se) in &t.table.entries {
            entries.push((name, se, kind));
        }
    }
    let mut board = Board::default();
    for (i, (name, se, _)) in entries.iter().enumerate() {
        if let Some(prev) = board.by_name.insert(name.to_lowercase(), SpaceId(i as u16)) {
            let p = Problem::new(
                "schema::duplicate",
                format!("`{name}` is both a territory and a sea zone"),
            )
            .at(se.key.label(ctx.sources, "second definition"))
            .also(entries[prev.index()].1.key.label(ctx.sources, "first definition"));
            ctx.problems.push(p);
        }
    }
    let all_names: Vec<String> = entries.iter().map(|(n, _, _)| (*n).clone()).collect();
    let mut adjacency_nodes: Vec<Vec<(SpaceId, &Node)>> = Vec::new();
    for (name, se, kind) in &entries {
        let (what, schema) = if *kind == SpaceKind::Land {
            (format!("territories.{name}"), &TERRITORY)
        } else {
            (format!("sea_zones.{name}"), &SEA_ZONE)
        };
        let Some(mut f) = Fields::of(ctx, &se.node, &what, schema) else {
            board.spaces.push(empty_space(name, *kind));
            adjacency_nodes.push(Vec::new());
            continue;
        };
        let ipc = f.uint(ctx, "ipc", 0);
        let owner = f.get("owner").and_then(|n| {
            let s = as_str(ctx, n, "owner")?;
            match power_names.iter().position(|p| *p == s) {
                Some(i) => Some(PowerId(i as u8)),
                None => {
                    unknown_name(ctx, n, "power", &s, &power_names);
                    None
                }
            }
        });
        let capital = f.bool(ctx, "capital", false);
        let victory_city = f.str(ctx, "victory_city");
        let island = f.bool(ctx, "island", false);
        let neutral = f.choice(
            ctx,
            "neutral",
            &[
                ("impassable", NeutralKind::Impassable),
                ("pro_axis", NeutralKind::ProAxis),
                ("pro_allies", NeutralKind::ProAllies),
                ("strict", NeutralKind::Strict),
            ],
        );
        let mut standing_army = Vec::new();
        if let Some(sa) = f.names(ctx, "standing_army") {
            for (u, ne) in &sa.table.entries {
                let count = as_uint(ctx, &ne.node, "standing_army").unwrap_or(0);
                match unit_names.iter().position(|x| x == u) {
                    Some(j) => standing_army.push((UnitTypeId(j as u16), count)),
                    None => unknown_name(ctx, &ne.node, "unit type", u, &unit_names),
                }
            }
        }
        let map = f.str(ctx, "map");
        let convoy = f.bool(ctx, "convoy", false);
        let tags: Vec<String> = f.str_list(ctx, "tags").into_iter().map(|(s, _)| s).collect();
        let mut adj = Vec::new();
        for (a, n) in f.str_list(ctx, "adjacent") {
            match board.by_name.get(&a.to_lowercase()) {
                Some(id) => adj.push((*id, n)),
                None => unknown_name(ctx, n, "space", &a, &all_names),
            }
        }
        if capital && owner.is_none() {
            ctx.error_at(
                &se.node,
                "schema::bad-value",
                format!("`{name}` is a capital but has no owner"),
                "capital without owner",
            );
        }
        f.finish(ctx);
        board.spaces.push(Space {
            name: (*name).clone(),
            kind: *kind,
            ipc,
            owner,
            capital,
            victory_city,
            island,
            neutral,
            standing_army,
            map,
            convoy,
            tags,
            adjacent: adj.iter().map(|(id, _)| *id).collect(),
        });
        adjacency_nodes.push(adj);
    }
    // Adjacency must be symmetric: a one-way edge is almost always a transcription slip.
    for (i, adj) in adjacency_nodes.iter().enumerate() {
        for (j, node) in adj {
            if j.index() == i {
                ctx.error_at(
                    node,
                    "board::self-adjacent",
                    format!("`{}` lists itself as adjacent", board.spaces[i].name),
                    "remove this",
                );
                continue;
            }
            if !board.spaces[j.index()].adjacent.contains(&SpaceId(i as u16)) {
                let a = &board.spaces[i].name;
                let b = &board.spaces[j.index()].name;
                let p = Problem::new(
                    "board::asymmetric-adjacency",
                    format!("`{a}` lists `{b}` as adjacent, but `{b}` does not list `{a}`"),
                )
                .at(node.origin.label(ctx.sources, format!("{a} -> {b}")))
                .also(
                    entries[j.index()]
                        .1
                        .key
                        .label(ctx.sources, format!("`{b}` is defined here")),
                )
                .help(format!(
                    "add \"{a}\" to the adjacent list of `{b}`, or remove this entry"
                ));
                ctx.problems.push(p);
            }
        }
    }
    // Adjacency lists are kept sorted so iteration order never depends on file order.
    for s in &mut board.spaces {
        s.adjacent.sort();
        s.adjacent.dedup();
    }
    if let Some(e) = canals {
        if let Some(t) = Fields::names_of(ctx, &e.node, "canals") {
            for (name, ce) in &t.table.entries {
                let Some(mut f) = Fields::of(ctx, &ce.node, &format!("canals.{name}"), &CANAL) else {
                    continue;
                };
                let kind = f
                    .choice(
                        ctx,
                        "kind",
                        &[("canal", PassageKind::Canal), ("strait", PassageKind::Strait)],
                    )
                    .unwrap_or(PassageKind::Canal);
                let mut connects = Vec::new();
                let connects_node = f.get("connects");
                if let Some(n) = connects_node {
                    for (s, sn) in super::read::str_list(ctx, n, "connects") {
                        match board.find(&s) {
                            Some(id) if board.space(id).is_sea() => connects.push(id),
                            Some(_) => {
                                ctx.error_at(
                                    sn,
                                    "board::bad-canal",
                                    format!("canal `{name}` connects `{s}`, which is not a sea zone"),
                                    "not a sea zone",
                                );
                            }
                            None => unknown_name(ctx, sn, "space", &s, &all_names),
                        }
                    }
                } else {
                    f.required(ctx, "connects");
                }
                let mut controlled_by = Vec::new();
                for (s, sn) in f.str_list(ctx, "controlled_by") {
                    match board.find(&s) {
                        Some(id) => controlled_by.push(id),
                        None => unknown_name(ctx, sn, "space", &s, &all_names),
                    }
                }
                let open_to: Vec<String> = f.str_list(ctx, "open_to").into_iter().map(|(s, _)| s).collect();
                f.finish(ctx);
                if connects.len() == 2 {
                    board.canals.push(Canal {
                        name: name.clone(),
                        kind,
                        connects: [connects[0], connects[1]],
                        controlled_by,
                        open_to,
                    });
                } else if let Some(n) = connects_node {
                    ctx.error_at(
                        n,
                        "board::bad-canal",
                        format!("canal `{name}` must connect exactly two sea zones"),
                        "expected two sea zones",
                    );
                }
            }
        }
    }
    board
}

fn empty_space(name: &str, kind: SpaceKind) -> Space {
    Space {
        name: name.to_string(),
        kind,
        ipc: 0,
        owner: None,
        capital: false,
        victory_city: None,
        island: false,
        neutral: None,
        standing_army: Vec::new(),
        map: None,
        convoy: false,
        tags: Vec::new(),
        adjacent: Vec::new(),
    }
}

fn read_scenarios(
    ctx: &mut Ctx,
    e: Option<&Entry>,
    politics: &Politics,
    powers: &[Power],
    units: &[UnitType],
    facilities: &[FacilityType],
    board: &Board,
) -> Vec<Scenario> {
    let Some(e) = e else { return Vec::new() };
    let Some(all) = Fields::names_of(ctx, &e.node, "scenarios") else {
        return Vec::new();
    };
    let power_names: Vec<String> = powers.iter().map(|p| p.name.clone()).collect();
    let space_names: Vec<String> = board.spaces.iter().map(|s| s.name.clone()).collect();
    let piece_names: Vec<String> = units
        .iter()
        .map(|u| u.id.clone())
        .chain(facilities.iter().map(|f| f.id.clone()))
        .collect();
    let find_power = |ctx: &mut Ctx, name: &str, n: &Node| -> Option<PowerId> {
        match power_names.iter().position(|p| p == name) {
            Some(i) => Some(PowerId(i as u8)),
            None => {
                unknown_name(ctx, n, "power", name, &power_names);
                None
            }
        }
    };
    let mut out = Vec::new();
    for (id, se) in &all.table.entries {
        let Some(mut f) = Fields::of(ctx, &se.node, &format!("scenarios.{id}"), &SCENARIO) else {
            continue;
        };
        let title = f.str(ctx, "title").unwrap_or_else(|| id.clone());
        let mut turn_order = Vec::new();
        for (p, n) in f.str_list(ctx, "turn_order") {
            if let Some(pid) = find_power(ctx, &p, n) {
                turn_order.push(pid);
            }
        }
        if f.table.get("turn_order").is_none() {
            f.required(ctx, "turn_order");
        }
        let mut ipcs = Vec::new();
        if let Some(t) = f.names(ctx, "ipcs") {
            for (p, ne) in &t.table.entries {
                if let (Some(pid), Some(v)) = (
                    find_power(ctx, p, &ne.node),
                    super::read::as_ipcs(ctx, &ne.node, "ipcs"),
                ) {
                    ipcs.push((pid, v));
                }
            }
        }
        let mut control = Vec::new();
        if let Some(t) = f.names(ctx, "control") {
            for (s, ne) in &t.table.entries {
                let sid = board.by_name.get(&s.to_lowercase()).copied();
                if sid.is_none() {
                    unknown_name(ctx, &ne.node, "space", s, &space_names);
                }
                let pid = as_str(ctx, &ne.node, "control").and_then(|p| find_power(ctx, &p, &ne.node));
                if let (Some(sid), Some(pid)) = (sid, pid) {
                    control.push((sid, pid));
                }
            }
        }
        let mut setup = Vec::new();
        if let Some(t) = f.names(ctx, "setup") {
            for (s, owners) in &t.table.entries {
                let sid = match board.by_name.get(&s.to_lowercase()) {
                    Some(id) => Some(*id),
                    None => {
                        let mut p = Problem::new("schema::unknown-name", format!("unknown space `{s}`"))
                            .at(owners.key.label(ctx.sources, "no such space"));
                        if let Some(c) = closest_key(s, space_names.iter().map(String::as_str)) {
                            p = p.help(format!("did you mean `{c}`?"));
                        }
                        ctx.problems.push(p);
                        None
                    }
                };
                let Some(of) = Fields::names_of(ctx, &owners.node, &format!("scenarios.{id}.setup.{s}"))
                else {
                    continue;
                };
                for (owner, pieces) in &of.table.entries {
                    let pid = match power_names.iter().position(|p| p == owner) {
                        Some(i) => Some(PowerId(i as u8)),
                        None => {
                            let mut p =
                                Problem::new("schema::unknown-name", format!("unknown power `{owner}`"))
                                    .at(pieces.key.label(ctx.sources, "no such power"));
                            if let Some(s) = closest_key(owner, power_names.iter().map(String::as_str)) {
                                p = p.help(format!("did you mean `{s}`?"));
                            }
                            ctx.problems.push(p);
                            None
                        }
                    };
                    let Some(pf) = Fields::names_of(ctx, &pieces.node, "setup") else {
                        continue;
                    };
                    for (piece, ce) in &pf.table.entries {
                        let count = as_uint(ctx, &ce.node, "setup count").unwrap_or(0);
                        let pc = if let Some(u) = units.iter().position(|u| &u.id == piece) {
                            Some(Piece::Unit(UnitTypeId(u as u16)))
                        } else if let Some(fi) = facilities.iter().position(|f| &f.id == piece) {
                            Some(Piece::Facility(FacilityTypeId(fi as u16)))
                        } else {
                            let mut p = Problem::new(
                                "schema::unknown-name",
                                format!("unknown unit or facility `{piece}`"),
                            )
                            .at(ce.key.label(ctx.sources, "no such unit or facility"));
                            if let Some(s) = closest_key(piece, piece_names.iter().map(String::as_str)) {
                                p = p.help(format!("did you mean `{s}`?"));
                            }
                            ctx.problems.push(p);
                            None
                        };
                        if let (Some(space), Some(owner), Some(piece)) = (sid, pid, pc) {
                            setup.push(Placement {
                                space,
                                owner,
                                piece,
                                count,
                            });
                        }
                    }
                }
            }
        }
        let mut damage = Vec::new();
        if let Some(t) = f.names(ctx, "damage") {
            for (s, de) in &t.table.entries {
                let sid = board.by_name.get(&s.to_lowercase()).copied();
                if sid.is_none() {
                    unknown_name(ctx, &de.node, "space", s, &space_names);
                }
                let Some(df) = Fields::names_of(ctx, &de.node, "damage") else {
                    continue;
                };
                for (fac, ne) in &df.table.entries {
                    let n = as_uint(ctx, &ne.node, "damage").unwrap_or(0);
                    match facilities.iter().position(|f| &f.id == fac) {
                        Some(fi) => {
                            if let Some(sid) = sid {
                                damage.push((sid, FacilityTypeId(fi as u16), n));
                            }
                        }
                        None => {
                            let names: Vec<String> = facilities.iter().map(|f| f.id.clone()).collect();
                            unknown_name(ctx, &ne.node, "facility", fac, &names);
                        }
                    }
                }
            }
        }
        let at_peace = f.get("at_peace").map_or_else(Vec::new, |n| {
            super::politics::read_at_peace(ctx, n, &format!("scenarios.{id}.at_peace"), powers, politics)
        });
        f.finish(ctx);
        out.push(Scenario {
            id: id.clone(),
            title,
            turn_order,
            ipcs,
            control,
            setup,
            damage,
            at_peace,
        });
    }
    out
}

fn read_switches(ctx: &mut Ctx, e: Option<&Entry>) -> Switches {
    let mut s = Switches::default();
    let Some(e) = e else { return s };
    let Some(mut f) = Fields::of(ctx, &e.node, "rules", &RULES) else {
        return s;
    };
    if let Some(u) = f.choice(
        ctx,
        "unplaceable_units",
        &[("refund", Unplaceable::Refund), ("keep", Unplaceable::Keep)],
    ) {
        s.unplaceable_units = u;
    }
    s.blitz_blocked_by_facilities = f.bool(ctx, "blitz_blocked_by_facilities", true);
    if let Some(a) = f.choice(
        ctx,
        "allied_factories",
        &[
            ("never", AlliedFactories::Never),
            ("capital_lost", AlliedFactories::CapitalLost),
        ],
    ) {
        s.allied_factories = a;
    }
    s.purchase_limited_by_production = f.bool(ctx, "purchase_limited_by_production", false);
    s.convoy_hits_up_to = f.uint(ctx, "convoy_hits_up_to", 0).min(6) as u8;
    s.air_units_must_land = f.bool(ctx, "air_units_must_land", false);
    s.allies_share_only_at_war = f.bool(ctx, "allies_share_only_at_war", false);
    s.interception_value = f.uint(ctx, "interception_value", 1).min(6) as u8;
    f.finish(ctx);
    s
}
