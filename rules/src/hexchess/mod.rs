//! Two-player chess on a hexagon: Glinski Chess and Mini Hexchess (spec §2 and §3).
//!
//! One position type, one move generator and one encoding serve both; [`HexRules`] holds what
//! differs (board radius, setup, pawn captures and double steps, promotion set, stalemate score).

mod diagram;
mod encode;
mod game;
mod history;
mod insufficient;
mod movegen;
mod notation;
mod piece;
mod policy_map;
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
