//! The network's view of a variant, kept apart from [`Game`](crate::Game) because search never needs it.

use crate::material::Material;
use crate::policy_map::PolicyMap;
use crate::scores::Scores;

/// How a variant's positions and moves are shown to a neural network: input planes, policy
/// indices, the board mask, and board symmetries for data augmentation. Every trainable variant
/// also has piece values ([`Material`]): self-play may use them as a prior and to score games
/// stopped at the move limit.
pub trait Encoding: Material {
    /// Shape of the network input for one position: `[C, H, W]` (hex) or `[C, D, H, W]` (cube).
    const INPUT_SHAPE: &'static [usize];
    /// Number of policy outputs; [`Encoding::policy_index`] maps legal moves into `0..POLICY_SIZE`.
    const POLICY_SIZE: usize;
    /// Number of board symmetries used for data augmentation, the identity (0) included.
    const NUM_SYMMETRIES: usize = 1;

    /// Writes the network input for this position, seen by the player to move, into `planes`
    /// (length = product of [`Encoding::INPUT_SHAPE`]; every element is written).
    fn encode(&self, planes: &mut [f32]);

    /// The policy output that stands for `mv` (a legal move here); injective on legal moves.
    fn policy_index(&self, mv: Self::Move) -> usize;

    /// What every policy index stands for, as data (for programs outside vzero: the exported
    /// model's sidecar carries it); consistent with [`Encoding::policy_index`].
    fn policy_map() -> PolicyMap;

    /// Applies symmetry `sym` (`0..NUM_SYMMETRIES`) to encoded planes.
    fn transform_planes(sym: usize, src: &[f32], dst: &mut [f32]) {
        debug_assert_eq!(sym, 0);
        dst.copy_from_slice(src);
    }

    /// Applies symmetry `sym` to a policy index, consistently with [`Encoding::transform_planes`].
    fn transform_policy_index(sym: usize, index: usize) -> usize {
        debug_assert_eq!(sym, 0);
        index
    }

    /// Which cells of the encoding's spatial grid are on the board (1.0) rather than padding
    /// (0.0), flattened over the spatial dimensions; `None` when every cell is on the board.
    /// Networks zero the padding after every layer.
    fn board_mask() -> Option<Vec<f32>> {
        None
    }

    /// Every final score vector the game can end with, in seat order. The default is a
    /// two-player game's win, draw and loss; variants with other results override it.
    fn outcomes() -> Vec<Scores> {
        debug_assert_eq!(Self::NUM_PLAYERS, 2, "a game of {} players lists its outcomes", Self::NUM_PLAYERS);
        vec![Scores::win2(0), Scores::draw(2), Scores::win2(1)]
    }

    /// The value head's classes: the [`Encoding::outcomes`] seen from every seat that can be to
    /// move (entry `k` of a class is the score of the player `k` seats after the mover), without
    /// repeats, best for the mover first. The network's values are the expectation of a
    /// distribution over them, so they sum to the game's constant by construction.
    fn value_classes() -> Vec<Vec<f32>> {
        let n = Self::NUM_PLAYERS;
        let mut classes: Vec<Vec<f32>> = Vec::new();
        for scores in Self::outcomes() {
            for mover in 0..n {
                let seen: Vec<f32> = (0..n).map(|k| scores.get((mover + k) % n)).collect();
                if !classes.contains(&seen) {
                    classes.push(seen);
                }
            }
        }
        classes.sort_by(|a, b| b.partial_cmp(a).expect("scores are finite"));
        classes
    }

    /// Number of `f32`s in one encoded position.
    fn input_len() -> usize {
        Self::INPUT_SHAPE.iter().product()
    }
}
