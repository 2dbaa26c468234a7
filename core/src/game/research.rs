//! Research and development (`[research]`, `[techs]`), and repairing facilities.
//!
//! `research N` buys N researcher tokens and rolls one die per token held; a face of
//! `breakthrough` or more is a success: every token is discarded and the power chooses a chart
//! with `breakthrough CHART`, whose die gives a tech it does not hold yet (held results are
//! rolled again). No success: the tokens are kept for a later turn. What a tech does is data
//! (`RuleSet::unit_for`, `production_bonus`, `repairs_per_ipc`) or a script reading the techs.
//!
//! Dice come from the faces typed at the table first, then the game's generator; with manual
//! dice every face must have been typed (`roll ...`) before the command.

use super::state::State;
use super::Rejection;
use crate::rules::{PhaseKind, PowerId, RuleSet, SpaceId, TechId};
use std::sync::Arc;

pub const RULE_RESEARCH: &str = "research";
pub const RULE_REPAIR: &str = "repair";

/// One die, from the table first (refused with manual dice when none was typed).
fn die(s: &mut State, what: &str) -> Result<u32, Rejection> {
    match s.roll_table(1) {
        Some(f) => Ok(u32::from(f[0])),
        None => Err(Rejection::new(format!(
            "dice come from the table: type the faces of {what} first (`roll 6 2 ...`), then this command again"
        ))
        .by(RULE_RESEARCH)),
    }
}

