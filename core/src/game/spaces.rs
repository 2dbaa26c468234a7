//! The spaces of a state, shared in two levels with the copies commands run on.
//!
//! A command runs on a copy of the state and most commands change two or three spaces of a
//! board of 150, so spaces are copied on write. Sharing each space alone still cost a
//! reference-count change per space, twice per command tried (the copy and its drop), each on
//! its own cache line: a fifth of a random game's time. Spaces are therefore kept in chunks of
//! [`CHUNK`], each shared as a whole: copying the state touches one count per chunk, and
//! changing a space copies its chunk (the chunk's other spaces stay shared).
//!
//! Architecture invariant: every change to a space goes through [`Spaces::edit`], which also
//! drops the space's cached hash.

use super::state::{Mix, SpaceState};
use std::hash::Hasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Spaces per shared chunk.
const CHUNK: usize = 16;

#[derive(Clone, Debug, Default)]
pub struct Spaces {
    chunks: Vec<Arc<Chunk>>,
    len: usize,
}

/// Up to [`CHUNK`] spaces, with the [`Mix`] of their own hashes once computed (0: not yet; a
/// copy, made to change one of them, starts without it).
#[derive(Debug, Default)]
struct Chunk {
    spaces: Vec<Arc<SpaceState>>,
    hash: AtomicU64,
}

impl Clone for Chunk {
    fn clone(&self) -> Chunk {
        Chunk {
            spaces: self.spaces.clone(),
            hash: AtomicU64::new(0),
        }
    }
}

impl Chunk {
    fn hash(&self) -> u64 {
        if super::state::legacy_hash() {
            let mut h = Mix::new();
            for sp in &self.spaces {
                h.write_u64(sp.own_hash());
            }
            return h.0.max(1);
        }
        match self.hash.load(Ordering::Relaxed) {
            0 => {
                let mut h = Mix::new();
                for sp in &self.spaces {
                    h.write_u64(sp.own_hash());
                }
                let v = h.0.max(1);
                self.hash.store(v, Ordering::Relaxed);
                v
            }
            v => v,
        }
    }
}

impl Spaces {
    pub fn new(spaces: Vec<SpaceState>) -> Spaces {
        let len = spaces.len();
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        let mut all = spaces.into_iter().map(Arc::new).peekable();
        while all.peek().is_some() {
            chunks.push(Arc::new(Chunk {
                spaces: all.by_ref().take(CHUNK).collect(),
                hash: AtomicU64::new(0),
            }));
        }
        Spaces { chunks, len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = &SpaceState> + '_ {
        Iter {
            chunks: self.chunks.iter(),
            chunk: [].iter(),
            left: self.len,
        }
    }

    /// The space to change: its chunk and then the space copied first if another state still
    /// shares them, its cached hash dropped.
    pub fn edit(&mut self, i: usize) -> &mut SpaceState {
        let chunk = Arc::make_mut(&mut self.chunks[i / CHUNK]);
        *chunk.hash.get_mut() = 0;
        let sp = Arc::make_mut(&mut chunk.spaces[i % CHUNK]);
        sp.forget_hash();
        sp
    }

    /// Space `i` is the very same (not a copy, changed or not) in both: a space no command
    /// touched since `other` was copied from `self`, or `self` from `other`.
    pub fn same(&self, other: &Spaces, i: usize) -> bool {
        let (a, b) = (&self.chunks[i / CHUNK], &other.chunks[i / CHUNK]);
        Arc::ptr_eq(a, b) || Arc::ptr_eq(&a.spaces[i % CHUNK], &b.spaces[i % CHUNK])
    }

    /// The spaces not [`Spaces::same`] in both, in order: a chunk shared whole is passed over.
    pub fn changed_since(&self, other: &Spaces) -> Vec<usize> {
        let mut changed = Vec::new();
        for (c, (a, b)) in self.chunks.iter().zip(&other.chunks).enumerate() {
            if Arc::ptr_eq(a, b) {
                continue;
            }
            for (i, (x, y)) in a.spaces.iter().zip(&b.spaces).enumerate() {
                if !Arc::ptr_eq(x, y) {
                    changed.push(c * CHUNK + i);
                }
            }
        }
        changed
    }

    /// Hash schemes 2's and 3's part for the spaces: scheme 2 mixes each space's own hash,
    /// scheme 3 each chunk's hash of them (which a chunk keeps while no space of it changes).
    pub(super) fn mix_into(&self, h: &mut Mix, chunked: bool) {
        h.write_usize(self.len);
        if chunked {
            for c in &self.chunks {
                h.write_u64(c.hash());
            }
        } else {
            for sp in self {
                h.write_u64(sp.own_hash());
            }
        }
    }

    /// A copy sharing nothing with `self` (and so holding no cached hash).
    pub fn unshared(&self) -> Spaces {
        Spaces::new(self.iter().cloned().collect())
    }
}

impl std::ops::Index<usize> for Spaces {
    type Output = SpaceState;
    fn index(&self, i: usize) -> &SpaceState {
        &self.chunks[i / CHUNK].spaces[i % CHUNK]
    }
}

impl<'a> IntoIterator for &'a Spaces {
    type Item = &'a SpaceState;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        Iter {
            chunks: self.chunks.iter(),
            chunk: [].iter(),
            left: self.len,
        }
    }
}

pub struct Iter<'a> {
    chunks: std::slice::Iter<'a, Arc<Chunk>>,
    chunk: std::slice::Iter<'a, Arc<SpaceState>>,
    left: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a SpaceState;
    fn next(&mut self) -> Option<&'a SpaceState> {
        loop {
            if let Some(sp) = self.chunk.next() {
                self.left -= 1;
                return Some(sp);
            }
            self.chunk = self.chunks.next()?.spaces.iter();
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl PartialEq for Spaces {
    fn eq(&self, other: &Spaces) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for Spaces {}

// The encoding of the list of spaces it replaced (its length, then each space), so the hashes
// of scheme 1 are unchanged.
impl std::hash::Hash for Spaces {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_usize(self.len);
        for sp in self {
            sp.hash(h);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(n: u32) -> SpaceState {
        let mut sp = SpaceState::default();
        sp.controller = Some(crate::rules::PowerId(n as u8));
        sp.facilities.push(crate::game::state::Facility {
            kind: crate::rules::FacilityTypeId(0),
            damage: n,
        });
        sp
    }

    #[test]
    fn an_edit_copies_only_what_it_changes() {
        let a = Spaces::new((0..40).map(space).collect());
        let mut b = a.clone();
        b.edit(17).facilities.clear();
        assert!(a[17].facilities.len() == 1 && b[17].facilities.is_empty());
        assert!(!a.same(&b, 17));
        assert_eq!(b.changed_since(&a), vec![17]);
        assert!(a.changed_since(&a.clone()).is_empty());
        // The edited space's chunk mates, and other chunks, are still the same spaces.
        assert!(a.same(&b, 16) && a.same(&b, 18) && a.same(&b, 0) && a.same(&b, 39));
        assert_eq!(b.iter().map(|s| s.facilities.len()).sum::<usize>(), 39);
        assert_eq!(b.iter().len(), 40);
        assert_ne!(a, b);
        assert!(!a.unshared().same(&a, 3));
        assert_eq!(a.unshared(), a);
    }
}
