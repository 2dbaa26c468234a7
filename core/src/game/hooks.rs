//! The bridge between commands and the Lua host: which events a command fires, with which
//! payload, and what a veto or a script error does to the command (it fails; nothing changes).

use super::command::Command;
use super::requests::apply_request;
use super::state::State;
use super::Rejection;
use crate::combat::{Battle, Gate, Observer, Report, ScriptAction, Side, UnitValue, ValueChange};
use crate::rules::Step;
use crate::rules::{Piece, PowerId, RuleSet, Scenario, TurnStep};
use crate::script::{
    Event, EventKind, HandlerInfo, LazyFields, Outcome, ScriptError, ScriptHost, ScriptLimits, Value,
};
use std::sync::Arc;

pub struct Hooks {
    host: ScriptHost,
    /// Commands scripts asked for in the event being dispatched, applied after it.
    pending: Vec<crate::script::Request>,
}

impl Hooks {
    /// A host with every layer's scripts loaded, or `None` when no layer has scripts (then no
    /// event costs anything).
    pub fn for_rules(rules: &RuleSet) -> Result<Option<Hooks>, ScriptError> {
        if rules.scripts.is_empty() {
            return Ok(None);
        }
        let mut host = ScriptHost::new(ScriptLimits::default())?;
        let shared = rules.project_root.join("scripts");
        for l in &rules.scripts {
            host.load_layer(&l.layer, &l.dir, &rules.project_root, &l.files, &shared)?;
        }
        Ok(Some(Hooks {
            host,
            pending: Vec::new(),
        }))
    }

    /// Fire the events of a command that has been run on `next` (the would-be state) but not
    /// yet committed. A veto or a failing script rejects the command.
    pub fn after_run(
        &mut self,
        rules: &RuleSet,
        scenario: &str,
        cmd: &Command,
        moved: Option<&super::movement::Moved>,
        before: &State,
        next: &mut State,
    ) -> Result<(Vec<String>, Vec<String>), Rejection> {
        let sc = rules.scenario(scenario).expect("scenario exists");
        let change = Change::new(rules, sc, before, next);
        let (at, next_at) = (change.at, change.next_at);
        let (checks, mut events) = change.command_events(cmd, moved);
        if !matches!(cmd, Command::Edit(_) | Command::Undo) && self.host.listens(EventKind::TerritoryCaptured)
        {
            events.extend(change.captures());
        }
        if self.host.listens(EventKind::NeutralAttacked) {
            events.extend(change.neutrals_attacked());
        }
        if *cmd == Command::EndPhase && change.turn_ended {
            events.extend(change.victory_checks());
        }
        let before_view = View {
            rules,
            state: before,
            power: at.power,
            phase: at.phase,
        };
        self.dispatch_command(rules, &checks, &events, &before_view, next, next_at)
    }

    /// Dispatch one command's events: first the checks, with the game as it was before it,
    /// then what happened, with the game after it (and the commands their handlers ask for
    /// applied to it). The lines to log before and after the new turn and phase are announced.
    fn dispatch_command(
        &mut self,
        rules: &RuleSet,
        checks: &[Event],
        events: &[Event],
        before_view: &View,
        next: &mut State,
        next_at: TurnStep,
    ) -> Result<(Vec<String>, Vec<String>), Rejection> {
        // One command may fire several events; if a later one fails, the stores must not keep
        // what earlier ones wrote (commands are transactions, stores included).
        let snapshot = self.host.store_snapshot();
        let result = self.dispatch_all(checks, before_view, None).and_then(|mut log| {
            let acting = next_at;
            // What the new turn's and phase's handlers say comes after the new phase is
            // announced; the rest (income, the closing phase) before it.
            let mut later = Vec::new();
            for ev in events {
                let view = View {
                    rules,
                    state: next,
                    power: acting.power,
                    phase: acting.phase,
                };
                let opening = matches!(ev.kind, EventKind::TurnBegin | EventKind::PhaseBegin);
                let lines = if opening { &mut later } else { &mut log };
                lines.extend(self.dispatch_all(std::slice::from_ref(ev), &view, Some(ev.kind))?);
                let asked = std::mem::take(&mut self.pending);
                for r in asked {
                    let line = apply_request(rules, next, &r.command, ev.kind, &r.by).map_err(|why| {
                        Rejection::new(format!("handler `{}`: {why}", r.by)).by(r.by.clone())
                    })?;
                    lines.push(format!("[{}] {line}", r.by));
                }
            }
            Ok((log, later))
        });
        if result.is_err() {
            self.pending.clear();
            self.host
                .restore_store(&snapshot)
                .map_err(|e| Rejection::new(format!("a rule script's store could not be restored: {e}")))?;
        }
        result
    }

    /// Dispatch `events` in order. `asking` is the event kind whose handlers may ask for
    /// commands (`None`: none may, as in `validate_*` events); what they ask is kept in
    /// `pending` for the caller to apply.
    fn dispatch_all(
        &mut self,
        events: &[Event],
        view: &View,
        asking: Option<EventKind>,
    ) -> Result<Vec<String>, Rejection> {
        let mut log = Vec::new();
        for ev in events {
            let d = self.host.dispatch(ev, view).map_err(|e| {
                Rejection::new(format!("a rule script failed: {e}")).by(e.handler.clone().unwrap_or_default())
            })?;
            for l in &d.log {
                log.push(format!(
                    "[{}] {}",
                    l.handler.as_deref().unwrap_or(&l.layer),
                    l.message
                ));
            }
            if let Outcome::Veto { by, reason } = d.outcome {
                return Err(Rejection::new(reason).by(by));
            }
            if let Some(r) = d.requests.first() {
                if asking.is_none_or(|k| !k.may_request()) {
                    return Err(Rejection::new(format!(
                        "handler `{}` asked for a command ({:?}) in `{}`, which only asks whether something may happen; ask in an event that reports it instead",
                        r.by,
                        r.command,
                        ev.kind.name()
                    ))
                    .by(r.by.clone()));
                }
            }
            self.pending.extend(d.requests);
        }
        Ok(log)
    }

    /// `game_setup`, once, when a game starts from its scenario; what its handlers ask for
    /// (a bid's extra IPCs or units) is applied to the starting state. The lines to log.
    pub fn game_setup(
        &mut self,
        rules: &RuleSet,
        scenario: &str,
        state: &mut State,
    ) -> Result<Vec<String>, String> {
        let sc = rules.scenario(scenario).expect("scenario exists");
        let ev = Event::new(EventKind::GameSetup)
            .with("scenario", scenario)
            .with("round", i64::from(state.round));
        let at = super::step(rules, sc, state);
        let view = View {
            rules,
            state,
            power: at.power,
            phase: at.phase,
        };
        let mut log = self
            .dispatch_all(std::slice::from_ref(&ev), &view, Some(EventKind::GameSetup))
            .map_err(|e| e.to_string())?;
        for r in std::mem::take(&mut self.pending) {
            let line = apply_request(rules, state, &r.command, EventKind::GameSetup, &r.by)
                .map_err(|why| format!("handler `{}`: {why}", r.by))?;
            log.push(format!("[{}] {line}", r.by));
        }
        Ok(log)
    }

