//! Three players: max-n and paranoid search each find their own (different) answer.

mod games;

use games::solve::{optimal_moves, value, Rule};
use games::three::{Three, MAXN_MOVE, PARANOID_MOVE};
use mcts::{Search, SearchParams, UniformEvaluator};
use rules::Game;

fn search(paranoid: bool) -> mcts::SearchResult<u8> {
    let params = SearchParams { simulations: 5000, paranoid, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(Three::start(), params, 0);
    search.run(&UniformEvaluator);
    search.result().unwrap()
}

#[test]
fn the_precomputed_answers_are_right() {
    assert_eq!(optimal_moves(&Three::start(), Rule::MaxN), vec![MAXN_MOVE]);
    assert_eq!(optimal_moves(&Three::start(), Rule::Paranoid(0)), vec![PARANOID_MOVE]);
    assert_ne!(MAXN_MOVE, PARANOID_MOVE);
}

#[test]
fn max_n_picks_the_max_n_move() {
    let result = search(false);
    assert_eq!(result.chosen, MAXN_MOVE, "{result:?}");
    assert_eq!(result.pv, vec![0, 0, 1], "{result:?}");
    // The root's mean converges towards the max-n value (0.8, 0.5, 0.2).
    let exact = value(&Three::start(), Rule::MaxN);
    for p in 0..3 {
        assert!((result.value[p] - exact[p]).abs() < 0.1, "{result:?} vs {exact:?}");
    }
}

#[test]
fn paranoid_picks_the_paranoid_move() {
    let result = search(true);
    assert_eq!(result.chosen, PARANOID_MOVE, "{result:?}");
    let exact = value(&Three::start(), Rule::Paranoid(0));
    assert!((result.value[0] - exact[0]).abs() < 0.1, "{result:?} vs {exact:?}");
}

/// Paranoid protects whoever is to move at the root, here seat 1 (after seat 0 played A).
#[test]
fn paranoid_protects_the_player_at_the_root() {
    let game = Three::from_text("0").unwrap();
    let params = SearchParams { simulations: 3000, paranoid: true, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(game.clone(), params, 0);
    search.run(&UniformEvaluator);
    let result = search.result().unwrap();
    assert_eq!(vec![result.chosen], optimal_moves(&game, Rule::Paranoid(1)));
}

/// Virtual loss reads the same view as selection: batched and threaded searches keep each mode's
/// answer.
#[test]
fn batched_and_threaded_searches_keep_each_modes_answer() {
    for (paranoid, expected) in [(false, MAXN_MOVE), (true, PARANOID_MOVE)] {
        let params = SearchParams { simulations: 5000, max_in_flight: 8, paranoid, ..SearchParams::for_tests_v1() };
        let mut batched = Search::new(Three::start(), params.clone(), 0);
        batched.run(&UniformEvaluator);
        assert_eq!(batched.result().unwrap().chosen, expected, "batched, paranoid = {paranoid}");
        let mut threaded = Search::new(Three::start(), params, 0);
        threaded.run_parallel(&UniformEvaluator, 4);
        assert_eq!(threaded.result().unwrap().chosen, expected, "threaded, paranoid = {paranoid}");
    }
}
