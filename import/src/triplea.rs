//! Converter from a TripleA game file (XML) into a warroom layer (TOML files).
//!
//! TripleA's files are a source of board facts: spaces, adjacency, IPC values, owners, canals,
//! starting setups. The converter turns those facts into our own schema (docs/editions.md) and
//! nothing more: TripleA's rule switches, triggers and objectives are not converted, because
//! our editions take their rules from the rulebooks. Unit statistics are emitted only as a
//! skeleton for the edition author to correct.
//!
//! Output is deterministic: spaces, lists and tables are sorted (numbers inside names compare
//! by value), so re-running the converter on the same file yields byte-identical TOML.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use miette::{Diagnostic, NamedSource, SourceSpan};
use roxmltree::{Document, Node, ParsingOptions};
use thiserror::Error;

use super::tomlw::{natural_cmp, Doc, Seg, V};

/// How to convert.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// `layer.name` of the produced layer.
    pub layer_name: String,
    /// Id of the scenario to emit (`[scenarios.ID]`); empty means `"standard"`.
    pub scenario_id: String,
    /// For joined boards: which physical map each space is on, keyed by the TripleA name.
    /// Spaces not listed get `default_map` (or no `map` field when that is empty too).
    pub space_maps: BTreeMap<String, String>,
    pub default_map: String,
    /// Our names for spaces whose TripleA name differs from the rulebook's, keyed by the
    /// TripleA name (sea zones are renamed "N Sea Zone" → "SZ N" without being listed).
    pub rename: BTreeMap<String, String>,
}

impl ImportOptions {
    pub fn new(layer_name: impl Into<String>) -> Self {
        ImportOptions {
            layer_name: layer_name.into(),
            ..Default::default()
        }
    }
}

/// The converted layer: file names and their TOML text, `layer.toml` first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedLayer {
    pub files: Vec<(String, String)>,
}

impl ImportedLayer {
    /// Writes every file into `dir`, creating it if needed.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for (name, text) in &self.files {
            std::fs::write(dir.join(name), text)?;
        }
        Ok(())
    }

    /// The text of one produced file.
    pub fn file(&self, name: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t.as_str())
    }
}

/// What went wrong, for callers that want to branch on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportErrorKind {
    /// The text is not well-formed XML.
    Xml,
    /// An element lacks an attribute the conversion needs.
    MissingAttribute,
    /// An attribute has a value the conversion cannot use (not a number, unknown space, ...).
    BadValue,
    /// The document is XML but not a TripleA game.
    NotAGame,
}

/// A conversion failure, pointing into the XML.
#[derive(Debug, Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(warroom::import::triplea))]
pub struct ImportError {
    pub kind: ImportErrorKind,
    pub message: Box<str>,
    #[source_code]
    src: NamedSource<Arc<str>>,
    #[label("{label}")]
    span: SourceSpan,
    label: &'static str,
}

impl ImportError {
    /// Byte range of the offending spot in the XML.
    pub fn span(&self) -> SourceSpan {
        self.span
    }
}

/// Converts a TripleA game file into a layer.
pub fn convert(xml: &str, source_name: &str, opts: &ImportOptions) -> Result<ImportedLayer, ImportError> {
    let ctx = Ctx { xml, source_name };
    let doc = Document::parse_with_options(
        xml,
        ParsingOptions {
            // TripleA files declare `<!DOCTYPE game SYSTEM "game.dtd">`; the DTD is external
            // and never fetched, so allowing it is harmless.
            allow_dtd: true,
            ..ParsingOptions::default()
        },
    )
    .map_err(|e| {
        let pos = e.pos();
        let offset = offset_of(xml, pos.row, pos.col);
        ctx.error(
            ImportErrorKind::Xml,
            format!("malformed XML: {e}"),
            offset..offset,
            "here",
        )
    })?;
    let model = Model::read(&ctx, &doc, &opts.rename)?;
    Ok(model.emit(opts, source_name))
}

struct Ctx<'a> {
    xml: &'a str,
    source_name: &'a str,
}

impl Ctx<'_> {
    fn error(
        &self,
        kind: ImportErrorKind,
        message: String,
        range: std::ops::Range<usize>,
        label: &'static str,
    ) -> ImportError {
        let start = range.start.min(self.xml.len());
        let end = range.end.clamp(start, self.xml.len());
        ImportError {
            kind,
            message: message.into(),
            src: NamedSource::new(self.source_name, Arc::from(self.xml)),
            span: SourceSpan::from(start..end),
            label,
        }
    }

    fn attr<'n>(&self, node: Node<'n, '_>, name: &str) -> Result<&'n str, ImportError> {
        node.attribute(name).ok_or_else(|| {
            self.error(
                ImportErrorKind::MissingAttribute,
                format!("<{}> is missing the attribute `{name}`", node.tag_name().name()),
                node.range(),
                "this element",
            )
        })
    }

    fn int_attr(&self, node: Node<'_, '_>, name: &str) -> Result<i64, ImportError> {
        let text = self.attr(node, name)?;
        text.trim()
            .parse::<i64>()
            .map_err(|_| self.bad_attr(node, name, format!("`{name}` must be a whole number")))
    }

    fn bad_attr(&self, node: Node<'_, '_>, name: &str, message: String) -> ImportError {
        let range = node
            .attribute_node(name)
            .map(|a| a.range_value())
            .unwrap_or_else(|| node.range());
        self.error(ImportErrorKind::BadValue, message, range, "this value")
    }
}

/// Byte offset of a 1-based (row, column-in-characters) position.
fn offset_of(text: &str, row: u32, col: u32) -> usize {
    let mut offset = 0usize;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row as usize {
            let chars = col.saturating_sub(1) as usize;
            let within = line
                .char_indices()
                .nth(chars)
                .map(|(b, _)| b)
                .unwrap_or(line.len());
            return offset + within;
        }
        offset += line.len();
    }
    text.len()
}

