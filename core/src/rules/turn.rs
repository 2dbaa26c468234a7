//! `[turn.within]`: powers whose turn is played within another power's turn, and the order of
//! a turn built from it (a *turn plan*).
//!
//! ```toml
//! [turn.within."Green"]                 # Green's turn is played within Blue's
//! host = "Blue"
//! segments = [
//!   # each run of Green's phases goes next to a phase of the host's turn, named by its id
//!   { phases = ["combat_move", "conduct_combat"], before = "combat_move", or_after = "conduct_combat" },
//!   { phases = ["noncombat_move"], after = "noncombat_move" },
//! ]
//! ```
//!
//! A segment's place is given relative to one phase of the host's turn, not as a position in a
//! list, so a layer that adds phases to the host's turn (research, say) leaves the segments
//! where they belong. `or_before`/`or_after` is a second place the player may choose instead
//! (the `play POWER first` command): a segment with one is *movable*, and each movable segment
//! of a host's turn is one bit of the turn's choices.

use super::build::unknown_name;
use super::read::{as_str, Ctx, Fields};
use super::schema::{Field, Table};
use super::{possessive, Phase, PhaseId, Power, PowerId};
use crate::diag::Problem;
use crate::tree::{closest_key, Node, Value};

/// One step of a turn: a power plays one of its phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurnStep {
    pub power: PowerId,
    pub phase: PhaseId,
}

/// Where a segment goes: just before or just after a phase of the host's turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub phase: PhaseId,
    pub after: bool,
}

/// A run of a guest's phases played together within the host's turn.
#[derive(Clone, Debug)]
pub struct Segment {
    pub phases: Vec<PhaseId>,
    pub at: Place,
    /// The place the player may choose instead (`or_before` / `or_after`).
    pub alternative: Option<Place>,
}

/// `[turn.within.NAME]`: a power whose turn is played within its host's.
#[derive(Clone, Debug)]
pub struct Guest {
    pub power: PowerId,
    pub host: PowerId,
    pub segments: Vec<Segment>,
}

/// The order of one power's turn under every choice its player may make.
#[derive(Clone, Debug, Default)]
pub struct TurnPlan {
    /// `orders[mask]`: the steps of the turn when the movable segments whose bits are set in
    /// `mask` are played at their alternative place.
    pub orders: Vec<Vec<TurnStep>>,
    /// The movable segments in bit order: the guest and the index of its segment.
    pub choices: Vec<(PowerId, usize)>,
}

impl TurnPlan {
    pub fn steps(&self, mask: u32) -> &[TurnStep] {
        self.orders
            .get(mask as usize)
            .or_else(|| self.orders.first())
            .map_or(&[], Vec::as_slice)
    }

    /// The first step at which taking choice `bit` (toggling it from `mask`) changes the order:
    /// the choice is open until the turn has gone past it.
    pub fn diverges_at(&self, mask: u32, bit: usize) -> usize {
        let (a, b) = (self.steps(mask), self.steps(mask ^ (1 << bit)));
        a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len())
    }
}

/// More movable segments in one turn than this would make too many orders to build up front.
const MAX_CHOICES: usize = 8;

/// `[turn.within.<power>]`.
pub(crate) static WITHIN: Table = Table {
    path: "turn.within.<power>",
    doc: "A power with no turn of its own: it plays its phases within another power's turn (its \
          host's), in runs called segments, each placed just before or after a phase of the \
          host's turn.",
    fields: &[
        Field::req("host", "string", "the power in whose turn it plays"),
        Field::req(
            "segments",
            "[table]",
            "its phases, in order, in runs: `turn.within.<power>.segments[]`",
        ),
    ],
};

/// `[[turn.within.<power>.segments]]`.
pub(crate) static SEGMENT: Table = Table {
    path: "turn.within.<power>.segments[]",
    doc: "A run of a guest power's phases and where it goes in the host's turn: exactly one of \
          `before` / `after`; `or_before` / `or_after` give the player another place to choose \
          (`play POWER first`).",
    fields: &[
        Field::req(
            "phases",
            "[string]",
            "phases declared in `[phases]`, each once in the power's turn",
        ),
        Field::opt("before", "string", "just before this phase of the host's turn"),
        Field::opt("after", "string", "just after this phase of the host's turn"),
        Field::opt(
            "or_before",
            "string",
            "or, as the player chooses, just before this phase",
        ),
        Field::opt(
            "or_after",
            "string",
            "or, as the player chooses, just after this phase",
        ),
    ],
};

