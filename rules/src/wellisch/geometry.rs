//! Per-seat geometry of Wellisch Chess: the 120-degree rotation between seats, pawn directions,
//! promotion edges, start cells, and compile-time tables built on top of `crate::hex`.

use crate::hex::{Cell, Dir, GRID};

/// Cell numbers of the 11 x 11 grid (on the board or not).
pub(crate) const SLOTS: usize = GRID * GRID;
/// The board radius.
pub(crate) const RADIUS: i8 = 5;

/// `(q, r, s) -> (r, s, q)`: the rotation that carries P1's setup onto P2's and P2's onto P3's.
pub(crate) const fn rotate(c: Cell) -> Cell {
    match Cell::new(c.r(), c.s()) {
        Some(x) => x,
        None => panic!("rotation keeps cells on the board"),
    }
}

/// `rotate` applied `k` times.
pub(crate) const fn rotate_by(c: Cell, k: usize) -> Cell {
    let mut c = c;
    let mut i = 0;
    while i < k % 3 {
        c = rotate(c);
        i += 1;
    }
    c
}

/// The direction whose cube delta is `(q, r, s)`; panics if none is (only used in const tables).
const fn dir_of(q: i8, r: i8, s: i8) -> Dir {
    let mut i = 0;
    while i < 12 {
        let d = match Dir::new(i) {
            Some(d) => d,
            None => panic!("direction index"),
        };
        let (a, b, c) = d.delta();
        if a == q && b == r && c == s {
            return d;
        }
        i += 1;
    }
    panic!("not a unit direction")
}

/// The image of a direction under `rotate` applied `k` times.
pub(crate) const fn rotate_dir(d: Dir, k: usize) -> Dir {
    let (mut q, mut r, mut s) = d.delta();
    let mut i = 0;
    while i < k % 3 {
        let (nq, nr, ns) = (r, s, q);
        q = nq;
        r = nr;
        s = ns;
        i += 1;
    }
    dir_of(q, r, s)
}

/// P1's two forward edge directions, N and NW; the other seats' are their rotations.
const P1_FORWARD: [Dir; 2] = [Dir::N, Dir::NW];

/// Forward directions of the pawns of each direction seat.
pub(crate) const FORWARD: [[Dir; 2]; 3] = {
    let mut f = [[Dir::N; 2]; 3];
    let mut d = 0;
    while d < 3 {
        f[d] = [rotate_dir(P1_FORWARD[0], d), rotate_dir(P1_FORWARD[1], d)];
        d += 1;
    }
    f
};

/// Every cell of the radius-5 board whose cube coordinate `axis` (0 = q, 1 = r, 2 = s) is `value`.
const fn line(axis: usize, value: i8) -> u128 {
    let mut bb = 0u128;
    let mut i = 0;
    while i < SLOTS {
        if let Some(c) = Cell::from_index(i) {
            let x = match axis {
                0 => c.q(),
                1 => c.r(),
                _ => c.s(),
            };
            if x == value {
                bb |= c.bit();
            }
        }
        i += 1;
    }
    bb
}

/// The promotion edge of each pawn direction (P1: r = +5, P2: q = +5, P3: s = +5).
pub(crate) const FAR_EDGE: [u128; 3] = [line(1, RADIUS), line(0, RADIUS), line(2, RADIUS)];
/// The home edge of each seat (tests check the setups against it) (P1: r = -5, P2: q = -5, P3: s = -5).
#[cfg(test)]
pub(crate) const HOME_EDGE: [u128; 3] = [line(1, -RADIUS), line(0, -RADIUS), line(2, -RADIUS)];

/// Compile-time lookup tables indexed by cell number.
pub(crate) struct Tables {
    /// `pawn_targets[d][c]`: the cells a pawn of direction `d` on `c` may step to.
    pub pawn_targets: [[u128; SLOTS]; 3],
    /// `pawn_sources[d][c]`: the cells from which a pawn of direction `d` steps onto `c`.
    pub pawn_sources: [[u128; SLOTS]; 3],
    /// `rot[k][c]`: the cell number of `rotate_by(c, k)` (255 off the board).
    pub rot: [[u8; SLOTS]; 3],
}

/// The tables, built at compile time.
pub(crate) static TABLES: Tables = build_tables();

/// Walks every cell once; const so the tables cost nothing at run time.
const fn build_tables() -> Tables {
    let mut t = Tables { pawn_targets: [[0; SLOTS]; 3], pawn_sources: [[0; SLOTS]; 3], rot: [[255; SLOTS]; 3] };
    let mut i = 0;
    while i < SLOTS {
        if let Some(c) = Cell::from_index(i) {
            let mut d = 0;
            while d < 3 {
                let mut k = 0;
                while k < 2 {
                    if let Some(n) = c.step(FORWARD[d][k], RADIUS) {
                        t.pawn_targets[d][i] |= n.bit();
                        t.pawn_sources[d][n.index()] |= c.bit();
                    }
                    k += 1;
                }
                t.rot[d][i] = rotate_by(c, d).index() as u8;
                d += 1;
            }
        }
        i += 1;
    }
    t
}

/// `rotate_by(c, k)` through the table.
#[inline(always)]
pub(crate) fn rot(c: Cell, k: usize) -> Cell {
    Cell::from_index_unchecked(TABLES.rot[k % 3][c.index()] as u32)
}

// P1's start cells of the king, queen, king-side rook and queen-side rook (D1, C1, E1, B1).
/// P1's king start cell.
const P1_KING: (i8, i8) = (3, -5);
/// P1's queen start cell (must be empty for queen-side castling).
const P1_QUEEN: (i8, i8) = (2, -5);
/// P1's king-side rook start cell, next to the king.
const P1_KROOK: (i8, i8) = (4, -5);
/// P1's queen-side rook start cell.
const P1_QROOK: (i8, i8) = (1, -5);

/// The cell `(q, r)`, which the caller knows to exist.
const fn cell(qr: (i8, i8)) -> Cell {
    match Cell::new(qr.0, qr.1) {
        Some(c) => c,
        None => panic!("start cell"),
    }
}

/// The castling cells of one seat.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastleCells {
    /// The king's start cell.
    pub king: Cell,
    /// The queen's start cell, which queen-side castling needs empty and unattacked.
    pub queen: Cell,
    /// The king-side rook's start cell (next to the king).
    pub krook: Cell,
    /// The queen-side rook's start cell (beyond the queen's).
    pub qrook: Cell,
}

/// Castling cells by seat: P1's, rotated.
pub(crate) const CASTLE: [CastleCells; 3] = {
    let mut c =
        [CastleCells { king: cell(P1_KING), queen: cell(P1_QUEEN), krook: cell(P1_KROOK), qrook: cell(P1_QROOK) }; 3];
    let mut p = 1;
    while p < 3 {
        c[p] = CastleCells {
            king: rotate_by(c[0].king, p),
            queen: rotate_by(c[0].queen, p),
            krook: rotate_by(c[0].krook, p),
            qrook: rotate_by(c[0].qrook, p),
        };
        p += 1;
    }
    c
};

/// For each cell, the castling-right bits (bit `2 * seat` king-side, `2 * seat + 1` queen-side)
/// that are lost when a move starts or ends there.
pub(crate) static CASTLE_LOSS: [u8; SLOTS] = {
    let mut m = [0u8; SLOTS];
    let mut p = 0;
    while p < 3 {
        let c = CASTLE[p];
        m[c.king.index()] |= 3 << (2 * p);
        m[c.krook.index()] |= 1 << (2 * p);
        m[c.qrook.index()] |= 2 << (2 * p);
        p += 1;
    }
    m
};
