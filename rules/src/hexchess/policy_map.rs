//! The hex chess policy map as data: the inverse of `move_index` (see docs/notation-hex.md).

use crate::hex::{Cell, Dir, KNIGHT_LEAPS};
use crate::policy_map::{PolicyMap, PolicyMove};

use super::encode::{cell_of_square, grid_side, move_kinds, square, view};
use super::rules::HexRules;

/// The displacement `(dq, dr)` of move kind `kind` in the mover's view, and the promotion piece
/// it names, if any.
fn kind_delta<V: HexRules>(kind: usize) -> ((i8, i8), Option<char>) {
    let radius = V::BOARD.radius() as usize;
    let times = |dir: Dir, n: usize| {
        let (q, r, _) = dir.delta();
        ((q * n as i8, r * n as i8), None)
    };
    if kind < 12 * radius {
        times(Dir::ALL[kind / (2 * radius)], kind % (2 * radius) + 1)
    } else if kind < 18 * radius {
        times(Dir::ALL[6 + (kind - 12 * radius) / radius], (kind - 12 * radius) % radius + 1)
    } else if kind < 18 * radius + 12 {
        let (q, r, _) = KNIGHT_LEAPS[kind - 18 * radius];
        ((q, r), None)
    } else {
        let n = V::PROMOTIONS.len() - 1;
        let (d, p) = ((kind - 18 * radius - 12) / n, (kind - 18 * radius - 12) % n);
        let dir = [Dir::N, V::PAWN_CAPTURES[0], V::PAWN_CAPTURES[1]][d];
        let (delta, _) = times(dir, 1);
        (delta, Some(V::PROMOTIONS[p + 1].letter()))
    }
}

/// The map of every policy index, and the cells behind the grid squares for White and Black.
pub(crate) fn policy_map<V: HexRules>() -> PolicyMap {
    let area = grid_side::<V>() * grid_side::<V>();
    let mut moves = Vec::with_capacity(move_kinds::<V>() * area);
    for kind in 0..move_kinds::<V>() {
        let ((dq, dr), promotion) = kind_delta::<V>(kind);
        for sq in 0..area {
            let to = cell_of_square::<V>(sq)
                .and_then(|from| Cell::new(from.q() + dq, from.r() + dr))
                .filter(|&to| V::BOARD.contains(to));
            moves.push(to.map(|to| PolicyMove { promotion, ..PolicyMove::step(sq, square::<V>(to)) }));
        }
    }
    let cells = (0..2)
        .map(|side| {
            (0..area)
                .map(|sq| cell_of_square::<V>(sq).map(|c| super::notation::label::<V>(view(c, side)).to_string()))
                .collect()
        })
        .collect();
    PolicyMap { moves, cells }
}