    /// `battles_begin`, as the attacker orders the turn's first battle or raid: what its
    /// handlers ask for is applied to `next` (the game as it stands, before the battle). The
    /// lines to log.
    pub fn battles_begin(
        &mut self,
        rules: &RuleSet,
        before: &State,
        next: &mut State,
        at: TurnStep,
    ) -> Result<Vec<String>, Rejection> {
        let mut battles: Vec<String> = Vec::new();
        for sp in next
            .this_turn
            .raids
            .iter()
            .filter(|(_, fought)| !fought)
            .map(|(sp, _)| *sp)
            .chain(
                next.this_turn
                    .battles
                    .iter()
                    .filter(|b| !b.fought)
                    .map(|b| b.space),
            )
        {
            let name = rules.board.space(sp).name.clone();
            if !battles.contains(&name) {
                battles.push(name);
            }
        }
        let ev = Event::new(EventKind::BattlesBegin)
            .with("round", i64::from(before.round))
            .with("power", rules.power_info(at.power).name.as_str())
            .with("phase", rules.phases[at.phase.index()].id.as_str())
            .with("battles", Value::list(battles.into_iter().map(Value::from)));
        let view = View {
            rules,
            state: before,
            power: at.power,
            phase: at.phase,
        };
        let (log, _) = self.dispatch_command(rules, &[], std::slice::from_ref(&ev), &view, next, at)?;
        Ok(log)
    }

    /// `report`: what the handlers of the report `name` say about `power`, as log lines.
    /// Nothing stays: requests are refused and the stores are put back as they were.
    pub fn report(
        &mut self,
        rules: &RuleSet,
        state: &State,
        at: TurnStep,
        name: &str,
        power: PowerId,
    ) -> Result<Vec<String>, String> {
        let ev = Event::new(EventKind::Report)
            .with("report", name)
            .with("power", rules.power_info(power).name.as_str())
            .with("round", i64::from(state.round));
        let view = View {
            rules,
            state,
            power: at.power,
            phase: at.phase,
        };
        let snapshot = self.host.store_snapshot();
        let result = self.dispatch_all(std::slice::from_ref(&ev), &view, None);
        self.pending.clear();
        self.host
            .restore_store(&snapshot)
            .map_err(|e| format!("a rule script's store could not be restored: {e}"))?;
        result.map_err(|e| e.to_string())
    }

    /// Whether any handler listens for `kind`.
    pub fn listens(&self, kind: EventKind) -> bool {
        self.host.listens(kind)
    }

    /// Put the scripts' saved data back as it was (undo).
    pub fn restore_store(&mut self, store: &Value) -> Result<(), ScriptError> {
        self.host.restore_store(store)
    }

    /// The scripts' saved data, so the game hash notices a script's state diverging.
    pub fn store(&self) -> Value {
        self.host.store_snapshot()
    }
}

/// One command as its events tell it: the step it was given in and the one it leads to, and
/// the game before and after it.
struct Change<'a> {
    rules: &'a RuleSet,
    sc: &'a Scenario,
    before: &'a State,
    next: &'a State,
    at: TurnStep,
    next_at: TurnStep,
    /// The power that gave the command, and its name as scripts see it.
    power: PowerId,
    pname: String,
    /// The command ended the turn (the next power's turn, or a new round, begins).
    turn_ended: bool,
    /// The powers whose turn ends with this one: guests' turns end with their host's, just
    /// before it.
    ending: Vec<PowerId>,
}

