//! `[combat]`: how an edition fights its battles. The conduct-combat sub-steps and the steps of
//! a battle round are data, in the order the rulebook gives them; what each step does is the
//! engine's (`crate::combat`).

use super::read::{str_list, Ctx, Fields};
use super::schema::{Field, Table};
use crate::tree::Entry;

/// One step of a battle. The closed list of what the engine knows how to do; an edition orders
/// them and leaves out those it does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Antiaircraft fire at attacking aircraft, before the first round.
    AntiAir,
    /// Offshore bombardment by ships supporting an amphibious assault, before the first round.
    Bombardment,
    /// Submarines submerge or fire first; their casualties are removed before anyone else fires.
    SurpriseStrike,
    AttackerFires,
    DefenderFires,
    RemoveCasualties,
    PressOrRetreat,
    /// The damage bombers deal in a strategic bombing raid (raids only: not placed in a
    /// round).
    RaidDamage,
    /// A step with no engine logic, declared in `combat.script_steps` (the index into that
    /// list): rule scripts act in it through `before_combat_step` requests (`hits`, `fire`).
    Script(u8),
}

impl Step {
    pub const ALL: [Step; 7] = [
        Step::AntiAir,
        Step::Bombardment,
        Step::SurpriseStrike,
        Step::AttackerFires,
        Step::DefenderFires,
        Step::RemoveCasualties,
        Step::PressOrRetreat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::AntiAir => "anti_air",
            Step::Bombardment => "bombardment",
            Step::SurpriseStrike => "surprise_strike",
            Step::AttackerFires => "attacker_fires",
            Step::DefenderFires => "defender_fires",
            Step::RemoveCasualties => "remove_casualties",
            Step::PressOrRetreat => "press_or_retreat",
            Step::RaidDamage => "raid_damage",
            Step::Script(_) => "script",
        }
    }

    /// Script steps may stand in either list.
    fn first_round_only(self) -> Option<bool> {
        match self {
            Step::AntiAir | Step::Bombardment | Step::RaidDamage => Some(true),
            Step::Script(_) => None,
            _ => Some(false),
        }
    }
}

/// The sub-steps of the conduct-combat phase, fought in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConductStep {
    BombingRaids,
    AmphibiousAssaults,
    GeneralCombat,
}

impl ConductStep {
    pub fn name(self) -> &'static str {
        match self {
            ConductStep::BombingRaids => "bombing_raids",
            ConductStep::AmphibiousAssaults => "amphibious_assaults",
            ConductStep::GeneralCombat => "general_combat",
        }
    }
}

/// How many ships may bombard one territory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BombardLimit {
    /// As many as are there.
    None,
    /// One ship per land unit offloaded from the sea into the territory (Anniversary).
    OffloadedUnits,
}

/// How dice become hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiceRule {
    /// One die per unit, a hit at or under its value.
    Standard,
    /// Low luck: a group's values are summed, every full 6 is a hit and the remainder is
    /// rolled as one die.
    LowLuck,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CombatRules {
    pub conduct: Vec<ConductStep>,
    /// Steps before the first round of a battle.
    pub first_round: Vec<Step>,
    /// Steps of every round, in order.
    pub round: Vec<Step>,
    pub bombard_limit: BombardLimit,
    pub dice: DiceRule,
    /// Names of the steps rule scripts define (`Step::Script` indexes this).
    pub script_steps: Vec<String>,
}

impl CombatRules {
    /// A step's name as `[combat]` and the events spell it.
    pub fn step_name(&self, step: Step) -> &str {
        match step {
            Step::Script(i) => self
                .script_steps
                .get(usize::from(i))
                .map_or("script", String::as_str),
            s => s.name(),
        }
    }
}

impl Default for CombatRules {
    fn default() -> Self {
        CombatRules {
            conduct: vec![ConductStep::AmphibiousAssaults, ConductStep::GeneralCombat],
            first_round: Vec::new(),
            round: vec![
                Step::AttackerFires,
                Step::DefenderFires,
                Step::RemoveCasualties,
                Step::PressOrRetreat,
            ],
            bombard_limit: BombardLimit::None,
            dice: DiceRule::Standard,
            script_steps: Vec::new(),
        }
    }
}

/// `[combat]`.
pub(crate) static COMBAT: Table = Table {
    path: "combat",
    doc: "How battles are fought: the sub-steps of conduct combat and the steps of a battle, in \
          the rulebook's order. What each step does is the engine's; an edition orders them and \
          leaves out those it does not have (docs/editions.md, `[combat]`).",
    fields: &[
        Field::def("conduct", "[string]", "[\"amphibious_assaults\", \"general_combat\"]", "sub-steps of conduct combat, in order, of `bombing_raids`, `amphibious_assaults`, `general_combat` (required); without `bombing_raids` the `bombing` move is refused"),
        Field::def("first_round", "[string]", "[]", "steps once, before the first round: `bombardment`, `anti_air`, script steps"),
        Field::def("round", "[string]", "[\"attacker_fires\", \"defender_fires\", \"remove_casualties\", \"press_or_retreat\"]", "steps of every round: `surprise_strike`, `attacker_fires`, `defender_fires`, `remove_casualties` (these three required), `press_or_retreat`, script steps"),
        Field::def("script_steps", "[string]", "[]", "steps a rule script defines (at most 32): declared here, placed in `first_round` or `round`, acted in by `before_combat_step` handlers"),
        Field::def("bombard_limit", "string", "none", "how many ships may bombard a territory: all, or one per land unit offloaded into it")
            .one_of(&["none", "offloaded_units"]),
        Field::def("dice", "string", "standard", "how dice become hits: one die per unit, or low luck (a group's values summed, each 6 a hit, the rest rolled as one die)")
            .one_of(&["standard", "low_luck"]),
    ],
};

