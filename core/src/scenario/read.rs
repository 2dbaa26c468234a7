//! Reading a scenario file: every problem located at its key or value, all reported at once.

use super::{Case, Expect, Expectation, Step, OUTCOMES};
use crate::diag::{Problem, Problems, Sources};
use crate::game::arrange::{Arrangement, Position};
use crate::game::command::{self, Command};
use crate::game::state::Relation;
use crate::rules::read::{as_int, as_ipcs, as_str, as_uint, Ctx, Fields};
use crate::rules::schema::{Field, Table as SchemaTable};
use crate::rules::{Piece, PowerId, RuleSet, SpaceId};
use crate::tree::{self, Node, Origin, Table, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The top level of a scenario file.
pub(crate) static CASE: SchemaTable = SchemaTable {
    path: "",
    doc: "Write the top-level keys before the first `[start]` or `[expect]` header (TOML puts \
          every key after a header into that table).",
    fields: &[
        Field::opt("rule", "string", "the rule ID the case checks; one of `rule` / `rules` is required, except in a recorded game (steps with `hash`)"),
        Field::def("rules", "[string]", "[]", "several rule IDs"),
        Field::opt("title", "string", "one line saying what the case shows"),
        Field::req("edition", "string", "an edition name or folder"),
        Field::def("scenario", "string", "the edition's default", "the edition's scenario (set-up) to start from"),
        Field::def("with", "[string]", "[]", "layers on top: names, `NAME=VALUE` or folders"),
        Field::def("seed", "int", "1", "the dice seed, when no `dice` are given"),
        Field::def("hash_scheme", "int", "1", "how the steps' `hash`es were computed: N in recordings written since warroom's save format N (4 now), 1 before format 2"),
        Field::opt("start", "table", "the position: `start`"),
        Field::opt("dice", "[int]", "the faces rolled at the table, in order; with `dice` the game takes dice only from this list (and later `roll` steps)"),
        Field::def("steps", "[string | table]", "[]", "commands in the REPL's language, run in order; a table is `steps[]`"),
        Field::opt("expect", "table", "what must hold after the steps: `expect`"),
    ],
};

/// `[start]` of a scenario file.
pub(crate) static START: SchemaTable = SchemaTable {
    path: "start",
    doc: "Changes to the scenario's set-up, applied in this order; the arranged position counts \
          as the start of the turn.",
    fields: &[
        Field::def("board", "string", "setup", "the set-up's units and facilities, or none anywhere (control stays)")
            .one_of(&["setup", "empty"]),
        Field::def("round", "int", "1", "the round to start in"),
        Field::opt("power", "string", "the power to start with (with `phase`)"),
        Field::opt("phase", "string", "the phase id to start in (with `power`); nothing of the earlier phases runs"),
        Field::def("clear", "[string]", "[]", "spaces emptied of units (facilities stay)"),
        Field::opt("units", "<space> → <power> → <piece> → int", "units and facilities added to what is there; land units in a sea zone board their owner's transports"),
        Field::opt("control", "<space> → string", "who holds each space (`\"nobody\"`: uncontrolled)"),
        Field::opt("treasury", "<power> → int", "IPCs in hand"),
        Field::opt("relations", "[[string, string, string]]", "`[POWER, POWER, \"war\" | \"peace\" | \"allied\"]`"),
        Field::opt("techs", "<power> → [string]", "techs held (ids of the `[techs]` in play)"),
        Field::opt("damage", "<space> → <facility> → int", "damage on facilities; for a unit type of two hits, how many of those there have taken one"),
        Field::opt("purchased", "<power> → <unit> → int", "units bought and waiting to be mobilized"),
    ],
};

/// A step written as a table (`steps[]`).
pub(crate) static STEP: SchemaTable = SchemaTable {
    path: "steps[]",
    doc: "A step as a table rather than a command string. A step that goes otherwise than \
          written stops the scenario there.",
    fields: &[
        Field::req("command", "string", "the command, or `report NAME [POWER]`: a rule script's report (`report objectives Japan`), its lines the step's output, changing nothing"),
        Field::opt("rejected", "string", "the command must be refused with a message containing this text (any case); it need not even parse"),
        Field::def("output", "[string]", "[]", "texts that must each appear in some line the command printed"),
        Field::opt("hash", "string", "the state hash after the command, 16 hex digits (recorded games)"),
    ],
};

/// `[expect]` of a scenario file.
pub(crate) static EXPECT: SchemaTable = SchemaTable {
    path: "expect",
    doc: "What must hold after the steps; each failure names the line that expected it.",
    fields: &[
        Field::opt("owner", "<space> → string", "who controls each territory (`\"nobody\"`)"),
        Field::opt("units", "<space> → <power> → <piece> → int", "exactly these units of that power there (an empty table: none)"),
        Field::opt("units_at_least", "<space> → <power> → <piece> → int", "at least these units"),
        Field::opt("treasury", "<power> → int", "IPCs in hand"),
        Field::opt("income", "<power> → int", "what the power would collect now"),
        Field::opt("damage", "<space> → <facility> → int", "damage on facilities"),
        Field::opt("purchased", "<power> → <unit> → int", "exactly these units bought and not yet mobilized (`{}`: none)"),
        Field::opt("battles", "[string]", "the spaces with battles or raids the power acting declared this turn and not yet fought"),
        Field::opt("battle", "<space> → string", "the outcome of a battle fought this turn: `attacker`, `defender`, `both destroyed`, `stalemate` or `retreated`"),
        Field::opt("dice_drawn", "int", "how many dice the steps used (typed and rolled)"),
        Field::opt("winner", "string", "a side, or `\"none\"`"),
        Field::opt("round", "int", "the round now"),
        Field::opt("power", "string", "the power acting now"),
        Field::opt("phase", "string", "the phase id now"),
        Field::opt("relations", "[[string, string, string]]", "`[POWER, POWER, RELATION]`"),
        Field::opt("log", "[string]", "texts that must each appear in some line the steps printed"),
        Field::opt("events", "[string | table]", "events the steps must fire: a name, or `{ event = NAME, field = value }` with payload fields (the scenario then runs with `trace-events`)"),
    ],
};

/// What a scenario needs to pick its rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub edition: String,
    pub with: Vec<String>,
    pub scenario: Option<String>,
    pub seed: u64,
    /// How a recording's step hashes were computed (`Game::hash_in_scheme`).
    pub hash_scheme: i64,
}

