//! `[research]` and `[techs]`: technologies a power can hold and how it gets them.
//!
//! A tech's effect on units is written as a patch of the unit table in the units' own schema
//! (`[techs.ID.units.UNIT] attack = 4`), so anything a unit has a tech can change,
//! and a typo in a patch gets the same "did you mean" as in units.toml. Patches are applied at
//! load time: for every unit type some techs patch, every combination of those techs is read
//! into a full `UnitType` once, so play asks `RuleSet::unit_for(kind, techs)` and gets a
//! reference, never a merge.

use super::build::{read_unit, resolve_unit_refs, unknown_name, UnitNames};
use super::read::{Ctx, Fields};
use super::schema::{Field, Table as SchemaTable};
use super::*;
use crate::diag::Problem;
use crate::tree::{Entry, Value};

/// A technology: what it is called and what it changes.
#[derive(Clone, Debug)]
pub struct Tech {
    pub id: String,
    pub name: String,
    pub description: String,
    /// Unit types whose values it changes (the changes are in `RuleSet::unit_for`).
    pub units: Vec<UnitTypeId>,
    /// Units each factory of the holder produces beyond its listed production.
    pub production_bonus: u32,
    /// Damage markers one IPC removes when the holder repairs a facility (0: unchanged).
    pub repairs_per_ipc: u32,
    /// Facility types whose values it changes for the holder (`[techs.ID.facilities.F]`).
    pub facilities: Vec<(FacilityTypeId, FacilityPatch)>,
    pub origin: Origin,
}

/// What a tech changes in a facility type for the powers holding it.
#[derive(Clone, Copy, Debug, Default)]
pub struct FacilityPatch {
    pub production: Option<u32>,
    /// Damage one IPC repairs on this facility type for the holder.
    pub repairs_per_ipc: Option<u32>,
    pub anti_air: Option<u8>,
    pub rocket: Option<Rocket>,
    pub paratroopers: Option<Paratroopers>,
}

/// Land units a facility flies to a battle in combat move (`move ... as paratroopers`): the
/// 1940 games' paratroopers, flown from an operative air base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paratroopers {
    /// Units that take off from one such territory in a turn.
    pub count: u32,
    /// Spaces they fly, as air units do.
    pub range: u32,
    /// The unit types that may fly (a set of unit type indices).
    pub units: u64,
}

impl Paratroopers {
    pub fn carries(&self, kind: UnitTypeId) -> bool {
        kind.0 < 64 && self.units & (1 << kind.0) != 0
    }
}

/// `[techs.<tech>.facilities.<facility>.paratroopers]`.
pub(crate) static PARATROOPERS: SchemaTable = SchemaTable {
    path: "techs.<tech>.facilities.<facility>.paratroopers",
    doc: "Land units flown from the facility's territory in combat move (`move 2 infantry from A \
          to B as paratroopers`) to an enemy territory that land units of the mover attack from \
          next door or from the sea. They fly as air units do, draw antiaircraft fire as air \
          units do, and retreat with the others (with no way back by land they stay).",
    fields: &[
        Field::def(
            "count",
            "int",
            "2",
            "units that take off from one such territory in a turn (all to one territory)",
        ),
        Field::req(
            "range",
            "int",
            "spaces they fly, counted as air units count them (no neutral territory passed)",
        ),
        Field::req("tags", "[string]", "tags (or ids) of the unit types that may fly"),
    ],
};

/// `[techs.<tech>.facilities.<facility>]`.
pub(crate) static TECH_FACILITY: SchemaTable = SchemaTable {
    path: "techs.<tech>.facilities.<facility>",
    doc: "What a tech changes in a facility type for the powers holding it.",
    fields: &[
        Field::opt("production", "int", "units it mobilizes per turn (a factory's)"),
        Field::opt("repairs_per_ipc", "int", "damage one IPC repairs on it for the holder (beside the tech's `repairs_per_ipc` for every facility)"),
        Field::opt("anti_air", "int", "its own antiaircraft fire in a raid on it hits on this or less"),
        Field::opt("rocket", "table", "once per turn, in conduct combat before any battle, an operative one makes a rocket attack (`rocket from SPACE at TARGET`): `range`, `dice`, `over_neutrals` as `units.<unit>.rocket`"),
        Field::opt("paratroopers", "table", "an operative one, in a territory friendly to the holder, flies land units to a battle in combat move: `techs.<tech>.facilities.<facility>.paratroopers`"),
    ],
};

