//! Air transport: land units of a move riding its air units (`air_transport`), matched to their
//! room, flying the carriers' path and dropped where it ends.

use super::{describe, reject, unit, Board, RULE_AIR_TRANSPORT, RULE_AIR_TRANSPORT_STOP};
use crate::game::command::Move;
use crate::game::state::State;
use crate::game::Rejection;
use crate::rules::{AirTransport, Domain, PowerId, RuleSet, SpaceId, UnitType};

/// Land units of a move riding air units of the same move (`air_transport`), and what their
/// carriers' rules say about the flight.
pub(super) struct AirDrop {
    /// (cargo, carrier) unit ids.
    pub(super) rides: Vec<(u32, u32)>,
    /// Some carrier stops in the first hostile territory it enters.
    pub(super) stop_at_first_hostile: bool,
    /// Every carrier may make a bombing raid while carrying.
    pub(super) raid: bool,
    /// The carriers and the cargo as `describe` counts them, for messages.
    pub(super) carriers: String,
    pub(super) cargo: String,
}

impl AirDrop {
    pub(super) fn carries(&self, id: u32) -> bool {
        self.rides.iter().any(|(r, _)| *r == id)
    }
}

/// Which land units of a move ride which air units of it: each air unit with an
/// `air_transport` usable in this phase takes up to its capacity of the land units it carries
/// (those not paired with a partner by `move_with`), as many as can ride, the first named first.
pub(super) fn air_drop(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    from: SpaceId,
    ids: &[u32],
    paired: &[Option<(UnitType, u32)>],
    combat: bool,
) -> Option<AirDrop> {
    if !rules.power_info(power).board_transports {
        return None;
    }
    let techs = &s.techs[power.index()];
    let ty = |id: u32| rules.unit_for(unit(s, from, id).kind, techs);
    let carriers: Vec<(u32, &AirTransport)> = ids
        .iter()
        .filter_map(|id| {
            let a = ty(*id).air_transport.as_ref()?;
            (combat || a.noncombat).then_some((*id, a))
        })
        .collect();
    if carriers.is_empty() {
        return None;
    }
    let riders: Vec<u32> = ids
        .iter()
        .zip(paired)
        .filter(|(id, p)| p.is_none() && ty(**id).domain == Domain::Land)
        .map(|(id, _)| *id)
        .collect();
    // One slot per unit a carrier can hold.
    let slots: Vec<usize> = carriers
        .iter()
        .enumerate()
        .flat_map(|(i, (_, a))| std::iter::repeat_n(i, (a.capacity as usize).min(riders.len())))
        .collect();
    let accepts: Vec<Vec<usize>> = riders
        .iter()
        .map(|r| {
            let t = ty(*r);
            (0..slots.len())
                .filter(|k| carriers[slots[*k]].1.carries(t))
                .collect()
        })
        .collect();
    let rides: Vec<(u32, u32)> = riders
        .iter()
        .zip(match_slots(&accepts, slots.len()))
        .filter_map(|(r, k)| Some((*r, carriers[slots[k?]].0)))
        .collect();
    if rides.is_empty() {
        return None;
    }
    let used: Vec<(u32, &AirTransport)> = carriers
        .into_iter()
        .filter(|(c, _)| rides.iter().any(|(_, rc)| rc == c))
        .collect();
    let carrier_ids: Vec<u32> = used.iter().map(|(c, _)| *c).collect();
    let cargo_ids: Vec<u32> = rides.iter().map(|(r, _)| *r).collect();
    Some(AirDrop {
        stop_at_first_hostile: used.iter().any(|(_, a)| a.stop_at_first_hostile),
        raid: used.iter().all(|(_, a)| a.raid),
        carriers: describe(rules, s, from, &carrier_ids),
        cargo: describe(rules, s, from, &cargo_ids),
        rides,
    })
}

/// A largest matching of riders to slots (`accepts[r]`: the slots rider `r` fits), by
/// augmenting paths, riders in order: an earlier rider never loses its place to a later one.
/// `result[r]` is rider `r`'s slot.
fn match_slots(accepts: &[Vec<usize>], slots: usize) -> Vec<Option<usize>> {
    fn augment(r: usize, accepts: &[Vec<usize>], holder: &mut [Option<usize>], seen: &mut [bool]) -> bool {
        for &k in &accepts[r] {
            if seen[k] {
                continue;
            }
            seen[k] = true;
            let h = holder[k];
            if h.is_none_or(|h| augment(h, accepts, holder, seen)) {
                holder[k] = Some(r);
                return true;
            }
        }
        false
    }
    let mut holder: Vec<Option<usize>> = vec![None; slots];
    for r in 0..accepts.len() {
        let mut seen = vec![false; slots];
        augment(r, accepts, &mut holder, &mut seen);
    }
    let mut of_rider = vec![None; accepts.len()];
    for (k, h) in holder.iter().enumerate() {
        if let Some(r) = h {
            of_rider[*r] = Some(k);
        }
    }
    of_rider
}

