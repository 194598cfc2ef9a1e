//! The replay buffer: finished games on disk (shards) and in memory (the sliding window), and
//! the decoding of sampled positions into training examples.

pub mod record;
pub mod sample;
pub mod shard;
pub mod window;

pub use record::{GameRecord, MoveRecord};
pub use sample::{decode_position, find_move, record_to_text, replay_to, DecodeError, Example, ExampleSlices};
pub use shard::{read_shard, write_shard, ShardError, ShardName};
pub use window::{ReplayWindow, WindowSize};
