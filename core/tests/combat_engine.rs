//! The combat engine (core/src/combat) on the real unit tables of 1941 (seed 002) and
//! Anniversary (seed 001), with scripted dice.
//!
//! Most tests are one line of input and one line of expected result, `check(input, expected)`:
//!
//! ```text
//! input:    "<1941|anniversary> <land|sea>: <units> vs <units>[; option]..."
//!           units: "2 infantry, 1 seaborne tank, 1 bb" (names, ids or abbreviations)
//!           options: "dice 26 | 1" (every digit is one face, in the order the engine draws
//!           them: by step, then by value; spaces and bars only group them for the reader,
//!           bars between rounds), "may retreat" (the attacker has a space to retreat to, and
//!           always presses on), "retreat after N" (it retreats when asked in round N),
//!           "low luck", "bombard 1 bb"
//! expected: "<outcome> | A: <survivors> | D: <survivors> | dice N[ | asks: ...]"
//! ```
//!
//! Survivors are the units still on the battle board, by type ("damaged" when a two-hit unit
//! has taken one hit; retreated and submerged units are listed as such). `dice N` is the number
//! of dice the battle drew; every scripted face must be used. `asks` counts the questions the
//! battle put to the players about submerging and retreating (questions about casualties are
//! answered with the engine's suggestion and are tested on their own below).
//!
//! The edition's `[combat]` section is set here, not read from editions/, so these tests pin the
//! engine rather than the data: Anniversary fights bombardment, then antiaircraft fire, before
//! the first round (001 · Amphibious Assault Sequence: bombardment is step 2, land combat step
//! 3; Antiaircraft Guns: "made immediately before normal combat"); 1941 has neither
//! (002 · General Combat Sequence; 1. Amphibious Assaults). Both have the same round: submarine
//! surprise strike, attacker fires, defender fires, remove the defender's casualties, press or
//! retreat (002 · General Combat Sequence steps 2-6; 001 · steps 2-5).

use std::path::Path;
use std::sync::OnceLock;

use warroom_core::combat::{
    Battle, Combatant, Need, Observer, Outcome, Profiles, Progress, Quiet, Report, Scripted, Side, Status,
};
use warroom_core::layers::LoadRequest;
use warroom_core::rules::{self, CombatRules, DiceRule, PowerId, SpaceId, Step, UnitTypeId};

// ---------------------------------------------------------------------------------------------
// Editions

struct Edition {
    profiles: Profiles,
    /// (every name a unit type answers to, lower case; its id; its canonical id string)
    names: Vec<(Vec<String>, UnitTypeId, String)>,
}

impl Edition {
    fn load(name: &str, first_round: Vec<Step>) -> Edition {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editions");
        let rules =
            rules::load(&LoadRequest::new(dir, name)).unwrap_or_else(|e| panic!("{name}: {:#?}", e.problems));
        let mut profiles = Profiles::new(&rules);
        profiles.rules = CombatRules {
            first_round,
            round: vec![
                Step::SurpriseStrike,
                Step::AttackerFires,
                Step::DefenderFires,
                Step::RemoveCasualties,
                Step::PressOrRetreat,
            ],
            ..Default::default()
        };
        let names = rules
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let mut all = vec![u.id.to_lowercase(), u.name.to_lowercase()];
                all.extend(u.abbrevs.iter().map(|a| a.to_lowercase()));
                (all, UnitTypeId(i as u16), u.id.clone())
            })
            .collect();
        Edition { profiles, names }
    }

    fn kind(&self, name: &str) -> UnitTypeId {
        let key = name.trim().to_lowercase();
        let singular = key.strip_suffix('s').unwrap_or(&key).to_string();
        self.names
            .iter()
            .find(|(all, _, _)| all.contains(&key) || all.contains(&singular))
            .map(|(_, id, _)| *id)
            .unwrap_or_else(|| panic!("no unit type `{name}`"))
    }

    fn id(&self, kind: UnitTypeId) -> &str {
        &self.names[kind.index()].2
    }
}

fn anniversary() -> &'static Edition {
    static E: OnceLock<Edition> = OnceLock::new();
    E.get_or_init(|| Edition::load("anniversary", vec![Step::Bombardment, Step::AntiAir]))
}

fn e1941() -> &'static Edition {
    static E: OnceLock<Edition> = OnceLock::new();
    E.get_or_init(|| Edition::load("1941", Vec::new()))
}

fn global1940() -> &'static Edition {
    static E: OnceLock<Edition> = OnceLock::new();
    E.get_or_init(|| Edition::load("global1940", vec![Step::AntiAir]))
}

fn edition(name: &str) -> &'static Edition {
    match name {
        "1941" => e1941(),
        "anniversary" => anniversary(),
        "global1940" => global1940(),
        _ => panic!("unknown edition `{name}`"),
    }
}

// ---------------------------------------------------------------------------------------------
// Setting a battle up from a line of text

const ATTACKER: PowerId = PowerId(0);
const DEFENDER: PowerId = PowerId(1);
const HOME: SpaceId = SpaceId(1);

struct Setup {
    ed: &'static Edition,
    profiles: Profiles,
    battle: Battle,
    faces: Vec<u8>,
    retreat_after: Option<u32>,
}

/// "2 infantry, 1 seaborne tank, 2 airborne infantry" as combatants of one side, ids counting
/// on from `next_id`.
fn units(ed: &Edition, list: &str, side: Side, next_id: &mut u32) -> Vec<Combatant> {
    let mut out = Vec::new();
    for item in list
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "-")
    {
        let (count, rest) = item
            .split_once(' ')
            .unwrap_or_else(|| panic!("`{item}`: count and unit"));
        let count: u32 = count.parse().unwrap_or_else(|_| panic!("`{item}`: count first"));
        let (seaborne, rest) = match rest.strip_prefix("seaborne ") {
            Some(n) => (true, n),
            None => (false, rest),
        };
        let (airborne, name) = match rest.strip_prefix("airborne ") {
            Some(n) => (true, n),
            None => (false, rest),
        };
        let kind = ed.kind(name);
        let owner = if side == Side::Attacker {
            ATTACKER
        } else {
            DEFENDER
        };
        for _ in 0..count {
            let mut c = Combatant::new(*next_id, kind, owner, side, ed.profiles.of(kind).hits);
            c.seaborne = seaborne;
            c.airborne = airborne;
            *next_id += 1;
            out.push(c);
        }
    }
    out
}

