//! Hand-built positions with their exact legal moves (worked out by hand from docs/rules/), and the
//! game-end rules.

mod common;

use common::{move_texts, position_text};
use rules::hexchess::{Glinski, MiniHexchess};
use rules::{Ending, Game, Scores};

fn glinski(pieces: &[(&str, char)], rest: &str) -> Glinski {
    let text = position_text(5, pieces, rest);
    Glinski::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(game: &mut impl Game, text: &str) {
    let mv = game.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    game.play(mv);
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn moves_from(game: &impl Game, prefix: &str) -> Vec<String> {
    move_texts(game).into_iter().filter(|m| m.starts_with(prefix)).collect()
}

#[test]
fn en_passant_right_after_a_double_step_only() {
    // The king on f1 has five steps: f2 g1 e1 g2 e2.
    let mut game = glinski(&[("f1", 'K'), ("c5", 'P'), ("f11", 'k'), ("d7", 'p')], "b - 0 1");
    play(&mut game, "d7-d5");
    assert_eq!(game.to_text().split(' ').nth(2), Some("d6"));
    // c5 captures NE onto the skipped cell d6, and pushes to c6; its NW cell b5 is empty.
    assert_eq!(move_texts(&game), sorted(&["c5-c6", "c5-d6", "f1-e1", "f1-e2", "f1-f2", "f1-g1", "f1-g2"]));
    let mut taken = game.clone();
    play(&mut taken, "c5xd6");
    assert!(taken.piece_at(rules::hex::parse_glinski_label("d5", 5).unwrap()).is_none(), "the passed pawn is gone");
    // One move later the right has lapsed.
    play(&mut game, "f1-f2");
    play(&mut game, "f11-f10");
    assert_eq!(moves_from(&game, "c5"), vec!["c5-c6"]);
}

#[test]
fn en_passant_that_opens_a_line_to_the_king_is_illegal() {
    // b5 rook, c5 white pawn, d5 black pawn (after the double step), e5 empty, f5 white king: all on
    // one SE line. Taking en passant would empty c5 and d5 at once.
    let mut game = glinski(&[("f5", 'K'), ("c5", 'P'), ("f11", 'k'), ("b5", 'r'), ("d7", 'p')], "b - 0 1");
    play(&mut game, "d7-d5");
    assert_eq!(moves_from(&game, "c5"), vec!["c5-b5", "c5-c6"]);
    let err = game.parse_move("c5-d6").unwrap_err().to_string();
    assert!(err.contains("leaves the king attacked"), "{err}");
}

#[test]
fn glinski_promotion_is_one_move_per_piece() {
    // The king on l1 has five steps: l2 k1 k2 i2 k3. The pawn on f10 pushes to f11 or takes e10.
    let game = glinski(&[("l1", 'K'), ("f10", 'P'), ("a6", 'k'), ("e10", 'n')], "w - 0 1");
    let mut expected = vec!["l1-l2", "l1-k1", "l1-k2", "l1-i2", "l1-k3"];
    let promotions: Vec<String> =
        ["f11", "e10"].iter().flat_map(|to| ['Q', 'R', 'B', 'N'].map(|p| format!("f10-{to}={p}"))).collect();
    expected.extend(promotions.iter().map(String::as_str));
    assert_eq!(move_texts(&game), sorted(&expected));
}

#[test]
fn mini_promotion_is_to_rook_bishop_or_knight() {
    // Mini: the king on a1 has five steps (a2 b2 b1 b3 c2); the pawn on c5 pushes to c6 (the top of
    // file c) or takes d7 along its (+1, +1, -2) capture direction.
    let text = position_text(3, &[("a1", 'K'), ("c5", 'P'), ("g1", 'k'), ("d7", 'r')], "w - 0 1");
    let game = MiniHexchess::from_text(&text).unwrap();
    assert_eq!(
        move_texts(&game),
        sorted(&[
            "a1-a2", "a1-b1", "a1-b2", "a1-b3", "a1-c2", "c5-c6=B", "c5-c6=N", "c5-c6=R", "c5-d7=B", "c5-d7=N",
            "c5-d7=R"
        ])
    );
    let err = game.parse_move("c5-c6=Q").unwrap_err().to_string();
    assert!(err.contains("cannot promote to a queen"), "{err}");
}

#[test]
fn pinned_pieces_stay_on_their_pin_lines() {
    // King f1. Rook f3 pinned on file f by the rook on f8; knight g2 pinned by the bishop on i4;
    // bishop d3 pinned by the queen on b5.
    let game = glinski(
        &[("f1", 'K'), ("f3", 'R'), ("g2", 'N'), ("d3", 'B'), ("f11", 'k'), ("f8", 'r'), ("i4", 'b'), ("b5", 'q')],
        "w - 0 1",
    );
    assert_eq!(
        move_texts(&game),
        sorted(&[
            "f1-f2", "f1-g1", "f1-e1", "f1-e2", // king
            "f3-f2", "f3-f4", "f3-f5", "f3-f6", "f3-f7", "f3-f8", // rook along the file
            "d3-e2", "d3-c4", "d3-b5", // bishop along its line
        ])
    );
    let err = game.parse_move("f3-e3").unwrap_err().to_string();
    assert!(err.contains("leaves the king attacked"), "{err}");
}

#[test]
fn check_is_answered_by_moving_blocking_or_capturing() {
    // The rook on f6 checks the king on f1 along file f. The king may not stay on the file (f2);
    // e1 holds its own knight, which can block on f4; the bishop d2 can block on f3 or take f6.
    let game = glinski(&[("f1", 'K'), ("e1", 'N'), ("d2", 'B'), ("a6", 'k'), ("f6", 'r')], "w - 0 1");
    assert!(game.in_check());
    assert_eq!(move_texts(&game), sorted(&["f1-g1", "f1-e2", "f1-g2", "e1-f4", "d2-f3", "d2-f6"]));
    let err = game.parse_move("e1-g3").unwrap_err().to_string();
    assert!(err.contains("does not get the king out of check"), "{err}");
}

/// Black king a1, white rooks c6 and b7, bishop e6: Rc6-a6 mates (a1 and a2 on the a-file, b1 b2 b3
/// under the b7 rook, c2 under the bishop).
fn mate_in_one(halfmove: u32) -> Glinski {
    glinski(&[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("e6", 'B'), ("a1", 'k')], &format!("w - {halfmove} 60"))
}

#[test]
fn checkmate_wins_even_on_the_hundredth_quiet_ply() {
    let mut game = mate_in_one(99);
    assert_eq!(game.outcome(), None);
    play(&mut game, "c6-a6");
    assert_eq!(game.halfmove_clock(), 100);
    assert_eq!(game.outcome(), Some(Scores::win2(0)));
    assert_eq!(game.ending(), Some(Ending::Checkmate));
    assert!(move_texts(&game).is_empty());
}

#[test]
fn the_hundredth_quiet_ply_draws_otherwise() {
    let mut game = mate_in_one(99);
    assert_eq!(game.ending(), None);
    play(&mut game, "f1-f2");
    assert_eq!(game.outcome(), Some(Scores::draw(2)));
    assert_eq!(game.ending(), Some(Ending::QuietPlies));
    assert!(move_texts(&game).is_empty(), "a finished game has no moves");
    assert_eq!(game.count_legal_moves(), 0);
}

#[test]
fn glinski_stalemate_scores_three_quarters_to_the_stalemating_player() {
    // Black king a1 (-5,0); its cells a2 b1 b2 b3 c2. Rc6-c4 covers a2 (and b3) along the SW line
    // c4 b3 a2; the b7 rook covers b1..b6; the e6 bishop covers c2 through d4. Nothing hits a1.
    // Played as the hundredth quiet ply: stalemate still takes precedence over the draw.
    let mut game = glinski(&[("f1", 'K'), ("c6", 'R'), ("b7", 'R'), ("e6", 'B'), ("a1", 'k')], "w - 99 60");
    play(&mut game, "c6-c4");
    assert!(!game.in_check());
    assert!(move_texts(&game).is_empty());
    assert_eq!(game.outcome(), Some(Scores::new(&[0.75, 0.25])));
    assert_eq!(game.ending(), Some(Ending::Stalemate), "stalemate before the 100 plies");
}

#[test]
fn mini_stalemate_is_a_draw() {
    // Mini: Black king a4 (-3,3), the top of file a; its cells b5 b4 a3 c5 b3. The e6 rook covers
    // d6 c5 b4 a3 along its SW line, the b1 rook covers b2..b5 up its file; neither touches a4.
    let text = position_text(3, &[("g1", 'K'), ("e6", 'R'), ("b1", 'R'), ("a4", 'k')], "b - 0 50");
    let game = MiniHexchess::from_text(&text).unwrap();
    assert!(!game.in_check());
    assert!(move_texts(&game).is_empty());
    assert_eq!(game.outcome(), Some(Scores::draw(2)));
}

#[test]
fn threefold_repetition_draws() {
    let mut game = Glinski::start();
    let shuffle = ["d1-f4", "d9-f8", "f4-d1", "f8-d9"];
    for round in 0..2 {
        for (i, m) in shuffle.iter().enumerate() {
            assert_eq!(game.outcome(), None, "round {round} move {i}");
            play(&mut game, m);
        }
        assert_eq!(game.repetitions(), round + 1);
        assert_eq!(game.hash(), Glinski::start().hash());
    }
    assert_eq!(game.outcome(), Some(Scores::draw(2)));
    assert_eq!(game.ending(), Some(Ending::Repetition));
    assert!(move_texts(&game).is_empty());
    // Position text does not carry the history: the same position read back is not drawn.
    assert_eq!(Glinski::from_text(&game.to_text()).unwrap().outcome(), None);
}
