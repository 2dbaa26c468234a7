//! Commands: the only way a game changes. Each has one canonical text form, which is what the
//! REPL reads, what saves store and what scenario files will be written in.

use crate::rules::{self, Lookup, Piece, PowerId, RuleSet, SpaceId, UnitTypeId, MAX_COUNT, MAX_IPCS};

use super::state::Relation;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Buy units or facilities in the purchase phase, paid by the acting power or (`economy`)
    /// by a second economy of it (`[powers] economy_of`).
    Buy {
        piece: Piece,
        count: u32,
        economy: Option<PowerId>,
    },
    /// Finish the current phase (the turn moves on to the next phase, power or round).
    EndPhase,
    /// Move units of the current power along a path (combat or noncombat move), including
    /// loading onto and offloading from transports.
    Move(Move),
    /// Mobilize purchased units (or facilities) in a space.
    Place {
        piece: Piece,
        count: u32,
        space: SpaceId,
    },
    /// Take back the last command of the current phase.
    Undo,
    /// A correction outside the rules, logged like any other command (table companion use).
    Edit(Edit),
    /// Fight the next battle of conduct combat, or the one in this space.
    Fight(Option<SpaceId>),
    /// Fight the assault on this territory with these ships bombarding it (none: no ship), the
    /// attacker's split of its ships between the shores it assaults.
    FightBombarding {
        space: SpaceId,
        ships: Vec<(UnitTypeId, u32)>,
    },
    /// Casualties for the hits waiting; empty: the suggested ones.
    Casualties(Vec<Pick>),
    /// The attacker fights another round.
    Press,
    /// Defenders of several powers disagree on their casualties: the attacker chooses.
    Disagree,
    /// The attacker retreats (land and sea units to the space; aircraft stay and land later).
    Retreat(Option<SpaceId>),
    /// Submarines that submerge now; empty: none does.
    Submerge(Vec<Pick>),
    /// Dice faces rolled at the table, used by the next rolls.
    Roll(Vec<u8>),
    /// Where dice come from from now on.
    Dice(DiceMode),
    /// The order in which a power gives up units when it takes the suggested casualties (unit
    /// types listed go first; empty: cheapest first).
    CasualtyOrder { power: PowerId, first: Vec<UnitTypeId> },
    /// The current power declares war on a power it is at peace with (`[politics]`).
    DeclareWar(PowerId),
    /// A command a layer declares (`[commands]`), carried out by its rule scripts.
    Layer(super::layer_commands::LayerCall),
    /// The answer to the question a rule script asked (`choose`): one of its answers, or its
    /// number.
    Answer(String),
    /// Ask the power at peace holding a canal or strait for passage this turn (by the canal's
    /// index in the board's list).
    AskPassage(usize),
    /// Defending air units in a territory about to be raided meet the raiders.
    Intercept {
        count: u32,
        unit: UnitTypeId,
        space: SpaceId,
    },
    /// Defending air units rise from an air base to an attacked sea zone next to it; `owner`
    /// names whose, where several powers' stand there.
    Scramble {
        count: u32,
        unit: UnitTypeId,
        owner: Option<PowerId>,
        from: SpaceId,
        to: SpaceId,
    },
    /// Buy this many researcher tokens and roll one die per token held (`[research]`).
    Research(u32),
    /// The same, the tokens paid by a second economy of the power (`research N for ECONOMY`).
    /// Research dice bought together: `own` paid by the power, `paid` by a second economy of it
    /// (`research 2 for ECONOMY`, `research 1 and 2 for ECONOMY`), all rolled at once.
    ResearchFor { own: u32, paid: u32, economy: PowerId },
    /// After a research success: roll on this chart (1-based) for a new tech.
    Breakthrough(usize),
    /// Remove damage from a facility of the current power (purchase phase).
    Repair {
        count: u32,
        space: Option<SpaceId>,
        /// Which facility there, when the territory has several (the 1940 complexes and bases).
        facility: Option<crate::rules::FacilityTypeId>,
    },
    /// A rocket attack from a unit that can make one, on an enemy facility in range.
    Rocket {
        from: SpaceId,
        target: SpaceId,
        /// The facility struck, where the target has several (`rocket from A at B air_base`).
        facility: Option<crate::rules::FacilityTypeId>,
    },
    /// In a turn where powers play in segments (`[turn.within]`) and the order is the
    /// player's choice: this power plays its part first.
    PlayFirst(PowerId),
}

/// Where a battle's dice come from (`dice manual|auto|seeded N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiceMode {
    /// Only from the table: a battle waits for the faces typed with `roll`.
    Manual,
    /// From the game's seeded generator, continuing its sequence.
    Auto,
    /// From the generator, reseeded with this number now (a save replays the same dice).
    Seeded(u64),
}

/// Which units a move takes: `count` units of a type, or one unit by its id (`#12`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pick {
    Kind {
        kind: UnitTypeId,
        count: u32,
    },
    /// Every unit of the type that can still make this move.
    All(UnitTypeId),
    Id(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub units: Vec<Pick>,
    pub from: SpaceId,
    pub to: SpaceId,
    /// The spaces passed through, in order; empty: the engine chooses the path.
    pub via: Vec<SpaceId>,
    /// Combat move into a sea zone holding only enemy submarines and transports: pass them by
    /// instead of attacking them (an amphibious assault that ignores them).
    pub ignore: bool,
    /// Combat move of bombers to an enemy territory to raid its industrial complex (a
    /// strategic bombing raid) instead of joining the battle there.
    pub bombing: bool,
    /// The facility the raid is on, where the territory has several (`bombing air_base`).
    pub target: Option<crate::rules::FacilityTypeId>,
    /// Combat move of land units flown from a facility's territory to a battle (`as
    /// paratroopers`: a tech's facility `paratroopers`).
    pub airborne: bool,
}