fn setup(input: &str) -> Setup {
    let (head, rest) = input.split_once(':').expect("`<edition> <land|sea>: ...`");
    let (ed_name, terrain) = head.trim().split_once(' ').expect("`<edition> <land|sea>`");
    let ed = edition(ed_name);
    let sea = match terrain.trim() {
        "sea" => true,
        "land" => false,
        t => panic!("`{t}`: land or sea"),
    };
    let mut parts = rest.split(';').map(str::trim);
    let forces = parts.next().expect("units");
    let (att, def) = forces.split_once(" vs ").expect("`<attackers> vs <defenders>`");
    let mut next_id = 1;
    let mut all = units(ed, att, Side::Attacker, &mut next_id);
    all.extend(units(ed, def, Side::Defender, &mut next_id));
    let mut battle = Battle::new(SpaceId(0), sea, ATTACKER, all);
    let mut profiles = ed.profiles.clone();
    let mut faces = Vec::new();
    let mut retreat_after = None;
    for opt in parts {
        if let Some(d) = opt.strip_prefix("dice") {
            for c in d.chars().filter(|c| !c.is_whitespace() && *c != '|') {
                let f = c.to_digit(10).filter(|f| (1..=6).contains(f));
                faces.push(f.unwrap_or_else(|| panic!("`{c}` is not a die face")) as u8);
            }
        } else if opt == "may retreat" {
            battle.retreat_to = vec![HOME];
        } else if let Some(n) = opt.strip_prefix("retreat after ") {
            battle.retreat_to = vec![HOME];
            retreat_after = Some(n.parse().expect("a round number"));
        } else if opt == "low luck" {
            profiles.rules.dice = DiceRule::LowLuck;
        } else if let Some(list) = opt.strip_prefix("bombard ") {
            battle.bombarding = units(ed, list, Side::Attacker, &mut next_id);
        } else {
            panic!("unknown option `{opt}`");
        }
    }
    Setup {
        ed,
        profiles,
        battle,
        faces,
        retreat_after,
    }
}

// ---------------------------------------------------------------------------------------------
// Fighting it and describing the result

/// Keeps what the battle reported, for failure messages.
#[derive(Default)]
struct Log(Vec<String>);

impl Observer for Log {
    fn report(&mut self, _b: &Battle, r: &Report) {
        self.0.push(format!("{r:?}"));
    }
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::AttackerWon => "attacker won",
        Outcome::DefenderWon => "defender won",
        Outcome::BothDestroyed => "both destroyed",
        Outcome::Stalemate => "stalemate",
        Outcome::Retreated => "retreated",
        Outcome::Ended => "ended",
    }
}

