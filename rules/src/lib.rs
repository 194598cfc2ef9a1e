//! Rules of the vzero chess variants: board geometry, move generation, results, position and
//! move text, perft, and the encoding of positions and moves for a neural network.
//!
//! Every variant implements [`Game`]; search, self-play and the CLI are generic over it.

pub mod diagram;
pub mod error;
pub mod game;
pub mod hex;
pub mod hexchess;
pub mod perft;
pub mod scores;
pub mod variant;
pub mod wellisch;
pub mod weltschach;
pub mod wins;

pub use diagram::{CellShape, Diagram, DiagramCell, DiagramPiece};
pub use error::{MoveError, PositionError};
pub use game::{Game, Player, MAX_PLAYERS};
pub use hexchess::{Glinski, MiniHexchess};
pub use scores::Scores;
pub use variant::{Variant, WithGame};
