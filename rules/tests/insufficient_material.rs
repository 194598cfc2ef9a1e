//! Draw by insufficient material, per variant: which material ends the game at once, that a
//! capture leaving it ends the game, and that material that can still win does not.

use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{Ending, Game, Glinski, Material, MiniHexchess};

fn position<G: Game>(text: &str) -> G {
    G::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Asserts that the game is over as a draw by insufficient material, with no legal move left.
fn assert_insufficient<G: Game>(game: &G) {
    assert_eq!(game.ending(), Some(Ending::InsufficientMaterial), "{game:?}");
    let scores = game.outcome().expect("the game is over");
    assert!(scores.as_slice().iter().all(|&s| s == 0.5), "a draw for everyone: {scores:?}");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.is_empty(), "no moves once the game is over");
    assert_eq!(game.count_legal_moves(), 0);
}

/// Asserts that the game goes on.
fn assert_goes_on<G: Game>(game: &G) {
    assert_eq!((game.ending(), game.outcome()), (None, None), "{game:?}");
    assert!(game.count_legal_moves() > 0);
}

/// The position after the only capture of the position `text`.
fn after_the_capture<G: Game + Material>(text: &str) -> G {
    let mut game: G = position(text);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let captures: Vec<_> = moves.into_iter().filter(|&m| game.capture_value(m) > 0.0).collect();
    assert_eq!(captures.len(), 1, "one capture in {text}");
    game.play(captures[0]);
    game
}

#[test]
fn mini_hexchess_bare_kings_are_a_draw() {
    assert_insufficient(&position::<MiniHexchess>("k/3/5/7/7/7/3K3 w - 0 1"));
    assert_insufficient(&position::<MiniHexchess>("1/3/5/7/7/k6/3K3 b - 0 1"));
    // Mate and stalemate come first: a stalemate of bare kings is named so (both are draws).
    let stalemate: MiniHexchess = position("1/3/5/7/3k3/7/3K3 w - 0 1");
    assert_eq!(stalemate.ending(), Some(Ending::Stalemate));
}

#[test]
fn mini_hexchess_a_capture_leaving_bare_kings_ends_the_game() {
    let game: MiniHexchess = after_the_capture("k/3/5/7/7/3n3/3K3 w - 0 1");
    assert_insufficient(&game);
}

#[test]
fn mini_hexchess_one_minor_piece_plays_on() {
    // Mates with a lone bishop or knight exist on this board (rules' unit tests count them).
    assert_goes_on(&position::<MiniHexchess>("k/3/5/7/7/7/3KB2 w - 0 1"));
    assert_goes_on(&position::<MiniHexchess>("k/3/5/7/7/7/3KN2 b - 0 1"));
    for mate in ["k/3/2K2/7/7/7/B6 b - 0 1", "1/3/5/k1K4/7/1N5/7 b - 0 1"] {
        assert_eq!(position::<MiniHexchess>(mate).ending(), Some(Ending::Checkmate), "{mate}");
    }
}

#[test]
fn glinski_bare_kings_play_on_because_a_stalemate_scores_three_quarters() {
    let game: Glinski = after_the_capture("k/3/5/7/9/11/11/11/11/5b5/5K5 w - 0 1");
    assert_goes_on(&game);
    // The reason: this stalemate of bare kings is reachable, and it is no draw.
    let stalemate: Glinski = position("1/3/5/7/9/11/11/11/2K8/11/k10 b - 0 1");
    assert_eq!(stalemate.ending(), Some(Ending::Stalemate));
    assert_eq!(stalemate.outcome().expect("over").as_slice(), &[0.75, 0.25]);
}

#[test]
fn glinski_king_and_bishop_against_king_plays_on_because_it_can_mate() {
    assert_goes_on(&position::<Glinski>("k/3/5/7/9/11/11/11/11/11/5KB4 w - 0 1"));
    // One of the 60 mates of a lone bishop: the corner king, the other king two cells away.
    let mate: Glinski = position("k/3/2K2/7/9/11/11/11/11/11/B10 b - 0 1");
    assert_eq!(mate.ending(), Some(Ending::Checkmate));
}

const WELLISCH_KINGS: &str =
    "....../......./.......3K/2K......../........../.........../........../........./......../......./...1K.. 1 - - 0";

#[test]
fn wellisch_kings_alone_are_a_draw() {
    assert_insufficient(&position::<Wellisch>(WELLISCH_KINGS));
}

#[test]
fn wellisch_a_capture_leaving_kings_alone_ends_the_game() {
    let text = "....../......./.......3K/2K......../........../.........../........../........./......../......./...1K2N. 1 - - 0";
    let game: Wellisch = after_the_capture(text);
    assert_insufficient(&game);
    assert!(game.to_text().ends_with("....1K. 2 - 2N 0"), "P1's king took P2's knight: {}", game.to_text());
}

#[test]
fn wellisch_kings_side_by_side_play_on() {
    // P1 can take P2's king: kings alone, but not a draw.
    let text = "....../......./.......3K/........./........../.........../........../........./......../......./...1K2K. 1 - - 0";
    let mut game: Wellisch = position(text);
    assert_goes_on(&game);
    game.play(game.winning_move().expect("P1 takes a king"));
    assert_eq!(game.ending(), Some(Ending::KingCaptured));
}

#[test]
fn weltschach_bare_emperors_are_a_draw() {
    let game = Weltschach::from_placements(0, "Kvd1 kza8").expect("position");
    assert_insufficient(&game);
}

#[test]
fn weltschach_a_capture_leaving_bare_emperors_ends_the_game() {
    let mut game = Weltschach::from_placements(0, "Kvd1 kza8 rve2").expect("position");
    assert_goes_on(&game);
    game.play(game.parse_move("vd1-ve2").expect("the Emperor takes the rook"));
    assert_insufficient(&game);
    let error = game.parse_move("za8-za7");
    assert!(format!("{error:?}").contains("insufficient material"), "{error:?}");
}

#[test]
fn weltschach_emperor_and_one_piece_play_on() {
    assert_goes_on(&Weltschach::from_placements(0, "Kvd1 kza8 Nsa1").expect("position"));
}
