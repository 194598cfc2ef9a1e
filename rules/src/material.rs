//! Piece values, for players that judge moves by material rather than by search or a network:
//! the greedy baseline and the alpha-beta yardstick. The values per variant are listed in
//! docs/alphabeta.md.

use crate::game::{Game, MAX_PLAYERS};

/// What pieces are worth in a variant; never used by the rules themselves.
pub trait Material: Game {
    /// What `mv` (a legal move here) captures, in pawns (0 for nothing; a king, where kings
    /// can be captured, is worth 1000).
    fn capture_value(&self, mv: Self::Move) -> f32;

    /// What the piece making `mv` (a legal move here) is worth, in pawns: searches try cheap
    /// attackers first among captures of the same victim (MVV-LVA).
    fn mover_value(&self, mv: Self::Move) -> f32;

    /// Each seat's material on the board, in pawns, kings not counted (seats past the variant's
    /// players hold 0): what a static evaluation weighs. Cheap enough to call at every leaf.
    fn material(&self) -> [f32; MAX_PLAYERS];
}
