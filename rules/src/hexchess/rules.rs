//! What distinguishes Glinski Chess from Mini Hexchess; everything else is shared code.

use crate::hex::{Cell, Dir, HexBoard, BOARD_R3, BOARD_R5};

use super::piece::Piece;

/// The rules of one two-player hex chess variant, as compile-time data: the shared move generator,
/// position type and encoding are generic over it, so each variant is monomorphised.
pub trait HexRules: Copy + Clone + std::fmt::Debug + Default + Send + Sync + 'static {
    /// The command-line name.
    const NAME: &'static str;
    /// The board's lookup tables.
    const BOARD: &'static HexBoard;
    /// The start position in position text.
    const START: &'static str;
    /// The piece types the variant uses, in encoding-plane order.
    const PIECES: &'static [Piece];
    /// Promotion choices; the first is the one the policy encodes as the plain pawn move.
    const PROMOTIONS: &'static [Piece];
    /// White's pawn capture directions (Black's are their [`Dir::flip`]), left one first.
    const PAWN_CAPTURES: [Dir; 2];
    /// Whether pawns on their side's start cells may step twice (and so en passant exists).
    const DOUBLE_STEP: bool;
    /// White's pawn start cells (only read when [`HexRules::DOUBLE_STEP`]); Black's are the flips.
    const WHITE_PAWN_STARTS: u128;
    /// The stalemating player's score (the stalemated player gets one minus it).
    const STALEMATE_SCORE: f32;

    /// Each side's pawn start cells (derived: Black's are the flips of White's).
    const PAWN_STARTS: [u128; 2] = [Self::WHITE_PAWN_STARTS, flip_cells(Self::WHITE_PAWN_STARTS)];
    /// Each side's promotion cells: the last cell of every file in its forward direction.
    const PROMOTION_CELLS: [u128; 2] = [
        Self::BOARD.on_board() & !Self::BOARD.can_step(Dir::N),
        Self::BOARD.on_board() & !Self::BOARD.can_step(Dir::S),
    ];
}

/// The top-bottom reflection ([`Cell::flip`]) of a set of cells.
const fn flip_cells(cells: u128) -> u128 {
    let mut out = 0;
    let mut i = 0;
    while i < 128 {
        if cells & (1 << i) != 0 {
            out |= Cell::from_index_unchecked(i).flip().bit();
        }
        i += 1;
    }
    out
}

/// Glinski Chess (docs/rules/glinski.md): radius 5, double steps and en passant, promotion to Q R B
/// N, stalemate 3/4 - 1/4.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GlinskiRules;

impl HexRules for GlinskiRules {
    const NAME: &'static str = "glinski";
    const BOARD: &'static HexBoard = &BOARD_R5;
    const START: &'static str = "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1";
    const PIECES: &'static [Piece] =
        &[Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];
    const PROMOTIONS: &'static [Piece] = &[Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight];
    const PAWN_CAPTURES: [Dir; 2] = [Dir::NW, Dir::NE];
    const DOUBLE_STEP: bool = true;
    // b1 c2 d3 e4 f5 g4 h3 i2 k1: the V of cells from (-4, -1) up to f5 (0, -1) and down to (4, -5).
    const WHITE_PAWN_STARTS: u128 = {
        let mut bb = 0u128;
        let mut q = -4i8;
        while q <= 4 {
            let r = if q <= 0 { -1 } else { -1 - q };
            bb |= cell(q, r).bit();
            q += 1;
        }
        bb
    };
    const STALEMATE_SCORE: f32 = 0.75;
}

/// Mini Hexchess (docs/rules/mini-hexchess.md): radius 3, no queen, single steps only, pawns
/// capture to the nearest same-colour cells ahead, promotion to R B N, stalemate a draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MiniRules;

impl HexRules for MiniRules {
    const NAME: &'static str = "mini-hexchess";
    const BOARD: &'static HexBoard = &BOARD_R3;
    const START: &'static str = "b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1";
    const PIECES: &'static [Piece] = &[Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::King];
    const PROMOTIONS: &'static [Piece] = &[Piece::Rook, Piece::Bishop, Piece::Knight];
    // (-1, +2, -1) and (+1, +1, -2): vertex directions 5 and 0.
    const PAWN_CAPTURES: [Dir; 2] = [Dir::ALL[11], Dir::ALL[6]];
    const DOUBLE_STEP: bool = false;
    const WHITE_PAWN_STARTS: u128 = 0;
    const STALEMATE_SCORE: f32 = 0.5;
}

/// The cell `(q, r)`, for constant tables.
const fn cell(q: i8, r: i8) -> Cell {
    match Cell::new(q, r) {
        Some(c) => c,
        None => panic!("not a cell"),
    }
}
