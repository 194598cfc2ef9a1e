//! The analysis engine shared by `vzero uci` and `vzero analyse`: one position, one evaluator
//! (a network or the uniform baseline), and a search run in chunks so that it can report while
//! it runs and stop at once, with its answer (ranked root moves, scores, principal variations)
//! in a variant-free [`Report`].

mod limits;
mod report;
mod search;
mod session;
mod shipped;

pub use limits::{Clock, Limits};
pub use report::{cp_from_q, Line, Report};
pub use search::Settings;
pub use session::{model_variant, open_session, Encoded, LegalMove, Session};
pub use shipped::{uniform_reason, ModelChoice};
