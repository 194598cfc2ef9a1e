//! Determinism, tree reuse, root noise, temperature, playout caps, forced playouts and pruning.

mod games;

use games::tictactoe::TicTacToe;
use mcts::{
    PolicyTarget, RandomEvaluator, RolloutEvaluator, Search, SearchError, SearchParams, SearchResult, UniformEvaluator,
};
use rules::{Encoding, Game};

/// Self-play settings with every random ingredient switched on.
fn self_play_params() -> SearchParams {
    SearchParams {
        simulations: 400,
        max_in_flight: 4,
        dirichlet_epsilon: 0.25,
        temperature: 1.0,
        temperature_plies: 4,
        fast_fraction: 0.5,
        fast_simulations: 50,
        forced_playout_k: 2.0,
        policy_target: PolicyTarget::Pruned,
        ..SearchParams::for_tests_v1()
    }
}

/// Plays one self-play game and returns every move's result.
fn self_play(seed: u64) -> Vec<SearchResult<u8>> {
    let mut search = Search::new(TicTacToe::start(), self_play_params(), seed);
    let mut results = Vec::new();
    while search.root_state().outcome().is_none() {
        search.run(&RandomEvaluator { seed: 1 });
        let result = search.result().unwrap();
        search.advance(result.chosen);
        results.push(result);
    }
    results
}

#[test]
fn same_seed_same_game() {
    assert_eq!(self_play(42), self_play(42));
}

#[test]
fn different_seeds_differ() {
    assert_ne!(self_play(1), self_play(2));
}