fn chart_list(rules: &RuleSet) -> String {
    let Some(r) = &rules.research else {
        return String::new();
    };
    r.charts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let names: Vec<&str> = c
                .techs
                .iter()
                .map(|t| rules.techs[t.index()].name.as_str())
                .collect();
            format!("`breakthrough {}` ({}: {})", i + 1, c.name, names.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

/// What happened, for the `research` event.
pub struct Rolled {
    pub tokens: u32,
    pub cost: u32,
    pub faces: Vec<u32>,
    pub success: bool,
}

/// `buys`: the tokens bought and who pays for them — the power, and a second economy of it (the
/// tokens and the techs are the power's); all are rolled together.
pub fn research(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    buys: &[(PowerId, u32)],
    phase: PhaseKind,
    out: &mut Vec<String>,
) -> Result<Rolled, Rejection> {
    let buy: u32 = buys.iter().map(|(_, n)| n).sum();
    let Some(r) = &rules.research else {
        return Err(Rejection::new(
            "this game has no research and development (where an edition has it as an optional rule, a layer adds it: `warroom editions` lists each edition's options)",
        )
        .by(RULE_RESEARCH));
    };
    if phase != PhaseKind::Research {
        return Err(Rejection::new("research is done in the research & development phase").by(RULE_RESEARCH));
    }
    if s.this_turn.researched {
        return Err(Rejection::new("the research dice have been rolled this turn").by(RULE_RESEARCH));
    }
    let pname = rules.power_info(power).name.clone();
    let cost = buy * r.token_cost;
    for &(payer, n) in buys {
        let have = s.treasuries[payer.index()];
        if i64::from(n * r.token_cost) > have {
            return Err(Rejection::new(format!(
                "{} has {have} IPCs; {n} researcher token(s) cost {}",
                rules.power_info(payer).name,
                n * r.token_cost
            ))
            .by(RULE_RESEARCH));
        }
    }
    let tokens = s.research_tokens[power.index()] + buy;
    if tokens == 0 {
        return Err(Rejection::new(format!(
            "{pname} has no researcher tokens: `research N` buys N at {} IPCs each and rolls them",
            r.token_cost
        ))
        .by(RULE_RESEARCH));
    }
    if tokens > 100 {
        return Err(Rejection::new("at most 100 researcher tokens").by(RULE_RESEARCH));
    }
    let mut faces = Vec::new();
    for _ in 0..tokens {
        faces.push(die(s, &format!("{tokens} research dice"))?);
    }
    for &(payer, n) in buys {
        Arc::make_mut(&mut s.treasuries)[payer.index()] -= i64::from(n * r.token_cost);
    }
    s.this_turn.researched = true;
    let success = faces.iter().any(|&f| f >= r.breakthrough);
    let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
    let paying: Vec<(PowerId, u32)> = buys.iter().copied().filter(|(_, n)| *n > 0).collect();
    let treasury = |p: PowerId| format!("{}'s treasury", rules.power_info(p).name);
    let bought = match paying.as_slice() {
        [] => format!("{pname} rolls"),
        [(p, _)] if *p == power => {
            format!("{pname} buys {buy} researcher token(s) for {cost} IPCs and rolls")
        }
        [(p, _)] => format!(
            "{pname} buys {buy} researcher token(s) for {cost} IPCs from {} and rolls",
            treasury(*p)
        ),
        several => {
            let parts: Vec<String> = several
                .iter()
                .map(|(p, n)| format!("{} from {}", n * r.token_cost, treasury(*p)))
                .collect();
            format!(
                "{pname} buys {buy} researcher token(s) for {cost} IPCs ({}) and rolls",
                parts.join(", ")
            )
        }
    };
    out.push(format!("{bought} {tokens} research dice: {}", shown.join(" ")));
    if success {
        Arc::make_mut(&mut s.research_tokens)[power.index()] = 0;
        let open = r
            .charts
            .iter()
            .any(|c| c.techs.iter().any(|t| !s.techs[power.index()].contains(t)));
        if open {
            s.breakthrough_pending = true;
            // Kept tokens are discarded on a breakthrough; dice that are never kept just end.
            let spent = if r.keep_tokens {
                "the researcher tokens are discarded"
            } else {
                "the research dice are spent"
            };
            out.push(format!(
                "a breakthrough! {spent}; choose a chart: {}",
                chart_list(rules)
            ));
        } else {
            out.push(format!(
                "a breakthrough, but {pname} holds every advance of every chart"
            ));
        }
    } else if r.keep_tokens {
        Arc::make_mut(&mut s.research_tokens)[power.index()] = tokens;
        out.push(format!(
            "no {}: {pname} keeps its {tokens} researcher token(s) for a later turn",
            r.breakthrough
        ));
    } else {
        Arc::make_mut(&mut s.research_tokens)[power.index()] = 0;
        out.push(format!("no {}: the research has failed", r.breakthrough));
    }
    Ok(Rolled {
        tokens,
        cost,
        faces,
        success,
    })
}

/// The tech gained, for the `breakthrough` event.
pub fn breakthrough(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    chart: usize,
    out: &mut Vec<String>,
) -> Result<(usize, TechId, Vec<u32>), Rejection> {
    let Some(r) = &rules.research else {
        return Err(Rejection::new("this game has no research and development").by(RULE_RESEARCH));
    };
    if !s.breakthrough_pending {
        return Err(Rejection::new(
            "no breakthrough to develop: roll research dice first (`research N`), a 6 is a breakthrough",
        )
        .by(RULE_RESEARCH));
    }
    let Some(c) = chart.checked_sub(1).and_then(|i| r.charts.get(i)) else {
        return Err(
            Rejection::new(format!("there is no chart {chart}; choose {}", chart_list(rules)))
                .by(RULE_RESEARCH),
        );
    };
    let held = &s.techs[power.index()];
    if c.techs.iter().all(|t| held.contains(t)) {
        return Err(Rejection::new(format!(
            "{} holds every advance of {}; choose another chart",
            rules.power_info(power).name,
            c.name
        ))
        .by(RULE_RESEARCH));
    }
    let mut faces = Vec::new();
    let tech = loop {
        let f = die(s, "the breakthrough die")?;
        faces.push(f);
        if let Some(&t) = c.techs.get(f as usize - 1) {
            if !s.techs[power.index()].contains(&t) {
                break t;
            }
        }
        if faces.len() > 200 {
            return Err(Rejection::new("no new advance after 200 breakthrough dice").by(RULE_RESEARCH));
        }
    };
    s.breakthrough_pending = false;
    Arc::make_mut(&mut s.techs)[power.index()].push(tech);
    let t = &rules.techs[tech.index()];
    let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
    let rerolled = if faces.len() > 1 {
        " (results already held are rolled again)"
    } else {
        ""
    };
    let desc = if t.description.is_empty() {
        String::new()
    } else {
        format!(" — {}", t.description)
    };
    out.push(format!(
        "{} rolls {} on {}{rerolled}: {}{desc}",
        rules.power_info(power).name,
        shown.join(" "),
        c.name,
        t.name
    ));
    Ok((chart, tech, faces))
}

/// `repair N [in SPACE]`: remove damage from the power's facilities in the purchase phase.
#[allow(clippy::too_many_arguments)]
pub fn repair(
    rules: &RuleSet,
    s: &mut State,
    power: PowerId,
    phase: PhaseKind,
    count: u32,
    space: Option<SpaceId>,
    facility: Option<crate::rules::FacilityTypeId>,
    out: &mut Vec<String>,
) -> Result<(), Rejection> {
    if phase != PhaseKind::Purchase {
        return Err(Rejection::new("damage is repaired in the purchase phase").by(RULE_REPAIR));
    }
    let damaged: Vec<SpaceId> = rules
        .board
        .ids()
        .filter(|id| {
            s.space(*id)
                .controller
                .is_some_and(|c| rules.same_power(c, power))
        })
        .filter(|id| s.space(*id).facilities.iter().any(|f| f.damage > 0))
        .collect();
    let pname = rules.power_info(power).name.clone();
    let at = match space {
        Some(sp) if damaged.contains(&sp) => sp,
        Some(sp) => {
            return Err(Rejection::new(format!(
                "{pname} has no damaged facility in {}",
                rules.board.space(sp).name
            ))
            .by(RULE_REPAIR))
        }
        None => match damaged.as_slice() {
            [one] => *one,
            [] => return Err(Rejection::new(format!("{pname} has no damaged facility")).by(RULE_REPAIR)),
            many => {
                let names: Vec<&str> = many
                    .iter()
                    .map(|id| rules.board.space(*id).name.as_str())
                    .collect();
                return Err(Rejection::new(format!(
                    "which one? `repair N in SPACE`, one of {}",
                    names.join(", ")
                ))
                .by(RULE_REPAIR));
            }
        },
    };
    let techs = s.techs[rules.relation_holder(power).index()].clone();
    let here = &s.spaces[at.index()].facilities;
    let damaged: Vec<usize> = (0..here.len()).filter(|&i| here[i].damage > 0).collect();
    let f = match (facility, damaged.as_slice()) {
        (Some(kind), _) => match damaged.iter().find(|&&i| here[i].kind == kind) {
            Some(&i) => i,
            None => {
                return Err(Rejection::new(format!(
                    "{pname} has no damaged {} in {}",
                    rules.facilities[kind.index()].name,
                    rules.board.space(at).name
                ))
                .by(RULE_REPAIR))
            }
        },
        (None, [one]) => *one,
        (None, many) => {
            let ids: Vec<&str> = many
                .iter()
                .map(|&i| rules.facilities[here[i].kind.index()].id.as_str())
                .collect();
            return Err(Rejection::new(format!(
                "which facility in {}? `repair {count} FACILITY in {}`, one of {}",
                rules.board.space(at).name,
                rules.board.space(at).name,
                ids.join(", ")
            ))
            .by(RULE_REPAIR));
        }
    };
    let damage = s.spaces[at.index()].facilities[f].damage;
    let place = rules.board.space(at).name.clone();
    if count == 0 || count > damage {
        return Err(Rejection::new(format!(
            "the facility in {place} has {damage} damage; repair 1 to {damage}"
        ))
        .by(RULE_REPAIR));
    }
    let per_ipc = rules.facility_repairs_per_ipc(s.spaces[at.index()].facilities[f].kind, &techs);
    let cost = count.div_ceil(per_ipc);
    // The economy holding the territory pays (a power with two economies; 000 · Global United
    // Kingdom Rules: "each ... makes its own separate purchases and repairs").
    let payer = super::economy::payer(
        rules,
        s,
        power,
        Some(super::economy::holding(rules, s, power, at)),
    )
    .map_err(|r| Rejection::new(r.message).by(RULE_REPAIR))?;
    let pname = rules.power_info(payer).name.clone();
    let power = payer;
    let have = s.treasuries[power.index()];
    if i64::from(cost) > have {
        return Err(
            Rejection::new(format!("{pname} has {have} IPCs; repairing {count} costs {cost}"))
                .by(RULE_REPAIR),
        );
    }
    Arc::make_mut(&mut s.treasuries)[power.index()] -= i64::from(cost);
    s.space_mut(at).facilities[f].damage -= count;
    let kind = &rules.facilities[s.spaces[at.index()].facilities[f].kind.index()].name;
    out.push(format!(
        "{pname} repairs {count} damage of the {kind} in {place} for {cost} IPCs ({} left)",
        damage - count
    ));
    Ok(())
}