// ---------------------------------------------------------------------------------------------
// Name tables

/// TripleA player name → our power name.
const POWERS: &[(&str, &str)] = &[
    ("Germans", "Germany"),
    ("Russians", "Soviet Union"),
    ("British", "United Kingdom"),
    ("Americans", "United States"),
    ("Japanese", "Japan"),
    ("Italians", "Italy"),
    ("Chinese", "China"),
    ("French", "France"),
    ("ANZAC", "ANZAC"),
    ("UK_Pacific", "UK Pacific"),
    ("Dutch", "Netherlands"),
];

/// Our power name → (abbrev, colour) for the terminal.
const POWER_LOOKS: &[(&str, &str, &str)] = &[
    ("Germany", "ger", "#7f7f7f"),
    ("Soviet Union", "sov", "#b22222"),
    ("United Kingdom", "uk", "#d2b48c"),
    ("United States", "us", "#556b2f"),
    ("Japan", "jap", "#ff8c00"),
    ("Italy", "ita", "#8b5a2b"),
    ("China", "chn", "#6b8e23"),
    ("France", "fra", "#4169e1"),
    ("ANZAC", "anz", "#a0522d"),
    ("UK Pacific", "ukp", "#deb887"),
    ("Netherlands", "ned", "#ff7f50"),
];

/// Powers that are a second economy of another power, played on its turn.
const ECONOMY_OF: &[(&str, &str)] = &[("UK Pacific", "United Kingdom")];

/// TripleA unit name → (our id, display name).
const UNITS: &[(&str, &str, &str)] = &[
    ("infantry", "infantry", "Infantry"),
    ("armour", "tank", "Tank"),
    ("artillery", "artillery", "Artillery"),
    ("mech_infantry", "mech_infantry", "Mechanized Infantry"),
    ("aaGun", "aa_gun", "AA Gun"),
    ("fighter", "fighter", "Fighter"),
    ("tactical_bomber", "tactical_bomber", "Tactical Bomber"),
    ("bomber", "bomber", "Bomber"),
    ("transport", "transport", "Transport"),
    ("submarine", "submarine", "Submarine"),
    ("destroyer", "destroyer", "Destroyer"),
    ("cruiser", "cruiser", "Cruiser"),
    ("carrier", "aircraft_carrier", "Aircraft Carrier"),
    ("battleship", "battleship", "Battleship"),
    ("factory", "industrial_complex", "Industrial Complex"),
    (
        "factory_major",
        "major_industrial_complex",
        "Major Industrial Complex",
    ),
    (
        "factory_minor",
        "minor_industrial_complex",
        "Minor Industrial Complex",
    ),
    (
        "factory_upgrade",
        "industrial_complex_upgrade",
        "Industrial Complex Upgrade",
    ),
    ("airfield", "air_base", "Air Base"),
    ("harbour", "naval_base", "Naval Base"),
];

/// Territory → city name, for the victory cities of the published boards. TripleA marks a
/// territory as a victory city but does not name the city; unknown ones keep the territory name.
const CITIES: &[(&str, &str)] = &[
    ("Germany", "Berlin"),
    ("Russia", "Moscow"),
    ("United Kingdom", "London"),
    ("Eastern United States", "Washington"),
    ("Japan", "Tokyo"),
    ("Italy", "Rome"),
    ("Southern Italy", "Rome"),
    ("France", "Paris"),
    ("Poland", "Warsaw"),
    ("Western United States", "San Francisco"),
    ("Hawaiian Islands", "Honolulu"),
    ("Philippine Islands", "Manila"),
    ("Philippines", "Manila"),
    ("India", "Calcutta"),
    ("Australia", "Sydney"),
    ("New South Wales", "Sydney"),
    ("Kwangtung", "Hong Kong"),
    ("Kiangsu", "Shanghai"),
    ("Eastern Canada", "Ottawa"),
    ("Ontario", "Ottawa"),
    ("Karelia S.S.R.", "Leningrad"),
    ("Novgorod", "Leningrad"),
    ("Caucasus", "Stalingrad"),
    ("Volgograd", "Stalingrad"),
    ("Egypt", "Cairo"),
];

fn power_name(xml_name: &str) -> String {
    POWERS
        .iter()
        .find(|(x, _)| *x == xml_name)
        .map(|(_, ours)| ours.to_string())
        .unwrap_or_else(|| xml_name.replace('_', " "))
}

/// TripleA models neutral countries as pseudo-players; we model them as neutral territories.
fn neutral_kind(xml_player: &str) -> Option<&'static str> {
    match xml_player {
        "Neutral_Axis" => Some("pro_axis"),
        "Neutral_Allies" => Some("pro_allies"),
        "Mongolians" => Some("strict"),
        p if p.starts_with("Neutral") => Some("strict"),
        _ => None,
    }
}

fn unit_id(xml_name: &str) -> String {
    UNITS
        .iter()
        .find(|(x, _, _)| *x == xml_name)
        .map(|(_, id, _)| id.to_string())
        .unwrap_or_else(|| snake_case(xml_name))
}

fn unit_display(xml_name: &str) -> String {
    UNITS
        .iter()
        .find(|(x, _, _)| *x == xml_name)
        .map(|(_, _, d)| d.to_string())
        .unwrap_or_else(|| {
            let s = snake_case(xml_name).replace('_', " ");
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => s,
            }
        })
}

/// `heavyArmour` / `Heavy Armour` / `heavy-armour` → `heavy_armour`.
pub fn snake_case(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower_or_digit = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower_or_digit && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower_or_digit = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            prev_lower_or_digit = false;
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() {
        "unit".to_string()
    } else {
        out
    }
}

