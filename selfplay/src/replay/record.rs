//! A finished self-play game as it is stored: compact, variant-agnostic, replayable.

use rules::MAX_PLAYERS;
use serde::{Deserialize, Serialize};

/// One finished game: the start position, every move with its search statistics, the result.
///
/// Positions are not stored: a sampled position is rebuilt by replaying the moves from
/// `start`, which keeps a million-position window small and the encoding always current.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The variant's name (`Game::NAME`).
    pub variant: String,
    /// The game's number in its run: with the run's seed it determines the game. Games of
    /// extra self-play processes have the top bit set (see [`EXTERNAL_GAME`]).
    pub number: u64,
    /// The start position in the variant's text format.
    pub start: String,
    /// The moves in order.
    pub moves: Vec<MoveRecord>,
    /// Final score of each seat.
    pub scores: Vec<f32>,
}

/// One move of a recorded game and the search behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Policy index of the move played (unique among the legal moves of that position).
    pub played: u32,
    /// The policy target as (policy index, count), moves with a count only; shares are counts
    /// over their sum. PUCT stores the root children's visit counts (after target pruning);
    /// Gumbel search its improved policy times the child visits, rounded, so a share below half
    /// a visit is dropped as a visit count would be.
    pub visits: Vec<(u32, u32)>,
    /// Whether the search was a full one whose visits are a policy target (playout-cap
    /// randomisation searches some moves cheaply and marks them false).
    pub policy_target: bool,
    /// The search's value of the position for each seat (unused seats 0); `None` in games
    /// recorded before it was kept, or imported from game files.
    pub root_value: Option<[f32; MAX_PLAYERS]>,
}

/// Bit set in the numbers of games played by `vzero selfplay` processes beside the trainer, so
/// they never collide with the trainer's own numbering.
pub const EXTERNAL_GAME: u64 = 1 << 63;

/// Bit set in the numbers of games played by the classical teacher (`vzero teach`, a run's
/// `[teacher]`): their moves carry the teacher's policy target, and their `root_value` is the
/// value target itself (the teacher's evaluation already mixed with the result).
pub const TEACHER_GAME: u64 = 1 << 62;

impl GameRecord {
    /// Whether the classical teacher played this game ([`TEACHER_GAME`]).
    pub fn is_teacher(&self) -> bool {
        self.number & TEACHER_GAME != 0 && self.number & EXTERNAL_GAME == 0
    }

    /// Number of positions that serve as training examples.
    pub fn training_positions(&self) -> usize {
        self.moves.iter().filter(|m| m.policy_target).count()
    }
}
