//! Castling: the unmoved king swaps places with an unmoved rook of its own (docs/rules/wellisch.md).
//!
//! King-side, the rook stands next to the king; queen-side, the queen's start cell between them
//! must be empty. The king must not be in check (the caller checks), and the king's landing cell
//! (and, queen-side, the queen's cell) must not be attacked by either opponent. A swap leaves
//! the set of occupied cells unchanged, so "landing cell not attacked" is also exactly "the king
//! is safe after the move": no further legality check is needed.

use super::geometry::CASTLE;
use super::piece::{Move, Piece};
use super::position::Pos;
use crate::hex::Cell;
use crate::movesink::MoveSink;
use crate::player::Player;

/// Castling-right bit of `seat` for the king-side rook.
pub(crate) const fn king_side(seat: Player) -> u8 {
    1 << (2 * seat)
}

/// Castling-right bit of `seat` for the queen-side rook.
pub(crate) const fn queen_side(seat: Player) -> u8 {
    2 << (2 * seat)
}

impl Pos {
    /// Adds the mover's legal castlings (king on `king`, not in check); returns whether any.
    pub(crate) fn gen_castles<S: MoveSink<Move>>(&self, sink: &mut S, king: Cell) -> bool {
        let p = self.mover as usize;
        let rights = self.castling & (king_side(p) | queen_side(p));
        let cells = CASTLE[p];
        if rights == 0 || king != cells.king {
            return false;
        }
        let occ = self.occupied();
        let enemy = occ & !self.owner[p];
        let rooks = self.kinds[Piece::Rook as usize] & self.owner[p];
        let mut any = false;
        if rights & king_side(p) != 0 && rooks & cells.krook.bit() != 0 && !self.attacked(cells.krook, occ, enemy) {
            sink.add(Move::castle(king, cells.krook));
            any = true;
        }
        if rights & queen_side(p) != 0
            && rooks & cells.qrook.bit() != 0
            && occ & cells.queen.bit() == 0
            && !self.attacked(cells.qrook, occ, enemy)
            && !self.attacked(cells.queen, occ, enemy)
        {
            sink.add(Move::castle(king, cells.qrook));
            any = true;
        }
        any
    }
}
