//! Counting units against capacities when each unit may go to some of them only: factories
//! counting the units mobilized next to them, territories losing the IPCs of convoy raids next to
//! them. Units are placed one at a time along augmenting paths (Kuhn's algorithm: a unit placed
//! may move to another capacity it reaches to make room), which finds the most that can be
//! placed; demands are served in their order, so the result is deterministic.

/// How many units of each demand went to each capacity, and how many of each were placed.
pub struct Assignment {
    /// `flow[d][c]`: units of demand `d` counted against capacity `c`.
    pub flow: Vec<Vec<u32>>,
    /// Units of each demand placed (no more than asked).
    pub met: Vec<u32>,
}

/// Place `demand[d]` units of each demand against capacities `caps`, a unit of demand `d` only
/// where `reaches(d, c)`.
pub fn assign(demand: &[u32], caps: &[u32], reaches: impl Fn(usize, usize) -> bool) -> Assignment {
    let mut a = Flow {
        flow: vec![vec![0; caps.len()]; demand.len()],
        used: vec![0; caps.len()],
        caps,
        reaches: &reaches,
    };
    let mut met = vec![0; demand.len()];
    for (d, &n) in demand.iter().enumerate() {
        for _ in 0..n {
            let mut seen = vec![false; caps.len()];
            if !a.augment(d, &mut seen) {
                // No path now, none later: placing other units never opens one.
                break;
            }
            met[d] += 1;
        }
    }
    Assignment { flow: a.flow, met }
}

struct Flow<'a> {
    flow: Vec<Vec<u32>>,
    used: Vec<u32>,
    caps: &'a [u32],
    reaches: &'a dyn Fn(usize, usize) -> bool,
}

impl Flow<'_> {
    /// One more unit of demand `d`, moving units placed earlier to other capacities if needed.
    fn augment(&mut self, d: usize, seen: &mut [bool]) -> bool {
        for c in 0..self.caps.len() {
            if seen[c] || !(self.reaches)(d, c) {
                continue;
            }
            seen[c] = true;
            if self.used[c] < self.caps[c] {
                self.flow[d][c] += 1;
                self.used[c] += 1;
                return true;
            }
            for d2 in 0..self.flow.len() {
                if self.flow[d2][c] > 0 && self.augment(d2, seen) {
                    self.flow[d2][c] -= 1;
                    self.flow[d][c] += 1;
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_placed_moves_aside_to_make_room() {
        // Demand 0 reaches both capacities, demand 1 only the first: placed in order, demand 0
        // first takes the first, then moves to the second for demand 1.
        let a = assign(&[1, 1], &[1, 1], |d, c| d == 0 || c == 0);
        assert_eq!(a.met, vec![1, 1]);
        assert_eq!(a.flow, vec![vec![0, 1], vec![1, 0]]);
        // More asked than there is room for: the most that fits.
        let a = assign(&[6, 6], &[2, 6], |d, c| c == 0 || d == 0);
        assert_eq!(a.met, vec![6, 2]);
    }
}
