//! The run directory and what is kept in it besides games and checkpoints: its paths and crash-safe
//! writes ([`RunDir`]), the event log (metrics.jsonl), the one-trainer lock and the host name
//! that shard names and locks carry.

pub mod events;
pub mod host;
pub mod lock;
pub mod rundir;

pub use events::{read_events, EventLog, RunEvent};
pub use lock::{held_lock_fd, lock_run, LockError, RunLock};
pub use rundir::{at, write_atomic, NotARun, RunDir, RunIoError};
