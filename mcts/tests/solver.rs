//! The MCTS-solver ([`SearchParams::solver`]): exact results backed up as exact values, checked
//! against full game-tree solutions, and the root's move choice that respects them.

mod games;

use games::solve::{optimal_moves, value, Rule};
use games::three::{Three, MAXN_MOVE, PARANOID_MOVE};
use games::tictactoe::{positions, TicTacToe};
use mcts::tree::{Status, Tree, NONE, ROOT};
use mcts::{RandomEvaluator, Search, SearchParams, UniformEvaluator};
use rules::Game;

fn params(simulations: u32, solver: bool) -> SearchParams {
    SearchParams { simulations, wins_in_tree: true, solver, ..SearchParams::for_tests_v1() }
}

/// The position of every node of `search`'s tree, by replaying its path from the root.
fn node_positions<G: Game>(search: &Search<G>) -> Vec<G> {
    let tree: &Tree<G::Move> = search.tree();
    let mut states = vec![search.root_state().clone(); tree.nodes.len()];
    // Children are created after their parents, so a parent's state is always ready.
    for i in 0..tree.nodes.len() {
        for e in tree.edges_of(i as u32).iter().filter(|e| e.child != NONE) {
            let mut child = states[i].clone();
            child.play(e.mv);
            states[e.child as usize] = child;
        }
    }
    states
}

/// Every proven node holds exactly its game-theoretic value, with leaves still in flight when
/// their ancestors were proven (8 at a time); every expanded node still sums what was backed up
/// through it: its own evaluation (the uniform 1/2) plus its children's sums.
#[test]
fn proven_values_are_exact_and_the_tree_stays_consistent() {
    let mut proven = 0;
    for game in positions(3).into_iter().step_by(7) {
        for evaluator in [0, 1] {
            let p = SearchParams { max_in_flight: 8, ..params(1500, true) };
            let mut search = Search::new(game.clone(), p, 3);
            if evaluator == 0 {
                search.run(&UniformEvaluator);
            } else {
                search.run(&RandomEvaluator { seed: 5 });
            }
            let tree = search.tree();
            let states = node_positions(&search);
            for (i, node) in tree.nodes.iter().enumerate() {
                if node.status == Status::Terminal && node.visits > 0 {
                    let exact = value(&states[i], Rule::MaxN);
                    let means = [node.mean(0), node.mean(1)];
                    assert_eq!(means, [exact[0], exact[1]], "{}: node {i} {node:?}", states[i].to_text());
                    proven += (node.num_edges > 0) as usize;
                }
                if evaluator == 0 && node.status == Status::Expanded {
                    for p in 0..2 {
                        let children: f32 = tree
                            .edges_of(i as u32)
                            .iter()
                            .filter(|e| e.child != NONE)
                            .map(|e| tree.nodes[e.child as usize].value_sum[p])
                            .sum();
                        assert_eq!(node.value_sum[p], 0.5 + children, "node {i} seat {p}: {node:?}");
                    }
                }
            }
        }
    }
    println!("{proven} nodes proven");
    assert!(proven > 100, "only {proven} nodes proven");
}

/// An evaluator that gives the one move which saves the mover almost no prior.
struct Misled {
    saving: Vec<(u64, u8)>,
}

impl mcts::Evaluator<TicTacToe> for Misled {
    fn max_batch_size(&self) -> usize {
        16
    }

    fn evaluate(&self, batch: &mut mcts::Batch<TicTacToe>) {
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            let hash = slot.state.hash();
            for (p, &mv) in slot.priors.iter_mut().zip(slot.moves) {
                *p = if self.saving.contains(&(hash, mv)) { 0.01 } else { 1.0 };
            }
            *slot.value = [0.5, 0.5, 0.0];
        }
    }
}

/// Positions where every move but one lets the opponent win at once, and that one holds (at
/// least a draw), with that move: 504 of them.
fn saving_cases() -> Vec<(TicTacToe, u8)> {
    let mut cases = Vec::new();
    let mut moves = Vec::new();
    for game in positions(5) {
        let mover = game.to_move();
        game.legal_moves(&mut moves);
        let holds: Vec<u8> = moves
            .iter()
            .copied()
            .filter(|&mv| {
                let mut child = game.clone();
                child.play(mv);
                child.outcome().is_some() || child.winning_move().is_none()
            })
            .collect();
        if moves.len() < 3 || holds.len() != 1 || game.winning_move().is_some() {
            continue;
        }
        let mut child = game.clone();
        child.play(holds[0]);
        if value(&child, Rule::MaxN)[mover] >= 0.5 {
            assert_eq!(optimal_moves(&game, Rule::MaxN), holds);
            cases.push((game.clone(), holds[0]));
        }
    }
    assert_eq!(cases.len(), 504);
    cases
}

