//! Legal actions: the commands the power to act may give now, as typed commands.
//!
//! The list is built in two stages. `candidates` proposes, cheaply and generously, every
//! command of the small canonical kinds a player gives (one unit bought, one unit moved to
//! one space, one unit placed, each battle answer, `end phase`, ...); `Game::legal_actions`
//! keeps those `Game::dry_run` accepts. The rules are therefore asked in one place only —
//! the code that applies commands — and the list cannot disagree with it: every action listed
//! is accepted. The other direction (every single-unit command accepted is listed) rests on
//! the candidates being a superset, which `core/tests/legal_actions.rs` checks on random
//! positions of every edition.
//!
//! Not listed: commands outside the rules (`edit`), the table's settings (`dice`, `order`), and
//! moves given with an explicit `via` path (the engine's own path choice stands for them).

use super::command::{Command, Move, Pick};
use super::movement;
use super::state::{Relation, State};
use super::Game;
use crate::combat::{Need, Side, Status};
use crate::rules::{Domain, PhaseKind, Piece, PowerId, RuleSet, SpaceId, UnitTypeId};
use std::collections::VecDeque;

/// At most this many casualty choices are proposed for one call (beyond the suggested one):
/// the number of ways to split many hits among many types grows fast, and a player's real
/// choices are among the first few types anyway.
const CASUALTY_CHOICES: usize = 48;

impl Game {
    /// Every command the power to act may give now, of the canonical kinds: each affordable
    /// purchase of one unit type, each move of one unit (with the partner or cargo it must
    /// travel with) to each space it can reach in this phase, each placement of one unit per
    /// space, each battle decision, research, repairs, declarations, the choice of turn order,
    /// `undo` and `end phase`. Each is accepted by `apply`.
    pub fn legal_actions(&mut self) -> Vec<Command> {
        let candidates = self.candidate_actions();
        let explain = std::mem::replace(&mut self.explain, false);
        let legal = candidates
            .into_iter()
            .filter(|c| self.dry_run(c).is_ok())
            .collect();
        self.explain = explain;
        legal
    }

    /// The legal actions' candidates: every command of the canonical kinds that might be
    /// accepted now (a superset of the legal actions, cheap to build; `apply` or `dry_run`
    /// decides). The random-game driver draws from these and tries them.
    pub fn candidate_actions(&self) -> Vec<Command> {
        self.candidates(Moves::All)
    }

    /// [`Game::candidate_actions`] without the moves: a caller that proposes moves one space
    /// at a time ([`Game::candidate_moves_from`]) need not build them all for every command.
    pub fn candidate_actions_but_moves(&self) -> Vec<Command> {
        self.candidates(Moves::None)
    }

    /// The move candidates of [`Game::candidate_actions`] whose units start in `from`.
    pub fn candidate_moves_from(&self, from: SpaceId) -> Vec<Command> {
        self.candidate_moves(from, None)
    }

    /// The move candidates of [`Game::candidate_moves_from`] led by units of one type (with
    /// the partners they may take along): a random player picks a stack and a type, and then
    /// only that type's moves are built.
    pub fn candidate_moves_of(&self, from: SpaceId, unit: UnitTypeId) -> Vec<Command> {
        self.candidate_moves(from, Some(unit))
    }

    fn candidate_moves(&self, from: SpaceId, unit: Option<UnitTypeId>) -> Vec<Command> {
        let kind = self.current_phase().kind;
        let mut out = Vec::new();
        if self.state.winner.is_none()
            && self.state.combat.is_none()
            && self.state.questions.0.is_empty()
            && matches!(kind, PhaseKind::CombatMove | PhaseKind::NoncombatMove)
        {
            moves_from(
                &self.rules,
                &self.state,
                self.current_power(),
                kind == PhaseKind::CombatMove,
                from,
                unit,
                &mut out,
            );
        }
        out
    }