/// Units of one power in one space, as `[x.SPACE.POWER]` tables list them.
type UnitsAt = (SpaceId, PowerId, Vec<(Piece, u32)>);

struct Reader<'a> {
    ctx: Ctx<'a>,
    rules: Option<&'a RuleSet>,
}

/// Read a scenario file's text into a tree, registering it in `sources`.
fn parse(path: &Path, sources: &mut Sources) -> Result<Node, Problems> {
    let (text, bad) = crate::diag::read_text(path).map_err(|e| {
        Problems(vec![Problem::new(
            "scenario::io",
            format!("cannot read {}: {e}", path.display()),
        )])
    })?;
    let file = sources.add(path, path.display().to_string(), text);
    if let Some(offset) = bad {
        return Err(Problems(vec![crate::diag::not_utf8(sources, file, offset)]));
    }
    let mut problems = Problems::default();
    match tree::parse_file(sources, file, &Arc::from("scenario"), &mut problems) {
        Some(root) if problems.is_empty() => Ok(root),
        _ => Err(problems),
    }
}

/// Just the header (edition, layers, scenario, seed) — what `record` and `replay` share.
pub fn read_header(path: &Path) -> Result<Header, Problems> {
    let mut sources = Sources::default();
    let root = parse(path, &mut sources)?;
    let mut r = Reader {
        ctx: Ctx {
            sources: &sources,
            problems: Problems::default(),
            tree: None,
        },
        rules: None,
    };
    let h = Fields::of(&mut r.ctx, &root, "", &CASE).and_then(|mut f| header(&mut r.ctx, &mut f));
    match h {
        Some(h) if r.ctx.problems.is_empty() => Ok(h),
        _ => Err(r.ctx.problems),
    }
}

fn header<'n>(ctx: &mut Ctx, f: &mut Fields<'n>) -> Option<Header> {
    let edition = f.req_str(ctx, "edition");
    let with = f.str_list(ctx, "with").into_iter().map(|(s, _)| s).collect();
    let scenario = f.str(ctx, "scenario");
    let seed = match f.get("seed") {
        Some(n) => match as_int(ctx, n, "seed").map(u64::try_from) {
            Some(Ok(s)) => s,
            Some(Err(_)) => {
                ctx.error_at(
                    n,
                    "schema::bad-value",
                    "`seed` must be zero or more".into(),
                    "negative",
                );
                1
            }
            None => 1,
        },
        None => 1,
    };
    let hash_scheme = match f.get("hash_scheme") {
        Some(n) => match as_int(ctx, n, "hash_scheme") {
            Some(v @ 1..=4) => v,
            Some(_) => {
                ctx.error_at(
                    n,
                    "schema::bad-value",
                    "`hash_scheme` is 1, 2, 3 or 4".into(),
                    "no such scheme",
                );
                1
            }
            None => 1,
        },
        None => 1,
    };
    Some(Header {
        edition: edition?,
        with,
        scenario,
        seed,
        hash_scheme,
    })
}

