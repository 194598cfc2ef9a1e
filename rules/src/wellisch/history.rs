//! The repetition history: hashes of the positions since the last capture or pawn move.
//!
//! At most 100 entries (the game is drawn after 100 such plies), kept inline so a state needs no
//! heap. Clones copy only the entries in use, and the history is only kept when threefold
//! repetition is on, so under the standard rules a clone copies none of it.

use std::fmt;
use std::mem::MaybeUninit;

use super::state::DRAW_PLIES;

/// Enough for every position since the clock last reset.
const CAP: usize = DRAW_PLIES as usize;

/// Hashes of earlier positions, oldest first.
pub(crate) struct History {
    /// Number of recorded hashes.
    len: u8,
    /// Entries `..len` are initialised; the rest is never read.
    buf: [MaybeUninit<u64>; CAP],
}

impl History {
    /// No positions.
    pub fn new() -> History {
        History { len: 0, buf: [MaybeUninit::uninit(); CAP] }
    }

    /// The recorded hashes.
    pub fn as_slice(&self) -> &[u64] {
        // SAFETY: entries `..len` were written by `push` or `clone` before `len` grew over them.
        unsafe { std::slice::from_raw_parts(self.buf.as_ptr().cast::<u64>(), self.len as usize) }
    }

    /// Records a hash; beyond the capacity (only after positions read with a clock near 100)
    /// the newest is dropped, which cannot matter as the game ends at 100 plies.
    #[inline]
    pub fn push(&mut self, hash: u64) {
        if (self.len as usize) < CAP {
            self.buf[self.len as usize].write(hash);
            self.len += 1;
        }
    }

    /// Forgets everything (after an irreversible move).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// How often `hash` was recorded.
    pub fn count(&self, hash: u64) -> usize {
        self.as_slice().iter().filter(|&&h| h == hash).count()
    }
}

impl Clone for History {
    #[inline]
    fn clone(&self) -> History {
        let mut h = History::new();
        let n = self.len as usize;
        for (dst, &src) in h.buf[..n].iter_mut().zip(self.as_slice()) {
            dst.write(src);
        }
        h.len = self.len;
        h
    }
}

impl PartialEq for History {
    fn eq(&self, other: &History) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for History {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
