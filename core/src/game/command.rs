//! Commands: the only way a game changes. Each has one canonical text form, which is what the
//! REPL reads, what saves store and what scenario files will be written in.

use crate::rules::{Piece, PowerId, RuleSet, SpaceId, UnitTypeId};

use super::state::Relation;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Buy units or facilities in the purchase phase.
    Buy { piece: Piece, count: u32 },
    /// Finish the current phase (the turn moves on to the next phase, power or round).
    EndPhase,
    /// A correction outside the rules, logged like any other command (table companion use).
    Edit(Edit),
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

fn quote(s: &str) -> String {
    if s.contains(char::is_whitespace) {
        format!("\"{s}\"")
    } else {
        s.to_string()
    }
}

/// Take the longest run of leading words that `find` recognises.
fn take_name<T>(words: &[String], find: impl Fn(&str) -> Option<T>) -> Option<(T, usize)> {
    (1..=words.len())
        .rev()
        .find_map(|n| find(&words[..n].join(" ")).map(|v| (v, n)))
}

impl Command {
    pub fn parse(rules: &RuleSet, line: &str) -> Result<Command, String> {
        let words = tokenize(line)?;
        let Some(verb) = words.first() else {
            return Err("empty command".into());
        };
        let rest = &words[1..];
        match verb.to_lowercase().as_str() {
            "buy" => {
                let (count, rest) = match rest.first().and_then(|w| w.parse::<u32>().ok()) {
                    Some(n) => (n, &rest[1..]),
                    None => (1, rest),
                };
                if rest.is_empty() {
                    return Err("buy what? e.g. `buy 3 infantry`".into());
                }
                let name = rest.join(" ");
                let piece = find_piece(rules, &name)?;
                if count == 0 {
                    return Err("buy at least one".into());
                }
                Ok(Command::Buy { piece, count })
            }
            "end" | "done" | "end-phase" => Ok(Command::EndPhase),
            "edit" => parse_edit(rules, rest).map(Command::Edit),
            other => Err(format!("unknown command `{other}`; try `help`")),
        }
    }

    pub fn to_text(&self, rules: &RuleSet) -> String {
        let pname = |p: PowerId| quote(&rules.power_info(p).name);
        let sname = |s: SpaceId| quote(&rules.board.space(s).name);
        let uname = |u: UnitTypeId| rules.unit(u).id.clone();
        match self {
            Command::Buy { piece, count } => {
                let id = match piece {
                    Piece::Unit(u) => rules.unit(*u).id.clone(),
                    Piece::Facility(f) => rules.facilities[f.index()].id.clone(),
                };
                format!("buy {count} {id}")
            }
            Command::EndPhase => "end phase".into(),
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
            },
        }
    }
}

fn find_piece(rules: &RuleSet, name: &str) -> Result<Piece, String> {
    let singular = name.strip_suffix('s').unwrap_or(name);
    if let Some(u) = rules.unit_type(name).or_else(|| rules.unit_type(singular)) {
        return Ok(Piece::Unit(u));
    }
    if let Some(f) = rules
        .facility_type(name)
        .or_else(|| rules.facility_type(singular))
    {
        return Ok(Piece::Facility(f));
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
        return Err("edit what? treasury, control, add, remove or relation".into());
    };
    let rest = &words[1..];
    let power = |w: &[String]| take_name(w, |s| rules.power(s)).ok_or_else(|| not_found("power", w));
    let space = |w: &[String]| take_name(w, |s| rules.board.find(s)).ok_or_else(|| not_found("space", w));
    match what.to_lowercase().as_str() {
        "treasury" => {
            let (p, n) = power(rest)?;
            let ipcs = rest
                .get(n)
                .and_then(|w| w.parse::<i64>().ok())
                .ok_or("usage: edit treasury POWER IPCS")?;
            Ok(Edit::Treasury { power: p, ipcs })
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
            let (count, tail) = match tail.first().and_then(|w| w.parse::<u32>().ok()) {
                Some(c) => (c, &tail[1..]),
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
        other => Err(format!(
            "cannot edit `{other}`; try treasury, control, add, remove or relation"
        )),
    }
}

fn not_found(what: &str, words: &[String]) -> String {
    if words.is_empty() {
        format!("missing {what}")
    } else {
        format!("no {what} at the start of `{}`", words.join(" "))
    }
}
