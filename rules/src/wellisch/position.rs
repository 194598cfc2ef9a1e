//! The board as bitboards, with the reserves, castling rights and the seat to move: everything
//! move generation needs, and nothing else (so the generator can copy it cheaply).

use crate::hex::{Bits, Cell};
use crate::player::Player;

use super::piece::Piece;

/// Board, reserves, castling rights and mover.
///
/// Pawns are kept by *direction* (the seat whose forward directions they use), apart from their
/// owner, because under the takeover rule a captor owns pawns that keep the loser's direction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Pos {
    /// Cells occupied by each seat's pieces.
    pub owner: [u128; 3],
    /// Kings, queens, rooks and knights of every owner, indexed by `Piece as usize` (0..4).
    pub kinds: [u128; 4],
    /// Pawns by direction seat.
    pub pawns: [u128; 3],
    /// `reserve[seat][i]`: captured pieces of kind `Piece::RESERVE[i]` waiting to be promoted to.
    pub reserve: [[u8; 3]; 3],
    /// Bit `2 * seat`: king-side castling still possible; bit `2 * seat + 1`: queen-side.
    pub castling: u8,
    /// The seat to move.
    pub mover: u8,
}

impl Pos {
    /// An empty board, P1 to move.
    pub const EMPTY: Pos =
        Pos { owner: [0; 3], kinds: [0; 4], pawns: [0; 3], reserve: [[0; 3]; 3], castling: 0, mover: 0 };

    /// All occupied cells.
    #[inline(always)]
    pub fn occupied(&self) -> u128 {
        self.owner[0] | self.owner[1] | self.owner[2]
    }

    /// All pawns, whatever their direction.
    #[inline(always)]
    pub fn all_pawns(&self) -> u128 {
        self.pawns[0] | self.pawns[1] | self.pawns[2]
    }

    /// The owner of the piece on `c`, if any.
    #[inline(always)]
    pub fn owner_at(&self, c: Cell) -> Option<Player> {
        let b = c.bit();
        (0..3).find(|&p| self.owner[p] & b != 0)
    }

    /// The piece on `c` and, for a pawn, its direction seat.
    #[inline(always)]
    pub fn piece_at(&self, c: Cell) -> Option<(Piece, usize)> {
        let b = c.bit();
        for (k, piece) in [Piece::King, Piece::Queen, Piece::Rook, Piece::Knight].into_iter().enumerate() {
            if self.kinds[k] & b != 0 {
                return Some((piece, 0));
            }
        }
        (0..3).find(|&d| self.pawns[d] & b != 0).map(|d| (Piece::Pawn, d))
    }

    /// Puts a piece of `owner` on the empty cell `c` (`dir`: a pawn's direction seat).
    pub fn put(&mut self, c: Cell, piece: Piece, owner: Player, dir: usize) {
        let b = c.bit();
        self.owner[owner] |= b;
        match piece {
            Piece::Pawn => self.pawns[dir] |= b,
            _ => self.kinds[piece as usize] |= b,
        }
    }

    /// Removes whatever stands on `c`.
    pub fn clear(&mut self, c: Cell) {
        let nb = !c.bit();
        for o in &mut self.owner {
            *o &= nb;
        }
        for k in &mut self.kinds {
            *k &= nb;
        }
        for p in &mut self.pawns {
            *p &= nb;
        }
    }

    /// The king of `seat`, if it has one.
    #[inline(always)]
    pub fn king(&self, seat: Player) -> Option<Cell> {
        Bits(self.kinds[Piece::King as usize] & self.owner[seat]).next()
    }

    /// Whether `seat` has any piece in its reserve.
    #[inline(always)]
    pub fn has_reserve(&self, seat: Player) -> bool {
        self.reserve[seat] != [0; 3]
    }
}
