//! `[politics]` and each scenario's `at_peace`: which powers of opposite sides start at peace,
//! when a power may declare war, and which powers go to war together. What makes a declaration
//! allowed beyond that (a turn number, an enemy's earlier declaration, a capital taken) is a
//! rule with logic: scripts veto it on `validate_declaration`.
//!
//! ```toml
//! [politics]
//! phases = ["combat_move"]                 # declare at the start of these phases
//! groups = [["Red", "Pink"]]               # war with one of them is war with all of them
//!
//! [politics.power_phases]                  # a power's own list (replaces `phases` for it)
//! Blue = ["combat_move", "collect_income"]
//!
//! [scenarios.start]
//! at_peace = [["Blue", "Green"]]           # every other pair of opposite sides starts at war
//! ```

use super::build::unknown_name;
use super::read::{str_list, Ctx, Fields};
use super::schema::{Field, Table};
use super::{Phase, PhaseId, Power, PowerId, RuleSet};
use crate::diag::Problem;
use crate::tree::{Entry, Node, Value};

/// When declarations of war may be made, and who is at war together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Politics {
    /// Phases at whose start a power may declare war (before anything else is done in them).
    /// Empty: no declarations at all (every edition where all sides start at war).
    pub phases: Vec<PhaseId>,
    /// Powers with a list of their own, replacing `phases`.
    pub power_phases: Vec<(PowerId, Vec<PhaseId>)>,
    /// Powers of one side that are at war together: a declaration on one of them (or by one of
    /// them) is a declaration on (or by) all of them.
    pub groups: Vec<Vec<PowerId>>,
}

impl Politics {
    /// The phases at whose start `power` may declare war.
    pub fn phases_for(&self, power: PowerId) -> &[PhaseId] {
        self.power_phases
            .iter()
            .find(|(p, _)| *p == power)
            .map_or(&self.phases, |(_, l)| l)
    }
}

impl RuleSet {
    /// The power whose relations `p` shares: itself, or the power it is an economy of.
    pub fn relation_holder(&self, p: PowerId) -> PowerId {
        self.power_info(p).economy_of.unwrap_or(p)
    }

    /// The power itself and the economies it has, the power first: those whose treasuries it
    /// spends and collects on its turn.
    pub fn economies(&self, p: PowerId) -> Vec<PowerId> {
        let head = self.relation_holder(p);
        let mut out = vec![head];
        out.extend(
            (0..self.powers.len())
                .map(|i| PowerId(i as u8))
                .filter(|q| self.power_info(*q).economy_of == Some(head)),
        );
        out
    }

    /// Which economy of `p`'s power a territory it holds falls under: an economy whose
    /// territories include it, or the power itself.
    pub fn economy_for(&self, p: PowerId, space: super::SpaceId) -> PowerId {
        let head = self.relation_holder(p);
        self.powers
            .iter()
            .position(|q| q.economy_of == Some(head) && q.economy_territories.binary_search(&space).is_ok())
            .map_or(head, |i| PowerId(i as u8))
    }

    /// Whether `a` and `b` are one power (the same, or economies of one).
    pub fn same_power(&self, a: PowerId, b: PowerId) -> bool {
        self.relation_holder(a) == self.relation_holder(b)
    }

    /// Every power that goes to war (or stays at peace) together with `p`: its `[politics]`
    /// group (or itself) and their economies, in power order.
    pub fn war_partners(&self, p: PowerId) -> Vec<PowerId> {
        war_partners(&self.powers, &self.politics, p)
    }
}

fn war_partners(powers: &[Power], politics: &Politics, p: PowerId) -> Vec<PowerId> {
    let holder = powers[p.index()].economy_of.unwrap_or(p);
    let heads: Vec<PowerId> = politics
        .groups
        .iter()
        .find(|g| g.contains(&holder))
        .cloned()
        .unwrap_or_else(|| vec![holder]);
    (0..powers.len())
        .map(|i| PowerId(i as u8))
        .filter(|q| heads.contains(&powers[q.index()].economy_of.unwrap_or(*q)))
        .collect()
}

