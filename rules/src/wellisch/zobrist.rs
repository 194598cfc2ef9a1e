//! Zobrist keys, generated at compile time by splitmix64 from a fixed seed.

use super::geometry::SLOTS;
use super::piece::Piece;
use crate::player::Player;
use crate::splitmix;

/// Piece codes: `kind * 3 + owner` for kings, queens, rooks, knights (0..12), then
/// `12 + direction * 3 + owner` for pawns (12..21).
pub(crate) const CODES: usize = 21;

/// The code of a piece of `owner`; `dir` is a pawn's direction seat (ignored otherwise).
#[inline(always)]
pub(crate) const fn code(piece: Piece, owner: Player, dir: usize) -> usize {
    match piece {
        Piece::Pawn => 12 + dir * 3 + owner,
        _ => piece as usize * 3 + owner,
    }
}

/// Reserve counts at or above this share a key (a count never gets near it in play).
pub(crate) const RESERVE_COUNTS: usize = 32;

/// All keys.
pub(crate) struct Keys {
    /// Per piece code and cell.
    pub piece: [[u64; SLOTS]; CODES],
    /// Per seat to move.
    pub mover: [u64; 3],
    /// Per castling-right bit.
    pub castling: [u64; 6],
    /// Per seat, reserve kind and count.
    pub reserve: [[[u64; RESERVE_COUNTS]; 3]; 3],
    /// Per seat whose king was captured (takeover rule).
    pub out: [u64; 3],
}

/// The keys, built at compile time.
pub(crate) static KEYS: Keys = {
    let mut s = 0x5745_4c4c_4953_4348u64; // "WELLISCH"
    let mut k = Keys {
        piece: [[0; SLOTS]; CODES],
        mover: [0; 3],
        castling: [0; 6],
        reserve: [[[0; RESERVE_COUNTS]; 3]; 3],
        out: [0; 3],
    };
    let mut c = 0;
    while c < CODES {
        let mut i = 0;
        while i < SLOTS {
            k.piece[c][i] = splitmix::next(&mut s);
            i += 1;
        }
        c += 1;
    }
    let mut p = 0;
    while p < 3 {
        k.mover[p] = splitmix::next(&mut s);
        k.out[p] = splitmix::next(&mut s);
        let mut r = 0;
        while r < 3 {
            let mut n = 0;
            while n < RESERVE_COUNTS {
                // Count 0 keeps key 0 so an empty reserve adds nothing.
                k.reserve[p][r][n] = if n == 0 { 0 } else { splitmix::next(&mut s) };
                n += 1;
            }
            r += 1;
        }
        p += 1;
    }
    let mut b = 0;
    while b < 6 {
        k.castling[b] = splitmix::next(&mut s);
        b += 1;
    }
    k
};

/// The key of a reserve count.
#[inline(always)]
pub(crate) fn reserve_key(seat: Player, r: usize, count: u8) -> u64 {
    KEYS.reserve[seat][r][(count as usize).min(RESERVE_COUNTS - 1)]
}

/// The key of a set of castling rights.
#[inline(always)]
pub(crate) fn castling_key(rights: u8) -> u64 {
    let mut h = 0;
    for (b, key) in KEYS.castling.iter().enumerate() {
        if rights & (1 << b) != 0 {
            h ^= key;
        }
    }
    h
}
