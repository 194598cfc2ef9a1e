//! Piece kinds and the move type of Wellisch Chess.

use crate::hex::Cell;

/// A piece kind; Wellisch Chess has no bishops.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Piece {
    /// Steps along the 6 edge directions; can be captured (which ends the game).
    King = 0,
    /// Rook slides plus knight steps.
    Queen = 1,
    /// Slides along the 6 edge directions.
    Rook = 2,
    /// One step along any of the 6 vertex directions.
    Knight = 3,
    /// Steps to either forward edge neighbour, capturing or not.
    Pawn = 4,
}

impl Piece {
    /// The kinds a pawn promotes to, in reserve order (index `0..3`).
    pub const RESERVE: [Piece; 3] = [Piece::Queen, Piece::Rook, Piece::Knight];

    /// Material value in pawns; capturing a king wins the game, so it outweighs everything.
    pub const fn value(self) -> f32 {
        match self {
            Piece::King => 1000.0,
            Piece::Queen => 8.0,
            Piece::Rook => 5.0,
            Piece::Knight => 3.0,
            Piece::Pawn => 1.0,
        }
    }

    /// The letter used in position and move text.
    pub const fn letter(self) -> char {
        match self {
            Piece::King => 'K',
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Knight => 'N',
            Piece::Pawn => 'P',
        }
    }

    /// The kind named by a letter of position or move text.
    pub const fn from_letter(c: char) -> Option<Piece> {
        match c {
            'K' => Some(Piece::King),
            'Q' => Some(Piece::Queen),
            'R' => Some(Piece::Rook),
            'N' => Some(Piece::Knight),
            'P' => Some(Piece::Pawn),
            _ => None,
        }
    }

    /// Index `0..3` into a reserve, for the kinds a reserve holds.
    pub const fn reserve_index(self) -> Option<usize> {
        match self {
            Piece::Queen => Some(0),
            Piece::Rook => Some(1),
            Piece::Knight => Some(2),
            _ => None,
        }
    }
}

/// No cell (in [`Move`] fields that are unused, e.g. a pass).
const NONE: u8 = u8::MAX;
/// `Move::info` bit: castling.
const CASTLE: u8 = 1 << 2;
/// `Move::info` bit: a pass.
const PASS: u8 = 1 << 3;

/// One player's whole turn: an optional delayed promotion, then a piece move, a castling or a pass.
///
/// Packed into four bytes because search stores one per tree edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Cell number of the moving piece (the king, for castling).
    from: u8,
    /// Cell number of the destination (the rook, for castling).
    to: u8,
    /// Bits 0-1: immediate promotion (0 none, 1 + reserve index); bit 2: castling; bit 3: pass;
    /// bits 4-5: delayed promotion piece (0 none, 1 + reserve index).
    info: u8,
    /// The promoted waiting pawn's cell when bits 4-5 of `info` are set.
    wait: u8,
}

impl Move {
    /// A piece move (a capture if `to` holds an enemy piece).
    #[inline(always)]
    pub const fn normal(from: Cell, to: Cell) -> Move {
        Move { from: from.index() as u8, to: to.index() as u8, info: 0, wait: NONE }
    }

    /// A pawn move onto its promotion edge that promotes at once to reserve piece `r` (`0..3`).
    #[inline(always)]
    pub const fn promoting(from: Cell, to: Cell, r: usize) -> Move {
        Move { from: from.index() as u8, to: to.index() as u8, info: 1 + r as u8, wait: NONE }
    }

    /// Castling, written as the king moving onto its own rook.
    pub const fn castle(king: Cell, rook: Cell) -> Move {
        Move { from: king.index() as u8, to: rook.index() as u8, info: CASTLE, wait: NONE }
    }

    /// A pass (the player has no legal move).
    pub const fn pass() -> Move {
        Move { from: NONE, to: NONE, info: PASS, wait: NONE }
    }

    /// This move preceded by the delayed promotion of the waiting pawn on `pawn` to reserve piece `r`.
    #[inline(always)]
    pub const fn with_delayed(self, pawn: Cell, r: usize) -> Move {
        Move { info: (self.info & 0x0f) | ((1 + r as u8) << 4), wait: pawn.index() as u8, ..self }
    }

    /// Whether this is a pass (possibly after a delayed promotion).
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.info & PASS != 0
    }

    /// Whether this is castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.info & CASTLE != 0
    }

    /// The moving piece's cell; `None` for a pass.
    #[inline(always)]
    pub fn from(self) -> Option<Cell> {
        (!self.is_pass()).then(|| Cell::from_index_unchecked(self.from as u32))
    }

    /// The destination (for castling, the rook's cell); `None` for a pass.
    #[inline(always)]
    pub fn to(self) -> Option<Cell> {
        (!self.is_pass()).then(|| Cell::from_index_unchecked(self.to as u32))
    }

    /// The reserve index (`0..3`) of an immediate promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<usize> {
        match self.info & 3 {
            0 => None,
            p => Some(p as usize - 1),
        }
    }

    /// The waiting pawn promoted before the move and the reserve index of its new kind.
    #[inline(always)]
    pub fn delayed(self) -> Option<(Cell, usize)> {
        match (self.info >> 4) & 3 {
            0 => None,
            p => Some((Cell::from_index_unchecked(self.wait as u32), p as usize - 1)),
        }
    }
}