/// The turn of `host`: its own phases with every guest's segments placed among them, the
/// movable ones at their alternative place when their bit is set in `mask`.
fn order(
    host_phases: &[PhaseId],
    host: PowerId,
    guests: &[&Guest],
    choices: &[(PowerId, usize)],
    mask: u32,
) -> Vec<TurnStep> {
    let place = |g: &Guest, i: usize| -> Place {
        let seg = &g.segments[i];
        match choices.iter().position(|c| *c == (g.power, i)) {
            Some(bit) if mask & (1 << bit) != 0 => seg.alternative.unwrap_or(seg.at),
            _ => seg.at,
        }
    };
    let mut out = Vec::new();
    let segments_at = |out: &mut Vec<TurnStep>, phase: PhaseId, after: bool| {
        for g in guests {
            for (i, seg) in g.segments.iter().enumerate() {
                if place(g, i) == (Place { phase, after }) {
                    out.extend(seg.phases.iter().map(|&p| TurnStep {
                        power: g.power,
                        phase: p,
                    }));
                }
            }
        }
    };
    for &phase in host_phases {
        segments_at(&mut out, phase, false);
        out.push(TurnStep { power: host, phase });
        segments_at(&mut out, phase, true);
    }
    out
}

/// Every power's turn plan (indexed by power): a host's turn with its guests' segments, any
/// other power's its own phases.
pub(super) fn plans(
    powers: usize,
    turn: &[PhaseId],
    power_turns: &[(PowerId, Vec<PhaseId>)],
    guests: &[Guest],
) -> Vec<TurnPlan> {
    (0..powers)
        .map(|i| {
            let host = PowerId(i as u8);
            let phases = own_phases(turn, power_turns, host);
            let mine: Vec<&Guest> = guests.iter().filter(|g| g.host == host).collect();
            let choices: Vec<(PowerId, usize)> = mine
                .iter()
                .flat_map(|g| {
                    g.segments
                        .iter()
                        .enumerate()
                        .filter(|(_, s)| s.alternative.is_some())
                        .map(|(k, _)| (g.power, k))
                })
                .take(MAX_CHOICES)
                .collect();
            let orders = (0..1u32 << choices.len())
                .map(|mask| order(phases, host, &mine, &choices, mask))
                .collect();
            TurnPlan { orders, choices }
        })
        .collect()
}

fn own_phases<'a>(
    turn: &'a [PhaseId],
    power_turns: &'a [(PowerId, Vec<PhaseId>)],
    p: PowerId,
) -> &'a [PhaseId] {
    power_turns
        .iter()
        .find(|(q, _)| *q == p)
        .map_or(turn, |(_, l)| l.as_slice())
}

