//! Games as text: one PGN-like record for all four variants (docs/games.md). Tag pairs name the
//! variant, the start position where it is not the standard one, who sat in each seat, the
//! result and why the game ended; the moves follow in the variant's notation, numbered by
//! rounds, with `+` after a check and `#` after a mate:
//!
//! ```text
//! [Variant "glinski"]
//! [White "alphabeta:2"]
//! [Black "random"]
//! [Result "1-0"]
//! [Termination "checkmate"]
//!
//! 1. f5-f6 c7-c6 2. e4-e5 ... 1-0
//! ```
//!
//! [`GameText::write`] writes one game, [`read_games`] reads every game of a text back and
//! replays it, so a game read is a legal one whose result agrees with its moves.

mod error;
mod lex;
mod read;
mod result;
mod termination;
mod write;

pub use error::{GameTextError, Problem};
pub use read::read_games;
pub use result::{parse_result, result_text, UNFINISHED};
pub use termination::{Termination, UnknownTermination};
pub use write::check_mark;

use crate::error::PositionError;
use crate::player::Player;
use crate::scores::Scores;
use crate::variant::Variant;
use crate::variant_game::VariantGame;

/// The file name extension of game text files (vzero game notation: PGN's syntax, but moves in
/// the variants' own notation, which PGN tools would not read).
pub const EXTENSION: &str = "vgn";

/// The seat name of anyone not named (PGN's "unknown").
pub const UNKNOWN_SEAT: &str = "?";

/// One recorded game: where it started, who played, every move, and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameText {
    /// The variant played (`[Variant]`).
    pub variant: Variant,
    /// The start position's text where it is not the variant's standard start (`[Start]`).
    pub start: Option<String>,
    /// Who played each seat, in seat order (`[White]`, `[Black]`; `[P1]` to `[P3]`).
    pub seats: Vec<String>,
    /// The moves in the variant's notation, as the variant writes them (no marks).
    pub moves: Vec<String>,
    /// Every seat's final score (`[Result]`); `None` for a game not finished (`*`).
    pub result: Option<Scores>,
    /// Why the game ended (`[Termination]`), where that is known.
    pub termination: Option<Termination>,
    /// Any other tags (`[Event]`, `[Round]`, ...), in order; written before the ones above.
    pub tags: Vec<(String, String)>,
}

impl GameText {
    /// A game of `variant` not yet played from `start` (position text), seats unknown.
    pub fn new(variant: Variant, start: &str) -> GameText {
        let standard = VariantGame::start(variant).to_text();
        GameText {
            variant,
            start: (start != standard).then(|| start.to_string()),
            seats: vec![UNKNOWN_SEAT.to_string(); variant.players()],
            moves: Vec::new(),
            result: None,
            termination: None,
            tags: Vec::new(),
        }
    }

    /// Takes the result and the ending from `last`, the game's final position, where the rules
    /// have ended it (else the game stays unfinished).
    pub fn end_by_rules(&mut self, last: &VariantGame) {
        self.result = last.outcome();
        self.termination = last.ending().map(Termination::Rules);
    }

    /// The start position.
    pub fn start_game(&self) -> Result<VariantGame, PositionError> {
        match &self.start {
            Some(text) => VariantGame::from_text(self.variant, text),
            None => Ok(VariantGame::start(self.variant)),
        }
    }

    /// The value of the tag `name` among [`GameText::tags`].
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The names of `variant`'s seats as tags name them: `White` and `Black`, or `P1` to `P3`
/// (as its board pictures do).
pub fn seat_tags(variant: Variant) -> Vec<String> {
    let pictured = VariantGame::start(variant).diagram().map(|d| d.players);
    pictured.unwrap_or_else(|| (1..=variant.players()).map(|p| format!("P{p}")).collect())
}

/// Move numbers as PGN counts them: a round is every seat's move, and the count goes up when
/// the turn comes back round (to the same or an earlier seat).
#[derive(Clone, Copy, Debug, Default)]
struct Rounds {
    number: usize,
    last: Option<Player>,
}

impl Rounds {
    /// The number of the move `seat` makes next, and whether a round starts with it.
    fn next(&mut self, seat: Player) -> (usize, bool) {
        let starts = self.last.is_none_or(|last| seat <= last);
        if starts {
            self.number += 1;
        }
        self.last = Some(seat);
        (self.number, starts)
    }
}
