//! Why a game ended, named for people and metrics (the scores say only who gained what).

use std::fmt;

/// The rule that ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The player to move is in check and has no legal move.
    Checkmate,
    /// The player to move is not in check and has no legal move.
    Stalemate,
    /// A king was captured (Wellisch).
    KingCaptured,
    /// The variant's count of plies without a capture or pawn move ran out.
    QuietPlies,
    /// The position occurred for the third time.
    Repetition,
    /// No sequence of legal moves can end the game other than as this draw.
    InsufficientMaterial,
    /// The rules ended it for a reason the game does not name (toy games in tests).
    Other,
}

impl Ending {
    /// The reason in words, as reports print it.
    pub const fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::KingCaptured => "king captured",
            Ending::QuietPlies => "no capture or pawn move for too long",
            Ending::Repetition => "repetition",
            Ending::InsufficientMaterial => "insufficient material",
            Ending::Other => "the rules",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
