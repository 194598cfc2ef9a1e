//! `[network]`: the residual network's shape, and the sizes it may take.

use serde::{Deserialize, Serialize};

use super::limits::{size, Limits};

/// `[network]`: the residual network.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkConfig {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels per convolution.
    pub channels: usize,
    /// Where the residual blocks run: `full` (every cell) or `halved` (cells of 2x2(x2), for
    /// the cube; see [`nn::Trunk`]).
    pub trunk: nn::Trunk,
}

impl NetworkConfig {
    /// The network of this shape for game `G`.
    pub fn net_config<G: rules::Encoding>(&self) -> nn::NetConfig {
        nn::NetConfig::for_game::<G>(self.blocks, self.channels).with_trunk(self.trunk)
    }

    /// Each key within its range.
    pub(super) fn limits(&self) -> Limits {
        size("network.blocks", self.blocks, 256)?;
        size("network.channels", self.channels, 4096)
    }
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig { blocks: 4, channels: 32, trunk: nn::Trunk::Full }
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::testing::check_cases;
    use super::*;

    #[test]
    fn each_key_is_refused_just_outside_its_range_and_taken_at_its_bounds() {
        check_cases(
            &NetworkConfig::default(),
            NetworkConfig::limits,
            &[
                (|c| c.blocks = 0, Some("network.blocks")),
                (|c| c.blocks = 1, None),
                (|c| c.blocks = 256, None),
                (|c| c.blocks = 257, Some("network.blocks")),
                (|c| c.channels = 0, Some("network.channels")),
                (|c| c.channels = 1, None),
                (|c| c.channels = 4096, None),
                (|c| c.channels = 4097, Some("network.channels")),
            ],
        );
    }
}