    fn candidates(&self, which: Moves) -> Vec<Command> {
        let rules = self.rules.clone();
        let s = &self.state;
        let mut out = Vec::new();
        if s.winner.is_some() {
            return out;
        }
        let power = self.current_power();
        // A question waits: its answers (and `undo`) are all that may be given.
        if let Some(q) = s.questions.0.first() {
            out.extend(q.answers.iter().map(|a| Command::Answer(a.clone())));
            if !self.undo.is_empty() {
                out.push(Command::Undo);
            }
            return out;
        }
        if let Some(b) = &s.combat {
            battle_answers(&rules, s, b, &mut out);
            return out;
        }
        let phase = super::step(&rules, self.scenario(), s).phase;
        let kind = rules.phases[phase.index()].kind;
        for (i, _) in rules.powers.iter().enumerate() {
            let other = PowerId(i as u8);
            if s.relations[power.index()][other.index()] == Relation::Peace {
                out.push(Command::DeclareWar(other));
            }
        }
        for (_, other) in self.open_choices() {
            out.push(Command::PlayFirst(other));
        }
        match kind {
            PhaseKind::Purchase | PhaseKind::Research => {
                purchases(&rules, s, power, &mut out);
                research(&rules, s, power, &mut out);
            }
            PhaseKind::CombatMove | PhaseKind::NoncombatMove if which == Moves::All => {
                moves(&rules, s, power, kind == PhaseKind::CombatMove, None, &mut out);
            }
            PhaseKind::CombatMove | PhaseKind::NoncombatMove => {}
            PhaseKind::ConductCombat => {
                let mut fights: Vec<SpaceId> = s
                    .this_turn
                    .battles
                    .iter()
                    .filter(|b| !b.fought)
                    .map(|b| b.space)
                    .chain(s.this_turn.raids.iter().filter(|r| !r.1).map(|r| r.0))
                    .collect();
                fights.sort();
                fights.dedup();
                // Assaults with ships to bombard them: none of them, or one of each kind.
                for &sp in &fights {
                    let kinds = super::bombardment::bombard_kinds(&rules, s, power, sp);
                    if !kinds.is_empty() {
                        out.push(Command::FightBombarding {
                            space: sp,
                            ships: Vec::new(),
                        });
                        out.extend(kinds.into_iter().map(|k| Command::FightBombarding {
                            space: sp,
                            ships: vec![(k, 1)],
                        }));
                    }
                }
                out.extend(fights.into_iter().map(|sp| Command::Fight(Some(sp))));
                scrambles(&rules, s, power, &mut out);
                out.extend(super::intercept::candidates(&rules, s, power).into_iter().map(
                    |(unit, space)| Command::Intercept {
                        count: 1,
                        unit,
                        space,
                    },
                ));
                rockets(&rules, s, power, &mut out);
            }
            PhaseKind::Mobilize => placements(&rules, s, power, &mut out),
            PhaseKind::CollectIncome | PhaseKind::Script => {}
        }
        // Passage through a canal held by a power at peace (the rules judge the rest).
        if matches!(kind, PhaseKind::CombatMove | PhaseKind::NoncombatMove) {
            for (i, c) in rules.board.canals.iter().enumerate() {
                let peace_held = c.controlled_by.iter().any(|t| {
                    s.this_turn.start_control[t.index()]
                        .is_some_and(|h| s.relations[power.index()][h.index()] == Relation::Peace)
                });
                if peace_held && !s.this_turn.passages.0.contains(&c.name) {
                    out.push(Command::AskPassage(i));
                }
            }
        }
        // Layers' commands of this phase, with each value of their arguments (the scripts
        // judge them: `legal_actions` keeps those `dry_run` accepts).
        out.extend(
            super::layer_commands::candidates(&rules, phase)
                .into_iter()
                .map(Command::Layer),
        );
        if s.manual_dice {
            out.extend((1..=6).map(|f| Command::Roll(vec![f])));
        }
        if !self.undo.is_empty() {
            out.push(Command::Undo);
        }
        out.push(Command::EndPhase);
        out
    }
}