impl<'a> Change<'a> {
    fn new(rules: &'a RuleSet, sc: &'a Scenario, before: &'a State, next: &'a State) -> Change<'a> {
        let at = super::step(rules, sc, before);
        let next_at = super::step(rules, sc, next);
        let mut ending = rules.powers_of_turn(sc.turn_order[before.turn]);
        ending.rotate_left(1);
        Change {
            rules,
            sc,
            before,
            next,
            at,
            next_at,
            power: at.power,
            pname: rules.power_info(at.power).name.clone(),
            turn_ended: next.turn != before.turn || next.round != before.round,
            ending,
        }
    }

    fn name(&self, p: PowerId) -> String {
        self.rules.power_info(p).name.clone()
    }

    /// The events of the command itself: those asking whether it may happen at all, with the
    /// game as it was before it (a declaration asks about the powers' relations before the
    /// declaration), and those telling what happened.
    fn command_events(
        &self,
        cmd: &Command,
        moved: Option<&super::movement::Moved>,
    ) -> (Vec<Event>, Vec<Event>) {
        match cmd {
            Command::DeclareWar(target) => {
                let (check, declared) = self.declaration(*target);
                (vec![check], vec![declared])
            }
            Command::Buy {
                piece,
                count,
                economy,
            } => (
                Vec::new(),
                vec![self.purchase(*piece, *count, economy.unwrap_or(self.power))],
            ),
            Command::EndPhase | Command::PlayFirst(_) => (Vec::new(), self.phase_change(cmd)),
            Command::Move(m) => (Vec::new(), vec![self.movement(m, moved)]),
            Command::Place { piece, count, space } => {
                (Vec::new(), vec![self.placement(*piece, *count, *space)])
            }
            Command::Research(bought) => (Vec::new(), vec![self.research(*bought, &[self.power])]),
            Command::ResearchFor { own, paid, economy } => (
                Vec::new(),
                vec![self.research(own + paid, &[self.power, *economy])],
            ),
            Command::Layer(c) => (Vec::new(), vec![self.layer_command(c)]),
            Command::Answer(a) => (Vec::new(), self.answer(a).into_iter().collect()),
            Command::Breakthrough(chart) => (Vec::new(), self.breakthrough(*chart).into_iter().collect()),
            Command::Repair { .. }
            | Command::Scramble { .. }
            | Command::Intercept { .. }
            | Command::AskPassage(_)
            | Command::Rocket { .. }
            | Command::Edit(_)
            | Command::Undo
            | Command::Fight(_)
            | Command::FightBombarding { .. }
            | Command::Casualties(_)
            | Command::Press
            | Command::Disagree
            | Command::Retreat(_)
            | Command::Submerge(_)
            | Command::Roll(_)
            | Command::Dice(_)
            | Command::CasualtyOrder { .. } => (Vec::new(), Vec::new()),
        }
    }

    /// `validate_declaration` and `war_declared`, naming every power each side brings into
    /// the war (the pairs whose relation the declaration changed).
    fn declaration(&self, target: PowerId) -> (Event, Event) {
        let (rules, before, next) = (self.rules, self.before, self.next);
        let phase = &rules.phases[self.at.phase.index()];
        let name = |p: PowerId| Value::from(rules.power_info(p).name.clone());
        let mut pairs = Vec::new();
        for d in rules.war_partners(self.power) {
            for t in rules.war_partners(target) {
                if before.relations[d.index()][t.index()] != next.relations[d.index()][t.index()] {
                    pairs.push((d, t));
                }
            }
        }
        let (declarers, targets) = super::politics::war_sides(&pairs);
        let event = |kind| {
            Event::new(kind)
                .with("power", self.pname.as_str())
                .with("target", name(rules.relation_holder(target)))
                .with("round", i64::from(before.round))
                .with("phase", phase.id.as_str())
                .with("declarers", Value::list(declarers.iter().map(|p| name(*p))))
                .with("targets", Value::list(targets.iter().map(|p| name(*p))))
        };
        (
            event(EventKind::ValidateDeclaration),
            event(EventKind::WarDeclared),
        )
    }

    /// `validate_purchase`: what is bought, what it costs (with the power's techs) and what
    /// the economy paying had to spend.
    fn purchase(&self, piece: Piece, count: u32, payer: PowerId) -> Event {
        let (rules, power) = (self.rules, self.power);
        let (id, cost) = match piece {
            Piece::Unit(u) => (
                rules.unit(u).id.clone(),
                rules.unit_for(u, &self.before.techs[power.index()]).cost,
            ),
            Piece::Facility(f) => {
                let f = &rules.facilities[f.index()];
                (f.id.clone(), f.cost.unwrap_or(0))
            }
        };
        Event::new(EventKind::ValidatePurchase)
            .with("power", self.pname.as_str())
            .with(
                "units",
                Value::list([Value::map([
                    ("unit", Value::from(id)),
                    ("count", Value::from(i64::from(count))),
                ])]),
            )
            .with("cost", i64::from(cost) * i64::from(count))
            .with("ipcs", self.before.treasuries[payer.index()])
            .with("economy", self.name(payer))
    }

    /// Ending a phase (or `play POWER first`): the income collected, the phase ended, the
    /// turns ended and begun, and the phase begun, in that order.
    fn phase_change(&self, cmd: &Command) -> Vec<Event> {
        let (rules, before, next, power) = (self.rules, self.before, self.next, self.power);
        let mut events = Vec::new();
        let old = &rules.phases[self.at.phase.index()];
        if *cmd == Command::EndPhase && old.kind == crate::rules::PhaseKind::CollectIncome {
            // Each economy of the power collects apart (its own objectives too).
            for p in rules.economies(power) {
                let income = next.treasuries[p.index()] - before.treasuries[p.index()];
                events.push(
                    Event::new(EventKind::CollectIncome)
                        .with("power", self.name(p))
                        .with("income", income),
                );
            }
        }
        // `play POWER first` at the step where the orders part puts that step off: it
        // ends, and the other order's step begins in its place.
        let steps_on = *cmd == Command::EndPhase || self.at != self.next_at;
        if steps_on {
            events.push(phase_event(EventKind::PhaseEnd, before.round, &self.pname, old));
        }
        if self.turn_ended {
            events.extend(self.turn_change());
        }
        if steps_on {
            let new = &rules.phases[self.next_at.phase.index()];
            events.push(phase_event(
                EventKind::PhaseBegin,
                next.round,
                &self.name(self.next_at.power),
                new,
            ));
        }
        events
    }

    /// `turn_end` for every power whose turn ended, then `turn_begin` for every power of the
    /// turn that begins.
    fn turn_change(&self) -> Vec<Event> {
        let (before, next) = (self.before, self.next);
        let mut events = Vec::new();
        for &p in &self.ending {
            events.push(
                Event::new(EventKind::TurnEnd)
                    .with("round", i64::from(before.round))
                    .with("power", self.name(p).as_str()),
            );
        }
        for p in self.rules.powers_of_turn(self.sc.turn_order[next.turn]) {
            events.push(
                Event::new(EventKind::TurnBegin)
                    .with("round", i64::from(next.round))
                    .with("power", self.name(p).as_str()),
            );
        }
        events
    }

    /// `validate_move`: the units moved and the path they took (the one found when none was
    /// given).
    fn movement(&self, m: &super::command::Move, moved: Option<&super::movement::Moved>) -> Event {
        let rules = self.rules;
        let phase = &rules.phases[self.at.phase.index()];
        let sname = |id: crate::rules::SpaceId| Value::from(rules.board.space(id).name.clone());
        let (units, path) = moved.map_or((Vec::new(), Vec::new()), |mv| (mv.units.clone(), mv.path.clone()));
        Event::new(EventKind::ValidateMove)
            .with("power", self.pname.as_str())
            .with("phase", phase.id.as_str())
            .with(
                "units",
                unit_list(rules, units.iter().map(|(k, n)| (Piece::Unit(*k), *n))),
            )
            .with("from", sname(m.from))
            .with("to", sname(m.to))
            .with("path", Value::list(path.into_iter().map(sname)))
    }

    /// `validate_placement`: the pieces mobilized and the space they enter play in.
    fn placement(&self, piece: Piece, count: u32, space: crate::rules::SpaceId) -> Event {
        Event::new(EventKind::ValidatePlacement)
            .with("power", self.pname.as_str())
            .with("space", self.rules.board.space(space).name.as_str())
            .with("units", unit_list(self.rules, [(piece, count)]))
    }

    /// `command`: a layer's command as given, its arguments by name.
    /// `answer`: the question the command answered (the first waiting before it).
    fn answer(&self, text: &str) -> Option<Event> {
        let q = self.before.questions.0.first()?;
        let i = super::questions::matching(q, text).ok()?;
        Some(
            Event::new(EventKind::Answer)
                .with("power", self.rules.power_info(q.power).name.as_str())
                .with("key", q.key.as_str())
                .with("question", q.text.as_str())
                .with("answer", q.answers[i].as_str())
                .with("round", i64::from(self.before.round)),
        )
    }

    fn layer_command(&self, c: &super::layer_commands::LayerCall) -> Event {
        use super::layer_commands::LayerArg;
        let rules = self.rules;
        let names = super::layer_commands::def(rules, c)
            .map(|d| d.args.as_slice())
            .unwrap_or(&[]);
        let args = Value::Map(
            names
                .iter()
                .zip(&c.args)
                .map(|(a, v)| {
                    let v = match v {
                        LayerArg::Number(n) => Value::Int(*n),
                        LayerArg::Power(p) => Value::from(rules.power_info(*p).name.clone()),
                        LayerArg::Space(s) => Value::from(rules.board.space(*s).name.clone()),
                        LayerArg::Unit(u) => Value::from(rules.unit(*u).id.clone()),
                    };
                    (a.name.clone(), v)
                })
                .collect(),
        );
        Event::new(EventKind::Command)
            .with("command", c.name.as_str())
            .with("power", self.pname.as_str())
            .with("round", i64::from(self.before.round))
            .with("phase", rules.phases[self.at.phase.index()].id.as_str())
            .with("args", args)
    }

    /// `research`: the tokens rolled, what they cost, and whether one broke through.
    fn research(&self, bought: u32, payers: &[PowerId]) -> Event {
        let (before, next, power) = (self.before, self.next, self.power);
        let tokens = before.research_tokens[power.index()] + bought;
        let mut payers = payers.to_vec();
        payers.dedup();
        let cost: i64 = payers
            .iter()
            .map(|p| before.treasuries[p.index()] - next.treasuries[p.index()])
            .sum();
        // Tokens gone after the roll: a breakthrough, where failed tokens are kept; where they
        // are lost, the chart waiting to be chosen says it.
        let keep = self.rules.research.as_ref().is_none_or(|r| r.keep_tokens);
        let breakthrough = if keep {
            next.research_tokens[power.index()] == 0
        } else {
            next.breakthrough_pending
        };
        Event::new(EventKind::Research)
            .with("power", self.pname.as_str())
            .with("tokens", i64::from(tokens))
            .with("cost", cost)
            .with("breakthrough", breakthrough)
    }

    /// `breakthrough`: the tech won on the chart (none when the command gained none).
    fn breakthrough(&self, chart: usize) -> Option<Event> {
        let t = self.next.techs[self.power.index()].last()?;
        Some(
            Event::new(EventKind::Breakthrough)
                .with("power", self.pname.as_str())
                .with("chart", chart as i64)
                .with("tech", self.rules.techs[t.index()].id.as_str()),
        )
    }

    /// `territory_captured` for every space whose controller the command changed, with the
    /// acting power's units there.
    fn captures(&self) -> Vec<Event> {
        let (rules, before, next) = (self.rules, self.before, self.next);
        let mut events = Vec::new();
        for id in rules.board.ids() {
            let (was, now) = (before.space(id).controller, next.space(id).controller);
            let Some(now) = now.filter(|n| Some(*n) != was) else {
                continue;
            };
            let mut units: Vec<(Piece, u32)> = Vec::new();
            for u in next.space(id).units.iter().filter(|u| u.owner == self.power) {
                match units.iter_mut().find(|(p, _)| *p == Piece::Unit(u.kind)) {
                    Some((_, n)) => *n += 1,
                    None => units.push((Piece::Unit(u.kind), 1)),
                }
            }
            events.push(
                Event::new(EventKind::TerritoryCaptured)
                    .with("space", rules.board.space(id).name.as_str())
                    .with("power", rules.power_info(now).name.as_str())
                    .with(
                        "previous_owner",
                        was.map_or(String::new(), |p| rules.power_info(p).name.clone())
                            .as_str(),
                    )
                    .with("units", unit_list(rules, units)),
            );
        }
        events
    }

    /// `neutral_attacked` for every neutral territory the command attacked.
    fn neutrals_attacked(&self) -> Vec<Event> {
        let (rules, before, next) = (self.rules, self.before, self.next);
        let mut events = Vec::new();
        for n in next.neutrals.0.iter() {
            if n.attacked.is_none() || before.neutrals.get(n.space).is_some_and(|b| b.attacked.is_some()) {
                continue;
            }
            let was = super::neutrals::standing(rules, before, n.space).and_then(|st| match st {
                super::neutrals::Standing::Neutral { leaning } => leaning.map(str::to_string),
                super::neutrals::Standing::Joined { .. } => None,
            });
            events.push(
                Event::new(EventKind::NeutralAttacked)
                    .with("space", rules.board.space(n.space).name.as_str())
                    .with("power", self.pname.as_str())
                    .with("joined", n.leaning.as_deref().unwrap_or(""))
                    .with("was", was.unwrap_or_default().as_str()),
            );
        }
        events
    }

    /// `victory_check` for every power whose turn ended.
    fn victory_checks(&self) -> Vec<Event> {
        self.ending
            .iter()
            .map(|&p| {
                Event::new(EventKind::VictoryCheck)
                    .with("round", i64::from(self.before.round))
                    .with("power", self.name(p).as_str())
            })
            .collect()
    }
}

