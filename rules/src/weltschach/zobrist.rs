//! Zobrist keys, computed by a mixing function instead of read from a table: a move touches only
//! a handful of keys, and a 512 x 48 table would cost 200 KB of cache.

use crate::splitmix::mix;

/// Key of board byte `b` on `cell`.
#[inline(always)]
pub(crate) fn piece(b: u8, cell: usize) -> u64 {
    mix(((b as u64) << 9) | cell as u64)
}

/// Key of the castling right of the piece on `cell`.
#[inline(always)]
pub(crate) fn unmoved(cell: usize) -> u64 {
    mix((1 << 20) | cell as u64)
}

/// Key of `color` having `count` pieces of `kind` in its pool (0 for an empty slot).
#[inline(always)]
pub(crate) fn pool(color: usize, kind: usize, count: u8) -> u64 {
    if count == 0 {
        0
    } else {
        mix((2 << 20) | (color as u64) << 16 | (kind as u64) << 8 | count as u64)
    }
}

/// Key of Black to move.
pub(crate) const SIDE: u64 = mix(3 << 20);
