//! Two-player games solved exactly: the search must find the game-theoretic move and value.

mod games;

use games::nim::Nim;
use games::solve::{optimal_moves, value, Rule};
use games::tictactoe::TicTacToe;
use mcts::{RolloutEvaluator, Search, SearchParams, UniformEvaluator};
use rules::Game;

fn ttt(text: &str) -> TicTacToe {
    TicTacToe::from_text(text).unwrap()
}

/// A winning move found in a few lines, the shape the mate-in-one tests on real variants take.
#[test]
fn tictactoe_takes_the_win_in_one() {
    let game = ttt("xx.oo.... x");
    let mut search = Search::new(game, SearchParams::for_tests_v1(), 0);
    search.run(&UniformEvaluator);
    assert_eq!(search.result().unwrap().chosen, 2);
}

#[test]
fn tictactoe_blocks_the_only_threat() {
    // O threatens 0-4-8 via 8; X must take 8 or lose.
    let game = ttt("o...o.x.x x");
    let best = optimal_moves(&game, Rule::MaxN);
    let mut search = Search::new(game, SearchParams::for_tests_v1(), 0);
    search.run(&UniformEvaluator);
    let result = search.result().unwrap();
    assert!(best.contains(&result.chosen), "chose {} not in {best:?}", result.chosen);
}

/// Win in two: X makes a fork (two threats), O can block only one.
#[test]
fn tictactoe_finds_a_fork() {
    let game = ttt("x...o...x o");
    // O to move; first check that with X to move in the fork position the fork is found.
    let fork = ttt("x.......x x");
    let exact = value(&fork, Rule::MaxN);
    assert_eq!(exact[0], 1.0, "x.......x with X to move is a win");
    let best = optimal_moves(&fork, Rule::MaxN);
    let mut search = Search::new(fork, SearchParams::for_tests_v1(), 0);
    search.run(&UniformEvaluator);
    let result = search.result().unwrap();
    assert!(best.contains(&result.chosen), "chose {} not in {best:?}", result.chosen);
    // And O, facing the corner-corner setup, must take an edge to hold the draw.
    let best = optimal_moves(&game, Rule::MaxN);
    let mut search = Search::new(game, SearchParams { simulations: 4000, ..SearchParams::for_tests_v1() }, 0);
    search.run(&UniformEvaluator);
    let result = search.result().unwrap();
    assert!(best.contains(&result.chosen), "chose {} not in {best:?}", result.chosen);
}

/// Positions from seeded random play: the chosen move is optimal and the root value of the side
/// to move is within 0.1 of the exact value after 20,000 simulations with rollouts.
#[test]
fn tictactoe_converges_to_exact_values() {
    let positions = random_positions(12, 7);
    for game in positions {
        let exact = value(&game, Rule::MaxN);
        let best = optimal_moves(&game, Rule::MaxN);
        let mover = game.to_move();
        let params = SearchParams { simulations: 20_000, ..SearchParams::for_tests_v1() };
        let mut search = Search::new(game.clone(), params, 1);
        search.run(&RolloutEvaluator::new(3, 20));
        let result = search.result().unwrap();
        assert!(best.contains(&result.chosen), "{}: chose {} not in {best:?}", game.to_text(), result.chosen);
        let error = (result.value[mover] - exact[mover]).abs();
        assert!(error < 0.1, "{}: value {:?}, exact {:?}", game.to_text(), result.value, exact);
    }
}

#[test]
fn tictactoe_start_is_a_draw() {
    let params = SearchParams { simulations: 20_000, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(TicTacToe::start(), params, 0);
    search.run(&RolloutEvaluator::new(0, 20));
    let result = search.result().unwrap();
    assert!((result.value[0] - 0.5).abs() < 0.1, "value {:?}", result.value);
}

/// Take-away Nim: leave a multiple of 4.
#[test]
fn nim_leaves_a_multiple_of_four() {
    for stones in [5u8, 6, 7, 9, 10, 11] {
        let game = Nim::pile(stones);
        assert_eq!(optimal_moves(&game, Rule::MaxN), vec![stones % 4]);
        let params = SearchParams { simulations: 5000, ..SearchParams::for_tests_v1() };
        let mut search = Search::new(game, params, 0);
        search.run(&RolloutEvaluator::new(0, 100));
        let result = search.result().unwrap();
        assert_eq!(result.chosen, stones % 4, "pile {stones}: {result:?}");
    }
}

/// Random positions that are not over, each reached by a seeded random game of 1 to 5 plies.
fn random_positions(count: usize, seed: u64) -> Vec<TicTacToe> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut game = TicTacToe::start();
        let plies = 1 + next() % 5;
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(moves[next() % moves.len()]);
        }
        game.legal_moves(&mut moves);
        if !moves.is_empty() {
            out.push(game);
        }
    }
    out
}
