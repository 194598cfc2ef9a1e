//! The analysis engine shared by `vzero uci`, `analyse`, `play` and `serve`: one position, one
//! evaluator (a network or the uniform baseline), and a search run in chunks so that it can
//! report while it runs and stop at once, with its answer (ranked root moves, scores, principal
//! variations) in a variant-free [`Analysis`].

mod analysis;
mod clocks;
mod limits;
mod search;
mod session;
mod shipped;

pub use analysis::{cp_from_q, Analysis};
pub use clocks::{time_loss_scores, Clocks, TimeControl};
pub use limits::{Clock, Limits};
pub(crate) use search::search;
pub use search::{EngineSettings, INFO_EVERY};
pub use session::{model_variant, open_session, Session};
pub use shipped::{models_dir, shipped_model, uniform_reason, ModelChoice};
