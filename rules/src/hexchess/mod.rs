//! Two-player chess on a hexagon: Glinski Chess and Mini Hexchess (rules: docs/rules/glinski.md
//! and docs/rules/mini-hexchess.md; position and move text: docs/notation-hex.md).
//!
//! One position type, one move generator and one encoding serve both; [`HexRules`] holds what
//! differs (board radius, setup, pawn captures and double steps, promotion set, stalemate score).
//!
//! The generator writes into the crate's shared move sink, with this engine's pawn batches on top
//! (`movegen.rs`); repetition uses the crate's shared history; a side is a [`crate::Player`],
//! [`WHITE`] or [`BLACK`], kept as a `u8` inside the position to keep it small.

mod diagram;
mod encode;
mod game;
mod insufficient;
mod movegen;
mod notation;
mod piece;
mod position;
mod rules;
mod wins;
mod zobrist;

pub use piece::{Piece, BLACK, WHITE};
pub use position::{HexChess, HexMove};
pub use rules::{GlinskiRules, HexRules, MiniRules};

/// Glinski Chess: 91 cells, White moves first.
pub type Glinski = HexChess<GlinskiRules>;
/// Mini Hexchess: 37 cells, no queen.
pub type MiniHexchess = HexChess<MiniRules>;
