//! Positions with known answers on each variant's real rules: mates found, hanging pieces
//! taken, pieces not left en prise, recaptures seen by the quiescence search, free kings taken in
//! Wellisch; and the same answers with and without the transposition table.

mod common;

use alphabeta::{move_values, quiescence_value, search, SearchLimits, SearchOutcome, JUDGE_MARGIN, MATE};
use common::{after, best_reply_capture, hex_position, move_texts, wellisch_position, wins_at_once};
use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{Game, Glinski, Material, MiniHexchess};

fn best<G: Material>(game: &G, depth: u32) -> SearchOutcome<G::Move> {
    search(game, &SearchLimits::depth(depth), 1).expect("the position has moves")
}

fn without_table<G: Material>(game: &G, depth: u32) -> SearchOutcome<G::Move> {
    search(game, &SearchLimits { table: false, ..SearchLimits::depth(depth) }, 1).expect("the position has moves")
}

/// Black king a1, White rooks c6 and b7 and bishop e6: the c6 rook mates on the a-file.
fn glinski_mate_in_one() -> Glinski {
    let text = hex_position(5, &[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("e6", 'B'), ("a1", 'k')], "w - 0 60");
    Glinski::from_text(&text).unwrap()
}

#[test]
fn glinski_mate_in_one_is_found_at_every_depth() {
    let game = glinski_mate_in_one();
    for depth in 1..=3 {
        let report = best(&game, depth);
        assert!(wins_at_once(&game, report.best), "depth {depth}: {} does not mate", game.move_text(report.best));
        assert_eq!(report.value, MATE - 1, "depth {depth}: a mate in one ply");
    }
}

#[test]
fn mini_hexchess_mate_in_two_is_found_at_depth_three() {
    let text = hex_position(3, &[("d1", 'K'), ("c4", 'R'), ("e4", 'R'), ("d7", 'k')], "w - 0 60");
    let game = MiniHexchess::from_text(&text).unwrap();
    let report = best(&game, 3);
    assert_eq!(report.value, MATE - 3, "a mate in three plies");
    let next = after(&game, report.best);
    let mut replies = Vec::new();
    next.legal_moves(&mut replies);
    assert!(!replies.is_empty());
    for reply in replies {
        let then = after(&next, reply);
        let mate = then.winning_move();
        assert!(mate.is_some(), "after {} {} White has no mate", game.move_text(report.best), next.move_text(reply));
    }
}

#[test]
fn glinski_hanging_rook_is_taken() {
    // The queen on f4 sees the undefended rook on f9 up the file.
    let text = hex_position(5, &[("b1", 'K'), ("f4", 'Q'), ("f9", 'r'), ("k1", 'k')], "w - 0 30");
    let game = Glinski::from_text(&text).unwrap();
    for depth in 1..=3 {
        let report = best(&game, depth);
        let black = after(&game, report.best).material()[1];
        assert_eq!(black, 0.0, "depth {depth}: {} leaves the rook", game.move_text(report.best));
    }
}

#[test]
fn quiescence_sees_the_pawn_recapture() {
    // The queen can take the pawn on f7, but the pawn on e7 takes the queen back.
    let text = hex_position(5, &[("b1", 'K'), ("f4", 'Q'), ("f7", 'p'), ("e7", 'p'), ("k1", 'k')], "w - 0 30");
    let game = Glinski::from_text(&text).unwrap();
    let grab = game.parse_move("f4-f7").unwrap_or_else(|e| panic!("{e}: {:?}", move_texts(&game)));
    assert_eq!(game.capture_value(grab), 1.0);
    assert_eq!(best_reply_capture(&game, grab), 9.0, "the recapture exists");
    let report = best(&game, 1);
    assert_ne!(report.best, grab, "depth 1 gives the queen for a pawn");
}

#[test]
fn attacked_queen_is_saved_at_depth_two() {
    // Black's rook on f10 attacks the queen on f4 down the file; a careless pawn move loses her.
    let text = hex_position(5, &[("b1", 'K'), ("f4", 'Q'), ("f10", 'r'), ("g2", 'P'), ("k1", 'k')], "w - 0 30");
    let game = Glinski::from_text(&text).unwrap();
    let careless = game.parse_move("g2-g3").unwrap_or_else(|e| panic!("{e}: {:?}", move_texts(&game)));
    assert_eq!(best_reply_capture(&game, careless), 9.0, "the queen hangs after g2-g3");
    for depth in 1..=2 {
        let report = best(&game, depth);
        let saved = best_reply_capture(&game, report.best) < 9.0 || game.capture_value(report.best) >= 5.0;
        assert!(saved, "depth {depth}: {} leaves the queen", game.move_text(report.best));
    }
}

#[test]
fn table_changes_no_known_answer() {
    let game = glinski_mate_in_one();
    for depth in 1..=3 {
        let (with, without) = (best(&game, depth), without_table(&game, depth));
        assert!(wins_at_once(&game, with.best) && wins_at_once(&game, without.best));
        assert_eq!(with.value, without.value, "depth {depth}");
    }
    let text = hex_position(3, &[("d1", 'K'), ("c4", 'R'), ("e4", 'R'), ("d7", 'k')], "w - 0 60");
    let mini = MiniHexchess::from_text(&text).unwrap();
    for depth in 1..=3 {
        assert_eq!(best(&mini, depth).value, without_table(&mini, depth).value, "mini, depth {depth}");
    }
}

