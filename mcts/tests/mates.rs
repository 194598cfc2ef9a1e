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
    let mut search = Search::new(game.clone(), SearchParams::for_tests_v1(), 0);
    search.set_params(SearchParams { simulations, ..SearchParams::for_tests_v1() });
    search.run(&UniformEvaluator);
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

/// Whether, after `mv`, every reply leaves the mover a mate in one.
fn keeps_mate_in_one<G: Game>(game: &G, mv: G::Move) -> bool {
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
        forced_mate(&h, 1)
    })
}

fn mate_in_two_is_found<G: Game>(text: &str, simulations: u32) {
    let game = G::from_text(text).unwrap();
    assert!(!forced_mate(&game, 1) && forced_mate(&game, 2), "not a mate in exactly two: {text}");
    let mv = best_move(&game, simulations);
    assert!(keeps_mate_in_one(&game, mv), "{} lets the king escape", game.move_text(mv));
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
