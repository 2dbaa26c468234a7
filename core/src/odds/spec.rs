//! A battle from unit lists, as `warroom odds` takes it: `"10 inf, 5 tank, 3 ftr"`.

use super::{Question, RetreatPolicy};
use crate::combat::{Battle, Combatant, Profiles, Side};
use crate::game::BattleScripts;
use crate::rules::{Domain, PowerId, RuleSet, SpaceId, TechId, UnitTypeId};
use std::sync::Arc;

/// Everything `warroom odds` is told about a battle.
#[derive(Clone, Debug, Default)]
pub struct Spec {
    pub attackers: Vec<(UnitTypeId, u32)>,
    pub defenders: Vec<(UnitTypeId, u32)>,
    /// Attacking land units coming ashore from transports: they cannot retreat.
    pub amphibious: Vec<(UnitTypeId, u32)>,
    /// Ships bombarding before the first round.
    pub bombarding: Vec<(UnitTypeId, u32)>,
    /// A sea battle; `None`: at sea when no land unit takes part.
    pub sea: Option<bool>,
    /// Unit types each side loses first (the rest follow, cheapest first).
    pub attacker_order: Vec<UnitTypeId>,
    pub defender_order: Vec<UnitTypeId>,
    /// The attacker keeps a land unit to take the territory while anything else can take a
    /// hit (the default, as in play).
    pub keep_land_unit: bool,
    pub attacker_techs: Vec<TechId>,
    pub defender_techs: Vec<TechId>,
    pub retreat: RetreatPolicy,
    /// What some of the units did this turn or carry (`"2 tank [blitzed]"`): rule scripts
    /// read them as they would on the board.
    pub notes: Vec<(Side, Noted)>,
}

/// Unit types and how many of each.
pub type UnitList = Vec<(UnitTypeId, u32)>;

/// Units of a list with notes: `2 tank [blitzed]`, `1 inf [veteran]`, `1 inf [kills=2]`,
/// `1 bb [damaged]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Noted {
    pub kind: UnitTypeId,
    pub count: u32,
    /// Words of `did` (`blitzed`, `from_transport`, ...).
    pub did: Vec<String>,
    /// Tags scripts keep on units: name and value.
    pub tags: Vec<(String, i64)>,
    /// Units of two or more hits that have taken one (a damaged battleship or carrier), as
    /// the board keeps them between battles.
    pub damaged: bool,
}

/// The parts of a unit list, split at commas and `+` outside brackets.
fn parts(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' | '+' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// [`parse_units`], with notes in brackets after a unit: what it did this turn (a `did`
/// word) or a tag (`veteran`, `kills=2`).
pub fn parse_noted_units(rules: &RuleSet, text: &str) -> Result<(UnitList, Vec<Noted>), String> {
    let mut plain = String::new();
    let mut noted = Vec::new();
    for part in parts(text) {
        let part = part.trim();
        let (unit, notes) = match part.split_once('[') {
            Some((u, rest)) => match rest.strip_suffix(']') {
                Some(n) if !n.contains(['[', ']']) => (u.trim(), Some(n)),
                _ => {
                    return Err(format!(
                        "`{part}`: notes go in one pair of brackets at the end, `2 tank [blitzed]`"
                    ))
                }
            },
            None => (part, None),
        };
        if !plain.is_empty() {
            plain.push(',');
        }
        plain.push_str(unit);
        if let Some(notes) = notes {
            let [(kind, count)] = parse_units(rules, unit)?[..] else {
                return Err(format!("`{part}`: notes follow one unit type"));
            };
            let (mut did, mut tags, mut damaged) = (Vec::new(), Vec::new(), false);
            for w in notes.split([',', ' ']).filter(|w| !w.is_empty()) {
                if w == "damaged" {
                    if rules.unit(kind).hits < 2 {
                        return Err(format!(
                            "`{part}`: {} take one hit; only units of two hits are damaged",
                            rules.unit(kind).name
                        ));
                    }
                    damaged = true;
                    continue;
                }
                let mut probe = crate::game::state::Unit::new(0, kind, PowerId(0));
                if crate::game::unit_facts::set_did(&mut probe, w, SpaceId(0)) {
                    did.push(w.to_string());
                    continue;
                }
                let (name, value) = match w.split_once('=') {
                    Some((n, v)) => (n, v.parse::<i64>().ok().filter(|v| v.abs() <= 1000)),
                    None => (w, Some(1)),
                };
                let good = crate::game::state::Tags::valid_name(name);
                match (good, value) {
                    (true, Some(v)) => tags.push((name.to_string(), v)),
                    _ => {
                        return Err(format!(
                        "`{w}`: a note is `damaged`, what the units did ({}) or a tag (`veteran`, `kills=2`)",
                        crate::game::unit_facts::DID
                    ))
                    }
                }
            }
            noted.push(Noted {
                kind,
                count,
                did,
                tags,
                damaged,
            });
        }
    }
    Ok((parse_units(rules, &plain)?, noted))
}

/// `"10 inf, 5 tank, 3 ftr"`: counts and unit names or abbreviations (a missing count is 1).
pub fn parse_units(rules: &RuleSet, text: &str) -> Result<Vec<(UnitTypeId, u32)>, String> {
    let mut out: Vec<(UnitTypeId, u32)> = Vec::new();
    for part in text.split([',', '+']) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if part.contains(['[', ']']) {
            return Err(format!(
                "`{part}`: notes in brackets are for the battle's unit lists"
            ));
        }
        let (count, name) = match part.split_once(char::is_whitespace) {
            Some((n, rest)) if n.chars().all(|c| c.is_ascii_digit()) => {
                let n: u32 = n.parse().map_err(|_| format!("`{n}` is too many units"))?;
                (n, rest.trim())
            }
            _ => (1, part),
        };
        if count > 500 {
            return Err(format!("{count} {name}: at most 500 units of a type"));
        }
        let kind = match crate::game::command::resolve_piece(rules, name)? {
            crate::rules::Piece::Unit(k) => k,
            crate::rules::Piece::Facility(_) => {
                return Err(format!("`{name}` is a facility, not a unit that fights"))
            }
        };
        match out.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += count,
            None => out.push((kind, count)),
        }
    }
    Ok(out)
}

