//! The network's view: input planes [C, 8, 8, 8], the policy index of a move and the policy map
//! (its inverse, as data), and the 8 symmetries of the file grid.
//!
//! Everything is seen by the side to move: for Black the rank axis is reversed (y -> 7 - y), so
//! the mover always plays toward larger ranks. Levels and filestacks are not changed; the setup is
//! a face-to-face mirror, so White's and Black's views of the start are identical.
//!
//! Planes are laid out [C, rank, level, filestack]: element `c * 512 + cell`, with the cell index
//! x + 8z + 64y of the mover's view.
//!
//! Channels (93): 0..24 the mover's pieces by kind, 24..48 the opponent's, 48 unmoved Emperors,
//! Queens, Duchesses and Governors (castling rights), 49..70 the mover's pool counts / 8 by the
//! 21 symmetric kinds (constant planes), 70..91 the opponent's, 91 halfmove clock / 200,
//! 92 repetitions of this position / 2.
//!
//! Policy (a bijection on legal moves): plain moves, hops, captures, castling and declined
//! promotions are `kind * 512 + from` (kind-major: each kind is one 8x8x8 plane, which a
//! convolutional policy head maps onto), where `from` is the view cell and `kind` the displacement:
//! `dir * 7 + distance - 1` for the 26 radial directions (geometry::DIRS order) and distances
//! 1..7, or `182 + leap` for the 72 leap vectors (geometry::LEAPS). Castling is the Emperor's
//! two-cell displacement, which no other Emperor move has. End-rank promotions form a second block
//! from `PROMO_BASE`: `((end * 64 + file(to)) * 18 + dir) * 21 + kind`, with `end` 0 for view rank
//! 1 and 1 for view rank 8, `dir` the step direction (a Stockfwazir steps only orthogonally or
//! along standard diagonals, directions 0..18) and `kind` the promoted symmetric kind (0..21).
//!
//! Symmetries: the 8 symmetries of the square file grid (x, z), ranks untouched. Every rule is
//! invariant under all 8: rings and Frame files are symmetric, so Stockbroker and Stockfwazir
//! steps map onto each other (the text's file classes (b) and (c) swap under a transposition);
//! sliders, hoppers and leapers use direction sets closed under the symmetries; the River and
//! the facing rule depend only on ranks; castling uses all 4 same-rank orthogonals and diagonals.
//! The reconstructed start position itself is not symmetric (the Tunnel holds four different
//! pieces), so a transformed position is a position of the same rules from a different setup.

use crate::encoding::Encoding;
use crate::policy_map::{PolicyMap, PolicyMove};

use super::geometry::{disp_index, line_dir, Cell, DIRS, KIND_OF_DISP, LEAPS, NUM_DIRS, NUM_KINDS, NUM_LEAPS};
use super::piece::{byte_color, byte_kind, Kind, NUM_POOL_KINDS};
use super::position::{Move, Weltschach, MOVE_LIMIT_PLIES};

/// Number of input channels.
pub const CHANNELS: usize = 93;
/// First policy index of the end-rank promotion block.
pub const PROMO_BASE: usize = 512 * NUM_KINDS;
/// Number of policy outputs.
pub const POLICY_SIZE: usize = PROMO_BASE + 2 * 64 * 18 * NUM_POOL_KINDS;
/// Number of symmetries (the dihedral group of the file grid).
pub const NUM_SYMMETRIES: usize = 8;

const fn sym_xz(s: usize, x: i32, z: i32, m: i32) -> (i32, i32) {
    // m = 7 for cells, 0 for vectors (the translation part drops out).
    match s {
        0 => (x, z),
        1 => (m - z, x),
        2 => (m - x, m - z),
        3 => (z, m - x),
        4 => (m - x, z),
        5 => (x, m - z),
        6 => (z, x),
        _ => (m - z, m - x),
    }
}

const fn sym_vec(s: usize, v: [i8; 3]) -> [i8; 3] {
    let (x, z) = if s == 0 { (v[0] as i32, v[2] as i32) } else { vec_map(s, v[0] as i32, v[2] as i32) };
    [x as i8, v[1], z as i8]
}

const fn vec_map(s: usize, dx: i32, dz: i32) -> (i32, i32) {
    let (a, b) = sym_xz(s, dx, dz, 0);
    (a, b)
}

/// Cell index under each symmetry.
static SYM_CELL: [[u16; 512]; NUM_SYMMETRIES] = {
    let mut t = [[0u16; 512]; NUM_SYMMETRIES];
    let mut s = 0;
    while s < NUM_SYMMETRIES {
        let mut c = 0;
        while c < 512 {
            let (x, z) = sym_xz(s, (c & 7) as i32, ((c >> 3) & 7) as i32, 7);
            t[s][c] = (x as usize + 8 * z as usize + (c & !63)) as u16;
            c += 1;
        }
        s += 1;
    }
    t
};

