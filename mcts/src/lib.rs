//! Monte-Carlo tree search (PUCT or Gumbel, max-n for any number of players) over any
//! [`rules::Game`].
//!
//! A [`Search`] holds one game's tree. It works in rounds: [`Search::gather_leaves`] descends to
//! new positions (virtual loss keeps several in flight) and puts them in a [`Batch`]; an
//! [`Evaluator`] fills the batch's prior and value slots in one call; [`Search::apply_results`]
//! backs the answers up. [`Search::run`] does this for one game on one thread,
//! [`Search::run_parallel`] with several threads on one tree, and [`drive`] for many games
//! sharing each evaluator call (self-play):
//!
//! ```
//! use mcts::{Batch, Search, SearchParams, UniformEvaluator};
//! use rules::hexchess::MiniHexchess;
//! use rules::Game;
//!
//! // Four games, a dozen plies each, with the uniform evaluator standing in for a network.
//! let params = SearchParams { simulations: 32, ..SearchParams::default() };
//! let mut searches: Vec<Search<MiniHexchess>> =
//!     (0..4).map(|i| Search::new(MiniHexchess::start(), params.clone(), i)).collect();
//! let mut batch = Batch::new();
//! let mut plies = [0; 4];
//! // One evaluator call serves leaves of all games; a game moves as soon as its search is done.
//! mcts::drive(&mut searches, &UniformEvaluator, &mut batch, |game, search| {
//!     let result = search.result().expect("searched a live position");
//!     // Self-play records (position, result.policy_target) here when result.full_search.
//!     search.advance(result.chosen); // reuses the subtree below the move
//!     plies[game] += 1;
//!     if search.root_state().outcome().is_some() {
//!         search.reset(MiniHexchess::start());
//!     }
//!     plies[game] < 12 // false retires the game
//! });
//! assert_eq!(plies, [12; 4]);
//! ```
//!
//! [`Search::result`] is what self-play needs (the policy target and the move to play);
//! [`SearchReport`] is what people and programs read (every root move's visits, values and
//! principal variation), built from a search at any moment.
//!
//! What the search knows for certain stays exact: finished games, one-move wins of a leaf's
//! mover, and (two players) positions repeating an earlier one are scored without the evaluator,
//! and the MCTS-solver proves positions from them up the tree ([`SearchParams::solver`]).
//!
//! Finding a move in a position takes a few lines (here a Glinski mate in one, Rc6-a6):
//!
//! ```
//! use mcts::{Search, SearchParams, UniformEvaluator};
//! use rules::hexchess::Glinski;
//! use rules::Game;
//!
//! let game = Glinski::from_text("1/3/5/7/R8/2R1B6/11/11/11/11/k4K5 w - 0 60").unwrap();
//! let mut search = Search::new(game.clone(), SearchParams::analysis(400), 0);
//! search.run(&UniformEvaluator);
//! let best = search.result().unwrap().chosen;
//! let mut after = game.clone();
//! after.play(best);
//! assert_eq!(after.outcome().map(|scores| scores.get(0)), Some(1.0), "{} mates", game.move_text(best));
//! ```

#![warn(missing_docs)]

pub mod batch;
pub mod bench;
pub mod cache;
mod draws;
pub mod drive;
pub mod error;
pub mod evaluator;
#[cfg(any(test, feature = "test-support"))]
pub mod fixtures;
mod gumbel;
pub mod near_root;
pub mod network;
pub mod params;
mod policy_target;
pub mod report;
pub mod result;
pub mod search;
mod seed;
mod select;
pub mod setting;
mod solver;
pub mod tactics;
pub mod target;
pub mod timed;
pub mod tree;

pub use batch::{Batch, Slot};
pub use bench::{simulations_per_second, BenchReport, SearchBench};
pub use cache::CachedEvaluator;
pub use drive::{drive, drive_until, run_many};
pub use error::SearchError;
pub use evaluator::{Blend, Evaluator, LeafJudge, MaterialJudge, RandomEvaluator, RolloutEvaluator, UniformEvaluator};
pub use near_root::NearRoot;
pub use network::{fill_from_listed, fill_from_network};
pub use params::{RootSearch, SearchParams, MAX_IN_FLIGHT, MAX_SIMULATIONS};
pub use policy_target::PolicyTarget;
pub use report::{RootMove, SearchReport};
pub use result::SearchResult;
pub use search::Search;
pub use seed::game_seed;
pub use setting::{Range, Setting, SettingError, SettingValue};
pub use tactics::{
    seat_vector, softmax, Judged, MoveChoice, MoveJudge, NetworkPlies, Tactics, CLOCK_NETWORK_PLIES, MAX_LCB_WIDTH,
    MAX_PLY_COUNT, MAX_TACTICS_DEPTH, MAX_TEMPERATURE,
};
pub use timed::{run_until, Ended, Until, CHUNK_TIME, MAX_TREE_EDGES};
