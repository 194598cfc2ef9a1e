//! Batched, multi-game and multi-threaded search agree with plain single-threaded search.

mod games;

use games::solve::{optimal_moves, Rule};
use games::tictactoe::{self, TicTacToe};
use mcts::{drive, run_many, Batch, RandomEvaluator, RolloutEvaluator, Search, SearchParams, SearchResult};
use rules::Game;

const SIMULATIONS: u32 = 4000;
/// Largest difference in any move's visit share we accept between search modes, averaged over
/// the positions (measured: about 0.005 batched, 0.002 threaded)...
const MEAN_TOLERANCE: f32 = 0.02;
/// ... and in the worst position (measured: up to 0.35 where moves are nearly equal).
const WORST_TOLERANCE: f32 = 0.5;
/// Positions (of 428) where the most visited moves may differ, never one where the reference
/// search gives its choice at least half the visits (measured: 0 to 1).
const MAX_DIFFERENT_CHOICES: usize = 4;

fn params(max_in_flight: u32) -> SearchParams {
    SearchParams { simulations: SIMULATIONS, max_in_flight, ..SearchParams::for_tests_v1() }
}

/// Every position up to four plies deep (transpositions once) that is not over and has a single
/// game-theoretically best move: 428 positions.
fn sharp_positions() -> Vec<TicTacToe> {
    let out: Vec<TicTacToe> =
        tictactoe::positions(4).into_iter().filter(|p| optimal_moves(p, Rule::MaxN).len() == 1).collect();
    assert_eq!(out.len(), 428);
    out
}

fn evaluator() -> RolloutEvaluator {
    RolloutEvaluator::new(5, 20)
}

fn single(game: &TicTacToe, max_in_flight: u32) -> SearchResult<u8> {
    let mut search = Search::new(game.clone(), params(max_in_flight), 0);
    search.run(&evaluator());
    search.result().unwrap()
}

/// Runs `other` on every sharp position and compares it with one-leaf-at-a-time search.
fn assert_agree_everywhere(what: &str, other: impl Fn(&TicTacToe) -> SearchResult<u8>) {
    let positions = sharp_positions();
    let (mut total, mut worst, mut differ) = (0.0, 0.0f32, 0);
    for game in &positions {
        let a = single(game, 1);
        let b = other(game);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.root_visits, b.root_visits, "{what}");
        let diff = a.policy.iter().zip(&b.policy).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max);
        total += diff;
        if a.best() != b.best() {
            // Allowed only where the reference itself is unsure; there the shares of two
            // near-equal moves swap, so the per-position bound below does not apply.
            differ += 1;
            assert!(a.share(a.best()) < 0.5, "{what} at {}: best moves differ\n{a:?}\n{b:?}", game.to_text());
        } else {
            worst = worst.max(diff);
        }
    }
    let mean = total / positions.len() as f32;
    eprintln!("{what}: visit shares differ by {mean} on average, {worst} at worst; {differ} different choices");
    assert!(mean <= MEAN_TOLERANCE, "{what}: shares differ by {mean} on average");
    assert!(worst <= WORST_TOLERANCE, "{what}: shares differ by {worst} in one position");
    assert!(differ <= MAX_DIFFERENT_CHOICES, "{what}: {differ} positions with a different choice");
}

#[test]
fn batched_search_agrees_with_one_leaf_at_a_time() {
    assert_agree_everywhere("16 in flight", |game| single(game, 16));
}

#[test]
fn threads_agree_with_one_thread() {
    for threads in [2, 4] {
        assert_agree_everywhere(&format!("{threads} threads"), |game| {
            let mut search = Search::new(game.clone(), params(2 * threads as u32), 0);
            search.run_parallel(&evaluator(), threads);
            assert_tree_consistent(&search);
            search.result().unwrap()
        });
    }
}

/// Threads that really overlap (a slow evaluator keeps leaves in flight while others select):
/// the tree stays consistent, the visit target is met exactly, and sharp answers agree.
#[test]
fn contended_threads_keep_the_tree_sound() {
    struct Slow(RolloutEvaluator);
    impl mcts::Evaluator<TicTacToe> for Slow {
        fn max_batch_size(&self) -> usize {
            64
        }
        fn evaluate(&self, batch: &mut Batch<TicTacToe>) {
            let until = std::time::Instant::now() + std::time::Duration::from_micros(30);
            while std::time::Instant::now() < until {
                std::hint::spin_loop();
            }
            mcts::Evaluator::<TicTacToe>::evaluate(&self.0, batch)
        }
    }
    for text in ["xx.oo.... o", "o...o.x.x x", "x.o...... x"] {
        let game = TicTacToe::from_text(text).unwrap();
        let reference = single(&game, 1);
        let mut search = Search::new(game.clone(), params(16), 0);
        search.run_parallel(&Slow(evaluator()), 4);
        assert_tree_consistent(&search);
        let result = search.result().unwrap();
        assert_eq!(result.root_visits, SIMULATIONS);
        assert_eq!(result.best(), reference.best(), "{text}\n{reference:?}\n{result:?}");
    }
}

