//! The hashes of the positions since the last capture or pawn move, for threefold repetition.

use std::fmt;
use std::sync::Arc;

/// Hashes kept inline in the position; older ones move to a shared spill.
pub(crate) const RECENT: usize = 16;
/// A bound that is never reached in a game: the 100-ply rule ends it first.
const MAX: usize = 256;

/// The hashes of the positions since the last irreversible move (a capture or pawn move), oldest
/// first; earlier positions can never recur, so every such move empties it.
///
/// Positions are copied, not unmade, by search and perft, so this must clone cheaply. A 100-entry
/// inline buffer (what the 100-ply rule needs) made the position 960 bytes and clone-make perft
/// 35% slower (30 vs 48 M leaves/s CPU on Glinski perft 4), since a clone copies the whole struct.
/// So only the newest [`RECENT`] hashes live inline; when they fill up they are appended to an
/// immutable spill shared by all clones (`Arc`, one allocation per [`RECENT`] quiet plies), and a
/// clone of a position with a long quiet history costs one reference-count increment more.
#[derive(Clone)]
pub(crate) struct History {
    recent: [u64; RECENT],
    len: u8,
    older: Option<Arc<[u64]>>,
}

impl History {
    /// An empty history.
    pub(crate) const fn new() -> History {
        History { recent: [0; RECENT], len: 0, older: None }
    }

    /// The spilled (older) hashes.
    #[inline(always)]
    fn older(&self) -> &[u64] {
        self.older.as_deref().unwrap_or(&[])
    }

    /// All hashes, oldest first.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.older().iter().chain(&self.recent[..self.len as usize]).copied()
    }

    /// Forgets every hash: an irreversible move was played.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.older = None;
    }

    /// Remembers the hash of the position just left.
    #[inline(always)]
    pub(crate) fn push(&mut self, hash: u64) {
        if self.len as usize == RECENT {
            if self.older().len() + RECENT >= MAX {
                return; // only after the game has ended by the 100-ply rule
            }
            self.spill();
        }
        self.recent[self.len as usize] = hash;
        self.len += 1;
    }

    /// Moves the inline hashes to a new shared spill (the old one stays with other clones).
    #[cold]
    fn spill(&mut self) {
        let mut all = Vec::with_capacity(self.older().len() + RECENT);
        all.extend_from_slice(self.older());
        all.extend_from_slice(&self.recent);
        self.older = Some(all.into());
        self.len = 0;
    }

    /// How often `hash` (the position now on the board, after a move was pushed) occurred before
    /// with the same player to move: every second entry, counting back from the newest but one.
    #[inline(always)]
    pub(crate) fn repetitions(&self, hash: u64) -> u8 {
        let older = self.older();
        let recent = &self.recent[..self.len as usize];
        let mut count = 0;
        let mut i = older.len() + recent.len();
        while i >= 2 {
            i -= 2;
            let h = if i >= older.len() { recent[i - older.len()] } else { older[i] };
            count += (h == hash) as u8;
        }
        count
    }
}

impl PartialEq for History {
    fn eq(&self, other: &History) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for History {}

impl fmt::Debug for History {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter().map(|h| format!("{h:016x}"))).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_repetitions_across_the_spill() {
        let mut h = History::new();
        // A four-ply cycle a b c d a b c d ...: position `a` recurs every fourth ply.
        let cycle = [1u64, 2, 3, 4];
        for ply in 0..(3 * RECENT + 3) {
            h.push(cycle[ply % 4]);
        }
        let pushed = 3 * RECENT + 3;
        assert_eq!(h.iter().count(), pushed);
        let copy = h.clone();
        assert_eq!(copy, h);
        // The next position is cycle[pushed % 4]; it occurred once every four plies before.
        let now = cycle[pushed % 4];
        let expected = (0..pushed).filter(|&i| (pushed - i).is_multiple_of(2) && cycle[i % 4] == now).count();
        assert_eq!(h.repetitions(now) as usize, expected);
        h.clear();
        assert_eq!(h.iter().count(), 0);
        assert_eq!(copy.iter().count(), pushed, "clearing one copy leaves the other's spill intact");
    }
}
