//! A power with two economies (`[powers] economy_of`): one power, one force of units, two
//! treasuries. The second economy is a power of the rule set that takes no turn: it holds the
//! territories that fall under it (`economy_territories`), collects their income, buys and
//! mobilizes on its power's turn, and its units are its power's. Which economy pays for what:
//! a purchase says (`buy 2 infantry for "UK Pacific"`, the power's own by default); a placement
//! or a repair is paid by the economy holding the territory.
//!
//! Architecture invariant: units are never owned by a second economy; territories are held by
//! the economy they fall under, so income, convoy losses, capitals and objectives are the
//! ordinary per-power ones.

use super::state::State;
use super::{control, Rejection};
use crate::rules::{PowerId, RuleSet, SpaceId};

/// Refusals naming this rule.
pub const RULE_ECONOMY: &str = "economies";

/// The economy paying for a purchase by `power`: itself, or the economy of it named. An economy
/// whose capital the enemy holds spends nothing.
pub fn payer(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    economy: Option<PowerId>,
) -> Result<PowerId, Rejection> {
    let payer = economy.unwrap_or(power);
    let name = |p: PowerId| rules.power_info(p).name.as_str();
    if !rules.economies(power).contains(&payer) {
        let own: Vec<&str> = rules.economies(power).into_iter().map(name).collect();
        return Err(Rejection::new(format!(
            "{} buys only for its own economies ({}), not for {}",
            name(power),
            own.join(", "),
            name(payer)
        ))
        .by(RULE_ECONOMY));
    }
    if rules.economies(power).len() > 1 && !control::holds_capital(rules, s, payer) {
        return Err(Rejection::new(format!(
            "{}'s capital is held by the enemy: that economy spends nothing",
            name(payer)
        ))
        .by(RULE_ECONOMY));
    }
    Ok(payer)
}

/// The economy of `power` that mobilizes in, or repairs at, `space`: the one holding the
/// territory (for a sea zone: `power` itself; `mobilize` asks each economy in turn).
pub fn holding(rules: &RuleSet, s: &State, power: PowerId, space: SpaceId) -> PowerId {
    match s.space(space).controller {
        Some(c) if rules.same_power(c, power) => c,
        _ => power,
    }
}
