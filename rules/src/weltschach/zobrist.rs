//! Zobrist keys, computed by a mixing function instead of read from a table: a move touches only
//! a handful of keys, and a 512 x 48 table would cost 200 KB of cache.

const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

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
