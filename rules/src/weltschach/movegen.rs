//! Legal move generation.
//!
//! Moves are generated pseudo-legally per piece from the precomputed rays and leap masks, and
//! filtered cheaply: when the mover is not in check, a non-Emperor move can only expose its
//! Emperor (to a slider, a hopper that gains a screen, or a facing Emperor) if its from- or
//! to-cell lies on one of the 26 radial lines through the Emperor, and then only the one or two
//! lines concerned are re-examined. Everything else is accepted without a test. In check, or for
//! Emperor moves, the full attack test runs on a scratch copy of the board.

use crate::movesink::MoveSink;

use super::attacks::{attacked, facing, find_leap_attackers, in_half, ray_attacks};
use super::geometry::{DIR_OFFSET, FWAZIR_DIRS, LEAP_MASK, LEAP_OFFSET, NUM_DIRS, PAWN_CAPTURE, PAWN_MOVE, RAY_LEN};
use super::piece::{byte_color, byte_kind, caps, Kind, CAPS, NUM_POOL_KINDS};
use super::position::{Move, Weltschach};

const NO_CHECKER: usize = usize::MAX;
const CHECKED_TWICE: usize = usize::MAX - 1;

/// The cell of the one enemy leaper that attacks `king`, [`NO_CHECKER`] or [`CHECKED_TWICE`].
fn leap_checkers(board: &[u8; 512], king: usize, them: usize) -> usize {
    let mut found = NO_CHECKER;
    find_leap_attackers(board, king, them, |t| {
        found = if found == NO_CHECKER { t } else { CHECKED_TWICE };
        false
    });
    found
}

/// Direction index ranges for each set of line classes (bit 0 orthogonal, 1 standard diagonal,
/// 2 triagonal): classes are contiguous in `DIRS`, so any set is at most two ranges.
const CLASS_RANGES: [[(u8, u8); 2]; 8] = [
    [(0, 0), (0, 0)],
    [(0, 6), (0, 0)],
    [(6, 18), (0, 0)],
    [(0, 18), (0, 0)],
    [(18, 26), (0, 0)],
    [(0, 6), (18, 26)],
    [(6, 26), (0, 0)],
    [(0, 26), (0, 0)],
];

/// Cross-section offsets (dx + 8·dz) of the 9 Stockbroker mask bits.
const XZ_OFF: [isize; 9] = [-9, -1, 7, -8, 0, 8, -7, 1, 9];

struct Gen<'a, S: MoveSink<Move>> {
    pos: &'a Weltschach,
    board: [u8; 512],
    us: usize,
    them: usize,
    king: usize,
    /// Per cell, 1 + the direction from our Emperor when on one of its 26 lines, else 0: one
    /// byte load instead of a displacement lookup per generated move.
    king_line: [u8; 512],
    eking: usize,
    /// Whether the Emperors share a rank-changing line at all; if not, no move of another
    /// piece can make them face each other.
    kings_aligned: bool,
    in_check: bool,
    /// When in check: the cell of a checking leaper (the only checkers off the Emperor's lines),
    /// or `usize::MAX`; two leaper checkers leave only Emperor moves (`CHECKED_TWICE`).
    leap_checker: usize,
    ebound: bool,
    /// Skip every legality test (used to explain why a move text is illegal).
    pseudo: bool,
    /// Generate captures only (a quiescence search's moves), skipping every quiet target
    /// before its legality test.
    captures_only: bool,
    sink: &'a mut S,
}

/// Generates the legal moves of the side to move into `sink`.
pub(crate) fn generate<S: MoveSink<Move>>(pos: &Weltschach, sink: &mut S) {
    generate_inner(pos, sink, false, false);
}

/// Generates the legal captures of the side to move into `sink`: what a quiescence search
/// needs, without testing and listing the several hundred quiet moves of a crowded cube.
pub(crate) fn generate_captures<S: MoveSink<Move>>(pos: &Weltschach, sink: &mut S) {
    generate_inner(pos, sink, false, true);
}

/// Generates moves that obey piece movement but may leave the Emperor attacked or facing.
pub(crate) fn generate_pseudo<S: MoveSink<Move>>(pos: &Weltschach, sink: &mut S) {
    generate_inner(pos, sink, true, false);
}

