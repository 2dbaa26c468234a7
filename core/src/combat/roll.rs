//! Where dice faces come from: the game's seeded generator, a fixed list (tests), or the table
//! (a player types the faces rolled on a real board).

use crate::game::dice::Dice;

pub trait Roller {
    /// `n` six-sided dice into `faces` (its old contents replaced). `false` when the faces are
    /// not available yet (manual dice the player has not typed): nothing is consumed then, and
    /// the battle waits.
    fn roll(&mut self, n: usize, faces: &mut Vec<u8>) -> bool;
}

impl Roller for Dice {
    fn roll(&mut self, n: usize, faces: &mut Vec<u8>) -> bool {
        faces.clear();
        faces.extend((0..n).map(|_| self.d6() as u8));
        true
    }
}

/// A fixed sequence of faces, for tests that reproduce a rulebook example. Running out is a
/// wait, like manual dice, so a test sees exactly how many dice a battle drew.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    faces: Vec<u8>,
    next: usize,
}

impl Scripted {
    pub fn new(faces: &[u8]) -> Scripted {
        Scripted {
            faces: faces.to_vec(),
            next: 0,
        }
    }
    /// Dice drawn so far.
    pub fn drawn(&self) -> usize {
        self.next
    }
    /// Faces not drawn yet.
    pub fn left(&self) -> usize {
        self.faces.len() - self.next
    }
}

impl Roller for Scripted {
    fn roll(&mut self, n: usize, faces: &mut Vec<u8>) -> bool {
        if self.next + n > self.faces.len() {
            return false;
        }
        faces.clear();
        faces.extend_from_slice(&self.faces[self.next..self.next + n]);
        self.next += n;
        true
    }
}

/// A game's dice: faces typed at the table (or queued by a scenario) come first; then the
/// seeded generator, or nothing when the game plays with manual dice.
pub struct TableDice<'a> {
    pub queue: &'a mut Vec<u8>,
    pub dice: &'a mut Dice,
    pub manual: bool,
}

impl Roller for TableDice<'_> {
    fn roll(&mut self, n: usize, faces: &mut Vec<u8>) -> bool {
        let queued = self.queue.len().min(n);
        if queued < n && self.manual {
            return false;
        }
        faces.clear();
        faces.extend(self.queue.drain(..queued));
        faces.extend((queued..n).map(|_| self.dice.d6() as u8));
        true
    }
}