/// `[politics]`.
pub(crate) static POLITICS: Table = Table {
    path: "politics",
    doc: "Declarations of war (`declare war on POWER`): when a power may declare, and who goes to \
          war together. Which pairs start at peace is each scenario's `at_peace`; further \
          conditions are scripts' (`validate_declaration`).",
    fields: &[
        Field::def("phases", "[string]", "[]", "war is declared at the start of these phases, before anything else is done in them; empty: no declarations"),
        Field::opt("power_phases", "<power> → [string]", "a power's own list, replacing `phases` for it"),
        Field::def("groups", "[[string]]", "[]", "powers of one side that go to war together: a declaration on or by one is one on or by all"),
    ],
};

pub fn read_politics(ctx: &mut Ctx, e: Option<&Entry>, powers: &[Power], phases: &[Phase]) -> Politics {
    let mut out = Politics::default();
    let Some(e) = e else { return out };
    let Some(mut f) = Fields::of(ctx, &e.node, "politics", &POLITICS) else {
        return out;
    };
    let phase_ids: Vec<String> = phases.iter().map(|p| p.id.clone()).collect();
    let power_names: Vec<String> = powers.iter().map(|p| p.name.clone()).collect();
    let phase_list = |ctx: &mut Ctx, items: Vec<(String, &Node)>| -> Vec<PhaseId> {
        let mut l = Vec::new();
        for (name, n) in items {
            match phase_ids.iter().position(|x| *x == name) {
                Some(i) => l.push(PhaseId(i as u8)),
                None => unknown_name(ctx, n, "phase", &name, &phase_ids),
            }
        }
        l
    };
    let find_power = |ctx: &mut Ctx, name: &str, n: &Node| -> Option<PowerId> {
        match power_names.iter().position(|p| p == name) {
            Some(i) => Some(PowerId(i as u8)),
            None => {
                unknown_name(ctx, n, "power", name, &power_names);
                None
            }
        }
    };
    let items = f.str_list(ctx, "phases");
    out.phases = phase_list(ctx, items);
    if let Some(t) = f.names(ctx, "power_phases") {
        for (name, pe) in &t.table.entries {
            let items = str_list(ctx, &pe.node, &format!("politics.power_phases.{name}"));
            let list = phase_list(ctx, items);
            if let Some(p) = find_power(ctx, name, &pe.node) {
                out.power_phases.push((p, list));
            }
        }
    }
    if let Some(n) = f.get("groups") {
        let Value::Array(groups) = &n.value else {
            ctx.type_error(n, "politics.groups", "an array of arrays of power names");
            f.finish(ctx);
            return out;
        };
        for g in groups {
            let mut group: Vec<PowerId> = Vec::new();
            let names = str_list(ctx, g, "politics.groups");
            let written = names.len();
            for (name, pn) in names {
                let Some(p) = find_power(ctx, &name, pn) else {
                    continue;
                };
                let holder = powers[p.index()].economy_of;
                if let Some(h) = holder {
                    ctx.error_at(
                        pn,
                        "schema::bad-value",
                        format!(
                            "`{name}` is an economy of {}; name that power",
                            powers[h.index()].name
                        ),
                        "an economy shares its power's relations",
                    );
                } else if group.contains(&p) || out.groups.iter().any(|o| o.contains(&p)) {
                    ctx.error_at(
                        pn,
                        "schema::bad-value",
                        format!("`{name}` is in a group twice"),
                        "a power belongs to one group at most",
                    );
                } else if let Some(first) = group
                    .first()
                    .filter(|f| powers[f.index()].side != powers[p.index()].side)
                {
                    let first = &powers[first.index()];
                    ctx.error_at(
                        pn,
                        "schema::bad-value",
                        format!(
                            "`{name}` ({}) and {} ({}) are on different sides",
                            powers[p.index()].side,
                            first.name,
                            first.side
                        ),
                        "a group is powers of one side",
                    );
                } else {
                    group.push(p);
                }
            }
            if written == 1 {
                ctx.error_at(
                    g,
                    "schema::bad-value",
                    "a group of one power changes nothing".into(),
                    "name at least two powers",
                );
            } else if group.len() > 1 {
                out.groups.push(group);
            }
        }
    }
    f.finish(ctx);
    out
}

