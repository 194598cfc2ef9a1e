//! The Weltschach policy map as data: the inverse of `encode::policy_index`.

use crate::policy_map::{PolicyMap, PolicyMove};

use super::encode::{POLICY_SIZE, PROMO_BASE};
use super::geometry::{Cell, DIRS, LEAPS, NUM_KINDS};
use super::piece::{Kind, NUM_POOL_KINDS};

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
