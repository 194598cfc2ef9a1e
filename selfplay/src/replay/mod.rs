//! The replay buffer: finished games on disk (shards) and in memory (the sliding window), and
//! the decoding of sampled positions into training examples.

pub mod check;
pub mod playback;
pub mod record;
pub mod sample;
pub mod sampler;
pub mod shard;
pub mod snapshots;
pub mod window;

pub use check::read_checked_shard;
pub use playback::{DecodeError, Replay, Step};
pub use record::{GameRecord, MoveRecord, EXTERNAL_GAME, TEACHER_GAME};
pub use sample::{decode_position, record_to_text, replay_to, write_example, Example, ExampleSlices};
pub use shard::{parse_shard, read_shard, shard_bytes, write_shard, ShardError, ShardName};
pub use window::{ReplayWindow, WindowSize};