#[test]
fn wellisch_paranoid_search_takes_a_free_king() {
    // P1's rook on C5 sees P2's king on C8 up column C; capturing it ends the game.
    let text = wellisch_position("D1:1K C5:1R C8:2K K9:3K", "1 - - 0");
    let game = Wellisch::from_text(&text).unwrap();
    for depth in 1..=3 {
        let report = best(&game, depth);
        assert!(wins_at_once(&game, report.best), "depth {depth}: {} takes no king", game.move_text(report.best));
    }
}

#[test]
fn wellisch_paranoid_search_takes_a_free_queen() {
    // P2's queen on C6 stands undefended in front of P1's rook on C5.
    let text = wellisch_position("D1:1K C5:1R C6:2Q H8:2K K9:3K", "1 - - 0");
    let game = Wellisch::from_text(&text).unwrap();
    for depth in 1..=2 {
        let report = best(&game, depth);
        assert_eq!(after(&game, report.best).material()[1], 0.0, "depth {depth}: {}", game.move_text(report.best));
    }
}

#[test]
fn weltschach_hanging_queen_is_taken() {
    // The rook on sa1 sees the black queen on sa5 along the file.
    let game = Weltschach::from_placements(0, "Kvd1 kve8 Rsa1 qsa5 psh6").unwrap();
    for depth in 1..=2 {
        let report = best(&game, depth);
        assert_eq!(after(&game, report.best).material()[1], 1.0, "depth {depth}: {}", game.move_text(report.best));
    }
}

#[test]
fn weltschach_quiescence_counts_the_recapture() {
    // Rsa1xsa5 wins a free rook, or only trades it when the rook on sa8 takes back: the
    // recapture is found below the quiescence search's first ply, where Weltschach lists
    // captures alone.
    let free = Weltschach::from_placements(0, "Kvd1 kve8 Rsa1 rsa5 psh6").unwrap();
    let defended = Weltschach::from_placements(0, "Kvd1 kve8 Rsa1 rsa5 rsa8 psh6").unwrap();
    let (free, defended) = (quiescence_value(&free), quiescence_value(&defended));
    assert!((350..=450).contains(&free), "a free rook: up a rook less a pawn, got {free}");
    assert!((-650..=-550).contains(&defended), "a defended rook: still down a rook and a pawn, got {defended}");
}

#[test]
fn weltschach_quiescence_sees_a_capture_that_mates() {
    // Black's rook takes the queen on sa5 and checks along the file; the rooks on the ta, sb
    // and tb files cover every flight of the Emperor on sa1.
    let game = Weltschach::from_placements(1, "Ksa1 kzh4 Qsa5 rsa8 rtb8 rsb8 rta8").unwrap();
    let value = quiescence_value(&game);
    assert!(value > MATE / 2, "the mating capture is a win, got {value}");
    let report = best(&game, 1);
    assert_eq!(game.move_text(report.best), "sa8-sa5");
    assert!(report.value > MATE / 2);
}

/// Every legal move of `game` with the judge's value of it (centipawns for the mover).
fn judged<G: Material>(game: &G) -> Vec<(String, i32)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut values = vec![0; moves.len()];
    move_values(game, &moves, 0, &mut values, None);
    moves.iter().zip(values).map(|(&mv, v)| (game.move_text(mv), v)).collect()
}

#[test]
fn weltschach_judge_puts_the_hanging_queen_first_and_the_rest_far_below() {
    // The judge values exactly only the moves within JUDGE_MARGIN of the best; the rook's
    // capture of the queen is first, and every other move (the queen takes the rook, or the
    // rook runs and the queen stays) is far enough below that a bound suffices.
    let game = Weltschach::from_placements(0, "Kvd1 kve8 Rsa1 qsa5 psh6").unwrap();
    let values = judged(&game);
    let (best, value) = values.iter().max_by_key(|(_, v)| *v).unwrap();
    assert_eq!(best, "sa1-sa5", "{values:?}");
    assert!((350..=450).contains(value), "up a rook less a pawn once the queen is taken, got {value}");
    for (text, v) in values.iter().filter(|(text, _)| text != best) {
        assert!(*v <= value - JUDGE_MARGIN, "{text} valued {v}, within the margin of {value}");
    }
}

#[test]
fn weltschach_judge_sees_a_capture_that_mates_and_counts_the_recapture() {
    let mates = Weltschach::from_placements(1, "Ksa1 kzh4 Qsa5 rsa8 rtb8 rsb8 rta8").unwrap();
    let values = judged(&mates);
    let (best, value) = values.iter().max_by_key(|(_, v)| *v).unwrap();
    assert_eq!((best.as_str(), *value > MATE / 2), ("sa8-sa5", true), "{values:?}");
    // A free rook is won; one the sa8 rook takes back is a trade, worth no more than moving the
    // attacked rook away, and a rook left where the sa5 rook takes it is lost.
    let free = Weltschach::from_placements(0, "Kvd1 kve8 Rsa1 rsa5 psh6").unwrap();
    let defended = Weltschach::from_placements(0, "Kvd1 kve8 Rsa1 rsa5 rsa8 psh6").unwrap();
    let value_of = |values: &[(String, i32)], text: &str| values.iter().find(|(t, _)| t == text).unwrap().1;
    let (free, defended) = (judged(&free), judged(&defended));
    assert!((350..=450).contains(&value_of(&free, "sa1-sa5")), "a free rook: {free:?}");
    let (trade, away, left) =
        (value_of(&defended, "sa1-sa5"), value_of(&defended, "sa1-sb1"), value_of(&defended, "vd1-vc1"));
    assert!((-650..=-550).contains(&trade) && (trade - away).abs() <= 20, "trade {trade}, away {away}");
    assert!(left <= trade - 400, "the rook left en prise is lost: {left}, the trade {trade}");
}