/// The path of a move that carries land units by air: carriers that stop in the first hostile
/// territory they enter pass none before the end, and the cargo is dropped into a territory,
/// hostile in combat move (it attacks there), friendly in noncombat move.
pub(super) fn check_drop(b: &Board, d: &AirDrop, path: &[SpaceId], combat: bool) -> Result<(), Rejection> {
    let end = *path.last().expect("paths are never empty");
    if d.stop_at_first_hostile {
        let passed = path.get(1..path.len() - 1).unwrap_or(&[]);
        if let Some(here) = passed
            .iter()
            .find(|h| !b.is_sea(**h) && (b.hostile_territory(**h) || b.has_enemies(**h)))
        {
            return Err(reject(
                RULE_AIR_TRANSPORT_STOP,
                format!(
                    "{} carrying {} must stop in the first hostile territory it enters, {}, and drop the cargo there",
                    d.carriers,
                    d.cargo,
                    b.name(*here)
                ),
            ));
        }
    }
    if b.is_sea(end) {
        return Err(reject(
            RULE_AIR_TRANSPORT,
            format!(
                "{} carried by air is dropped in a territory, not in {}",
                d.cargo,
                b.name(end)
            ),
        ));
    }
    if combat && !(b.hostile_territory(end) || b.has_enemies(end)) {
        return Err(reject(
            RULE_AIR_TRANSPORT,
            format!(
                "in combat move {} carried by air is dropped into a hostile territory; {} is not — move there in noncombat move",
                d.cargo,
                b.name(end)
            ),
        ));
    }
    if !combat {
        b.ends_friendly(end)?;
    }
    Ok(())
}

/// Why land units of a refused move did not fly with the air units moving with them, when one
/// of those air unit types carries them in other circumstances (another phase, fewer of them,
/// a tech).
pub(super) fn air_cargo_hint(
    rules: &RuleSet,
    s: &State,
    power: PowerId,
    m: &Move,
    ids: &[u32],
    drop: Option<&AirDrop>,
    combat: bool,
) -> Option<String> {
    // Cargo is never dropped at sea: flying would not help.
    if rules.board.space(m.to).is_sea() {
        return None;
    }
    let from = m.from;
    let techs = &s.techs[power.index()];
    let kind = |id: u32| unit(s, from, id).kind;
    let walker = ids.iter().copied().find(|id| {
        rules.unit_for(kind(*id), techs).domain == Domain::Land && !drop.is_some_and(|d| d.carries(*id))
    })?;
    let w = rules.unit_for(kind(walker), techs);
    for id in ids.iter().copied() {
        let air = rules.unit_for(kind(id), techs);
        if air.domain != Domain::Air {
            continue;
        }
        if let Some(a) = air.air_transport.as_ref().filter(|a| a.carries(w)) {
            let info = rules.power_info(power);
            return Some(if !info.board_transports {
                format!("{}'s units are not carried by transports", info.name)
            } else if !combat && !a.noncombat {
                format!("a {} carries {} only in combat move", air.name, w.name)
            } else {
                format!(
                    "no room left on the {} for {} (each carries {} unit{} by air)",
                    air.name,
                    w.name,
                    a.capacity,
                    if a.capacity == 1 { "" } else { "s" },
                )
            });
        }
        let by_tech = rules.unit_techs[kind(id).index()].techs.iter().find(|t| {
            rules
                .unit_for(kind(id), &[**t])
                .air_transport
                .as_ref()
                .is_some_and(|a| a.carries(w))
        });
        if let Some(t) = by_tech {
            return Some(format!(
                "a {} carries {} only with {}",
                air.name,
                w.name,
                rules.techs[t.index()].name
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::match_slots;

    #[test]
    fn a_later_rider_moves_an_earlier_one_to_another_slot_it_fits() {
        // Rider 0 fits slots 0 and 1, rider 1 only slot 0: both ride.
        assert_eq!(match_slots(&[vec![0, 1], vec![0]], 2), [Some(1), Some(0)]);
        // Too few slots: the earlier rider keeps its place.
        assert_eq!(match_slots(&[vec![0], vec![0]], 1), [Some(0), None]);
        assert_eq!(match_slots(&[vec![], vec![1]], 2), [None, Some(1)]);
    }
}
