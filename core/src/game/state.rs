//! Game state: everything that changes during play, and nothing that does not.

use super::dice::Dice;
use super::spaces::Spaces;
use crate::rules::{FacilityTypeId, Piece, PowerId, RuleSet, Scenario, SpaceId, UnitTypeId};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Stable within a game, so logs and commands can name one unit.
    pub id: u32,
    pub kind: UnitTypeId,
    pub owner: PowerId,
    /// Hits taken (two-hit battleships).
    pub damage: u32,
    /// Movement points used this turn (air units spend them across both move phases).
    pub moved: u32,
    /// The transport or carrier (a unit id in the same space) this unit rides as cargo.
    pub aboard: Option<u32>,
    /// What this unit did this turn; cleared when its owner's turn begins.
    pub marks: Marks,
    /// What rule scripts wrote on it (`mark` requests): kept until a script clears them.
    pub tags: Tags,
}

// Written out: the derived encoding of the fields before `tags`, then the tags only when there
// are some (hash scheme 4 on), so states without tags hash as they always did.
impl std::hash::Hash for Unit {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.id.hash(h);
        self.kind.hash(h);
        self.owner.hash(h);
        self.damage.hash(h);
        self.moved.hash(h);
        self.aboard.hash(h);
        self.marks.hash(h);
        if let Some(tags) = &self.tags.0 {
            if !legacy_hash() {
                h.write_u8(0xa5);
                tags.hash(h);
            }
        }
    }
}

/// Named flags and counters rule scripts keep on a unit (`veteran = 1`), sorted by name; none
/// is the usual case, kept without an allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tags(Option<Box<TagList>>);

/// The tags of a unit that has some: boxed so a unit without tags carries one word for them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TagList(Vec<Tag>);

/// A tag's name and what it holds.
type Tag = (Box<str>, i64);

impl Tags {
    /// A tag's name: letters, digits and `_`, at most 32 (the same for scripts, `edit mark` and
    /// the calculator's notes).
    pub fn valid_name(name: &str) -> bool {
        !name.is_empty() && name.len() <= 32 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    }

    pub fn get(&self, name: &str) -> i64 {
        self.iter().find(|(n, _)| *n == name).map_or(0, |(_, v)| v)
    }
    /// Every tag, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i64)> {
        self.0.iter().flat_map(|v| v.0.iter().map(|(n, v)| (&**n, *v)))
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
    /// Set a tag; 0 clears it.
    pub fn set(&mut self, name: &str, value: i64) {
        let mut list: Vec<Tag> = self.0.take().map(|b| b.0).unwrap_or_default();
        match list.binary_search_by(|(n, _)| (**n).cmp(name)) {
            Ok(i) if value == 0 => {
                list.remove(i);
            }
            Ok(i) => list[i].1 = value,
            Err(_) if value == 0 => {}
            Err(i) => list.insert(i, (name.into(), value)),
        }
        self.0 = (!list.is_empty()).then(|| Box::new(TagList(list)));
    }
    /// Shown after a unit (`veteran`, `kills 2`), for `show` and the log.
    pub fn describe(&self) -> String {
        self.iter()
            .map(|(n, v)| if v == 1 { n.to_string() } else { format!("{n} {v}") })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Unit {
    /// The room it offers air units now: its carrier capacity, none while a carrier that is
    /// `disabled_when_damaged` is damaged.
    pub fn deck(&self, rules: &RuleSet) -> u32 {
        let t = rules.unit(self.kind);
        if self.damage > 0 && t.disabled_when_damaged {
            0
        } else {
            t.carrier_capacity
        }
    }

    pub fn new(id: u32, kind: UnitTypeId, owner: PowerId) -> Unit {
        Unit {
            id,
            kind,
            owner,
            damage: 0,
            moved: 0,
            aboard: None,
            marks: Marks::default(),
            tags: Tags::default(),
        }
    }
}

/// What a unit did during its owner's turn: the facts later movement rules depend on, and what
/// rule scripts read of it (`did` in payloads).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Moved in the combat move phase (land and sea units then sit out noncombat move).
    pub combat_moved: bool,
    /// Took part in a battle this turn.
    pub fought: bool,
    /// Transport: took cargo aboard this turn. Land unit: boarded this turn.
    pub loaded: bool,
    /// Transport: the territory it offloaded into this turn (one per turn). Land unit: the
    /// territory it came ashore in (it moves no further).
    pub unloaded: Option<SpaceId>,
    /// Cargo: the hostile territory it will assault once the sea zone is cleared (amphibious
    /// assault announced in combat move from a sea zone with enemy warships).
    pub assault: Option<SpaceId>,
    /// Captured with its territory this turn (it may not move in noncombat move).
    pub captured: bool,
    /// Land unit: carried by an air unit and dropped where it is this turn (it moves no
    /// further).
    pub dropped: bool,
    /// Left a sea zone holding enemy warships in combat move (it may end in a friendly zone).
    pub escaped: bool,
    /// A bomber raiding the industrial complex of the territory it is in: it takes no other
    /// part in combat this turn.
    pub bombing: bool,
    /// Land unit: blitzed through an empty enemy territory this turn.
    pub blitzed: bool,
    /// Movement added this turn by a base where the unit began it (`game/bases.rs`).
    pub range_bonus: u8,
    /// A bomber raiding: the facility it raids, where one was named.
    pub raid_target: Option<FacilityTypeId>,
    /// Scrambled from this territory to defend a sea zone; it flies back as Conduct Combat ends.
    pub scrambled_from: Option<SpaceId>,
    /// Intercepting the raid on its territory: it fights no other battle this turn.
    pub intercepting: bool,
    /// Land unit: flown in as a paratrooper this turn (from the territory given). It draws
    /// antiaircraft fire as air units do, and moves no further.
    pub airborne_from: Option<SpaceId>,
}

// Written out: the derived encoding of the fields before `blitzed` (hash schemes 1 to 3), then
// `blitzed` in scheme 4.
impl std::hash::Hash for Marks {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let Marks {
            combat_moved,
            fought,
            loaded,
            unloaded,
            assault,
            captured,
            dropped,
            escaped,
            bombing,
            blitzed,
            range_bonus,
            raid_target,
            scrambled_from,
            intercepting,
            airborne_from,
        } = self;
        combat_moved.hash(h);
        fought.hash(h);
        loaded.hash(h);
        unloaded.hash(h);
        assault.hash(h);
        captured.hash(h);
        dropped.hash(h);
        escaped.hash(h);
        bombing.hash(h);
        if !legacy_hash() {
            blitzed.hash(h);
            // Only where bases give one, so games without bases hash as they did.
            if *range_bonus != 0 {
                range_bonus.hash(h);
            }
            if raid_target.is_some() {
                raid_target.hash(h);
            }
            if scrambled_from.is_some() {
                h.write_u8(0xa7);
                scrambled_from.hash(h);
            }
            if *intercepting {
                h.write_u8(0xa8);
            }
            if airborne_from.is_some() {
                h.write_u8(0xaa);
                airborne_from.hash(h);
            }
        }
    }
}

