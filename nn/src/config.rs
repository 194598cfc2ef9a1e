//! The shape of a policy/value network.

use rules::Encoding;

/// What the network looks like: input and output sizes from the variant, depth and width chosen
/// by the user.
#[derive(Clone, Debug, PartialEq)]
pub struct NetConfig {
    /// Input shape of one position: `[C, H, W]` (2-D convolutions) or `[C, D, H, W]` (3-D).
    pub input_shape: Vec<usize>,
    /// Number of policy logits (the variant's `POLICY_SIZE`).
    pub policy_size: usize,
    /// Number of value outputs: one expected score per player.
    pub players: usize,
    /// The value head's classes, the game's final score vectors seen from the mover (entry `k`:
    /// the player `k` seats after it), `players` scores each; the values are their expectation
    /// under the head's softmax, so they sum to the game's constant by construction.
    pub outcomes: Vec<Vec<f32>>,
    /// Residual blocks in the trunk.
    pub blocks: usize,
    /// Channels in the trunk.
    pub channels: usize,
    /// Cells that exist on the board (1) or only pad the grid (0), flattened over the spatial
    /// dimensions; applied after every layer so off-board padding never carries signal.
    pub board_mask: Option<Vec<f32>>,
}

impl NetConfig {
    /// The network for game `G` with `blocks` residual blocks of `channels` channels.
    pub fn for_game<G: Encoding>(blocks: usize, channels: usize) -> NetConfig {
        NetConfig {
            input_shape: G::INPUT_SHAPE.to_vec(),
            policy_size: G::POLICY_SIZE,
            players: G::NUM_PLAYERS,
            outcomes: G::value_classes(),
            blocks,
            channels,
            board_mask: G::board_mask(),
        }
    }

    /// The number of spatial dimensions (2 for hex boards, 3 for the cube).
    pub fn spatial_dims(&self) -> usize {
        self.input_shape.len() - 1
    }

    /// The number of cells in the spatial grid.
    pub fn spatial_len(&self) -> usize {
        self.input_shape[1..].iter().product()
    }

    /// Number of `f32`s in one encoded position.
    pub fn input_len(&self) -> usize {
        self.input_shape.iter().product()
    }
}