/// Read a scenario file and check every name in it against its rule set (`extra_with` adds
/// layers after the file's own). The rule set comes from `rules_for`, which may cache.
pub fn load(
    path: &Path,
    extra_with: &[String],
    rules_for: &dyn Fn(&Header) -> Result<Arc<RuleSet>, String>,
) -> Result<Case, (Sources, Problems)> {
    let mut sources = Sources::default();
    let root = match parse(path, &mut sources) {
        Ok(r) => r,
        Err(p) => return Err((sources, p)),
    };
    let result = read_case(path, &root, &sources, extra_with, rules_for);
    result.map_err(|p| (sources, p))
}

fn read_case(
    path: &Path,
    root: &Node,
    sources: &Sources,
    extra_with: &[String],
    rules_for: &dyn Fn(&Header) -> Result<Arc<RuleSet>, String>,
) -> Result<Case, Problems> {
    let mut r = Reader {
        ctx: Ctx {
            sources,
            problems: Problems::default(),
            tree: None,
        },
        rules: None,
    };
    let Some(mut f) = Fields::of(&mut r.ctx, root, "", &CASE) else {
        return Err(r.ctx.problems);
    };
    let mut rule_ids: Vec<String> = f
        .str_list(&mut r.ctx, "rules")
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    if let Some(id) = f.str(&mut r.ctx, "rule") {
        rule_ids.insert(0, id);
    }
    let recording = f
        .table
        .get("steps")
        .is_some_and(|n| matches!(&n.value, Value::Array(a) if a.iter().any(|s| s.as_table().is_some_and(|t| t.get("hash").is_some()))));
    if rule_ids.is_empty() && !recording {
        r.ctx.problems.push(
            Problem::new(
                "scenario::no-rule",
                "a scenario names the rule it checks: `rule = \"1941-CAP-CAPTURE\"` (IDs from special.md)",
            )
            .at(root.origin.label(sources, "in this file")),
        );
    }
    let title = f.str(&mut r.ctx, "title");
    let header = header(&mut r.ctx, &mut f);
    let Some(mut header) = header else {
        f.finish(&mut r.ctx);
        return Err(r.ctx.problems);
    };
    header.with.extend(extra_with.iter().cloned());
    let wants_events = f
        .table
        .get("expect")
        .and_then(Node::as_table)
        .is_some_and(|t| t.get("events").is_some());
    if wants_events && !header.with.iter().any(|w| w == super::TRACE_LAYER) {
        header.with.push(super::TRACE_LAYER.to_string());
    }
    let rules = match rules_for(&header) {
        Ok(rs) => rs,
        Err(e) => {
            let at = f.table.entries.get("edition").map(|e| e.node.origin.clone());
            let mut p = Problem::new("scenario::rules", e);
            if let Some(o) = at {
                p = p.at(o.label(sources, "this edition (with its layers) does not load"));
            }
            r.ctx.problems.push(p);
            return Err(r.ctx.problems);
        }
    };
    if let Some(sc) = &header.scenario {
        if rules.scenario(sc).is_none() {
            if let Some(n) = f.get("scenario") {
                let names: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
                r.ctx
                    .error_at(
                        n,
                        "scenario::unknown",
                        format!("no scenario `{sc}`"),
                        "not a scenario of the edition",
                    )
                    .help = Some(format!("scenarios: {}", names.join(", ")));
            }
        }
    }
    r.rules = Some(&rules);
    let mut arrangement = match f.table(&mut r.ctx, "start", &START) {
        Some(s) => r.start(s),
        None => Arrangement::default(),
    };
    arrangement.dice = f.get("dice").map(|n| r.dice(n));
    let steps = f.get("steps").map(|n| r.steps(n)).unwrap_or_default();
    let expect = match f.table(&mut r.ctx, "expect", &EXPECT) {
        Some(e) => r.expect(e),
        None => Vec::new(),
    };
    f.finish(&mut r.ctx);
    if !r.ctx.problems.is_empty() {
        return Err(r.ctx.problems);
    }
    Ok(Case {
        path: PathBuf::from(path),
        display: path.display().to_string(),
        rule_ids,
        title,
        header,
        rules: rules.clone(),
        arrangement,
        steps,
        expect,
    })
}