thread_local! {
    /// A hash of an older scheme (1 to 3) is being computed: what later schemes added is left
    /// out, and no cached hash (scheme 4's) is read or kept.
    static LEGACY_HASH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

pub(super) fn legacy_hash() -> bool {
    LEGACY_HASH.with(std::cell::Cell::get)
}

/// Compute a hash of scheme 1 to 3 (saves and recordings made before scheme 4).
fn in_legacy_scheme<T>(f: impl FnOnce() -> T) -> T {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            LEGACY_HASH.with(|c| c.set(false));
        }
    }
    LEGACY_HASH.with(|c| c.set(true));
    let _reset = Reset;
    f()
}

/// A battle announced in combat move, to be fought in conduct combat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Battle {
    pub space: SpaceId,
    /// Spaces the attacking land and sea units entered it from (retreat goes to one of these).
    pub entered_from: Vec<SpaceId>,
    /// Sea zones land units are offloaded from (an amphibious assault).
    pub amphibious_from: Vec<SpaceId>,
    /// Fought to its end in conduct combat.
    pub fought: bool,
}

/// Facts about the turn in progress that rules refer back to ("friendly at the start of the
/// turn", "controlled since the start of the turn", "announced in combat move").
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurnState {
    /// Who controlled each space when the turn began.
    pub start_control: StartControl,
    /// Battles announced in combat move, in the order they were first entered.
    pub battles: Vec<Battle>,
    /// Territories that changed hands this turn, in order.
    pub captured: Vec<SpaceId>,
    /// Sea zones where a carrier bought this turn must be mobilized, because a fighter counted
    /// on it to land (combat move's landing demonstration).
    pub carrier_promises: Vec<SpaceId>,
    /// Units mobilized this turn, each group counted against one factory: the factory's
    /// territory, where the units entered play (that territory or a sea zone next to it) and how
    /// many. Sea-zone placements may be re-counted against another adjacent factory when that
    /// lets a later placement fit (`mobilize.rs`).
    pub mobilized: Vec<Mobilized>,
    /// Facilities placed this turn (territory, type): they mobilize nothing until next turn.
    pub new_facilities: Vec<(SpaceId, FacilityTypeId)>,
    /// Strategic bombing raids announced in combat move: (territory, fought yet).
    pub raids: Vec<(SpaceId, bool)>,
    /// How each battle fought this turn ended, in the order fought (kept after conduct combat
    /// ends, unlike `battles`, so scenarios can ask).
    pub outcomes: Vec<(SpaceId, crate::combat::Outcome)>,
    /// The power has rolled its research dice this turn.
    pub researched: bool,
    /// Units that have made their rocket attack this turn.
    pub rockets_fired: Vec<u32>,
    /// Canals and straits a power at peace holding them let this power pass this turn.
    pub passages: Passages,
    /// The powers this power's declarations of war put it at war with this turn, with the
    /// phase (index) of each declaration.
    pub declared: Declared,
    /// Sea zones whose ships do not bombard this turn (a rule script's `no_bombardment`).
    pub no_bombardment: NoBombardment,
    /// Territories whose facility has made its rocket attack this turn (a tech's facility
    /// `rocket`).
    pub facility_rockets: FacilityRockets,
    /// `battles_begin` has fired this turn (the attacker ordered its first battle or raid).
    pub battles_begun: BattlesBegun,
}