/// A scenario's `at_peace`: pairs of powers on opposite sides that start at peace, each pair
/// extended to the powers' economies. Every pair must treat a `[politics]` group alike.
pub fn read_at_peace(
    ctx: &mut Ctx,
    n: &Node,
    path: &str,
    powers: &[Power],
    politics: &Politics,
) -> Vec<(PowerId, PowerId)> {
    let power_names: Vec<String> = powers.iter().map(|p| p.name.clone()).collect();
    let Value::Array(pairs) = &n.value else {
        ctx.type_error(n, path, "an array of pairs of power names");
        return Vec::new();
    };
    let mut out: Vec<(PowerId, PowerId)> = Vec::new();
    let mut written: Vec<(PowerId, PowerId, &Node)> = Vec::new();
    for pair in pairs {
        let names = str_list(ctx, pair, path);
        if !matches!(&pair.value, Value::Array(a) if a.len() == 2) {
            if matches!(pair.value, Value::Array(_)) {
                ctx.error_at(
                    pair,
                    "schema::bad-value",
                    format!("`{path}` takes pairs of powers, e.g. [\"Red\", \"Blue\"]"),
                    "not two powers",
                );
            }
            continue;
        }
        let mut ids = Vec::new();
        for (name, pn) in &names {
            match power_names.iter().position(|p| p == name) {
                Some(i) => ids.push(PowerId(i as u8)),
                None => unknown_name(ctx, pn, "power", name, &power_names),
            }
        }
        let [a, b] = ids[..] else { continue };
        let (pa, pb) = (&powers[a.index()], &powers[b.index()]);
        if pa.side == pb.side {
            let what = if a == b {
                format!("`{}` is named twice", pa.name)
            } else {
                format!(
                    "{} and {} are both {}: powers of one side are allies",
                    pa.name, pb.name, pa.side
                )
            };
            ctx.error_at(
                pair,
                "schema::bad-value",
                what,
                "at peace means two sides that are not at war",
            );
            continue;
        }
        written.push((a, b, pair));
        for x in war_economies(powers, a) {
            for y in war_economies(powers, b) {
                if !out.contains(&(x, y)) && !out.contains(&(y, x)) {
                    out.push((x, y));
                }
            }
        }
    }
    let peace = |x: PowerId, y: PowerId| out.contains(&(x, y)) || out.contains(&(y, x));
    for (a, b, node) in written {
        for (one, other) in [(a, b), (b, a)] {
            let missing = war_partners(powers, politics, other)
                .into_iter()
                .find(|q| !peace(one, *q));
            if let Some(q) = missing {
                let p = Problem::new(
                    "schema::bad-value",
                    format!(
                        "{} is at peace with {} but would start at war with {}, which goes to war together with it",
                        powers[one.index()].name,
                        powers[other.index()].name,
                        powers[q.index()].name
                    ),
                )
                .at(node.origin.label(ctx.sources, "this pair"))
                .help(format!(
                    "add [\"{}\", \"{}\"] too ([politics] groups: war with one is war with all)",
                    powers[one.index()].name,
                    powers[q.index()].name
                ));
                ctx.problems.push(p);
            }
        }
    }
    out
}

/// A power and its economies (the powers that share its relations).
fn war_economies(powers: &[Power], p: PowerId) -> Vec<PowerId> {
    war_partners(powers, &Politics::default(), p)
}
