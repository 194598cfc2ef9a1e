//! `vzero.search`: one or many games searched with the user's network, sharing each evaluator
//! call (self-play's [`mcts::run_many`]), and what a search reports, in move text and policy
//! indices.

use mcts::tree::ROOT;
use mcts::{game_seed, run_many, Batch, Search, SearchParams};
use rules::FullGame;

use crate::evaluator::PyEvaluator;

/// One game's search result, variant-free.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutput {
    /// The root's legal moves as text, highest prior first.
    pub moves: Vec<String>,
    /// Their policy indices.
    pub actions: Vec<i64>,
    /// Completed visits of each move's subtree.
    pub visits: Vec<u32>,
    /// Each move's prior in the search (the network's, after `root_wins_first`).
    pub priors: Vec<f32>,
    /// The mover's mean score after each move; NaN for a move never visited.
    pub q: Vec<f32>,
    /// The policy target: the visit shares (Gumbel: the improved policy), summing to 1.
    pub policy: Vec<f32>,
    /// The root's mean value, one expected final score per seat, in seat order.
    pub value: Vec<f32>,
    /// The move chosen by the temperature (Gumbel: the sequential halving's survivor).
    pub chosen: usize,
    /// The most visited move.
    pub best: usize,
    /// The most visited line from the root, as text.
    pub pv: Vec<String>,
    /// Completed visits at the root.
    pub root_visits: u32,
}

/// Searches every game in `games` (none of them over) with `params`, game `i` seeded by
/// `game_seed(seed, i)`, all of them sharing each evaluator call.
pub fn search_games<G: FullGame>(
    games: Vec<G>,
    evaluator: &PyEvaluator,
    params: &SearchParams,
    seed: u64,
) -> Vec<SearchOutput> {
    let mut searches: Vec<Search<G>> = games
        .into_iter()
        .enumerate()
        .map(|(i, game)| Search::new(game, params.clone(), game_seed(seed, i as u64)))
        .collect();
    run_many(&mut searches, evaluator, &mut Batch::new());
    searches.iter_mut().map(output_of).collect()
}

/// What `search`, run to its end, found.
fn output_of<G: FullGame>(search: &mut Search<G>) -> SearchOutput {
    let result = search.result().expect("a search from a live position has a result");
    let state = search.root_state().clone();
    let tree = search.tree();
    let mover = state.to_move();
    let edges = tree.edges_of(ROOT);
    let q = edges
        .iter()
        .map(|e| match tree.child_visits(e) {
            0 => f32::NAN,
            _ => tree.nodes[e.child as usize].mean(mover),
        })
        .collect();
    let position = |mv| result.moves.iter().position(|&m| m == mv).expect("a root move");
    let mut line = state.clone();
    let pv = result
        .pv
        .iter()
        .map(|&mv| {
            let text = line.move_text(mv);
            line.play(mv);
            text
        })
        .collect();
    SearchOutput {
        moves: result.moves.iter().map(|&mv| state.move_text(mv)).collect(),
        actions: result.moves.iter().map(|&mv| state.policy_index(mv) as i64).collect(),
        visits: result.visits.clone(),
        priors: edges.iter().map(|e| e.prior).collect(),
        q,
        policy: result.policy.clone(),
        value: result.value[..G::NUM_PLAYERS].to_vec(),
        chosen: position(result.chosen),
        best: position(result.best()),
        pv,
        root_visits: result.root_visits,
    }
}