/// Whether this turn's battles have begun.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BattlesBegun(pub bool);

// Never hashed: it follows from the turn's `fight` commands alone, and saves from before it keep
// their hashes.
impl std::hash::Hash for BattlesBegun {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// The territories whose facility fired its rocket this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FacilityRockets(pub Vec<SpaceId>);

// Nothing when none fired, so records of turns from before hash as they did.
impl std::hash::Hash for FacilityRockets {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if !self.0.is_empty() {
            h.write_u8(0xa9);
            self.0.hash(h);
        }
    }
}

/// The sea zones no ship bombards from this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoBombardment(pub Vec<SpaceId>);

// Nothing when none is listed, so records of turns from before hash as they did.
impl std::hash::Hash for NoBombardment {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if !self.0.is_empty() {
            h.write_u8(0xa8);
            self.0.hash(h);
        }
    }
}

/// Who a power's declarations put it at war with this turn: (power, phase index).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declared(pub Vec<(PowerId, usize)>);

// Never hashed: it follows from the turn's `declare war` commands alone (the relations they
// change are hashed), and saves from before it keep their hashes.
impl std::hash::Hash for Declared {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// The canals (by name) a power may pass this turn by leave of the power at peace holding them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Passages(pub Vec<String>);

// Nothing when none was given, so records of turns before passages existed hash as they did.
impl std::hash::Hash for Passages {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if !self.0.is_empty() {
            h.write_u8(0xa9);
            self.0.hash(h);
        }
    }
}

/// Who controlled each space when the turn began: set once per turn, read by index, shared by
/// every copy of the state made during the turn, with its digest for the state hash computed
/// once (mixing it space by space was half the hash's time). Beside it, the spaces themselves
/// as the turn began (where each unit started it, for rule scripts): a copy sharing every
/// chunk, so keeping it costs nothing. It is what `State::spaces` was when the turn began, so
/// the hash of that state covered it and it takes no part in the hash itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartControl {
    owners: Arc<Vec<Option<PowerId>>>,
    /// The [`Mix`] of the controllers' length, then four to a word (16 bits each: 0 for none,
    /// else the power's index + 1): what hash scheme 3 mixes for them.
    digest: u64,
    /// The board when the turn began.
    pub spaces: Spaces,
}

impl StartControl {
    pub fn of(spaces: &Spaces) -> StartControl {
        StartControl {
            spaces: spaces.clone(),
            ..StartControl::new(spaces.iter().map(|s| s.controller).collect())
        }
    }

    pub fn new(owners: Vec<Option<PowerId>>) -> StartControl {
        use std::hash::Hasher;
        let mut h = Mix::new();
        h.write_usize(owners.len());
        for four in owners.chunks(4) {
            let mut word = 0u64;
            for (i, c) in four.iter().enumerate() {
                word |= c.map_or(0, |p| u64::from(p.0) + 1) << (16 * i);
            }
            h.add(word);
        }
        StartControl {
            owners: Arc::new(owners),
            digest: h.0,
            spaces: Spaces::default(),
        }
    }
}

impl std::ops::Deref for StartControl {
    type Target = [Option<PowerId>];
    fn deref(&self) -> &[Option<PowerId>] {
        &self.owners
    }
}

// The encoding of the list it replaced, so hash schemes 1 and 2 are unchanged.
impl std::hash::Hash for StartControl {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.owners.hash(h);
    }
}

/// Units mobilized this turn through one factory into one space.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mobilized {
    pub factory: SpaceId,
    pub space: SpaceId,
    pub count: u32,
}

