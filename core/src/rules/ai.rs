//! `[ai]`: the computer opponent's weights and thresholds. They are data so that an edition or
//! a house rule can tune how the AI plays without a line of its code: a layer that makes
//! artillery cheaper needs nothing here, one whose battles are bloodier may ask for better odds.
//!
//! ```toml
//! [ai]
//! attack_odds = 70        # attack where the odds of taking the space are at least 70 %
//! press_odds = 45         # fight another round while the odds of winning stay at 45 % or more
//! territory_value = 3     # an enemy territory's IPCs count three times in an attack's worth
//! victory_city = 30       # and a victory city or capital 30 IPCs more
//! capital_odds = 40       # an enemy capital is attacked at 40 % already
//! capital_guard = 100     # keep the capital's defence at 100 % of what could attack it
//! city_guard = 60         # and a victory city's at 60 %
//! fleet_guard = 100       # warships to match what could attack the zones where transports gather
//! counter_attack = 50     # a conquest's survivors count as lost at 50 % × the counter-attack's odds
//! buy_attack = 2          # what a unit type is worth per IPC: 2 × attack ...
//! buy_defense = 2         # ... + 2 × defence ...
//! buy_move = 1            # ... + 1 × each point of movement past the first
//! bombing = 100          # an IPC of damage a raid expects to do is worth 100 % of an IPC of bombers
//! research = 10           # a tenth of the IPCs in hand on research dice, where there is research
//! declare_war_round = 1   # declare war on the enemies at peace from round 1, when allowed
//! ```

use super::read::{as_int_in, Ctx, Fields};
use super::schema::{Field, Table};
use crate::tree::Entry;

/// How the computer opponent weighs its choices (`[ai]`; every field has a default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiWeights {
    /// Percent: an attack is made when the odds of taking the territory (at sea: of winning)
    /// with the units planned for it reach this.
    pub attack_odds: u32,
    /// Percent: the same for an enemy capital (taking one may win the game, and an assault
    /// that fails still wears down its defenders for the next).
    pub capital_odds: u32,
    /// Percent: the attacker fights another round while its odds of winning from where the
    /// battle stands reach this (and retreats, where it may, when they do not).
    pub press_odds: u32,
    /// How many times an enemy territory's IPC value counts beside the units an attack
    /// expects to destroy and lose.
    pub territory_value: u32,
    /// IPCs a victory city (or capital) is worth in an attack's worth, on top of its income.
    pub victory_city: u32,
    /// Percent of the attack the enemies next to a capital could make on it that its defenders
    /// must match before units leave it.
    pub capital_guard: u32,
    /// The same for the power's other victory cities (and the reinforcements noncombat moves
    /// send to a capital or victory city whose defenders fall short of it).
    pub city_guard: u32,
    /// Percent of the attack the enemies' warships and aircraft could make on the zones where
    /// a power that needs transports gathers them that its warships there must match: what it
    /// lacks it buys in warships before transports.
    pub fleet_guard: u32,
    /// Percent: the units an attack expects to leave in a conquered territory count as lost
    /// at this share of their value times the odds that the enemies next to it retake it.
    pub counter_attack: u32,
    /// The purchase value model: a unit type is worth `buy_attack × attack + buy_defense ×
    /// defence + buy_move × (movement − 1)` per IPC of its cost.
    pub buy_attack: u32,
    pub buy_defense: u32,
    pub buy_move: u32,
    /// Percent: what an IPC of damage a strategic bombing raid is expected to do is worth
    /// against an IPC of bombers it is expected to lose; bombers no attack needs raid where
    /// the damage weighs more; 0: no raids.
    pub bombing: u32,
    /// Percent of the IPCs in hand spent on research dice each turn, where the game has
    /// research (`[research]`).
    pub research: u32,
    /// From this round on, the AI declares war on the enemies it is at peace with whenever the
    /// rules let it (`[politics]`); 0: never.
    pub declare_war_round: u32,
}

impl Default for AiWeights {
    fn default() -> Self {
        AiWeights {
            attack_odds: 70,
            capital_odds: 40,
            press_odds: 45,
            territory_value: 3,
            victory_city: 30,
            capital_guard: 100,
            city_guard: 60,
            counter_attack: 50,
            fleet_guard: 100,
            buy_attack: 2,
            buy_defense: 2,
            buy_move: 1,
            bombing: 100,
            research: 10,
            declare_war_round: 1,
        }
    }
}