pub(super) fn read_combat(ctx: &mut Ctx, e: Option<&Entry>) -> CombatRules {
    let mut c = CombatRules::default();
    let Some(e) = e else { return c };
    let Some(mut f) = Fields::of(ctx, &e.node, "combat", &COMBAT) else {
        return c;
    };
    if let Some(n) = f.get("conduct") {
        let mut out = Vec::new();
        for (name, node) in str_list(ctx, n, "combat.conduct") {
            let all = [
                ConductStep::BombingRaids,
                ConductStep::AmphibiousAssaults,
                ConductStep::GeneralCombat,
            ];
            match all.iter().find(|s| s.name() == name) {
                Some(s) if out.contains(s) => {
                    ctx.error_at(
                        node,
                        "schema::bad-value",
                        format!("`{name}` is listed twice"),
                        "again here",
                    );
                }
                Some(s) => out.push(*s),
                None => {
                    let names: Vec<String> = all.iter().map(|s| s.name().to_string()).collect();
                    super::build::unknown_name(ctx, node, "conduct-combat step", &name, &names);
                }
            }
        }
        if !out.contains(&ConductStep::GeneralCombat) {
            ctx.error_at(
                n,
                "schema::bad-value",
                "`general_combat` must be one of the conduct-combat steps".into(),
                "general_combat missing",
            );
        }
        c.conduct = out;
    }
    for (name, node) in f.str_list(ctx, "script_steps") {
        if Step::ALL.iter().any(|s| s.name() == name) {
            ctx.error_at(
                node,
                "schema::bad-value",
                format!("`{name}` is a step of the engine; a script step needs a name of its own"),
                "taken",
            );
        } else if c.script_steps.contains(&name) {
            ctx.error_at(
                node,
                "schema::bad-value",
                format!("`{name}` is listed twice"),
                "again here",
            );
        } else if c.script_steps.len() >= 32 {
            ctx.error_at(
                node,
                "schema::bad-value",
                "at most 32 script steps".into(),
                "one too many",
            );
        } else {
            c.script_steps.push(name);
        }
    }
    let known: Vec<Step> = Step::ALL
        .iter()
        .copied()
        .chain((0..c.script_steps.len()).map(|i| Step::Script(i as u8)))
        .collect();
    for (key, first) in [("first_round", true), ("round", false)] {
        let Some(n) = f.get(key) else { continue };
        let mut out: Vec<Step> = Vec::new();
        for (name, node) in str_list(ctx, n, &format!("combat.{key}")) {
            match known.iter().find(|s| c.step_name(**s) == name) {
                Some(s) if out.contains(s) => {
                    ctx.error_at(
                        node,
                        "schema::bad-value",
                        format!("`{name}` is listed twice"),
                        "again here",
                    );
                }
                Some(s) if s.first_round_only().is_some_and(|f| f != first) => {
                    let msg = if first {
                        format!("`{name}` is a step of every round; list it in `combat.round`")
                    } else {
                        format!(
                            "`{name}` happens once, before the first round; list it in `combat.first_round`"
                        )
                    };
                    ctx.error_at(node, "schema::bad-value", msg, "in the wrong list");
                }
                Some(s) => out.push(*s),
                None => {
                    let names: Vec<String> = known.iter().map(|s| c.step_name(*s).to_string()).collect();
                    super::build::unknown_name(ctx, node, "combat step", &name, &names);
                    if let Some(p) = ctx.problems.0.last_mut().filter(|p| p.help.is_none()) {
                        p.help = Some(format!(
                            "a step of a rule script is declared first: `script_steps = [\"{name}\"]`"
                        ));
                    }
                }
            }
        }
        if !first {
            for needed in [Step::AttackerFires, Step::DefenderFires, Step::RemoveCasualties] {
                if !out.contains(&needed) {
                    ctx.error_at(
                        n,
                        "schema::bad-value",
                        format!("a combat round needs the step `{}`", needed.name()),
                        "incomplete round",
                    );
                }
            }
            c.round = out;
        } else {
            c.first_round = out;
        }
    }
    if let Some(b) = f.choice(
        ctx,
        "bombard_limit",
        &[
            ("none", BombardLimit::None),
            ("offloaded_units", BombardLimit::OffloadedUnits),
        ],
    ) {
        c.bombard_limit = b;
    }
    if let Some(d) = f.choice(
        ctx,
        "dice",
        &[("standard", DiceRule::Standard), ("low_luck", DiceRule::LowLuck)],
    ) {
        c.dice = d;
    }
    f.finish(ctx);
    c
}