impl TurnState {
    /// Hash scheme 3's encoding: the derived one, but with who held each space at the start of
    /// the turn as its digest.
    fn mix(&self, h: &mut Mix) {
        use std::hash::Hash;
        let TurnState {
            start_control,
            battles,
            captured,
            carrier_promises,
            mobilized,
            new_facilities,
            raids,
            outcomes,
            researched,
            rockets_fired,
            passages,
            declared: _,
            no_bombardment,
            facility_rockets,
            battles_begun: _,
        } = self;
        h.add(start_control.digest);
        battles.hash(h);
        captured.hash(h);
        carrier_promises.hash(h);
        mobilized.hash(h);
        new_facilities.hash(h);
        raids.hash(h);
        outcomes.hash(h);
        researched.hash(h);
        rockets_fired.hash(h);
        passages.hash(h);
        no_bombardment.hash(h);
        facility_rockets.hash(h);
    }

    pub fn begin(spaces: &Spaces) -> TurnState {
        TurnState {
            start_control: StartControl::of(spaces),
            ..TurnState::default()
        }
    }

    pub fn battle(&self, space: SpaceId) -> Option<&Battle> {
        self.battles.iter().find(|b| b.space == space)
    }

    pub fn battle_mut(&mut self, space: SpaceId) -> &mut Battle {
        if let Some(i) = self.battles.iter().position(|b| b.space == space) {
            return &mut self.battles[i];
        }
        self.battles.push(Battle {
            space,
            entered_from: Vec::new(),
            amphibious_from: Vec::new(),
            fought: false,
        });
        self.battles.last_mut().expect("just pushed")
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Facility {
    pub kind: FacilityTypeId,
    pub damage: u32,
}

#[derive(Clone, Debug, Default)]
pub struct SpaceState {
    /// Who controls the territory now (`None` for sea zones and neutrals).
    pub controller: Option<PowerId>,
    pub units: Vec<Unit>,
    pub facilities: Vec<Facility>,
    /// This space's own hash, once computed (the state's hash reuses it while the space is
    /// unchanged). Not part of what the space is: equality and hashing ignore it.
    hash: SpaceHash,
}

// Written out rather than derived so the cached hash takes no part: the encoding is what the
// derive gave (controller, units, facilities), so version 1 hashes are unchanged.
impl std::hash::Hash for SpaceState {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.controller.hash(h);
        self.units.hash(h);
        self.facilities.hash(h);
    }
}

impl PartialEq for SpaceState {
    fn eq(&self, other: &Self) -> bool {
        self.controller == other.controller
            && self.units == other.units
            && self.facilities == other.facilities
    }
}
impl Eq for SpaceState {}

impl SpaceState {
    /// The space's hash (the [`Mix`] of its encoding, in schemes 2 and 3), computed once per version of the
    /// space.
    pub(super) fn own_hash(&self) -> u64 {
        use std::sync::atomic::Ordering;
        if legacy_hash() {
            let mut h = Mix::new();
            std::hash::Hash::hash(self, &mut h);
            return h.0.max(1);
        }
        match self.hash.0.load(Ordering::Relaxed) {
            0 => {
                let mut h = Mix::new();
                std::hash::Hash::hash(self, &mut h);
                // 0 means "not computed yet".
                let v = h.0.max(1);
                self.hash.0.store(v, Ordering::Relaxed);
                v
            }
            v => v,
        }
    }
}

/// A space's cached hash (0: not computed). A copy starts without one, and so does a space
/// handed out for change ([`State::space_mut`], [`Spaces::edit`]), so a stale value is never read.
#[derive(Debug, Default)]
struct SpaceHash(std::sync::atomic::AtomicU64);

impl Clone for SpaceHash {
    fn clone(&self) -> Self {
        SpaceHash::default()
    }
}

impl SpaceState {
    /// Called on every change: the cached hash would be stale.
    pub(super) fn forget_hash(&mut self) {
        self.hash = SpaceHash::default();
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    Allied,
    War,
    /// Powers of opposite sides that are not at war (yet): neither may enter the other's
    /// territories nor attack its units until one declares war.
    Peace,
}

impl Relation {
    pub fn name(self) -> &'static str {
        match self {
            Relation::Allied => "allied",
            Relation::War => "war",
            Relation::Peace => "peace",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub round: u32,
    /// Index into the scenario's turn order: whose turn it is.
    pub turn: usize,
    /// Index into the steps of that turn (`RuleSet::plan`: its phases, and those of the powers
    /// playing within it), in the order `choices` makes.
    pub phase: usize,
    /// The order the player chose for this turn's movable segments (`play POWER first`): bit i
    /// set plays the turn plan's i-th movable segment at its alternative place.
    pub choices: u32,
    /// Shared with the copies a command runs on (copy on write): a command copies only the
    /// spaces it changes, so trying one costs little more than the checks it makes.
    pub spaces: Spaces,
    // The tables below change a few times a turn and are read by every command: each is shared
    // with the copies commands run on (`Arc::make_mut` to change one), so copying the state
    // allocates nothing for them.
    pub treasuries: Arc<Vec<i64>>,
    /// Techs each power holds, in the order gained.
    pub techs: Arc<Vec<Vec<crate::rules::TechId>>>,
    /// Researcher tokens each power holds (kept after a failed research roll).
    pub research_tokens: Arc<Vec<u32>>,
    /// The power rolled a breakthrough this turn and must still choose a chart.
    pub breakthrough_pending: bool,
    /// `relations[a][b]`, symmetric.
    pub relations: Arc<Vec<Vec<Relation>>>,
    /// Units bought this turn and waiting for mobilization, per power.
    pub purchased: Arc<Vec<Vec<(Piece, u32)>>>,
    pub next_unit_id: u32,
    pub dice: Dice,
    pub winner: Option<String>,
    /// The turn in progress, as the power acting now has played it.
    pub this_turn: TurnState,
    /// The other powers playing this turn (a host and the powers playing within its turn):
    /// their own record of it, kept while another power acts. Sorted by power.
    pub other_turns: Vec<(PowerId, TurnState)>,
    /// The battle being fought, waiting for a decision or for dice.
    pub combat: Option<crate::combat::Battle>,
    /// Dice faces typed at the table (`roll 3 5 1`), used before the seeded generator.
    pub dice_queue: Vec<u8>,
    /// Dice come only from the table: a battle waits for faces instead of rolling.
    pub manual_dice: bool,
    /// Per power, unit types it gives up first when taking the suggested casualties.
    pub casualty_orders: Arc<Vec<Vec<UnitTypeId>>>,
    /// Something was done in the current phase (a purchase, a move, a battle...): a
    /// declaration of war, made at the start of a phase, is too late now.
    pub phase_acted: bool,
    /// Values rule scripts set for a power's units of a type (`set_value`).
    pub standing_values: StandingValues,
    /// Questions rule scripts asked players (`choose`), waiting for `answer`, first first.
    pub questions: Questions,
    /// Neutral territories whose standing is no longer the board's (`game/neutrals.rs`).
    pub neutrals: Neutrals,
}

/// A question a rule script asked a player (`choose`): nothing else is played until it is
/// answered.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Question {
    /// Who answers.
    pub power: PowerId,
    /// The handler that asked.
    pub by: String,
    /// What the `answer` event carries for handlers to filter on.
    pub key: String,
    pub text: String,
    pub answers: Vec<String>,
}

/// The questions waiting for an answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Questions(pub Vec<Question>);

// Nothing when none waits, so states from before scripts could ask hash as they did.
impl std::hash::Hash for Questions {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if !self.0.is_empty() {
            h.write_u8(0xa6);
            self.0.hash(h);
        }
    }
}

/// A neutral territory's standing where it is no longer the board's: it leans another way now
/// (strict neutrals turned by an attack on one of them), or it was attacked and joined a side.
/// A territory a power controls is no neutral at all, and has no entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NeutralStanding {
    pub space: SpaceId,
    /// The side it leans to (`None`: strict); once attacked, the side it joined.
    pub leaning: Option<String>,
    /// It was attacked and joined `leaning`'s side: no longer neutral, held by no power until
    /// one of that side takes it.
    pub attacked: Option<Attacked>,
}

