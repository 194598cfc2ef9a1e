//! Arena players named on the command line: `random`, `greedy`, `alphabeta:DEPTH[:MS]`
//! (classical alpha-beta to DEPTH plies, at most MS milliseconds a move), `mcts[:SIMS]` (uniform
//! evaluator), `rollout[:SIMS]` (random-playout evaluator), a checkpoint `PATH[:SIMS]` (a
//! checkpoint folder, or a run directory for its newest checkpoint) or `uci:COMMAND` (another
//! program speaking the engine protocol), a search player with `@MS` searching MS milliseconds
//! a move: parsed as text ([`PlayerSpec`]), then loaded ([`load_players`]).

mod fixed;
mod load;
mod spec;

pub use fixed::{check_fixed_opponents, NotFixed};
pub use load::{load_network, load_players, rollout_evaluator, PlayerOptions, Players};
pub use spec::{PlayerError, PlayerSpec};