impl Reader<'_> {
    fn rules(&self) -> &RuleSet {
        self.rules.expect("names are read after the rule set is loaded")
    }

    fn at(&self, o: &Origin) -> String {
        self.ctx.sources.location(o.file, o.span.start)
    }

    fn name_error(&mut self, o: &Origin, msg: String) {
        let p = Problem::new("scenario::unknown-name", msg).at(o.label(self.ctx.sources, "here"));
        self.ctx.problems.push(p);
    }

    fn space_named(&mut self, name: &str, o: &Origin) -> Option<SpaceId> {
        command::resolve_space(self.rules(), name)
            .map_err(|e| self.name_error(o, e))
            .ok()
    }

    fn power_named(&mut self, name: &str, o: &Origin) -> Option<PowerId> {
        command::resolve_power(self.rules(), name)
            .map_err(|e| self.name_error(o, e))
            .ok()
    }

    /// A power, or `nobody` / `""` for none.
    fn holder_named(&mut self, name: &str, o: &Origin) -> Option<Option<PowerId>> {
        if name.is_empty() || name.eq_ignore_ascii_case("nobody") {
            return Some(None);
        }
        self.power_named(name, o).map(Some)
    }

    fn piece_named(&mut self, name: &str, o: &Origin) -> Option<Piece> {
        command::resolve_piece(self.rules(), name)
            .map_err(|e| self.name_error(o, e))
            .ok()
    }

    fn table_of<'n>(&mut self, n: &'n Node, what: &str) -> Option<&'n Table> {
        match &n.value {
            Value::Table(t) => Some(t),
            _ => {
                self.ctx.type_error(n, what, "a table");
                None
            }
        }
    }

    /// `{ "Karelia" = { "Germany" = { infantry = 2 } } }` as (space, power, piece, count).
    fn unit_table(&mut self, n: &Node, what: &str) -> Vec<UnitsAt> {
        let mut out = Vec::new();
        let Some(spaces) = self.table_of(n, what) else {
            return out;
        };
        for (sname, se) in &spaces.entries {
            let space = self.space_named(sname, &se.key);
            for (p, list) in self.power_pieces(&se.node, &format!("{what}.{sname}")) {
                if let Some(s) = space {
                    out.push((s, p, list));
                }
            }
        }
        out
    }

    fn relations(&mut self, n: &Node, what: &str) -> Vec<(PowerId, PowerId, Relation)> {
        let mut out = Vec::new();
        let Value::Array(items) = &n.value else {
            self.ctx
                .type_error(n, what, "a list of [POWER, POWER, \"war\"|\"peace\"|\"allied\"]");
            return out;
        };
        for item in items {
            let words = crate::rules::read::str_list(&mut self.ctx, item, what);
            let [(a, an), (b, bn), (rel, rn)] = words.as_slice() else {
                self.ctx
                    .type_error(item, what, "[POWER, POWER, \"war\"|\"peace\"|\"allied\"]");
                continue;
            };
            let a = self.power_named(a, &an.origin);
            let b = self.power_named(b, &bn.origin);
            let rel = match rel.to_ascii_lowercase().as_str() {
                "war" => Some(Relation::War),
                "peace" => Some(Relation::Peace),
                "allied" => Some(Relation::Allied),
                _ => {
                    self.ctx.error_at(
                        rn,
                        "schema::bad-value",
                        format!("`{rel}` is not a relation: war, peace or allied"),
                        "not a relation",
                    );
                    None
                }
            };
            if let (Some(a), Some(b), Some(rel)) = (a, b, rel) {
                out.push((a, b, rel));
            }
        }
        out
    }

    fn power_ints(&mut self, n: &Node, what: &str) -> Vec<(PowerId, i64)> {
        let mut out = Vec::new();
        let Some(t) = self.table_of(n, what) else {
            return out;
        };
        for (pname, e) in &t.entries {
            let p = self.power_named(pname, &e.key);
            let v = as_ipcs(&mut self.ctx, &e.node, &format!("{what}.{pname}"));
            if let (Some(p), Some(v)) = (p, v) {
                out.push((p, v));
            }
        }
        out
    }

    fn holders(&mut self, n: &Node, what: &str) -> Vec<(SpaceId, Option<PowerId>, Origin)> {
        let mut out = Vec::new();
        let Some(t) = self.table_of(n, what) else {
            return out;
        };
        for (sname, e) in &t.entries {
            let s = self.space_named(sname, &e.key);
            let holder = as_str(&mut self.ctx, &e.node, &format!("{what}.{sname}"))
                .and_then(|h| self.holder_named(&h, &e.node.origin));
            if let (Some(s), Some(h)) = (s, holder) {
                if self.rules().board.space(s).is_sea() {
                    self.ctx.error_at(
                        &e.node,
                        "scenario::sea-control",
                        format!("{sname} is a sea zone: sea zones are not controlled"),
                        "a sea zone",
                    );
                    continue;
                }
                out.push((s, h, e.key.clone()));
            }
        }
        out
    }

    fn start(&mut self, mut f: Fields) -> Arrangement {
        let mut a = Arrangement::default();
        let board: Option<bool> = f.choice(&mut self.ctx, "board", &[("setup", false), ("empty", true)]);
        a.empty_board = board.unwrap_or(false);
        for (name, n) in f.str_list(&mut self.ctx, "clear") {
            if let Some(s) = self.space_named(&name, &n.origin) {
                a.clear.push(s);
            }
        }
        let round = f
            .get("round")
            .and_then(|n| as_uint(&mut self.ctx, n, "start.round"));
        let power = f.get("power").and_then(|n| {
            let name = as_str(&mut self.ctx, n, "start.power")?;
            self.power_named(&name, &n.origin)
        });
        let phase = f.get("phase").and_then(|n| {
            let id = as_str(&mut self.ctx, n, "start.phase")?;
            self.phase_id(&id, n, power)
        });
        if round.is_some() || power.is_some() || phase.is_some() {
            match (power, phase.clone()) {
                (Some(power), Some(phase)) => {
                    a.position = Some(Position {
                        round: round.unwrap_or(1).max(1),
                        power,
                        phase,
                    })
                }
                _ => {
                    let n = f.node;
                    if power.is_none() && f.table.get("power").is_none() {
                        self.ctx.error_at(
                            n,
                            "scenario::position",
                            "a start position names both `power` and `phase`".into(),
                            "`power` is missing",
                        );
                    }
                    if phase.is_none() && f.table.get("phase").is_none() {
                        self.ctx.error_at(
                            n,
                            "scenario::position",
                            "a start position names both `power` and `phase`".into(),
                            "`phase` is missing",
                        );
                    }
                }
            }
        }
        if let Some(n) = f.get("units") {
            for (s, p, list) in self.unit_table(n, "start.units") {
                for (piece, count) in list {
                    if let Piece::Facility(_) = piece {
                        if self.rules().board.space(s).is_sea() {
                            self.ctx.error_at(
                                n,
                                "scenario::facility-at-sea",
                                format!("a facility cannot stand in {}", self.rules().board.space(s).name),
                                "in this table",
                            );
                            continue;
                        }
                    }
                    a.units.push((s, p, piece, count));
                }
            }
        }
        if let Some(n) = f.get("control") {
            a.control = self
                .holders(n, "start.control")
                .into_iter()
                .map(|(s, h, _)| (s, h))
                .collect();
        }
        if let Some(n) = f.get("treasury") {
            a.treasury = self.power_ints(n, "start.treasury");
        }
        if let Some(n) = f.get("relations") {
            a.relations = self.relations(n, "start.relations");
        }
        if let Some(n) = f.get("techs") {
            if let Some(t) = self.table_of(n, "start.techs") {
                for (pname, e) in &t.entries {
                    let p = self.power_named(pname, &e.key);
                    let list = crate::rules::read::str_list(&mut self.ctx, &e.node, "start.techs");
                    let mut held = Vec::new();
                    for (name, n) in list {
                        match self.rules().tech(&name) {
                            Some(t) => held.push(t),
                            None => {
                                let known: Vec<&str> =
                                    self.rules().techs.iter().map(|t| t.id.as_str()).collect();
                                let msg = if known.is_empty() {
                                    format!("unknown tech `{name}`: this game has no techs (add the research layer with `with`)")
                                } else {
                                    format!("unknown tech `{name}`; techs: {}", known.join(", "))
                                };
                                self.name_error(&n.origin, msg);
                            }
                        }
                    }
                    if let Some(p) = p {
                        a.techs.push((p, held));
                    }
                }
            }
        }
        if let Some(n) = f.get("damage") {
            a.damage = self.damages(n, "start.damage");
        }
        if let Some(n) = f.get("purchased") {
            a.purchased = self.power_pieces(n, "start.purchased");
        }
        f.finish(&mut self.ctx);
        a
    }

    /// `{ POWER = { infantry = 2 } }` (units bought, or one space's units).
    fn power_pieces(&mut self, n: &Node, what: &str) -> Vec<(PowerId, Vec<(Piece, u32)>)> {
        let mut out = Vec::new();
        let Some(t) = self.table_of(n, what) else {
            return out;
        };
        for (pname, pe) in &t.entries {
            let power = self.power_named(pname, &pe.key);
            let Some(units) = self.table_of(&pe.node, &format!("{what}.{pname}")) else {
                continue;
            };
            let mut list = Vec::new();
            for (uname, ue) in &units.entries {
                let piece = self.piece_named(uname, &ue.key);
                let count = as_uint(&mut self.ctx, &ue.node, &format!("{what}.{pname}.{uname}"));
                if let (Some(p), Some(c)) = (piece, count) {
                    list.push((p, c));
                }
            }
            if let Some(p) = power {
                out.push((p, list));
            }
        }
        out
    }

    /// `{ SPACE = { industrial_complex = 3 } }`.
    fn damages(&mut self, n: &Node, what: &str) -> Vec<(SpaceId, Piece, u32)> {
        let mut out = Vec::new();
        let Some(t) = self.table_of(n, what) else {
            return out;
        };
        for (sname, e) in &t.entries {
            let s = self.space_named(sname, &e.key);
            let Some(ft) = self.table_of(&e.node, what) else {
                continue;
            };
            for (fname, fe) in &ft.entries {
                let piece = self.piece_named(fname, &fe.key);
                let d = as_uint(&mut self.ctx, &fe.node, &format!("{what}.{sname}.{fname}"));
                match (s, piece, d) {
                    (Some(s), Some(p @ Piece::Facility(_)), Some(d)) => out.push((s, p, d)),
                    // At the start, a two-hit unit type: how many of those there took a hit.
                    (Some(s), Some(p @ Piece::Unit(_)), Some(d)) if what == "start.damage" => {
                        out.push((s, p, d))
                    }
                    (_, Some(Piece::Unit(_)), _) => {
                        let p = Problem::new(
                            "scenario::damage",
                            format!("`{fname}` is a unit; damage is set on facilities"),
                        )
                        .at(fe.key.label(self.ctx.sources, "not a facility"));
                        self.ctx.problems.push(p);
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// A phase id of `power`'s turn, or (no power named) of any power's turn.
    fn phase_id(&mut self, id: &str, n: &Node, power: Option<PowerId>) -> Option<String> {
        let rules = self.rules();
        let mut ids: Vec<String> = Vec::new();
        let turns: Vec<&[crate::rules::PhaseId]> = match power {
            Some(p) => vec![rules.turn_of(p)],
            None => std::iter::once(rules.turn.as_slice())
                .chain(rules.power_turns.iter().map(|(_, l)| l.as_slice()))
                .collect(),
        };
        for p in turns.into_iter().flatten() {
            let id = &rules.phases[p.index()].id;
            if !ids.contains(id) {
                ids.push(id.clone());
            }
        }
        if ids.iter().any(|x| x == id) {
            return Some(id.to_string());
        }
        let (msg, label) = match power {
            Some(p) => (
                format!("{} has no phase `{id}`", rules.power_info(p).name),
                "not a phase of that power's turn",
            ),
            None => (format!("no phase `{id}`"), "not a phase of the turn"),
        };
        self.ctx.error_at(n, "scenario::unknown-phase", msg, label).help =
            Some(format!("phases: {}", ids.join(", ")));
        None
    }

    fn dice(&mut self, n: &Node) -> Vec<u8> {
        let mut out = Vec::new();
        let Value::Array(items) = &n.value else {
            self.ctx
                .type_error(n, "dice", "a list of the faces rolled, e.g. [6, 1, 3]");
            return out;
        };
        for i in items {
            match as_int(&mut self.ctx, i, "dice") {
                Some(v @ 1..=6) => out.push(v as u8),
                Some(v) => {
                    self.ctx.error_at(
                        i,
                        "scenario::die-face",
                        format!("a die shows 1 to 6, not {v}"),
                        "not a face",
                    );
                }
                None => {}
            }
        }
        out
    }

    fn steps(&mut self, n: &Node) -> Vec<Step> {
        let mut out = Vec::new();
        let Value::Array(items) = &n.value else {
            self.ctx.type_error(n, "steps", "a list of commands");
            return out;
        };
        for item in items {
            let step = match &item.value {
                Value::Str(s) => Step {
                    text: s.clone(),
                    rejected: None,
                    output: Vec::new(),
                    hash: None,
                    at: self.at(&item.origin),
                },
                Value::Table(_) => {
                    let Some(mut f) = Fields::of(&mut self.ctx, item, "steps", &STEP) else {
                        continue;
                    };
                    let text = f.req_str(&mut self.ctx, "command");
                    let rejected = f.str(&mut self.ctx, "rejected");
                    if rejected.as_deref().is_some_and(|r| r.trim().is_empty()) {
                        if let Some(n) = f.table.get("rejected") {
                            self.ctx.error_at(
                                n,
                                "scenario::empty-rejection",
                                "`rejected` names text the refusal must contain; an empty text matches any refusal"
                                    .into(),
                                "empty",
                            );
                        }
                    }
                    let output = f
                        .str_list(&mut self.ctx, "output")
                        .into_iter()
                        .map(|(s, _)| s)
                        .collect();
                    let hash = f.get("hash").and_then(|n| {
                        let h = as_str(&mut self.ctx, n, "steps.hash")?;
                        match u64::from_str_radix(&h, 16) {
                            Ok(v) => Some(v),
                            Err(_) => {
                                self.ctx.error_at(
                                    n,
                                    "schema::bad-value",
                                    format!("`{h}` is not a state hash (16 hex digits)"),
                                    "not hex",
                                );
                                None
                            }
                        }
                    });
                    f.finish(&mut self.ctx);
                    let Some(text) = text else { continue };
                    Step {
                        text,
                        rejected,
                        output,
                        hash,
                        at: self.at(&item.origin),
                    }
                }
                _ => {
                    self.ctx.type_error(
                        item,
                        "steps",
                        "a command or a table { command = ..., rejected = ... }",
                    );
                    continue;
                }
            };
            // A step that must be refused may be refused for not parsing at all (checking the
            // message a typo gets); any other step must be a command of the language.
            // `report NAME [POWER]` is read by the game when the step runs (game::Game::report_text).
            let report = crate::game::command::tokenize(&step.text)
                .ok()
                .and_then(|w| w.first().map(|v| v.eq_ignore_ascii_case("report")))
                .unwrap_or(false);
            if step.rejected.is_none() && !report {
                if let Err(e) = Command::parse(self.rules(), &step.text) {
                    self.ctx.error_at(
                        item,
                        "scenario::bad-command",
                        format!("`{}`: {e}", step.text),
                        "not a command",
                    );
                }
            }
            out.push(step);
        }
        out
    }

    fn expect(&mut self, mut f: Fields) -> Vec<Expect> {
        let mut out = Vec::new();
        let at = |r: &Self, o: &Origin| r.at(o);
        if let Some(n) = f.get("owner") {
            for (s, h, key) in self.holders(n, "expect.owner") {
                out.push(Expect {
                    what: Expectation::Owner(s, h),
                    at: at(self, &key),
                });
            }
        }
        for (key, exact) in [("units", true), ("units_at_least", false)] {
            if let Some(n) = f.get(key) {
                for (space, power, units) in self.unit_table(n, &format!("expect.{key}")) {
                    out.push(Expect {
                        what: Expectation::Units {
                            space,
                            power,
                            units,
                            exact,
                        },
                        at: at(self, &n.origin),
                    });
                }
            }
        }
        if let Some(n) = f.get("treasury") {
            for (p, v) in self.power_ints(n, "expect.treasury") {
                out.push(Expect {
                    what: Expectation::Treasury(p, v),
                    at: at(self, &n.origin),
                });
            }
        }
        if let Some(n) = f.get("income") {
            for (p, v) in self.power_ints(n, "expect.income") {
                out.push(Expect {
                    what: Expectation::Income(p, v),
                    at: at(self, &n.origin),
                });
            }
        }
        if let Some(n) = f.get("damage") {
            for (s, p, d) in self.damages(n, "expect.damage") {
                out.push(Expect {
                    what: Expectation::Damage(s, p, d),
                    at: at(self, &n.origin),
                });
            }
        }
        if let Some(n) = f.get("purchased") {
            for (p, list) in self.power_pieces(n, "expect.purchased") {
                out.push(Expect {
                    what: Expectation::Purchased(p, list),
                    at: at(self, &n.origin),
                });
            }
        }
        if let Some(n) = f.get("battles") {
            let mut spaces = Vec::new();
            for (name, sn) in crate::rules::read::str_list(&mut self.ctx, n, "expect.battles") {
                if let Some(s) = self.space_named(&name, &sn.origin) {
                    spaces.push(s);
                }
            }
            out.push(Expect {
                what: Expectation::Battles(spaces),
                at: at(self, &n.origin),
            });
        }
        if let Some(n) = f.get("battle") {
            if let Some(t) = self.table_of(n, "expect.battle") {
                for (sname, e) in &t.entries {
                    let s = self.space_named(sname, &e.key);
                    let o = as_str(&mut self.ctx, &e.node, "expect.battle").and_then(|o| {
                        let found = OUTCOMES.iter().find(|(n, _)| *n == o).map(|(_, x)| *x);
                        if found.is_none() {
                            let names: Vec<&str> = OUTCOMES.iter().map(|(n, _)| *n).collect();
                            self.ctx
                                .error_at(
                                    &e.node,
                                    "schema::bad-value",
                                    format!("`{o}` is not a battle outcome"),
                                    "here",
                                )
                                .help = Some(format!("outcomes: {}", names.join(", ")));
                        }
                        found
                    });
                    if let (Some(s), Some(o)) = (s, o) {
                        out.push(Expect {
                            what: Expectation::Battle(s, o),
                            at: at(self, &e.key),
                        });
                    }
                }
            }
        }
        if let Some(n) = f.get("dice_drawn") {
            if let Some(v) = as_uint(&mut self.ctx, n, "expect.dice_drawn") {
                out.push(Expect {
                    what: Expectation::DiceDrawn(u64::from(v)),
                    at: at(self, &n.origin),
                });
            }
        }
        if let Some(n) = f.get("winner") {
            if let Some(w) = as_str(&mut self.ctx, n, "expect.winner") {
                let sides: Vec<&str> = {
                    let mut v: Vec<&str> = Vec::new();
                    for p in &self.rules().powers {
                        if !v.contains(&p.side.as_str()) {
                            v.push(&p.side);
                        }
                    }
                    v
                };
                if w.eq_ignore_ascii_case("none") || w.eq_ignore_ascii_case("nobody") {
                    out.push(Expect {
                        what: Expectation::Winner(None),
                        at: at(self, &n.origin),
                    });
                } else if let Some(side) = sides.iter().find(|s| s.eq_ignore_ascii_case(&w)) {
                    out.push(Expect {
                        what: Expectation::Winner(Some(side.to_string())),
                        at: at(self, &n.origin),
                    });
                } else {
                    let sides = sides.join(", ");
                    self.ctx
                        .error_at(
                            n,
                            "scenario::unknown-side",
                            format!("no side `{w}`"),
                            "not a side",
                        )
                        .help = Some(format!("sides: {sides}, or \"none\""));
                }
            }
        }
        if let Some(n) = f.get("round") {
            if let Some(v) = as_uint(&mut self.ctx, n, "expect.round") {
                out.push(Expect {
                    what: Expectation::Round(v),
                    at: at(self, &n.origin),
                });
            }
        }
        let mut expected_power = None;
        if let Some(n) = f.get("power") {
            if let Some(p) =
                as_str(&mut self.ctx, n, "expect.power").and_then(|s| self.power_named(&s, &n.origin))
            {
                expected_power = Some(p);
                out.push(Expect {
                    what: Expectation::Power(p),
                    at: at(self, &n.origin),
                });
            }
        }
        if let Some(n) = f.get("phase") {
            if let Some(p) =
                as_str(&mut self.ctx, n, "expect.phase").and_then(|s| self.phase_id(&s, n, expected_power))
            {
                out.push(Expect {
                    what: Expectation::Phase(p),
                    at: at(self, &n.origin),
                });
            }
        }
        if let Some(n) = f.get("relations") {
            for (a, b, r) in self.relations(n, "expect.relations") {
                out.push(Expect {
                    what: Expectation::Relation(a, b, r),
                    at: at(self, &n.origin),
                });
            }
        }
        if let Some(n) = f.get("log") {
            let texts = crate::rules::read::str_list(&mut self.ctx, n, "expect.log");
            out.push(Expect {
                what: Expectation::Log(texts.into_iter().map(|(s, _)| s).collect()),
                at: at(self, &n.origin),
            });
        }
        if let Some(n) = f.get("events") {
            let seen = self.events(n);
            out.push(Expect {
                what: Expectation::Events(seen),
                at: at(self, &n.origin),
            });
        }
        f.finish(&mut self.ctx);
        out
    }

    /// `["turn_end", { event = "territory_captured", space = "Karelia" }]`.
    fn events(&mut self, n: &Node) -> Vec<super::EventSeen> {
        use crate::script::EventKind;
        let mut out = Vec::new();
        let Value::Array(items) = &n.value else {
            self.ctx.type_error(
                n,
                "expect.events",
                "a list of event names or { event = NAME, field = value } tables",
            );
            return out;
        };
        for item in items {
            let (name, name_node, fields) = match &item.value {
                Value::Str(s) => (s.clone(), item, Vec::new()),
                Value::Table(t) => {
                    let Some(e) = t.entries.get("event") else {
                        self.ctx.error_at(
                            item,
                            "scenario::event",
                            "an expected event names its `event`".into(),
                            "no `event`",
                        );
                        continue;
                    };
                    let Some(name) = as_str(&mut self.ctx, &e.node, "expect.events.event") else {
                        continue;
                    };
                    let mut fields = Vec::new();
                    for (k, fe) in t.entries.iter().filter(|(k, _)| *k != "event") {
                        let v = match &fe.node.value {
                            Value::Str(s) => s.clone(),
                            Value::Int(i) => i.to_string(),
                            Value::Bool(b) => b.to_string(),
                            _ => {
                                self.ctx.type_error(
                                    &fe.node,
                                    &format!("expect.events.{k}"),
                                    "a string or a number",
                                );
                                continue;
                            }
                        };
                        if let Some(kind) = EventKind::from_name(&name) {
                            if !kind.payload_fields().contains(&k.as_str()) {
                                let p = Problem::new(
                                    "scenario::event-field",
                                    format!("`{name}` carries no field `{k}`"),
                                )
                                .at(fe.key.label(self.ctx.sources, "not in the payload"))
                                .help(format!("fields: {}", kind.payload_fields().join(", ")));
                                self.ctx.problems.push(p);
                                continue;
                            }
                        }
                        fields.push((k.clone(), v));
                    }
                    (name, &e.node, fields)
                }
                _ => {
                    self.ctx
                        .type_error(item, "expect.events", "an event name or a table");
                    continue;
                }
            };
            if EventKind::from_name(&name).is_none() {
                let names: Vec<&str> = EventKind::ALL.iter().map(|k| k.name()).collect();
                let p = Problem::new("scenario::unknown-event", format!("no event `{name}`"))
                    .at(name_node.origin.label(self.ctx.sources, "not in the catalogue"))
                    .help(format!("events: {}", names.join(", ")));
                self.ctx.problems.push(p);
                continue;
            }
            out.push(super::EventSeen { event: name, fields });
        }
        out
    }
}
