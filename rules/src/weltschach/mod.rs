//! Weltschach (Charles Gilman, 2008/2016): chess on an 8x8x8 cube with 176 pieces a side.
//!
//! Rules: docs/rules/weltschach.md. The start position is a RECONSTRUCTION (described there): the
//! original setup diagrams are not available. Text formats: docs/notation-weltschach.md.
//!
//! The generator writes into the crate's shared move sink (`movesink.rs`) and repetition uses the
//! crate's shared history (`history.rs`), compared over the last [`REP_WINDOW`] positions only,
//! a rule of this engine. A side is a [`Color`] rather than a bare [`Player`](crate::Player) number: it is one
//! bit of every board byte (`piece.rs`) and the case of a piece letter in the text, and an enum
//! cannot hold a third value; [`Color::index`] and [`Color::from_index`] convert to and from the
//! seat that [`Game`](crate::Game) speaks of.

mod attacks;
mod diagram;
mod encode;
mod game;
mod geometry;
mod insufficient;
mod movegen;
mod notation;
mod piece;
mod position;
mod setup;
mod wins;
mod zobrist;

#[cfg(feature = "test-support")]
pub use encode::{transform_move, transform_position};
pub use geometry::Cell;
pub use piece::{Color, Kind};
pub use position::{Move, Weltschach, MOVE_LIMIT_PLIES, REP_WINDOW};