/// One air unit scrambled from each air-base territory to each sea zone next to it, while the
/// defenders may still scramble (the rules judge the rest).
fn scrambles(rules: &RuleSet, s: &State, power: PowerId, out: &mut Vec<Command>) {
    if !super::scramble::open(rules, s, PhaseKind::ConductCombat) {
        return;
    }
    for t in rules.board.ids() {
        let sp = s.space(t);
        if !sp
            .facilities
            .iter()
            .any(|f| rules.facilities[f.kind.index()].scramble_limit > 0)
        {
            continue;
        }
        // Each type, and each owner's where several powers' stand there.
        let mut kinds: Vec<(UnitTypeId, PowerId)> = sp
            .units
            .iter()
            .filter(|u| {
                rules.unit(u.kind).scramble && s.relations[power.index()][u.owner.index()] == Relation::War
            })
            .map(|u| (u.kind, u.owner))
            .collect();
        kinds.sort();
        kinds.dedup();
        let mixed = |k: UnitTypeId| kinds.iter().filter(|(x, _)| *x == k).count() > 1;
        for &(kind, owner) in &kinds {
            for &z in &rules.board.space(t).adjacent {
                if rules.board.space(z).is_sea() {
                    out.push(Command::Scramble {
                        count: 1,
                        unit: kind,
                        owner: mixed(kind).then_some(owner),
                        from: t,
                        to: z,
                    });
                }
            }
        }
    }
}

/// Which moves a candidate list holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moves {
    All,
    None,
}

/// One of each piece the power might buy (for each of its economies), research tokens, and
/// repairs.
fn purchases(rules: &RuleSet, s: &State, power: PowerId, out: &mut Vec<Command>) {
    for payer in rules.economies(power) {
        if super::economy::payer(rules, s, power, Some(payer)).is_err() {
            continue;
        }
        let economy = (payer != power).then_some(payer);
        let have = s.treasuries[payer.index()];
        for (i, _) in rules.units.iter().enumerate() {
            let u = UnitTypeId(i as u16);
            let cost = rules.unit_for(u, &s.techs[power.index()]).cost;
            if i64::from(cost) <= have {
                out.push(Command::Buy {
                    piece: Piece::Unit(u),
                    count: 1,
                    economy,
                });
            }
        }
        for (i, f) in rules.facilities.iter().enumerate() {
            if f.cost.is_some_and(|c| i64::from(c) <= have) {
                out.push(Command::Buy {
                    piece: Piece::Facility(crate::rules::FacilityTypeId(i as u16)),
                    count: 1,
                    economy,
                });
            }
        }
    }
    for (i, sp) in s.spaces.iter().enumerate() {
        if sp.controller.is_some_and(|c| rules.same_power(c, power)) {
            for f in sp.facilities.iter().filter(|f| f.damage > 0) {
                out.push(Command::Repair {
                    count: 1,
                    space: Some(SpaceId(i as u16)),
                    facility: Some(f.kind),
                });
            }
        }
    }
}

/// Research tokens (one at a time) and, after a breakthrough, each chart.
fn research(rules: &RuleSet, s: &State, power: PowerId, out: &mut Vec<Command>) {
    let Some(r) = &rules.research else { return };
    if s.breakthrough_pending {
        out.extend((1..=r.charts.len()).map(Command::Breakthrough));
        return;
    }
    // A second economy of the power may pay for a token (`research 1 for ECONOMY`).
    for e in rules.economies(power).into_iter().skip(1) {
        if i64::from(r.token_cost) <= s.treasuries[e.index()]
            && super::economy::payer(rules, s, power, Some(e)).is_ok()
        {
            out.push(Command::ResearchFor {
                own: 0,
                paid: 1,
                economy: e,
            });
        }
    }
    if i64::from(r.token_cost) <= s.treasuries[power.index()] || s.research_tokens[power.index()] > 0 {
        out.push(Command::Research(1));
        if s.research_tokens[power.index()] > 0 {
            // Rolling the tokens already held, buying none.
            out.push(Command::Research(0));
        }
    }
}