/// Read `[turn.within]`. Each guest's phases (its segments', in order) are added to
/// `power_turns`, so the guest's phases read like any power's.
pub(super) fn read_within(
    ctx: &mut Ctx,
    node: &Node,
    powers: &[Power],
    phases: &[Phase],
    turn: &[PhaseId],
    power_turns: &mut Vec<(PowerId, Vec<PhaseId>)>,
) -> Vec<Guest> {
    let Some(f) = Fields::names_of(ctx, node, "turn.within") else {
        return Vec::new();
    };
    let names: Vec<String> = powers.iter().map(|p| p.name.clone()).collect();
    let ids: Vec<String> = phases.iter().map(|p| p.id.clone()).collect();
    let find_power = |ctx: &mut Ctx, name: &str, n: &Node| match names.iter().position(|p| p == name) {
        Some(i) => Some(PowerId(i as u8)),
        None => {
            unknown_name(ctx, n, "power", name, &names);
            None
        }
    };
    // The guests, with the nodes their problems are reported at.
    let mut read: Vec<(Guest, &Node, Vec<&Node>)> = Vec::new();
    for (name, e) in &f.table.entries {
        let path = format!("turn.within.{name}");
        let guest = match names.iter().position(|p| p == name) {
            Some(i) => Some(PowerId(i as u8)),
            None => {
                let mut p = Problem::new("schema::unknown-name", format!("unknown power `{name}`"))
                    .at(e.key.label(ctx.sources, "no such power"));
                if let Some(s) = closest_key(name, names.iter().map(String::as_str)) {
                    p = p.help(format!("did you mean `{s}`?"));
                }
                ctx.problems.push(p);
                None
            }
        };
        let Some(mut g) = Fields::of(ctx, &e.node, &path, &WITHIN) else {
            continue;
        };
        let host_node = g.required(ctx, "host");
        let host = host_node.and_then(|n| {
            let name = as_str(ctx, n, &format!("{path}.host"))?;
            find_power(ctx, &name, n)
        });
        let segments_node = g.required(ctx, "segments");
        g.finish(ctx);
        let (Some(guest), Some(host), Some(host_node)) = (guest, host, host_node) else {
            continue;
        };
        if guest == host {
            ctx.error_at(
                host_node,
                "schema::bad-value",
                format!("{name} cannot play within its own turn"),
                "the guest itself",
            );
            continue;
        }
        if power_turns.iter().any(|(p, _)| *p == guest) {
            ctx.error_at(
                &e.node,
                "schema::conflict",
                format!(
                    "{name} plays within {} turn and also has `turn.power_phases`",
                    possessive(&names[host.index()])
                ),
                "its phases are its segments'",
            )
            .help = Some(format!(
                "remove {name} from `turn.power_phases`: the phases of its segments are its turn"
            ));
            continue;
        }
        let host_phases = own_phases(turn, power_turns, host);
        let host_ids: Vec<String> = host_phases.iter().map(|p| phases[p.index()].id.clone()).collect();
        let anchor = |ctx: &mut Ctx, n: &Node, key: &str| -> Option<PhaseId> {
            let id = as_str(ctx, n, &format!("{path}.segments.{key}"))?;
            match host_phases.iter().find(|p| phases[p.index()].id == id) {
                Some(p) => Some(*p),
                None if ids.contains(&id) => {
                    ctx.error_at(
                        n,
                        "schema::unknown-name",
                        format!(
                            "`{id}` is not a phase of {} turn",
                            possessive(&names[host.index()])
                        ),
                        "not in the host's turn",
                    )
                    .help = Some(format!("the host's phases: {}", host_ids.join(", ")));
                    None
                }
                None => {
                    unknown_name(ctx, n, "phase", &id, &host_ids);
                    None
                }
            }
        };
        let items: &[Node] = match segments_node.map(|n| &n.value) {
            Some(Value::Array(items)) => items,
            Some(_) => {
                ctx.type_error(
                    segments_node.expect("matched"),
                    &format!("{path}.segments"),
                    "an array of tables",
                );
                continue;
            }
            None => continue,
        };
        if items.is_empty() {
            ctx.error_at(
                segments_node.expect("matched"),
                "schema::bad-value",
                format!("`{path}.segments` lists no segment: {name} would have no turn"),
                "empty list",
            );
            continue;
        }
        let mut segments = Vec::new();
        let mut nodes = Vec::new();
        let mut seen: Vec<PhaseId> = Vec::new();
        let mut complete = true;
        for item in items {
            let Some(mut s) = Fields::of(ctx, item, &format!("{path}.segments"), &SEGMENT) else {
                complete = false;
                continue;
            };
            let listed = s.str_list(ctx, "phases");
            if s.table.get("phases").is_none() {
                s.required(ctx, "phases");
            } else if listed.is_empty() {
                ctx.error_at(
                    item,
                    "schema::bad-value",
                    "a segment lists no phase".into(),
                    "empty segment",
                );
            }
            let mut list = Vec::new();
            for (id, n) in listed {
                match ids.iter().position(|x| *x == id) {
                    Some(i) if seen.contains(&PhaseId(i as u8)) => {
                        ctx.error_at(
                            n,
                            "schema::duplicate",
                            format!("phase `{id}` is listed twice in {name}'s turn"),
                            "listed again",
                        );
                    }
                    Some(i) => {
                        seen.push(PhaseId(i as u8));
                        list.push(PhaseId(i as u8));
                    }
                    None => unknown_name(ctx, n, "phase", &id, &ids),
                }
            }
            let mut places = Vec::new();
            let mut alternatives = Vec::new();
            for (key, after, alternative) in [
                ("before", false, false),
                ("after", true, false),
                ("or_before", false, true),
                ("or_after", true, true),
            ] {
                if let Some(n) = s.get(key) {
                    if let Some(phase) = anchor(ctx, n, key) {
                        let p = Place { phase, after };
                        if alternative {
                            alternatives.push((p, n));
                        } else {
                            places.push((p, n));
                        }
                    } else {
                        complete = false;
                    }
                }
            }
            s.finish(ctx);
            let at = match places.as_slice() {
                [(p, _)] => Some(*p),
                [] => {
                    if complete {
                        ctx.error_at(
                            item,
                            "schema::missing-field",
                            "a segment needs `before` or `after`: where it goes in the host's turn".into(),
                            "no place",
                        );
                    }
                    None
                }
                [_, (_, n), ..] => {
                    ctx.error_at(
                        n,
                        "schema::conflict",
                        "a segment has one place: `before` or `after`, not both".into(),
                        "second place",
                    )
                    .help = Some(
                        "give the other place as `or_before`/`or_after` if the player may choose it".into(),
                    );
                    None
                }
            };
            let alternative = match alternatives.as_slice() {
                [] => None,
                [(p, n)] => {
                    if Some(*p) == at {
                        ctx.error_at(
                            n,
                            "schema::bad-value",
                            "the alternative place is the segment's own place".into(),
                            "same place",
                        );
                    }
                    Some(*p)
                }
                [_, (_, n), ..] => {
                    ctx.error_at(
                        n,
                        "schema::conflict",
                        "a segment has at most one alternative place: `or_before` or `or_after`".into(),
                        "second alternative",
                    );
                    None
                }
            };
            match at {
                Some(at) if !list.is_empty() => {
                    segments.push(Segment {
                        phases: list,
                        at,
                        alternative,
                    });
                    nodes.push(item);
                }
                _ => complete = false,
            }
        }
        if complete {
            read.push((
                Guest {
                    power: guest,
                    host,
                    segments,
                },
                host_node,
                nodes,
            ));
        }
    }
    // A host plays its own turn: a guest of a guest would have no turn to play within.
    for (g, host_node, _) in &read {
        if read.iter().any(|(o, _, _)| o.power == g.host) {
            ctx.error_at(
                host_node,
                "schema::conflict",
                format!(
                    "{} plays within the turn of {}, which itself plays within another's turn",
                    names[g.power.index()],
                    names[g.host.index()]
                ),
                "a guest cannot host",
            );
        }
    }
    let guests: Vec<Guest> = read.iter().map(|(g, _, _)| g.clone()).collect();
    check_orders(ctx, &names, turn, power_turns, &read);
    for g in &guests {
        let all = g.segments.iter().flat_map(|s| s.phases.iter().copied()).collect();
        power_turns.push((g.power, all));
    }
    guests
}

