//! The immutable rule set: every layer merged, checked and resolved into plain Rust data.
//!
//! Architecture invariant: nothing after [`load`] reads an edition file; a game holds an
//! `Arc<RuleSet>` and the REPL's reload builds a new one.

mod ai;
mod build;
mod combat;
mod commands;
mod players;
mod politics;
pub mod read;
pub mod schema;
mod tech;
mod turn;
mod victory;

pub use commands::{ArgKind, CommandArg, LayerCommand, BUILT_IN_VERBS};

use crate::diag::{Problems, Sources};
use crate::layers::{Layer, LoadRequest};
use crate::tree::{Node, Origin};
use std::collections::HashMap;

pub use ai::AiWeights;
pub use build::build;
pub use combat::{BombardLimit, CombatRules, ConductStep, DiceRule, Step};
pub use players::{Players, Together};
pub use politics::Politics;
pub use tech::{Chart, Paratroopers, Research, Tech, TechId, UnitTechs};
pub use turn::{Guest, Place, Segment, TurnPlan, TurnStep};
pub use victory::{VictoryCheck, VictoryCondition};

macro_rules! id_type {
    ($name:ident, $t:ty) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub $t);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}
id_type!(PowerId, u8);
id_type!(SpaceId, u16);
id_type!(UnitTypeId, u16);
id_type!(FacilityTypeId, u16);
id_type!(PhaseId, u8);

/// The largest whole number a unit, facility, space or rule field may hold, and the most
/// pieces a count may give (a set-up, a scenario file, a command): far above any game's
/// needs, it keeps sums over every piece on the board inside the engine's 32-bit counters,
/// and a slip of the keyboard from asking for billions of pieces.
pub const MAX_COUNT: u32 = 10_000;

/// The most IPCs a treasury may be given, either way (a scenario's `ipcs`, a scenario file's
/// `treasury`, `edit treasury`): incomes added to it for ever stay far from overflowing.
pub const MAX_IPCS: i64 = 1_000_000_000;

#[derive(Clone, Debug)]
pub struct Power {
    pub name: String,
    pub side: String,
    pub colour: Option<String>,
    pub abbrev: Option<String>,
    /// `economy_of`: the power this one is a second economy of (its treasury, income and
    /// purchases; its units and its territories' defence are that power's).
    pub economy_of: Option<PowerId>,
    /// For an economy: the territories that fall under it when its power holds them (sorted).
    pub economy_territories: Vec<SpaceId>,
    /// `confined_to`: the only spaces the power's units may enter, pass or end a move in
    /// (`None`: anywhere).
    pub confined_to: Option<Vec<SpaceId>>,
    /// `cannot_control`: territories the power may take but never holds; taken, they go to
    /// their original owner (a power of its side).
    pub cannot_control: Vec<SpaceId>,
    /// `board_transports`: the power's land units may be loaded onto transports.
    pub board_transports: bool,
    /// `convoy_losses`: the power loses IPCs to convoy disruption.
    pub convoy_losses: bool,
    /// `at_war_off_map`: at war with powers not on the board, so never a neutral power.
    pub at_war_off_map: bool,
    /// `counters`: tokens and counts the power starts with, for rule scripts.
    pub counters: Vec<(String, i64)>,
    /// `mobilize_at`: where the power's new units enter play.
    pub mobilize_at: MobilizeAt,
    pub origin: Origin,
}

/// Where a power's new units enter play (`[powers.NAME] mobilize_at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MobilizeAt {
    /// At its factories, within their production (the usual rule).
    Factories,
    /// Land and air units in any territory the power controls, without a factory or a
    /// production limit; sea units still next to a factory.
    ControlledTerritories,
}

