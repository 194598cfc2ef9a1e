//! What measures players: agents (random, greedy, classical alpha-beta, search with an
//! evaluator, other programs over the engine protocol), player specs as written on the command
//! line, matches with seats rotated and openings shared, forfeits, Elo, SPRT, Bradley-Terry
//! ratings and gauntlet tables. A training run calls it (gating, its gauntlet) but it knows
//! nothing of runs: it plays whatever agents it is handed.

pub mod agent;
pub mod forfeit;
pub mod gauntlet;
pub mod matches;
pub mod players;
pub mod rating;
pub mod uci;

pub use agent::{Agent, AlphaBetaAgent, GameSoFar, GreedyAgent, RandomAgent, SearchAgent};
pub use forfeit::Forfeit;
pub use matches::{continue_match, play_match, seat_agents, MatchOptions, MatchResult, PlayedGame, MATERIAL_ENDING};
pub use players::{load_network, load_players, rollout_evaluator, PlayerError, PlayerOptions, PlayerSpec, Players};