impl Move {
    /// A move of these units by the path the engine chooses, with none of the special forms
    /// (`ignoring`, `bombing`, `as paratroopers`).
    pub fn plain(units: Vec<Pick>, from: SpaceId, to: SpaceId) -> Move {
        Move {
            units,
            from,
            to,
            via: Vec::new(),
            ignore: false,
            bombing: false,
            target: None,
            airborne: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    Treasury {
        power: PowerId,
        ipcs: i64,
    },
    Control {
        space: SpaceId,
        power: Option<PowerId>,
    },
    AddUnits {
        space: SpaceId,
        owner: PowerId,
        unit: UnitTypeId,
        count: u32,
    },
    RemoveUnits {
        space: SpaceId,
        owner: PowerId,
        unit: UnitTypeId,
        count: u32,
    },
    Relation {
        a: PowerId,
        b: PowerId,
        relation: Relation,
    },
    /// A tag on units, as rule scripts keep them (`mark`): at the table, a veteran remembered.
    Mark {
        space: SpaceId,
        owner: PowerId,
        unit: UnitTypeId,
        count: u32,
        tag: String,
        value: i64,
    },
    /// Damage at the table: a facility's points (`owner: None`), or how many of a power's
    /// units of a two-hit type stand damaged.
    Damage {
        space: SpaceId,
        owner: Option<PowerId>,
        piece: Piece,
        amount: u32,
    },
}

/// The words of a command line; double quotes group words with spaces.
pub fn tokenize(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err("unclosed quote".into());
    }
    if any {
        out.push(cur);
    }
    Ok(out)
}

/// A name as a command writes it: quoted when it has spaces.
/// `s` onto `t`, in double quotes when it holds whitespace (as [`quote`]).
fn push_quoted(t: &mut String, s: &str) {
    if s.contains(char::is_whitespace) {
        t.push('"');
        t.push_str(s);
        t.push('"');
    } else {
        t.push_str(s);
    }
}

/// A list of unit picks onto `t`: `2 infantry, all tank, #12`.
fn push_picks(t: &mut String, rules: &RuleSet, units: &[Pick]) {
    use std::fmt::Write;
    for (i, p) in units.iter().enumerate() {
        if i > 0 {
            t.push_str(", ");
        }
        match p {
            Pick::Kind { kind, count } => {
                let _ = write!(t, "{count} ");
                t.push_str(&rules.unit(*kind).id);
            }
            Pick::All(kind) => {
                t.push_str("all ");
                t.push_str(&rules.unit(*kind).id);
            }
            Pick::Id(id) => {
                let _ = write!(t, "#{id}");
            }
        }
    }
}

pub fn quote(s: &str) -> String {
    if s.contains(char::is_whitespace) {
        format!("\"{s}\"")
    } else {
        s.to_string()
    }
}

/// The name at the start of `words` and how many words it took: the longest run of leading
/// words that names something exactly (`exact`), else the longest that names one thing by a
/// prefix (`lookup`). A run naming several things is an error listing them, unless a longer
/// run names one. No name has more than `most` words ([`rules::most_words`]), so longer runs
/// are not tried: a line of a million words costs a million, not a million squared.
fn take_name<T>(
    words: &[String],
    what: &str,
    most: usize,
    exact: impl Fn(&str) -> Option<T>,
    lookup: impl Fn(&str) -> Lookup<T>,
) -> Result<(T, usize), String> {
    let mut count = 0;
    let longest = words
        .iter()
        .take_while(|w| {
            // A word typed in quotes may hold several; an empty one still takes a turn.
            count += w.split_whitespace().count().max(1);
            count <= most
        })
        .count();
    if let Some(found) = (1..=longest)
        .rev()
        .find_map(|n| exact(&words[..n].join(" ")).map(|v| (v, n)))
    {
        return Ok(found);
    }
    let mut ambiguous = None;
    for n in (1..=longest).rev() {
        let typed = words[..n].join(" ");
        match lookup(&typed) {
            Lookup::Found(v) => return Ok((v, n)),
            Lookup::Ambiguous(c) => {
                ambiguous.get_or_insert_with(|| could_be(&typed, &c));
            }
            Lookup::Missing => {}
        }
    }
    Err(ambiguous.unwrap_or_else(|| not_found(what, words)))
}

/// The most words a power's name or abbreviation has.
fn power_words(rules: &RuleSet) -> usize {
    rules::most_words(
        rules
            .powers
            .iter()
            .flat_map(|p| std::iter::once(p.name.as_str()).chain(p.abbrev.as_deref())),
    )
}

/// The most words a space's name has, and one more for a sea zone's `5 sea zone` form.
fn space_words(rules: &RuleSet) -> usize {
    rules::most_words(rules.board.spaces.iter().map(|s| s.name.as_str())) + 1
}

/// `"east" could be: East Indies, Eastern Europe, ...` (at most 12 names).
fn could_be(typed: &str, candidates: &[String]) -> String {
    format!(
        "\"{typed}\" could be: {}",
        crate::rules::name_list(candidates, 12)
    )
}

/// The verbs [`Command::parse`] knows, each once (what a mistyped verb is matched against).
pub const VERBS: &[&str] = &[
    "answer",
    "ask",
    "intercept",
    "scramble",
    "buy",
    "end",
    "move",
    "place",
    "undo",
    "edit",
    "fight",
    "casualties",
    "press",
    "disagree",
    "retreat",
    "submerge",
    "roll",
    "order",
    "dice",
    "declare",
    "research",
    "breakthrough",
    "repair",
    "rocket",
    "play",
];

/// Other words [`Command::parse`] takes for some of [`VERBS`].
pub const ALIASES: &[&str] = &["done", "end-phase", "mv", "mobilize", "battle", "lose"];

/// Whether [`Command::parse`] knows this verb (any case).
pub fn is_verb(verb: &str) -> bool {
    let v = verb.to_lowercase();
    VERBS.iter().chain(ALIASES).any(|k| *k == v)
}

/// The refusal of a verb nobody knows, with the closest of [`VERBS`] and `also` (a shell's
/// own commands): a near spelling, else the only one it is a prefix of.
pub fn unknown_verb(verb: &str, also: &[&str]) -> String {
    let all = || VERBS.iter().chain(also).copied();
    let lower = verb.to_lowercase();
    let near = crate::tree::closest_key(&lower, all()).or_else(|| {
        let mut starts = all().filter(|v| v.starts_with(lower.as_str()));
        match (starts.next(), starts.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    });
    match near {
        Some(v) => format!("unknown command `{verb}`; did you mean `{v}`?"),
        None => format!("unknown command `{verb}`; `help` lists the commands"),
    }
}

impl Command {
    /// One line of the command language, read by its first word (the verb); each family of
    /// commands is parsed by its own function below.
    pub fn parse(rules: &RuleSet, line: &str) -> Result<Command, String> {
        let words = tokenize(line)?;
        let Some(verb) = words.first() else {
            return Err("empty command".into());
        };
        let rest = &words[1..];
        match verb.to_lowercase().as_str() {
            "buy" => parse_buy(rules, rest),
            "end" | "done" | "end-phase" => Ok(Command::EndPhase),
            "move" | "mv" => parse_move(rules, rest).map(Command::Move),
            "place" | "mobilize" => parse_place(rules, rest),
            "undo" => parse_undo(rest),
            "edit" => parse_edit(rules, rest).map(Command::Edit),
            "fight" | "battle" => parse_fight(rules, rest),
            "casualties" | "lose" => parse_casualties(rules, rest),
            "press" => no_args(rest, "press", Command::Press),
            "disagree" => no_args(rest, "disagree", Command::Disagree),
            "retreat" => parse_retreat(rules, rest),
            "submerge" => parse_submerge(rules, rest),
            "roll" => parse_roll(rest),
            "order" => parse_casualty_order(rules, rest),
            "dice" => parse_dice(rest),
            "research" => parse_research(rules, rest),
            "breakthrough" => parse_breakthrough(rest),
            "rocket" => parse_rocket(rules, rest),
            "repair" => parse_repair(rules, rest),
            "play" => parse_play_first(rules, rest),
            "declare" => parse_declare_war(rules, rest),
            "scramble" => parse_scramble(rules, rest),
            "intercept" => parse_intercept(rules, rest),
            "ask" => parse_ask_passage(rules, rest),
            "answer" => match rest {
                [] => Err("answer what? `answer ANSWER` (or its number), as the question lists them".into()),
                words => Ok(Command::Answer(words.join(" "))),
            },
            other => match rules.commands.iter().find(|c| c.name == other) {
                Some(def) => super::layer_commands::parse(rules, def, rest).map(Command::Layer),
                None => {
                    let layers: Vec<&str> = rules.commands.iter().map(|c| c.name.as_str()).collect();
                    Err(unknown_verb(verb, &layers))
                }
            },
        }
    }

    /// Commands that fight a battle (and may roll dice): `undo` cannot reach past them.
    pub fn is_battle(&self) -> bool {
        matches!(
            self,
            Command::Fight(_)
                | Command::FightBombarding { .. }
                | Command::Casualties(_)
                | Command::Press
                | Command::Disagree
                | Command::Retreat(_)
                | Command::Submerge(_)
                | Command::Roll(_)
        )
    }

    /// Commands that do something in the phase (buy, move, place, fight): a declaration of war,
    /// made at the start of a phase, comes before them.
    pub fn acts_in_phase(&self) -> bool {
        self.is_battle()
            || matches!(
                self,
                Command::Buy { .. }
                    | Command::Move(_)
                    | Command::Place { .. }
                    | Command::Research(_)
                    | Command::ResearchFor { .. }
                    | Command::Breakthrough(_)
                    | Command::Repair { .. }
                    | Command::Rocket { .. }
            )
    }

    pub fn to_text(&self, rules: &RuleSet) -> String {
        let pname = |p: PowerId| quote(&rules.power_info(p).name);
        let sname = |s: SpaceId| quote(&rules.board.space(s).name);
        let uname = |u: UnitTypeId| rules.unit(u).id.clone();
        let picks = |units: &[Pick]| -> String {
            let mut t = String::new();
            push_picks(&mut t, rules, units);
            t
        };
        match self {
            Command::Fight(None) => "fight".into(),
            Command::Fight(Some(s)) => format!("fight {}", sname(*s)),
            Command::FightBombarding { space, ships } if ships.is_empty() => {
                format!("fight {} bombarding none", sname(*space))
            }
            Command::FightBombarding { space, ships } => {
                let list: Vec<String> = ships.iter().map(|(k, n)| format!("{n} {}", uname(*k))).collect();
                format!("fight {} bombarding {}", sname(*space), list.join(", "))
            }
            Command::Casualties(u) if u.is_empty() => "casualties".into(),
            Command::Casualties(u) => format!("casualties {}", picks(u)),
            Command::Press => "press".into(),
            Command::Disagree => "disagree".into(),
            Command::Retreat(None) => "retreat".into(),
            Command::Retreat(Some(s)) => format!("retreat to {}", sname(*s)),
            Command::Submerge(u) if u.is_empty() => "submerge none".into(),
            Command::Submerge(u) => format!("submerge {}", picks(u)),
            Command::Roll(f) => {
                let f: Vec<String> = f.iter().map(u8::to_string).collect();
                format!("roll {}", f.join(" "))
            }
            Command::Dice(DiceMode::Manual) => "dice manual".into(),
            Command::Dice(DiceMode::Auto) => "dice auto".into(),
            Command::Dice(DiceMode::Seeded(n)) => format!("dice seeded {n}"),
            Command::CasualtyOrder { power, first } if first.is_empty() => {
                format!("order {} default", pname(*power))
            }
            Command::CasualtyOrder { power, first } => {
                let names: Vec<String> = first.iter().map(|u| uname(*u)).collect();
                format!("order {} {}", pname(*power), names.join(", "))
            }
            Command::DeclareWar(p) => format!("declare war on {}", pname(*p)),
            Command::Layer(c) => super::layer_commands::text(rules, c),
            Command::AskPassage(c) => format!("ask passage through {}", quote(&rules.board.canals[*c].name)),
            Command::Intercept { count, unit, space } => {
                format!("intercept {count} {} in {}", uname(*unit), sname(*space))
            }
            Command::Scramble {
                count,
                unit,
                owner,
                from,
                to,
            } => format!(
                "scramble {count} {}{} from {} to {}",
                uname(*unit),
                owner.map_or(String::new(), |o| format!(" of {}", pname(o))),
                sname(*from),
                sname(*to)
            ),
            Command::Answer(a) if a.contains(' ') => format!("answer \"{a}\""),
            Command::Answer(a) => format!("answer {a}"),
            Command::PlayFirst(p) => format!("play {} first", pname(*p)),
            Command::Research(n) => format!("research {n}"),
            Command::ResearchFor {
                own: 0,
                paid,
                economy,
            } => format!("research {paid} for {}", pname(*economy)),
            Command::ResearchFor { own, paid, economy } => {
                format!("research {own} and {paid} for {}", pname(*economy))
            }
            Command::Breakthrough(c) => format!("breakthrough {c}"),
            Command::Rocket {
                from,
                target,
                facility,
            } => {
                let mut t = format!("rocket from {} at {}", sname(*from), sname(*target));
                if let Some(f) = facility {
                    t.push(' ');
                    t.push_str(&rules.facilities[f.index()].id);
                }
                t
            }
            Command::Repair {
                count,
                space,
                facility,
            } => {
                let mut t = format!("repair {count}");
                if let Some(f) = facility {
                    t.push(' ');
                    t.push_str(&rules.facilities[f.index()].id);
                }
                if let Some(sp) = space {
                    t.push_str(&format!(" in {}", sname(*sp)));
                }
                t
            }
            Command::Buy {
                piece,
                count,
                economy,
            } => match economy {
                None => format!("buy {count} {}", piece_id(rules, *piece)),
                Some(e) => format!("buy {count} {} for {}", piece_id(rules, *piece), pname(*e)),
            },
            Command::EndPhase => "end phase".into(),
            Command::Undo => "undo".into(),
            Command::Place { piece, count, space } => {
                format!("place {count} {} in {}", piece_id(rules, *piece), sname(*space))
            }
            // The commonest command, written straight into one string (the soak writes one per
            // command it plays).
            Command::Move(m) => {
                let space = |s: SpaceId| rules.board.space(s).name.as_str();
                let mut t = String::with_capacity(64);
                t.push_str("move ");
                push_picks(&mut t, rules, &m.units);
                t.push_str(" from ");
                push_quoted(&mut t, space(m.from));
                t.push_str(" to ");
                push_quoted(&mut t, space(m.to));
                for (i, s) in m.via.iter().enumerate() {
                    t.push_str(if i == 0 { " via " } else { ", " });
                    push_quoted(&mut t, space(*s));
                }
                if m.ignore {
                    t.push_str(" ignoring");
                }
                if m.bombing {
                    t.push_str(" bombing");
                    if let Some(f) = m.target {
                        t.push(' ');
                        t.push_str(&rules.facilities[f.index()].id);
                    }
                }
                if m.airborne {
                    t.push_str(" as paratroopers");
                }
                t
            }
            Command::Edit(e) => match e {
                Edit::Treasury { power, ipcs } => format!("edit treasury {} {ipcs}", pname(*power)),
                Edit::Control { space, power } => format!(
                    "edit control {} {}",
                    sname(*space),
                    power.map_or("none".to_string(), pname)
                ),
                Edit::AddUnits {
                    space,
                    owner,
                    unit,
                    count,
                }
                | Edit::RemoveUnits {
                    space,
                    owner,
                    unit,
                    count,
                } => {
                    let verb = if matches!(e, Edit::AddUnits { .. }) {
                        "add"
                    } else {
                        "remove"
                    };
                    format!(
                        "edit {verb} {} {} {count} {}",
                        sname(*space),
                        pname(*owner),
                        uname(*unit)
                    )
                }
                Edit::Relation { a, b, relation } => {
                    format!("edit relation {} {} {}", pname(*a), pname(*b), relation.name())
                }
                Edit::Mark {
                    space,
                    owner,
                    unit,
                    count,
                    tag,
                    value,
                } => format!(
                    "edit mark {} {} {count} {} {tag}={value}",
                    sname(*space),
                    pname(*owner),
                    uname(*unit)
                ),
                Edit::Damage {
                    space,
                    owner,
                    piece,
                    amount,
                } => match (owner, piece) {
                    (Some(o), Piece::Unit(k)) => {
                        format!(
                            "edit damage {} {} {amount} {}",
                            sname(*space),
                            pname(*o),
                            uname(*k)
                        )
                    }
                    (_, Piece::Facility(f)) => format!(
                        "edit damage {} {amount} {}",
                        sname(*space),
                        rules.facilities[f.index()].id
                    ),
                    (None, Piece::Unit(k)) => format!("edit damage {} {amount} {}", sname(*space), uname(*k)),
                },
            },
        }
    }
}

/// `buy [COUNT] UNIT [for ECONOMY]`: units or facilities for the purchase phase (one when no
/// count is given), paid by the power or by the economy of it named.
fn parse_buy(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    let (count, rest) = match rest.first().and_then(|w| count_word(w)) {
        Some(n) => (n?, &rest[1..]),
        None => (1, rest),
    };
    let (rest, economy) = match rest.iter().position(|w| w.eq_ignore_ascii_case("for")) {
        Some(k) if k + 1 < rest.len() => (&rest[..k], Some(resolve_power(rules, &rest[k + 1..].join(" "))?)),
        Some(_) => return Err("buy for whom? e.g. `buy 2 infantry for \"UK Pacific\"`".into()),
        None => (rest, None),
    };
    if rest.is_empty() {
        return Err("buy what? e.g. `buy 3 infantry`".into());
    }
    let name = rest.join(" ");
    let piece = find_piece(rules, &name)?;
    if count == 0 {
        return Err("buy at least one".into());
    }
    Ok(Command::Buy {
        piece,
        count,
        economy,
    })
}

/// `undo` alone: what it takes back is always the last command of the phase.
fn parse_undo(rest: &[String]) -> Result<Command, String> {
    if !rest.is_empty() {
        return Err("`undo` takes no arguments; it takes back the last command of this phase".into());
    }
    Ok(Command::Undo)
}

/// `fight [in SPACE]`: the next battle of conduct combat, or the one in that space.
fn parse_fight(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    if rest.is_empty() {
        Ok(Command::Fight(None))
    } else {
        let words = if rest[0].eq_ignore_ascii_case("in") {
            &rest[1..]
        } else {
            rest
        };
        if let Some((place, _, ships)) = split_at_keyword(words, &["bombarding"]) {
            let space = find_space(rules, place)?;
            if ships.len() == 1 && ships[0].eq_ignore_ascii_case("none") {
                return Ok(Command::FightBombarding {
                    space,
                    ships: Vec::new(),
                });
            }
            let ships = crate::odds::parse_units(rules, &ships.join(" ")).map_err(|e| {
                format!("{e}; usage: fight TERRITORY bombarding 1 battleship, 1 cruiser (or none)")
            })?;
            if ships.is_empty() {
                return Err("usage: fight TERRITORY bombarding 1 battleship, 1 cruiser (or none)".into());
            }
            return Ok(Command::FightBombarding { space, ships });
        }
        find_space(rules, words).map(|s| Command::Fight(Some(s)))
    }
}

/// `casualties [UNITS]`: the battle's answer to the hits waiting; alone, the suggested ones.
fn parse_casualties(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    if rest.is_empty() {
        Ok(Command::Casualties(Vec::new()))
    } else {
        parse_picks(rules, rest).map(Command::Casualties)
    }
}

/// `retreat [to SPACE]`: the attacker leaves the battle (to the one space it may, when alone).
fn parse_retreat(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    if rest.is_empty() {
        Ok(Command::Retreat(None))
    } else {
        let words = if rest[0].eq_ignore_ascii_case("to") {
            &rest[1..]
        } else {
            rest
        };
        find_space(rules, words).map(|s| Command::Retreat(Some(s)))
    }
}

/// `submerge [UNITS | none]`: the submarines that dive out of the battle now.
fn parse_submerge(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    if rest.is_empty() || (rest.len() == 1 && rest[0].eq_ignore_ascii_case("none")) {
        Ok(Command::Submerge(Vec::new()))
    } else {
        parse_picks(rules, rest).map(Command::Submerge)
    }
}

/// `roll 3 5 1` (or `3,5,1`): dice faces rolled at the table, for the next rolls.
fn parse_roll(rest: &[String]) -> Result<Command, String> {
    let faces: Result<Vec<u8>, String> = rest
        .iter()
        .flat_map(|w| {
            w.split(',')
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .map(|w| match w.parse::<u8>() {
            Ok(f @ 1..=6) => Ok(f),
            _ => Err(format!("`{w}` is not a die face (1 to 6)")),
        })
        .collect();
    let faces = faces?;
    if faces.is_empty() {
        return Err("roll what? type the faces rolled, e.g. `roll 3 5 1`".into());
    }
    Ok(Command::Roll(faces))
}

/// `order POWER UNIT, UNIT, ...` (or `default`): the order in which a power gives up units
/// as suggested casualties.
fn parse_casualty_order(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: order POWER UNIT, UNIT, ... (or `order POWER default`)";
    if rest.is_empty() {
        return Err(USAGE.into());
    }
    let (power, n) = take_name(
        rest,
        "power",
        power_words(rules),
        |s| rules.power(s),
        |s| rules.lookup_power(s),
    )?;
    let tail = &rest[n..];
    if tail.len() == 1 && tail[0].eq_ignore_ascii_case("default") {
        return Ok(Command::CasualtyOrder {
            power,
            first: Vec::new(),
        });
    }
    let mut first = Vec::new();
    for name in tail.join(" ").split(',').map(str::trim).filter(|x| !x.is_empty()) {
        match find_piece(rules, name)? {
            Piece::Unit(u) if !first.contains(&u) => first.push(u),
            Piece::Unit(_) => return Err(format!("`{name}` is listed twice")),
            Piece::Facility(_) => {
                return Err(format!("`{name}` is a facility; facilities are never casualties"))
            }
        }
    }
    if first.is_empty() {
        return Err(USAGE.into());
    }
    Ok(Command::CasualtyOrder { power, first })
}

/// `dice manual | auto | seeded N`: a table setting, where the dice come from.
fn parse_dice(rest: &[String]) -> Result<Command, String> {
    let mode = rest.first().map(|w| w.to_lowercase());
    let seed = rest.get(1).map(|w| w.parse::<u64>());
    match (mode.as_deref(), seed, rest.len()) {
        (Some("manual" | "table"), None, _) => Ok(Command::Dice(DiceMode::Manual)),
        // `dice seeded` alone is what saves before `dice auto` wrote.
        (Some("auto" | "seeded"), None, _) => Ok(Command::Dice(DiceMode::Auto)),
        (Some("seeded" | "seed"), Some(Ok(n)), 2) => Ok(Command::Dice(DiceMode::Seeded(n))),
        (Some("seeded" | "seed"), Some(Err(_)), _) => Err(format!(
            "`{}` is not a seed: a whole number from 0 to {}",
            rest[1],
            u64::MAX
        )),
        _ => Err(DICE_USAGE.into()),
    }
}

/// `research [TOKENS] [for ECONOMY]`: researcher tokens bought, then one die per token held;
/// `research OWN and PAID for ECONOMY`: dice paid by both treasuries, rolled together.
fn parse_research(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const SPLIT: &str = "usage: research OWN and PAID for ECONOMY (`research 1 and 2 for \"UK Pacific\"`)";
    if let Some(k) = rest.iter().position(|w| w.eq_ignore_ascii_case("for")) {
        let economy = resolve_power(rules, &rest[k + 1..].join(" "))?;
        let words = &rest[..k];
        let (own, paid) = match words.iter().position(|w| w.eq_ignore_ascii_case("and")) {
            Some(a) => match (
                words[..a].first().and_then(|w| count_word(w)),
                words[a + 1..].first().and_then(|w| count_word(w)),
            ) {
                (Some(o), Some(p)) if a == 1 && words.len() == 3 => (o?, p?),
                _ => return Err(SPLIT.into()),
            },
            None => match parse_research(rules, words)? {
                Command::Research(n) => (0, n),
                _ => return Err(SPLIT.into()),
            },
        };
        return Ok(Command::ResearchFor { own, paid, economy });
    }
    match rest {
        [] => Ok(Command::Research(0)),
        [n] => match count_word(n) {
            Some(tokens) => tokens.map(Command::Research),
            None => Err(
                "usage: research [TOKENS] (buy TOKENS researcher tokens, then roll one die per token held)"
                    .into(),
            ),
        },
        _ => Err("usage: research [TOKENS]".into()),
    }
}

/// `breakthrough [chart] N`: after a research success, the chart rolled on.
fn parse_breakthrough(rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: breakthrough CHART (the chart's number, after a research success)";
    let words: Vec<&String> = rest.iter().filter(|w| !w.eq_ignore_ascii_case("chart")).collect();
    match words.as_slice() {
        [n] => n
            .parse::<usize>()
            .map(Command::Breakthrough)
            .map_err(|_| USAGE.into()),
        _ => Err(USAGE.into()),
    }
}

/// `rocket from SPACE at SPACE`: a rocket attack on an enemy facility in range.
fn parse_rocket(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: rocket from SPACE at SPACE [FACILITY]";
    let rest = match rest.first() {
        Some(w) if w.eq_ignore_ascii_case("from") => &rest[1..],
        _ => rest,
    };
    let (from, _, target) = split_at_keyword(rest, &["at", "on"]).ok_or(USAGE)?;
    if from.is_empty() || target.is_empty() {
        return Err(USAGE.into());
    }
    // A facility named last (`... at "United Kingdom" major_industrial_complex`), where the
    // words are not a space's name as they stand.
    let (target, facility) = match (find_space(rules, target), target.split_last()) {
        (Ok(t), _) => (t, None),
        (Err(e), Some((last, before))) if !before.is_empty() => match find_piece(rules, last) {
            Ok(Piece::Facility(f)) => (find_space(rules, before)?, Some(f)),
            _ => return Err(e),
        },
        (Err(e), _) => return Err(e),
    };
    Ok(Command::Rocket {
        from: find_space(rules, from)?,
        target,
        facility,
    })
}

/// `repair DAMAGE [in SPACE]`: damage taken off a facility in the purchase phase.
fn parse_repair(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: repair DAMAGE [FACILITY] [in SPACE]";
    let (count, rest) = match rest.first().and_then(|w| count_word(w)) {
        Some(n) => (n?, &rest[1..]),
        None => return Err(USAGE.into()),
    };
    let at = rest
        .iter()
        .position(|w| w.eq_ignore_ascii_case("in") || w.eq_ignore_ascii_case("at"))
        .unwrap_or(rest.len());
    let facility = match &rest[..at] {
        [] => None,
        words => match find_piece(rules, &words.join(" "))? {
            Piece::Facility(f) => Some(f),
            Piece::Unit(u) => {
                return Err(format!(
                    "`{}` is a unit; damage is repaired on facilities",
                    rules.unit(u).name
                ))
            }
        },
    };
    let rest = &rest[at..];
    let space = match rest {
        [] => None,
        [kw, place @ ..]
            if (kw.eq_ignore_ascii_case("in") || kw.eq_ignore_ascii_case("at")) && !place.is_empty() =>
        {
            Some(find_space(rules, place)?)
        }
        _ => return Err(USAGE.into()),
    };
    Ok(Command::Repair {
        count,
        space,
        facility,
    })
}

/// `ask passage through CANAL` (a canal or strait by name, any case, or an unambiguous start).
fn parse_ask_passage(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: ask passage through CANAL (`ask passage through \"Panama Canal\"`)";
    let name = match rest {
        [p, t, name @ ..]
            if p.eq_ignore_ascii_case("passage") && t.eq_ignore_ascii_case("through") && !name.is_empty() =>
        {
            name.join(" ")
        }
        _ => return Err(USAGE.into()),
    };
    let lower = name.to_lowercase();
    let canals = &rules.board.canals;
    if let Some(i) = canals.iter().position(|c| c.name.to_lowercase() == lower) {
        return Ok(Command::AskPassage(i));
    }
    let starts: Vec<usize> = (0..canals.len())
        .filter(|&i| canals[i].name.to_lowercase().starts_with(&lower))
        .collect();
    match starts.as_slice() {
        [one] => Ok(Command::AskPassage(*one)),
        _ => Err(format!(
            "no canal or strait `{name}`; this board has {}",
            canals
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// `[COUNT] UNIT` of air units that `verb` (a missing count is 1).
fn air_units(rules: &RuleSet, what: &[String], verb: &str) -> Result<(u32, UnitTypeId), String> {
    let (count, what) = match what.first().and_then(|w| count_word(w)) {
        Some(n) => (n?, &what[1..]),
        None => (1, what),
    };
    match find_piece(rules, &what.join(" "))? {
        Piece::Unit(unit) => Ok((count, unit)),
        Piece::Facility(_) => Err(format!("air units {verb}, not facilities")),
    }
}

/// `intercept [COUNT] UNIT in TERRITORY`.
fn parse_intercept(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: intercept [COUNT] UNIT in TERRITORY";
    let (what, _, space) = split_at_keyword(rest, &["in", "over"]).ok_or(USAGE)?;
    let (count, unit) = air_units(rules, what, "intercept")?;
    Ok(Command::Intercept {
        count,
        unit,
        space: find_space(rules, space)?,
    })
}

/// `scramble [COUNT] UNIT from TERRITORY to SEA ZONE`.
fn parse_scramble(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: scramble [COUNT] UNIT [of POWER] from TERRITORY to SEA ZONE";
    let (what, _, rest) = split_at_keyword(rest, &["from"]).ok_or(USAGE)?;
    let (from, _, to) = split_at_keyword(rest, &["to"]).ok_or(USAGE)?;
    let (what, owner) = match split_at_keyword(what, &["of"]) {
        Some((units, _, power)) if !power.is_empty() => {
            (units, Some(resolve_power(rules, &power.join(" "))?))
        }
        _ => (what, None),
    };
    let (count, unit) = air_units(rules, what, "scramble")?;
    Ok(Command::Scramble {
        count,
        unit,
        owner,
        from: find_space(rules, from)?,
        to: find_space(rules, to)?,
    })
}

/// `play POWER first`: in a turn played in segments, which power plays its part first.
fn parse_play_first(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: play POWER first (which power of this turn plays its part first)";
    match rest.split_last() {
        Some((last, name)) if last.eq_ignore_ascii_case("first") && !name.is_empty() => {
            resolve_power(rules, &name.join(" ")).map(Command::PlayFirst)
        }
        _ => Err(USAGE.into()),
    }
}

/// `declare war on POWER` (`on` may be left out).
fn parse_declare_war(rules: &RuleSet, rest: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: declare war on POWER";
    let rest = match rest.first() {
        Some(w) if w.eq_ignore_ascii_case("war") => &rest[1..],
        _ => return Err(USAGE.into()),
    };
    let rest = match rest.first() {
        Some(w) if w.eq_ignore_ascii_case("on") => &rest[1..],
        _ => rest,
    };
    if rest.is_empty() {
        return Err(USAGE.into());
    }
    resolve_power(rules, &rest.join(" ")).map(Command::DeclareWar)
}

/// How `dice` is used (also the shell's help).
pub const DICE_USAGE: &str = "usage: dice manual (faces typed at the table with `roll`) | dice auto (the \
     seeded generator) | dice seeded N (reseed the generator with N)";

fn no_args(rest: &[String], verb: &str, cmd: Command) -> Result<Command, String> {
    if rest.is_empty() {
        Ok(cmd)
    } else {
        Err(format!("`{verb}` takes no arguments"))
    }
}

fn piece_id(rules: &RuleSet, piece: Piece) -> String {
    match piece {
        Piece::Unit(u) => rules.unit(u).id.clone(),
        Piece::Facility(f) => rules.facilities[f.index()].id.clone(),
    }
}

/// Split words at the first keyword (case-insensitive) in `keys`: (before, keyword, after).
fn split_at_keyword<'a>(words: &'a [String], keys: &[&str]) -> Option<(&'a [String], String, &'a [String])> {
    let i = words
        .iter()
        .position(|w| keys.iter().any(|k| w.eq_ignore_ascii_case(k)))?;
    Some((&words[..i], words[i].to_lowercase(), &words[i + 1..]))
}

fn find_space(rules: &RuleSet, words: &[String]) -> Result<SpaceId, String> {
    resolve_space(rules, &words.join(" "))
}

/// A space named as a user types it: exact, an `sz 5` form, or an unambiguous prefix (`kar`,
/// `w rus`); the refusal lists what an ambiguous prefix could be, or the nearest name.
pub fn resolve_space(rules: &RuleSet, name: &str) -> Result<SpaceId, String> {
    let name = name.trim_matches(',').trim();
    if name.is_empty() {
        return Err("missing space name".into());
    }
    match rules.board.lookup(name) {
        Lookup::Found(id) => Ok(id),
        Lookup::Ambiguous(c) => Err(could_be(name, &c)),
        Lookup::Missing => {
            let hint = crate::tree::closest_key(name, rules.board.spaces.iter().map(|s| s.name.as_str()))
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            Err(format!("no space `{name}`{hint}"))
        }
    }
}

/// A power named as a user types it: name, abbreviation or an unambiguous prefix.
pub fn resolve_power(rules: &RuleSet, name: &str) -> Result<PowerId, String> {
    let name = name.trim();
    match rules.lookup_power(name) {
        Lookup::Found(p) => Ok(p),
        Lookup::Ambiguous(c) => Err(could_be(name, &c)),
        Lookup::Missing => {
            let names: Vec<&str> = rules.powers.iter().map(|p| p.name.as_str()).collect();
            Err(format!("no power `{name}`; powers: {}", names.join(", ")))
        }
    }
}

/// `2 infantry, tank, all fighters, #12` — counts default to one; commas are optional between
/// picks that start with a number.
fn parse_picks(rules: &RuleSet, words: &[String]) -> Result<Vec<Pick>, String> {
    let text = words.join(" ");
    let mut picks = Vec::new();
    for part in text.split(',') {
        let mut cur: Vec<&str> = Vec::new();
        let mut parts: Vec<Vec<&str>> = Vec::new();
        for w in part.split_whitespace() {
            let starts_new = count_word(w).is_some() || w.eq_ignore_ascii_case("all") || w.starts_with('#');
            if starts_new && !cur.is_empty() {
                parts.push(std::mem::take(&mut cur));
            }
            cur.push(w);
        }
        if !cur.is_empty() {
            parts.push(cur);
        }
        for p in parts {
            let first = p[0];
            if let Some(id) = first.strip_prefix('#') {
                let id = id
                    .parse::<u32>()
                    .map_err(|_| format!("`{first}` is not a unit number"))?;
                if p.len() > 1 {
                    return Err(format!("`{}`: a unit number stands alone", p.join(" ")));
                }
                picks.push(Pick::Id(id));
                continue;
            }
            let (all, count, name) = if first.eq_ignore_ascii_case("all") {
                (true, 0, p[1..].join(" "))
            } else if let Some(n) = count_word(first) {
                (false, n?, p[1..].join(" "))
            } else {
                (false, 1, p.join(" "))
            };
            if name.is_empty() {
                return Err(format!("`{}`: which unit?", p.join(" ")));
            }
            let Piece::Unit(kind) = find_piece(rules, &name)? else {
                return Err(format!("`{name}` is a facility; facilities do not move"));
            };
            if all {
                picks.push(Pick::All(kind));
            } else if count == 0 {
                return Err("move at least one unit".into());
            } else {
                picks.push(Pick::Kind { kind, count });
            }
        }
    }
    if picks.is_empty() {
        return Err("move what? e.g. `move 2 infantry, tank from Germany to Poland`".into());
    }
    Ok(picks)
}

const MOVE_USAGE: &str =
    "usage: move UNITS from SPACE to SPACE [via SPACE, SPACE] [ignoring | bombing [FACILITY] | as paratroopers]";

fn parse_move(rules: &RuleSet, words: &[String]) -> Result<Move, String> {
    let (units, _, rest) = split_at_keyword(words, &["from"]).ok_or(MOVE_USAGE)?;
    let (from, _, rest) = split_at_keyword(rest, &["to"]).ok_or(MOVE_USAGE)?;
    let (mut to_words, mut via_words, mut ignore, mut bombing) = (rest.to_vec(), Vec::new(), false, false);
    let mut target = None;
    let mut airborne = false;
    if to_words.len() >= 2
        && to_words[to_words.len() - 2].eq_ignore_ascii_case("as")
        && to_words[to_words.len() - 1].eq_ignore_ascii_case("paratroopers")
    {
        airborne = true;
        to_words.truncate(to_words.len() - 2);
    } else if to_words
        .last()
        .is_some_and(|w| w.eq_ignore_ascii_case("ignoring"))
    {
        ignore = true;
        to_words.pop();
    } else if let Some(at) = to_words.iter().rposition(|w| w.eq_ignore_ascii_case("bombing")) {
        bombing = true;
        let named = to_words.split_off(at + 1);
        to_words.pop();
        if !named.is_empty() {
            match find_piece(rules, &named.join(" "))? {
                Piece::Facility(f) => target = Some(f),
                Piece::Unit(u) => {
                    return Err(format!(
                        "`bombing {}`: a raid is on a facility, not a {}",
                        named.join(" "),
                        rules.unit(u).name
                    ))
                }
            }
        }
    }
    if let Some((to, _, via)) = split_at_keyword(&to_words, &["via"]) {
        via_words = via.to_vec();
        to_words = to.to_vec();
    }
    let mut via = Vec::new();
    if !via_words.is_empty() {
        for part in via_words.join(" ").split(',') {
            let ws: Vec<String> = part.split_whitespace().map(str::to_string).collect();
            via.push(find_space(rules, &ws)?);
        }
    }
    Ok(Move {
        units: parse_picks(rules, units)?,
        from: find_space(rules, from)?,
        to: find_space(rules, &to_words)?,
        via,
        ignore,
        bombing,
        target,
        airborne,
    })
}

fn parse_place(rules: &RuleSet, words: &[String]) -> Result<Command, String> {
    const USAGE: &str = "usage: place [COUNT] UNIT in SPACE";
    let (what, _, space) = split_at_keyword(words, &["in", "at"]).ok_or(USAGE)?;
    let (count, what) = match what.first().and_then(|w| count_word(w)) {
        Some(n) => (n?, &what[1..]),
        None => (1, what),
    };
    if what.is_empty() {
        return Err(USAGE.into());
    }
    if count == 0 {
        return Err("place at least one".into());
    }
    Ok(Command::Place {
        piece: find_piece(rules, &what.join(" "))?,
        count,
        space: find_space(rules, space)?,
    })
}

fn find_piece(rules: &RuleSet, name: &str) -> Result<Piece, String> {
    resolve_piece(rules, name)
}

/// A unit or facility type named as a user types it: id, name or abbreviation (also plural),
/// or an unambiguous prefix.
pub fn resolve_piece(rules: &RuleSet, name: &str) -> Result<Piece, String> {
    let name = name.trim();
    match rules.lookup_piece(name) {
        Lookup::Found(p) => return Ok(p),
        Lookup::Ambiguous(c) => return Err(could_be(name, &c)),
        Lookup::Missing => {}
    }
    let names: Vec<&str> = rules
        .units
        .iter()
        .map(|u| u.id.as_str())
        .chain(rules.facilities.iter().map(|f| f.id.as_str()))
        .collect();
    let hint = crate::tree::closest_key(name, names.iter().copied())
        .map(|s| format!("; did you mean `{s}`?"))
        .unwrap_or_else(|| format!("; units: {}", names.join(", ")));
    Err(format!("no unit `{name}`{hint}"))
}

fn parse_edit(rules: &RuleSet, words: &[String]) -> Result<Edit, String> {
    let Some(what) = words.first() else {
        return Err("edit what? treasury, control, add, remove, relation, mark or damage".into());
    };
    let rest = &words[1..];
    let (most_power, most_space) = (power_words(rules), space_words(rules));
    let power = |w: &[String]| {
        take_name(
            w,
            "power",
            most_power,
            |s| rules.power(s),
            |s| rules.lookup_power(s),
        )
    };
    let space = |w: &[String]| {
        take_name(
            w,
            "space",
            most_space,
            |s| rules.board.find(s),
            |s| rules.board.lookup(s),
        )
    };
    match what.to_lowercase().as_str() {
        "treasury" => {
            let (p, n) = power(rest)?;
            let typed = rest.get(n).ok_or("usage: edit treasury POWER IPCS")?;
            match typed.parse::<i64>() {
                Ok(ipcs) if (-MAX_IPCS..=MAX_IPCS).contains(&ipcs) => Ok(Edit::Treasury { power: p, ipcs }),
                Ok(_) => Err(format!(
                    "`{typed}` IPCs: a treasury holds from {} to {MAX_IPCS}",
                    -MAX_IPCS
                )),
                Err(_) if typed.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()) => Err(format!(
                    "`{typed}` IPCs: a treasury holds from {} to {MAX_IPCS}",
                    -MAX_IPCS
                )),
                Err(_) => Err("usage: edit treasury POWER IPCS".into()),
            }
        }
        "control" => {
            let (s, n) = space(rest)?;
            let tail = &rest[n..];
            let p = if tail.len() == 1 && tail[0].eq_ignore_ascii_case("none") {
                None
            } else {
                Some(power(tail)?.0)
            };
            Ok(Edit::Control { space: s, power: p })
        }
        "add" | "remove" => {
            let (s, n) = space(rest)?;
            let (p, m) = power(&rest[n..])?;
            let tail = &rest[n + m..];
            let (count, tail) = match tail.first().and_then(|w| count_word(w)) {
                Some(c) => (c?, &tail[1..]),
                None => (1, tail),
            };
            let Piece::Unit(unit) = find_piece(rules, &tail.join(" "))? else {
                return Err("edit add/remove takes units; facilities are not supported yet".into());
            };
            if what.eq_ignore_ascii_case("add") {
                Ok(Edit::AddUnits {
                    space: s,
                    owner: p,
                    unit,
                    count,
                })
            } else {
                Ok(Edit::RemoveUnits {
                    space: s,
                    owner: p,
                    unit,
                    count,
                })
            }
        }
        "relation" => {
            let (a, n) = power(rest)?;
            let (b, m) = power(&rest[n..])?;
            let relation = match rest.get(n + m).map(|s| s.to_lowercase()).as_deref() {
                Some("war") => Relation::War,
                Some("peace") => Relation::Peace,
                Some("allied") => Relation::Allied,
                _ => return Err("usage: edit relation POWER POWER war|peace|allied".into()),
            };
            Ok(Edit::Relation { a, b, relation })
        }
        "mark" => parse_edit_mark(rules, rest, &space, &power),
        "damage" => parse_edit_damage(rules, rest, &space, &power),
        other => Err(format!(
            "cannot edit `{other}`; try treasury, control, add, remove, relation, mark or damage"
        )),
    }
}

/// Reads a name at the start of the words: what it names and how many words it took.
type NameReader<'a, T> = dyn Fn(&[String]) -> Result<(T, usize), String> + 'a;

/// `edit mark SPACE POWER [COUNT] UNIT TAG[=VALUE]`.
fn parse_edit_mark(
    rules: &RuleSet,
    rest: &[String],
    space: &NameReader<'_, SpaceId>,
    power: &NameReader<'_, PowerId>,
) -> Result<Edit, String> {
    const USAGE: &str = "usage: edit mark SPACE POWER [COUNT] UNIT TAG[=VALUE] (`edit mark Karelia Germany 1 tank veteran`; 0 clears)";
    let (s, n) = space(rest)?;
    let (p, m) = power(&rest[n..])?;
    let tail = &rest[n + m..];
    let (count, tail) = match tail.first().and_then(|w| count_word(w)) {
        Some(c) => (c?, &tail[1..]),
        None => (1, tail),
    };
    let Some((last, unit_words)) = tail.split_last() else {
        return Err(USAGE.into());
    };
    if unit_words.is_empty() {
        return Err(USAGE.into());
    }
    let Piece::Unit(unit) = find_piece(rules, &unit_words.join(" "))? else {
        return Err("edit mark takes units, not facilities".into());
    };
    let (tag, value) = match last.split_once('=') {
        Some((t, v)) => match v.parse::<i64>() {
            Ok(v) if v.abs() <= 1000 => (t, v),
            _ => return Err(format!("`{v}`: a tag holds a whole number from -1000 to 1000")),
        },
        None => (last.as_str(), 1),
    };
    if !super::state::Tags::valid_name(tag) {
        return Err(format!(
            "`{tag}`: a tag is a name of letters, digits and `_` (at most 32); {USAGE}"
        ));
    }
    Ok(Edit::Mark {
        space: s,
        owner: p,
        unit,
        count,
        tag: tag.to_string(),
        value,
    })
}

/// `edit damage SPACE FACILITY POINTS` or `edit damage SPACE POWER COUNT UNIT`.
fn parse_edit_damage(
    rules: &RuleSet,
    rest: &[String],
    space: &NameReader<'_, SpaceId>,
    power: &NameReader<'_, PowerId>,
) -> Result<Edit, String> {
    const USAGE: &str = "usage: edit damage SPACE FACILITY POINTS (`edit damage Germany industrial_complex 8`) or edit damage SPACE POWER COUNT UNIT (`edit damage \"SZ 110\" Germany 1 battleship`: that many stand damaged)";
    let (s, n) = space(rest)?;
    let tail = &rest[n..];
    if tail.is_empty() {
        return Err(USAGE.into());
    }
    // A facility first: its name, then the points.
    if let Some((last, name)) = tail.split_last() {
        if let (Some(points), false) = (count_word(last), name.is_empty()) {
            if let Ok(Piece::Facility(f)) = find_piece(rules, &name.join(" ")) {
                return Ok(Edit::Damage {
                    space: s,
                    owner: None,
                    piece: Piece::Facility(f),
                    amount: points?,
                });
            }
        }
    }
    let (p, m) = power(tail).map_err(|e| format!("{e}; {USAGE}"))?;
    let tail = &tail[m..];
    let Some(count) = tail.first().and_then(|w| count_word(w)) else {
        return Err(USAGE.into());
    };
    let Piece::Unit(unit) = find_piece(rules, &tail[1..].join(" "))? else {
        return Err(format!("a facility's damage has no owner; {USAGE}"));
    };
    Ok(Edit::Damage {
        space: s,
        owner: Some(p),
        piece: Piece::Unit(unit),
        amount: count?,
    })
}

/// A count typed in a command: `Some` when the word is a number, refused above
/// [`MAX_COUNT`] (a slip of the keyboard, not billions of pieces); `None` when it is a word.
fn count_word(w: &str) -> Option<Result<u32, String>> {
    let digits = w.strip_prefix('+').unwrap_or(w);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(match digits.parse::<u32>() {
        Ok(n) if n <= MAX_COUNT => Ok(n),
        _ => Err(format!("`{w}` is too many: at most {MAX_COUNT} at once")),
    })
}

fn not_found(what: &str, words: &[String]) -> String {
    if words.is_empty() {
        format!("missing {what}")
    } else {
        format!("no {what} at the start of `{}`", words.join(" "))
    }
}