impl Spec {
    /// A battle between two unit lists with their notes (`"3 inf, 1 tank"` against
    /// `"2 inf, 1 cv [damaged]"`), everything else as `Spec::new` leaves it.
    pub fn of_forces(rules: &RuleSet, attackers: &str, defenders: &str) -> Result<Spec, String> {
        let mut spec = Spec::new();
        let (units, noted) = parse_noted_units(rules, attackers).map_err(|e| format!("attackers: {e}"))?;
        spec.attackers = units;
        spec.notes.extend(noted.into_iter().map(|n| (Side::Attacker, n)));
        let (units, noted) = parse_noted_units(rules, defenders).map_err(|e| format!("defenders: {e}"))?;
        spec.defenders = units;
        spec.notes.extend(noted.into_iter().map(|n| (Side::Defender, n)));
        Ok(spec)
    }

    /// The battle's units as the scripts' board holds them, with their notes.
    fn board_units(&self, rules: &RuleSet, b: &Battle) -> Result<Vec<crate::game::state::Unit>, String> {
        let mut units: Vec<crate::game::state::Unit> = b
            .units
            .iter()
            .map(|c| crate::game::state::Unit::new(c.id, c.kind, c.owner))
            .collect();
        for (i, n) in self.noted(rules, &b.units, |_| true)? {
            for w in &n.did {
                crate::game::unit_facts::set_did(&mut units[i], w, b.space);
            }
            for (t, v) in &n.tags {
                units[i].tags.set(t, *v);
            }
            if n.damaged {
                units[i].damage = 1;
            }
        }
        Ok(units)
    }

    /// Which units carry the notes `pick` selects: each note's count taken from the battle's
    /// units of its side and type, in order, none twice; `Err` when a side has fewer.
    fn noted(
        &self,
        rules: &RuleSet,
        units: &[Combatant],
        pick: impl Fn(&Noted) -> bool,
    ) -> Result<Vec<(usize, &Noted)>, String> {
        let mut taken = vec![false; units.len()];
        let mut out = Vec::new();
        for (side, n) in self.notes.iter().filter(|(_, n)| pick(n)) {
            let mut left = n.count;
            for (i, c) in units.iter().enumerate() {
                if left > 0 && c.side == *side && c.kind == n.kind && !taken[i] {
                    taken[i] = true;
                    left -= 1;
                    out.push((i, n));
                }
            }
            if left > 0 {
                return Err(format!(
                    "notes for {} {} but the {} have fewer of them",
                    n.count,
                    rules.unit(n.kind).name,
                    if *side == Side::Attacker {
                        "attackers"
                    } else {
                        "defenders"
                    }
                ));
            }
        }
        Ok(out)
    }

    /// Units noted `damaged` lose a hit. As in play, a damaged carrier that then launches
    /// nothing (`disabled_when_damaged`) keeps the defending aircraft its side's working decks
    /// cannot hold as cargo: they do not fight.
    fn damage(
        &self,
        rules: &RuleSet,
        sea: bool,
        units: &mut Vec<Combatant>,
    ) -> Result<Vec<(UnitTypeId, u32)>, String> {
        let mut damaged = vec![false; units.len()];
        for (i, _) in self.noted(rules, units, |n| n.damaged)? {
            damaged[i] = true;
            units[i].hp = units[i].hp.saturating_sub(1).max(1);
        }
        let disabled = |i: usize, c: &Combatant| damaged[i] && rules.unit(c.kind).disabled_when_damaged;
        if !sea
            || !units
                .iter()
                .enumerate()
                .any(|(i, c)| c.side == Side::Defender && disabled(i, c))
        {
            return Ok(Vec::new());
        }
        let mut room: u32 = units
            .iter()
            .enumerate()
            .filter(|(i, c)| c.side == Side::Defender && !disabled(*i, c))
            .map(|(_, c)| rules.unit(c.kind).carrier_capacity)
            .sum();
        let mut cargo: Vec<(UnitTypeId, u32)> = Vec::new();
        units.retain(|c| {
            if c.side != Side::Defender || rules.unit(c.kind).domain != Domain::Air {
                return true;
            }
            let cost = rules.unit(c.kind).carrier_cost.unwrap_or(1);
            let fits = room >= cost;
            if fits {
                room -= cost;
            } else {
                match cargo.iter_mut().find(|(k, _)| *k == c.kind) {
                    Some((_, n)) => *n += 1,
                    None => cargo.push((c.kind, 1)),
                }
            }
            fits
        });
        Ok(cargo)
    }

