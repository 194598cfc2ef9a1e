//! Monte-Carlo tree search (PUCT, max-n for any number of players) over any [`rules::Game`].
//!
//! A [`Search`] holds one game's tree. It works in rounds: [`Search::gather_leaves`] descends to
//! new positions (virtual loss keeps several in flight) and puts them in a [`Batch`]; an
//! [`Evaluator`] fills the batch's prior and value slots in one call; [`Search::apply_results`]
//! backs the answers up. [`Search::run`] does this for one game on one thread,
//! [`Search::run_parallel`] with several threads on one tree, and [`run_many`] for many games
//! sharing each evaluator call (self-play):
//!
//! ```ignore
//! let mut searches: Vec<Search<G>> =
//!     (0..256).map(|i| Search::new(G::start(), SearchParams::default(), seed + i)).collect();
//! let mut batch = Batch::new();
//! loop {
//!     mcts::run_many(&mut searches, &network, &mut batch); // one network call serves all games
//!     for search in &mut searches {
//!         let result = search.result()?;                    // policy target, value, chosen move
//!         record(search.root_state(), &result);             // skip policy if !result.full_search
//!         search.advance(result.chosen);                    // reuses the subtree
//!         if search.root_state().outcome().is_some() { search.reset(G::start()) }
//!     }
//! }
//! ```
//!
//! Finding a move in a position takes a few lines:
//!
//! ```ignore
//! let mut search = Search::new(G::from_text(fen)?, SearchParams::analysis(2000), 0);
//! search.run(&UniformEvaluator);
//! assert_eq!(search.result()?.chosen, game.parse_move("f5-f6")?);
//! ```

pub mod batch;
pub mod bench;
pub mod error;
pub mod evaluator;
pub mod params;
pub mod result;
pub mod search;
mod select;
pub mod tree;

pub use batch::{run_many, Batch, Slot};
pub use bench::{simulations_per_second, BenchReport};
pub use error::SearchError;
pub use evaluator::{Evaluator, RandomEvaluator, RolloutEvaluator, UniformEvaluator};
pub use params::SearchParams;
pub use result::SearchResult;
pub use search::{Profile, Search};
