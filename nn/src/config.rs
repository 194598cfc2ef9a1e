//! The shape of a policy/value network.

use rules::Encoding;
use serde::{Deserialize, Serialize};

/// Where the trunk's residual blocks run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Trunk {
    /// On every cell, with 3x3(x3) convolutions throughout (AlphaZero's layout).
    #[default]
    Full,
    /// On cells of 2x2(x2) cells, an eighth as many on the cube: a 1x1 stem of half the
    /// channels at full resolution, folded into the coarse grid for the blocks and added back
    /// at full resolution for the policy, whose moves are per cell; the value head reads the
    /// coarse grid. Every spatial dimension of the board's grid must be even.
    Halved,
}

impl Trunk {
    /// The name used in configs and checkpoints.
    pub fn name(self) -> &'static str {
        match self {
            Trunk::Full => "full",
            Trunk::Halved => "halved",
        }
    }
}

impl std::str::FromStr for Trunk {
    type Err = String;

    fn from_str(text: &str) -> Result<Trunk, String> {
        match text {
            "full" => Ok(Trunk::Full),
            "halved" => Ok(Trunk::Halved),
            _ => Err(format!("trunk '{text}': expected full or halved")),
        }
    }
}

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
    /// Where the residual blocks run.
    pub trunk: Trunk,
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
            trunk: Trunk::Full,
            board_mask: G::board_mask(),
        }
    }

    /// The same network with its blocks where `trunk` says.
    pub fn with_trunk(self, trunk: Trunk) -> NetConfig {
        NetConfig { trunk, ..self }
    }

    /// Why `trunk` cannot run on this board, if it cannot.
    pub fn trunk_problem(&self) -> Option<String> {
        let odd = self.input_shape[1..].iter().any(|d| d % 2 == 1);
        (self.trunk == Trunk::Halved && odd).then(|| {
            let grid: Vec<String> = self.input_shape[1..].iter().map(|d| d.to_string()).collect();
            format!("a halved trunk needs a grid of even sides, and this board's is {}", grid.join("x"))
        })
    }

    /// The spatial shape the residual blocks run on.
    pub fn trunk_shape(&self) -> Vec<usize> {
        match self.trunk {
            Trunk::Full => self.input_shape[1..].to_vec(),
            Trunk::Halved => self.input_shape[1..].iter().map(|d| d / 2).collect(),
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