/// `{ {unit = "infantry", count = 2}, ... }` as scripts see a group of units.
fn unit_list(rules: &RuleSet, units: impl IntoIterator<Item = (Piece, u32)>) -> Value {
    Value::list(units.into_iter().map(|(p, n)| {
        let id = match p {
            Piece::Unit(u) => rules.unit(u).id.clone(),
            Piece::Facility(f) => rules.facilities[f.index()].id.clone(),
        };
        Value::map([("unit", Value::from(id)), ("count", Value::from(i64::from(n)))])
    }))
}

fn phase_event(kind: EventKind, round: u32, power: &str, phase: &crate::rules::Phase) -> Event {
    Event::new(kind)
        .with("round", i64::from(round))
        .with("power", power)
        .with("phase", phase.id.as_str())
        .with("phase_kind", format!("{:?}", phase.kind).as_str())
}

/// A table of the game view, which must be exactly what the Lua API catalogue documents
/// (`script::api::RECORDS`; checked in debug builds).
fn documented(record: &str, v: Value) -> Option<Value> {
    debug_assert!(
        crate::script::api::record(record).is_some_and(|r| r.admits(&v)),
        "the game view's {record} is not what script::api documents: {v:?}"
    );
    Some(v)
}

/// What scripts see of a state: the power acting and the phase it is in.
struct View<'a> {
    rules: &'a RuleSet,
    state: &'a State,
    power: PowerId,
    phase: crate::rules::PhaseId,
}

