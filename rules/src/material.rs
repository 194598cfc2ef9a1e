//! Piece values, for players that judge moves by material rather than by search or a network.

use crate::game::Game;

/// What captures are worth in a variant; never used by the rules themselves.
pub trait Material: Game {
    /// What `mv` (a legal move here) captures, in pawns (0 for nothing; a king, where kings
    /// can be captured, is worth 1000). Variants without it return 0. Used by the greedy
    /// baseline player, never by the rules.
    fn capture_value(&self, mv: Self::Move) -> f32 {
        let _ = mv;
        0.0
    }
}