/// When a neutral territory was attacked, and its standing army's units (immobile: they stay
/// until the territory is taken).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attacked {
    pub round: u32,
    pub turn: usize,
    pub phase: usize,
    pub army: Vec<u32>,
}

/// The neutral territories whose standing changed, by space.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Neutrals(pub Arc<Vec<NeutralStanding>>);

// Nothing while every neutral stands as the board has it, so states from before neutrals could
// change hash as they did.
impl std::hash::Hash for Neutrals {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if !self.0.is_empty() {
            h.write_u8(0xa7);
            self.0.hash(h);
        }
    }
}

impl Neutrals {
    pub fn get(&self, space: SpaceId) -> Option<&NeutralStanding> {
        self.0.iter().find(|n| n.space == space)
    }
    /// Set a territory's standing (kept in board order).
    pub fn set(&mut self, standing: NeutralStanding) {
        let v = Arc::make_mut(&mut self.0);
        match v.iter().position(|n| n.space >= standing.space) {
            Some(i) if v[i].space == standing.space => v[i] = standing,
            Some(i) => v.insert(i, standing),
            None => v.push(standing),
        }
    }
    pub fn remove(&mut self, space: SpaceId) {
        if self.get(space).is_some() {
            Arc::make_mut(&mut self.0).retain(|n| n.space != space);
        }
    }
    /// The neutral territory whose standing army this unit is.
    pub fn army_of(&self, unit: u32) -> Option<SpaceId> {
        self.0
            .iter()
            .find(|n| n.attacked.as_ref().is_some_and(|a| a.army.contains(&unit)))
            .map(|n| n.space)
    }
}

