//! Seats: which player plays which powers, dealt by the edition's `[players]` rules.
//!
//! Seating is the table's arrangement, not the game's: no rule reads it, it takes no part in
//! the state hash, and a save keeps it as it stands (not as commands), so a game replays the
//! same whoever sat where.

use crate::rules::{PowerId, RuleSet, Scenario};

/// The players, in the order of play (player 1 plays first), each with its powers in the order
/// they play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seats {
    pub players: Vec<Vec<PowerId>>,
}

/// The powers that play in a scenario, in the order they play: each power of the turn order,
/// then the powers playing within its turn.
pub fn playing(rules: &RuleSet, sc: &Scenario) -> Vec<PowerId> {
    sc.turn_order
        .iter()
        .flat_map(|h| rules.powers_of_turn(*h))
        .collect()
}

/// How many players may play: `[players] min` and `max` (at most one per power).
pub fn player_range(rules: &RuleSet, sc: &Scenario) -> (u32, u32) {
    let powers = playing(rules, sc).len() as u32;
    let max = rules.players.max.unwrap_or(powers).min(powers);
    (rules.players.min.min(max), max)
}

/// The powers that must have one player when `count` play: each power's group, merged where
/// groups share a power, in the order of play.
fn blocks(rules: &RuleSet, sc: &Scenario, count: u32) -> Vec<Vec<PowerId>> {
    let order = playing(rules, sc);
    let mut blocks: Vec<Vec<PowerId>> = order.iter().map(|p| vec![*p]).collect();
    for t in rules.players.together.iter().filter(|t| t.applies(count)) {
        let mut merged: Vec<PowerId> = Vec::new();
        blocks.retain(|b| {
            if b.iter().any(|p| t.powers.contains(p)) {
                merged.extend(b);
                false
            } else {
                true
            }
        });
        if !merged.is_empty() {
            blocks.push(merged);
        }
    }
    let at = |p: &PowerId| order.iter().position(|q| q == p).unwrap_or(usize::MAX);
    for b in &mut blocks {
        b.sort_by_key(at);
    }
    blocks.sort_by_key(|b| at(&b[0]));
    blocks
}

