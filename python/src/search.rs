//! `vzero.search`: one or many games searched with the user's network, sharing each evaluator
//! call (self-play's [`mcts::run_many`]), and what a search reports ([`SearchReport`]) in move
//! text and policy indices.

use alphabeta::tactical_evaluator;
use mcts::{game_seed, run_many, Batch, Search, SearchParams, SearchReport};
use rules::{with_variant_game, KnownVariant, VariantGame};

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
    /// The move the search plays at temperature 0 by its choice rule (analysis lists it first).
    pub best: usize,
    /// `best`, then the most visited line below it, as text.
    pub pv: Vec<String>,
    /// Completed visits at the root.
    pub root_visits: u32,
}

/// Searches every game in `games` (of one variant, none of them over) with `params`, game `i`
/// seeded by `game_seed(seed, i)`, all of them sharing each evaluator call.
pub fn search_games(
    games: &[VariantGame],
    evaluator: &PyEvaluator,
    params: &SearchParams,
    seed: u64,
) -> Vec<SearchOutput> {
    let Some(first) = games.first() else { return Vec::new() };
    with_variant_game!(first, _g: G => {
        let states = games.iter().map(|g| G::unerase(g).expect("a search's games are of one variant").clone());
        search_all(states, evaluator, params, seed)
    })
}

/// [`search_games`] for games of type `G`.
fn search_all<G: KnownVariant>(
    games: impl Iterator<Item = G>,
    evaluator: &PyEvaluator,
    params: &SearchParams,
    seed: u64,
) -> Vec<SearchOutput> {
    let mut searches: Vec<Search<G>> =
        games.enumerate().map(|(i, game)| Search::new(game, params.clone(), game_seed(seed, i as u64))).collect();
    // The user's network with the tactical judge's leaf values and judged moves, as every
    // player of the command line searches.
    let evaluator = tactical_evaluator(&params.tactics.for_player(), evaluator);
    run_many(&mut searches, &evaluator, &mut Batch::new());
    searches.iter_mut().map(output_of).collect()
}

/// What `search`, run to its end, found: the move choice and policy target of its result, the
/// rest from its report.
fn output_of<G: KnownVariant>(search: &mut Search<G>) -> SearchOutput {
    let result = search.result().expect("a search from a live position has a result");
    let report = SearchReport::of(search);
    let state = search.root_state();
    let chosen = report.moves.iter().position(|m| m.mv == result.chosen).expect("a root move");
    SearchOutput {
        moves: report.moves.iter().map(|m| state.move_text(m.mv)).collect(),
        actions: report.moves.iter().map(|m| state.policy_index(m.mv) as i64).collect(),
        visits: report.moves.iter().map(|m| m.visits).collect(),
        priors: report.moves.iter().map(|m| m.prior).collect(),
        q: report.moves.iter().map(|m| m.q.unwrap_or(f32::NAN)).collect(),
        policy: result.policy,
        chosen,
        best: report.best.unwrap_or(chosen),
        pv: report.best.map_or_else(Vec::new, |i| report.moves[i].in_text(state).pv),
        root_visits: report.root_visits,
        value: report.values,
    }
}
