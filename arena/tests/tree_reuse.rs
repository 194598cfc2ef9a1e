//! Search players keep each game's tree between their moves: the next search starts from the
//! subtree of the position reached, so it asks the evaluator for fewer new positions, and it
//! plays as a fresh search would wherever the kept tree does not lead to the position asked.

use std::sync::atomic::{AtomicUsize, Ordering};

use arena::{Agent, GameSoFar, SearchAgent};
use mcts::{Batch, Evaluator, UniformEvaluator};
use rules::{Game, MiniHexchess};

/// The uniform evaluator, counting the positions it is asked for.
#[derive(Default)]
struct Counting(AtomicUsize);

impl<G: Game> Evaluator<G> for Counting {
    fn max_batch_size(&self) -> usize {
        64
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        self.0.fetch_add(batch.len(), Ordering::Relaxed);
        UniformEvaluator.evaluate(batch);
    }
}

const SIMULATIONS: u32 = 64;

fn agent(reuse: bool) -> SearchAgent<Counting> {
    let mut agent = SearchAgent::new("test".into(), Counting::default(), SIMULATIONS);
    agent.reuse_trees = reuse;
    agent
}

/// The agent plays every seat of one game for `plies` moves; returns the moves and the
/// positions evaluated for each.
fn self_play(agent: &SearchAgent<Counting>, plies: usize) -> (Vec<String>, Vec<usize>) {
    let start = MiniHexchess::start();
    let mut game = start.clone();
    let (mut moves, mut evaluated) = (Vec::new(), Vec::new());
    for ply in 0..plies {
        let before = agent.evaluator.0.load(Ordering::Relaxed);
        let played = GameSoFar { start: &start, moves: &moves, game: 0 };
        let mv = agent.try_choose(&game, &played, ply as u64).expect("a search player never forfeits");
        evaluated.push(agent.evaluator.0.load(Ordering::Relaxed) - before);
        moves.push(game.move_text(mv));
        game.play(mv);
    }
    (moves, evaluated)
}

#[test]
fn a_kept_tree_needs_fewer_new_positions() {
    let (moves, reused) = self_play(&agent(true), 8);
    let (fresh_moves, fresh) = self_play(&agent(false), 8);
    assert_eq!(moves.len(), fresh_moves.len());
    // Every fresh search evaluates about a position per simulation (the root's children start
    // unvisited); a kept tree arrives with the visits of the move just played.
    assert!(fresh.iter().all(|&n| n as u32 >= SIMULATIONS / 2), "fresh searches: {fresh:?}");
    assert!(reused[0] == fresh[0], "the first move has nothing to reuse: {reused:?} vs {fresh:?}");
    let (reused_total, fresh_total): (usize, usize) = (reused[1..].iter().sum(), fresh[1..].iter().sum());
    assert!(reused_total * 10 < fresh_total * 9, "kept trees: {reused:?}, fresh: {fresh:?}");
}

#[test]
fn tree_reuse_is_deterministic() {
    assert_eq!(self_play(&agent(true), 10), self_play(&agent(true), 10));
}

#[test]
fn a_tree_that_does_not_lead_to_the_position_is_not_used() {
    let start = MiniHexchess::start();
    let reusing = agent(true);
    let first = reusing.try_choose(&start, &GameSoFar { start: &start, moves: &[], game: 0 }, 1).unwrap();
    // The same game number, but another first move than the one the player chose and kept.
    let mut legal = Vec::new();
    start.legal_moves(&mut legal);
    let other = *legal.iter().find(|&&m| m != first).unwrap();
    let mut game = start.clone();
    game.play(other);
    let moves = vec![start.move_text(other)];
    let from_kept = reusing.try_choose(&game, &GameSoFar { start: &start, moves: &moves, game: 0 }, 2).unwrap();
    let fresh = agent(false).choose(&game, 2);
    assert_eq!(from_kept, fresh, "a mismatched tree is dropped and the position searched afresh");
    // Nor does one game's tree serve another game.
    let mut second = start.clone();
    second.play(first);
    let moves = vec![start.move_text(first)];
    let other_game = reusing.try_choose(&second, &GameSoFar { start: &start, moves: &moves, game: 7 }, 3).unwrap();
    assert_eq!(other_game, agent(false).choose(&second, 3));
}