impl crate::script::GameView for View<'_> {
    fn round(&self) -> u32 {
        self.state.round
    }
    fn power(&self) -> &str {
        &self.rules.power_info(self.power).name
    }
    fn phase(&self) -> &str {
        &self.rules.phases[self.phase.index()].id
    }
    fn owner(&self, space: &str) -> Option<String> {
        let id = self.rules.board.find(space)?;
        self.state
            .space(id)
            .controller
            .map(|p| self.rules.power_info(p).name.clone())
    }
    fn treasury(&self, power: &str) -> Option<i64> {
        self.rules.power(power).map(|p| self.state.treasuries[p.index()])
    }
    fn start_owner(&self, space: &str) -> Option<String> {
        let id = self.rules.board.find(space)?;
        let held = *self.state.this_turn.start_control.get(id.index())?;
        held.map(|p| self.rules.power_info(p).name.clone())
    }
    fn each_unit(&self, space: &str) -> Vec<Value> {
        let Some(id) = self.rules.board.find(space) else {
            return Vec::new();
        };
        super::unit_facts::each_unit(self.rules, self.state, id)
            .into_iter()
            .filter_map(|v| documented("UnitInfo", v))
            .collect()
    }
    fn unit(&self, id: i64) -> Option<Value> {
        let id = u32::try_from(id).ok()?;
        documented(
            "UnitInfo",
            super::unit_facts::find_unit(self.rules, self.state, id)?,
        )
    }
    fn battles(&self) -> Vec<Value> {
        let t = &self.state.this_turn;
        let name = |s: crate::rules::SpaceId| Value::from(self.rules.board.space(s).name.clone());
        let mut out: Vec<Value> = t
            .raids
            .iter()
            .map(|(s, fought)| {
                Value::map([
                    ("space", name(*s)),
                    ("raid", Value::from(true)),
                    ("fought", Value::from(*fought)),
                    ("amphibious_from", Value::list(std::iter::empty::<Value>())),
                ])
            })
            .collect();
        out.extend(t.battles.iter().map(|b| {
            Value::map([
                ("space", name(b.space)),
                ("raid", Value::from(false)),
                ("fought", Value::from(b.fought)),
                (
                    "amphibious_from",
                    Value::list(b.amphibious_from.iter().map(|z| name(*z))),
                ),
            ])
        }));
        out.into_iter()
            .filter_map(|v| documented("BattleInfo", v))
            .collect()
    }
    fn start_units(&self, space: &str) -> Vec<(String, String, u32)> {
        let Some(id) = self.rules.board.find(space) else {
            return Vec::new();
        };
        let start = &self.state.this_turn.start_control.spaces;
        if start.is_empty() {
            return Vec::new();
        }
        stacks_of(self.rules, &start[id.index()].units)
    }
    fn units_of(&self, power: &str) -> Vec<(String, String, u32)> {
        let Some(p) = self.rules.power(power) else {
            return Vec::new();
        };
        let mut out: Vec<(String, String, u32)> = Vec::new();
        for (i, sp) in self.state.spaces.iter().enumerate() {
            let mut here: Vec<(String, String, u32)> = Vec::new();
            for u in sp.units.iter().filter(|u| u.owner == p) {
                let kind = &self.rules.unit(u.kind).id;
                match here.iter_mut().find(|(_, k, _)| k == kind) {
                    Some((_, _, n)) => *n += 1,
                    None => here.push((self.rules.board.spaces[i].name.clone(), kind.clone(), 1)),
                }
            }
            here.sort();
            out.extend(here);
        }
        out
    }
    fn relation(&self, a: &str, b: &str) -> Option<&'static str> {
        let (a, b) = (self.rules.power(a)?, self.rules.power(b)?);
        (a != b).then(|| self.state.relations[a.index()][b.index()].name())
    }
    fn spaces(&self) -> Vec<String> {
        self.rules
            .board
            .ids()
            .map(|id| self.rules.board.space(id).name.clone())
            .collect()
    }
    fn powers(&self) -> Vec<String> {
        self.rules.powers.iter().map(|p| p.name.clone()).collect()
    }
    fn space(&self, space: &str) -> Option<Value> {
        let id = self.rules.board.find(space)?;
        let sp = self.rules.board.space(id);
        let name = |p: Option<PowerId>| p.map_or(String::new(), |p| self.rules.power_info(p).name.clone());
        documented(
            "SpaceInfo",
            Value::map([
                ("name", Value::from(sp.name.clone())),
                ("sea", Value::from(sp.is_sea())),
                ("ipcs", Value::from(sp.ipc)),
                ("original_owner", Value::from(name(sp.owner))),
                ("owner", Value::from(name(self.state.space(id).controller))),
                ("capital", Value::from(sp.capital)),
                (
                    "victory_city",
                    Value::from(sp.victory_city.clone().unwrap_or_default()),
                ),
                ("island", Value::from(sp.island)),
                ("map", Value::from(sp.map.clone().unwrap_or_default())),
                ("neutral", Value::from(sp.neutral.is_some())),
                (
                    "tags",
                    Value::list(sp.tags.iter().map(|t| Value::from(t.clone()))),
                ),
                (
                    "leaning",
                    Value::from(match super::neutrals::standing(self.rules, self.state, id) {
                        None => String::new(),
                        Some(super::neutrals::Standing::Neutral { leaning }) => {
                            leaning.unwrap_or("strict").to_string()
                        }
                        Some(super::neutrals::Standing::Joined { side, .. }) => side.to_string(),
                    }),
                ),
                (
                    "attacked",
                    Value::from(matches!(
                        super::neutrals::standing(self.rules, self.state, id),
                        Some(super::neutrals::Standing::Joined { .. })
                    )),
                ),
                (
                    "adjacent",
                    Value::list(
                        sp.adjacent
                            .iter()
                            .map(|a| Value::from(self.rules.board.space(*a).name.clone())),
                    ),
                ),
                (
                    "neutral_kind",
                    Value::from(match sp.neutral {
                        None => "",
                        Some(crate::rules::NeutralKind::ProAxis) => "pro_axis",
                        Some(crate::rules::NeutralKind::ProAllies) => "pro_allies",
                        Some(crate::rules::NeutralKind::Strict) => "strict",
                        Some(crate::rules::NeutralKind::Impassable) => "impassable",
                    }),
                ),
                (
                    "facilities",
                    Value::list(
                        self.state
                            .space(id)
                            .facilities
                            .iter()
                            .map(|f| Value::from(self.rules.facilities[f.kind.index()].id.clone())),
                    ),
                ),
            ]),
        )
    }
    fn power_info(&self, power: &str) -> Option<Value> {
        let p = self.rules.power(power)?;
        let info = self.rules.power_info(p);
        documented(
            "PowerInfo",
            Value::map([
                ("name", Value::from(info.name.clone())),
                ("side", Value::from(info.side.clone())),
                ("ipcs", Value::from(self.state.treasuries[p.index()])),
                (
                    "techs",
                    Value::list(
                        self.state.techs[p.index()]
                            .iter()
                            .map(|t| Value::from(self.rules.techs[t.index()].id.clone())),
                    ),
                ),
                (
                    "counters",
                    Value::map(info.counters.iter().map(|(n, v)| (n.clone(), Value::from(*v)))),
                ),
                (
                    "economy_of",
                    Value::from(
                        info.economy_of
                            .map_or(String::new(), |h| self.rules.power_info(h).name.clone()),
                    ),
                ),
            ]),
        )
    }
    fn unit_type(&self, unit: &str) -> Option<Value> {
        let u = self.rules.unit(self.rules.unit_type(unit)?);
        documented(
            "UnitTypeInfo",
            Value::map([
                ("id", Value::from(u.id.clone())),
                ("name", Value::from(u.name.clone())),
                ("domain", Value::from(u.domain.name())),
                ("tags", Value::list(u.tags.iter().map(|t| Value::from(t.clone())))),
                ("cost", Value::from(u.cost)),
                ("attack", Value::from(u.attack)),
                ("defense", Value::from(u.defense)),
                ("movement", Value::from(u.movement)),
                ("can_capture", Value::from(u.can_capture)),
            ]),
        )
    }
    fn units(&self, space: &str) -> Vec<(String, String, u32)> {
        let Some(id) = self.rules.board.find(space) else {
            return Vec::new();
        };
        stacks_of(self.rules, &self.state.space(id).units)
    }
}

/// Units as `(owner, unit type id, count)`, sorted.
fn stacks_of(rules: &RuleSet, units: &[super::state::Unit]) -> Vec<(String, String, u32)> {
    let mut out: Vec<(String, String, u32)> = Vec::new();
    for u in units {
        let owner = &rules.power_info(u.owner).name;
        let kind = &rules.unit(u.kind).id;
        match out.iter_mut().find(|(o, k, _)| o == owner && k == kind) {
            Some((_, _, n)) => *n += 1,
            None => out.push((owner.clone(), kind.clone(), 1)),
        }
    }
    out.sort();
    out
}

/// A battle event's `combatants`: every unit's facts, worked out only when a handler reads
/// them (most handlers look at the step and the round).
struct Combatants<'b> {
    rules: &'b RuleSet,
    state: &'b State,
    battle: &'b Battle,
}

impl LazyFields for Combatants<'_> {
    fn names(&self) -> &'static [&'static str] {
        &["combatants"]
    }
    fn build(&self, _: usize) -> Value {
        super::unit_facts::combatants(self.rules, self.state, self.battle)
    }
}

/// Fires the combat events while a battle is fought: `before_combat_step` (a veto skips the
/// step), `after_combat_step` and `casualties`. Scripts see the board as the command found it,
/// and the battle through the payload.
pub struct CombatEvents<'a> {
    hooks: &'a mut Hooks,
    rules: &'a RuleSet,
    state: &'a State,
    power: PowerId,
    phase: crate::rules::PhaseId,
    /// A script failed: the command fails with this.
    pub error: Option<Rejection>,
    /// Lines scripts logged, and skipped steps.
    pub log: Vec<String>,
    /// `combat_value` requests of the last `before_combat_step`.
    changes: Vec<ValueChange>,
    /// `hits` and `fire` requests of the last `before_combat_step` of a script step.
    actions: Vec<ScriptAction>,
    /// The step being announced is a script step (where `hits` and `fire` may be asked).
    script_step: bool,
    /// `combat_value` requests naming units, of the last `before_combat_step`.
    unit_values: Vec<UnitValue>,
    /// `end_battle` asked in the last `before_combat_step`: the handler, and the log line.
    end: Option<String>,
    /// `remove_units` naming units, in the last `before_combat_step`.
    removals: Vec<u32>,
    /// The units of the battle being fought and their sides (what `combat_value` may name).
    fighting: Vec<(u32, Side)>,
    /// The last step's event, and the battle it is for (space, attacker, defenders), kept for
    /// the next step (`step_event`).
    step_ev: Option<Event>,
    step_key: Option<(crate::rules::SpaceId, PowerId, Vec<PowerId>)>,
    /// Room for the defenders of the step being announced.
    defenders: Vec<PowerId>,
    /// `mark` and `clear_mark` requests (handler id, request): applied to the board once the
    /// command fighting the battle has run.
    pub tag_requests: Vec<(String, Value)>,
}

