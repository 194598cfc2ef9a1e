//! Piece types and sides of the two-player hex chess variants.

use crate::player::Player;

/// A piece type; the number indexes per-type bitboards and Zobrist keys.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
#[repr(u8)]
pub enum Piece {
    /// Steps forward, captures to its variant's two capture cells, promotes on its file's last cell.
    Pawn = 0,
    /// Leaps to the 12 knight cells.
    Knight = 1,
    /// Slides along the 6 vertex directions.
    Bishop = 2,
    /// Slides along the 6 edge directions.
    Rook = 3,
    /// Rook plus bishop.
    Queen = 4,
    /// One step in any of the 12 directions.
    King = 5,
}

impl Piece {
    /// The conventional material value in pawns (the king, which is never captured, 0).
    pub const fn value(self) -> f32 {
        match self {
            Piece::Pawn => 1.0,
            Piece::Knight | Piece::Bishop => 3.0,
            Piece::Rook => 5.0,
            Piece::Queen => 9.0,
            Piece::King => 0.0,
        }
    }

    /// Every piece type, in index order.
    pub const ALL: [Piece; 6] = [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];

    /// The index `0..6`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter of position and move text (`P N B R Q K`).
    pub const fn letter(self) -> char {
        match self {
            Piece::Pawn => 'P',
            Piece::Knight => 'N',
            Piece::Bishop => 'B',
            Piece::Rook => 'R',
            Piece::Queen => 'Q',
            Piece::King => 'K',
        }
    }

    /// The piece type of a letter, either case.
    pub fn from_letter(letter: char) -> Option<Piece> {
        Piece::ALL.into_iter().find(|p| p.letter() == letter.to_ascii_uppercase())
    }

    /// The lower-case name used in error messages.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Pawn => "pawn",
            Piece::Knight => "knight",
            Piece::Bishop => "bishop",
            Piece::Rook => "rook",
            Piece::Queen => "queen",
            Piece::King => "king",
        }
    }
}

/// White, the first player (seat 0).
pub const WHITE: Player = 0;
/// Black, the second player (seat 1).
pub const BLACK: Player = 1;