impl Power {
    /// Whether the power's units may enter `space` (`confined_to`).
    pub fn may_enter(&self, space: SpaceId) -> bool {
        self.confined_to.as_ref().is_none_or(|l| l.contains(&space))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseKind {
    Research,
    Purchase,
    CombatMove,
    ConductCombat,
    NoncombatMove,
    Mobilize,
    CollectIncome,
    Script,
}

#[derive(Clone, Debug)]
pub struct Phase {
    pub id: String,
    pub title: String,
    pub kind: PhaseKind,
    pub skipped_without_capital: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Land,
    Sea,
    Air,
}

impl Domain {
    pub fn name(self) -> &'static str {
        match self {
            Domain::Land => "land",
            Domain::Sea => "sea",
            Domain::Air => "air",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repair {
    EndOfCombat,
    NavalBase,
    Never,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnCapture {
    Capture,
    Destroy,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Support {
    pub tags: Vec<String>,
    pub attack: i32,
    pub defense: i32,
    pub count: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AntiAir {
    pub hit: u32,
    /// The most dice one gun rolls in a battle (`None`: one per attacking aircraft, no cap).
    /// Dice rolled = min(guns firing x max_dice, aircraft x dice_per_target).
    pub max_dice: Option<u32>,
    /// How many dice each attacking aircraft can draw.
    pub dice_per_target: u32,
    pub targets: Vec<String>,
    pub first_round_only: bool,
    pub one_per_space: bool,
    pub vs_bombing: bool,
}

#[derive(Clone, Debug)]
pub struct UnitType {
    pub id: String,
    pub name: String,
    pub abbrevs: Vec<String>,
    pub domain: Domain,
    pub cost: u32,
    pub attack: u32,
    pub defense: u32,
    pub movement: u32,
    pub hits: u32,
    pub repair: Repair,
    pub tags: Vec<String>,
    pub can_capture: bool,
    pub blitz: bool,
    pub blitz_with: Option<UnitTypeId>,
    /// Moving paired one-to-one with a unit of this type, its movement is this (mechanized
    /// infantry with tanks).
    pub move_with: Option<(UnitTypeId, u32)>,
    pub combat_move: bool,
    pub transport_cost: Option<u32>,
    pub transport_capacity: u32,
    pub carrier_cost: Option<u32>,
    pub carrier_capacity: u32,
    /// Damaged, it neither launches nor lands air units.
    pub disabled_when_damaged: bool,
    /// May scramble from a territory with an air base.
    pub scramble: bool,
    /// Escorts bombers and intercepts raiders.
    pub intercepts: bool,
    pub first_strike: bool,
    pub submerge: bool,
    pub negated_by: Vec<String>,
    pub anti_sub: bool,
    pub cannot_target: Vec<String>,
    pub evades_unless: Option<String>,
    pub blocks_movement: bool,
    /// May move through hostile sea zones; stops on entering one holding an enemy unit with a
    /// tag in `negated_by` (submarines and destroyers).
    pub stealth_move: bool,
    pub defenseless: bool,
    pub casualty_last: bool,
    pub bombard: u32,
    /// Dice it rolls against an enemy convoy.
    pub convoy_dice: u32,
    pub bombing_dice: u32,
    /// Added to each bombing die's damage (1940: 1d6+2 per strategic bomber).
    pub bombing_bonus: u32,
    /// The facility type ids it may raid (empty: any).
    pub raids: Vec<String>,
    /// Dice each unit rolls when it attacks.
    pub attack_dice: u32,
    /// `best_of`: it rolls this many dice for each one and keeps the best (attacking in a
    /// battle, and its bombing dice in a raid).
    pub best_of: u32,
    /// `air_battle`: what it hits on in a raid's air battle, as escort or interceptor (absent:
    /// `[rules] interception_value`).
    pub air_battle: Option<u8>,
    /// A rocket attack on an enemy facility within `range` spaces, once per turn, in the
    /// bombing-raid step of conduct combat: `dice` dice of damage.
    pub rocket: Option<Rocket>,
    /// Land units it carries by air, moved in the same command as it.
    pub air_transport: Option<AirTransport>,
    pub support: Vec<Support>,
    pub anti_air: Option<AntiAir>,
    pub on_capture: OnCapture,
}

impl UnitType {
    pub fn has_tag(&self, tag: &str) -> bool {
        self.id == tag || self.domain.name() == tag || self.tags.iter().any(|t| t == tag)
    }
}

/// An air unit that carries land units picked in the same move as it, from the space it starts
/// in, and drops them where its move ends: they fight and retreat there as land units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AirTransport {
    /// Tags of the units it carries (a unit type's id, domain or one of its tags).
    pub carries: Vec<String>,
    /// Units it carries at once.
    pub capacity: u32,
    /// Carrying, it stops in the first hostile territory it enters and drops its cargo there.
    pub stop_at_first_hostile: bool,
    /// It may make a strategic bombing raid in a move it carries in (its cargo then attacks the
    /// raided territory); otherwise a carrier makes no raid that turn.
    pub raid: bool,
    /// It carries in noncombat move too (to a friendly territory), not only in combat move.
    pub noncombat: bool,
}

impl AirTransport {
    pub fn carries(&self, t: &UnitType) -> bool {
        t.domain == Domain::Land && self.carries.iter().any(|tag| t.has_tag(tag))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rocket {
    pub range: u32,
    pub dice: u32,
    /// `over_neutrals`: the path to the target may pass neutral territories.
    pub over_neutrals: bool,
}

/// A quantity that is either fixed or derived from the territory's IPC value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    Fixed(u32),
    Territory,
    TwiceTerritory,
}

impl Amount {
    pub fn resolve(self, territory_ipc: u32) -> u32 {
        match self {
            Amount::Fixed(n) => n,
            Amount::Territory => territory_ipc,
            Amount::TwiceTerritory => territory_ipc * 2,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FacilityCapture {
    Capture,
    Destroy,
    Downgrade(FacilityTypeId),
}

#[derive(Clone, Debug)]
pub struct FacilityType {
    pub id: String,
    pub name: String,
    pub abbrevs: Vec<String>,
    pub cost: Option<u32>,
    pub production: Amount,
    pub max_damage: Amount,
    pub requires_ipc: u32,
    /// May be built on an island.
    pub on_islands: bool,
    /// Built only in a territory the power originally held.
    pub original_only: bool,
    /// Built only in a territory bordering a sea zone.
    pub coastal: bool,
    /// Not a facility of its own: it turns one facility into another.
    pub upgrade: Option<Upgrade>,
    pub on_capture: FacilityCapture,
    pub air_move_bonus: u32,
    pub sea_move_bonus: u32,
    /// Repairs units that repair at a naval base, in the sea zones its territory borders.
    pub repairs: bool,
    /// Damage at which it stops working (0: never).
    pub inoperative_at: u32,
    /// Its own fire at bombers raiding it: hits on this or less (0: none).
    pub anti_air: u8,
    /// Air units that may scramble from its territory (0: none).
    pub scramble_limit: u32,
}

impl FacilityType {
    /// Working at this damage: giving its movement bonus, repairing ships.
    pub fn operative(&self, damage: u32) -> bool {
        self.inoperative_at == 0 || damage < self.inoperative_at
    }
}

/// A facility placed on another to make it a third (`upgrades_from`, `upgrades_to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Upgrade {
    pub from: FacilityTypeId,
    pub to: FacilityTypeId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceKind {
    Land,
    Sea,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NeutralKind {
    Impassable,
    ProAxis,
    ProAllies,
    Strict,
}

#[derive(Clone, Debug)]
pub struct Space {
    pub name: String,
    pub kind: SpaceKind,
    pub ipc: u32,
    pub owner: Option<PowerId>,
    pub capital: bool,
    pub victory_city: Option<String>,
    pub island: bool,
    pub neutral: Option<NeutralKind>,
    pub standing_army: Vec<(UnitTypeId, u32)>,
    pub map: Option<String>,
    pub convoy: bool,
    /// `tags`: marks the map prints on the space, for rule scripts.
    pub tags: Vec<String>,
    pub adjacent: Vec<SpaceId>,
}

impl Space {
    pub fn is_sea(&self) -> bool {
        self.kind == SpaceKind::Sea
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassageKind {
    Canal,
    Strait,
}

#[derive(Clone, Debug)]
pub struct Canal {
    pub name: String,
    pub kind: PassageKind,
    pub connects: [SpaceId; 2],
    pub controlled_by: Vec<SpaceId>,
    /// Unit tags that always pass, whoever holds it.
    pub open_to: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Board {
    pub spaces: Vec<Space>,
    /// Lower-cased names (and `sz N` forms) to ids.
    pub by_name: HashMap<String, SpaceId>,
    pub canals: Vec<Canal>,
}

impl Board {
    pub fn space(&self, id: SpaceId) -> &Space {
        &self.spaces[id.index()]
    }

    /// Case-insensitive lookup; sea zones also answer to `sz 5`, `SZ5` and `5 sea zone`.
    pub fn find(&self, name: &str) -> Option<SpaceId> {
        let key = name.trim().to_lowercase();
        if let Some(id) = self.by_name.get(&key) {
            return Some(*id);
        }
        let digits = key.trim_start_matches("sz").trim_end_matches("sea zone").trim();
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
            return self.by_name.get(&format!("sz {digits}")).copied();
        }
        None
    }

    pub fn ids(&self) -> impl Iterator<Item = SpaceId> + '_ {
        (0..self.spaces.len()).map(|i| SpaceId(i as u16))
    }

    /// A space as a user types it: exactly (see [`find`](Self::find)), else by an unambiguous
    /// prefix (`kar`, `eastern eu`, `w rus`; see [`lookup_named`]).
    pub fn lookup(&self, name: &str) -> Lookup<SpaceId> {
        if let Some(id) = self.find(name) {
            return Lookup::Found(id);
        }
        lookup_named(
            name,
            &self.spaces,
            |s| std::iter::once(s.name.as_str()),
            |s| s.name.clone(),
        )
        .map(|i| SpaceId(i as u16))
    }
}

/// What a name typed by a user stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup<T> {
    Found(T),
    /// Several things start with what was typed: their names, sorted.
    Ambiguous(Vec<String>),
    Missing,
}

impl<T> Lookup<T> {
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Lookup<U> {
        match self {
            Lookup::Found(t) => Lookup::Found(f(t)),
            Lookup::Ambiguous(c) => Lookup::Ambiguous(c),
            Lookup::Missing => Lookup::Missing,
        }
    }

    pub fn found(self) -> Option<T> {
        match self {
            Lookup::Found(t) => Some(t),
            _ => None,
        }
    }

    /// `Missing` only: try `other`.
    fn or_else(self, other: impl FnOnce() -> Lookup<T>) -> Lookup<T> {
        match self {
            Lookup::Missing => other(),
            found_or_ambiguous => found_or_ambiguous,
        }
    }
}

/// The words of a name as prefixes are matched against them: split at spaces, hyphens and
/// underscores (`Anglo-Egypt Sudan`, `aircraft_carrier`), lower-cased.
fn name_words(s: &str) -> Vec<String> {
    s.split(|c: char| c.is_whitespace() || c == '-' || c == '_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The most words any of `names` has, as [`lookup_named`] splits them: a run of more words
/// typed names none of them.
pub fn most_words<'a>(names: impl IntoIterator<Item = &'a str>) -> usize {
    names.into_iter().map(|n| name_words(n).len()).max().unwrap_or(0)
}

/// A key that sorts names as people do: case ignored, numbers by value (`SZ 2` before
/// `SZ 10`).
pub fn name_order(name: &str) -> String {
    let mut key = String::new();
    let mut digits = String::new();
    for c in name.chars().chain(std::iter::once('\0')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            key.push_str(&format!("{digits:0>10}"));
            digits.clear();
        }
        if c != '\0' {
            key.extend(c.to_lowercase());
        }
    }
    key
}

/// Names joined with commas, at most `shown` of them and then how many more.
pub fn name_list<S: AsRef<str>>(names: &[S], shown: usize) -> String {
    let list: Vec<&str> = names.iter().take(shown).map(AsRef::as_ref).collect();
    let more = names.len().saturating_sub(shown);
    let more = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!("{}{more}", list.join(", "))
}

/// Whether `typed` abbreviates `name` word by word: each typed word a prefix of the name's word
/// at the same place (`kar` for Karelia, `w rus` for West Russia). Case is ignored.
pub fn abbreviates(typed: &str, name: &str) -> bool {
    words_abbreviate(&name_words(typed), name)
}

/// [`abbreviates`] with the typed text already split into words (once, however many names it
/// is matched against).
fn words_abbreviate(typed: &[String], name: &str) -> bool {
    let n = name_words(name);
    !typed.is_empty()
        && typed.len() <= n.len()
        && typed.iter().zip(&n).all(|(t, n)| n.starts_with(t.as_str()))
}

/// Index of the one item that `name` names: one of its names equal (ignoring case), else the
/// only item with a name that `name` is a prefix of, else the only one it abbreviates word by
/// word ([`abbreviates`]). Several items at the first level that has any: ambiguous, with
/// their `display` names.
pub fn lookup_named<'a, T, I: Iterator<Item = &'a str>>(
    name: &str,
    items: &'a [T],
    names: impl Fn(&'a T) -> I,
    display: impl Fn(&'a T) -> String,
) -> Lookup<usize> {
    if let Some(i) = find_named(name, items, &names) {
        return Lookup::Found(i);
    }
    let words = name_words(name);
    let typed = words.join(" ");
    if typed.is_empty() {
        return Lookup::Missing;
    }
    let whole = |n: &str| name_words(n).join(" ").starts_with(&typed);
    let by_words = |n: &str| words_abbreviate(&words, n);
    let level = |matches: &dyn Fn(&str) -> bool| -> Lookup<usize> {
        let hits: Vec<usize> = (0..items.len())
            .filter(|&i| names(&items[i]).any(matches))
            .collect();
        match hits.as_slice() {
            [] => Lookup::Missing,
            [one] => Lookup::Found(*one),
            many => {
                let mut shown: Vec<String> = many.iter().map(|&i| display(&items[i])).collect();
                shown.sort_by_cached_key(|n| name_order(n));
                shown.dedup();
                Lookup::Ambiguous(shown)
            }
        }
    };
    level(&whole).or_else(|| level(&by_words))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Unit(UnitTypeId),
    Facility(FacilityTypeId),
}

#[derive(Clone, Debug)]
pub struct Placement {
    pub space: SpaceId,
    pub owner: PowerId,
    pub piece: Piece,
    pub count: u32,
}

#[derive(Clone, Debug)]
pub struct Scenario {
    pub id: String,
    pub title: String,
    pub turn_order: Vec<PowerId>,
    pub ipcs: Vec<(PowerId, i64)>,
    pub control: Vec<(SpaceId, PowerId)>,
    pub setup: Vec<Placement>,
    pub damage: Vec<(SpaceId, FacilityTypeId, u32)>,
    /// Pairs of powers on opposite sides that start at peace (`at_peace`, extended to the
    /// powers' economies); every other pair of opposite sides starts at war.
    pub at_peace: Vec<(PowerId, PowerId)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unplaceable {
    Refund,
    Keep,
}

/// Whether a power may mobilize at a factory in a territory it controls whose original owner is
/// another power of its side (a factory an ally controls is never usable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlliedFactories {
    /// Never.
    Never,
    /// Only while that power's capital is in enemy hands (the territory was taken from the
    /// enemy after the capital fell; before that it would have been liberated, not captured).
    CapitalLost,
}

#[derive(Clone, Debug)]
pub struct Switches {
    pub unplaceable_units: Unplaceable,
    /// A blitz stops in a territory holding an enemy facility (an industrial complex).
    pub blitz_blocked_by_facilities: bool,
    /// Factories in territories originally owned by a friendly power.
    pub allied_factories: AlliedFactories,
    /// A purchase may not exceed what the power's eligible factories can mobilize this turn.
    pub purchase_limited_by_production: bool,
    /// Convoy disruption: faces up to this are lost (0: none).
    pub convoy_hits_up_to: u8,
    /// What units hit on in a raid's air battle.
    pub interception_value: u8,
    /// Noncombat move may not leave an air unit to be lost while it can still land safely.
    pub air_units_must_land: bool,
    /// Allies share territories, carriers, transports and bases only while both are at war.
    pub allies_share_only_at_war: bool,
}

impl Default for Switches {
    fn default() -> Self {
        Switches {
            unplaceable_units: Unplaceable::Refund,
            blitz_blocked_by_facilities: true,
            allied_factories: AlliedFactories::Never,
            purchase_limited_by_production: false,
            convoy_hits_up_to: 0,
            interception_value: 1,
            air_units_must_land: false,
            allies_share_only_at_war: false,
        }
    }
}

/// The scripts of one layer, in load order.
#[derive(Clone, Debug)]
pub struct LayerScripts {
    pub layer: String,
    pub dir: std::path::PathBuf,
    pub display_dir: String,
    pub files: Vec<String>,
}

/// Everything a game needs to know about its rules, resolved and frozen.
pub struct RuleSet {
    pub layers: Vec<Layer>,
    pub sources: Sources,
    /// The merged tree, kept for provenance (`why`).
    pub tree: Node,
    pub powers: Vec<Power>,
    /// `[turn] phases`: the phases of a turn, for every power without a list of its own.
    pub turn: Vec<PhaseId>,
    /// `[turn.power_phases]`: powers whose turn has its own phases (and each `[turn.within]`
    /// guest, with its segments' phases in order).
    pub power_turns: Vec<(PowerId, Vec<PhaseId>)>,
    /// `[turn.within]`: powers whose turn is played within another's.
    pub guests: Vec<Guest>,
    /// Per power, the order of its turn (a host's with its guests' segments).
    pub plans: Vec<TurnPlan>,
    /// `[players]`: how many may play, and which powers one player plays together.
    pub players: Players,
    pub phases: Vec<Phase>,
    /// Commands layers add to the game's language (`[commands]`), by verb.
    pub commands: Vec<LayerCommand>,
    pub units: Vec<UnitType>,
    pub facilities: Vec<FacilityType>,
    pub board: Board,
    pub scenarios: Vec<Scenario>,
    pub switches: Switches,
    /// Ways to win (`[victory]`), in data order.
    pub victory: Vec<VictoryCondition>,
    /// `[combat]`: the conduct-combat sub-steps and the battle round.
    pub combat: CombatRules,
    /// `[politics]`: when war may be declared, and who goes to war together.
    pub politics: Politics,
    /// `[ai]`: how the computer opponent weighs its choices.
    pub ai: AiWeights,
    /// `[techs]`: every technology of the game, and per unit type what techs make of it.
    pub techs: Vec<Tech>,
    pub unit_techs: Vec<UnitTechs>,
    /// `[research]`: how techs are researched; `None` when the game has no research.
    pub research: Option<Research>,
    pub scripts: Vec<LayerScripts>,
    pub default_scenario: Option<String>,
    /// Root of the project (parent of `editions/`), where `scripts/` lives.
    pub project_root: std::path::PathBuf,
}

impl std::fmt::Debug for RuleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuleSet")
            .field("layers", &self.layers.iter().map(|l| &l.name).collect::<Vec<_>>())
            .field("powers", &self.powers.len())
            .field("spaces", &self.board.spaces.len())
            .finish()
    }
}

impl RuleSet {
    pub fn power(&self, name: &str) -> Option<PowerId> {
        find_named(name, &self.powers, &|p| {
            std::iter::once(p.name.as_str()).chain(p.abbrev.as_deref())
        })
        .map(|i| PowerId(i as u8))
    }

    pub fn unit_type(&self, name: &str) -> Option<UnitTypeId> {
        find_named(name, &self.units, &|u| {
            [u.id.as_str(), u.name.as_str()]
                .into_iter()
                .chain(u.abbrevs.iter().map(String::as_str))
        })
        .map(|i| UnitTypeId(i as u16))
    }

    /// A power as a user types it: name or abbreviation, else an unambiguous prefix.
    pub fn lookup_power(&self, name: &str) -> Lookup<PowerId> {
        lookup_named(
            name,
            &self.powers,
            |p| std::iter::once(p.name.as_str()).chain(p.abbrev.as_deref()),
            |p| p.name.clone(),
        )
        .map(|i| PowerId(i as u8))
    }

    /// A unit or facility type as a user types it: its id, name or an abbreviation, also in
    /// the plural (`tanks`), else an unambiguous prefix of one of them (`bat`, `ind comp`).
    /// Units come before facilities when a name is exact.
    pub fn lookup_piece(&self, name: &str) -> Lookup<Piece> {
        let name = name.trim();
        let singular = name
            .strip_suffix('s')
            .or_else(|| name.strip_suffix('S'))
            .filter(|s| !s.is_empty());
        let forms: Vec<&str> = std::iter::once(name).chain(singular).collect();
        for form in &forms {
            if let Some(u) = self.unit_type(form) {
                return Lookup::Found(Piece::Unit(u));
            }
        }
        for form in &forms {
            if let Some(f) = self.facility_type(form) {
                return Lookup::Found(Piece::Facility(f));
            }
        }
        let pieces: Vec<(Piece, Vec<&str>, &str)> = self
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let names = [u.id.as_str(), u.name.as_str()]
                    .into_iter()
                    .chain(u.abbrevs.iter().map(String::as_str));
                (
                    Piece::Unit(UnitTypeId(i as u16)),
                    names.collect(),
                    u.name.as_str(),
                )
            })
            .chain(self.facilities.iter().enumerate().map(|(i, f)| {
                let names = [f.id.as_str(), f.name.as_str()]
                    .into_iter()
                    .chain(f.abbrevs.iter().map(String::as_str));
                (
                    Piece::Facility(FacilityTypeId(i as u16)),
                    names.collect(),
                    f.name.as_str(),
                )
            }))
            .collect();
        let mut found = Lookup::Missing;
        for form in &forms {
            found = found.or_else(|| {
                lookup_named(form, &pieces, |p| p.1.iter().copied(), |p| p.2.to_string()).map(|i| pieces[i].0)
            });
        }
        found
    }

    pub fn facility_type(&self, name: &str) -> Option<FacilityTypeId> {
        find_named(name, &self.facilities, &|f| {
            [f.id.as_str(), f.name.as_str()]
                .into_iter()
                .chain(f.abbrevs.iter().map(String::as_str))
        })
        .map(|i| FacilityTypeId(i as u16))
    }

    pub fn scenario(&self, id: &str) -> Option<&Scenario> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    pub fn unit(&self, id: UnitTypeId) -> &UnitType {
        &self.units[id.index()]
    }

    /// A unit type as a power holding `held` techs has it: the type itself, or the variant
    /// its techs' patches make of it (read at load time).
    pub fn unit_for(&self, kind: UnitTypeId, held: &[TechId]) -> &UnitType {
        let ut = &self.unit_techs[kind.index()];
        if ut.techs.is_empty() || held.is_empty() {
            return &self.units[kind.index()];
        }
        let mut mask = 0usize;
        for (i, t) in ut.techs.iter().enumerate() {
            if held.contains(t) {
                mask |= 1 << i;
            }
        }
        if mask == 0 {
            &self.units[kind.index()]
        } else {
            &ut.variants[mask - 1]
        }
    }

    /// A tech by id or name (`some_tech` or `Some Tech`).
    pub fn tech(&self, name: &str) -> Option<TechId> {
        tech::find_tech(&self.techs, name)
    }

    /// Extra units each factory of a power holding `held` produces.
    pub fn production_bonus(&self, held: &[TechId]) -> u32 {
        held.iter().map(|t| self.techs[t.index()].production_bonus).sum()
    }

    /// What a facility type mobilizes for a power holding `held` in a territory worth `ipc`: a
    /// tech's `facilities` patch (the last one held), else its own production.
    pub fn facility_production(&self, kind: FacilityTypeId, held: &[TechId], ipc: u32) -> u32 {
        self.facility_patch(kind, held, |p| p.production)
            .unwrap_or_else(|| self.facilities[kind.index()].production.resolve(ipc))
    }

    /// A facility's own antiaircraft value for its holder's techs (0: none).
    pub fn facility_anti_air(&self, kind: FacilityTypeId, held: &[TechId]) -> u8 {
        self.facility_patch(kind, held, |p| p.anti_air)
            .unwrap_or(self.facilities[kind.index()].anti_air)
    }

    /// The rocket a facility launches for its holder's techs (none without one).
    pub fn facility_rocket(&self, kind: FacilityTypeId, held: &[TechId]) -> Option<Rocket> {
        self.facility_patch(kind, held, |p| p.rocket)
    }

    /// The land units a facility flies as paratroopers for a power holding `held` (none
    /// without a tech giving it).
    pub fn facility_paratroopers(&self, kind: FacilityTypeId, held: &[TechId]) -> Option<tech::Paratroopers> {
        self.facility_patch(kind, held, |p| p.paratroopers)
    }

    fn facility_patch<T>(
        &self,
        kind: FacilityTypeId,
        held: &[TechId],
        field: impl Fn(&tech::FacilityPatch) -> Option<T>,
    ) -> Option<T> {
        held.iter()
            .flat_map(|t| self.techs[t.index()].facilities.iter())
            .filter(|(f, _)| *f == kind)
            .filter_map(|(_, p)| field(p))
            .last()
    }

    /// Damage markers one IPC repairs on a facility type for a power holding `held`: a tech's
    /// patch of that type, else `repairs_per_ipc`.
    pub fn facility_repairs_per_ipc(&self, kind: FacilityTypeId, held: &[TechId]) -> u32 {
        self.facility_patch(kind, held, |p| p.repairs_per_ipc)
            .unwrap_or_else(|| self.repairs_per_ipc(held))
    }

    /// Damage markers one IPC repairs for a power holding `held` (1 unless a tech says more).
    pub fn repairs_per_ipc(&self, held: &[TechId]) -> u32 {
        held.iter()
            .map(|t| self.techs[t.index()].repairs_per_ipc)
            .max()
            .unwrap_or(0)
            .max(1)
    }

    pub fn power_info(&self, id: PowerId) -> &Power {
        &self.powers[id.index()]
    }

    /// Every power, in data order.
    pub fn power_ids(&self) -> impl Iterator<Item = PowerId> {
        (0..self.powers.len()).map(|i| PowerId(i as u8))
    }

    /// The phases of `power`'s turn, in order: its `[turn.power_phases]` list, or `[turn]
    /// phases`. `State::phase` is an index into this list for the power whose turn it is.
    pub fn turn_of(&self, power: PowerId) -> &[PhaseId] {
        self.power_turns
            .iter()
            .find(|(p, _)| *p == power)
            .map_or(&self.turn, |(_, l)| l)
    }

    /// The phase at `index` of `power`'s turn.
    pub fn phase_at(&self, power: PowerId, index: usize) -> &Phase {
        &self.phases[self.turn_of(power)[index].index()]
    }

    /// The order of `power`'s turn: its phases, and its guests' among them.
    pub fn plan(&self, power: PowerId) -> &TurnPlan {
        &self.plans[power.index()]
    }

    /// The power whose turn `power` plays within, if it has none of its own.
    pub fn host_of(&self, power: PowerId) -> Option<PowerId> {
        self.guests.iter().find(|g| g.power == power).map(|g| g.host)
    }

    /// The powers playing `host`'s turn: the host, then its guests in data order.
    pub fn powers_of_turn(&self, host: PowerId) -> Vec<PowerId> {
        std::iter::once(host)
            .chain(self.guests.iter().filter(|g| g.host == host).map(|g| g.power))
            .collect()
    }

    /// Whether `power`'s turn has a phase of this kind.
    pub fn has_phase(&self, power: PowerId, kind: PhaseKind) -> bool {
        self.turn_of(power)
            .iter()
            .any(|p| self.phases[p.index()].kind == kind)
    }

    /// Where a value in the merged data came from: the node and the origins it replaced.
    pub fn why(&self, path: &[&str]) -> Option<&Node> {
        self.tree.lookup(path)
    }

    /// Like [`why`](Self::why) for a dotted path typed by a user (`units.tank.attack`,
    /// `territories.Karelia S.S.R..ipc`): at each level the longest existing key wins, so
    /// names with dots or spaces need no quoting. Keys match case-insensitively.
    pub fn why_dotted(&self, path: &str) -> Option<(Vec<String>, &Node)> {
        let mut node = &self.tree;
        let mut rest = path.trim();
        let mut keys = Vec::new();
        while !rest.is_empty() {
            let table = node.as_table()?;
            let (key, entry) = table
                .entries
                .iter()
                .filter(|(k, _)| {
                    rest.len() >= k.len()
                        && rest.is_char_boundary(k.len())
                        && rest[..k.len()].eq_ignore_ascii_case(k)
                        && (rest.len() == k.len() || rest[k.len()..].starts_with('.'))
                })
                .max_by_key(|(k, _)| k.len())?;
            keys.push(key.clone());
            node = &entry.node;
            rest = rest[key.len()..].strip_prefix('.').unwrap_or("");
        }
        Some((keys, node))
    }

    /// `file:line:col (layer)` for an origin.
    pub fn describe(&self, origin: &Origin) -> String {
        format!(
            "{} (layer {})",
            self.sources.location(origin.file, origin.span.start),
            origin.layer
        )
    }
}

/// A name in the possessive: "Green's", "Allied Powers'".
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') {
        format!("{name}'")
    } else {
        format!("{name}'s")
    }
}

/// Index of the first item one of whose names equals `name`, ignoring case and surrounding
/// space (how the REPL and commands name things).
fn find_named<'a, T, I: Iterator<Item = &'a str>>(
    name: &str,
    items: &'a [T],
    names: &impl Fn(&'a T) -> I,
) -> Option<usize> {
    let key = name.trim();
    items
        .iter()
        .position(|item| names(item).any(|n| n.eq_ignore_ascii_case(key)))
}

/// Merge, check and freeze. Every problem is returned at once.
pub fn load(req: &LoadRequest) -> Result<RuleSet, LoadError> {
    let merged = crate::layers::merge(req);
    let project_root = req
        .editions_dir
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    build(merged, project_root)
}

/// A rule set that could not be built, with every problem found and the files they point into.
#[derive(Debug)]
pub struct LoadError {
    pub problems: Problems,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the rule set has {} problem(s)", self.problems.len())
    }
}
impl std::error::Error for LoadError {}
impl miette::Diagnostic for LoadError {
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        self.problems.related()
    }
}