/// A side's units still in the battle (or gone from it without being destroyed), by type.
fn survivors(ed: &Edition, p: &Profiles, b: &Battle, side: Side) -> String {
    let mut groups: Vec<(UnitTypeId, &'static str, u32)> = Vec::new();
    for u in b.units.iter().filter(|u| u.side == side) {
        let state = match u.status {
            Status::Dead => continue,
            Status::Hit => "hit",
            Status::Submerged => "submerged",
            Status::Retreated => "retreated",
            Status::Fighting if u.hp < p.of(u.kind).hits => "damaged",
            Status::Fighting => "",
        };
        match groups.iter_mut().find(|g| g.0 == u.kind && g.1 == state) {
            Some(g) => g.2 += 1,
            None => groups.push((u.kind, state, 1)),
        }
    }
    if groups.is_empty() {
        return "-".into();
    }
    groups.sort();
    groups
        .iter()
        .map(|(k, state, n)| {
            let mut s = format!("{n} {}", ed.id(*k));
            if !state.is_empty() {
                s.push(' ');
                s.push_str(state);
            }
            s
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Fight the battle: casualties as suggested, no submarine submerges, the attacker presses on
/// unless told to retreat in this round.
fn fight(s: &mut Setup, dice: &mut Scripted, log: &mut Log) -> (String, [u32; 3]) {
    // Questions asked: attacker submerge, defender submerge, press or retreat.
    let mut asked = [0u32; 3];
    for _ in 0..1000 {
        match s.battle.advance(&s.profiles, dice, log) {
            Progress::Over(o) => return (outcome_name(o).into(), asked),
            Progress::Aborted => return ("aborted".into(), asked),
            Progress::Need => {}
        }
        match s.battle.waiting.clone().expect("a question") {
            Need::Casualties(_) => s.battle.choose_casualties(&s.profiles, None, log).unwrap(),
            Need::Submerge { side } => {
                asked[if side == Side::Attacker { 0 } else { 1 }] += 1;
                s.battle.submerge(&s.profiles, side, &[], log).unwrap();
            }
            Need::PressOrRetreat => {
                asked[2] += 1;
                if s.retreat_after == Some(s.battle.round) {
                    s.battle.retreat(&s.profiles, Some(HOME), log).unwrap();
                } else {
                    s.battle.press().unwrap();
                }
            }
            Need::Dice { count, step } => {
                return (format!("waiting for {count} dice ({})", step.name()), asked);
            }
        }
    }
    ("no end after 1000 questions".into(), asked)
}

fn render(s: &Setup, dice: &Scripted, outcome: &str, asked: [u32; 3]) -> String {
    let b = &s.battle;
    assert_eq!(
        b.dice_drawn as usize,
        dice.drawn(),
        "the battle counts the dice it drew"
    );
    let mut out = format!(
        "{outcome} | A: {} | D: {} | dice {}",
        survivors(s.ed, &s.profiles, b, Side::Attacker),
        survivors(s.ed, &s.profiles, b, Side::Defender),
        b.dice_drawn
    );
    if dice.left() > 0 {
        out.push_str(&format!(" ({} unused)", dice.left()));
    }
    let asks: Vec<String> = ["A-submerge", "D-submerge", "press"]
        .iter()
        .zip(asked)
        .filter(|(_, n)| *n > 0)
        .map(|(q, n)| format!("{n} {q}"))
        .collect();
    if !asks.is_empty() {
        out.push_str(&format!(" | asks: {}", asks.join(", ")));
    }
    out
}

/// Set the battle up and fight it; the result as `check` compares it.
fn run(input: &str) -> (Setup, String) {
    let mut s = setup(input);
    let mut dice = Scripted::new(&s.faces);
    let mut log = Log::default();
    let (outcome, asked) = fight(&mut s, &mut dice, &mut log);
    let got = render(&s, &dice, &outcome, asked);
    (s, format!("{got}\n{}", log.0.join("\n  ")))
}

fn check(input: &str, expected: &str) {
    let (_, got) = run(input);
    let (got, log) = got.split_once('\n').unwrap();
    assert_eq!(got, expected, "\ninput: {input}\nreports:\n  {log}");
}

/// Fight until the battle asks about casualties (submarines stay, the attacker presses on).
fn until_casualties(s: &mut Setup, dice: &mut Scripted) -> warroom_core::combat::CasualtyCall {
    for _ in 0..100 {
        match s.battle.advance(&s.profiles, dice, &mut Quiet) {
            Progress::Need => {}
            other => panic!("the battle ended ({other:?}) without asking about casualties"),
        }
        match s.battle.waiting.clone().expect("a question") {
            Need::Casualties(call) => return call,
            Need::Submerge { side } => s.battle.submerge(&s.profiles, side, &[], &mut Quiet).unwrap(),
            Need::PressOrRetreat => s.battle.press().unwrap(),
            Need::Dice { count, .. } => panic!("out of scripted dice ({count} more wanted)"),
        }
    }
    panic!("no casualty question");
}

/// Index in `Battle::units` of the `n`th (from 0) unit of this type on this side.
fn unit(s: &Setup, side: Side, name: &str, n: usize) -> usize {
    let kind = s.ed.kind(name);
    s.battle
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == side && u.kind == kind)
        .nth(n)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no {name} #{n} on the {side:?} side"))
}

// ---------------------------------------------------------------------------------------------
// Submarines

/// 002 · General Combat Sequence, Step 2: attacking subs hit on 2, their casualties go behind
/// the casualty strip; then the defending subs fire (hit on 1); "once all Surprise Strike rolls
/// have been made, remove the defender's casualties". 001 · Submarines, Surprise Strike: "If
/// both players have submarines, all the submarines get to fire a surprise strike before taking
/// casualties." So a defending sub sunk by the strike still fires its own.
#[test]
fn submarines_on_both_sides_all_strike_before_casualties_are_removed() {
    for ed in ["1941", "anniversary"] {
        check(
            &format!("{ed} sea: 1 sub vs 1 sub; dice 2 1"),
            "both destroyed | A: - | D: - | dice 2 | asks: 1 A-submerge, 1 D-submerge",
        );
        // Attacking subs hit on 2 or less, defending ones on 1 only (002 · Step 2).
        check(
            &format!("{ed} sea: 1 sub vs 1 sub; dice 3 2 | 6 1"),
            "defender won | A: - | D: 1 submarine | dice 4 | asks: 2 A-submerge, 2 D-submerge",
        );
    }
    // The strike repeats every round; the sunk defender's sub fires back in round 2 as well.
    check(
        "1941 sea: 2 sub vs 2 sub; dice 26 66 | 16 1",
        "attacker won | A: 1 submarine | D: - | dice 7 | asks: 2 A-submerge, 2 D-submerge",
    );
}

/// 002 · Step 2: "if the opposing side has a destroyer in the battle, the attacking or defending
/// submarines cannot submerge or make a Surprise Strike ... your submarines fire along with your
/// other units in step 3 or 4"; 001 · Submarines, How submarines conduct combat. The defending
/// sub still strikes (the attacker has no destroyer) and, having fired, does not fire again in
/// step 4 (002 · Specific to Sea Battles).
#[test]
fn an_attacking_submarine_facing_a_destroyer_fires_with_the_other_attackers() {
    for ed in ["1941", "anniversary"] {
        // Round 1: defending sub strikes (6), attacking sub fires in step 3 (2: the defender
        // loses its cheaper sub), the destroyer fires (6). Round 2: sub 6, destroyer 2.
        check(
            &format!("{ed} sea: 1 sub vs 1 sub, 1 destroyer; dice 6 2 6 | 6 2"),
            "defender won | A: - | D: 1 destroyer | dice 5 | asks: 1 D-submerge",
        );
    }
}

/// The same rule the other way round: an attacking destroyer takes the defending subs' surprise
/// strike and submerging away (002 · Step 2; 001 · Submarines).
#[test]
fn a_defending_submarine_facing_a_destroyer_loses_its_surprise_strike() {
    for ed in ["1941", "anniversary"] {
        // Round 1: attacking sub strikes (6); destroyer fires (6); the defending sub fires in
        // step 4 (1) and sinks the attacker's cheaper sub. Round 2: destroyer 2, sub 6.
        check(
            &format!("{ed} sea: 1 sub, 1 destroyer vs 1 sub; dice 6 6 1 | 2 6"),
            "attacker won | A: 1 destroyer | D: - | dice 5 | asks: 1 A-submerge",
        );
    }
}

/// 002 · Step 2: "Any hits made during this step that do not destroy units (such as battleships)
/// remain in effect until the end of the combat"; 001 · Battleships, Two Hits to Destroy ("even
/// by a submarine's Surprise Strike"). Sunk by the strike in round 2, the battleship never fires
/// that round (casualties of a surprise strike are removed before they can roll).
#[test]
fn a_surprise_strike_damages_a_battleship_and_a_later_one_sinks_it() {
    for ed in ["1941", "anniversary"] {
        check(
            &format!("{ed} sea: 1 sub vs 1 battleship; dice 2 6 | 1"),
            "attacker won | A: 1 submarine | D: - | dice 3 | asks: 2 A-submerge",
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Defenseless transports

/// 002 · Step 6, Defenseless Transports; 001 · Defenseless Transports: "if the defender has only
/// transports remaining and the attacker still has units capable of attacking, the defending
/// transports are all destroyed ... You don't have to continue rolling dice". No dice, and the
/// attacker is never asked whether to retreat.
#[test]
fn lone_defending_transports_are_destroyed_without_dice() {
    check(
        "anniversary sea: 1 destroyer vs 2 transport; may retreat",
        "attacker won | A: 1 destroyer | D: - | dice 0",
    );
    check(
        "1941 sea: 1 battleship vs 1 transport; may retreat",
        "attacker won | A: 1 battleship | D: - | dice 0",
    );
    // Once the escort is gone, the transport left alone goes without a roll.
    check(
        "anniversary sea: 1 destroyer vs 1 transport, 1 destroyer; may retreat; dice 2 6",
        "attacker won | A: 1 destroyer | D: - | dice 2",
    );
}

/// 002 · Defenseless Transports: "if the defender has only transports and submarines remaining,
/// and the attacker has only air units remaining, the air units and submarines can't hit each
/// other, so the transports are defenseless"; what is left cannot hurt each other, so the
/// combat ends (Condition A).
#[test]
fn transports_beside_a_submarine_facing_only_aircraft_are_defenseless() {
    for ed in ["1941", "anniversary"] {
        check(
            &format!("{ed} sea: 1 fighter vs 1 transport, 1 sub"),
            "stalemate | A: 1 fighter | D: 1 submarine | dice 0",
        );
    }
}

/// 002 · Defenseless Transports: "Attacking transports are not usually considered defenseless,
/// since they generally have the option of retreating. If they can't retreat, they are treated
/// the same as defending transports."
#[test]
fn attacking_transports_are_defenseless_only_when_they_cannot_retreat() {
    check(
        "anniversary sea: 1 transport vs 1 destroyer",
        "defender won | A: - | D: 1 destroyer | dice 0",
    );
    check(
        "anniversary sea: 1 transport vs 1 destroyer; retreat after 1; dice 6",
        "retreated | A: 1 transport retreated | D: 1 destroyer | dice 1 | asks: 1 press",
    );
}

// ---------------------------------------------------------------------------------------------
// Antiaircraft guns (Anniversary)

/// 001 · Antiaircraft Guns: one die per attacking air unit, "only one can fire" with several
/// guns, a 1 destroys the aircraft it was rolled for ("if there is a mix of fighters and
/// bombers, you must assign specific dice rolls to specific aircraft"), before normal combat.
/// The engine rolls for fighters, then bombers. The guns are not casualties (captured instead).
#[test]
fn one_antiaircraft_gun_fires_one_die_at_each_aircraft_before_combat() {
    // AA: fighter 6, fighter 6, bomber 1: the bomber is lost, not the cheaper fighter. Then the
    // infantry (1) and two fighters (3, 6) roll; the defending infantry miss (6 6). Three AA
    // dice, not six; the bomber never rolls.
    check(
        "anniversary land: 2 fighter, 1 bomber, 1 infantry vs 2 aa_gun, 2 infantry; dice 661 1 36 66",
        "attacker won | A: 1 infantry, 2 fighter | D: 2 aa_gun | dice 8",
    );
    // Both fighters shot down: nothing is left to attack, no other die is rolled.
    check(
        "anniversary land: 2 fighter vs 1 aa_gun, 1 infantry; may retreat; dice 11",
        "defender won | A: - | D: 1 infantry, 1 aa_gun | dice 2",
    );
}

/// 000 · Breakthrough Chart 1, 3 (Paratroopers): "the paratrooper infantry units are subject to
/// antiaircraft fire in the same way as air units". A 1940 AAA rolls one die per air unit or
/// paratrooper, up to 3; its hits go to either, never to infantry that marched in.
#[test]
fn antiaircraft_fire_reaches_paratroopers_and_no_other_land_unit() {
    // Two paratroopers and a fighter: three dice (1 6 6), one hit. The owner would lose a
    // paratrooper (cheaper than the fighter), not the infantry that marched in.
    let mut s = setup(
        "global1940 land: 1 fighter, 2 airborne infantry, 1 infantry, 1 tank vs 1 aa_gun, 2 infantry; dice 166",
    );
    let mut dice = Scripted::new(&s.faces.clone());
    let call = until_casualties(&mut s, &mut dice);
    assert_eq!((call.side, call.step), (Side::Attacker, Step::AntiAir));
    let airborne: Vec<usize> = (0..s.battle.units.len())
        .filter(|&i| s.battle.units[i].airborne)
        .collect();
    assert_eq!(airborne.len(), 2);
    assert_eq!(call.suggested.len(), 1);
    assert!(airborne.contains(&call.suggested[0]), "{call:?}");
    // The infantry that marched in (the third infantry) and the tank cannot take the hit.
    let marched = unit(&s, Side::Attacker, "infantry", 2);
    assert!(!s.battle.units[marched].airborne);
    for i in [marched, unit(&s, Side::Attacker, "tank", 0)] {
        let err = s
            .battle
            .choose_casualties(&s.profiles, Some(&[i]), &mut Quiet)
            .unwrap_err();
        assert!(err.contains("cannot take these hits"), "{err}");
    }
    // The fighter may be chosen instead.
    let fighter = unit(&s, Side::Attacker, "fighter", 0);
    s.battle
        .choose_casualties(&s.profiles, Some(&[fighter]), &mut Quiet)
        .unwrap();
    assert_eq!(s.battle.units[fighter].status, Status::Dead);
    // Without paratroopers or aircraft the gun has nothing to fire at: alone, it cannot hurt
    // the attackers and is lost without a die rolled.
    check(
        "global1940 land: 2 infantry, 1 tank vs 1 aa_gun",
        "attacker won | A: 2 infantry, 1 tank | D: - | dice 0",
    );
}

// ---------------------------------------------------------------------------------------------
// Artillery (Anniversary)

/// 001 · Infantry, Supported by Artillery: "if you attack with two artillery and five
/// infantry, two of your infantry have an attack value of 2, and the rest, 1"; "Infantry are not
/// supported by artillery on defense." Faces of 2 hit only the units at 2.
#[test]
fn each_artillery_raises_one_attacking_infantry_to_two() {
    // The one unsupported infantry rolls first (2: a miss at 1), then two infantry and two
    // artillery at 2 (2222: four hits). Three supported infantry would kill all five.
    check(
        "anniversary land: 3 infantry, 2 artillery vs 5 infantry; retreat after 1; dice 2 2222 66666",
        "retreated | A: 3 infantry retreated, 2 artillery retreated | D: 1 infantry | dice 10 | asks: 1 press",
    );
    // Without artillery, infantry attack at 1.
    check(
        "anniversary land: 3 infantry vs 5 infantry; retreat after 1; dice 222 66666",
        "retreated | A: 3 infantry retreated | D: 5 infantry | dice 8 | asks: 1 press",
    );
    // On defense nothing is raised: faces of 3 miss the infantry's 2.
    check(
        "anniversary land: 3 infantry vs 2 infantry, 1 artillery; retreat after 1; dice 666 333",
        "retreated | A: 3 infantry retreated | D: 2 infantry, 1 artillery | dice 6 | asks: 1 press",
    );
}

// ---------------------------------------------------------------------------------------------
// Battleships

/// 002 · Battleship, Two Hits to Destroy: "do not remove it from play unless it takes a second
/// hit in the same combat ... If a battleship survives a combat after taking 1 hit, return it
/// upright": the damage lasts to the end of the battle (the game, not the battle, repairs it).
#[test]
fn a_battleship_takes_a_free_hit_and_a_second_hit_later_sinks_it() {
    // Round 1: one hit damages a battleship. Round 2: one destroyer is hit; two hits come back:
    // the undamaged battleship's free hit first, then the damaged one sinks. Round 3 ends it.
    check(
        "1941 sea: 2 battleship vs 2 destroyer; dice 66 26 | 46 22 | 4 6",
        "attacker won | A: 1 battleship damaged | D: - | dice 10",
    );
}

#[test]
fn a_damaged_battleship_keeps_its_damage_to_the_end_of_the_battle() {
    // The defending sub strikes (1); the battleship sinks it (4).
    let (s, got) = run("anniversary sea: 1 battleship vs 1 sub; dice 1 4");
    assert!(
        got.starts_with("attacker won | A: 1 battleship damaged | D: - | dice 2 | asks: 1 D-submerge\n"),
        "{got}"
    );
    let bb = &s.battle.units[unit(&s, Side::Attacker, "battleship", 0)];
    assert_eq!((bb.hp, bb.status), (1, Status::Fighting));
    assert_eq!(s.battle.outcome, Some(Outcome::AttackerWon));
}

// ---------------------------------------------------------------------------------------------
// Who can take which hits

/// 002 · Aircraft Carrier, Fighter Defense: "a fighter cannot be chosen as a casualty from a
/// submarine hit"; 001 · Submarines, Cannot Attack Air Units. Two hits, one ship: the second
/// hit is lost. What is left (subs, fighters without a destroyer) cannot hit each other, so
/// the combat ends (002 · Condition A).
#[test]
fn submarine_hits_never_reach_aircraft() {
    check(
        "anniversary sea: 2 sub vs 1 carrier, 2 fighter; dice 11",
        "stalemate | A: 2 submarine | D: 2 fighter | dice 2 | asks: 1 A-submerge",
    );
}

/// 002 · Specific to Sea Battles: "hits from air units cannot be assigned to submarines unless
/// there is a destroyer that is friendly to the air units in the battle".
#[test]
fn aircraft_hits_reach_submarines_only_beside_a_destroyer_of_theirs() {
    // Round 1: the defending sub strikes (6); carrier 6, fighter 3 (the hit can only go to
    // the destroyer); the destroyer misses (6). Round 2: sub 6; carrier 6, fighter 1 (a hit
    // with nowhere to go).
    check(
        "anniversary sea: 1 fighter, 1 carrier vs 1 sub, 1 destroyer; retreat after 2; dice 6 63 6 | 6 61",
        "retreated | A: 1 fighter retreated, 1 aircraft_carrier retreated | D: 1 submarine | dice 7 | asks: 2 D-submerge, 2 press",
    );
    // With an attacking destroyer the fighter's hit sinks the sub.
    check(
        "1941 sea: 1 fighter, 1 destroyer vs 1 sub; dice 63 6",
        "attacker won | A: 1 fighter, 1 destroyer | D: - | dice 3",
    );
}

#[test]
fn choose_casualties_refuses_a_submarine_hit_on_aircraft() {
    // The attacking sub faces a destroyer, so it fires in step 3 (2: a hit).
    let mut s = setup("anniversary sea: 1 sub vs 1 carrier, 1 destroyer, 1 fighter; dice 2");
    let mut dice = Scripted::new(&s.faces.clone());
    let call = until_casualties(&mut s, &mut dice);
    assert_eq!(call.side, Side::Defender);
    let (carrier, destroyer, fighter) = (
        unit(&s, Side::Defender, "carrier", 0),
        unit(&s, Side::Defender, "destroyer", 0),
        unit(&s, Side::Defender, "fighter", 0),
    );
    assert_eq!(call.suggested, vec![destroyer], "the cheaper ship");
    let err = s
        .battle
        .choose_casualties(&s.profiles, Some(&[fighter]), &mut Quiet)
        .unwrap_err();
    assert!(err.contains("submarines cannot hit aircraft"), "{err}");
    assert!(
        s.battle.waiting.is_some(),
        "a refused choice leaves the question open"
    );
    s.battle
        .choose_casualties(&s.profiles, Some(&[carrier]), &mut Quiet)
        .unwrap();
    assert_eq!(s.battle.units[carrier].status, Status::Hit);
    assert_eq!(s.battle.units[destroyer].status, Status::Fighting);
    assert_eq!(s.battle.units[fighter].status, Status::Fighting);
}

#[test]
fn choose_casualties_refuses_an_aircraft_hit_on_a_submarine_without_a_destroyer() {
    // The defending sub strikes (6), then the fighter hits (3): destroyer or cruiser.
    let mut s = setup("anniversary sea: 1 fighter vs 1 sub, 1 destroyer, 1 cruiser; dice 6 3");
    let mut dice = Scripted::new(&s.faces.clone());
    until_casualties(&mut s, &mut dice);
    let sub = unit(&s, Side::Defender, "sub", 0);
    let cruiser = unit(&s, Side::Defender, "cruiser", 0);
    let err = s
        .battle
        .choose_casualties(&s.profiles, Some(&[sub]), &mut Quiet)
        .unwrap_err();
    assert!(
        err.contains("aircraft hit submarines only beside a destroyer"),
        "{err}"
    );
    s.battle
        .choose_casualties(&s.profiles, Some(&[cruiser]), &mut Quiet)
        .unwrap();
    assert_eq!(s.battle.units[cruiser].status, Status::Hit);

    // Beside an attacking destroyer the sub may take the fighter's hit (destroyer 6, fighter 3).
    let mut s = setup("anniversary sea: 1 fighter, 1 destroyer vs 1 sub, 1 destroyer; dice 63");
    let mut dice = Scripted::new(&s.faces.clone());
    until_casualties(&mut s, &mut dice);
    let sub = unit(&s, Side::Defender, "sub", 0);
    s.battle
        .choose_casualties(&s.profiles, Some(&[sub]), &mut Quiet)
        .unwrap();
    assert_eq!(s.battle.units[sub].status, Status::Hit);
}

/// 002 · Transport, Chosen Last: "Transports can be chosen as casualties only if there are no
/// other eligible units"; 001 · Transports, Chosen Last.
#[test]
fn choose_casualties_takes_transports_last() {
    let mut s = setup("anniversary sea: 1 destroyer vs 1 transport, 1 destroyer; dice 2");
    let mut dice = Scripted::new(&s.faces.clone());
    let call = until_casualties(&mut s, &mut dice);
    let transport = unit(&s, Side::Defender, "transport", 0);
    let destroyer = unit(&s, Side::Defender, "destroyer", 0);
    // The transport is cheaper, but goes last.
    assert_eq!(call.suggested, vec![destroyer]);
    let err = s
        .battle
        .choose_casualties(&s.profiles, Some(&[transport]), &mut Quiet)
        .unwrap_err();
    assert!(err.contains("transports are taken last"), "{err}");
    s.battle
        .choose_casualties(&s.profiles, Some(&[destroyer]), &mut Quiet)
        .unwrap();
    assert_eq!(s.battle.units[destroyer].status, Status::Hit);
    assert_eq!(s.battle.units[transport].status, Status::Fighting);
}

/// 002 · Step 3: "The defending player has to assign as many hits as possible"; a unit takes
/// no more hits than it has left; casualties are the side's own units.
#[test]
fn choose_casualties_wants_one_fitting_unit_per_hit() {
    // Two hits (2 2) on a battleship and a destroyer.
    let mut s = setup("anniversary sea: 2 destroyer vs 1 battleship, 1 destroyer; dice 22");
    let mut dice = Scripted::new(&s.faces.clone());
    let call = until_casualties(&mut s, &mut dice);
    let bb = unit(&s, Side::Defender, "battleship", 0);
    let dd = unit(&s, Side::Defender, "destroyer", 0);
    let mine = unit(&s, Side::Attacker, "destroyer", 0);
    // The battleship's free hit first, then the cheaper destroyer.
    assert_eq!(call.suggested, vec![bb, dd]);
    let refused: [&[usize]; 5] = [&[bb], &[bb, dd, dd], &[dd, dd], &[bb, mine], &[bb, 99]];
    for chosen in refused {
        assert!(
            s.battle
                .choose_casualties(&s.profiles, Some(chosen), &mut Quiet)
                .is_err(),
            "{chosen:?} was accepted"
        );
        assert!(matches!(s.battle.waiting, Some(Need::Casualties(_))));
    }
    // Both hits on the battleship sink it.
    s.battle
        .choose_casualties(&s.profiles, Some(&[bb, bb]), &mut Quiet)
        .unwrap();
    assert_eq!(
        (s.battle.units[bb].hp, s.battle.units[bb].status),
        (0, Status::Hit)
    );
    assert_eq!(s.battle.units[dd].status, Status::Fighting);
    assert!(
        s.battle.choose_casualties(&s.profiles, None, &mut Quiet).is_err(),
        "nothing to choose now"
    );
}

// ---------------------------------------------------------------------------------------------
// Default casualties

/// The default order of loss: cheapest first (so the attacker keeps its strongest units), a
/// battleship's free hit before anything is lost, and in a land battle the attacker keeps a
/// land unit while something else can take the hit, so that winning takes the territory
/// (002 · Step 7: only a surviving land unit captures).
#[test]
fn default_casualties_go_cheapest_first() {
    // Attacker: infantry (supported, 2) and artillery (2) miss, tank misses; two hits: the
    // infantry and the artillery go, the tank stays.
    check(
        "anniversary land: 1 tank, 1 artillery, 1 infantry vs 3 infantry; retreat after 1; dice 666 226",
        "retreated | A: 1 tank retreated | D: 3 infantry | dice 6 | asks: 1 press",
    );
    // Defender: two hits take the infantry and the tank; the fighter stays.
    check(
        "anniversary land: 3 tank vs 1 infantry, 1 tank, 1 fighter; retreat after 1; dice 336 666",
        "retreated | A: 3 tank retreated | D: 1 fighter | dice 6 | asks: 1 press",
    );
}

#[test]
fn default_casualties_use_a_battleships_free_hit_first() {
    check(
        "anniversary sea: 2 destroyer vs 1 destroyer, 1 battleship; retreat after 1; dice 22 66",
        "retreated | A: 2 destroyer retreated | D: 1 battleship damaged | dice 4 | asks: 1 press",
    );
}

#[test]
fn default_casualties_keep_the_attackers_last_land_unit() {
    // Round 1: the hit takes the fighter, not the cheaper infantry. Round 2: the infantry wins
    // and can take the territory.
    check(
        "anniversary land: 1 infantry, 1 fighter vs 1 infantry; may retreat; dice 66 2 | 1 6",
        "attacker won | A: 1 infantry | D: - | dice 5 | asks: 1 press",
    );
    // In a sea battle there is nothing to capture: the cheaper unit goes.
    check(
        "anniversary sea: 1 destroyer, 1 fighter vs 1 destroyer; may retreat; dice 66 2 | 3 6",
        "attacker won | A: 1 fighter | D: - | dice 5 | asks: 1 press",
    );
}

// ---------------------------------------------------------------------------------------------
// Press attack or retreat

/// 002 · Step 6, Condition B; 001 · Amphibious Assaults: "Attacking seaborne units cannot
/// retreat. Attacking overland land units and aircraft can retreat"; "Air units and overland
/// units (if any) must retreat at the same time."
#[test]
fn seaborne_land_units_fight_on_when_the_others_retreat() {
    // Round 1: four infantry at 1 and the fighter miss (6666 6), the defenders miss (666);
    // retreat. Round 2: the two seaborne infantry hit twice (11), one is lost (266). Round 3:
    // 1 against 6. No further question: seaborne units cannot retreat.
    check(
        "anniversary land: 2 infantry, 1 fighter, 2 seaborne infantry vs 3 infantry; retreat after 1; dice 6666 6 666 | 11 266 | 1 6",
        "attacker won | A: 1 infantry, 2 infantry retreated, 1 fighter retreated | D: - | dice 15 | asks: 1 press",
    );
}

/// Land units retreat only to a space they came from (002 · Condition B): with none, the
/// attacker is not asked; aircraft may always retreat (they stay and land in noncombat move).
#[test]
fn the_attacker_is_asked_to_press_or_retreat_only_when_it_can_retreat() {
    check(
        "anniversary land: 1 infantry vs 1 infantry; dice 6 6 | 1 6",
        "attacker won | A: 1 infantry | D: - | dice 4",
    );
    check(
        "anniversary land: 1 fighter vs 1 infantry; dice 6 6 | 3 6",
        "attacker won | A: 1 fighter | D: - | dice 4 | asks: 1 press",
    );
}

#[test]
fn retreat_moves_every_attacker_but_the_seaborne_ones() {
    let mut s = setup("anniversary land: 1 tank, 1 fighter, 1 seaborne infantry vs 2 infantry; may retreat");
    let mut dice = Scripted::new(&[6, 6, 6, 6, 6]);
    assert!(s.battle.press().is_err(), "nothing asked yet");
    assert_eq!(
        s.battle.advance(&s.profiles, &mut dice, &mut Quiet),
        Progress::Need
    );
    assert_eq!(s.battle.waiting, Some(Need::PressOrRetreat));
    assert_eq!(s.battle.round, 1);
    assert_eq!(dice.drawn(), 5, "one full round was fought");
    assert!(
        s.battle.retreat(&s.profiles, None, &mut Quiet).is_err(),
        "the tank needs a place to go"
    );
    assert!(
        s.battle
            .retreat(&s.profiles, Some(SpaceId(7)), &mut Quiet)
            .is_err(),
        "not a space it came from"
    );
    s.battle.retreat(&s.profiles, Some(HOME), &mut Quiet).unwrap();
    let status = |name: &str| s.battle.units[unit(&s, Side::Attacker, name, 0)].status;
    assert_eq!(status("tank"), Status::Retreated);
    assert_eq!(status("fighter"), Status::Retreated);
    assert_eq!(status("infantry"), Status::Fighting);
    assert_eq!(s.battle.outcome, None, "the seaborne infantry fights on");
    // Round 2: infantry 1 (hit), defenders 6 6; round 3: 1 and 6: the infantry wins alone.
    let mut dice = Scripted::new(&[1, 6, 6, 1, 6]);
    assert_eq!(
        s.battle.auto(&s.profiles, &mut dice, &mut Quiet),
        Progress::Over(Outcome::AttackerWon)
    );
    assert_eq!(dice.left(), 0);
    assert_eq!(s.battle.dice_drawn, 10);
}

#[test]
fn a_retreat_of_every_attacker_ends_the_battle() {
    let mut s = setup("anniversary land: 2 tank vs 2 infantry; may retreat");
    let mut dice = Scripted::new(&[6, 6, 6, 6]);
    assert_eq!(
        s.battle.advance(&s.profiles, &mut dice, &mut Quiet),
        Progress::Need
    );
    s.battle.retreat(&s.profiles, Some(HOME), &mut Quiet).unwrap();
    assert_eq!(s.battle.outcome, Some(Outcome::Retreated));
    assert_eq!(
        s.battle.advance(&s.profiles, &mut dice, &mut Quiet),
        Progress::Over(Outcome::Retreated)
    );
    assert!(s.battle.press().is_err());
}

// ---------------------------------------------------------------------------------------------
// Low luck

/// Low luck: a side's values are summed; every full 6 is a sure hit with no die, the remainder
/// is rolled as one die hitting at or under it.
#[test]
fn low_luck_turns_each_six_into_a_sure_hit_and_rolls_the_rest() {
    // Attacker 3+3+1 = 7: one sure hit and one die at 1 (2: a miss). Defender 2+2+2 = 6: one
    // sure hit, no die. One die in all.
    check(
        "anniversary land: 2 tank, 1 infantry vs 3 infantry; low luck; retreat after 1; dice 2",
        "retreated | A: 2 tank retreated | D: 2 infantry | dice 1 | asks: 1 press",
    );
    check(
        "anniversary land: 2 tank, 1 infantry vs 3 infantry; low luck; retreat after 1; dice 1",
        "retreated | A: 2 tank retreated | D: 1 infantry | dice 1 | asks: 1 press",
    );
    // 3+3 and 2+2+2: no dice at all.
    check(
        "anniversary land: 2 tank vs 3 infantry; low luck; retreat after 1",
        "retreated | A: 1 tank retreated | D: 2 infantry | dice 0 | asks: 1 press",
    );
}

// ---------------------------------------------------------------------------------------------
// Bombardment (Anniversary)

/// 001 · Amphibious Assaults, step 2: battleships hit on 4 or less; "the defender moves a
/// defending unit to the casualty zone ... These casualties will be able to defend during the
/// land combat step before they are eliminated."
#[test]
fn bombardment_casualties_fire_back_in_the_first_round() {
    // Bombardment 4: one infantry to the casualty zone. The seaborne infantry roll 1 1 (one hit
    // left to take); both defenders fire (2 6) and sink one attacker.
    check(
        "anniversary land: 2 seaborne infantry vs 2 infantry; bombard 1 battleship; dice 4 | 11 26",
        "attacker won | A: 1 infantry | D: - | dice 5",
    );
}

/// Bombardment comes first, then the antiaircraft gun, then the first round (see the header).
#[test]
fn bombardment_fires_before_the_antiaircraft_gun() {
    // Bombardment 1 (a hit), AA 6 (a miss); infantry 1 1 and fighter 3; defenders 6 6. The
    // other way round, the 1 would shoot the fighter down.
    check(
        "anniversary land: 2 seaborne infantry, 1 fighter vs 2 infantry, 1 aa_gun; bombard 1 battleship; dice 1 6 | 11 3 66",
        "attacker won | A: 2 infantry, 1 fighter | D: 1 aa_gun | dice 7",
    );
}

// ---------------------------------------------------------------------------------------------
// Seeded dice and `auto`

#[test]
fn auto_with_seeded_dice_fights_to_the_end_and_counts_every_die() {
    for seed in 0..20 {
        let mut s = setup(
            "anniversary land: 10 infantry, 5 artillery, 5 tank, 3 fighter vs 12 infantry, 2 tank, 1 fighter, 1 aa_gun",
        );
        let mut dice = warroom_core::game::dice::Dice::seeded(seed);
        let progress = s.battle.auto(&s.profiles, &mut dice, &mut Quiet);
        assert!(matches!(progress, Progress::Over(_)), "seed {seed}: {progress:?}");
        assert_eq!(u64::from(s.battle.dice_drawn), dice.rolled, "seed {seed}");
        // The same seed fights the same battle.
        let mut again = setup(
            "anniversary land: 10 infantry, 5 artillery, 5 tank, 3 fighter vs 12 infantry, 2 tank, 1 fighter, 1 aa_gun",
        );
        let mut dice = warroom_core::game::dice::Dice::seeded(seed);
        assert_eq!(
            again.battle.auto(&again.profiles, &mut dice, &mut Quiet),
            progress
        );
        assert_eq!(again.battle, s.battle, "seed {seed}");
    }
}

#[test]
fn auto_waits_when_scripted_dice_run_out() {
    let mut s = setup("1941 sea: 1 sub vs 1 sub");
    let mut dice = Scripted::new(&[6]);
    assert_eq!(s.battle.auto(&s.profiles, &mut dice, &mut Quiet), Progress::Need);
    // The defender's strike wants its die; the attacker's was drawn.
    assert!(
        matches!(
            s.battle.waiting,
            Some(Need::Dice {
                count: 1,
                step: Step::SurpriseStrike
            })
        ),
        "{:?}",
        s.battle.waiting
    );
    assert_eq!(s.battle.dice_drawn, 1);
}

/// Dice from the table: when the faces are missing the battle waits without consuming any,
/// and goes on from the same roll once they are there.
#[test]
fn a_battle_waiting_for_dice_goes_on_when_they_come() {
    let mut s = setup("1941 sea: 1 sub vs 1 sub");
    let mut none = Scripted::new(&[]);
    assert_eq!(s.battle.auto(&s.profiles, &mut none, &mut Quiet), Progress::Need);
    assert!(matches!(s.battle.waiting, Some(Need::Dice { count: 1, .. })));
    assert_eq!(s.battle.dice_drawn, 0);
    // Asking again without dice changes nothing.
    assert_eq!(s.battle.auto(&s.profiles, &mut none, &mut Quiet), Progress::Need);
    assert_eq!(s.battle.dice_drawn, 0);
    // The attacker's strike misses (3), the defender's hits (1).
    let mut dice = Scripted::new(&[3, 1]);
    assert_eq!(
        s.battle.auto(&s.profiles, &mut dice, &mut Quiet),
        Progress::Over(Outcome::DefenderWon)
    );
    assert_eq!((s.battle.dice_drawn, dice.left()), (2, 0));
}

/// 002 · Step 2, Submerge: submarines that submerge are "removed from the rest of that sea
/// battle"; only subs whose side faces no enemy destroyer may (002 · Destroyer).
#[test]
fn submerged_submarines_leave_the_battle() {
    let mut s = setup("anniversary sea: 1 cruiser vs 2 sub, 1 transport");
    let mut dice = Scripted::new(&[]);
    assert_eq!(
        s.battle.advance(&s.profiles, &mut dice, &mut Quiet),
        Progress::Need
    );
    assert_eq!(s.battle.waiting, Some(Need::Submerge { side: Side::Defender }));
    let cruiser = unit(&s, Side::Attacker, "cruiser", 0);
    let transport = unit(&s, Side::Defender, "transport", 0);
    let (sub0, sub1) = (
        unit(&s, Side::Defender, "sub", 0),
        unit(&s, Side::Defender, "sub", 1),
    );
    for wrong in [&[transport][..], &[cruiser][..]] {
        assert!(s
            .battle
            .submerge(&s.profiles, Side::Defender, wrong, &mut Quiet)
            .is_err());
    }
    assert!(
        s.battle
            .submerge(&s.profiles, Side::Attacker, &[], &mut Quiet)
            .is_err(),
        "not its turn"
    );
    s.battle
        .submerge(&s.profiles, Side::Defender, &[sub0, sub1], &mut Quiet)
        .unwrap();
    // Only the transport is left: defenseless, destroyed without dice.
    assert_eq!(
        s.battle.advance(&s.profiles, &mut dice, &mut Quiet),
        Progress::Over(Outcome::AttackerWon)
    );
    assert_eq!(s.battle.units[sub0].status, Status::Submerged);
    assert_eq!(s.battle.units[sub1].status, Status::Submerged);
    assert_eq!(s.battle.units[transport].status, Status::Dead);
    assert_eq!(s.battle.dice_drawn, 0);
}

/// 002 General Combat, Step 3: "if a destroyer and 2 submarines attack a destroyer and a carrier
/// with a fighter and score 3 hits, the defender must assign the hit from the attacking
/// destroyer to the fighter and the submarine hits to the ships." The defending destroyer
/// cancels the surprise strike, so all three fire in step 3; every hit is taken, so nothing is
/// asked; the defenders fire back from behind the strip (three misses).
#[test]
fn the_1941_rulebook_example_destroyer_hit_to_the_fighter_submarine_hits_to_the_ships() {
    check(
        "1941 sea: 1 destroyer, 2 sub vs 1 destroyer, 1 carrier, 1 fighter; dice 111 666",
        "attacker won | A: 2 submarine, 1 destroyer | D: - | dice 6",
    );
}