/// How a power researches (`[research]`); absent when the game has no research.
#[derive(Clone, Debug)]
pub struct Research {
    /// IPCs per researcher token.
    pub token_cost: u32,
    /// A research die showing this face or more is a breakthrough.
    pub breakthrough: u32,
    /// `keep_tokens`: researcher tokens that fail are kept for a later turn (else lost).
    pub keep_tokens: bool,
    /// The charts a breakthrough rolls on: die face `n` gives the chart's `n`-th tech.
    pub charts: Vec<Chart>,
}

#[derive(Clone, Debug)]
pub struct Chart {
    pub name: String,
    pub techs: Vec<TechId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TechId(pub u8);

impl TechId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The unit types one unit type becomes under the techs that patch it.
#[derive(Clone, Debug, Default)]
pub struct UnitTechs {
    /// The techs patching this unit type, in `[techs]` order; bit `i` of a variant's index+1.
    pub techs: Vec<TechId>,
    pub variants: Vec<UnitType>,
}

/// `[techs.<tech>]`.
pub(crate) static TECH: SchemaTable = SchemaTable {
    path: "techs.<tech>",
    doc: "A technology. Its effect on units is a patch in the schema of `units.<unit>` for the \
          powers holding it; effects that are rules rather than values are scripts reading \
          `game:power_info(p).techs`.",
    fields: &[
        Field::def("name", "string", "its id, with spaces", "display name"),
        Field::def("description", "string", "\"\"", "shown when it is gained"),
        Field::opt("units", "<unit> → table", "fields of `units.<unit>` it changes (tables merge key by key); at most 6 techs may change one unit type"),
        Field::def("production_bonus", "int", "0", "units every factory of the holder produces beyond its production"),
        Field::def("repairs_per_ipc", "int", "0", "damage one IPC repairs for the holder (0: one)"),
        Field::opt("facilities", "<facility> → table", "what it changes in facility types for the holder: `techs.<tech>.facilities.<facility>`"),
    ],
};

/// More techs than this patching one unit type would mean 2^n variants to read.
const MAX_PATCHES_PER_UNIT: usize = 6;

pub(super) fn read_techs(
    ctx: &mut Ctx,
    techs_e: Option<&Entry>,
    units_e: Option<&Entry>,
    units: &[UnitType],
    facility_types: &[FacilityType],
) -> (Vec<Tech>, Vec<UnitTechs>) {
    let mut techs = Vec::new();
    let mut per_unit: Vec<UnitTechs> = vec![UnitTechs::default(); units.len()];
    let Some(e) = techs_e else {
        return (techs, per_unit);
    };
    let Some(f) = Fields::names_of(ctx, &e.node, "techs") else {
        return (techs, per_unit);
    };
    let unit_ids: Vec<String> = units.iter().map(|u| u.id.clone()).collect();
    // (tech, unit, patch node)
    let mut patches: Vec<(TechId, usize, &Node)> = Vec::new();
    for (id, te) in &f.table.entries {
        let path = format!("techs.{id}");
        let Some(mut t) = Fields::of(ctx, &te.node, &path, &TECH) else {
            continue;
        };
        if techs.len() >= 255 {
            ctx.error_at(
                &te.node,
                "schema::too-many",
                "more than 255 techs".into(),
                "one too many",
            );
            break;
        }
        let tid = TechId(techs.len() as u8);
        let mut patched = Vec::new();
        if let Some(u) = t.names(ctx, "units") {
            for (uid, ue) in &u.table.entries {
                match unit_ids.iter().position(|x| x == uid) {
                    Some(k) => {
                        if !matches!(ue.node.value, Value::Table(_)) {
                            ctx.type_error(
                                &ue.node,
                                &format!("{path}.units.{uid}"),
                                "a table of unit fields",
                            );
                            continue;
                        }
                        patched.push(UnitTypeId(k as u16));
                        patches.push((tid, k, &ue.node));
                    }
                    None => unknown_name(ctx, &ue.node, "unit type", uid, &unit_ids),
                }
            }
        }
        let facilities = read_facility_patches(ctx, &mut t, &path, facility_types, units);
        let tech = Tech {
            id: id.clone(),
            name: t.str(ctx, "name").unwrap_or_else(|| id.replace('_', " ")),
            description: t.str(ctx, "description").unwrap_or_default(),
            units: patched,
            production_bonus: t.uint(ctx, "production_bonus", 0),
            repairs_per_ipc: t.uint(ctx, "repairs_per_ipc", 0),
            facilities,
            origin: te.node.origin.clone(),
        };
        t.finish(ctx);
        techs.push(tech);
    }
    let base = units_e.and_then(|e| e.node.as_table());
    let known = UnitNames::of(units);
    for (k, unit) in units.iter().enumerate() {
        let mine: Vec<&(TechId, usize, &Node)> = patches.iter().filter(|p| p.1 == k).collect();
        if mine.is_empty() {
            continue;
        }
        if mine.len() > MAX_PATCHES_PER_UNIT {
            ctx.error_at(
                mine[MAX_PATCHES_PER_UNIT].2,
                "schema::too-many",
                format!(
                    "{} techs change `{}`; at most {MAX_PATCHES_PER_UNIT} may change one unit type",
                    mine.len(),
                    unit.id
                ),
                "one too many",
            );
            continue;
        }
        let Some(base) = base.and_then(|t| t.get(&unit.id)) else {
            continue;
        };
        let mut variants = Vec::new();
        for mask in 1..(1u32 << mine.len()) {
            let mut node = base.clone();
            for (i, (_, _, patch)) in mine.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    overlay(&mut node, patch);
                }
            }
            match read_unit(ctx, &unit.id, &node) {
                Some(mut v) => {
                    resolve_unit_refs(ctx, &node, &known, &mut v);
                    variants.push(v);
                }
                None => variants.push(unit.clone()),
            }
        }
        per_unit[k] = UnitTechs {
            techs: mine.iter().map(|p| p.0).collect(),
            variants,
        };
    }
    (techs, per_unit)
}