/// Direction index under each symmetry.
static SYM_DIR: [[u8; NUM_DIRS]; NUM_SYMMETRIES] = {
    let mut t = [[0u8; NUM_DIRS]; NUM_SYMMETRIES];
    let mut s = 0;
    while s < NUM_SYMMETRIES {
        let mut d = 0;
        while d < NUM_DIRS {
            let v = sym_vec(s, DIRS[d]);
            let mut e = 0;
            while e < NUM_DIRS {
                if DIRS[e][0] == v[0] && DIRS[e][1] == v[1] && DIRS[e][2] == v[2] {
                    t[s][d] = e as u8;
                }
                e += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Leap index under each symmetry.
static SYM_LEAP: [[u8; NUM_LEAPS]; NUM_SYMMETRIES] = {
    let mut t = [[0u8; NUM_LEAPS]; NUM_SYMMETRIES];
    let mut s = 0;
    while s < NUM_SYMMETRIES {
        let mut d = 0;
        while d < NUM_LEAPS {
            let v = sym_vec(s, LEAPS[d]);
            let mut e = 0;
            while e < NUM_LEAPS {
                if LEAPS[e][0] == v[0] && LEAPS[e][1] == v[1] && LEAPS[e][2] == v[2] {
                    t[s][d] = e as u8;
                }
                e += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// The cell as the side to move sees it.
#[inline(always)]
fn view(cell: usize, us: usize) -> usize {
    if us == 0 {
        cell
    } else {
        cell ^ (7 << 6)
    }
}

/// Writes the input planes for the side to move.
pub fn encode(pos: &Weltschach, planes: &mut [f32]) {
    assert_eq!(planes.len(), CHANNELS * 512, "planes buffer has the wrong length");
    planes.fill(0.0);
    let us = pos.side as usize;
    for (cell, &b) in pos.board.iter().enumerate() {
        let v = view(cell, us);
        if b != 0 {
            let ch = if byte_color(b) == us { 0 } else { 24 } + byte_kind(b);
            planes[ch * 512 + v] = 1.0;
        }
        if pos.is_unmoved(cell) {
            planes[48 * 512 + v] = 1.0;
        }
    }
    for k in 0..NUM_POOL_KINDS {
        for (side, base) in [(us, 49), (1 - us, 70)] {
            let n = pos.pool[side][k];
            if n > 0 {
                planes[(base + k) * 512..(base + k + 1) * 512].fill(n as f32 / 8.0);
            }
        }
    }
    planes[91 * 512..92 * 512].fill((pos.halfmove as f32 / MOVE_LIMIT_PLIES as f32).min(1.0));
    planes[92 * 512..93 * 512].fill((pos.repetitions() as f32 / 2.0).min(1.0));
}

/// The policy index of a legal move.
pub fn policy_index(pos: &Weltschach, mv: Move) -> usize {
    let us = pos.side as usize;
    let from = view(mv.from_index(), us);
    let to = view(mv.to_index(), us);
    match mv.promotion_kind() {
        Some(k) => {
            let dir = line_dir(from, to).expect("a promotion is a one-cell step");
            debug_assert!(dir < 18);
            let end = usize::from(to >> 6 == 7);
            PROMO_BASE + ((end * 64 + (to & 63)) * 18 + dir) * NUM_POOL_KINDS + k as usize
        }
        None => {
            let kind = KIND_OF_DISP[disp_index(from, to)] as usize;
            debug_assert!(kind < NUM_KINDS);
            kind * 512 + from
        }
    }
}

/// Applies symmetry `sym` to a policy index.
pub fn transform_policy_index(sym: usize, index: usize) -> usize {
    if index < PROMO_BASE {
        let from = SYM_CELL[sym][index % 512] as usize;
        let kind = index / 512;
        let kind = if kind < NUM_DIRS * 7 {
            SYM_DIR[sym][kind / 7] as usize * 7 + kind % 7
        } else {
            NUM_DIRS * 7 + SYM_LEAP[sym][kind - NUM_DIRS * 7] as usize
        };
        kind * 512 + from
    } else {
        let mut r = index - PROMO_BASE;
        let k = r % NUM_POOL_KINDS;
        r /= NUM_POOL_KINDS;
        let dir = SYM_DIR[sym][r % 18] as usize;
        r /= 18;
        let file = SYM_CELL[sym][r % 64] as usize;
        let end = r / 64;
        PROMO_BASE + ((end * 64 + file) * 18 + dir) * NUM_POOL_KINDS + k
    }
}

/// Applies symmetry `sym` to encoded planes.
pub fn transform_planes(sym: usize, src: &[f32], dst: &mut [f32]) {
    assert_eq!(src.len(), dst.len());
    for (s, d) in src.chunks_exact(512).zip(dst.chunks_exact_mut(512)) {
        for (cell, &v) in s.iter().enumerate() {
            d[SYM_CELL[sym][cell] as usize] = v;
        }
    }
}

/// Applies symmetry `sym` to a whole position (for tests: a symmetric image of a legal position;
/// feature `test-support`).
#[cfg(feature = "test-support")]
pub fn transform_position(sym: usize, pos: &Weltschach) -> Weltschach {
    let mut out = Weltschach::empty();
    out.side = pos.side;
    out.pool = pos.pool;
    out.halfmove = pos.halfmove;
    out.fullmove = pos.fullmove;
    out.emperor_river_bound = pos.emperor_river_bound;
    for (cell, &b) in pos.board.iter().enumerate() {
        let t = SYM_CELL[sym][cell] as usize;
        if b != 0 {
            out.put(t, super::piece::Color::from_index(byte_color(b)), super::piece::Kind::from_index(byte_kind(b)));
        }
        if pos.is_unmoved(cell) {
            out.unmoved[t >> 6] |= 1 << (t & 63);
        }
    }
    out.finish();
    out
}

/// Applies symmetry `sym` to a move (for tests, with [`transform_position`]; feature
/// `test-support`).
#[cfg(feature = "test-support")]
pub fn transform_move(sym: usize, mv: Move) -> Move {
    let from = SYM_CELL[sym][mv.from_index()] as usize;
    let to = SYM_CELL[sym][mv.to_index()] as usize;
    if mv.is_castle() {
        Move::castle(from, to)
    } else if let Some(k) = mv.promotion_kind() {
        Move::promotion(from, to, k as usize)
    } else {
        Move::new(from, to)
    }
}

impl Encoding for Weltschach {
    const INPUT_SHAPE: &'static [usize] = &[CHANNELS, 8, 8, 8];
    const POLICY_SIZE: usize = POLICY_SIZE;
    const NUM_SYMMETRIES: usize = NUM_SYMMETRIES;

    fn encode(&self, planes: &mut [f32]) {
        encode(self, planes);
    }

    fn policy_index(&self, mv: Move) -> usize {
        policy_index(self, mv)
    }

    fn policy_map() -> PolicyMap {
        policy_map()
    }

    fn transform_planes(sym: usize, src: &[f32], dst: &mut [f32]) {
        transform_planes(sym, src, dst);
    }

    fn transform_policy_index(sym: usize, index: usize) -> usize {
        transform_policy_index(sym, index)
    }
}

/// Cells of the 8 x 8 x 8 grid.
const CELLS: usize = 512;
/// Step directions a promoting Stockfwazir can take (orthogonal and standard diagonal).
const PROMOTION_DIRS: usize = 18;

/// The cell `(x, y, z)` of index `cell` moved by `d`, if it stays in the grid.
fn shifted(cell: usize, d: [i8; 3]) -> Option<usize> {
    let (x, y, z) = ((cell & 7) as i8 + d[0], (cell >> 6) as i8 + d[1], ((cell >> 3) & 7) as i8 + d[2]);
    let inside = |v: i8| (0..8).contains(&v);
    (inside(x) && inside(y) && inside(z)).then(|| x as usize + 8 * z as usize + 64 * y as usize)
}

/// The displacement of plain move kind `kind` (`dir * 7 + distance - 1`, then the leaps).
fn kind_delta(kind: usize) -> [i8; 3] {
    if kind < DIRS.len() * 7 {
        DIRS[kind / 7].map(|v| v * (kind % 7 + 1) as i8)
    } else {
        LEAPS[kind - DIRS.len() * 7]
    }
}

/// The map of every policy index, and the cells behind the grid squares for White and Black
/// (Black sees the ranks reversed).
pub(crate) fn policy_map() -> PolicyMap {
    let mut moves = Vec::with_capacity(POLICY_SIZE);
    for kind in 0..NUM_KINDS {
        let delta = kind_delta(kind);
        moves.extend((0..CELLS).map(|from| shifted(from, delta).map(|to| PolicyMove::step(from, to))));
    }
    for rest in 0..POLICY_SIZE - PROMO_BASE {
        let piece = Kind::from_index(rest % NUM_POOL_KINDS).letter();
        let dir = rest / NUM_POOL_KINDS % PROMOTION_DIRS;
        let (end, file) = (rest / NUM_POOL_KINDS / PROMOTION_DIRS / 64, rest / NUM_POOL_KINDS / PROMOTION_DIRS % 64);
        let to = file + 64 * 7 * end;
        let from = shifted(to, DIRS[dir].map(|v| -v));
        moves.push(from.map(|from| PolicyMove { promotion: Some(piece), ..PolicyMove::step(from, to) }));
    }
    let cells = (0..2)
        .map(|side| {
            (0..CELLS).map(|v| Some(Cell::from_index(if side == 0 { v } else { v ^ (7 << 6) }).to_string())).collect()
        })
        .collect();
    PolicyMap { moves, cells }
}
