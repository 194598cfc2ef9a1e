//! The repetition history: hashes of the positions since the last capture or pawn move.
//!
//! Only kept when threefold repetition is on. It is a persistent list shared between clones
//! (an `Arc` chain, newest first): a clone copies one pointer, a move under the threefold option
//! adds one node, and under the standard rules (no repetition rule) the history stays empty, so
//! states stay small (search copies them at every node) and nothing is ever allocated.

use std::fmt;
use std::sync::Arc;

/// One recorded hash and the ones before it.
#[derive(Debug)]
struct Node {
    /// The position's hash.
    hash: u64,
    /// Earlier positions.
    prev: Option<Arc<Node>>,
}

/// Hashes of earlier positions, newest first.
#[derive(Clone, Default)]
pub(crate) struct History {
    /// The newest entry.
    head: Option<Arc<Node>>,
}

impl History {
    /// No positions.
    pub fn new() -> History {
        History { head: None }
    }

    /// The recorded hashes, newest first.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        std::iter::successors(self.head.as_deref(), |n| n.prev.as_deref()).map(|n| n.hash)
    }

    /// Records a hash.
    pub fn push(&mut self, hash: u64) {
        self.head = Some(Arc::new(Node { hash, prev: self.head.take() }));
    }

    /// Forgets everything (after an irreversible move).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.head = None;
    }

    /// How often `hash` was recorded.
    pub fn count(&self, hash: u64) -> usize {
        self.iter().filter(|&h| h == hash).count()
    }
}

impl PartialEq for History {
    fn eq(&self, other: &History) -> bool {
        self.iter().eq(other.iter())
    }
}

impl fmt::Debug for History {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