/// With the losing moves proven lost (one visit each), the saving move is played even when the
/// evaluator steered the visits to the losing ones.
#[test]
fn the_only_move_that_does_not_lose_is_played() {
    let cases = saving_cases();
    let evaluator = Misled { saving: cases.iter().map(|(g, mv)| (g.hash(), *mv)).collect() };
    let mut misled = 0;
    for (game, saving) in &cases {
        let chosen = |solver| {
            let mut search = Search::new(game.clone(), params(30, solver), 0);
            search.run(&evaluator);
            search.result().unwrap().chosen
        };
        misled += (chosen(false) != *saving) as usize;
        assert_eq!(chosen(true), *saving, "{}", game.to_text());
    }
    assert!(misled > cases.len() / 2, "without the solver the visits mislead ({misled} of {})", cases.len());
}

/// Gumbel search's choice respects proofs too: with 3 simulations its survivors are the moves
/// the evaluator favoured, all lost; with the solver a proven loss is never played while an
/// unvisited move is open.
#[test]
fn gumbel_search_plays_no_proven_loss() {
    let cases = saving_cases();
    let evaluator = Misled { saving: cases.iter().map(|(g, mv)| (g.hash(), *mv)).collect() };
    let mut lost = [0, 0];
    for (game, _) in &cases {
        for (solver, count) in [false, true].into_iter().zip(&mut lost) {
            let p = SearchParams { root: mcts::RootSearch::Gumbel, ..params(4, solver) };
            let mut search = Search::new(game.clone(), p, 0);
            search.run(&evaluator);
            let chosen = search.result().unwrap().chosen;
            let tree = search.tree();
            let edge = tree.edges_of(ROOT).iter().find(|e| e.mv == chosen).unwrap();
            let proven_lost = edge.child != NONE && {
                let c = &tree.nodes[edge.child as usize];
                c.status == Status::Terminal && c.visits > 0 && c.mean(game.to_move()) == 0.0
            };
            *count += proven_lost as usize;
        }
    }
    assert_eq!(lost, [cases.len(), 0], "proven losses played without and with the solver");
}

/// Three players: every node of the small game is proven with its max-n value, exactly, except
/// the root, which stays searchable and chooses the max-n move.
#[test]
fn three_players_are_proven_by_max_n() {
    let mut search = Search::new(Three::start(), params(200, true), 0);
    search.run(&UniformEvaluator);
    let tree = search.tree();
    let states = node_positions(&search);
    assert_eq!(tree.root().status, Status::Expanded);
    for (e, state) in tree.edges_of(ROOT).iter().zip(["0", "1"]) {
        let child = &tree.nodes[e.child as usize];
        assert_eq!((child.status, states[e.child as usize].to_text()), (Status::Terminal, state.to_string()));
        // This game's results (0.8, 0.2, ...) are not binary fractions, so sums of them round;
        // the variants' (multiples of 1/4) and contempt-free draws add up exactly.
        let exact = value(&states[e.child as usize], Rule::MaxN);
        for p in 0..3 {
            assert!((child.mean(p) - exact[p]).abs() < 1e-5, "{state}: {child:?} vs {exact:?}");
        }
    }
    assert_eq!(search.result().unwrap().chosen, MAXN_MOVE);
}

/// Paranoid values hold for one root player only: the solver proves nothing there, and the
/// paranoid move is still chosen.
#[test]
fn paranoid_search_proves_nothing() {
    let p = SearchParams { paranoid: true, ..params(3000, true) };
    let mut search = Search::new(Three::start(), p, 0);
    search.run(&UniformEvaluator);
    assert!(search.tree().nodes.iter().all(|n| n.status != Status::Terminal || n.num_edges == 0));
    assert_eq!(search.result().unwrap().chosen, PARANOID_MOVE);
}

/// Three-player contempt: the all-round draw "100" scores `draw_value` for each seat.
#[test]
fn a_three_player_draw_scores_the_draw_value() {
    let p = SearchParams { draw_value: 0.25, ..params(200, true) };
    let mut search = Search::new(Three::start(), p, 0);
    search.run(&UniformEvaluator);
    let states = node_positions(&search);
    let draw = states.iter().position(|s| s.to_text() == "100").expect("the draw was reached");
    let node = &search.tree().nodes[draw];
    assert_eq!([node.mean(0), node.mean(1), node.mean(2)], [0.25; 3]);
    assert_eq!(search.result().unwrap().chosen, MAXN_MOVE, "a draw that nobody chose changes nothing");
}