/// Each unit type the power has in a space, moved one at a time to each space within its
/// reach over the board's adjacency (the rules then judge the path).
fn moves(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    combat: bool,
    only: Option<SpaceId>,
    out: &mut Vec<Command>,
) {
    match only {
        Some(from) => moves_from(rules, s, power, combat, from, None, out),
        None => {
            for from in rules.board.ids() {
                moves_from(rules, s, power, combat, from, None, out);
            }
        }
    }
}

/// Paratroopers flown from `from` (`move ... as paratroopers`) to each territory within their
/// range they may fly to, one unit and as many as may go. (A drop where no land unit of the
/// power attacks is accepted, and refused as combat move ends unless one then does.)
fn paratroopers(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    unit: Option<UnitTypeId>,
    out: &mut Vec<Command>,
) {
    let Some(p) = movement::airfield(rules, s, power, from) else {
        return;
    };
    let (flown, _) = movement::flown_from(s, from);
    let left = p.count.saturating_sub(flown);
    if left == 0 {
        return;
    }
    let mut kinds: Vec<(UnitTypeId, u32)> = Vec::new();
    for u in &s.space(from).units {
        if u.owner == power
            && unit.is_none_or(|k| k == u.kind)
            && p.carries(u.kind)
            && u.moved == 0
            && !u.marks.combat_moved
            && u.aboard.is_none()
        {
            match kinds.iter_mut().find(|(k, _)| *k == u.kind) {
                Some((_, n)) => *n += 1,
                None => kinds.push((u.kind, 1)),
            }
        }
    }
    if kinds.is_empty() {
        return;
    }
    for to in within(rules, s, power, from, Domain::Air, p.range) {
        for &(kind, n) in &kinds {
            let most = n.min(left);
            for count in [1, most].into_iter().collect::<std::collections::BTreeSet<u32>>() {
                let m = Move {
                    airborne: true,
                    ..Move::plain(vec![Pick::Kind { kind, count }], from, to)
                };
                if movement::paratroopers_may_fly(rules, s, power, &m) {
                    out.push(Command::Move(m));
                }
            }
        }
    }
}