/// Each guest's phases must come in its own order whatever the player chooses, and a host
/// has at most [`MAX_CHOICES`] movable segments.
fn check_orders(
    ctx: &mut Ctx,
    names: &[String],
    turn: &[PhaseId],
    power_turns: &[(PowerId, Vec<PhaseId>)],
    read: &[(Guest, &Node, Vec<&Node>)],
) {
    let guests: Vec<Guest> = read.iter().map(|(g, _, _)| g.clone()).collect();
    let mut hosts: Vec<PowerId> = guests.iter().map(|g| g.host).collect();
    hosts.sort();
    hosts.dedup();
    for host in hosts {
        let movable: Vec<(&Guest, usize)> = read
            .iter()
            .filter(|(g, _, _)| g.host == host)
            .flat_map(|(g, _, _)| {
                g.segments
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.alternative.is_some())
                    .map(move |(i, _)| (g, i))
            })
            .collect();
        if movable.len() > MAX_CHOICES {
            let (g, i) = movable[MAX_CHOICES];
            let node = read
                .iter()
                .find(|(x, _, _)| x.power == g.power)
                .map(|(_, _, n)| n[i]);
            if let Some(n) = node {
                ctx.error_at(
                    n,
                    "schema::too-many",
                    format!(
                        "{} turn has more than {MAX_CHOICES} segments the player may move",
                        possessive(&names[host.index()])
                    ),
                    "one too many",
                );
            }
            continue;
        }
        let plan = &plans(names.len(), turn, power_turns, &guests)[host.index()];
        for (g, _, nodes) in read.iter().filter(|(g, _, _)| g.host == host) {
            let wanted: Vec<PhaseId> = g.segments.iter().flat_map(|s| s.phases.iter().copied()).collect();
            for (mask, steps) in plan.orders.iter().enumerate() {
                let got: Vec<PhaseId> = steps
                    .iter()
                    .filter(|s| s.power == g.power)
                    .map(|s| s.phase)
                    .collect();
                if got == wanted {
                    continue;
                }
                // The first segment that comes too early is the one to move.
                let at = (1..g.segments.len())
                    .find(|&i| {
                        let first = |k: usize| {
                            steps
                                .iter()
                                .position(|s| s.power == g.power && s.phase == g.segments[k].phases[0])
                        };
                        first(i) < first(i - 1)
                    })
                    .unwrap_or(0);
                let how = if mask == 0 {
                    String::new()
                } else {
                    " when the player plays the other order".to_string()
                };
                ctx.error_at(
                    nodes[at],
                    "schema::bad-value",
                    format!(
                        "this segment of {} turn would come before the one listed ahead of it{how}",
                        possessive(&names[g.power.index()])
                    ),
                    "out of order",
                )
                .help = Some("a power's phases are played in the order its segments list them: place each segment after the one before".into());
                break;
            }
        }
    }
}
