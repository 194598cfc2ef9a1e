//! Every root move's exact score (the teacher's labels) and the standalone quiescence value
//! (the tactical leaf value), checked on positions with known answers.

mod common;

use alphabeta::{
    expected_score, quiescence_value, score_root_moves, score_root_moves_within, search, SearchLimits, MATE,
};
use common::{hex_position, wins_at_once};
use rules::{Game, Glinski, MiniHexchess};
use std::sync::atomic::AtomicBool;

fn plain(depth: u32) -> SearchLimits {
    SearchLimits { table: false, ..SearchLimits::depth(depth) }
}

#[test]
fn every_root_move_is_scored_and_the_best_matches_the_search() {
    let mut game = MiniHexchess::start();
    let mut moves = Vec::new();
    // A few positions along a fixed game, so the check is not about the start alone.
    for ply in 0..6 {
        for depth in 1..=3 {
            let scored = score_root_moves(&game, &plain(depth), 5).unwrap();
            let searched = search(&game, &plain(depth), 5).unwrap();
            game.legal_moves(&mut moves);
            assert_eq!(scored.root_scores.len(), moves.len(), "ply {ply} depth {depth}: one score a move");
            assert!(scored.root_scores.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
            assert_eq!(scored.root_scores[0].1, searched.value, "ply {ply} depth {depth}: the best is the search's");
            assert_eq!(scored.value, searched.value);
            assert!(search(&game, &plain(depth), 5).unwrap().root_scores.is_empty(), "plain searches score nothing");
        }
        game.legal_moves(&mut moves);
        game.play(moves[(ply * 5) % moves.len()]);
    }
}

#[test]
fn a_margin_keeps_the_moves_near_the_best_exact_and_bounds_the_rest() {
    let mut game = Glinski::start();
    let mut moves = Vec::new();
    let margin = 150;
    let mut bounded = 0;
    for ply in 0..8 {
        for depth in 1..=2 {
            let exact = score_root_moves(&game, &plain(depth), 3).unwrap();
            let within = score_root_moves_within(&game, &plain(depth), 3, margin, &AtomicBool::new(false)).unwrap();
            assert_eq!(within.root_scores.len(), exact.root_scores.len(), "ply {ply} depth {depth}: one score a move");
            assert_eq!(within.value, exact.value, "ply {ply} depth {depth}: the same best value");
            let best = exact.value;
            for &(mv, v) in &exact.root_scores {
                let w = within.root_scores.iter().find(|&&(m, _)| m == mv).unwrap().1;
                let text = game.move_text(mv);
                if v >= best - margin {
                    assert_eq!(w, v, "ply {ply} depth {depth}: {text} is within the margin, so exact");
                } else {
                    assert!(w <= best - margin, "ply {ply} depth {depth}: {text} {w} bounds {v}");
                    bounded += usize::from(w != v);
                }
            }
        }
        game.legal_moves(&mut moves);
        game.play(moves[(ply * 7) % moves.len()]);
    }
    assert!(bounded > 0, "some moves fell below the margin and were only bounded");
}

#[test]
fn the_mate_scores_a_mate_and_the_other_moves_less() {
    let text = hex_position(5, &[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("e6", 'B'), ("a1", 'k')], "w - 0 60");
    let game = Glinski::from_text(&text).unwrap();
    let report = score_root_moves(&game, &SearchLimits::depth(2), 1).unwrap();
    let (best, value) = report.root_scores[0];
    assert!(wins_at_once(&game, best), "{} mates", game.move_text(best));
    assert_eq!(value, MATE - 1);
    assert_eq!(expected_score(value), 1.0);
    for &(mv, v) in &report.root_scores {
        assert_eq!(v == MATE - 1, wins_at_once(&game, mv), "{} scores {v}", game.move_text(mv));
    }
    assert!(report.root_scores.iter().any(|&(_, v)| v < MATE / 4), "moves that do not mate score material");
}

#[test]
fn a_hanging_rook_is_worth_its_value_to_the_capture_only() {
    let text = hex_position(5, &[("b1", 'K'), ("f4", 'Q'), ("f9", 'r'), ("k1", 'k')], "w - 0 30");
    let game = Glinski::from_text(&text).unwrap();
    let report = score_root_moves(&game, &SearchLimits::depth(1), 1).unwrap();
    let (best, value) = report.root_scores[0];
    assert_eq!(game.move_text(best), "f4-f9");
    let second = report.root_scores[1].1;
    assert!(value - second >= 400, "the capture is a rook ahead of the rest: {value} vs {second}");
}

#[test]
fn quiescence_sees_a_free_capture_and_a_recapture() {
    // White to move can take the undefended queen with the rook: worth a rook to White, where
    // the material count alone says White is four pawns down.
    let free = hex_position(5, &[("b1", 'K'), ("f4", 'R'), ("f9", 'q'), ("k1", 'k')], "w - 0 30");
    let free = Glinski::from_text(&free).unwrap();
    let q = quiescence_value(&free);
    assert!((400..=600).contains(&q), "{q}");
    // Here the pawn on f7 is defended by e7: taking it loses the queen, so quiescence stands pat.
    let defended = hex_position(5, &[("b1", 'K'), ("f4", 'Q'), ("f7", 'p'), ("e7", 'p'), ("k1", 'k')], "w - 0 30");
    let defended = Glinski::from_text(&defended).unwrap();
    let q = quiescence_value(&defended);
    assert!((600..=800).contains(&q), "a queen against two pawns, nothing won: {q}");
}

#[test]
fn expected_scores_are_a_centred_logistic() {
    assert_eq!(expected_score(0), 0.5);
    assert!((expected_score(300) - 0.7311).abs() < 1e-3);
    assert!((expected_score(-300) + expected_score(300) - 1.0).abs() < 1e-6);
    assert_eq!(expected_score(-(MATE - 7)), 0.0);
    assert!(expected_score(900) > 0.95);
}
