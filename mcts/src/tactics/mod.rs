//! Tactics inside the tree, not only at its leaves: a classical judge's opinion of every move
//! of each new node. What a PUCT search visits is chosen by its prior, and a prior without
//! tactics never looks at the capture or the threat that a full-width search sees. So the
//! search can blend the judge's value into leaf values ([`Tactics::tactics_weight`], through
//! [`crate::Blend`]), mix its opinion into new nodes' priors ([`prior`]), take the best judged
//! move's value as a node's value ([`Tactics::tactical_value`]), minimax the judged values up
//! the tree for selection and move choice ([`minimax`], implicit minimax backups, Lanctot et
//! al. 2014) and choose the move by a lower confidence bound ([`choice`]).
//!
//! [`settings`] declares every tactical setting once ([`Tactics`]); [`network_plies`] is how deep
//! the network is asked; [`judge`] is what the
//! search asks ([`MoveJudge`], [`Judged`]); `alphabeta::TacticsJudge` is the judge.

pub(crate) mod choice;
pub mod judge;
pub(crate) mod minimax;
pub mod network_plies;
pub mod prior;
pub mod settings;

pub use crate::setting::MAX_PLY_COUNT;
pub use judge::{seat_vector, Judged, MoveJudge};
pub use network_plies::{NetworkPlies, CLOCK_NETWORK_PLIES};
pub use prior::softmax;
pub use settings::{MoveChoice, Tactics, MAX_LCB_WIDTH, MAX_TACTICS_DEPTH, MAX_TEMPERATURE};