/// `[techs.ID.facilities.F]`: what a tech changes in facility types for its holder.
fn read_facility_patches(
    ctx: &mut Ctx,
    t: &mut Fields,
    path: &str,
    facility_types: &[FacilityType],
    units: &[UnitType],
) -> Vec<(FacilityTypeId, FacilityPatch)> {
    let mut facilities = Vec::new();
    let Some(fs) = t.names(ctx, "facilities") else {
        return facilities;
    };
    let ids: Vec<String> = facility_types.iter().map(|f| f.id.clone()).collect();
    for (fid, fe) in &fs.table.entries {
        let Some(k) = ids.iter().position(|x| x == fid) else {
            unknown_name(ctx, &fe.node, "facility", fid, &ids);
            continue;
        };
        let Some(mut p) = Fields::of(ctx, &fe.node, &format!("{path}.facilities.{fid}"), &TECH_FACILITY)
        else {
            continue;
        };
        let production = p
            .get("production")
            .and_then(|n| super::read::as_uint(ctx, n, "production"));
        let repairs_per_ipc = p
            .get("repairs_per_ipc")
            .and_then(|n| super::read::as_uint(ctx, n, "repairs_per_ipc"))
            .map(|v| v.max(1));
        let anti_air = p
            .get("anti_air")
            .and_then(|n| super::read::as_uint(ctx, n, "anti_air"))
            .map(|v| v.min(6) as u8);
        let rocket = p
            .table(ctx, "rocket", &super::build::ROCKET)
            .map(|r| super::build::read_rocket(ctx, r));
        let paratroopers = p
            .table(ctx, "paratroopers", &PARATROOPERS)
            .map(|r| read_paratroopers(ctx, r, units));
        p.finish(ctx);
        facilities.push((
            FacilityTypeId(k as u16),
            FacilityPatch {
                production,
                repairs_per_ipc,
                anti_air,
                rocket,
                paratroopers,
            },
        ));
    }
    facilities
}

fn read_paratroopers(ctx: &mut Ctx, mut r: Fields, units: &[UnitType]) -> Paratroopers {
    let mut set = 0u64;
    for (tag, node) in r.str_list(ctx, "tags") {
        let kinds: Vec<usize> = (0..units.len())
            .filter(|&k| units[k].id == tag || units[k].tags.contains(&tag))
            .collect();
        if kinds.is_empty() {
            ctx.error_at(
                node,
                "schema::unknown-name",
                format!("no unit type has the id or tag `{tag}`"),
                "names no unit type",
            );
        }
        for k in kinds {
            set |= 1 << k;
        }
    }
    if r.get("tags").is_none() {
        r.required(ctx, "tags");
    }
    let p = Paratroopers {
        count: r.uint(ctx, "count", 2),
        range: r.req_uint(ctx, "range").unwrap_or(0),
        units: set,
    };
    r.finish(ctx);
    p
}