impl<'a> CombatEvents<'a> {
    pub fn new(
        hooks: &'a mut Hooks,
        rules: &'a RuleSet,
        state: &'a State,
        at: crate::rules::TurnStep,
    ) -> Self {
        CombatEvents {
            hooks,
            rules,
            state,
            power: at.power,
            phase: at.phase,
            error: None,
            log: Vec::new(),
            changes: Vec::new(),
            actions: Vec::new(),
            script_step: false,
            unit_values: Vec::new(),
            end: None,
            removals: Vec::new(),
            fighting: Vec::new(),
            step_ev: None,
            step_key: None,
            defenders: Vec::new(),
            tag_requests: Vec::new(),
        }
    }

    /// Apply the tags asked for in battles to the state the command built. Units destroyed
    /// since they were named are passed over (a unit lost in the battle keeps no tag).
    pub fn apply_tags(&mut self, next: &mut State) -> Result<Vec<String>, Rejection> {
        let mut lines = Vec::new();
        for (by, mut cmd) in std::mem::take(&mut self.tag_requests) {
            if let Value::Map(m) = &mut cmd {
                if let Some(Value::List(ids)) = m.get_mut("units") {
                    ids.retain(|id| {
                        id.as_int().is_some_and(|id| {
                            next.spaces
                                .iter()
                                .any(|sp| sp.units.iter().any(|u| i64::from(u.id) == id))
                        })
                    });
                    if ids.is_empty() {
                        continue;
                    }
                }
            }
            let line = apply_request(self.rules, next, &cmd, EventKind::BattleEnd, &by)
                .map_err(|why| Rejection::new(format!("handler `{by}`: {why}")).by(by.clone()))?;
            lines.push(format!("[{by}] {line}"));
        }
        Ok(lines)
    }

    /// The payload of `before_combat_step` and `after_combat_step`. Steps follow one another
    /// in the same battle, so the last one's event is kept (`put_back`) and only the round and
    /// the step changed in it.
    fn step_event(&mut self, kind: EventKind, b: &Battle, step: Step) -> Event {
        let mut defenders = std::mem::take(&mut self.defenders);
        b.powers_into(Side::Defender, false, &mut defenders);
        let name = self.rules.combat.step_name(step);
        let same = self.step_key.as_ref().is_some_and(|(space, attacker, d)| {
            (*space, *attacker) == (b.space, b.attacker) && *d == defenders
        });
        self.defenders = defenders;
        if same {
            if let Some(mut ev) = self.step_ev.take() {
                ev.kind = kind;
                if let Some(Value::Int(r)) = ev.payload.get_mut("combat_round") {
                    *r = i64::from(b.round);
                }
                if let Some(Value::Str(s)) = ev.payload.get_mut("step") {
                    s.clear();
                    s.push_str(name);
                }
                return ev;
            }
        }
        let ev = Event::new(kind)
            .with("space", self.rules.board.space(b.space).name.as_str())
            .with("attacker", self.rules.power_info(b.attacker).name.as_str())
            .with(
                "defenders",
                Value::list(
                    self.defenders
                        .iter()
                        .map(|p| Value::from(self.rules.power_info(*p).name.clone())),
                ),
            )
            .with("combat_round", i64::from(b.round))
            .with("step", name);
        self.step_key = Some((b.space, b.attacker, self.defenders.clone()));
        ev
    }

    /// Keeps a step's event for the next step (`step_event`).
    fn put_back(&mut self, ev: Event) {
        self.step_ev = Some(ev);
    }

    fn end_event(&self, b: &Battle, o: crate::combat::Outcome) -> Event {
        use crate::combat::Outcome::*;
        let defenders = b.powers(Side::Defender, false);
        let outcome = match o {
            AttackerWon => "attacker_won",
            DefenderWon => "defender_won",
            BothDestroyed => "both_destroyed",
            Stalemate => "stalemate",
            Retreated => "retreated",
            Ended => "ended",
        };
        Event::new(EventKind::BattleEnd)
            .with("space", self.rules.board.space(b.space).name.as_str())
            .with("attacker", self.rules.power_info(b.attacker).name.as_str())
            .with(
                "defenders",
                Value::list(
                    defenders
                        .iter()
                        .map(|p| Value::from(self.rules.power_info(*p).name.clone())),
                ),
            )
            .with("combat_round", i64::from(b.round))
            .with("outcome", outcome)
    }

    /// A battle event's `combatants`, for [`fire`](Self::fire).
    fn combatants<'b>(&self, b: &'b Battle) -> Combatants<'b>
    where
        'a: 'b,
    {
        Combatants {
            rules: self.rules,
            state: self.state,
            battle: b,
        }
    }

    /// Dispatch; `None` after an error (remembered) or a request (not supported yet).
    fn fire(&mut self, ev: &Event, lazy: &dyn LazyFields) -> Option<Outcome> {
        if self.error.is_some() {
            return None;
        }
        let view = View {
            rules: self.rules,
            state: self.state,
            power: self.power,
            phase: self.phase,
        };
        match self.hooks.host.dispatch_with(ev, lazy, &view) {
            Ok(d) => {
                for l in &d.log {
                    self.log.push(format!(
                        "[{}] {}",
                        l.handler.as_deref().unwrap_or(&l.layer),
                        l.message
                    ));
                }
                let before = ev.kind == EventKind::BeforeCombatStep;
                for r in &d.requests {
                    let asked = self.request(&r.command, before, &r.by);
                    if let Err(why) = asked {
                        self.error =
                            Some(Rejection::new(format!("handler `{}`: {why}", r.by)).by(r.by.clone()));
                        return None;
                    }
                }
                Some(d.outcome)
            }
            Err(e) => {
                self.error = Some(
                    Rejection::new(format!("a rule script failed: {e}"))
                        .by(e.handler.clone().unwrap_or_default()),
                );
                None
            }
        }
    }
}

