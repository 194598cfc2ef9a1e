//! Positions with known answers on the real rules: the search with the uniform evaluator
//! (exact results only, no knowledge) finds forced mates. The answers are checked by brute force
//! here, not hard-coded.
//!
//! Mate in two is checked on Mini Hexchess. On Glinski, with K f1, R c6, R b7 against k a1, the
//! search at 200,000 simulations prefers c6-c5 (valued 0.92 for White) to the mate in two c6-c3:
//! plain MCTS has no preference for the shortest win; scoring one-move wins in the tree
//! (`wins_in_tree`) finds it at 200.

use mcts::{Search, SearchParams, UniformEvaluator};
use rules::hex::parse_glinski_label;
use rules::hexchess::{Glinski, MiniHexchess};
use rules::Game;

/// Position text for radius `radius` with `pieces` (cell label, piece letter) and the fields
/// after the board (`side ep halfmove fullmove`).
fn position(radius: i8, pieces: &[(&str, char)], rest: &str) -> String {
    let files: Vec<char> = "abcdefghikl".chars().take(2 * radius as usize + 1).collect();
    let mut ranks = Vec::new();
    for rank in (1..=2 * radius as u32 + 1).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for f in &files {
            let label = format!("{f}{rank}");
            if parse_glinski_label(&label, radius).is_none() {
                continue;
            }
            match pieces.iter().find(|(l, _)| *l == label) {
                Some(&(_, p)) => {
                    if empty > 0 {
                        text += &empty.to_string();
                        empty = 0;
                    }
                    text.push(p);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text += &empty.to_string();
        }
        ranks.push(text);
    }
    format!("{} {rest}", ranks.join("/"))
}

/// Whether the side to move can force mate within `moves` of its own moves (brute force).
fn forced_mate<G: Game>(game: &G, moves: u32) -> bool {
    let me = game.to_move();
    let mut list = Vec::new();
    game.legal_moves(&mut list);
    list.iter().any(|&mv| {
        let mut g = game.clone();
        g.play(mv);
        match g.outcome() {
            Some(s) => s.get(me) == 1.0,
            None if moves > 1 => {
                let mut replies = Vec::new();
                g.legal_moves(&mut replies);
                replies.iter().all(|&r| {
                    let mut h = g.clone();
                    h.play(r);
                    match h.outcome() {
                        Some(s) => s.get(me) == 1.0,
                        None => forced_mate(&h, moves - 1),
                    }
                })
            }
            None => false,
        }
    })
}

fn best_move<G: Game>(game: &G, simulations: u32) -> G::Move {
    best_move_with_threads(game, simulations, 1)
}

/// [`best_move`] with `threads` threads sharing the tree (virtual loss keeps them apart).
fn best_move_with_threads<G: Game>(game: &G, simulations: u32, threads: usize) -> G::Move {
    let params = SearchParams { simulations, max_in_flight: threads as u32, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(game.clone(), params, 0);
    if threads > 1 {
        search.run_parallel(&UniformEvaluator, threads);
    } else {
        search.run(&UniformEvaluator);
    }
    search.result().unwrap().chosen
}

#[test]
fn glinski_mate_in_one_is_found_in_2000_simulations() {
    // Black king a1, White rooks c6 and b7 and bishop e6: the c6 rook mates on the a-file.
    let text = position(5, &[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("e6", 'B'), ("a1", 'k')], "w - 0 60");
    let game = Glinski::from_text(&text).unwrap();
    assert!(forced_mate(&game, 1));
    let mv = best_move(&game, 2000);
    let mut after = game.clone();
    after.play(mv);
    assert_eq!(after.outcome().map(|s| s.get(0)), Some(1.0), "{} does not mate", game.move_text(mv));
}

/// Whether, after `mv`, every reply leaves the mover a forced mate within `moves` moves.
fn keeps_forced_mate<G: Game>(game: &G, mv: G::Move, moves: u32) -> bool {
    let me = game.to_move();
    let mut g = game.clone();
    g.play(mv);
    if let Some(s) = g.outcome() {
        return s.get(me) == 1.0;
    }
    let mut replies = Vec::new();
    g.legal_moves(&mut replies);
    replies.iter().all(|&r| {
        let mut h = g.clone();
        h.play(r);
        forced_mate(&h, moves)
    })
}

/// Whether, after `mv`, every reply leaves the mover a mate in one.
fn keeps_mate_in_one<G: Game>(game: &G, mv: G::Move) -> bool {
    keeps_forced_mate(game, mv, 1)
}

fn mate_in_two_is_found<G: Game>(text: &str, simulations: u32) {
    let game = G::from_text(text).unwrap();
    assert!(!forced_mate(&game, 1) && forced_mate(&game, 2), "not a mate in exactly two: {text}");
    let mv = best_move(&game, simulations);
    assert!(keeps_mate_in_one(&game, mv), "{} lets the king escape", game.move_text(mv));
}

/// The tree-parallel search (both cores on one game's search) finds the mates the serial one
/// finds, on the same positions and budgets.
#[test]
fn two_threads_find_the_same_mates_as_one() {
    let one = position(5, &[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("e6", 'B'), ("a1", 'k')], "w - 0 60");
    let game = Glinski::from_text(&one).unwrap();
    let mv = best_move_with_threads(&game, 2000, 2);
    let mut after = game.clone();
    after.play(mv);
    assert_eq!(after.outcome().map(|s| s.get(0)), Some(1.0), "{} does not mate", game.move_text(mv));
    let two = position(3, &[("d1", 'K'), ("c4", 'R'), ("e4", 'R'), ("d7", 'k')], "w - 0 60");
    let game = MiniHexchess::from_text(&two).unwrap();
    let mv = best_move_with_threads(&game, 20_000, 2);
    assert!(keeps_mate_in_one(&game, mv), "{} lets the king escape with two threads", game.move_text(mv));
}

#[test]
fn mini_hexchess_mate_in_two_is_found_in_20000_simulations() {
    let text = position(3, &[("d1", 'K'), ("c4", 'R'), ("e4", 'R'), ("d7", 'k')], "w - 0 60");
    mate_in_two_is_found::<MiniHexchess>(&text, 20_000);
}

/// An evaluator that gives every move which ends the game a prior of 0: the worst a network
/// can think of a winning move.
struct BlindToWins;

impl<G: Game> mcts::Evaluator<G> for BlindToWins {
    fn max_batch_size(&self) -> usize {
        64
    }

    fn evaluate(&self, batch: &mut mcts::Batch<G>) {
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            for (p, &mv) in slot.priors.iter_mut().zip(slot.moves) {
                let mut next = slot.state.clone();
                next.play(mv);
                *p = if next.outcome().is_some() { 0.0 } else { 1.0 };
            }
            *slot.value = [0.5; rules::MAX_PLAYERS];
        }
    }
}

#[test]
fn root_wins_first_plays_a_mate_its_evaluator_gives_no_prior() {
    let text = position(5, &[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("e6", 'B'), ("a1", 'k')], "w - 0 60");
    let game = Glinski::from_text(&text).unwrap();
    let mates = |on: bool| {
        let params = SearchParams { simulations: 16, root_wins_first: on, ..SearchParams::for_tests_v1() };
        let mut search = Search::new(game.clone(), params, 0);
        search.run(&BlindToWins);
        let mut after = game.clone();
        after.play(search.result().unwrap().chosen);
        after.outcome().is_some_and(|s| s.get(0) == 1.0)
    };
    assert!(!mates(false), "without the rule, 16 simulations never try the mate (so the test bites)");
    assert!(mates(true));
}

/// Whether the search's move at `simulations` keeps a forced mate in one, with and without
/// [`SearchParams::wins_in_tree`].
fn keeps_mate_with<G: Game>(game: &G, simulations: u32, wins_in_tree: bool) -> bool {
    let params = SearchParams { simulations, wins_in_tree, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(game.clone(), params, 0);
    search.run(&UniformEvaluator);
    keeps_mate_in_one(game, search.result().unwrap().chosen)
}

#[test]
fn wins_in_tree_finds_mates_in_two_with_few_simulations() {
    // Scoring a leaf whose mover can mate as that mate shortens every line by a ply: the Mini mate
    // in two above needs 20,000 simulations without it, and on Glinski without the bishop plain
    // search prefers c6-c4 even at 6,400 simulations to the mate in two c6-c3.
    let mini = MiniHexchess::from_text(&position(3, &[("d1", 'K'), ("c4", 'R'), ("e4", 'R'), ("d7", 'k')], "w - 0 60"));
    let glinski = Glinski::from_text(&position(5, &[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("a1", 'k')], "w - 0 60"));
    let (mini, glinski) = (mini.unwrap(), glinski.unwrap());
    assert!(!forced_mate(&glinski, 1) && forced_mate(&glinski, 2));
    assert!(!keeps_mate_with(&mini, 200, false) && !keeps_mate_with(&glinski, 200, false), "the test bites");
    assert!(keeps_mate_with(&mini, 200, true));
    assert!(keeps_mate_with(&glinski, 200, true));
}

#[test]
fn a_reused_node_scored_by_its_movers_win_is_searched_as_a_root() {
    // After c4-b4 every Black reply leaves White a mate, so with wins_in_tree the search scores
    // the positions after those replies as finished games; once one is played it is the root
    // and must be searched again, not reported as the end of the game.
    let game = MiniHexchess::from_text(&position(3, &[("d1", 'K'), ("c4", 'R'), ("e4", 'R'), ("d7", 'k')], "w - 0 60"));
    let mut game = game.unwrap();
    let params = SearchParams { simulations: 200, wins_in_tree: true, ..SearchParams::for_tests_v1() };
    let mut search = Search::new(game.clone(), params, 0);
    for _ in 0..2 {
        search.run(&UniformEvaluator);
        let mv = search.result().unwrap().chosen;
        game.play(mv);
        search.advance(mv);
    }
    assert!(forced_mate(&game, 1));
    search.run(&UniformEvaluator);
    let mv = search.result().expect("the reused root is searched").chosen;
    // Plain MCTS has no preference for the shortest win: a move that keeps the mate is right too.
    assert!(keeps_mate_in_one(&game, mv), "{} lets the king escape", game.move_text(mv));
}

/// The root moves whose child the solver proved, with that child's exact value for seat 0.
fn proven_root_moves<G: Game>(search: &Search<G>) -> Vec<(G::Move, f32)> {
    let tree = search.tree();
    let proven = |e: &mcts::tree::Edge<G::Move>| {
        let child = (e.child != mcts::tree::NONE).then(|| &tree.nodes[e.child as usize])?;
        (child.status == mcts::tree::Status::Terminal && child.num_edges > 0).then(|| (e.mv, child.mean(0)))
    };
    tree.edges_of(mcts::tree::ROOT).iter().filter_map(proven).collect()
}

/// Mini Hexchess: K d1, R c4, R e4 against k d7, White mates in two.
fn mini_mate_in_two() -> MiniHexchess {
    MiniHexchess::from_text(&position(3, &[("d1", 'K'), ("c4", 'R'), ("e4", 'R'), ("d7", 'k')], "w - 0 60")).unwrap()
}

/// The one-move win checks on (as analysis), and the solver on or off.
fn solving(simulations: u32, solver: bool) -> SearchParams {
    SearchParams { simulations, wins_in_tree: true, root_wins_first: true, solver, ..SearchParams::for_tests_v1() }
}

#[test]
fn the_solver_proves_mates_in_two_exactly() {
    // Scored at once, a one-move win for White makes each Black reply to a mate in two a
    // finished game; once all replies are in the tree, the solver proves the move a win.
    let glinski = Glinski::from_text(&position(5, &[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("a1", 'k')], "w - 0 60"));
    let glinski = glinski.unwrap();
    fn check<G: Game>(game: &G) {
        assert!(!forced_mate(game, 1) && forced_mate(game, 2), "{} is a mate in two", game.to_text());
        let mut without = Search::new(game.clone(), solving(200, false), 0);
        without.run(&UniformEvaluator);
        assert!(proven_root_moves(&without).is_empty(), "without the solver nothing is proven");
        let mut search = Search::new(game.clone(), solving(200, true), 0);
        search.run(&UniformEvaluator);
        let proven = proven_root_moves(&search);
        let wins: Vec<G::Move> = proven.iter().filter(|p| p.1 == 1.0).map(|p| p.0).collect();
        assert!(!wins.is_empty(), "{}: no root move proven in 200 simulations", game.to_text());
        for &(mv, value) in &proven {
            // Exact values only: a proven mate scores exactly 1 for White and 0 for Black.
            assert!(value == 1.0 || value == 0.5 || value == 0.0, "{} proven at {value}", game.move_text(mv));
            if value == 1.0 {
                assert!(keeps_forced_mate(game, mv, 2), "{} is proven a win but is none", game.move_text(mv));
            }
        }
        let chosen = search.result().unwrap().chosen;
        assert!(wins.contains(&chosen), "{} is not a proven win", game.move_text(chosen));
        assert!(keeps_mate_in_one(game, chosen) || keeps_forced_mate(game, chosen, 2));
        let root = search.tree().root();
        assert_ne!(root.status, mcts::tree::Status::Terminal, "the root is never proven");
    }
    check(&mini_mate_in_two());
    check(&glinski);
}

/// An evaluator sure that White is winning (its value) and that one root move is the way (its
/// prior), so that the search piles its visits there.
struct Distracted {
    root: MiniHexchess,
    favourite: &'static str,
}

impl mcts::Evaluator<MiniHexchess> for Distracted {
    fn max_batch_size(&self) -> usize {
        64
    }

    fn evaluate(&self, batch: &mut mcts::Batch<MiniHexchess>) {
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            let at_root = slot.state.to_text() == self.root.to_text();
            let n = slot.moves.len() as f32;
            for (p, &mv) in slot.priors.iter_mut().zip(slot.moves) {
                *p = if at_root && slot.state.move_text(mv) == self.favourite { 0.9 } else { 0.1 / n };
            }
            *slot.value = [0.97, 0.03, 0.0];
        }
    }
}

#[test]
fn a_proven_win_is_played_over_a_more_visited_move() {
    let game = mini_mate_in_two();
    let favourite = "c4-c6";
    let evaluator = Distracted { root: game.clone(), favourite };
    let search = |solver: bool| {
        let mut search = Search::new(game.clone(), solving(5000, solver), 0);
        search.run(&evaluator);
        search
    };
    let visits_of = |search: &Search<MiniHexchess>, mv| {
        let tree = search.tree();
        tree.child_visits(tree.edges_of(mcts::tree::ROOT).iter().find(|e| e.mv == mv).unwrap())
    };
    let mut plain = search(false);
    let chosen = plain.result().unwrap().chosen;
    assert_eq!(game.move_text(chosen), favourite, "without the solver the most visited move is played");
    assert!(!keeps_forced_mate(&game, chosen, 2), "{favourite} is no mate in two, so the test bites");

    let mut solved = search(true);
    let chosen = solved.result().unwrap().chosen;
    assert!(keeps_mate_in_one(&game, chosen), "{} does not keep the mate", game.move_text(chosen));
    assert!(proven_root_moves(&solved).contains(&(chosen, 1.0)), "{} is a proven win", game.move_text(chosen));
    let distraction = game.parse_move(favourite).unwrap();
    assert!(visits_of(&solved, chosen) < visits_of(&solved, distraction), "the distraction has more visits");
}

#[test]
fn a_proven_node_played_is_searched_on_from_its_subtree() {
    // With the solver, the move played is a proven win: as the new root it is expanded again,
    // keeps its visits, and is searched on; the next root, scored by White's win at once, is
    // searched afresh.
    let mut game = mini_mate_in_two();
    let mut search = Search::new(game.clone(), solving(200, true), 0);
    search.run(&UniformEvaluator);
    let result = search.result().unwrap();
    let i = result.moves.iter().position(|&m| m == result.chosen).unwrap();
    game.play(result.chosen);
    search.advance(result.chosen);
    assert_eq!(search.tree().root().status, mcts::tree::Status::Expanded);
    assert_eq!(search.tree().root().visits, result.visits[i], "the proven subtree is kept");
    assert_eq!(search.tree().root().mean(0), 1.0, "and its exact value");
    for _ in 0..2 {
        search.run(&UniformEvaluator);
        let mv = search.result().expect("the reused root is searched").chosen;
        game.play(mv);
        search.advance(mv);
    }
    assert_eq!(game.outcome().map(|s| s.get(0)), Some(1.0), "White mated in two");
}
