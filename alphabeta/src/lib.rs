//! A classical alpha-beta player that never learns: the fixed yardstick every training run is
//! measured against (`alphabeta:DEPTH[:MS]` in the arena).
//!
//! Iterative-deepening negamax with alpha-beta over any [`rules::Game`] that knows its piece
//! values ([`rules::Material`]): a transposition table keyed by the game's Zobrist hash, moves
//! ordered by the table's move, captures (most valuable victim, least valuable attacker), killer
//! moves and history, a quiescence search on captures with stand-pat, and an evaluation by
//! material plus a small mobility term. Three players (Wellisch) are searched paranoid: the
//! player to move at the root maximises its own evaluation and both others minimise it.
//! docs/alphabeta.md explains every choice and lists the piece values.
//!
//! The same search also judges the leaves of an `mcts` search: [`TacticsJudge`] is the leaf judge
//! ([`mcts::LeafJudge`]) whose tactical values a search blends into its evaluator's
//! ([`tactical_evaluator`]: `--tactics`, `search.tactics_weight`).
//!
//! Every search ends at its depth, its time limit, or a stop flag ([`search_until`]), and the
//! judge's at a node budget ([`JUDGE_NODES`]), so none outlives a stop request by more than
//! about a millisecond. Without a time limit a search is deterministic for a given seed; the seed only breaks ties
//! between equally valued root moves, so games vary across a match but replay exactly.
//!
//! ```
//! use alphabeta::{search, SearchLimits};
//! use rules::{Game, MiniHexchess};
//!
//! let game = MiniHexchess::start();
//! let report = search(&game, &SearchLimits::depth(2), 7).expect("the start position has moves");
//! assert_eq!(report.depth, 2);
//! assert!(game.parse_move(&game.move_text(report.best)).is_ok());
//! ```

mod eval;
mod judge_cache;
mod limits;
mod ordering;
mod search;
mod table;
mod tactics;

pub use eval::{expected_score, EXPECTED_SCORE_SCALE, MATE, MOBILITY_CENTIPAWNS};
pub use judge_cache::{JudgeCache, JUDGE_CACHE_BITS};
pub use limits::{SearchLimits, SearchLimitsError, MAX_DEPTH};
pub use search::{
    judge_first_ply, move_values, move_values_cached, quiescence_value, score_root_moves, score_root_moves_within,
    search, search_until, Iteration, SearchOutcome, JUDGE_MARGIN, JUDGE_NODES, JUDGE_QUIESCENCE_NODES,
};
pub use tactics::{seat_values, tactical_evaluator, tactical_evaluator_with, TacticalEvaluator, TacticsJudge};
