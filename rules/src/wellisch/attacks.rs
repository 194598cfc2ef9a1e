//! Which cells a set of pieces attacks: used for king safety and castling.

use crate::hex::{Cell, BOARD_R5};

use super::geometry::TABLES;
use super::piece::Piece;
use super::position::Pos;

impl Pos {
    /// Whether any piece in `attackers` (a subset of the board's pieces) could capture on `c`
    /// when the cells `occupied` block slides. Attacks do not depend on what stands on `c`.
    #[inline]
    pub fn attacked(&self, c: Cell, occupied: u128, attackers: u128) -> bool {
        let kinds = &self.kinds;
        let queens = kinds[Piece::Queen as usize];
        if BOARD_R5.edge_neighbours(c) & kinds[Piece::King as usize] & attackers != 0 {
            return true;
        }
        if BOARD_R5.vertex_neighbours(c) & (kinds[Piece::Knight as usize] | queens) & attackers != 0 {
            return true;
        }
        for d in 0..3 {
            if TABLES.pawn_sources[d][c.index()] & self.pawns[d] & attackers != 0 {
                return true;
            }
        }
        let sliders = (kinds[Piece::Rook as usize] | queens) & attackers;
        sliders & BOARD_R5.edge_lines(c) != 0 && BOARD_R5.rook_attacks(c, occupied) & sliders != 0
    }
}

impl super::state::Wellisch {
    /// Whether `seat`'s king is attacked now (by any other seat's piece).
    pub fn in_check(&self, seat: crate::Player) -> bool {
        let pos = &self.pos;
        let occ = pos.occupied();
        pos.king(seat).is_some_and(|k| pos.attacked(k, occ, occ & !pos.owner[seat]))
    }
}