/// `[ai]`.
pub(crate) static AI: Table = Table {
    path: "ai",
    doc: "The computer opponent's weights and thresholds (`warroom play --ai`, `hint`, \
          `warroom selfplay`). Every field has a default; a layer sets only what it tunes.",
    fields: &[
        Field::def("attack_odds", "int", "70", "percent: attack where the odds of taking the territory (at sea: of winning) reach this"),
        Field::def("capital_odds", "int", "40", "percent: the same for an enemy capital (taking one may win the game; a failed assault still wears down its defenders)"),
        Field::def("press_odds", "int", "45", "percent: fight another round while the odds of winning from there reach this; retreat, where possible, below"),
        Field::def("territory_value", "int", "3", "how many times an enemy territory's IPC value counts in an attack's worth, beside the units expected to be destroyed and lost"),
        Field::def("victory_city", "int", "30", "IPCs a victory city or capital adds to an attack's worth, on top of its income"),
        Field::def("capital_guard", "int", "100", "percent of the attack that enemies next to a capital could make on it that its defenders must match before units leave it"),
        Field::def("city_guard", "int", "60", "the same percent for the power's other victory cities; noncombat moves reinforce a capital or victory city whose defenders fall short"),
        Field::def("counter_attack", "int", "50", "percent: the units an attack expects to leave in a conquered territory count as lost at this share of their value times the odds that the enemies next to it retake it"),
        Field::def("fleet_guard", "int", "100", "percent of the attack enemy warships and aircraft could make on the zones where a power that needs transports gathers them that its warships must match; it buys warships for what they lack before transports"),
        Field::def("buy_attack", "int", "2", "purchase value model: weight of a unit's attack (its worth per IPC is buy_attack × attack + buy_defense × defence + buy_move × (movement − 1))"),
        Field::def("buy_defense", "int", "2", "purchase value model: weight of a unit's defence"),
        Field::def("buy_move", "int", "1", "purchase value model: weight of each point of movement past the first"),
        Field::def("bombing", "int", "100", "percent: an IPC of damage a strategic bombing raid is expected to do against an IPC of bombers it is expected to lose; bombers no attack needs raid where the damage weighs more; 0: no raids"),
        Field::def("research", "int", "10", "percent of the IPCs in hand spent on research dice each turn, where the game has research"),
        Field::def("declare_war_round", "int", "1", "from this round on the AI declares war on the enemies it is at peace with whenever the rules let it; 0: never"),
    ],
};

pub fn read_ai(ctx: &mut Ctx, e: Option<&Entry>) -> AiWeights {
    let mut out = AiWeights::default();
    let Some(e) = e else { return out };
    let Some(mut f) = Fields::of(ctx, &e.node, "ai", &AI) else {
        return out;
    };
    let field = |ctx: &mut Ctx, f: &mut Fields, key: &'static str, max: i64, into: &mut u32| {
        if let Some(n) = f.get(key) {
            if let Some(v) = as_int_in(ctx, n, &format!("ai.{key}"), 0..=max) {
                *into = v as u32;
            }
        }
    };
    field(ctx, &mut f, "attack_odds", 100, &mut out.attack_odds);
    field(ctx, &mut f, "capital_odds", 100, &mut out.capital_odds);
    field(ctx, &mut f, "press_odds", 100, &mut out.press_odds);
    field(ctx, &mut f, "territory_value", 100, &mut out.territory_value);
    field(ctx, &mut f, "victory_city", 1000, &mut out.victory_city);
    field(ctx, &mut f, "capital_guard", 1000, &mut out.capital_guard);
    field(ctx, &mut f, "city_guard", 1000, &mut out.city_guard);
    field(ctx, &mut f, "counter_attack", 100, &mut out.counter_attack);
    field(ctx, &mut f, "fleet_guard", 1000, &mut out.fleet_guard);
    field(ctx, &mut f, "buy_attack", 100, &mut out.buy_attack);
    field(ctx, &mut f, "buy_defense", 100, &mut out.buy_defense);
    field(ctx, &mut f, "buy_move", 100, &mut out.buy_move);
    field(ctx, &mut f, "bombing", 1000, &mut out.bombing);
    field(ctx, &mut f, "research", 100, &mut out.research);
    field(ctx, &mut f, "declare_war_round", 1000, &mut out.declare_war_round);
    f.finish(ctx);
    out
}
