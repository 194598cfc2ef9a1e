//! Attack tests, worked outward from the attacked cell so that a check test costs 26 short
//! rays and 72 leap probes instead of generating the enemy's moves.

use super::geometry::{
    line_dir, xz_bit, DIRS, DIR_CLASS, DIR_OFFSET, FWAZIR_DIRS, LEAP_MASK, LEAP_OFFSET, NUM_DIRS, OPPOSITE,
    PAWN_CAPTURE, RAY_LEN,
};
use super::piece::{byte_color, caps, CAPS};

/// Whether `cell` lies in the half of the board that belongs to colour `color` (White ranks 1-4).
#[inline(always)]
pub(crate) fn in_half(color: usize, cell: usize) -> bool {
    ((cell >> 6) < 4) == (color == 0)
}

/// Whether a piece of colour `by` can capture on `s` along direction `d` (pointing from `s`
/// toward the attacker): a slider at the first occupied cell, a one-step piece next to `s`, or a
/// hopper at the second occupied cell. River-bound pieces attack only their own half.
#[inline]
pub(crate) fn ray_attacks(board: &[u8; 512], s: usize, d: usize, by: usize, emperor_bound: bool) -> bool {
    let len = RAY_LEN[s][d] as usize;
    let off = DIR_OFFSET[d];
    let cls = DIR_CLASS[d];
    let mut t = s as isize;
    let mut k = 0;
    loop {
        if k == len {
            return false;
        }
        k += 1;
        t += off;
        let p = board[t as usize];
        if p == 0 {
            continue;
        }
        if byte_color(p) == by {
            let c = CAPS[p as usize];
            if c & (caps::SLIDE << cls) != 0 && (c & caps::RIVER == 0 || in_half(by, s)) {
                return true;
            }
            if k == 1 {
                if c & caps::KING != 0 && (!emperor_bound || in_half(by, s)) {
                    return true;
                }
                if c & caps::PAWN != 0 {
                    // The attacker steps by -d; it must be its forward direction and a capture step.
                    let fwd = if by == 0 { 1 } else { -1 };
                    if -(DIRS[d][1] as i32) == fwd
                        && PAWN_CAPTURE[t as usize & 63] & (1 << xz_bit(-(DIRS[d][0] as i32), -(DIRS[d][2] as i32)))
                            != 0
                    {
                        return true;
                    }
                }
                if c & caps::FWAZIR != 0 && FWAZIR_DIRS[t as usize & 63] & (1 << OPPOSITE[d]) != 0 {
                    return true;
                }
            }
        }
        break;
    }
    while k < len {
        k += 1;
        t += off;
        let p = board[t as usize];
        if p != 0 {
            let c = CAPS[p as usize];
            return byte_color(p) == by && c & (caps::HOP << cls) != 0 && (c & caps::RIVER == 0 || in_half(by, s));
        }
    }
    false
}

/// Calls `f` with the cell of every leaper of colour `by` that can capture on `s`, until `f`
/// returns true; returns whether it did. Check detection and check evasion share this scan.
#[inline]
pub(crate) fn find_leap_attackers(board: &[u8; 512], s: usize, by: usize, mut f: impl FnMut(usize) -> bool) -> bool {
    for cls in 0..3 {
        let mut m = LEAP_MASK[s][cls];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let t = (s as isize + LEAP_OFFSET[cls * 24 + i]) as usize;
            let p = board[t];
            if p != 0 && byte_color(p) == by {
                let c = CAPS[p as usize];
                if c & (caps::LEAP << cls) != 0 && (c & caps::RIVER == 0 || in_half(by, s)) && f(t) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether a leaper of colour `by` can capture on `s`.
#[inline]
pub(crate) fn leap_attacks(board: &[u8; 512], s: usize, by: usize) -> bool {
    find_leap_attackers(board, s, by, |_| true)
}

/// Whether any piece of colour `by` can capture on `s`.
pub(crate) fn attacked(board: &[u8; 512], s: usize, by: usize, emperor_bound: bool) -> bool {
    (0..NUM_DIRS).any(|d| ray_attacks(board, s, d, by, emperor_bound)) || leap_attacks(board, s, by)
}

/// Whether the Emperors on `a` and `b` face each other: a rank-changing radial line between them
/// with every cell in between empty (the facing rule of docs/rules/weltschach.md). Same-rank lines
/// do not count.
#[inline]
pub(crate) fn facing(board: &[u8; 512], a: usize, b: usize) -> bool {
    if (a >> 6) == (b >> 6) {
        return false;
    }
    let Some(d) = line_dir(a, b) else { return false };
    let off = DIR_OFFSET[d];
    let mut t = a as isize + off;
    while t as usize != b {
        if board[t as usize] != 0 {
            return false;
        }
        t += off;
    }
    true
}
