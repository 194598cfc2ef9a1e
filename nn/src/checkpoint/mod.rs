//! Checkpoints: a network's weights saved without ever leaving a half-written file
//! ([`save_weights`]), and the folder a training run keeps after each step (weights, optimizer
//! state and counters, checked by checksums: [`save_checkpoint`], [`verify_checkpoint`]), and
//! which of a run's checkpoints can be used ([`newest_usable`], [`usable_checkpoints`]), and the
//! checkpoint a path names: a checkpoint folder, or the newest usable one in a run's
//! [`RUN_CHECKPOINTS`] folder ([`resolve_checkpoint`]).

mod folder;
mod lookup;
mod usable;
mod weights;

pub use folder::{
    check_format, checkpoint_dir, is_checkpoint, list_checkpoints, load_checkpoint, read_state, save_checkpoint,
    set_aside_checkpoints, verify_checkpoint, CheckpointError, CheckpointState, MAX_BLOCKS, MAX_CHANNELS,
    NETWORK_FORMAT, SET_ASIDE,
};
pub use lookup::{resolve_checkpoint, LookupError, LookupFailure, RUN_CHECKPOINTS, SHIPPED_CHECKPOINT};
pub use usable::{newest_usable, usable_checkpoints, Newest, Skipped};
pub(crate) use weights::read_tensors;
pub use weights::{load_weights, save_weights};