/// "5 Sea Zone" → "SZ 5"; other names are kept.
pub fn space_name(xml_name: &str) -> String {
    if let Some(num) = xml_name.strip_suffix(" Sea Zone") {
        if !num.is_empty() && num.chars().all(|c| c.is_ascii_digit()) {
            return format!("SZ {num}");
        }
    }
    if let Some(num) = xml_name.strip_prefix("Sea Zone ") {
        if !num.is_empty() && num.chars().all(|c| c.is_ascii_digit()) {
            return format!("SZ {num}");
        }
    }
    xml_name.to_string()
}

// ---------------------------------------------------------------------------------------------
// The facts read from the XML

#[derive(Default)]
struct Space {
    xml_name: String,
    /// Our name for it.
    name: String,
    water: bool,
    ipc: i64,
    initial_owner: Option<String>,
    original_owner: Option<String>,
    capital: bool,
    victory_city: bool,
    impassable: bool,
    convoy: bool,
    adjacent: BTreeSet<usize>,
}

impl Space {
    /// Original owner: TripleA's `originalOwner` when given, else the owner at the start.
    fn original_owner(&self) -> Option<&str> {
        self.original_owner.as_deref().or(self.initial_owner.as_deref())
    }
}

struct Player {
    xml_name: String,
    side: Option<String>,
}

#[derive(Default)]
struct Canal {
    zones: BTreeSet<usize>,
    land: Vec<String>,
}

struct UnitType {
    xml_name: String,
    options: Vec<(String, String)>,
    cost: Option<i64>,
}

impl UnitType {
    fn opt(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    fn flag(&self, name: &str) -> bool {
        self.opt(name) == Some("true")
    }
    fn int(&self, name: &str) -> Option<i64> {
        self.opt(name).and_then(|v| v.trim().parse().ok())
    }
    fn is_facility(&self) -> bool {
        self.flag("isFactory") || self.flag("isConstruction")
    }
}

struct Model {
    title: String,
    spaces: Vec<Space>,
    by_name: HashMap<String, usize>,
    players: Vec<Player>,
    canals: BTreeMap<String, Canal>,
    units: Vec<UnitType>,
    resources: Vec<(String, i64)>,
    /// (space index, xml player, xml unit, quantity)
    placements: Vec<(usize, String, String, i64)>,
}

fn child<'a, 'i>(node: Node<'a, 'i>, tag: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|c| c.has_tag_name(tag))
}

fn children<'a, 'i: 'a>(node: Node<'a, 'i>, tag: &'a str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(move |c| c.has_tag_name(tag))
}

impl Model {
    fn read(
        ctx: &Ctx<'_>,
        doc: &Document<'_>,
        rename: &BTreeMap<String, String>,
    ) -> Result<Model, ImportError> {
        let root = doc.root_element();
        if !root.has_tag_name("game") {
            return Err(ctx.error(
                ImportErrorKind::NotAGame,
                format!(
                    "expected a TripleA <game> document, found <{}>",
                    root.tag_name().name()
                ),
                root.range(),
                "root element",
            ));
        }
        let title = child(root, "info")
            .and_then(|i| i.attribute("name"))
            .unwrap_or("Imported TripleA map")
            .to_string();

        let mut model = Model {
            title,
            spaces: Vec::new(),
            by_name: HashMap::new(),
            players: Vec::new(),
            canals: BTreeMap::new(),
            units: Vec::new(),
            resources: Vec::new(),
            placements: Vec::new(),
        };

        let map = child(root, "map").ok_or_else(|| {
            ctx.error(
                ImportErrorKind::NotAGame,
                "the game has no <map>".into(),
                root.range(),
                "in this game",
            )
        })?;
        for t in children(map, "territory") {
            let name = ctx.attr(t, "name")?;
            if model.by_name.contains_key(name) {
                return Err(ctx.bad_attr(t, "name", format!("territory `{name}` is declared twice")));
            }
            model.by_name.insert(name.to_string(), model.spaces.len());
            model.spaces.push(Space {
                xml_name: name.to_string(),
                name: rename.get(name).cloned().unwrap_or_else(|| space_name(name)),
                water: t.attribute("water") == Some("true"),
                ..Space::default()
            });
        }
        for c in children(map, "connection") {
            let a = model.space_index(ctx, c, "t1")?;
            let b = model.space_index(ctx, c, "t2")?;
            if a == b {
                continue;
            }
            model.spaces[a].adjacent.insert(b);
            model.spaces[b].adjacent.insert(a);
        }

        if let Some(list) = child(root, "playerList") {
            for p in children(list, "player") {
                model.players.push(Player {
                    xml_name: ctx.attr(p, "name")?.to_string(),
                    side: None,
                });
            }
            for a in children(list, "alliance") {
                let player = ctx.attr(a, "player")?;
                let alliance = ctx.attr(a, "alliance")?;
                match model.players.iter_mut().find(|p| p.xml_name == player) {
                    Some(p) => {
                        if p.side.is_none() {
                            p.side = Some(alliance.to_string());
                        }
                    }
                    None => {
                        return Err(ctx.bad_attr(
                            a,
                            "player",
                            format!("alliance names unknown player `{player}`"),
                        ))
                    }
                }
            }
        }

        if let Some(list) = child(root, "unitList") {
            for u in children(list, "unit") {
                model.units.push(UnitType {
                    xml_name: ctx.attr(u, "name")?.to_string(),
                    options: Vec::new(),
                    cost: None,
                });
            }
        }

        if let Some(production) = child(root, "production") {
            for rule in children(production, "productionRule") {
                let cost = children(rule, "cost")
                    .find(|c| c.attribute("resource") == Some("PUs"))
                    .map(|c| ctx.int_attr(c, "quantity"))
                    .transpose()?;
                let Some(result) = child(rule, "result") else {
                    continue;
                };
                let target = ctx.attr(result, "resourceOrUnit")?;
                let qty = ctx.int_attr(result, "quantity")?;
                if let (Some(cost), Some(unit)) =
                    (cost, model.units.iter_mut().find(|u| u.xml_name == target))
                {
                    // A rule that buys several at once gives the per-unit price.
                    if unit.cost.is_none() && qty > 0 {
                        unit.cost = Some(cost / qty);
                    }
                }
            }
        }

        if let Some(list) = child(root, "attachmentList") {
            for a in children(list, "attachment") {
                model.read_attachment(ctx, a)?;
            }
        }

        if let Some(init) = child(root, "initialize") {
            if let Some(owners) = child(init, "ownerInitialize") {
                for o in children(owners, "territoryOwner") {
                    let i = model.space_index(ctx, o, "territory")?;
                    let owner = ctx.attr(o, "owner")?;
                    model.check_player(ctx, o, "owner")?;
                    model.spaces[i].initial_owner = Some(owner.to_string());
                }
            }
            if let Some(units) = child(init, "unitInitialize") {
                for p in children(units, "unitPlacement") {
                    let i = model.space_index(ctx, p, "territory")?;
                    let unit = ctx.attr(p, "unitType")?;
                    let qty = ctx.int_attr(p, "quantity")?;
                    // Units without an owner belong to nobody in TripleA (e.g. scenery); skip.
                    let Some(owner) = p.attribute("owner") else {
                        continue;
                    };
                    model.check_player(ctx, p, "owner")?;
                    if qty > 0 {
                        model
                            .placements
                            .push((i, owner.to_string(), unit.to_string(), qty));
                    }
                }
            }
            if let Some(res) = child(init, "resourceInitialize") {
                for r in children(res, "resourceGiven") {
                    if ctx.attr(r, "resource")? != "PUs" {
                        continue;
                    }
                    let player = ctx.attr(r, "player")?;
                    model.check_player(ctx, r, "player")?;
                    let qty = ctx.int_attr(r, "quantity")?;
                    model.resources.push((player.to_string(), qty));
                }
            }
        }
        Ok(model)
    }