/// Deep-merge `src` onto `dst` as layers merge: tables key by key, anything else replaced.
fn overlay(dst: &mut Node, src: &Node) {
    match (&mut dst.value, &src.value) {
        (Value::Table(d), Value::Table(s)) => {
            for (k, e) in &s.entries {
                match d.entries.get_mut(k) {
                    Some(de) => overlay(&mut de.node, &e.node),
                    None => {
                        d.entries.insert(k.clone(), e.clone());
                    }
                }
            }
        }
        _ => {
            let mut replaced = std::mem::take(&mut dst.replaced);
            replaced.push(dst.origin.clone());
            *dst = src.clone();
            dst.replaced = replaced;
        }
    }
}

/// `[research]`.
pub(crate) static RESEARCH: SchemaTable = SchemaTable {
    path: "research",
    doc: "How technologies are researched: `research N` buys N researcher tokens and rolls them; \
          a breakthrough lets the power roll on a chart (`breakthrough CHART`).",
    fields: &[
        Field::req("token_cost", "int", "IPCs per researcher token"),
        Field::def(
            "breakthrough",
            "int",
            "6",
            "a research die showing this face or more is a breakthrough",
        ),
        Field::def(
            "keep_tokens",
            "bool",
            "true",
            "researcher tokens rolled without a breakthrough are kept for a later turn (false: they are lost)",
        ),
        Field::req(
            "charts",
            "[table]",
            "the charts a breakthrough rolls on: `research.charts[]`",
        ),
    ],
};

/// `[[research.charts]]`.
pub(crate) static CHART: SchemaTable = SchemaTable {
    path: "research.charts[]",
    doc: "A breakthrough chart: die face n gives the chart's n-th tech.",
    fields: &[
        Field::def("name", "string", "chart N", "display name"),
        Field::req("techs", "[string]", "1 to 6 tech ids"),
    ],
};

pub(super) fn read_research(ctx: &mut Ctx, e: Option<&Entry>, techs: &[Tech]) -> Option<Research> {
    let e = e?;
    let mut f = Fields::of(ctx, &e.node, "research", &RESEARCH)?;
    let token_cost = f.req_uint(ctx, "token_cost").unwrap_or(5);
    let breakthrough = f.uint(ctx, "breakthrough", 6);
    let keep_tokens = f.bool(ctx, "keep_tokens", true);
    if !(1..=6).contains(&breakthrough) {
        if let Some(n) = f.table.get("breakthrough") {
            ctx.error_at(
                n,
                "schema::out-of-range",
                "`research.breakthrough` must be a die face from 1 to 6".into(),
                "not a face of a die",
            );
        }
    }
    let ids: Vec<String> = techs.iter().map(|t| t.id.clone()).collect();
    let mut charts = Vec::new();
    match f.required(ctx, "charts").map(|n| (n, &n.value)) {
        Some((_, Value::Array(items))) => {
            for (i, item) in items.iter().enumerate() {
                let path = format!("research.charts[{i}]");
                let Some(mut c) = Fields::of(ctx, item, &path, &CHART) else {
                    continue;
                };
                let name = c.str(ctx, "name").unwrap_or_else(|| format!("chart {}", i + 1));
                let mut list = Vec::new();
                let entries = c.str_list(ctx, "techs");
                if entries.is_empty() || entries.len() > 6 {
                    ctx.problems.push(
                        Problem::new(
                            "schema::out-of-range",
                            format!("{path}.techs must list 1 to 6 techs (a die picks one)"),
                        )
                        .at(item.origin.label(ctx.sources, "this chart")),
                    );
                }
                for (t, n) in entries {
                    match ids.iter().position(|x| *x == t) {
                        Some(k) => list.push(TechId(k as u8)),
                        None => unknown_name(ctx, n, "tech", &t, &ids),
                    }
                }
                c.finish(ctx);
                charts.push(Chart { name, techs: list });
            }
        }
        Some((n, _)) => ctx.type_error(n, "research.charts", "an array of { name, techs } tables"),
        None => {}
    }
    f.finish(ctx);
    Some(Research {
        token_cost,
        breakthrough,
        keep_tokens,
        charts,
    })
}

/// A tech named in a scenario or a command, by id or name.
pub(super) fn find_tech(techs: &[Tech], name: &str) -> Option<TechId> {
    let n = name.trim().to_lowercase().replace([' ', '-'], "_");
    techs
        .iter()
        .position(|t| t.id == n || t.name.to_lowercase().replace([' ', '-'], "_") == n)
        .map(|i| TechId(i as u8))
}