impl Weltschach {
    /// Moves that obey piece movement (castling geometry included) but may leave the Emperor
    /// attacked or facing: for tests that check the legality filter (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn pseudo_legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        generate_pseudo(self, moves);
    }
}

fn generate_inner<S: MoveSink<Move>>(pos: &Weltschach, sink: &mut S, pseudo: bool, captures_only: bool) {
    let us = pos.side as usize;
    let them = 1 - us;
    let king = pos.kings[us] as usize;
    let in_check = !pseudo && attacked(&pos.board, king, them, pos.emperor_river_bound);
    let leap_checker = if in_check { leap_checkers(&pos.board, king, them) } else { NO_CHECKER };
    let mut king_line = [0u8; 512];
    for d in 0..NUM_DIRS {
        let mut t = king as isize;
        for _ in 0..RAY_LEN[king][d] {
            t += DIR_OFFSET[d];
            king_line[t as usize] = d as u8 + 1;
        }
    }
    let mut g = Gen {
        pos,
        board: pos.board,
        us,
        them,
        king,
        king_line,
        eking: pos.kings[them] as usize,
        kings_aligned: {
            let ek = pos.kings[them] as usize;
            king_line[ek] != 0 && (ek >> 6) != (king >> 6)
        },
        in_check,
        leap_checker,
        ebound: pos.emperor_river_bound,
        pseudo,
        captures_only,
        sink,
    };
    g.run();
}

