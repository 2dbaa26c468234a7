//! What rule scripts may ask for outside battles (`game:request{ command = ..., ... }`): each
//! request is applied to the state the command is building, after the event that asked for it,
//! so a refused request fails the whole command (nothing is half applied) and `undo` takes back
//! the command with everything its scripts asked for. The line each returns is logged with the
//! handler's id. `script::api::REQUESTS` documents them (fields, where each may be asked);
//! battle requests (`combat_value`, `fire`, `hits`) are the battle's (`hooks.rs`).

use super::state::{Relation, State, Unit};
use crate::rules::{Domain, Piece, PowerId, RuleSet, SpaceId, UnitTypeId};
use crate::script::{EventKind, Value};
use std::sync::Arc;

/// The requests scripts may make outside battles, in the catalogue's order.
const OUTSIDE_BATTLES: &[&str] = &[
    "add_ipcs",
    "gain_tech",
    "grant",
    "set_control",
    "add_units",
    "remove_units",
    "move_units",
    "set_relation",
    "set_leaning",
    "take_neutral",
    "declare_winner",
    "mark",
    "clear_mark",
    "set_value",
    "clear_value",
    "choose",
    "replace_facility",
    "remove_facility",
    "strike",
    "no_bombardment",
];

/// Apply a command a script asked for in `event`; the line to log, or why it is refused.
pub(super) fn apply_request(
    rules: &RuleSet,
    s: &mut State,
    cmd: &Value,
    event: EventKind,
    by: &str,
) -> Result<String, String> {
    let what = cmd.get("command").and_then(Value::as_str).unwrap_or("");
    if let Some(doc) = crate::script::api::request(what) {
        doc.check_fields(cmd)?;
    }
    let r = Asked { rules, cmd, what };
    let reason = r.reason()?;
    match what {
        "add_ipcs" => add_ipcs(&r, s, &reason),
        "grant" => grant(&r, s, &reason),
        "gain_tech" => gain_tech(&r, s, &reason),
        "set_control" => set_control(&r, s, &reason),
        "add_units" => add_units(&r, s, &reason),
        "remove_units" => remove_units(&r, s, &reason),
        "move_units" => move_units(&r, s, &reason),
        "set_relation" => set_relation(&r, s, &reason),
        "set_leaning" => set_leaning(&r, s, &reason),
        "take_neutral" => take_neutral(&r, s, &reason),
        "declare_winner" => declare_winner(&r, s, &reason, event),
        "mark" => mark(&r, s, &reason),
        "clear_mark" => clear_mark(&r, s, &reason),
        "set_value" => set_value(&r, s, &reason),
        "clear_value" => clear_value(&r, s, &reason),
        "choose" => choose(&r, s, by),
        "replace_facility" => replace_facility(&r, s, &reason),
        "remove_facility" => remove_facility(&r, s, &reason),
        "strike" => strike(&r, s, &reason),
        "no_bombardment" => no_bombardment(&r, s, &reason),
        _ => {
            let hint = crate::tree::closest_key(what, OUTSIDE_BATTLES.iter().copied())
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            Err(format!(
                "asked for a command ({cmd:?}){hint}; outside battles scripts may ask for {}",
                OUTSIDE_BATTLES
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
    }
}

/// A request and the fields it names, read with the errors scripts see.
struct Asked<'a> {
    rules: &'a RuleSet,
    cmd: &'a Value,
    what: &'a str,
}

impl Asked<'_> {
    fn power_field(&self, field: &str) -> Result<PowerId, String> {
        self.cmd
            .get(field)
            .and_then(Value::as_str)
            .and_then(|p| self.rules.power(p))
            .ok_or_else(|| {
                format!(
                    "{} needs {field} = the name of a power of this edition",
                    self.what
                )
            })
    }
    fn power(&self) -> Result<PowerId, String> {
        self.power_field("power")
    }
    fn space(&self, field: &str) -> Result<SpaceId, String> {
        self.cmd
            .get(field)
            .and_then(Value::as_str)
            .and_then(|n| self.rules.board.find(n))
            .ok_or_else(|| format!("{} needs {field} = the name of a space of this board", self.what))
    }
    fn unit(&self) -> Result<UnitTypeId, String> {
        self.cmd
            .get("unit")
            .and_then(Value::as_str)
            .and_then(|u| self.rules.unit_type(u))
            .ok_or_else(|| format!("{} needs unit = a unit type id of this edition", self.what))
    }
    fn count(&self) -> Result<u32, String> {
        match self.cmd.get("count").and_then(Value::as_int) {
            Some(n @ 1..=99) => Ok(n as u32),
            _ => Err(format!("{} needs count = a whole number from 1 to 99", self.what)),
        }
    }
    /// ` (REASON)` for the log, or nothing.
    fn reason(&self) -> Result<String, String> {
        match self.cmd.get("reason") {
            None => Ok(String::new()),
            Some(r) => match r.as_str() {
                Some(r) if !r.is_empty() => Ok(format!(" ({r})")),
                _ => Err(format!("{}: reason must be a non-empty string", self.what)),
            },
        }
    }
    fn power_name(&self, p: PowerId) -> &str {
        &self.rules.power_info(p).name
    }
    fn space_name(&self, id: SpaceId) -> &str {
        &self.rules.board.space(id).name
    }
}

/// `add_ipcs`: `power`, and `amount` (may be negative, not below an empty treasury) or `dice`
/// (that many dice from the engine, faces typed at the table first).
fn add_ipcs(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let p = r.power()?;
    let (amount, rolled) = match (r.cmd.get("amount"), r.cmd.get("dice")) {
        (Some(a), None) => match a.as_int() {
            Some(a) if a.abs() <= 1000 => (a, String::new()),
            _ => return Err("add_ipcs needs amount = a whole number from -1000 to 1000".into()),
        },
        (None, Some(d)) => match d.as_int() {
            Some(n @ 1..=10) => {
                let Some(faces) = s.roll_table(n as usize) else {
                    return Err(format!(
                        "dice come from the table: type {n} face(s) first (`roll 4`), then the command again"
                    ));
                };
                let text = faces.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
                (
                    faces.iter().map(|&f| i64::from(f)).sum(),
                    format!(", rolled {text}"),
                )
            }
            _ => return Err("add_ipcs needs dice = a whole number from 1 to 10".into()),
        },
        _ => return Err("add_ipcs needs either amount = N or dice = N".into()),
    };
    let t = &mut Arc::make_mut(&mut s.treasuries)[p.index()];
    if *t + amount < 0 {
        return Err(format!(
            "add_ipcs of {amount} would leave {} with {} IPCs",
            r.power_name(p),
            *t + amount
        ));
    }
    *t += amount;
    let verb = if amount < 0 { "loses" } else { "receives" };
    Ok(format!(
        "{} {verb} {} IPCs{reason}{rolled}",
        r.power_name(p),
        amount.abs()
    ))
}

/// `grant`: `power`, `unit`, `count`: units given free, waiting to be placed like purchased
/// ones.
fn grant(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let p = r.power()?;
    let kind = r.unit()?;
    let count = r.count()?;
    let list = &mut Arc::make_mut(&mut s.purchased)[p.index()];
    match list.iter_mut().find(|(k, _)| *k == Piece::Unit(kind)) {
        Some((_, n)) => *n += count,
        None => list.push((Piece::Unit(kind), count)),
    }
    Ok(format!(
        "{} receives {count} {}{reason}, to place",
        r.power_name(p),
        r.rules.unit(kind).name
    ))
}

/// `gain_tech`: `power`, `tech`: the power holds the tech from now on, as after a
/// breakthrough (a house rule's starting advance, a tech given for a bid).
fn gain_tech(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let p = r.rules.relation_holder(r.power()?);
    let id = r
        .cmd
        .get("tech")
        .and_then(Value::as_str)
        .ok_or("gain_tech needs tech = a tech id")?;
    let Some(k) = r.rules.techs.iter().position(|t| t.id == id) else {
        let known: Vec<&str> = r.rules.techs.iter().map(|t| t.id.as_str()).collect();
        return Err(if known.is_empty() {
            format!("unknown tech `{id}`: this game has no techs (add the research layer)")
        } else {
            format!("unknown tech `{id}`; techs: {}", known.join(", "))
        });
    };
    let tech = crate::rules::TechId(k as u8);
    if s.techs[p.index()].contains(&tech) {
        return Err(format!(
            "{} holds {} already",
            r.power_name(p),
            r.rules.techs[k].name
        ));
    }
    Arc::make_mut(&mut s.techs)[p.index()].push(tech);
    Ok(format!(
        "{} gains {}{reason}",
        r.power_name(p),
        r.rules.techs[k].name
    ))
}

/// `set_control`: `space` (a territory), `power`: the territory changes hands and nothing
/// else does (no IPCs are taken, the units there stay). A power with two economies holds it in
/// the economy it lies in (`economy.rs`).
fn set_control(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let at = r.space("space")?;
    let p = r.rules.economy_for(r.power()?, at);
    if r.rules.board.space(at).is_sea() {
        return Err(format!(
            "set_control: {} is a sea zone; only territories are controlled",
            r.space_name(at)
        ));
    }
    if r.rules.board.space(at).neutral == Some(crate::rules::NeutralKind::Impassable)
        || super::neutrals::standing(r.rules, s, at).is_some()
    {
        return Err(format!(
            "set_control: {} is neutral and cannot be held",
            r.space_name(at)
        ));
    }
    s.space_mut(at).controller = Some(p);
    Ok(format!(
        "{} now controls {}{reason}",
        r.power_name(p),
        r.space_name(at)
    ))
}

/// A unit of this type may stand in this space outside a move: land units in territories,
/// sea units at sea, air units anywhere (one at sea without a carrier is lost when air units
/// land, as any other).
fn may_stand(r: &Asked, s: &State, kind: UnitTypeId, at: SpaceId) -> Result<(), String> {
    let t = r.rules.unit(kind);
    let sea = r.rules.board.space(at).is_sea();
    let ok = match t.domain {
        Domain::Land => !sea,
        Domain::Sea => sea,
        Domain::Air => true,
    };
    if !ok {
        let kind = if sea { "a sea zone" } else { "a territory" };
        return Err(format!(
            "{}: {} units cannot stand in {} ({kind})",
            r.what,
            t.name,
            r.space_name(at)
        ));
    }
    if r.rules.board.space(at).neutral == Some(crate::rules::NeutralKind::Impassable)
        || super::neutrals::untouched(r.rules, s, at)
    {
        return Err(format!(
            "{}: {} is neutral; no unit may stand there",
            r.what,
            r.space_name(at)
        ));
    }
    Ok(())
}

/// `add_units`: `power`, `unit`, `count`, `space`: new units of the power, there at once (not
/// bought, not waiting to be placed).
fn add_units(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let p = r.power()?;
    let kind = r.unit()?;
    let count = r.count()?;
    let at = r.space("space")?;
    may_stand(r, s, kind, at)?;
    for _ in 0..count {
        let id = s.next_unit_id;
        s.next_unit_id += 1;
        s.space_mut(at).units.push(Unit::new(id, kind, p));
    }
    Ok(format!(
        "{} gets {count} {} in {}{reason}",
        r.power_name(p),
        r.rules.unit(kind).name,
        r.space_name(at)
    ))
}

/// The ids of `count` units of the power and type in the space, those carrying nothing first;
/// refused when fewer are there.
fn pick(
    r: &Asked,
    s: &State,
    p: PowerId,
    kind: UnitTypeId,
    count: u32,
    at: SpaceId,
) -> Result<Vec<u32>, String> {
    let units = &s.space(at).units;
    let mut ids: Vec<(bool, u32)> = units
        .iter()
        .filter(|u| u.owner == p && u.kind == kind)
        .map(|u| (units.iter().any(|c| c.aboard == Some(u.id)), u.id))
        .collect();
    if ids.len() < count as usize {
        return Err(format!(
            "{}: {} has {} {} in {}, not {count}",
            r.what,
            r.power_name(p),
            ids.len(),
            r.rules.unit(kind).name,
            r.space_name(at)
        ));
    }
    ids.sort_by_key(|(carrying, _)| *carrying);
    Ok(ids.into_iter().take(count as usize).map(|(_, id)| id).collect())
}

/// `remove_units`: `power`, `unit`, `count`, `space`: units taken off the board (with
/// whatever they carry).
fn remove_units(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    if r.cmd.get("units").is_some() {
        if let Some(extra) = ["power", "unit", "count", "space"]
            .iter()
            .find(|f| r.cmd.get(f).is_some())
        {
            return Err(format!(
                "remove_units takes units = {{ids}} or power, unit, count and space, not both (`{extra}`)"
            ));
        }
        let at = r.units_on_board(s, true)?.unwrap_or_default();
        let text = describe_units(r, s, &at);
        let ids: Vec<(usize, u32)> = at.iter().map(|&(i, k)| (i, s.spaces[i].units[k].id)).collect();
        let mut with = 0;
        for (i, id) in ids {
            // A unit aboard another one named here is gone already.
            with += s.remove_unit(SpaceId(i as u16), id).len().saturating_sub(1);
        }
        let cargo = if with > 0 {
            format!(" with {with} unit(s) aboard")
        } else {
            String::new()
        };
        return Ok(format!("removed: {text}{cargo}{reason}"));
    }
    let p = r.power()?;
    let kind = r.unit()?;
    let count = r.count()?;
    let at = r.space("space")?;
    let ids = pick(r, s, p, kind, count, at)?;
    let mut with = 0;
    for id in ids {
        with += s.remove_unit(at, id).len() - 1;
    }
    let cargo = if with > 0 {
        format!(" with {with} unit(s) aboard")
    } else {
        String::new()
    };
    Ok(format!(
        "{} loses {count} {} in {}{cargo}{reason}",
        r.power_name(p),
        r.rules.unit(kind).name,
        r.space_name(at)
    ))
}

/// `move_units`: `power`, `unit`, `count`, `from`, `to`: units (with whatever they carry) set
/// down in another space, by no path and whatever their movement: a transfer the rule
/// describes, not a move. They keep what they did this turn.
fn move_units(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let p = r.power()?;
    let kind = r.unit()?;
    let count = r.count()?;
    let (from, to) = (r.space("from")?, r.space("to")?);
    if from == to {
        return Err(format!("move_units: from and to are both {}", r.space_name(from)));
    }
    may_stand(r, s, kind, to)?;
    let ids = pick(r, s, p, kind, count, from)?;
    let moving = s.take_units(from, |u| {
        ids.contains(&u.id) || u.aboard.is_some_and(|c| ids.contains(&c))
    });
    s.space_mut(to).units.extend(moving);
    Ok(format!(
        "{} {} of {} go from {} to {}{reason}",
        count,
        r.rules.unit(kind).name,
        r.power_name(p),
        r.space_name(from),
        r.space_name(to)
    ))
}

/// `set_relation`: `power`, `other`, `relation` (`"war"`, `"peace"` or `"allied"`), both ways.
fn set_relation(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let a = r.power()?;
    let b = r.power_field("other")?;
    if a == b {
        return Err(format!(
            "set_relation: power and other are both {}",
            r.power_name(a)
        ));
    }
    let relation = match r.cmd.get("relation").and_then(Value::as_str) {
        Some("war") => Relation::War,
        Some("peace") => Relation::Peace,
        Some("allied") => Relation::Allied,
        _ => return Err("set_relation needs relation = \"war\", \"peace\" or \"allied\"".into()),
    };
    let table = Arc::make_mut(&mut s.relations);
    table[a.index()][b.index()] = relation;
    table[b.index()][a.index()] = relation;
    Ok(format!(
        "{} and {} are now at {}{reason}",
        r.power_name(a),
        r.power_name(b),
        match relation {
            Relation::War => "war",
            Relation::Peace => "peace",
            Relation::Allied => "one side (allied)",
        }
    ))
}

/// `set_leaning`: `space`, `leaning` (a side or `strict`): a neutral territory not attacked yet
/// leans that way from now on (the strict neutrals' turn, E40-NEUTRAL-STRICT).
fn set_leaning(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let at = r.space("space")?;
    let leaning = r.cmd.get("leaning").and_then(Value::as_str).unwrap_or("");
    let side = if leaning.eq_ignore_ascii_case("strict") {
        None
    } else {
        match r
            .rules
            .powers
            .iter()
            .map(|p| p.side.as_str())
            .find(|sd| sd.eq_ignore_ascii_case(leaning))
        {
            Some(sd) => Some(sd.to_string()),
            None => {
                let mut sides: Vec<&str> = r.rules.powers.iter().map(|p| p.side.as_str()).collect();
                sides.sort_unstable();
                sides.dedup();
                return Err(format!(
                    "set_leaning needs leaning = a side of this edition ({}) or \"strict\"",
                    sides.join(", ")
                ));
            }
        }
    };
    super::neutrals::set_leaning(r.rules, s, at, side.clone()).map_err(|e| format!("set_leaning: {e}"))?;
    Ok(format!(
        "{} is {} now{reason}",
        r.space_name(at),
        side.map_or("a strict neutral".to_string(), |sd| format!("pro-{sd}"))
    ))
}

/// `take_neutral`: `space`, `power`: the power takes a neutral territory no power holds, as its
/// land units would a friendly neutral (`neutrals::take`).
fn take_neutral(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let at = r.space("space")?;
    let p = r.power()?;
    let line = super::neutrals::take(r.rules, s, p, at).map_err(|e| format!("take_neutral: {e}"))?;
    Ok(format!("{line}{reason}"))
}

/// `declare_winner`: `side`, in `victory_check` only: the game ends with that side's victory
/// (the engine's own verdict, if it gave one this turn, stands unless it names the same side);
/// `side = "none"` sets the engine's verdict of this turn aside, and the game goes on.
fn declare_winner(r: &Asked, s: &mut State, reason: &str, event: EventKind) -> Result<String, String> {
    if event != EventKind::VictoryCheck {
        return Err(format!(
            "declare_winner is asked in `victory_check`, not in `{}`",
            event.name()
        ));
    }
    let side = r.cmd.get("side").and_then(Value::as_str).unwrap_or("");
    if side.eq_ignore_ascii_case("none") {
        return Ok(match s.winner.take() {
            Some(w) => format!("the {w}' victory is set aside: the game goes on{reason}"),
            None => format!("no side has won yet; the game goes on{reason}"),
        });
    }
    let Some(side) = r
        .rules
        .powers
        .iter()
        .map(|p| p.side.as_str())
        .find(|sd| sd.eq_ignore_ascii_case(side))
    else {
        let mut sides: Vec<&str> = r.rules.powers.iter().map(|p| p.side.as_str()).collect();
        sides.sort_unstable();
        sides.dedup();
        return Err(format!(
            "declare_winner needs side = a side of this edition ({}) or \"none\"",
            sides.join(", ")
        ));
    };
    match &s.winner {
        Some(w) if w != side => Err(format!("declare_winner: the game is already won by the {w}")),
        _ => {
            s.winner = Some(side.to_string());
            Ok(format!("{side} win{reason}"))
        }
    }
}

/// The requests of tags: asked in battles too (applied once the command fighting has run).
pub(super) const TAG_REQUESTS: &[&str] = &["mark", "clear_mark"];

impl Asked<'_> {
    /// `units`: a list of 1 to 99 unit ids, each on the board; their places (space, index).
    fn units_on_board(&self, s: &State, required: bool) -> Result<Option<Vec<(usize, usize)>>, String> {
        let list = match self.cmd.get("units") {
            None if !required => return Ok(None),
            Some(Value::List(l)) if (1..=99).contains(&l.len()) => l,
            _ => {
                return Err(format!(
                    "{} needs units = a list of 1 to 99 unit ids (from `game:each_unit` or a battle's `combatants`)",
                    self.what
                ))
            }
        };
        let mut ids = Vec::with_capacity(list.len());
        for v in list {
            match v.as_int() {
                Some(id) if (0..=i64::from(u32::MAX)).contains(&id) => ids.push(id as u32),
                _ => return Err(format!("{}: units holds {v:?}, not a unit id", self.what)),
            }
        }
        let mut found = vec![None; ids.len()];
        for (i, sp) in s.spaces.iter().enumerate() {
            for (k, u) in sp.units.iter().enumerate() {
                if let Some(n) = ids.iter().position(|id| *id == u.id) {
                    found[n] = Some((i, k));
                }
            }
        }
        ids.iter()
            .zip(found)
            .map(|(id, at)| at.ok_or_else(|| format!("{}: no unit #{id} is on the board", self.what)))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// A list of unit ids in `field` (units that need not be on the board).
    fn unit_ids(&self, field: &str) -> Result<Vec<u32>, String> {
        match self.cmd.get(field) {
            Some(Value::List(l)) if (1..=99).contains(&l.len()) => l
                .iter()
                .map(|v| match v.as_int() {
                    Some(id) if (0..=i64::from(u32::MAX)).contains(&id) => Ok(id as u32),
                    _ => Err(format!("{}: {field} holds {v:?}, not a unit id", self.what)),
                })
                .collect(),
            _ => Err(format!(
                "{} needs {field} = a list of 1 to 99 unit ids",
                self.what
            )),
        }
    }

    fn tag(&self) -> Result<String, String> {
        match self.cmd.get("tag").and_then(Value::as_str) {
            Some(t) if super::state::Tags::valid_name(t) => Ok(t.to_string()),
            _ => Err(format!(
                "{} needs tag = a name of letters, digits and `_` (at most 32), such as \"veteran\"",
                self.what
            )),
        }
    }

    /// `value = "attack" | "defense"`: whether it is defense.
    fn which_value(&self) -> Result<bool, String> {
        match self.cmd.get("value").and_then(Value::as_str) {
            Some("attack") => Ok(false),
            Some("defense") => Ok(true),
            _ => Err(format!("{} needs value = \"attack\" or \"defense\"", self.what)),
        }
    }
}

/// `n Tank of Germany in Poland` for the units at these places, grouped.
fn describe_units(r: &Asked, s: &State, at: &[(usize, usize)]) -> String {
    let mut groups: Vec<(usize, PowerId, UnitTypeId, u32)> = Vec::new();
    for &(i, k) in at {
        let u = &s.spaces[i].units[k];
        match groups
            .iter_mut()
            .find(|g| g.0 == i && g.1 == u.owner && g.2 == u.kind)
        {
            Some(g) => g.3 += 1,
            None => groups.push((i, u.owner, u.kind, 1)),
        }
    }
    groups
        .iter()
        .map(|(i, p, kind, n)| {
            format!(
                "{n} {} of {} in {}",
                r.rules.unit(*kind).name,
                r.power_name(*p),
                r.rules.board.spaces[*i].name
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `mark`: `units`, `tag`, and `value` (default 1; 0 clears) or `add`: a named flag or counter
/// kept on each unit until a script clears it.
fn mark(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let at = r.units_on_board(s, true)?.unwrap_or_default();
    let tag = r.tag()?;
    let int = |field: &str| match r.cmd.get(field).map(Value::as_int) {
        None => Ok(None),
        Some(Some(v)) if v.abs() <= 1000 => Ok(Some(v)),
        Some(_) => Err(format!("mark needs {field} = a whole number from -1000 to 1000")),
    };
    let (value, add) = (int("value")?, int("add")?);
    if value.is_some() && add.is_some() {
        return Err("mark takes value = N or add = N, not both".into());
    }
    for &(i, k) in &at {
        let u = &mut s.spaces.edit(i).units[k];
        let now = match add {
            Some(d) => (u.tags.get(&tag) + d).clamp(-1000, 1000),
            None => value.unwrap_or(1),
        };
        u.tags.set(&tag, now);
    }
    let what = match (value, add) {
        (_, Some(d)) => format!("{tag} {d:+}"),
        (Some(0), _) => format!("{tag} cleared"),
        (Some(v), _) if v != 1 => format!("{tag} = {v}"),
        _ => tag,
    };
    Ok(format!("marked {what}: {}{reason}", describe_units(r, s, &at)))
}

/// `clear_mark`: `tag`, and `units` (else every unit carrying it).
fn clear_mark(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let tag = r.tag()?;
    let at = match r.units_on_board(s, false)? {
        Some(at) => at,
        None => {
            let mut all = Vec::new();
            for (i, sp) in s.spaces.iter().enumerate() {
                for (k, u) in sp.units.iter().enumerate() {
                    if u.tags.get(&tag) != 0 {
                        all.push((i, k));
                    }
                }
            }
            all
        }
    };
    if at.is_empty() {
        return Ok(format!("no unit carries {tag}{reason}"));
    }
    let text = describe_units(r, s, &at);
    for &(i, k) in &at {
        s.spaces.edit(i).units[k].tags.set(&tag, 0);
    }
    Ok(format!("{tag} cleared: {text}{reason}"))
}

/// `set_value`: `power`, `unit`, `value` (`attack` or `defense`), `to`, `until` (`turn` or
/// `removed`): the power's units of the type fight at that value in battles begun from now.
fn set_value(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let p = r.power()?;
    let kind = r.unit()?;
    let defense = r.which_value()?;
    let to = match r.cmd.get("to").and_then(Value::as_int) {
        Some(v @ 0..=6) => v as u8,
        _ => return Err("set_value needs to = a whole number from 0 to 6".into()),
    };
    let this_turn = match r.cmd.get("lasts").and_then(Value::as_str) {
        Some("turn") => true,
        Some("removed") => false,
        _ => return Err("set_value needs lasts = \"turn\" or \"removed\"".into()),
    };
    let list = Arc::make_mut(&mut s.standing_values.0);
    list.retain(|v| !(v.power == p && v.kind == kind && v.defense == defense));
    list.push(super::state::StandingValue {
        power: p,
        kind,
        defense,
        value: to,
        this_turn,
    });
    Ok(format!(
        "{}'s {} {} at {to} {}{reason}",
        r.power_name(p),
        r.rules.unit(kind).name,
        if defense { "defend" } else { "attack" },
        if this_turn {
            "this turn"
        } else {
            "until further notice"
        }
    ))
}

/// `clear_value`: `power`, `unit`, `value`: what `set_value` set is gone.
fn clear_value(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let p = r.power()?;
    let kind = r.unit()?;
    let defense = r.which_value()?;
    let which = if defense { "defense" } else { "attack" };
    if s.standing_values.of(p, kind, defense).is_none() {
        return Err(format!(
            "clear_value: no {which} is set for {}'s {}",
            r.power_name(p),
            r.rules.unit(kind).name
        ));
    }
    Arc::make_mut(&mut s.standing_values.0)
        .retain(|v| !(v.power == p && v.kind == kind && v.defense == defense));
    Ok(format!(
        "{}'s {} {which} is the printed one again{reason}",
        r.power_name(p),
        r.rules.unit(kind).name
    ))
}

/// `choose`: `power`, `question`, `answers` (2 to 10), optional `key`: the game waits for the
/// power's answer (`answer ...`), which fires `answer`.
fn choose(r: &Asked, s: &mut State, by: &str) -> Result<String, String> {
    let p = r.power()?;
    let text = match r.cmd.get("question").and_then(Value::as_str) {
        Some(t) if !t.trim().is_empty() && t.len() <= 200 && !t.contains('\n') => t.trim().to_string(),
        _ => return Err("choose needs question = a non-empty line of text (at most 200 characters)".into()),
    };
    let answers: Vec<String> = match r.cmd.get("answers") {
        Some(Value::List(l)) if (2..=10).contains(&l.len()) => {
            let mut out = Vec::new();
            for a in l {
                match a.as_str() {
                    Some(a)
                        if !a.trim().is_empty()
                            && a.len() <= 40
                            && !a.contains('"')
                            && a.trim().parse::<usize>().is_err() =>
                    {
                        let a = a.trim().to_string();
                        if out.iter().any(|o: &String| o.eq_ignore_ascii_case(&a)) {
                            return Err(format!("choose: the answer `{a}` is listed twice"));
                        }
                        out.push(a);
                    }
                    _ => {
                        return Err(format!(
                            "choose: answers holds {a:?}; each answer is a short text (at most 40 characters, no quotes, not a number)"
                        ))
                    }
                }
            }
            out
        }
        _ => return Err("choose needs answers = a list of 2 to 10 texts".into()),
    };
    let key = match r.cmd.get("key") {
        None => by.to_string(),
        Some(k) => match k.as_str() {
            Some(k) if !k.is_empty() => k.to_string(),
            _ => return Err("choose: key must be a non-empty string".into()),
        },
    };
    if s.questions.0.len() >= 20 {
        return Err("choose: 20 questions are waiting already".into());
    }
    // Asked only while one of these units is on the board, as the requests before it left it
    // (a `strike` before it may have destroyed the last one).
    if r.cmd.get("while_units").is_some() {
        let ids = r.unit_ids("while_units")?;
        let standing = s
            .spaces
            .iter()
            .any(|sp| sp.units.iter().any(|u| ids.contains(&u.id)));
        if !standing {
            return Ok(format!("does not ask “{text}”: none of its units is left"));
        }
    }
    let q = super::state::Question {
        power: p,
        by: by.to_string(),
        key,
        text,
        answers,
    };
    let line = format!("asks {}", super::questions::prompt(r.rules, &q));
    s.questions.0.push(q);
    Ok(line)
}

/// `replace_facility`: `space`, `facility`, `to`: the facility there becomes the other type,
/// its damage kept within the new type's cap.
/// `strike`: `power`, `units`, `value`: one die at each unit named, outside any battle; a hit
/// (`value` or less) takes one of the unit's hits: it is destroyed (with what it carries), or
/// damaged if it has more (attacks a rule makes before any battle).
fn strike(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let p = r.power()?;
    let value = match r.cmd.get("value").and_then(Value::as_int) {
        Some(v) if (0..=6).contains(&v) => v as u8,
        _ => return Err("strike needs value = 0 to 6 (a hit on that or less)".into()),
    };
    let at = r.units_on_board(s, true)?.unwrap_or_default();
    let targets: Vec<(usize, u32)> = at.iter().map(|&(i, k)| (i, s.spaces[i].units[k].id)).collect();
    let Some(faces) = s.roll_table(targets.len()) else {
        return Err(format!(
            "dice come from the table: type {} face(s) first (`roll 2`), then the command again",
            targets.len()
        ));
    };
    let mut parts = Vec::new();
    for ((i, id), face) in targets.into_iter().zip(faces) {
        let space = SpaceId(i as u16);
        let Some(u) = s.space(space).units.iter().find(|u| u.id == id).cloned() else {
            // Destroyed by an earlier die of this strike (it carried it): nothing to hit.
            continue;
        };
        let t = r.rules.unit(u.kind);
        let what = format!(
            "{} {} #{} in {}",
            r.power_name(u.owner),
            t.name,
            id,
            r.space_name(space)
        );
        if face > value {
            parts.push(format!("{what} [{face}] missed"));
        } else if u.damage + 1 < t.hits {
            if let Some(x) = s.space_mut(space).units.iter_mut().find(|x| x.id == id) {
                x.damage += 1;
            }
            parts.push(format!("{what} [{face}] hit, damaged"));
        } else {
            s.remove_unit(space, id);
            parts.push(format!("{what} [{face}] hit, destroyed"));
        }
    }
    Ok(format!(
        "{} strikes at {value} or less: {}{reason}",
        r.power_name(p),
        parts.join("; ")
    ))
}

/// `no_bombardment`: `space`: no ship in that sea zone bombards this turn (a rule's doing).
fn no_bombardment(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let at = r.space("space")?;
    if !r.rules.board.space(at).is_sea() {
        return Err(format!("no_bombardment: {} is not a sea zone", r.space_name(at)));
    }
    if !s.this_turn.no_bombardment.0.contains(&at) {
        s.this_turn.no_bombardment.0.push(at);
    }
    Ok(format!(
        "no ship in {} bombards this turn{reason}",
        r.space_name(at)
    ))
}

/// `remove_facility`: `space`, `facility`: the facility leaves the game (a rule that destroys
/// complexes where a rulebook says so, as a territory changes hands).
fn remove_facility(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let at = r.space("space")?;
    let Some(kind) = r
        .cmd
        .get("facility")
        .and_then(Value::as_str)
        .and_then(|id| r.rules.facilities.iter().position(|f| f.id == id))
        .map(|i| crate::rules::FacilityTypeId(i as u16))
    else {
        return Err("remove_facility needs facility = a facility type id of this edition".into());
    };
    let Some(i) = s.space(at).facilities.iter().position(|f| f.kind == kind) else {
        return Err(format!(
            "remove_facility: {} has no {}",
            r.space_name(at),
            r.rules.facilities[kind.index()].name
        ));
    };
    s.space_mut(at).facilities.remove(i);
    Ok(format!(
        "the {} in {} is removed from the game{reason}",
        r.rules.facilities[kind.index()].name,
        r.space_name(at)
    ))
}

fn replace_facility(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let at = r.space("space")?;
    let kind = |field: &str| {
        r.cmd
            .get(field)
            .and_then(Value::as_str)
            .and_then(|id| r.rules.facilities.iter().position(|f| f.id == id))
            .map(|i| crate::rules::FacilityTypeId(i as u16))
            .ok_or_else(|| format!("replace_facility needs {field} = a facility type id of this edition"))
    };
    let (from, to) = (kind("facility")?, kind("to")?);
    let ipc = r.rules.board.space(at).ipc;
    let cap = r.rules.facilities[to.index()].max_damage.resolve(ipc);
    let Some(f) = s.space_mut(at).facilities.iter_mut().find(|f| f.kind == from) else {
        return Err(format!(
            "replace_facility: {} has no {}",
            r.space_name(at),
            r.rules.facilities[from.index()].name
        ));
    };
    f.kind = to;
    f.damage = f.damage.min(cap);
    Ok(format!(
        "the {} in {} is now a {}{reason}",
        r.rules.facilities[from.index()].name,
        r.space_name(at),
        r.rules.facilities[to.index()].name
    ))
}
