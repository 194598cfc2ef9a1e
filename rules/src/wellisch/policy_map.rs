//! The Wellisch policy map as data: the inverse of `index_of` for the canonical indices (see
//! the module docs of `encode`). Moves promoting a pawn other than the first waiting one take
//! free indices of the promotion blocks, which depend on the position and are not in the map.

use crate::hex::{Bits, Cell, BOARD_R5, EDGE_DIRS, VERTEX_DIRS};
use crate::policy_map::{PolicyMap, PolicyMove};

use super::encode::{grid, AREA, BASE, KINDS, POLICY, SIDE};
use super::notation::label;
use super::piece::Piece;

/// The displacement `(dq, dr)` of move kind `kind` in the mover's frame, and the reserve piece
/// an immediate promotion names, if any.
fn kind_delta(kind: usize) -> ((i8, i8), Option<char>) {
    let scaled = |(q, r, _): (i8, i8, i8), n: usize| (q * n as i8, r * n as i8);
    match kind {
        0..60 => (scaled(EDGE_DIRS[kind / 10], kind % 10 + 1), None),
        60..66 => (scaled(VERTEX_DIRS[kind - 60], 1), None),
        _ => (scaled(EDGE_DIRS[(kind - 66) / 3], 1), Some(Piece::RESERVE[(kind - 66) % 3].letter())),
    }
}

/// The grid square of the mover's-frame cell `(q, r)`, if it is on the board.
fn square_of(q: i8, r: i8) -> Option<usize> {
    let cell = Cell::new(q, r).filter(|&c| BOARD_R5.contains(c))?;
    Some((5 - cell.r()) as usize * SIDE + (cell.q() + 5) as usize)
}

/// The map of every canonical policy index, and the cells behind the grid squares per seat.
pub(crate) fn policy_map() -> PolicyMap {
    let mut moves = Vec::with_capacity(POLICY);
    for block in 0..POLICY / BASE {
        let with_promotion = block.checked_sub(1).map(|r| Piece::RESERVE[r].letter());
        for inner in 0..BASE {
            let (kind, sq) = (inner / AREA, inner % AREA);
            let entry = if kind == KINDS {
                (sq == 0).then_some(PolicyMove { from: None, to: None, promotion: None, with_promotion })
            } else {
                let ((dq, dr), promotion) = kind_delta(kind);
                let (q, r) = ((sq % SIDE) as i8 - 5, 5 - (sq / SIDE) as i8);
                square_of(q, r).and(square_of(q + dq, r + dr)).map(|to| PolicyMove {
                    promotion,
                    with_promotion,
                    ..PolicyMove::step(sq, to)
                })
            };
            moves.push(entry);
        }
    }
    let cells = (0..3)
        .map(|seat| {
            let mut names = vec![None; AREA];
            for c in Bits(BOARD_R5.on_board()) {
                names[grid(c, seat)] = Some(label(c));
            }
            names
        })
        .collect();
    PolicyMap { moves, cells }
}