/// A value a rule script set for a power's units of one type (`set_value`), applied to them in
/// every battle begun while it stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StandingValue {
    pub power: PowerId,
    pub kind: UnitTypeId,
    /// Defense rather than attack.
    pub defense: bool,
    pub value: u8,
    /// Gone when the turn in progress ends (else until a script clears it).
    pub this_turn: bool,
}

/// The values standing, shared with the copies commands run on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StandingValues(pub Arc<Vec<StandingValue>>);

// Nothing when none stands, so states from before scripts could set values hash as they did.
impl std::hash::Hash for StandingValues {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        if !self.0.is_empty() {
            h.write_u8(0xa5);
            self.0.hash(h);
        }
    }
}

impl StandingValues {
    /// The value standing for a unit of this power and type on this side, if any.
    pub fn of(&self, power: PowerId, kind: UnitTypeId, defense: bool) -> Option<u8> {
        self.0
            .iter()
            .find(|v| v.power == power && v.kind == kind && v.defense == defense)
            .map(|v| v.value)
    }
}

/// Put land units that are at sea without a ride aboard their owner's transports, heaviest
/// first, filling one transport before the next.
pub(crate) fn board_cargo(rules: &RuleSet, units: &mut [Unit]) {
    let mut cargo: Vec<usize> = (0..units.len())
        .filter(|&i| {
            let t = rules.unit(units[i].kind);
            units[i].aboard.is_none() && t.domain == crate::rules::Domain::Land && t.transport_cost.is_some()
        })
        .collect();
    cargo.sort_by_key(|&i| std::cmp::Reverse(rules.unit(units[i].kind).transport_cost));
    for i in cargo {
        let cost = rules.unit(units[i].kind).transport_cost.unwrap_or(0);
        let owner = units[i].owner;
        let ride = units
            .iter()
            .filter(|t| t.owner == owner && rules.unit(t.kind).transport_capacity > 0)
            .find(|t| {
                let used: u32 = units
                    .iter()
                    .filter(|c| c.aboard == Some(t.id))
                    .filter_map(|c| rules.unit(c.kind).transport_cost)
                    .sum();
                used + cost <= rules.unit(t.kind).transport_capacity
            })
            .map(|t| t.id);
        units[i].aboard = ride;
    }
}

impl State {
    /// `n` dice as rolled at the table: faces typed there first, then the generator; `None`
    /// with manual dice when fewer than `n` were typed (nothing is consumed then).
    pub fn roll_table(&mut self, n: usize) -> Option<Vec<u8>> {
        use crate::combat::Roller;
        let mut faces = Vec::new();
        let mut table = crate::combat::TableDice {
            queue: &mut self.dice_queue,
            dice: &mut self.dice,
            manual: self.manual_dice,
        };
        table.roll(n, &mut faces).then_some(faces)
    }