/// [`moves`] of the units in one space (`unit`: led by units of that type only).
fn moves_from(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    combat: bool,
    from: SpaceId,
    unit: Option<UnitTypeId>,
    out: &mut Vec<Command>,
) {
    if combat {
        paratroopers(rules, s, power, from, unit, out);
    }
    let board = &rules.board;
    let sp = s.space(from);
    let at_sea = board.space(from).is_sea();
    // Per unit type: the most movement any unit of it has left, whether some are cargo.
    let mut kinds: Vec<(UnitTypeId, u32, bool)> = Vec::new();
    for u in sp.units.iter().filter(|u| u.owner == power) {
        let t = rules.unit(u.kind);
        let cargo = u.aboard.is_some() && t.domain == Domain::Land;
        let Some(left) = movement::movable(rules, s, u, combat) else {
            continue;
        };
        if combat && !cargo && movement::stays_for_battle(rules, s, power, from, u) {
            continue;
        }
        match kinds.iter_mut().find(|k| k.0 == u.kind && k.2 == cargo) {
            Some(k) => k.1 = k.1.max(left),
            None => kinds.push((u.kind, left, cargo)),
        }
    }
    for &(kind, left, cargo) in &kinds {
        if unit.is_some_and(|u| u != kind) {
            continue;
        }
        let t = rules.unit(kind);
        let targets: Vec<SpaceId> =
            if cargo {
                // Cargo leaves its transport only by offloading into a territory next to it.
                board
                    .space(from)
                    .adjacent
                    .iter()
                    .copied()
                    .filter(|a| !board.space(*a).is_sea())
                    .collect()
            } else if at_sea && t.domain == Domain::Land {
                Vec::new()
            } else if t.domain == Domain::Land {
                // Territories by the rules of entering them (a friendly one in combat move only
                // after a blitz); the sea only by boarding, from the coast beside it.
                let blitzer = t.blitz || t.blitz_with.is_some();
                let mut reach = movement::land_ends(rules, s, power, from, left.max(1), blitzer, combat);
                reach.extend(board.space(from).adjacent.iter().copied().filter(|to| {
                    board.space(*to).is_sea() && movement::may_board(rules, s, power, from, *to)
                }));
                reach.sort();
                reach
            } else {
                within(rules, s, power, from, t.domain, left.max(1))
            };
        let one = vec![Pick::Kind { kind, count: 1 }];
        for &to in &targets {
            push_move(rules, s, power, combat, one.clone(), from, to, out);
        }
        // A sea unit sharing its zone with the enemy may stay to attack it (`move X from Z to Z`).
        if combat
            && at_sea
            && t.domain == Domain::Sea
            && t.attack > 0
            && s.this_turn.battle(from).is_none()
            && sp.units.iter().any(|u| s.relations[power.index()][u.owner.index()] == Relation::War)
            // Enemy warships that block: the battle comes anyway.
            && !sp.units.iter().any(|u| {
                s.relations[power.index()][u.owner.index()] == Relation::War
                    && rules.unit(u.kind).domain == Domain::Sea
                    && rules.unit(u.kind).blocks_movement
            })
        {
            push_move(rules, s, power, combat, one.clone(), from, from, out);
        }
        // Partners that move together: mechanized infantry with a tank, a land unit
        // carried by an air unit.
        if cargo {
            continue;
        }
        for &(other, ..) in kinds.iter().filter(|k| !k.2 && k.0 != kind) {
            let o = rules.unit(other);
            let paired = t.move_with.map(|m| m.0) == Some(other) || t.blitz_with == Some(other);
            let flown = o.air_transport.as_ref().is_some_and(|a| a.carries(t));
            if !(paired || flown) {
                continue;
            }
            let reach = if flown {
                within(rules, s, power, from, Domain::Air, rules.unit(other).movement)
            } else {
                targets.clone()
            };
            for &to in &reach {
                let picks = vec![
                    Pick::Kind {
                        kind: other,
                        count: 1,
                    },
                    Pick::Kind { kind, count: 1 },
                ];
                push_move(rules, s, power, combat, picks, from, to, out);
            }
        }
    }
}

/// A move, and in combat move its `ignoring` and `bombing` forms where they could apply.
#[allow(clippy::too_many_arguments)]
fn push_move(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    combat: bool,
    units: Vec<Pick>,
    from: SpaceId,
    to: SpaceId,
    out: &mut Vec<Command>,
) {
    let m = Move::plain(units, from, to);
    if combat {
        let enemy_here = s
            .space(to)
            .units
            .iter()
            .any(|u| s.relations[power.index()][u.owner.index()] == Relation::War);
        let hostile = s
            .space(to)
            .controller
            .is_some_and(|c| s.relations[power.index()][c.index()] != Relation::Allied)
            || super::neutrals::unfriendly(rules, s, power, to)
            || super::neutrals::joined_against(rules, s, power, to);
        // A combat move on land ends in a hostile territory (or joins a battle there), unless
        // it blitzes through one on the way: other friendly ones are not worth a try.
        // (`legal_actions.rs` checks no accepted move is lost by this.)
        let may_blitz = m.units.iter().any(|p| match p {
            Pick::Kind { kind, .. } | Pick::All(kind) => {
                let t = rules.unit_for(*kind, &s.techs[power.index()]);
                t.blitz || t.blitz_with.is_some()
            }
            Pick::Id(_) => true,
        });
        if !rules.board.space(to).is_sea() && !hostile && !enemy_here && !may_blitz {
            return;
        }
        if rules.board.space(to).is_sea() && enemy_here && !movement::warships_block(rules, s, power, to) {
            out.push(Command::Move(Move {
                ignore: true,
                ..m.clone()
            }));
        }
        let bomber = m.units.iter().all(|p| match p {
            Pick::Kind { kind, .. } => rules.unit(*kind).bombing_dice > 0,
            _ => false,
        });
        let raids = rules
            .combat
            .conduct
            .contains(&crate::rules::ConductStep::BombingRaids);
        if bomber && raids && !s.space(to).facilities.is_empty() {
            // A raid on each facility there (the 1940 complexes and bases are raided one by
            // one; elsewhere the one facility), where the edition fights raids at all.
            for f in &s.space(to).facilities {
                out.push(Command::Move(Move {
                    bombing: true,
                    target: Some(f.kind),
                    ..m.clone()
                }));
            }
        }
        // Air units alone attack only where there is something to fight (a bombing raid is
        // the form above).
        let air_only = m.units.iter().all(|p| match p {
            Pick::Kind { kind, .. } | Pick::All(kind) => rules.unit(*kind).domain == Domain::Air,
            Pick::Id(_) => false,
        });
        if air_only && !movement::air_attack_ends(rules, s, power, from, to) {
            return;
        }
    }
    out.push(Command::Move(m));
}