impl CombatEvents<'_> {
    /// A script's request during a battle: `combat_value` and `end_battle` in any
    /// `before_combat_step`; `hits` and `fire` in the `before_combat_step` of a script step;
    /// `mark` and `clear_mark` in every battle event (applied after the command).
    fn request(&mut self, cmd: &Value, before: bool, by: &str) -> Result<(), String> {
        let what = cmd.get("command").and_then(Value::as_str).unwrap_or("");
        if let Some(doc) = crate::script::api::request(what) {
            doc.check_fields(cmd)?;
        }
        if super::requests::TAG_REQUESTS.contains(&what) {
            match cmd.get("units") {
                None => {}
                Some(Value::List(ids)) if ids.iter().all(|id| id.as_int().is_some()) => {}
                Some(other) => return Err(format!("{what}: units holds {other:?}, not a list of unit ids")),
            }
            self.tag_requests.push((by.to_string(), cmd.clone()));
            return Ok(());
        }
        if what == "remove_units" && before {
            if let Some(extra) = ["power", "unit", "count", "space"]
                .iter()
                .find(|f| cmd.get(f).is_some())
            {
                return Err(format!(
                    "remove_units in a battle takes units = {{ids}}, not `{extra}`"
                ));
            }
            let ids = self.battle_units(cmd, what, None)?;
            self.removals.extend(ids);
            return Ok(());
        }
        let known = ["combat_value", "hits", "fire", "end_battle"];
        if !before || !known.contains(&what) {
            return Err(format!(
                "asked for a command ({cmd:?}); in battles scripts may ask only for {}, in before_combat_step (and `mark`, `clear_mark` in any battle event)",
                "`combat_value`, `end_battle`, `remove_units` (naming units), and `hits` or `fire` in a script step"
            ));
        }
        if what == "end_battle" {
            let reason = match cmd.get("reason") {
                None => String::new(),
                Some(Value::Str(r)) if !r.is_empty() => format!(": {r}"),
                Some(_) => return Err("end_battle: reason must be a non-empty string".into()),
            };
            self.end = Some(format!("[{by}] the battle ends{reason}"));
            return Ok(());
        }
        if what != "combat_value" && !self.script_step {
            return Err(format!(
                "`{what}` is for steps of a script's own (declared in `[combat] script_steps`); use a veto or `combat_value` in the engine's steps"
            ));
        }
        self.value_request(cmd, what)
    }

    /// `units = {ids}` of a request asked in a battle: 1 to 99 units of the battle (of `side`,
    /// when given).
    fn battle_units(&self, cmd: &Value, what: &str, side: Option<Side>) -> Result<Vec<u32>, String> {
        let Some(Value::List(ids)) = cmd.get("units") else {
            return Err(format!(
                "{what} in a battle needs units = a list of unit ids (units of the battle)"
            ));
        };
        if ids.is_empty() || ids.len() > 99 {
            return Err(format!("{what} needs units = a list of 1 to 99 unit ids"));
        }
        ids.iter()
            .map(|id| {
                let id = id.as_int().unwrap_or(-1);
                match self.fighting.iter().find(|(u, _)| i64::from(*u) == id) {
                    Some((u, sd)) if side.is_none_or(|s| s == *sd) => Ok(*u),
                    _ => Err(match side {
                        Some(sd) => format!(
                            "{what}: unit #{id} is not among the {}s of this battle",
                            sd.name()
                        ),
                        None => format!("{what}: unit #{id} is not in this battle"),
                    }),
                }
            })
            .collect()
    }

    /// `combat_value`, `fire` and `hits`: what units fire at, or what a script step does.
    fn value_request(&mut self, cmd: &Value, what: &str) -> Result<(), String> {
        let side = match cmd.get("side").and_then(Value::as_str) {
            Some("attacker") => Side::Attacker,
            Some("defender") => Side::Defender,
            _ => return Err(format!("{what} needs side = \"attacker\" or \"defender\"")),
        };
        let value = |field: &str| match cmd.get(field).and_then(Value::as_int) {
            Some(v @ 0..=6) => Ok(v as u8),
            _ => Err(format!("{what} needs {field} = a whole number from 0 to 6")),
        };
        let kind = || {
            cmd.get("unit")
                .and_then(Value::as_str)
                .and_then(|u| self.rules.unit_type(u))
                .ok_or_else(|| format!("{what} needs unit = a unit type id of this edition"))
        };
        match what {
            "combat_value" if cmd.get("units").is_some() => {
                let value = value("value")?;
                if cmd.get("unit").is_some() {
                    return Err("combat_value takes unit = TYPE or units = {ids}, not both".into());
                }
                let round_only = match cmd.get("lasts").and_then(Value::as_str) {
                    None | Some("battle") => false,
                    Some("round") => true,
                    _ => return Err("combat_value: lasts is \"battle\" or \"round\"".into()),
                };
                for id in self.battle_units(cmd, what, Some(side))? {
                    self.unit_values.push(UnitValue {
                        id,
                        value,
                        round_only,
                    });
                }
            }
            "combat_value" => {
                if cmd.get("lasts").is_some_and(|u| u.as_str() != Some("battle")) {
                    return Err("combat_value: lasts = \"round\" is for single units (units = {ids})".into());
                }
                let (kind, value) = (kind()?, value("value")?);
                self.changes.push(ValueChange { side, kind, value });
            }
            "fire" => {
                let (kind, value) = (kind()?, value("value")?);
                match cmd.get("dice") {
                    None => self.actions.push(ScriptAction::Fire { side, kind, value }),
                    Some(d) => match d.as_int() {
                        Some(n @ 1..=20) => self.actions.push(ScriptAction::Strike {
                            side,
                            kind,
                            value,
                            dice: n as u8,
                        }),
                        _ => return Err("fire: dice is a whole number from 1 to 20".into()),
                    },
                }
            }
            _ => {
                let count = match cmd.get("count").and_then(Value::as_int) {
                    Some(n @ 1..=99) => n as u32,
                    _ => return Err("hits needs count = a whole number from 1 to 99".into()),
                };
                self.actions.push(ScriptAction::Hits { side, count });
            }
        }
        Ok(())
    }
}

impl Observer for CombatEvents<'_> {
    // Only casualties reach scripts; rolls are not an event.
    fn listens(&self) -> bool {
        self.hooks.host.listens(EventKind::Casualties)
    }

    fn changes(&mut self) -> Vec<ValueChange> {
        std::mem::take(&mut self.changes)
    }

    fn actions(&mut self) -> Vec<ScriptAction> {
        std::mem::take(&mut self.actions)
    }

    fn unit_values(&mut self) -> Vec<UnitValue> {
        std::mem::take(&mut self.unit_values)
    }

    fn removals(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.removals)
    }

    fn before_step(&mut self, b: &Battle, step: Step) -> Gate {
        if self.error.is_some() {
            return Gate::Abort;
        }
        if !self.hooks.host.listens(EventKind::BeforeCombatStep) {
            return Gate::Run;
        }
        self.script_step = matches!(step, Step::Script(_));
        self.actions.clear();
        self.unit_values.clear();
        self.removals.clear();
        self.end = None;
        self.fighting.clear();
        self.fighting.extend(b.units.iter().map(|c| (c.id, c.side)));
        let ev = self.step_event(EventKind::BeforeCombatStep, b, step);
        let outcome = self.fire(&ev, &self.combatants(b));
        self.put_back(ev);
        if let (Some(Outcome::Continue | Outcome::Handled { .. }), Some(line)) = (&outcome, self.end.take()) {
            self.actions.clear();
            self.changes.clear();
            self.unit_values.clear();
            self.removals.clear();
            self.log.push(line);
            return Gate::End;
        }
        match outcome {
            None => Gate::Abort,
            Some(Outcome::Veto { by, reason }) => {
                self.actions.clear();
                self.changes.clear();
                self.unit_values.clear();
                self.removals.clear();
                self.log.push(format!(
                    "{}: {reason} [{by}]",
                    self.rules.combat.step_name(step).replace('_', " ")
                ));
                Gate::Skip
            }
            Some(_) => Gate::Run,
        }
    }

    fn after_step(&mut self, b: &Battle, step: Step) {
        if self.hooks.host.listens(EventKind::AfterCombatStep) {
            let ev = self.step_event(EventKind::AfterCombatStep, b, step);
            self.fire(&ev, &self.combatants(b));
            self.put_back(ev);
        }
    }

    fn report(&mut self, b: &Battle, r: &Report) {
        if let Report::Over(o) = r {
            if self.hooks.host.listens(EventKind::BattleEnd) {
                let ev = self.end_event(b, *o);
                self.fire(&ev, &self.combatants(b));
            }
            return;
        }
        let Report::Casualties { side, units, .. } = r else {
            return;
        };
        if !self.hooks.host.listens(EventKind::Casualties) {
            return;
        }
        let mut owners: Vec<PowerId> = units.iter().map(|&i| b.units[i].owner).collect();
        owners.sort();
        owners.dedup();
        for owner in owners {
            let mine: Vec<usize> = units
                .iter()
                .copied()
                .filter(|&i| b.units[i].owner == owner)
                .collect();
            let mut groups: Vec<(Piece, u32)> = Vec::new();
            for &i in &mine {
                let k = Piece::Unit(b.units[i].kind);
                match groups.iter_mut().find(|(p, _)| *p == k) {
                    Some((_, n)) => *n += 1,
                    None => groups.push((k, 1)),
                }
            }
            let ev = Event::new(EventKind::Casualties)
                .with("space", self.rules.board.space(b.space).name.as_str())
                .with("power", self.rules.power_info(owner).name.as_str())
                .with("side", side.name())
                .with("hits", mine.len() as i64)
                .with("units", unit_list(self.rules, groups));
            self.fire(&ev, &crate::script::Eager);
        }
    }
}

