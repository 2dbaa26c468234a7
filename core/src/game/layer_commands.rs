//! Commands layers add to the game's language (`[commands]`, `rules::LayerCommand`): read from
//! the player's line, written back in one canonical form (saves replay it), accepted in the
//! phases they name, and carried out by the layer's rule scripts through the `command` event
//! (`hooks.rs`): a handler asks for the changes with `game:request` or refuses with a veto.

use super::command::{quote, resolve_power, resolve_space};
use super::Rejection;
use crate::rules::{ArgKind, LayerCommand, PowerId, RuleSet, SpaceId, UnitTypeId};

/// A layer's command as given: its verb and its arguments, in the declared order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayerCall {
    pub name: String,
    pub args: Vec<LayerArg>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerArg {
    Number(i64),
    Power(PowerId),
    Space(SpaceId),
    Unit(UnitTypeId),
}

/// The most calls of one command the legal actions list (every combination of its arguments,
/// in order, up to this many).
pub const MOST_LISTED: usize = 400;

fn usage(def: &LayerCommand) -> String {
    let args: Vec<String> = def.args.iter().map(|a| a.name.to_uppercase()).collect();
    format!(
        "usage: {} {} (e.g. {}): {}",
        def.name,
        args.join(" "),
        def.example,
        def.help
    )
}

/// `rest`, the words after the verb, read as `def`'s arguments: one word each (a name with
/// spaces in quotes), the last one taking every word left.
pub fn parse(rules: &RuleSet, def: &LayerCommand, rest: &[String]) -> Result<LayerCall, String> {
    if rest.len() < def.args.len() || (def.args.is_empty() && !rest.is_empty()) {
        return Err(usage(def));
    }
    let mut args = Vec::new();
    for (i, a) in def.args.iter().enumerate() {
        let word = if i + 1 == def.args.len() {
            rest[i..].join(" ")
        } else {
            rest[i].clone()
        };
        let arg = match a.kind {
            ArgKind::Number { min, max } => match word.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => LayerArg::Number(n),
                _ => {
                    return Err(format!(
                        "{}: {} is a whole number from {min} to {max}, not `{word}`; {}",
                        def.name,
                        a.name,
                        usage(def)
                    ))
                }
            },
            ArgKind::Power => {
                LayerArg::Power(resolve_power(rules, &word).map_err(|e| format!("{}: {e}", def.name))?)
            }
            ArgKind::Space => {
                LayerArg::Space(resolve_space(rules, &word).map_err(|e| format!("{}: {e}", def.name))?)
            }
            ArgKind::Unit => LayerArg::Unit(
                rules
                    .unit_type(&word)
                    .ok_or_else(|| format!("{}: no unit type `{word}`; {}", def.name, usage(def)))?,
            ),
        };
        args.push(arg);
    }
    Ok(LayerCall {
        name: def.name.clone(),
        args,
    })
}

/// The canonical text: the verb, then each argument (names quoted when they hold spaces).
pub fn text(rules: &RuleSet, call: &LayerCall) -> String {
    let mut t = call.name.clone();
    for a in &call.args {
        t.push(' ');
        t.push_str(&match a {
            LayerArg::Number(n) => n.to_string(),
            LayerArg::Power(p) => quote(&rules.power_info(*p).name),
            LayerArg::Space(s) => quote(&rules.board.space(*s).name),
            LayerArg::Unit(u) => rules.unit(*u).id.clone(),
        });
    }
    t
}

/// The declaration of a call's command.
pub fn def<'r>(rules: &'r RuleSet, call: &LayerCall) -> Option<&'r LayerCommand> {
    rules.commands.iter().find(|c| c.name == call.name)
}

/// Whether the command may be given in this phase; the line the game prints for it. What it
/// does is the rule scripts' (the `command` event; `Game::attempt` refuses a command no
/// script listens to, rather than accept it doing nothing).
pub fn run(rules: &RuleSet, call: &LayerCall, phase: crate::rules::PhaseId) -> Result<String, Rejection> {
    let Some(def) = def(rules, call) else {
        return Err(Rejection::new(format!(
            "no layer declares the command `{}`",
            call.name
        )));
    };
    if !def.phases.contains(&phase) {
        let names: Vec<&str> = def
            .phases
            .iter()
            .map(|p| rules.phases[p.index()].title.as_str())
            .collect();
        return Err(Rejection::new(format!(
            "`{}` is given in {}, not in {}",
            def.name,
            names.join(", "),
            rules.phases[phase.index()].title
        )));
    }
    Ok(text(rules, call))
}

/// Every call of the layers' commands that may be given in this phase, each argument taking
/// each value it may (numbers in their range, every power, space or unit type), up to
/// [`MOST_LISTED`] per command. Whether the scripts accept one is theirs to say.
pub fn candidates(rules: &RuleSet, phase: crate::rules::PhaseId) -> Vec<LayerCall> {
    let mut out = Vec::new();
    for def in rules.commands.iter().filter(|c| c.phases.contains(&phase)) {
        let choices: Vec<Vec<LayerArg>> = def
            .args
            .iter()
            .map(|a| match a.kind {
                ArgKind::Number { min, max } => (min..=max).map(LayerArg::Number).collect(),
                ArgKind::Power => (0..rules.powers.len())
                    .map(|i| LayerArg::Power(PowerId(i as u8)))
                    .collect(),
                ArgKind::Space => rules.board.ids().map(LayerArg::Space).collect(),
                ArgKind::Unit => (0..rules.units.len())
                    .map(|i| LayerArg::Unit(UnitTypeId(i as u16)))
                    .collect(),
            })
            .collect();
        let mut at = vec![0usize; choices.len()];
        let mut listed = 0;
        'all: loop {
            if choices.iter().any(Vec::is_empty) {
                break;
            }
            out.push(LayerCall {
                name: def.name.clone(),
                args: at.iter().zip(&choices).map(|(i, c)| c[*i]).collect(),
            });
            listed += 1;
            if listed >= MOST_LISTED {
                break;
            }
            // The next combination, the last argument turning fastest.
            for k in (0..at.len()).rev() {
                at[k] += 1;
                if at[k] < choices[k].len() {
                    continue 'all;
                }
                at[k] = 0;
            }
            break;
        }
    }
    out
}
