//! Rules of the vzero chess variants: board geometry, move generation, results, position and
//! move text, perft, and the encoding of positions and moves for a neural network.
//!
//! Every variant implements [`Game`] (rules and text), which is all search needs, and beside it
//! [`Encoding`] (the network's view), [`Pictured`] (diagrams) and [`Material`] (piece values);
//! [`FullGame`] bundles the four for self-play and the CLI. [`VariantGame`] holds a game of any
//! variant chosen at run time, for the CLI's engine and the Python module; [`GameText`] is a
//! game of any variant as text (docs/games.md).

pub mod board_text;
pub mod diagram;
mod draw_rules;
pub mod encoding;
pub mod ending;
pub mod error;
pub mod full_game;
#[cfg(feature = "test-support")]
pub mod fuzz;
pub mod game;
pub mod game_text;
pub mod hex;
pub mod hexchess;
mod history;
pub mod material;
mod movesink;
pub mod perft;
pub mod player;
pub mod policy_map;
pub mod scores;
mod splitmix;
pub mod variant;
pub mod variant_game;
pub mod wellisch;
pub mod weltschach;

pub use board_text::board_text;
pub use diagram::{ending_text, CellShape, Diagram, DiagramCell, DiagramPiece, Panel, Pictured};
pub use encoding::Encoding;
pub use ending::{describe_end, Ending};
pub use error::{MoveError, PlayError, PositionError, SetupError};
pub use full_game::FullGame;
pub use game::{game_over_text, winning_move_by_trying, wins_by, Game};
pub use game_text::{read_games, GameText, GameTextError, Termination};
pub use hexchess::{Glinski, MiniHexchess};
pub use material::{
    material_standings, material_values, move_limit_standings, Material, Standings, MATERIAL_VALUE_SCALE,
};
pub use player::{Player, MAX_PLAYERS};
pub use policy_map::{PolicyMap, PolicyMove};
pub use scores::Scores;
pub use variant::Variant;
pub use variant_game::{BoardMove, KnownVariant, VariantGame};