/// Spaces within `reach` steps of `from` over adjacency a unit of the domain may follow (land
/// units: territories, and the sea zones next to them to board a transport; sea units: sea
/// zones, and the coast for nothing; air: everything). `from` itself is left out, and so are
/// neutral territories (no unit enters one) and sea zones past a canal closed to the power.
fn within(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    domain: Domain,
    reach: u32,
) -> Vec<SpaceId> {
    let board = &rules.board;
    let n = board.spaces.len();
    let mut dist = vec![u32::MAX; n];
    dist[from.index()] = 0;
    let mut queue = VecDeque::from([from]);
    let mut out = Vec::new();
    while let Some(at) = queue.pop_front() {
        let d = dist[at.index()];
        for &next in &board.space(at).adjacent {
            if dist[next.index()] != u32::MAX {
                continue;
            }
            let sea = board.space(next).is_sea();
            let enter = match domain {
                Domain::Land => true,
                Domain::Sea => sea,
                Domain::Air => true,
            };
            if !enter
                || board.space(next).neutral == Some(crate::rules::NeutralKind::Impassable)
                || (domain == Domain::Sea && movement::canal_closed(rules, s, power, at, next))
            {
                continue;
            }
            dist[next.index()] = d + 1;
            out.push(next);
            // Land units stop at the water's edge (boarding ends their move); nothing passes a
            // neutral territory not attacked yet.
            let onward = !((domain == Domain::Land && sea) || super::neutrals::untouched(rules, s, next));
            if d + 1 < reach && onward {
                queue.push_back(next);
            }
        }
    }
    out.sort();
    out
}

/// Each purchased piece, one at a time: units where the power's factories (or its territories)
/// let new units enter play, facilities in each territory it controls.
fn placements(rules: &RuleSet, s: &State, power: PowerId, out: &mut Vec<Command>) {
    // A power with two economies: each places what it bought, where it holds factories.
    for e in rules.economies(power) {
        economy_placements(rules, s, e, out);
    }
}

fn economy_placements(rules: &RuleSet, s: &State, power: PowerId, out: &mut Vec<Command>) {
    let pieces: Vec<Piece> = s.purchased[power.index()]
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(p, _)| *p)
        .collect();
    if pieces.is_empty() {
        return;
    }
    let board = &rules.board;
    let unit_spaces = super::mobilize::unit_spaces(rules, s, power);
    let territories: Vec<SpaceId> = board
        .ids()
        .filter(|t| s.space(*t).controller == Some(power))
        .collect();
    for piece in pieces {
        let spaces = match piece {
            Piece::Facility(_) => &territories,
            Piece::Unit(_) => &unit_spaces,
        };
        let sea_piece = matches!(piece, Piece::Unit(u) if rules.unit(u).domain == Domain::Sea);
        for &space in spaces {
            let at_sea = board.space(space).is_sea();
            if sea_piece != at_sea && !(at_sea && carried_at_sea(rules, piece)) {
                continue;
            }
            out.push(Command::Place {
                piece,
                count: 1,
                space,
            });
        }
    }
}

