//! Monte-Carlo tree search (PUCT, max-n for any number of players) over any [`rules::Game`].
//!
//! A [`Search`] holds one game's tree. It works in rounds: [`Search::gather_leaves`] descends to
//! new positions (virtual loss keeps several in flight) and puts them in a [`Batch`]; an
//! [`Evaluator`] fills the batch's prior and value slots in one call; [`Search::apply_results`]
//! backs the answers up. [`Search::run`] does this for one game on one thread,
//! [`Search::run_parallel`] with several threads on one tree, and [`drive`] for many games
//! sharing each evaluator call (self-play):
//!
//! ```ignore
//! let mut searches: Vec<Search<G>> =
//!     (0..256).map(|i| Search::new(G::start(), SearchParams::default(), seed + i)).collect();
//! let mut batch = Batch::new();
//! // One network call serves leaves of all games; a game moves as soon as its search is done.
//! mcts::drive(&mut searches, &network, &mut batch, |game, search| {
//!     let result = search.result().expect("searched a live position");
//!     record(game, search.root_state(), &result); // policy target only if result.full_search
//!     search.advance(result.chosen);              // reuses the subtree below the move
//!     if search.root_state().outcome().is_some() {
//!         finish(game, search.root_state());
//!         search.reset(G::start());
//!     }
//!     keep_going()
//! });
//! ```
//!
//! Finding a move in a position takes a few lines:
//!
//! ```ignore
//! let game = G::from_text(fen)?;
//! let mut search = Search::new(game.clone(), SearchParams::analysis(2000), 0);
//! search.run(&UniformEvaluator);
//! assert_eq!(search.result()?.chosen, game.parse_move("f5-f6")?);
//! ```

#![warn(missing_docs)]

pub mod batch;
pub mod bench;
pub mod cache;
pub mod error;
pub mod evaluator;
pub mod params;
pub mod result;
pub mod search;
mod select;
pub mod tree;

pub use batch::{drive, drive_until, run_many, Batch, Slot};
pub use bench::{simulations_per_second, BenchReport, SearchBench};
pub use cache::CachedEvaluator;
pub use error::{ParamsError, SearchError};
pub use evaluator::{Evaluator, RandomEvaluator, RolloutEvaluator, RolloutMix, UniformEvaluator};
pub use params::SearchParams;
pub use result::SearchResult;
pub use search::Search;