/// A battle's rule scripts, for the calculator (`odds`): the `before_combat_step` handlers
/// that can change a battle, and what they see when a simulated battle asks them.
///
/// A simulated battle asks its handlers at the points a real one does (before and after each
/// step, casualties), through `CombatEvents`, the observer of real play. What a handler sees:
/// the step's payload as in play (space, attacker, defenders, combat round, step), and `game`
/// as the board stood when the odds were asked (`odds SPACE`: the game now; a battle from unit
/// lists, `warroom odds`: the edition's default scenario as it starts, the battle in the
/// board's first space between its first two powers), with the scripts' stores as they were
/// then. Every simulated battle starts from those stores, whatever an earlier one wrote.
pub struct BattleScripts {
    rules: Arc<RuleSet>,
    state: State,
    at: TurnStep,
    store: Value,
    /// The `before_combat_step` handlers, in dispatch order.
    pub handlers: Vec<HandlerInfo>,
    /// Handlers that hear what happens in a battle (`casualties`, `after_combat_step`): they
    /// cannot change it, but may carry what they heard into the store the others read.
    pub watchers: Vec<HandlerInfo>,
}

impl std::fmt::Debug for BattleScripts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BattleScripts")
            .field("handlers", &self.handlers)
            .finish()
    }
}

impl BattleScripts {
    /// `None` when no handler can change a battle: `after_combat_step` and `casualties`
    /// handlers only watch (a request there fails the battle, in play as here).
    fn of(rules: &Arc<RuleSet>, hooks: &Hooks, state: &State, at: TurnStep) -> Option<BattleScripts> {
        // Only handlers a battle's steps can reach (not one for a bombing raid's damage).
        let c = &rules.combat;
        let steps: Vec<Value> = c
            .first_round
            .iter()
            .chain(&c.round)
            .map(|s| Value::from(c.step_name(*s)))
            .collect();
        let handlers = hooks
            .host
            .handlers_for(EventKind::BeforeCombatStep, "step", &steps);
        if handlers.is_empty() {
            return None;
        }
        let mut watchers = hooks.host.handlers(EventKind::Casualties);
        watchers.extend(hooks.host.handlers(EventKind::BattleEnd));
        watchers.extend(hooks.host.handlers(EventKind::AfterCombatStep));
        Some(BattleScripts {
            rules: rules.clone(),
            state: state.clone(),
            at,
            store: hooks.store(),
            handlers,
            watchers,
        })
    }

    /// Put the units of a battle from unit lists on the scripts' board, in the battle's space:
    /// what they did and carry (`"2 tank [blitzed]"`) is then what the scripts read of them.
    pub fn place_battle(&mut self, space: crate::rules::SpaceId, units: Vec<super::state::Unit>) {
        self.state.space_mut(space).units = units;
    }

    /// The scripts of a battle from unit lists: the edition's default scenario as it starts.
    pub fn at_start(rules: &Arc<RuleSet>) -> Result<Option<BattleScripts>, String> {
        if rules.scripts.is_empty() {
            return Ok(None);
        }
        let game = super::Game::new(rules.clone(), "odds", &[], None, 0)
            .map_err(|e| format!("the rule scripts could not be started for the calculator: {e}"))?;
        Ok(game.battle_scripts())
    }

    /// `handler `id` in file:line`, one per handler that can change the battle.
    pub fn named(&self) -> Vec<String> {
        self.handlers.iter().map(name).collect()
    }

    /// Why the chain cannot ask the handlers once per round and step, if it cannot: a
    /// handler hearing casualties or the end of steps may keep what it heard for the others.
    /// `None`: the handlers see only the round and the step, the same for every state of the
    /// chain.
    pub fn chain_why_not(&self) -> Option<String> {
        if self.watchers.is_empty() {
            return None;
        }
        let watchers: Vec<String> = self.watchers.iter().map(name).collect();
        Some(format!(
            "rule scripts change this battle ({}) and {} may carry what it hears into them, so every battle is fought through the battle code with the scripts",
            self.named().join(", "),
            watchers.join(", ")
        ))
    }

    /// A Lua host of its own (one per thread of the calculator), loaded with the rule set's
    /// scripts and the stores the handlers see.
    pub(crate) fn host(&self) -> Result<BattleHost<'_>, String> {
        let mut hooks = Hooks::for_rules(&self.rules)
            .map_err(|e| format!("the rule scripts could not be loaded: {e}"))?
            .ok_or("the rule set has no scripts any more")?;
        hooks
            .restore_store(&self.store)
            .map_err(|e| format!("the rule scripts' stores could not be restored: {e}"))?;
        Ok(BattleHost {
            scripts: self,
            hooks,
            wrote_store: false,
        })
    }
}

fn name(h: &HandlerInfo) -> String {
    match h.line {
        Some(l) => format!("handler `{}` in {}:{l}", h.id, h.file),
        None => format!("handler `{}` in {}", h.id, h.file),
    }
}

/// A Lua host fighting simulated battles under a rule set's scripts.
pub(crate) struct BattleHost<'s> {
    scripts: &'s BattleScripts,
    hooks: Hooks,
    /// A handler wrote the store during a battle.
    wrote_store: bool,
}

impl BattleHost<'_> {
    /// One battle, fought by `f` with the observer of real play; `Err` when a script failed
    /// (the battle was aborted).
    pub(crate) fn fight<T>(&mut self, f: impl FnOnce(&mut dyn Observer) -> T) -> Result<T, String> {
        let s = self.scripts;
        let mut events = CombatEvents::new(&mut self.hooks, &s.rules, &s.state, s.at);
        let out = f(&mut events);
        if let Some(e) = events.error.take() {
            return Err(e.to_string());
        }
        // Battles are independent: what a handler stored in this one is gone in the next.
        if self.hooks.store() != s.store {
            self.wrote_store = true;
            self.hooks
                .restore_store(&s.store)
                .map_err(|e| format!("the rule scripts' stores could not be restored: {e}"))?;
        }
        Ok(out)
    }

    /// Whether a handler has written the store during a battle so far.
    pub(crate) fn wrote_store(&self) -> bool {
        self.wrote_store
    }
}

impl super::Game {
    /// The scripts a battle fought now would run, for the calculator; `None` when none can
    /// change a battle.
    pub fn battle_scripts(&self) -> Option<BattleScripts> {
        let hooks = self.scripts.as_ref()?;
        let at = super::step(&self.rules, self.scenario(), &self.state);
        BattleScripts::of(&self.rules, hooks, &self.state, at)
    }
}