impl<S: MoveSink<Move>> Gen<'_, S> {
    fn run(&mut self) {
        for w in 0..8 {
            let mut bits = self.pos.occ[self.us][w];
            while bits != 0 {
                let from = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.piece_moves(from);
                if self.sink.done() {
                    return;
                }
            }
        }
    }

    #[inline(always)]
    fn piece_moves(&mut self, from: usize) {
        let b = self.board[from];
        let c = CAPS[b as usize];
        let kind = byte_kind(b);
        if kind == Kind::Stockbroker as usize {
            return self.pawn_moves(from);
        }
        if kind == Kind::Emperor as usize {
            return self.emperor_moves(from);
        }
        let from_line = self.king_line(from);
        let river = c & caps::RIVER != 0;
        if kind == Kind::Stockfwazir as usize {
            return self.fwazir_moves(from, from_line);
        }
        let slides = (c & 7) as usize;
        if slides != 0 {
            for &(lo, hi) in &CLASS_RANGES[slides] {
                for d in lo as usize..hi as usize {
                    self.slide(from, d, from_line, river);
                }
            }
        }
        let hops = ((c / caps::HOP) & 7) as usize;
        if hops != 0 {
            for &(lo, hi) in &CLASS_RANGES[hops] {
                for d in lo as usize..hi as usize {
                    self.hop(from, d, from_line, river);
                }
            }
        }
        let mut leaps = (c / caps::LEAP) & 7;
        while leaps != 0 {
            let cls = leaps.trailing_zeros() as usize;
            leaps &= leaps - 1;
            self.leaps(from, cls, from_line, river);
        }
    }

    /// The direction from our Emperor to `cell`, if they share a radial line.
    #[inline(always)]
    fn king_line(&self, cell: usize) -> Option<usize> {
        let d = self.king_line[cell];
        (d != 0).then(|| d as usize - 1)
    }

    #[inline(always)]
    fn is_enemy(&self, p: u8) -> bool {
        p != 0 && byte_color(p) == self.them
    }

    #[inline(always)]
    fn slide(&mut self, from: usize, d: usize, from_line: Option<usize>, river: bool) {
        let off = DIR_OFFSET[d];
        let mut t = from as isize;
        for _ in 0..RAY_LEN[from][d] {
            t += off;
            let to = t as usize;
            if river && !in_half(self.us, to) {
                return;
            }
            let p = self.board[to];
            if p == 0 {
                if !self.captures_only {
                    self.push(from, to, from_line);
                }
            } else {
                if byte_color(p) == self.them {
                    self.push(from, to, from_line);
                }
                return;
            }
        }
    }

    #[inline(always)]
    fn hop(&mut self, from: usize, d: usize, from_line: Option<usize>, river: bool) {
        let off = DIR_OFFSET[d];
        let len = RAY_LEN[from][d] as usize;
        let mut t = from as isize;
        let mut k = 0;
        while k < len {
            k += 1;
            t += off;
            let to = t as usize;
            if self.board[to] != 0 {
                break;
            }
            if river && !in_half(self.us, to) {
                return;
            }
            if !self.captures_only {
                self.push(from, to, from_line);
            }
        }
        while k < len {
            k += 1;
            t += off;
            let to = t as usize;
            let p = self.board[to];
            if p != 0 {
                if byte_color(p) == self.them && (!river || in_half(self.us, to)) {
                    self.push(from, to, from_line);
                }
                return;
            }
        }
    }

    #[inline(always)]
    fn leaps(&mut self, from: usize, cls: usize, from_line: Option<usize>, river: bool) {
        let mut m = LEAP_MASK[from][cls];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let to = (from as isize + LEAP_OFFSET[cls * 24 + i]) as usize;
            let p = self.board[to];
            let target = if p == 0 { !self.captures_only } else { byte_color(p) == self.them };
            if target && (!river || in_half(self.us, to)) {
                self.push(from, to, from_line);
            }
        }
    }

    fn pawn_moves(&mut self, from: usize) {
        let from_line = self.king_line(from);
        let fwd: isize = if self.us == 0 { 64 } else { -64 };
        let file = from & 63;
        let mut m = if self.captures_only { 0 } else { PAWN_MOVE[file] };
        while m != 0 {
            let bit = m.trailing_zeros() as usize;
            m &= m - 1;
            let to = (from as isize + fwd + XZ_OFF[bit]) as usize;
            if self.board[to] == 0 {
                self.push(from, to, from_line);
            }
        }
        let mut m = PAWN_CAPTURE[file];
        while m != 0 {
            let bit = m.trailing_zeros() as usize;
            m &= m - 1;
            let to = (from as isize + fwd + XZ_OFF[bit]) as usize;
            if self.is_enemy(self.board[to]) {
                self.push(from, to, from_line);
            }
        }
    }

    fn fwazir_moves(&mut self, from: usize, from_line: Option<usize>) {
        let mut m = FWAZIR_DIRS[from & 63];
        while m != 0 {
            let d = m.trailing_zeros() as usize;
            m &= m - 1;
            if RAY_LEN[from][d] == 0 {
                continue;
            }
            let to = (from as isize + DIR_OFFSET[d]) as usize;
            let p = self.board[to];
            let target = if p == 0 { !self.captures_only } else { byte_color(p) == self.them };
            if !target || !self.legal(from, to, from_line) {
                continue;
            }
            self.sink.add(Move::new(from, to));
            let rank = to >> 6;
            if rank == 0 || rank == 7 {
                let own_first = if self.us == 0 { 0 } else { 7 };
                for k in 0..NUM_POOL_KINDS {
                    if self.pos.pool[self.us][k] > 0 && (k < Kind::Empress as usize || rank == own_first) {
                        self.sink.add(Move::promotion(from, to, k));
                    }
                }
            }
        }
    }

    fn emperor_moves(&mut self, from: usize) {
        for d in 0..NUM_DIRS {
            if RAY_LEN[from][d] == 0 {
                continue;
            }
            let to = (from as isize + DIR_OFFSET[d]) as usize;
            let p = self.board[to];
            let target = if p == 0 { !self.captures_only } else { byte_color(p) == self.them };
            if !target {
                continue;
            }
            if self.ebound && !in_half(self.us, to) {
                continue;
            }
            if self.emperor_safe(from, to) {
                self.sink.add(Move::new(from, to));
            }
        }
        if self.pos.is_unmoved(from) && !self.in_check && !self.captures_only {
            self.castlings(from);
        }
    }

    /// Castling (Queen or Duchess on a same-rank orthogonal) and Cathedral castling (Governor on
    /// a same-rank diagonal), partner unmoved, at least 3 cells away, nothing in between.
    fn castlings(&mut self, from: usize) {
        // Same-rank directions: orthogonals 0..4, standard diagonals 6..10.
        for d in (0..4).chain(6..10) {
            let len = RAY_LEN[from][d] as usize;
            if len < 3 {
                continue;
            }
            let off = DIR_OFFSET[d];
            let mut t = from as isize;
            let mut n = 0;
            let mut partner = None;
            while n < len {
                n += 1;
                t += off;
                if self.board[t as usize] != 0 {
                    partner = Some(t as usize);
                    break;
                }
            }
            let Some(pc) = partner else { continue };
            if n < 3 {
                continue;
            }
            let pb = self.board[pc];
            if byte_color(pb) != self.us || !self.pos.is_unmoved(pc) {
                continue;
            }
            let kind = byte_kind(pb);
            let fits = if d < 4 {
                kind == Kind::Queen as usize || kind == Kind::Duchess as usize
            } else {
                kind == Kind::Governor as usize
            };
            if !fits {
                continue;
            }
            let mid = (from as isize + off) as usize;
            let land = (from as isize + 2 * off) as usize;
            if self.ebound && !in_half(self.us, land) {
                continue;
            }
            if !self.pseudo && !self.castle_safe(from, mid, land, pc) {
                continue;
            }
            self.sink.add(Move::castle(from, land));
        }
    }

    /// Passed cell tested with the Emperor on it and the partner at home; the landing cell (and
    /// the facing rule) in the real final position: how this engine reads castling past a hopper
    /// (docs/rules/weltschach.md).
    fn castle_safe(&mut self, from: usize, mid: usize, land: usize, partner: usize) -> bool {
        let k = self.board[from];
        let pb = self.board[partner];
        self.board[from] = 0;
        self.board[mid] = k;
        let passed_ok = !attacked(&self.board, mid, self.them, self.ebound);
        let mut ok = false;
        if passed_ok {
            self.board[mid] = pb;
            self.board[partner] = 0;
            self.board[land] = k;
            ok = !attacked(&self.board, land, self.them, self.ebound) && !facing(&self.board, land, self.eking);
            self.board[land] = 0;
            self.board[partner] = pb;
        }
        self.board[mid] = 0;
        self.board[from] = k;
        ok
    }

    #[inline(always)]
    fn emperor_safe(&mut self, from: usize, to: usize) -> bool {
        if self.pseudo {
            return true;
        }
        let k = self.board[from];
        let cap = self.board[to];
        self.board[from] = 0;
        self.board[to] = k;
        let bad = attacked(&self.board, to, self.them, self.ebound) || facing(&self.board, to, self.eking);
        self.board[to] = cap;
        self.board[from] = k;
        !bad
    }

    #[inline(always)]
    fn push(&mut self, from: usize, to: usize, from_line: Option<usize>) {
        if self.legal(from, to, from_line) {
            self.sink.add(Move::new(from, to));
        }
    }

    /// Whether a non-Emperor move keeps the mover's Emperor safe and the Emperors apart.
    #[inline(always)]
    fn legal(&mut self, from: usize, to: usize, from_line: Option<usize>) -> bool {
        if self.pseudo {
            return true;
        }
        let to_line = self.king_line(to);
        if from_line.is_none() && to_line.is_none() {
            // Off every line through the Emperor a move changes no line attack; in check it
            // helps only by capturing a checking leaper.
            if !self.in_check {
                return true;
            }
            if to != self.leap_checker {
                return false;
            }
        } else if self.in_check && self.leap_checker == CHECKED_TWICE {
            return false;
        }
        let moved = self.board[from];
        let cap = self.board[to];
        self.board[to] = moved;
        self.board[from] = 0;
        let bad = if self.in_check {
            attacked(&self.board, self.king, self.them, self.ebound)
        } else {
            from_line.is_some_and(|d| ray_attacks(&self.board, self.king, d, self.them, self.ebound))
                || to_line.is_some_and(|d| {
                    Some(d) != from_line && ray_attacks(&self.board, self.king, d, self.them, self.ebound)
                })
        } || (self.kings_aligned && facing(&self.board, self.king, self.eking));
        self.board[from] = moved;
        self.board[to] = cap;
        !bad
    }
}