    fn space_index(&self, ctx: &Ctx<'_>, node: Node<'_, '_>, attr: &str) -> Result<usize, ImportError> {
        let name = ctx.attr(node, attr)?;
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| ctx.bad_attr(node, attr, format!("`{name}` is not a territory of this map")))
    }

    fn check_player(&self, ctx: &Ctx<'_>, node: Node<'_, '_>, attr: &str) -> Result<(), ImportError> {
        let name = ctx.attr(node, attr)?;
        if self.players.iter().any(|p| p.xml_name == name) {
            Ok(())
        } else {
            Err(ctx.bad_attr(node, attr, format!("`{name}` is not a player of this game")))
        }
    }

    fn read_attachment(&mut self, ctx: &Ctx<'_>, a: Node<'_, '_>) -> Result<(), ImportError> {
        let class = a.attribute("javaClass").unwrap_or("");
        let class = class.rsplit('.').next().unwrap_or(class);
        let options = || {
            children(a, "option")
                .filter_map(|o| Some((o, o.attribute("name")?, o.attribute("value").unwrap_or(""))))
        };
        match class {
            "TerritoryAttachment" => {
                let i = self.space_index(ctx, a, "attachTo")?;
                for (o, name, value) in options() {
                    let space = &mut self.spaces[i];
                    match name {
                        "production" => {
                            space.ipc = value.trim().parse().map_err(|_| {
                                ctx.bad_attr(o, "value", "`production` must be a whole number".into())
                            })?
                        }
                        "capital" => space.capital = true,
                        "victoryCity" => space.victory_city = value != "0" && value != "false",
                        "isImpassable" => space.impassable = value == "true",
                        "blockadeZone" => space.convoy = value == "true",
                        "originalOwner" => space.original_owner = Some(value.to_string()),
                        _ => {}
                    }
                }
            }
            "CanalAttachment" => {
                let i = self.space_index(ctx, a, "attachTo")?;
                let mut canal_name = None;
                let mut land = Vec::new();
                for (o, name, value) in options() {
                    match name {
                        "canalName" => canal_name = Some(value.to_string()),
                        "landTerritories" => {
                            for t in value.split(':').filter(|t| !t.is_empty()) {
                                let Some(&j) = self.by_name.get(t) else {
                                    return Err(ctx.bad_attr(
                                        o,
                                        "value",
                                        format!("`{t}` is not a territory of this map"),
                                    ));
                                };
                                land.push(self.spaces[j].name.clone());
                            }
                        }
                        _ => {}
                    }
                }
                let Some(canal_name) = canal_name else {
                    return Err(ctx.error(
                        ImportErrorKind::MissingAttribute,
                        "canal attachment has no `canalName` option".into(),
                        a.range(),
                        "this attachment",
                    ));
                };
                let canal = self.canals.entry(canal_name).or_default();
                canal.zones.insert(i);
                for t in land {
                    if !canal.land.contains(&t) {
                        canal.land.push(t);
                    }
                }
            }
            "UnitAttachment" => {
                let target = ctx.attr(a, "attachTo")?;
                let idx = match self.units.iter().position(|u| u.xml_name == target) {
                    Some(i) => i,
                    None => {
                        self.units.push(UnitType {
                            xml_name: target.to_string(),
                            options: Vec::new(),
                            cost: None,
                        });
                        self.units.len() - 1
                    }
                };
                for (_, name, value) in options() {
                    self.units[idx]
                        .options
                        .push((name.to_string(), value.to_string()));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn is_neutral_player(&self, xml: &str) -> bool {
        neutral_kind(xml).is_some()
    }

    /// Real powers in playerList order.
    fn powers(&self) -> impl Iterator<Item = &Player> {
        self.players
            .iter()
            .filter(|p| !self.is_neutral_player(&p.xml_name))
    }

    // -----------------------------------------------------------------------------------------
    // Emitting

    fn emit(&self, opts: &ImportOptions, source_name: &str) -> ImportedLayer {
        let scenario = if opts.scenario_id.is_empty() {
            "standard"
        } else {
            opts.scenario_id.as_str()
        };
        let layer_name = if opts.layer_name.is_empty() {
            "imported"
        } else {
            opts.layer_name.as_str()
        };
        let header = format!(
            "Converted by `warroom import triplea` from {source_name}.\n\
             Facts only; check them against the rulebook before relying on them."
        );
        let files = ["powers.toml", "units.toml", "board.toml", "scenarios.toml"];

        let mut layer = Doc::new();
        layer.comment(&header);
        layer.table(&[Seg::Key("layer")]);
        layer.kv("name", &V::Str(layer_name.to_string()));
        layer.kv("kind", &V::Str("edition".into()));
        layer.kv("title", &V::Str(self.title.clone()));
        layer.kv("files", &V::Strs(files.iter().map(|f| f.to_string()).collect()));
        layer.kv("default_scenario", &V::Str(scenario.to_string()));

        ImportedLayer {
            files: vec![
                ("layer.toml".into(), layer.finish()),
                ("powers.toml".into(), self.emit_powers(&header)),
                ("units.toml".into(), self.emit_units(&header)),
                ("board.toml".into(), self.emit_board(&header, opts)),
                ("scenarios.toml".into(), self.emit_scenario(&header, scenario)),
            ],
        }
    }

    fn emit_powers(&self, header: &str) -> String {
        let mut d = Doc::new();
        d.comment(header);
        for p in self.powers() {
            let name = power_name(&p.xml_name);
            d.table(&[Seg::Key("powers"), Seg::Name(&name)]);
            if let Some(side) = &p.side {
                d.kv("side", &V::Str(side.clone()));
            }
            let (abbrev, colour) = POWER_LOOKS
                .iter()
                .find(|(n, _, _)| *n == name)
                .map(|(_, a, c)| (a.to_string(), c.to_string()))
                .unwrap_or_else(|| {
                    let a: String = snake_case(&name).chars().filter(|c| *c != '_').take(3).collect();
                    (a, "#888888".to_string())
                });
            d.kv("colour", &V::Str(colour));
            d.kv("abbrev", &V::Str(abbrev));
            if let Some((_, of)) = ECONOMY_OF.iter().find(|(n, _)| *n == name) {
                d.kv("economy_of", &V::Str(of.to_string()));
            }
        }
        d.finish()
    }

    fn emit_units(&self, header: &str) -> String {
        let mut d = Doc::new();
        d.comment(header);
        d.comment("Skeleton from TripleA's unit attachments: correct costs, values and abilities from the rulebook.");
        for u in self.units.iter().filter(|u| !u.is_facility()) {
            let id = unit_id(&u.xml_name);
            d.table(&[Seg::Key("units"), Seg::Key(&id)]);
            d.kv("name", &V::Str(unit_display(&u.xml_name)));
            let domain = if u.flag("isSea") {
                "sea"
            } else if u.flag("isAir") {
                "air"
            } else {
                "land"
            };
            d.kv("domain", &V::Str(domain.into()));
            d.kv("cost", &V::Int(u.cost.unwrap_or(0)));
            d.kv("attack", &V::Int(u.int("attack").unwrap_or(0)));
            d.kv("defense", &V::Int(u.int("defense").unwrap_or(0)));
            d.kv("move", &V::Int(u.int("movement").unwrap_or(0)));
            if let Some(h) = u.int("hitPoints").filter(|h| *h != 1) {
                d.kv("hits", &V::Int(h));
            }
            let mut tags = Vec::new();
            if u.flag("isInfantry") || u.flag("artillerySupportable") {
                tags.push("infantry".to_string());
            }
            if u.flag("isSub") {
                tags.push("submarine".to_string());
            }
            if u.flag("isDestroyer") {
                tags.push("anti_sub".to_string());
            }
            let transport = domain == "sea" && u.int("transportCapacity").unwrap_or(0) > 0;
            let warship = domain == "sea" && !transport;
            if warship && !u.flag("isSub") {
                tags.push("surface_warship".to_string());
            }
            if warship && u.int("hitPoints").unwrap_or(1) > 1 {
                tags.push("capital_ship".to_string());
            }
            if !tags.is_empty() {
                d.kv("tags", &V::Strs(tags));
            }
            if domain == "land" && (u.flag("isAA") || u.flag("isAAforCombatOnly")) {
                d.kv("can_capture", &V::Bool(false));
            }
            if u.flag("canBlitz") {
                d.kv("blitz", &V::Bool(true));
            }
            if u.flag("canNotMoveDuringCombatMove") || u.flag("isAA") {
                d.kv("combat_move", &V::Bool(false));
            }
            if domain == "land" {
                if let Some(c) = u.int("transportCost") {
                    d.kv("transport_cost", &V::Int(c));
                }
            }
            if transport {
                d.kv(
                    "transport_capacity",
                    &V::Int(u.int("transportCapacity").unwrap_or(0)),
                );
                d.kv("defenseless", &V::Bool(true));
                d.kv("casualty_last", &V::Bool(true));
                d.kv("blocks_movement", &V::Bool(false));
            }
            if let Some(c) = u.int("carrierCost") {
                d.kv("carrier_cost", &V::Int(c));
            }
            if let Some(c) = u.int("carrierCapacity") {
                d.kv("carrier_capacity", &V::Int(c));
            }
            if u.flag("isSub") {
                d.kv("first_strike", &V::Bool(true));
                d.kv("submerge", &V::Bool(true));
                d.kv("negated_by", &V::Strs(vec!["anti_sub".into()]));
                d.kv("cannot_target", &V::Strs(vec!["air".into()]));
                d.kv("evades_unless", &V::Str("anti_sub".into()));
                d.kv("blocks_movement", &V::Bool(false));
            }
            if u.flag("isDestroyer") {
                d.kv("anti_sub", &V::Bool(true));
            }
            if u.flag("canBombard") {
                d.kv("bombard", &V::Int(u.int("attack").unwrap_or(0)));
            }
            if u.flag("isStrategicBomber") {
                d.kv("bombing_dice", &V::Int(1));
            }
            if u.flag("artillery") {
                d.kv(
                    "support",
                    &V::Tables(vec![vec![
                        ("tags".into(), V::Strs(vec!["infantry".into()])),
                        ("attack".into(), V::Int(1)),
                        ("defense".into(), V::Int(0)),
                        ("count".into(), V::Int(1)),
                    ]]),
                );
            }
            if u.flag("isAA") || u.flag("isAAforCombatOnly") {
                // TripleA's maxAAattacks is the cap per gun; -1 (or absent) means one die per
                // attacking aircraft with no cap, which is our default when max_dice is absent.
                let mut aa = vec![("hit".into(), V::Int(1))];
                if let Some(cap) = u.int("maxAAattacks").filter(|s| *s > 0) {
                    aa.push(("max_dice".into(), V::Int(cap)));
                }
                aa.push(("dice_per_target".into(), V::Int(1)));
                aa.push(("targets".into(), V::Strs(vec!["air".into()])));
                aa.push(("first_round_only".into(), V::Bool(true)));
                d.kv("anti_air", &V::Inline(aa));
            }
        }
        for u in self.units.iter().filter(|u| u.is_facility()) {
            let id = unit_id(&u.xml_name);
            d.table(&[Seg::Key("facilities"), Seg::Key(&id)]);
            d.kv("name", &V::Str(unit_display(&u.xml_name)));
            if let Some(c) = u.cost {
                d.kv("cost", &V::Int(c));
            }
            if u.flag("isFactory") {
                match u.int("canProduceXUnits").filter(|n| *n >= 0) {
                    Some(n) => d.kv("production", &V::Int(n)),
                    None => d.kv("production", &V::Str("territory".into())),
                }
            }
            if let Some(m) = u.int("maxDamage") {
                d.kv("max_damage", &V::Int(m));
            }
            if let Some(r) = u.int("canOnlyBePlacedInTerritoryValuedAtX") {
                d.kv("requires_ipc", &V::Int(r));
            }
            if u.flag("isAirBase") {
                d.kv("air_move_bonus", &V::Int(1));
            }
            if u.opt("repairsUnits").is_some() {
                d.kv("sea_move_bonus", &V::Int(1));
            }
        }
        d.finish()
    }

    fn space_order(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.spaces.len()).collect();
        idx.sort_by(|&a, &b| natural_cmp(&self.spaces[a].name, &self.spaces[b].name));
        idx
    }

    fn names(&self, idx: &BTreeSet<usize>) -> Vec<String> {
        let mut v: Vec<String> = idx.iter().map(|&i| self.spaces[i].name.clone()).collect();
        v.sort_by(|a, b| natural_cmp(a, b));
        v.dedup();
        v
    }

    fn neutral_of(&self, s: &Space) -> Option<&'static str> {
        if s.water {
            return None;
        }
        if s.impassable {
            return Some("impassable");
        }
        s.original_owner().and_then(neutral_kind)
    }

    fn emit_board(&self, header: &str, opts: &ImportOptions) -> String {
        let mut d = Doc::new();
        d.comment(header);
        let order = self.space_order();
        let map_of = |s: &Space| -> Option<String> {
            opts.space_maps
                .get(&s.xml_name)
                .cloned()
                .or_else(|| (!opts.default_map.is_empty()).then(|| opts.default_map.clone()))
        };
        // Standing armies of neutrals come from units TripleA gives to its neutral pseudo-players.
        let mut armies: BTreeMap<usize, BTreeMap<String, i64>> = BTreeMap::new();
        for (i, owner, unit, qty) in &self.placements {
            if self.is_neutral_player(owner) {
                *armies.entry(*i).or_default().entry(unit_id(unit)).or_default() += qty;
            }
        }
        for &i in order.iter().filter(|&&i| !self.spaces[i].water) {
            let s = &self.spaces[i];
            let name = s.name.clone();
            d.table(&[Seg::Key("territories"), Seg::Name(&name)]);
            d.kv("ipc", &V::Int(s.ipc));
            let neutral = self.neutral_of(s);
            if neutral.is_none() {
                if let Some(o) = s.original_owner() {
                    d.kv("owner", &V::Str(power_name(o)));
                }
                if s.capital {
                    d.kv("capital", &V::Bool(true));
                }
            }
            if s.victory_city {
                let city = CITIES
                    .iter()
                    .find(|(t, _)| *t == s.xml_name)
                    .map(|(_, c)| c.to_string())
                    .unwrap_or_else(|| name.clone());
                d.kv("victory_city", &V::Str(city));
            }
            // An island is a territory entirely inside one sea zone (1941 and Anniversary
            // rulebooks); larger island territories that touch several zones are left to the
            // edition author, since the 1940 rulebooks and Q&A disagree on those.
            let sea_neighbours = s.adjacent.iter().filter(|&&j| self.spaces[j].water).count();
            if sea_neighbours == 1 && s.adjacent.len() == 1 {
                d.kv("island", &V::Bool(true));
            }
            if let Some(kind) = neutral {
                d.kv("neutral", &V::Str(kind.into()));
            }
            if let Some(army) = armies.get(&i) {
                d.kv(
                    "standing_army",
                    &V::Inline(army.iter().map(|(k, v)| (k.clone(), V::Int(*v))).collect()),
                );
            }
            if let Some(m) = map_of(s) {
                d.kv("map", &V::Str(m));
            }
            d.kv("adjacent", &V::Strs(self.names(&s.adjacent)));
        }
        for &i in order.iter().filter(|&&i| self.spaces[i].water) {
            let s = &self.spaces[i];
            let name = s.name.clone();
            d.table(&[Seg::Key("sea_zones"), Seg::Name(&name)]);
            if s.convoy {
                d.kv("convoy", &V::Bool(true));
            }
            if let Some(m) = map_of(s) {
                d.kv("map", &V::Str(m));
            }
            d.kv("adjacent", &V::Strs(self.names(&s.adjacent)));
        }
        for (name, canal) in &self.canals {
            d.table(&[Seg::Key("canals"), Seg::Name(name)]);
            // TripleA has no canal/strait distinction; a canal cut through land is named so.
            let kind = if name.to_ascii_lowercase().contains("canal") {
                "canal"
            } else {
                "strait"
            };
            d.kv("kind", &V::Str(kind.into()));
            d.kv("connects", &V::Strs(self.names(&canal.zones)));
            d.kv("controlled_by", &V::Strs(canal.land.clone()));
        }
        d.finish()
    }

    fn emit_scenario(&self, header: &str, id: &str) -> String {
        let mut d = Doc::new();
        d.comment(header);
        d.table(&[Seg::Key("scenarios"), Seg::Name(id)]);
        d.kv("title", &V::Str(self.title.clone()));
        let order: Vec<String> = self
            .powers()
            .map(|p| power_name(&p.xml_name))
            .filter(|n| !ECONOMY_OF.iter().any(|(e, _)| e == n))
            .collect();
        d.kv("turn_order", &V::Strs(order));

        d.table(&[Seg::Key("scenarios"), Seg::Name(id), Seg::Key("ipcs")]);
        for p in self.powers() {
            if let Some((_, q)) = self.resources.iter().find(|(x, _)| *x == p.xml_name) {
                d.kv(&power_name(&p.xml_name), &V::Int(*q));
            }
        }

        let mut control = Vec::new();
        for &i in &self.space_order() {
            let s = &self.spaces[i];
            if s.water || self.neutral_of(s).is_some() {
                continue;
            }
            if let (Some(now), Some(orig)) = (s.initial_owner.as_deref(), s.original_owner()) {
                if now != orig && !self.is_neutral_player(now) {
                    control.push((s.name.clone(), power_name(now)));
                }
            }
        }
        if !control.is_empty() {
            d.table(&[Seg::Key("scenarios"), Seg::Name(id), Seg::Key("control")]);
            for (space, owner) in control {
                d.kv(&space, &V::Str(owner));
            }
        }

        // Group by space (board order), then owner (playerList order), then unit (unitList
        // order, which lists land, air, sea and facilities in the map author's order).
        let unit_rank = |u: &str| {
            self.units
                .iter()
                .position(|t| t.xml_name == u)
                .unwrap_or(usize::MAX)
        };
        for &i in &self.space_order() {
            for p in self.powers() {
                let mut units: BTreeMap<(usize, String), i64> = BTreeMap::new();
                for (_, _, unit, qty) in self
                    .placements
                    .iter()
                    .filter(|(j, o, _, _)| *j == i && *o == p.xml_name)
                {
                    *units.entry((unit_rank(unit), unit_id(unit))).or_default() += qty;
                }
                if units.is_empty() {
                    continue;
                }
                let space = self.spaces[i].name.clone();
                let owner = power_name(&p.xml_name);
                d.table(&[
                    Seg::Key("scenarios"),
                    Seg::Name(id),
                    Seg::Key("setup"),
                    Seg::Name(&space),
                    Seg::Name(&owner),
                ]);
                for ((_, unit), qty) in units {
                    d.kv(&unit, &V::Int(qty));
                }
            }
        }
        d.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A made-up two-island map, shared with the CLI test of `warroom import`.
    const SMALL: &str = include_str!("../../tests/fixtures/import/test-islands.xml");

    fn parse(layer: &ImportedLayer, file: &str) -> toml::Table {
        toml::from_str(layer.file(file).expect("file present")).expect("valid TOML")
    }

    fn convert_small() -> ImportedLayer {
        let mut opts = ImportOptions::new("test");
        opts.scenario_id = "1940".into();
        convert(SMALL, "small.xml", &opts).expect("converts")
    }

    #[test]
    fn converts_board_facts() {
        let layer = convert_small();
        let board = parse(&layer, "board.toml");
        let north = &board["territories"]["Northland"];
        assert_eq!(north["ipc"].as_integer(), Some(5));
        assert_eq!(north["owner"].as_str(), Some("Germany"));
        assert_eq!(north["capital"].as_bool(), Some(true));
        assert_eq!(north["victory_city"].as_str(), Some("Northland"));
        assert_eq!(
            board["territories"]["Southland"]["owner"].as_str(),
            Some("Soviet Union")
        );
        assert_eq!(board["territories"]["Rock"]["island"].as_bool(), Some(true));
        assert!(board["territories"]["Southland"].get("island").is_none());
        let swamp = &board["territories"]["Swamp"];
        assert_eq!(swamp["neutral"].as_str(), Some("impassable"));
        assert!(swamp.get("owner").is_none());
        let free = &board["territories"]["Freeport"];
        assert_eq!(free["neutral"].as_str(), Some("strict"));
        assert_eq!(free["standing_army"]["infantry"].as_integer(), Some(3));
        let canal = &board["canals"]["Test Canal"];
        assert_eq!(canal["kind"].as_str(), Some("canal"));
        let connects: Vec<_> = canal["connects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(connects, ["SZ 1", "SZ 2"]);
    }

    #[test]
    fn adjacency_is_symmetric_and_sorted() {
        let layer = convert_small();
        let board = parse(&layer, "board.toml");
        let adj = |kind: &str, name: &str| -> Vec<String> {
            board[kind][name]["adjacent"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect()
        };
        assert_eq!(adj("sea_zones", "SZ 1"), ["Northland", "SZ 2"]);
        assert_eq!(adj("sea_zones", "SZ 2"), ["Rock", "SZ 1", "Southland"]);
        assert_eq!(
            adj("territories", "Southland"),
            ["Freeport", "Northland", "SZ 2", "Swamp"]
        );
    }

    #[test]
    fn converts_scenario() {
        let layer = convert_small();
        let sc = parse(&layer, "scenarios.toml");
        let s = &sc["scenarios"]["1940"];
        let order: Vec<_> = s["turn_order"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(order, ["Germany", "Soviet Union"]);
        assert_eq!(s["ipcs"]["Soviet Union"].as_integer(), Some(7));
        assert_eq!(s["control"]["Southland"].as_str(), Some("Germany"));
        let north = &s["setup"]["Northland"]["Germany"];
        assert_eq!(north["infantry"].as_integer(), Some(3));
        assert_eq!(north["tank"].as_integer(), Some(1));
        assert_eq!(north["industrial_complex"].as_integer(), Some(1));
        assert_eq!(
            s["setup"]["SZ 2"]["Soviet Union"]["aircraft_carrier"].as_integer(),
            Some(1)
        );
        assert!(
            s["setup"].get("Freeport").is_none(),
            "neutral armies are board data"
        );
    }

    #[test]
    fn converts_powers_units_and_manifest() {
        let layer = convert_small();
        let powers = parse(&layer, "powers.toml");
        assert_eq!(powers["powers"]["Germany"]["side"].as_str(), Some("Axis"));
        assert!(powers["powers"].get("Neutral True").is_none());
        let units = parse(&layer, "units.toml");
        assert_eq!(units["units"]["infantry"]["cost"].as_integer(), Some(3));
        assert_eq!(units["units"]["tank"]["blitz"].as_bool(), Some(true));
        assert_eq!(
            units["facilities"]["industrial_complex"]["production"].as_str(),
            Some("territory")
        );
        let manifest = parse(&layer, "layer.toml");
        assert_eq!(manifest["layer"]["name"].as_str(), Some("test"));
        assert_eq!(manifest["layer"]["default_scenario"].as_str(), Some("1940"));
        assert_eq!(layer.files[0].0, "layer.toml");
    }

    #[test]
    fn output_is_deterministic() {
        assert_eq!(convert_small(), convert_small());
    }

    #[test]
    fn map_tags_are_emitted() {
        let mut opts = ImportOptions::new("joined");
        opts.default_map = "pacific".into();
        opts.space_maps.insert("Northland".into(), "europe".into());
        let layer = convert(SMALL, "small.xml", &opts).unwrap();
        let board = parse(&layer, "board.toml");
        assert_eq!(board["territories"]["Northland"]["map"].as_str(), Some("europe"));
        assert_eq!(board["sea_zones"]["SZ 1"]["map"].as_str(), Some("pacific"));
    }

    #[test]
    fn renames_apply_everywhere() {
        let mut opts = ImportOptions::new("renamed");
        opts.rename.insert("Southland".into(), "Austral Land".into());
        let layer = convert(SMALL, "small.xml", &opts).unwrap();
        let board = parse(&layer, "board.toml");
        assert!(board["territories"].get("Southland").is_none());
        assert_eq!(board["territories"]["Austral Land"]["ipc"].as_integer(), Some(3));
        let north_adj = board["territories"]["Northland"]["adjacent"].as_array().unwrap();
        assert!(north_adj.iter().any(|v| v.as_str() == Some("Austral Land")));
        assert_eq!(
            board["canals"]["Test Canal"]["controlled_by"][0].as_str(),
            Some("Austral Land")
        );
        let sc = parse(&layer, "scenarios.toml");
        assert_eq!(
            sc["scenarios"]["standard"]["control"]["Austral Land"].as_str(),
            Some("Germany")
        );
    }

    #[test]
    fn malformed_xml_is_an_error_with_a_span() {
        let bad = "<game>\n  <map>\n    <territory name=\"A\">\n  </map>\n</game>\n";
        let err = convert(bad, "bad.xml", &ImportOptions::new("x")).unwrap_err();
        assert_eq!(err.kind, ImportErrorKind::Xml);
        let span = err.span();
        assert!(span.offset() > 0 && span.offset() <= bad.len());
        // The diagnostic renders with its source, not just a message.
        let report = miette::Report::new(err);
        assert!(format!("{report:?}").contains("bad.xml"));
    }

    #[test]
    fn missing_attribute_points_at_the_element() {
        let bad = "<game><map><territory name=\"A\"/><connection t1=\"A\"/></map></game>";
        let err = convert(bad, "bad.xml", &ImportOptions::new("x")).unwrap_err();
        assert_eq!(err.kind, ImportErrorKind::MissingAttribute);
        let start = bad.find("<connection").unwrap();
        assert_eq!(err.span().offset(), start);
    }

    #[test]
    fn unknown_territory_points_at_the_value() {
        let bad = "<game><map><territory name=\"A\"/><connection t1=\"A\" t2=\"Nowhere\"/></map></game>";
        let err = convert(bad, "bad.xml", &ImportOptions::new("x")).unwrap_err();
        assert_eq!(err.kind, ImportErrorKind::BadValue);
        assert_eq!(err.span().offset(), bad.find("Nowhere").unwrap());
    }

    #[test]
    fn garbage_never_panics() {
        for input in [
            "",
            "not xml",
            "<a>",
            "<game/>",
            "<game><map/></game>",
            "<?xml?><",
            "\u{feff}<game>",
        ] {
            let _ = convert(input, "x.xml", &ImportOptions::new("x"));
        }
        // An empty but well-formed map converts to an empty layer.
        assert!(convert("<game><map/></game>", "x.xml", &ImportOptions::new("x")).is_ok());
    }

    #[test]
    fn names_are_mapped() {
        assert_eq!(space_name("5 Sea Zone"), "SZ 5");
        assert_eq!(space_name("Sea Zone 12"), "SZ 12");
        assert_eq!(space_name("West Sea Zone"), "West Sea Zone");
        assert_eq!(unit_id("armour"), "tank");
        assert_eq!(unit_id("aaGun"), "aa_gun");
        assert_eq!(unit_id("heavyArmour"), "heavy_armour");
        assert_eq!(unit_id("Super Sub"), "super_sub");
        assert_eq!(power_name("UK_Pacific"), "UK Pacific");
        assert_eq!(power_name("Russians"), "Soviet Union");
    }
}
