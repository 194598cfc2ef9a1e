//! The hashes of the positions since the last capture or pawn move, for threefold repetition.

use std::fmt;
use std::mem::MaybeUninit;

/// Capacity: the 100-ply rule ends the game before more reversible plies can follow one another.
pub(crate) const CAPACITY: usize = 100;

/// A fixed-capacity stack of earlier position hashes, oldest first.
///
/// Positions before an irreversible move (a capture or pawn move) can never recur, so the stack is
/// emptied by every such move and holds at most [`CAPACITY`] hashes. `Clone` copies only the used
/// part: in search and perft the stack is nearly always short, so a clone of a position costs
/// about as much as a clone of its bitboards.
pub(crate) struct History {
    len: u8,
    hashes: [MaybeUninit<u64>; CAPACITY],
}

impl History {
    /// An empty history.
    pub(crate) const fn new() -> History {
        History { len: 0, hashes: [MaybeUninit::uninit(); CAPACITY] }
    }

    /// The stored hashes, oldest first.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[u64] {
        // SAFETY: the first `len` entries are always initialised (push writes before it counts).
        unsafe { std::slice::from_raw_parts(self.hashes.as_ptr().cast::<u64>(), self.len as usize) }
    }

    /// Forgets every hash: an irreversible move was played.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Remembers the hash of the position just left. Beyond capacity the oldest entries are kept:
    /// the game is over by the 100-ply rule by then, so nothing reads the newest ones.
    #[inline(always)]
    pub(crate) fn push(&mut self, hash: u64) {
        if (self.len as usize) < CAPACITY {
            self.hashes[self.len as usize] = MaybeUninit::new(hash);
            self.len += 1;
        }
    }

    /// How often `hash` (the position now on the board, after a move was pushed) occurred before
    /// with the same player to move: every second entry, counting back from the newest but one.
    #[inline(always)]
    pub(crate) fn repetitions(&self, hash: u64) -> u8 {
        let h = self.as_slice();
        let mut count = 0;
        let mut i = h.len();
        while i >= 2 {
            i -= 2;
            count += (h[i] == hash) as u8;
        }
        count
    }
}

impl Clone for History {
    #[inline(always)]
    fn clone(&self) -> History {
        let mut copy = History { len: self.len, hashes: [MaybeUninit::uninit(); CAPACITY] };
        let n = self.len as usize;
        copy.hashes[..n].copy_from_slice(&self.hashes[..n]);
        copy
    }
}

impl PartialEq for History {
    fn eq(&self, other: &History) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for History {}

impl fmt::Debug for History {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice().iter().map(|h| format!("{h:016x}"))).finish()
    }
}