/// Positions for the multi-game tests.
fn positions() -> Vec<TicTacToe> {
    ["......... x", "....x.... o", "x...o...x o", "xo..x.... o", "xx.oo.... o"]
        .iter()
        .map(|t| TicTacToe::from_text(t).unwrap())
        .collect()
}

fn alone(game: &TicTacToe, seed: u64) -> SearchResult<u8> {
    let mut search = Search::new(game.clone(), params(8), seed);
    search.run(&RandomEvaluator { seed: 5 });
    search.result().unwrap()
}

/// Interleaving games in shared evaluator calls changes nothing: each game's result is exactly
/// what its search gives alone with the same seed and leaves in flight.
#[test]
fn many_games_in_one_batch_equal_each_game_alone() {
    let games = positions();
    let alone: Vec<_> = games.iter().enumerate().map(|(i, g)| alone(g, i as u64)).collect();
    let mut searches: Vec<_> =
        games.iter().enumerate().map(|(i, g)| Search::new(g.clone(), params(8), i as u64)).collect();
    let mut batch = Batch::new();
    run_many(&mut searches, &RandomEvaluator { seed: 5 }, &mut batch);
    for (search, alone) in searches.iter_mut().zip(alone) {
        assert_eq!(search.result().unwrap(), alone);
    }
}

/// With a small evaluator batch limit, games wait their turn but all finish, with sound trees.
#[test]
fn many_games_with_a_small_batch_limit_all_finish() {
    struct Small(RandomEvaluator);
    impl mcts::Evaluator<TicTacToe> for Small {
        fn max_batch_size(&self) -> usize {
            5
        }
        fn evaluate(&self, batch: &mut Batch<TicTacToe>) {
            assert!(batch.len() <= 5);
            mcts::Evaluator::<TicTacToe>::evaluate(&self.0, batch)
        }
    }
    let mut searches: Vec<_> = positions().into_iter().map(|g| Search::new(g, params(4), 0)).collect();
    run_many(&mut searches, &Small(RandomEvaluator { seed: 5 }), &mut Batch::new());
    for search in &mut searches {
        assert!(search.is_done());
        assert_eq!(search.result().unwrap().root_visits, SIMULATIONS);
        assert_tree_consistent(search);
    }
}

/// Every expanded node has one visit of its own plus its children's; nothing is left in flight.
pub fn assert_tree_consistent<G: Game>(search: &Search<G>) {
    let tree = search.tree();
    for (i, node) in tree.nodes.iter().enumerate() {
        assert_eq!(node.in_flight, 0, "node {i} has visits in flight");
        if node.status == mcts::tree::Status::Expanded {
            let children: u32 = tree.edges_of(i as u32).iter().map(|e| tree.child_visits(e)).sum();
            assert_eq!(node.visits, children + 1, "node {i}");
        }
    }
}

/// Self-play through `drive`: games move independently, and each game is exactly the one its
/// search plays alone with the same seed.
#[test]
fn driven_self_play_equals_each_game_alone() {
    let params = SearchParams {
        simulations: 200,
        max_in_flight: 4,
        dirichlet_epsilon: 0.25,
        temperature: 1.0,
        temperature_plies: 9,
        fast_fraction: 0.5,
        fast_simulations: 20,
        ..SearchParams::for_tests_v1()
    };
    let evaluator = RandomEvaluator { seed: 5 };
    let alone: Vec<Vec<u8>> = (0..6)
        .map(|seed| {
            let mut search = Search::new(TicTacToe::start(), params.clone(), seed);
            let mut moves = Vec::new();
            while search.root_state().outcome().is_none() {
                search.run(&evaluator);
                let chosen = search.result().unwrap().chosen;
                moves.push(chosen);
                search.advance(chosen);
            }
            moves
        })
        .collect();

    let mut searches: Vec<_> = (0..6).map(|seed| Search::new(TicTacToe::start(), params.clone(), seed)).collect();
    let mut games = vec![Vec::new(); 6];
    drive(&mut searches, &evaluator, &mut Batch::new(), |i, search| {
        let chosen = search.result().unwrap().chosen;
        games[i].push(chosen);
        search.advance(chosen);
        search.root_state().outcome().is_none()
    });
    assert_eq!(games, alone);
}