    pub fn new() -> Spec {
        Spec {
            keep_land_unit: true,
            ..Spec::default()
        }
    }

    /// The battle this describes, checked: `Err` says what cannot fight where. It comes with
    /// the rule set's scripts that can change a battle, as they stand at the start of the
    /// default scenario (`BattleScripts`).
    pub fn question(&self, rules: &Arc<RuleSet>) -> Result<Question, String> {
        let profiles = Profiles::with_techs(rules, &self.attacker_techs, &self.defender_techs);
        let name = |k: UnitTypeId| rules.unit(k).name.clone();
        let land_present = self
            .attackers
            .iter()
            .chain(&self.defenders)
            .chain(&self.amphibious)
            .any(|(k, n)| *n > 0 && rules.unit(*k).domain == Domain::Land);
        let sea = self.sea.unwrap_or(!land_present);
        if self
            .attackers
            .iter()
            .chain(&self.amphibious)
            .all(|(_, n)| *n == 0)
        {
            return Err("no attacking units".into());
        }
        let mut units = Vec::new();
        let mut push = |list: &[(UnitTypeId, u32)], side: Side, seaborne: bool| -> Result<(), String> {
            for &(kind, n) in list {
                let pr = profiles.of(kind);
                match (sea, pr.domain) {
                    (true, Domain::Land) => {
                        return Err(format!("{} cannot fight in a sea battle", name(kind)))
                    }
                    (false, Domain::Sea) => {
                        return Err(format!(
                            "{} cannot fight in a land battle (ships bombard: --bombard)",
                            name(kind)
                        ))
                    }
                    _ => {}
                }
                for _ in 0..n {
                    let owner = if side == Side::Attacker {
                        PowerId(0)
                    } else {
                        PowerId(1)
                    };
                    let mut c = Combatant::new(units.len() as u32 + 1, kind, owner, side, pr.hits);
                    c.seaborne = seaborne;
                    units.push(c);
                }
            }
            Ok(())
        };
        if !self.amphibious.is_empty() {
            if sea {
                return Err("units come ashore only in a land battle".into());
            }
            if let Some((k, _)) = self
                .amphibious
                .iter()
                .find(|(k, _)| rules.unit(*k).domain != Domain::Land)
            {
                return Err(format!("only land units come ashore, not {}", name(*k)));
            }
        }
        push(&self.amphibious, Side::Attacker, true)?;
        push(&self.attackers, Side::Attacker, false)?;
        push(&self.defenders, Side::Defender, false)?;
        let cargo = self.damage(rules, sea, &mut units)?;
        let mut b = Battle::new(SpaceId(0), sea, PowerId(0), units);
        if !self.bombarding.is_empty() {
            if sea || self.amphibious.is_empty() {
                return Err("ships bombard only to support units coming ashore (--amphibious)".into());
            }
            for &(kind, n) in &self.bombarding {
                if profiles.of(kind).bombard == 0 {
                    return Err(format!("{} cannot bombard", name(kind)));
                }
                for _ in 0..n {
                    let id = 100_000 + b.bombarding.len() as u32;
                    b.bombarding
                        .push(Combatant::new(id, kind, PowerId(0), Side::Attacker, 1));
                }
            }
            // As in play, at most one ship per unit offloaded when the rules limit it.
            if rules.combat.bombard_limit == crate::rules::BombardLimit::OffloadedUnits {
                let offloaded: u32 = self.amphibious.iter().map(|(_, n)| n).sum();
                b.bombarding.truncate(offloaded as usize);
            }
        }
        // Land and sea attackers may retreat somewhere, as from a battle entered from one
        // friendly space; the policy decides whether they do.
        b.retreat_to = vec![SpaceId(1)];
        b.orders[0].first = self.attacker_order.clone();
        b.orders[0].keep_capturer = self.keep_land_unit;
        b.orders[1].first = self.defender_order.clone();
        let scripts = match BattleScripts::at_start(rules)? {
            Some(mut s) => {
                s.place_battle(b.space, self.board_units(rules, &b)?);
                Some(Arc::new(s))
            }
            None => None,
        };
        Ok(Question {
            profiles,
            battle: b,
            retreat: self.retreat.clone(),
            scripts,
            cargo,
        })
    }
}
