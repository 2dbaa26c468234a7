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
    "grant",
    "set_control",
    "add_units",
    "remove_units",
    "move_units",
    "set_relation",
    "declare_winner",
];

/// Apply a command a script asked for in `event`; the line to log, or why it is refused.
pub(super) fn apply_request(
    rules: &RuleSet,
    s: &mut State,
    cmd: &Value,
    event: EventKind,
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
        "set_control" => set_control(&r, s, &reason),
        "add_units" => add_units(&r, s, &reason),
        "remove_units" => remove_units(&r, s, &reason),
        "move_units" => move_units(&r, s, &reason),
        "set_relation" => set_relation(&r, s, &reason),
        "declare_winner" => declare_winner(&r, s, &reason, event),
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

/// `set_control`: `space` (a territory), `power`: the territory changes hands and nothing
/// else does (no IPCs are taken, the units there stay).
fn set_control(r: &Asked, s: &mut State, reason: &str) -> Result<String, String> {
    let at = r.space("space")?;
    let p = r.power()?;
    if r.rules.board.space(at).is_sea() {
        return Err(format!(
            "set_control: {} is a sea zone; only territories are controlled",
            r.space_name(at)
        ));
    }
    if r.rules.board.space(at).neutral.is_some() {
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
fn may_stand(r: &Asked, kind: UnitTypeId, at: SpaceId) -> Result<(), String> {
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
    if r.rules.board.space(at).neutral.is_some() {
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
    may_stand(r, kind, at)?;
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
    may_stand(r, kind, to)?;
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