#[test]
fn reused_tree_keeps_the_played_subtree() {
    let params = SearchParams { simulations: 2000, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(TicTacToe::start(), params, 0);
    search.run(&RolloutEvaluator::new(0, 20));
    let result = search.result().unwrap();
    let i = result.moves.iter().position(|&m| m == result.chosen).unwrap();
    let child_visits = result.visits[i];
    search.advance(result.chosen);
    assert_eq!(search.tree().root().visits, child_visits);
    assert_consistent(&search);
    // The next search tops the inherited visits up to the target.
    search.run(&RolloutEvaluator::new(0, 20));
    assert_eq!(search.result().unwrap().root_visits, 2000);
    assert_consistent(&search);
}

/// Whether a search with `params` keeps nothing of its tree after playing its move.
fn starts_the_next_move_over(params: SearchParams) -> bool {
    let mut search = Search::new(TicTacToe::start(), params, 0);
    search.run(&UniformEvaluator);
    let chosen = search.result().unwrap().chosen;
    search.advance(chosen);
    search.tree().nodes.len() == 1 && search.tree().root().visits == 0
}

#[test]
fn without_reuse_the_tree_starts_over() {
    let params = SearchParams { simulations: 500, ..SearchParams::for_tests_v1() };
    assert!(!starts_the_next_move_over(params.clone()), "reuse keeps the subtree");
    assert!(starts_the_next_move_over(SearchParams { reuse_tree: false, ..params }));
}

#[test]
fn a_network_kept_near_the_root_starts_each_move_over() {
    // Below the network's plies the nodes were evaluated without it: kept, the new root's top
    // plies would search on equal priors.
    let mut params = SearchParams { simulations: 500, ..SearchParams::for_tests_v1() };
    params.tactics.network_plies = mcts::NetworkPlies::Plies(2);
    assert!(starts_the_next_move_over(params));
}

#[test]
fn errors_before_search_and_after_the_game() {
    let mut search = Search::new(TicTacToe::start(), SearchParams::for_tests_v1(), 0);
    assert_eq!(search.result().unwrap_err(), SearchError::NotSearched);
    let over = TicTacToe::from_text("xxxoo.... o").unwrap();
    let mut search = Search::new(over, SearchParams::for_tests_v1(), 0);
    search.run(&UniformEvaluator);
    assert_eq!(search.result().unwrap_err(), SearchError::GameOver);
}

#[test]
fn root_noise_changes_priors_at_the_root_only_once() {
    let params = SearchParams { simulations: 50, dirichlet_epsilon: 0.25, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(TicTacToe::start(), params, 3);
    search.run(&UniformEvaluator);
    let priors: Vec<f32> = search.tree().edges_of(0).iter().map(|e| e.prior).collect();
    assert!(priors.iter().any(|&p| (p - 1.0 / 9.0).abs() > 1e-3), "noise mixed in: {priors:?}");
    assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    // Below the root, priors are the evaluator's.
    for &child in search.tree().edges_of(0).iter().map(|e| &e.child).filter(|&&c| c != mcts::tree::NONE) {
        for e in search.tree().edges_of(child) {
            assert!(e.prior == 0.0 || (e.prior - 1.0 / 8.0).abs() < 1e-6);
        }
    }
    // Running again on the same move does not stack a second noise draw.
    let mut more = search.params().clone();
    more.simulations = 100;
    search.set_params(more);
    search.run(&UniformEvaluator);
    assert_eq!(search.tree().root().visits, 100);
    let again: Vec<f32> = search.tree().edges_of(0).iter().map(|e| e.prior).collect();
    assert_eq!(priors, again);
}

/// Move choice at temperature 1 follows the visit shares.
#[test]
fn temperature_one_samples_by_visits() {
    let params =
        SearchParams { simulations: 3000, temperature: 1.0, temperature_plies: 1, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(TicTacToe::start(), params, 0);
    search.run(&RandomEvaluator { seed: 2 });
    let first = search.result().unwrap();
    let draws = 20_000;
    let mut counts = vec![0u32; first.moves.len()];
    for _ in 0..draws {
        let chosen = search.result().unwrap().chosen;
        counts[first.moves.iter().position(|&m| m == chosen).unwrap()] += 1;
    }
    for (count, share) in counts.iter().zip(&first.policy) {
        assert!((*count as f32 / draws as f32 - share).abs() < 0.02, "{counts:?} vs {:?}", first.policy);
    }
    // After the temperature plies, the most visited move is always played.
    search.set_ply(1);
    assert_eq!(search.result().unwrap().chosen, first.best());
}

#[test]
fn playout_cap_randomisation_flags_cheap_searches() {
    let cheap = SearchParams { fast_fraction: 1.0, fast_simulations: 30, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(TicTacToe::start(), cheap, 0);
    search.run(&UniformEvaluator);
    let result = search.result().unwrap();
    assert!(!result.full_search);
    assert_eq!(result.root_visits, 30);

    let mixed =
        SearchParams { fast_fraction: 0.5, fast_simulations: 30, simulations: 300, ..SearchParams::for_tests_v1() };
    let fulls = (0..200)
        .filter(|&seed| {
            let mut search = Search::new(TicTacToe::start(), mixed.clone(), seed);
            search.run(&UniformEvaluator);
            let result = search.result().unwrap();
            assert_eq!(result.root_visits, if result.full_search { 300 } else { 30 });
            result.full_search
        })
        .count();
    assert!((70..=130).contains(&fulls), "{fulls} of 200 searches were full");
}

#[test]
fn forced_playouts_and_pruning() {
    let params = SearchParams {
        simulations: 2000,
        dirichlet_epsilon: 0.25,
        forced_playout_k: 2.0,
        ..SearchParams::for_tests_v1()
    };
    let game = TicTacToe::from_text("....x.... o").unwrap();

    // Forced playouts: every visited root child reaches sqrt(k * P * total) visits (less one for
    // the last simulation's rounding).
    let mut search = Search::new(game.clone(), params.clone(), 9);
    search.run(&RandomEvaluator { seed: 4 });
    let result = search.result().unwrap();
    let total = (result.root_visits - 1) as f32;
    for (e, &visits) in search.tree().edges_of(0).iter().zip(&result.visits) {
        if visits > 0 {
            let floor = (2.0 * e.prior * total).sqrt();
            assert!(visits as f32 >= floor - 1.0, "{visits} visits below the floor {floor}");
        }
    }

    // Pruning: the target keeps the best move's visits, takes visits from others only, sums to 1.
    let mut pruned = Search::new(game, SearchParams { policy_target: PolicyTarget::Pruned, ..params }, 9);
    pruned.run(&RandomEvaluator { seed: 4 });
    let target = pruned.result().unwrap();
    assert_eq!(target.visits, result.visits, "pruning changes the target, not the search");
    assert!((target.policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    let best = target.moves.iter().position(|&m| m == target.best()).unwrap();
    let raw_total: u32 = target.visits.iter().sum();
    assert!(target.policy[best] >= target.visits[best] as f32 / raw_total as f32);
    for (p, &v) in target.policy.iter().zip(&target.visits) {
        assert!(*p <= v as f32 / target.visits[best] as f32 + 1e-6, "a pruned share exceeds its raw weight");
    }
    let raw_shares: Vec<f32> = target.visits.iter().map(|&v| v as f32 / raw_total as f32).collect();
    assert!(
        target.policy.iter().zip(&raw_shares).any(|(p, r)| p + 1e-3 < *r),
        "forced playouts were pruned: {:?} vs raw {raw_shares:?}",
        target.policy
    );
}

fn assert_consistent<G: Game>(search: &Search<G>) {
    let tree = search.tree();
    for (i, node) in tree.nodes.iter().enumerate() {
        assert_eq!(node.in_flight, 0);
        if i > 0 {
            assert_ne!(node.parent, mcts::tree::NONE, "node {i} is detached");
        }
        if node.status == mcts::tree::Status::Expanded {
            let children: u32 = tree.edges_of(i as u32).iter().map(|e| tree.child_visits(e)).sum();
            assert_eq!(node.visits, children + 1, "node {i}");
            for e in tree.edges_of(i as u32) {
                if e.child != mcts::tree::NONE {
                    assert_eq!(tree.nodes[e.child as usize].parent, i as u32);
                }
            }
        }
    }
}

#[test]
fn policy_target_maps_moves_to_policy_indices() {
    let game = TicTacToe::from_text("xx.oo.... o").unwrap();
    let mut search = Search::new(game.clone(), SearchParams::for_tests_v1(), 0);
    search.run(&UniformEvaluator);
    let result = search.result().unwrap();
    let target = result.policy_target(|mv| game.policy_index(mv));
    assert!((target.iter().map(|t| t.1).sum::<f32>() - 1.0).abs() < 1e-5);
    let (index, share) = target.iter().copied().fold((0, 0.0), |a, t| if t.1 > a.1 { t } else { a });
    assert_eq!(index, game.policy_index(5), "the winning cell gets the largest share ({share})");
}

#[test]
fn presets_are_valid_and_nonsense_is_named() {
    for params in [SearchParams::default(), SearchParams::for_tests_v1(), SearchParams::analysis(100)] {
        params.validate().unwrap();
    }
    let bad = SearchParams { dirichlet_epsilon: 1.5, ..SearchParams::default() };
    assert_eq!(bad.validate().unwrap_err().key, "dirichlet_epsilon");
    let bad = SearchParams { c_puct_init: f32::NAN, ..SearchParams::default() };
    assert_eq!(bad.validate().unwrap_err().key, "c_puct_init");
    // A draw worth more than 1/2 could score a three-player survivors' draw as a win.
    let bad = SearchParams { draw_value: 0.6, ..SearchParams::default() };
    assert_eq!(bad.validate().unwrap_err().key, "draw_value");
    SearchParams { draw_value: 0.0, ..SearchParams::default() }.validate().unwrap();
}

/// After the opening plies the temperature is `final_temperature`: above 0, the move is still
/// drawn by visits, not always the most visited.
#[test]
fn a_final_temperature_keeps_sampling_after_the_opening() {
    let params = SearchParams {
        simulations: 3000,
        temperature: 1.0,
        temperature_plies: 1,
        final_temperature: 1.0,
        ..SearchParams::for_tests_v1()
    };
    let mut search = Search::new(TicTacToe::start(), params, 0);
    search.run(&RandomEvaluator { seed: 2 });
    search.set_ply(5);
    let best = search.result().unwrap().best();
    assert!((0..200).any(|_| search.result().unwrap().chosen != best), "never anything but {best}");
    let mut floorless = search.params().clone();
    floorless.final_temperature = 0.0;
    search.set_params(floorless);
    assert!((0..200).all(|_| search.result().unwrap().chosen == best));
}

/// The cache answers transpositions itself and changes nothing in the search's results.
#[test]
fn cached_evaluator_changes_nothing_but_the_work() {
    let params = SearchParams { simulations: 3000, max_in_flight: 4, ..SearchParams::for_tests_v1() };
    let mut plain = Search::new(TicTacToe::start(), params.clone(), 0);
    plain.run(&RandomEvaluator { seed: 8 });
    let cache = mcts::CachedEvaluator::new(RandomEvaluator { seed: 8 }, 1 << 12);
    let mut cached = Search::new(TicTacToe::start(), params.clone(), 0);
    cached.run(&cache);
    assert_eq!(plain.result().unwrap(), cached.result().unwrap());
    assert!(cache.hits() > 0, "tic-tac-toe transposes");
    // Threads share the cache; a second search of the same position finds it warm: fewer new
    // misses than the cold first search had. Two threads' virtual loss walks to other leaves on
    // each run (2026-12-06, 40 runs on 2 cores: 259 to 837 new misses after 1151, median 316),
    // so the bound is the cold count; half of it failed one run in 40, on the code of then too.
    let misses = cache.misses();
    let mut threaded = Search::new(TicTacToe::start(), params, 0);
    threaded.run_parallel(&cache, 2);
    assert_eq!(threaded.result().unwrap().root_visits, 3000);
    assert!(cache.misses() - misses < misses, "{} new misses after {misses}", cache.misses() - misses);
}

/// A broken evaluator (NaN values, negative priors) cannot poison the tree.
#[test]
fn broken_answers_are_contained() {
    struct Broken;
    impl mcts::Evaluator<TicTacToe> for Broken {
        fn max_batch_size(&self) -> usize {
            8
        }
        fn evaluate(&self, batch: &mut mcts::Batch<TicTacToe>) {
            for i in 0..batch.len() {
                let slot = batch.slot_mut(i);
                slot.priors.fill(-1.0);
                *slot.value = [f32::NAN, 7.0, 0.0];
            }
        }
    }
    let mut search = Search::new(TicTacToe::from_text("xx.oo.... x").unwrap(), SearchParams::for_tests_v1(), 0);
    search.run(&Broken);
    let result = search.result().unwrap();
    assert!(result.value.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)), "{result:?}");
    assert_eq!(result.chosen, 2, "the exact win still shows");
}

#[test]
fn pruned_targets_measure_visits_against_the_evaluators_own_prior() {
    // x wins at once at 2; root noise and forced playouts send visits to the other moves.
    let game = TicTacToe::from_text("xx..o.o.. x").unwrap();
    let params = SearchParams {
        simulations: 800,
        dirichlet_epsilon: 0.5,
        forced_playout_k: 2.0,
        policy_target: PolicyTarget::Pruned,
        ..SearchParams::for_tests_v1()
    };
    let mut search = Search::new(game, params, 3);
    search.run(&RandomEvaluator { seed: 2 });
    let result = search.result().unwrap();
    let best = result.moves.iter().position(|&m| m == 2).unwrap();
    assert_eq!(result.best(), 2, "the winning move is the most visited");
    // The best move keeps every visit: its weight relative to any kept move is its raw count.
    let forced: u32 = result.visits.iter().enumerate().filter(|&(i, _)| i != best).map(|(_, v)| v).sum();
    assert!(forced > 20, "forced playouts and noise visited the other moves: {:?}", result.visits);
    // Counts back from the shares: the best move's weight is its raw count.
    let counts: Vec<f32> = result.policy.iter().map(|p| p / result.policy[best] * result.visits[best] as f32).collect();
    assert!((counts[best] - result.visits[best] as f32).abs() < 1e-3);
    for (count, &raw) in counts.iter().zip(&result.visits) {
        assert!(
            *count <= raw as f32 + 1e-3 && (count - count.round()).abs() < 1e-2,
            "{counts:?} from {:?}",
            result.visits
        );
    }
    let kept: f32 = counts.iter().enumerate().filter(|&(i, _)| i != best).map(|(_, c)| c).sum();
    assert!(kept * 2.0 < forced as f32, "most forced visits were pruned: {counts:?} from {:?}", result.visits);
}