/// Air units that can be placed at sea on a carrier.
fn carried_at_sea(rules: &RuleSet, piece: Piece) -> bool {
    matches!(piece, Piece::Unit(u) if rules.unit(u).carrier_cost.is_some())
}

/// Rocket attacks from each unit or facility (a tech's) that can make one at each enemy facility.
fn rockets(rules: &RuleSet, s: &State, power: PowerId, out: &mut Vec<Command>) {
    let techs = &s.techs[power.index()];
    let launchers: Vec<SpaceId> = s
        .spaces
        .iter()
        .enumerate()
        .filter(|(_, sp)| {
            sp.units
                .iter()
                .any(|u| u.owner == power && rules.unit_for(u.kind, techs).rocket.is_some())
                || (sp.controller.is_some_and(|c| rules.same_power(c, power))
                    && sp
                        .facilities
                        .iter()
                        .any(|f| rules.facility_rocket(f.kind, techs).is_some()))
        })
        .map(|(i, _)| SpaceId(i as u16))
        .collect();
    if launchers.is_empty() {
        return;
    }
    let targets: Vec<SpaceId> = s
        .spaces
        .iter()
        .enumerate()
        .filter(|(_, sp)| {
            !sp.facilities.is_empty()
                && sp
                    .controller
                    .is_some_and(|c| s.relations[power.index()][c.index()] == Relation::War)
        })
        .map(|(i, _)| SpaceId(i as u16))
        .collect();
    for &from in &launchers {
        for &target in &targets {
            out.push(Command::Rocket {
                from,
                target,
                facility: None,
            });
        }
    }
}

/// The answers the battle in progress waits for.
fn battle_answers(rules: &RuleSet, s: &State, b: &crate::combat::Battle, out: &mut Vec<Command>) {
    match &b.waiting {
        Some(Need::Dice { .. }) => out.extend((1..=6).map(|f| Command::Roll(vec![f]))),
        Some(Need::Casualties(call)) => {
            out.push(Command::Casualties(Vec::new()));
            out.push(Command::Disagree);
            casualty_choices(b, call.side, call.suggested.len(), out);
        }
        Some(Need::Submerge { side }) => {
            out.push(Command::Submerge(Vec::new()));
            let mut subs: Vec<(UnitTypeId, u32)> = Vec::new();
            for c in b
                .units
                .iter()
                .filter(|c| c.side == *side && c.status == Status::Fighting)
            {
                if rules.unit(c.kind).submerge {
                    match subs.iter_mut().find(|k| k.0 == c.kind) {
                        Some(k) => k.1 += 1,
                        None => subs.push((c.kind, 1)),
                    }
                }
            }
            for (kind, n) in subs {
                for count in 1..=n {
                    out.push(Command::Submerge(vec![Pick::Kind { kind, count }]));
                }
            }
        }
        Some(Need::PressOrRetreat) => {
            out.push(Command::Press);
            out.push(Command::Retreat(None));
            let mut to = b.retreat_to.clone();
            to.sort();
            to.dedup();
            out.extend(to.into_iter().map(|sp| Command::Retreat(Some(sp))));
        }
        None => {}
    }
    let _ = s;
}