    /// The starting position of a scenario.
    pub fn setup(rules: &RuleSet, scenario: &Scenario, seed: u64) -> State {
        let n = rules.powers.len();
        let mut spaces: Vec<SpaceState> = rules
            .board
            .spaces
            .iter()
            .map(|s| SpaceState {
                controller: if s.is_sea() { None } else { s.owner },
                ..SpaceState::default()
            })
            .collect();
        for (space, power) in &scenario.control {
            spaces[space.index()].controller = Some(*power);
        }
        let mut next_unit_id = 0;
        for p in &scenario.setup {
            match p.piece {
                Piece::Unit(kind) => {
                    for _ in 0..p.count {
                        spaces[p.space.index()]
                            .units
                            // A second economy's units are its power's.
                            .push(Unit::new(next_unit_id, kind, rules.relation_holder(p.owner)));
                        next_unit_id += 1;
                    }
                }
                Piece::Facility(kind) => {
                    for _ in 0..p.count {
                        spaces[p.space.index()]
                            .facilities
                            .push(Facility { kind, damage: 0 });
                    }
                }
            }
        }
        // Land units a setup puts at sea start aboard their power's transports there.
        for (i, sp) in spaces.iter_mut().enumerate() {
            if rules.board.spaces[i].is_sea() {
                board_cargo(rules, &mut sp.units);
            }
        }
        for (space, kind, dmg) in &scenario.damage {
            if let Some(f) = spaces[space.index()]
                .facilities
                .iter_mut()
                .find(|f| f.kind == *kind)
            {
                f.damage = *dmg;
            }
        }
        let mut treasuries = vec![0; n];
        for (p, ipcs) in &scenario.ipcs {
            treasuries[p.index()] = *ipcs;
        }
        let relations = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        let pair = (PowerId(a as u8), PowerId(b as u8));
                        if rules.powers[a].side == rules.powers[b].side {
                            Relation::Allied
                        } else if scenario.at_peace.contains(&pair)
                            || scenario.at_peace.contains(&(pair.1, pair.0))
                        {
                            Relation::Peace
                        } else {
                            Relation::War
                        }
                    })
                    .collect()
            })
            .collect();
        let spaces = Spaces::new(spaces);
        let this_turn = TurnState::begin(&spaces);
        State {
            this_turn,
            round: 1,
            turn: 0,
            phase: 0,
            choices: 0,
            other_turns: Vec::new(),
            spaces,
            treasuries: Arc::new(treasuries),
            techs: Arc::new(vec![Vec::new(); n]),
            research_tokens: Arc::new(vec![0; n]),
            breakthrough_pending: false,
            relations: Arc::new(relations),
            purchased: Arc::new(vec![Vec::new(); n]),
            next_unit_id,
            dice: Dice::seeded(seed),
            winner: None,
            combat: None,
            dice_queue: Vec::new(),
            manual_dice: false,
            casualty_orders: Arc::new(vec![Vec::new(); n]),
            phase_acted: false,
            standing_values: StandingValues::default(),
            questions: Questions::default(),
            neutrals: Neutrals::default(),
        }
    }

    /// `to` acts now, after `from`: `this_turn` becomes `to`'s record of the turn and `from`'s
    /// is kept aside until it acts again.
    pub fn hand_turn(&mut self, from: PowerId, to: PowerId) {
        if from == to {
            return;
        }
        let theirs = match self.other_turns.iter().position(|(p, _)| *p == to) {
            Some(i) => self.other_turns.remove(i).1,
            None => TurnState::begin(&self.spaces),
        };
        let mine = std::mem::replace(&mut self.this_turn, theirs);
        self.other_turns.push((from, mine));
        self.other_turns.sort_by_key(|(p, _)| *p);
    }

    /// Every record of the turn in progress: the acting power's first, then the others'.
    pub fn turn_records(&self) -> impl Iterator<Item = &TurnState> {
        std::iter::once(&self.this_turn).chain(self.other_turns.iter().map(|(_, t)| t))
    }

    pub fn space(&self, id: SpaceId) -> &SpaceState {
        &self.spaces[id.index()]
    }

    /// The space to change (copied first if another state still shares it).
    pub fn space_mut(&mut self, id: SpaceId) -> &mut SpaceState {
        self.spaces.edit(id.index())
    }

    /// Take the units of a space that match, in order, out of it.
    pub fn take_units(&mut self, space: SpaceId, mut pick: impl FnMut(&Unit) -> bool) -> Vec<Unit> {
        let units = &mut self.space_mut(space).units;
        let mut taken = Vec::new();
        let mut i = 0;
        while i < units.len() {
            if pick(&units[i]) {
                taken.push(units.remove(i));
            } else {
                i += 1;
            }
        }
        taken
    }

    /// Remove a unit and everything aboard it (cargo is lost with its ship). Returns the units
    /// removed, the unit itself first; empty when no such unit is in the space.
    pub fn remove_unit(&mut self, space: SpaceId, id: u32) -> Vec<Unit> {
        let units = &mut self.space_mut(space).units;
        let Some(i) = units.iter().position(|u| u.id == id) else {
            return Vec::new();
        };
        let mut gone = vec![units.remove(i)];
        let mut k = 0;
        while k < units.len() {
            if units[k].aboard == Some(id) {
                gone.push(units.remove(k));
            } else {
                k += 1;
            }
        }
        gone
    }

    /// A stable 64-bit hash of the whole state (hash scheme 4): every field but the spaces, then
    /// the hash of each chunk of spaces ([`Spaces`]) over each space's own hash, both kept while
    /// unchanged (a command changes a few spaces; hashing all of them again was a quarter of a
    /// random game's time), mixed a word at a time ([`Mix`]). Who held each space at the start
    /// of the turn is mixed as its digest, computed once a turn. (Scheme 2 mixed every space's
    /// hash and the start of turn control space by space: most of the hash's time. Scheme 4
    /// is scheme 3 with what units carry since: the `blitzed` mark and scripts' tags.)
    ///
    /// Architecture invariant: every field of `State` takes part. The destructuring below
    /// names them all, so a new field does not compile until it is hashed here too.
    pub fn hash(&self) -> u64 {
        self.mix(true)
    }

    /// The hash as saves and recordings of hash scheme 2 hold it: [`State::hash`] with the
    /// turn records' start of turn control mixed as their derived encoding and each space's
    /// own hash mixed in turn.
    pub fn hash_v2(&self) -> u64 {
        in_legacy_scheme(|| self.mix(false))
    }

    /// The hash as saves and recordings of hash scheme 3 hold it: [`State::hash`] without what
    /// scheme 4 added (the units' `blitzed` mark and the tags scripts write on units).
    pub fn hash_v3(&self) -> u64 {
        in_legacy_scheme(|| self.mix(true))
    }

    fn mix(&self, scheme_3: bool) -> u64 {
        use std::hash::{Hash, Hasher};
        let State {
            round,
            turn,
            phase,
            choices,
            spaces,
            treasuries,
            techs,
            research_tokens,
            breakthrough_pending,
            relations,
            purchased,
            next_unit_id,
            dice,
            winner,
            this_turn,
            other_turns,
            combat,
            dice_queue,
            manual_dice,
            casualty_orders,
            phase_acted,
            standing_values,
            questions,
            neutrals,
        } = self;
        let mut h = Mix::new();
        round.hash(&mut h);
        turn.hash(&mut h);
        phase.hash(&mut h);
        choices.hash(&mut h);
        treasuries.hash(&mut h);
        techs.hash(&mut h);
        research_tokens.hash(&mut h);
        breakthrough_pending.hash(&mut h);
        relations.hash(&mut h);
        purchased.hash(&mut h);
        next_unit_id.hash(&mut h);
        dice.hash(&mut h);
        winner.hash(&mut h);
        if scheme_3 {
            this_turn.mix(&mut h);
            h.write_usize(other_turns.len());
            for (p, t) in other_turns {
                p.hash(&mut h);
                t.mix(&mut h);
            }
        } else {
            this_turn.hash(&mut h);
            other_turns.hash(&mut h);
        }
        combat.hash(&mut h);
        dice_queue.hash(&mut h);
        manual_dice.hash(&mut h);
        casualty_orders.hash(&mut h);
        phase_acted.hash(&mut h);
        standing_values.hash(&mut h);
        questions.hash(&mut h);
        neutrals.hash(&mut h);
        spaces.mix_into(&mut h, scheme_3);
        h.0
    }

    /// [`State::hash`] computed afresh, every space's own hash included: what the cached one
    /// must equal (the random games check it).
    pub fn hash_uncached(&self) -> u64 {
        let mut copy = self.clone();
        // A copy of a space starts without a cached hash.
        copy.spaces = self.spaces.unshared();
        copy.hash()
    }

    /// The hash as saves and recordings of hash scheme 1 hold it: FNV-1a over the derived
    /// `Hash` encoding of the whole state, spaces in place. Kept so those files still check.
    pub fn hash_v1(&self) -> u64 {
        in_legacy_scheme(|| {
            let mut h = Fnv::new();
            std::hash::Hash::hash(self, &mut h);
            h.0
        })
    }
}

