//! Wellisch Chess (1912): three players on the 91-cell hexagon. Rules: docs/rules/wellisch.md;
//! position and move text: docs/notation-wellisch.md.
//!
//! One concept per file: `geometry` (seats as 120-degree rotations, pawn directions, edges,
//! start cells), `piece` (kinds and the packed move), `position` (bitboards), `attacks`,
//! `movegen`, `castling`, `promotion` (reserves, immediate and delayed promotion), `state`
//! (playing moves, results, hash, repetition), `game` (the [`Game`](crate::Game) and
//! [`Material`](crate::Material) impls), `insufficient` (draw by insufficient material), `wins`
//! (the winning-move shortcut), `zobrist`, `notation` (text), `encode` (network planes and
//! policy), `policy_map` and `diagram`. Moves go into the crate's shared move sink
//! (`movesink.rs`), the repetition history is the crate's shared one (`history.rs`), and a seat
//! is a [`Player`](crate::Player) (0, 1, 2 in turn order), kept as a `u8` inside the position to
//! keep it small.

mod attacks;
mod castling;
mod diagram;
mod encode;
mod game;
mod geometry;
mod insufficient;
mod movegen;
mod notation;
mod piece;
mod position;
mod promotion;
mod state;
mod wins;
mod zobrist;

pub use encode::{BASE as POLICY_BLOCK, KINDS as POLICY_KINDS, PLANES};
pub use notation::label;
pub use piece::{Move, Piece};
pub use state::{Options, Wellisch, DRAW_PLIES};