/// Ways to take `hits` among the side's fighting units, by unit type: each multiset of types
/// (as many of a type as it has hit points left), the first `CASUALTY_CHOICES` of them.
fn casualty_choices(b: &crate::combat::Battle, side: Side, hits: usize, out: &mut Vec<Command>) {
    if hits == 0 {
        return;
    }
    let mut pool: Vec<(UnitTypeId, u32)> = Vec::new();
    for c in b
        .units
        .iter()
        .filter(|c| c.side == side && c.status == Status::Fighting && c.hp > 0)
    {
        match pool.iter_mut().find(|k| k.0 == c.kind) {
            Some(k) => k.1 += u32::from(c.hp),
            None => pool.push((c.kind, u32::from(c.hp))),
        }
    }
    pool.sort();
    let mut counts = vec![0u32; pool.len()];
    let mut made = 0;
    fill(&pool, &mut counts, 0, hits as u32, &mut made, out);
}

fn fill(
    pool: &[(UnitTypeId, u32)],
    counts: &mut [u32],
    at: usize,
    left: u32,
    made: &mut usize,
    out: &mut Vec<Command>,
) {
    if *made >= CASUALTY_CHOICES {
        return;
    }
    if left == 0 {
        let picks: Vec<Pick> = pool
            .iter()
            .zip(counts.iter())
            .filter(|(_, n)| **n > 0)
            .map(|((kind, _), n)| Pick::Kind {
                kind: *kind,
                count: *n,
            })
            .collect();
        out.push(Command::Casualties(picks));
        *made += 1;
        return;
    }
    if at == pool.len() {
        return;
    }
    for n in (0..=left.min(pool[at].1)).rev() {
        counts[at] = n;
        fill(pool, counts, at + 1, left - n, made, out);
    }
    counts[at] = 0;
}

/// A space a unit type can move to this phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Destination {
    pub space: SpaceId,
    /// Entering it starts or joins a battle (combat move into enemy land or units).
    pub attack: bool,
    /// As a strategic bombing raid (`bombing`).
    pub raid: bool,
}

/// What can move from a space this phase and where, and what could move into it — the
/// movement rules seen from one space, both ways (`moves SPACE` in play).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveOptions {
    /// Per unit type in the space (with the partner it moves with, if any): where one can go.
    pub from: Vec<(Vec<UnitTypeId>, Vec<Destination>)>,
    /// Unit types (with partners) that could move in, and from where.
    pub into: Vec<(Vec<UnitTypeId>, SpaceId)>,
}

impl Game {
    /// The legal moves from and into `space` now.
    pub fn move_options(&mut self, space: SpaceId) -> MoveOptions {
        let legal = self.legal_actions();
        let s = &self.state;
        let power = self.current_power();
        let hostile = |to: SpaceId| {
            let sp = s.space(to);
            sp.controller
                .is_some_and(|c| s.relations[power.index()][c.index()] == Relation::War)
                || sp
                    .units
                    .iter()
                    .any(|u| s.relations[power.index()][u.owner.index()] == Relation::War)
        };
        let combat = self.current_phase().kind == PhaseKind::CombatMove;
        let mut out = MoveOptions::default();
        for a in &legal {
            let Command::Move(m) = a else { continue };
            let kinds: Vec<UnitTypeId> = m
                .units
                .iter()
                .filter_map(|p| match p {
                    Pick::Kind { kind, .. } | Pick::All(kind) => Some(*kind),
                    Pick::Id(_) => None,
                })
                .collect();
            if m.from == space {
                let d = Destination {
                    space: m.to,
                    attack: combat && hostile(m.to) && !m.ignore,
                    raid: m.bombing,
                };
                let i = match out.from.iter().position(|(k, _)| *k == kinds) {
                    Some(i) => i,
                    None => {
                        out.from.push((kinds.clone(), Vec::new()));
                        out.from.len() - 1
                    }
                };
                let list = &mut out.from[i].1;
                // One line per space: an attack and an `ignoring` pass are the same reach.
                match list.iter_mut().find(|x| x.space == d.space) {
                    Some(x) => {
                        x.raid |= d.raid;
                        x.attack |= d.attack;
                    }
                    None => list.push(d),
                }
            }
            if m.to == space && !out.into.contains(&(kinds.clone(), m.from)) {
                out.into.push((kinds, m.from));
            }
        }
        out
    }
}