/// Hash schemes 2 and 3's hasher: one multiply per integer written (FxHash's mix) rather than FNV's
/// one per byte; integers are taken as little-endian words whatever their width, so every
/// machine agrees.
pub(super) struct Mix(pub(super) u64);

impl Mix {
    pub(super) fn new() -> Self {
        // Not FNV's basis: no state hashes the same under both schemes by construction.
        Mix(0x2d35_8dcc_aa6c_78a5)
    }
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }
    fn write_u8(&mut self, v: u8) {
        self.add(u64::from(v));
    }
    fn write_u16(&mut self, v: u16) {
        self.add(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.add(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }
    fn write_u128(&mut self, v: u128) {
        self.add(v as u64);
        self.add((v >> 64) as u64);
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    // Fixed-width little-endian for every integer, so 32- and 64-bit, big- and little-endian
    // machines agree.
    fn write_u16(&mut self, v: u16) {
        self.write(&v.to_le_bytes());
    }
    fn write_u32(&mut self, v: u32) {
        self.write(&v.to_le_bytes());
    }
    fn write_u64(&mut self, v: u64) {
        self.write(&v.to_le_bytes());
    }
    fn write_usize(&mut self, v: usize) {
        self.write(&(v as u64).to_le_bytes());
    }
    fn write_i64(&mut self, v: i64) {
        self.write(&v.to_le_bytes());
    }
    fn write_isize(&mut self, v: isize) {
        self.write(&(v as i64).to_le_bytes());
    }
}