fn names(rules: &RuleSet, powers: &[PowerId]) -> String {
    powers
        .iter()
        .map(|p| rules.power_info(*p).name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

impl Seats {
    /// Deal the powers to `count` players by the rules: one side each (when `same_side`), the
    /// groups that must go together kept together, the sides given players in proportion to
    /// the powers they must split, and each player as few powers as the deal allows.
    pub fn deal(rules: &RuleSet, sc: &Scenario, count: u32) -> Result<Seats, String> {
        let (min, max) = player_range(rules, sc);
        if count < min || count > max {
            let title = rules
                .layers
                .iter()
                .find(|l| l.kind == crate::layers::LayerKind::Edition)
                .map_or("this game", |l| l.title.as_str());
            return Err(format!(
                "{title} is played by {}, not {count}",
                if min == max {
                    plural(min as usize, "player")
                } else {
                    format!("{min} to {max} players")
                }
            ));
        }
        let order = playing(rules, sc);
        let at = |p: PowerId| order.iter().position(|q| *q == p).unwrap_or(usize::MAX);
        let blocks = blocks(rules, sc, count);
        // The sides, in the order they first play, each with its blocks.
        let mut sides: Vec<(String, Vec<Vec<PowerId>>)> = Vec::new();
        for b in blocks {
            let side = if rules.players.same_side {
                rules.power_info(b[0]).side.clone()
            } else {
                String::new()
            };
            match sides.iter_mut().find(|(s, _)| *s == side) {
                Some((_, bs)) => bs.push(b),
                None => sides.push((side, vec![b])),
            }
        }
        let count = count as usize;
        if count < sides.len() {
            let list: Vec<&str> = sides.iter().map(|(s, _)| s.as_str()).collect();
            return Err(format!(
                "a player's powers are all on one side, so the {} need a player each: at least {}",
                list.join(" and the "),
                plural(sides.len(), "player")
            ));
        }
        let seats: usize = sides.iter().map(|(_, b)| b.len()).sum();
        if count > seats {
            let groups: Vec<String> = sides
                .iter()
                .flat_map(|(_, bs)| bs.iter())
                .filter(|b| b.len() > 1)
                .map(|b| format!("{} play together", names(rules, b)))
                .collect();
            return Err(format!(
                "with {count} players the powers go to at most {} ({})",
                plural(seats, "player"),
                groups.join("; ")
            ));
        }
        // Players per side: one each, then each further player to the side with the most
        // powers (groups) per player.
        let mut per_side = vec![1usize; sides.len()];
        for _ in sides.len()..count {
            let pick = (0..sides.len())
                .filter(|&i| per_side[i] < sides[i].1.len())
                .max_by(|&a, &b| {
                    // blocks_a / players_a against blocks_b / players_b, earlier side on a tie.
                    let (x, y) = (sides[a].1.len() * per_side[b], sides[b].1.len() * per_side[a]);
                    x.cmp(&y).then(b.cmp(&a))
                })
                .expect("fewer players than seats leaves a side with room");
            per_side[pick] += 1;
        }
        let mut players: Vec<Vec<PowerId>> = Vec::new();
        for ((_, mut bs), k) in sides.into_iter().zip(per_side) {
            // The biggest groups first, each to the player with the fewest powers so far.
            bs.sort_by_key(|b| (std::cmp::Reverse(b.len()), at(b[0])));
            let mut side_players: Vec<Vec<PowerId>> = vec![Vec::new(); k];
            for b in bs {
                let least = (0..k)
                    .min_by_key(|&i| (side_players[i].len(), i))
                    .expect("a side has a player");
                side_players[least].extend(b);
            }
            players.extend(side_players);
        }
        Ok(Seats::ordered(players, &order, true))
    }

    /// Each player's powers in the order of play; with `renumber`, the players too (player 1
    /// plays first). Only a new deal renumbers: a player keeps its number when powers change
    /// hands.
    fn ordered(mut players: Vec<Vec<PowerId>>, order: &[PowerId], renumber: bool) -> Seats {
        let at = |p: &PowerId| order.iter().position(|q| q == p).unwrap_or(usize::MAX);
        for p in &mut players {
            p.sort_by_key(at);
        }
        if renumber {
            players.sort_by_key(|p| p.first().map_or(usize::MAX, at));
        }
        Seats { players }
    }

    /// A seating as a save writes it, checked against the rules.
    pub fn check(rules: &RuleSet, sc: &Scenario, players: Vec<Vec<PowerId>>) -> Result<Seats, String> {
        let order = playing(rules, sc);
        let count = players.len() as u32;
        let (min, max) = player_range(rules, sc);
        if count < min || count > max {
            return Err(format!("{count} players; this game is played by {min} to {max}"));
        }
        for p in &order {
            let seated = players.iter().filter(|pl| pl.contains(p)).count();
            if seated != 1 {
                return Err(format!(
                    "{} is seated {} times; every power has one player",
                    rules.power_info(*p).name,
                    seated
                ));
            }
        }
        if let Some(p) = players.iter().flatten().find(|p| !order.contains(p)) {
            return Err(format!(
                "{} does not play in this scenario",
                rules.power_info(*p).name
            ));
        }
        if players.iter().any(Vec::is_empty) {
            return Err("a player without a power".into());
        }
        let seats = Seats::ordered(players, &order, false);
        seats.follows_rules(rules, sc)?;
        Ok(seats)
    }

    fn follows_rules(&self, rules: &RuleSet, sc: &Scenario) -> Result<(), String> {
        for b in blocks(rules, sc, self.players.len() as u32) {
            let first = self.player_of(b[0]);
            if b.iter().any(|p| self.player_of(*p) != first) {
                return Err(format!(
                    "{} are played by one player (with {} players)",
                    names(rules, &b),
                    self.players.len()
                ));
            }
        }
        if rules.players.same_side {
            for (i, pl) in self.players.iter().enumerate() {
                let side = &rules.power_info(pl[0]).side;
                if let Some(p) = pl.iter().find(|p| &rules.power_info(**p).side != side) {
                    return Err(format!(
                        "Player {} would play {} with {}, of another side; a player's powers are all on one side",
                        i + 1,
                        rules.power_info(*p).name,
                        rules.power_info(pl[0]).name
                    ));
                }
            }
        }
        Ok(())
    }

    /// The player (0-based) who plays `power`.
    pub fn player_of(&self, power: PowerId) -> Option<usize> {
        self.players.iter().position(|pl| pl.contains(&power))
    }

    /// Give `power`, with the powers it must be played with, to player `to` (1-based). The
    /// seating is unchanged when that breaks a rule.
    pub fn seat(
        &mut self,
        rules: &RuleSet,
        sc: &Scenario,
        to: usize,
        power: PowerId,
    ) -> Result<Vec<PowerId>, String> {
        let name = |p: PowerId| rules.power_info(p).name.clone();
        if to == 0 || to > self.players.len() {
            return Err(format!(
                "there is no Player {to}: players are numbered 1 to {}",
                self.players.len()
            ));
        }
        let Some(from) = self.player_of(power) else {
            return Err(format!("{} does not play in this scenario", name(power)));
        };
        if from == to - 1 {
            return Err(format!("Player {to} already plays {}", name(power)));
        }
        let block = blocks(rules, sc, self.players.len() as u32)
            .into_iter()
            .find(|b| b.contains(&power))
            .unwrap_or_else(|| vec![power]);
        let side = &rules.power_info(power).side;
        let theirs = &rules.power_info(self.players[to - 1][0]).side;
        if rules.players.same_side && side != theirs {
            return Err(format!(
                "{} is of the {side} and Player {to} plays the {theirs}: a player's powers are all on one side",
                name(power)
            ));
        }
        let mut players = self.players.clone();
        players[from].retain(|p| !block.contains(p));
        if players[from].is_empty() {
            return Err(format!(
                "Player {} would have no power left; `players {}` deals for one player fewer",
                from + 1,
                self.players.len() - 1
            ));
        }
        players[to - 1].extend(&block);
        let order = playing(rules, sc);
        let next = Seats::ordered(players, &order, false);
        next.follows_rules(rules, sc)?;
        *self = next;
        Ok(block)
    }

    /// "Player 2 (POWER, POWER)".
    pub fn describe(&self, rules: &RuleSet, player: usize) -> String {
        format!(
            "Player {} ({})",
            player + 1,
            names(rules, self.players.get(player).map_or(&[][..], Vec::as_slice))
        )
    }
}
