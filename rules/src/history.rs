//! The repetition history: the hashes of the positions since the last irreversible move, shared
//! by every engine's repetition rule.

use std::fmt;
use std::sync::Arc;

/// Where the spill stops growing (at `MAX - 1` entries or more), a bound never reached in a game:
/// every engine's quiet-move limit ends the game first (100 plies in the hex variants, 200 in
/// Weltschach), and an entry is only added by a move that also advances that count.
const MAX: usize = 256;

/// The hashes of the positions since the last irreversible move (one that makes every earlier
/// position impossible to reach again, such as a capture or a pawn move), oldest first: the
/// position before each move played since.
///
/// Positions are copied, not unmade, by search and perft, so this must clone cheaply. A 100-entry
/// inline buffer (what the 100-ply rule needs) made the Glinski position 960 bytes and clone-make
/// perft 35% slower (30 vs 48 M leaves/s CPU on Glinski perft 4), since a clone copies the whole
/// struct. So only the newest `RECENT` hashes live inline; when they are full, they and the next
/// hash are appended to an immutable spill shared by all clones (`Arc`, one allocation per
/// `RECENT + 1` quiet plies), and a clone of a position with a long quiet history costs one
/// reference-count increment more.
/// Each engine picks `RECENT` for its own clone size (see where it declares its history).
#[derive(Clone)]
pub(crate) struct History<const RECENT: usize> {
    recent: [u64; RECENT],
    len: u8,
    older: Option<Arc<[u64]>>,
}

impl<const RECENT: usize> History<RECENT> {
    /// An empty history.
    pub(crate) const fn new() -> Self {
        const { assert!(RECENT <= u8::MAX as usize, "the inline count is a u8") };
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
        if (self.len as usize) < RECENT {
            self.recent[self.len as usize] = hash;
            self.len += 1;
        } else {
            self.spill(hash);
        }
    }

    /// Moves the full inline hashes and `hash` to a new shared spill (the old one stays with
    /// other clones). With `RECENT` 0 every push comes here.
    #[cold]
    fn spill(&mut self, hash: u64) {
        if self.older().len() + RECENT >= MAX {
            return; // only after the game has ended by the quiet-move limit
        }
        let mut all = Vec::with_capacity(self.older().len() + RECENT + 1);
        all.extend_from_slice(self.older());
        all.extend_from_slice(&self.recent);
        all.push(hash);
        self.older = Some(all.into());
        self.len = 0;
    }

    /// How often `hash` occurs `period`, `2 * period`, ... plies back, at most `window` plies
    /// back: entry `k` plies back is the position before the `k`-th newest move (so the position
    /// on the board is 0 plies back, and is not in the history).
    ///
    /// `period` is how many plies lie between two turns of the same player where every turn
    /// passes to the next player: 2 for two players, whose hash includes the side to move, so
    /// the odd entries could only match by a hash collision. An engine that counts every entry
    /// passes 1. `window` limits how far back a repetition is seen (`usize::MAX`: no limit).
    #[inline(always)]
    pub(crate) fn occurrences(&self, hash: u64, period: usize, window: usize) -> usize {
        debug_assert!(period > 0);
        let older = self.older();
        let recent = &self.recent[..self.len as usize];
        let total = older.len() + recent.len();
        let oldest = total - total.min(window);
        let mut count = 0;
        let mut i = total;
        while i >= oldest + period {
            i -= period;
            let h = if i >= older.len() { recent[i - older.len()] } else { older[i] };
            count += (h == hash) as usize;
        }
        count
    }
}

impl<const RECENT: usize> PartialEq for History<RECENT> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl<const RECENT: usize> Eq for History<RECENT> {}

impl<const RECENT: usize> fmt::Debug for History<RECENT> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter().map(|h| format!("{h:016x}"))).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entries `back` plies back (1 = newest) that equal `hash`, by the definition.
    fn expected(pushed: &[u64], hash: u64, period: usize, window: usize) -> usize {
        (1..=pushed.len().min(window)).filter(|back| back % period == 0 && pushed[pushed.len() - back] == hash).count()
    }

    /// A four-ply cycle a b c d a b c d ... of `plies` entries, into a history of `RECENT`.
    fn cycle<const RECENT: usize>(plies: usize) -> (History<RECENT>, Vec<u64>) {
        let cycle = [1u64, 2, 3, 4];
        let pushed: Vec<u64> = (0..plies).map(|ply| cycle[ply % 4]).collect();
        let mut h = History::<RECENT>::new();
        for &x in &pushed {
            h.push(x);
        }
        (h, pushed)
    }

    fn counts_across_the_spill<const RECENT: usize>() {
        let plies = 3 * RECENT.max(5) + 3;
        let (mut h, pushed) = cycle::<RECENT>(plies);
        assert_eq!(h.iter().collect::<Vec<_>>(), pushed);
        let copy = h.clone();
        assert_eq!(copy, h);
        for now in 1..=4 {
            for period in [1, 2, 3] {
                for window in [0, 1, 2, 7, 8, 9, plies - 1, plies, usize::MAX] {
                    let want = expected(&pushed, now, period, window);
                    assert_eq!(h.occurrences(now, period, window), want, "{now} {period} {window}");
                }
            }
        }
        h.clear();
        assert_eq!(h.iter().count(), 0);
        assert_eq!(h.occurrences(1, 1, usize::MAX), 0);
        assert_eq!(copy.iter().count(), plies, "clearing one copy leaves the other's spill intact");
    }

    #[test]
    fn counts_repetitions_across_the_spill() {
        counts_across_the_spill::<16>();
        counts_across_the_spill::<4>();
        counts_across_the_spill::<1>();
        counts_across_the_spill::<0>();
    }

    fn stops_growing<const RECENT: usize>() {
        let n = cycle::<RECENT>(2 * MAX).0.iter().count();
        assert!(n >= MAX - 1, "room for every engine's longest quiet stretch: {n}");
        assert_eq!(cycle::<RECENT>(3 * MAX).0.iter().count(), n);
    }

    #[test]
    fn stops_growing_at_the_bound() {
        stops_growing::<16>();
        stops_growing::<0>();
    }
}
