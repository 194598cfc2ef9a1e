//! Position text and move text: round trips and the errors bad text gets.

mod common;

use common::position_text;
use rules::hexchess::{Glinski, MiniHexchess};
use rules::{Game, MoveError, PositionError};

const GLINSKI_START: &str = "b/qbk/n1b1n/r5r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1";
const MINI_START: &str = "b/rkn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1";

#[test]
fn start_positions_read_and_write_the_documented_text() {
    assert_eq!(Glinski::start().to_text(), GLINSKI_START);
    assert_eq!(MiniHexchess::start().to_text(), MINI_START);
    assert_eq!(Glinski::from_text(GLINSKI_START).unwrap(), Glinski::start());
    // The setup of docs/rules/glinski.md, cell by cell.
    let start = Glinski::start();
    for (label, text) in
        [("g1", "K"), ("e1", "Q"), ("c1", "R"), ("i8", "r"), ("d9", "n"), ("f11", "b"), ("k7", "p"), ("k1", "P")]
    {
        let cell = rules::hex::parse_glinski_label(label, 5).unwrap();
        let (side, piece) = start.piece_at(cell).unwrap();
        let letter = if side == 0 { piece.letter() } else { piece.letter().to_ascii_lowercase() };
        assert_eq!(letter.to_string(), text, "{label}");
    }
}

#[test]
fn text_round_trips_with_en_passant_and_clocks() {
    let mut game = Glinski::start();
    for m in ["f5-f6", "e7-e5"] {
        let mv = game.parse_move(m).unwrap();
        game.play(mv);
    }
    let text = game.to_text();
    assert!(text.ends_with(" w e6 0 2"), "{text}");
    let back = Glinski::from_text(&text).unwrap();
    assert_eq!(back.to_text(), text);
    assert_eq!(back.hash(), game.hash());
}

fn position_error(text: &str) -> PositionError {
    Glinski::from_text(text).unwrap_err()
}

#[test]
fn bad_position_text_says_what_and_where() {
    let e = position_error("");
    assert!(matches!(e, PositionError::Syntax { field: "fields", .. }), "{e}");

    let e = position_error(&GLINSKI_START.replace(" w ", " x "));
    assert_eq!(
        e,
        PositionError::Syntax { field: "side to move", at: 67, message: "expected 'w' or 'b', found 'x'".into() }
    );

    let e = position_error(&GLINSKI_START.replace("qbk", "qbz"));
    let PositionError::Syntax { field, at, message } = e else { panic!() };
    assert_eq!((field, at), ("board", 4));
    assert!(message.contains("rank 10") && message.contains("'z'"), "{message}");

    let e = position_error(&GLINSKI_START.replace("r5r", "r6r"));
    let PositionError::Syntax { field, message, .. } = e else { panic!() };
    assert_eq!(field, "board");
    // Too many cells is said as too many (it said "has only 7 cells").
    assert!(message.contains("rank 8 describes more than its 7 cells"), "{message}");

    let e = position_error(&GLINSKI_START.replace("r5r", "r4r"));
    assert!(e.to_string().contains("rank 8 describes 6 of its 7 cells"), "{e}");

    let e = position_error(&GLINSKI_START.replace("b/qbk/", "qbk/"));
    assert!(e.to_string().contains("expected 11 ranks"), "{e}");

    let e = position_error(&GLINSKI_START.replace(" 0 1", " x 1"));
    assert!(matches!(e, PositionError::Syntax { field: "halfmove clock", .. }), "{e}");

    let e = position_error(&GLINSKI_START.replace(" 0 1", " 0 0"));
    assert!(matches!(e, PositionError::Syntax { field: "fullmove number", .. }), "{e}");

    let e = position_error(&GLINSKI_START.replace(" - ", " z9 "));
    assert!(matches!(e, PositionError::Syntax { field: "en passant", .. }), "{e}");
}

#[test]
fn impossible_positions_are_invalid() {
    let e = position_error(&GLINSKI_START.replace("qbk", "qb1"));
    assert_eq!(e, PositionError::Invalid("Black has 0 kings, expected 1".into()));
    let e = position_error(&position_text(5, &[("g1", 'K'), ("g10", 'k'), ("f11", 'P')], "w - 0 1"));
    assert_eq!(e, PositionError::Invalid("White pawn on f11, its promotion cell".into()));
    // Black to move while White's king stands in check from the rook on the same file.
    let e = position_error(&position_text(5, &[("f1", 'K'), ("f9", 'k'), ("f6", 'r')], "b - 0 1"));
    assert_eq!(e, PositionError::Invalid("the side not to move is in check".into()));
    let e = position_error(&GLINSKI_START.replace(" - ", " e6 "));
    assert!(e.to_string().contains("does not follow a double step"), "{e}");
    let e = MiniHexchess::from_text(&MINI_START.replace(" - ", " d4 ")).unwrap_err();
    assert!(e.to_string().contains("has no double steps"), "{e}");
    let e = MiniHexchess::from_text(&MINI_START.replace("rkn", "qkn")).unwrap_err();
    assert!(e.to_string().contains("'q' is not a piece of mini-hexchess"), "{e}");
}

fn move_error(game: &impl Game, text: &str) -> MoveError {
    game.parse_move(text).unwrap_err()
}

#[test]
fn bad_move_text_says_why() {
    let g = Glinski::start();
    let syntax = |text: &str, message: &str| MoveError::Syntax { text: text.into(), message: message.into() };
    let illegal = |text: &str, reason: &str| MoveError::Illegal { text: text.into(), reason: reason.into() };
    assert_eq!(move_error(&g, "f5f6"), syntax("f5f6", "expected FROM-TO (e.g. f5-f6, or f5xg6 for a capture)"));
    assert_eq!(move_error(&g, "z1-f2"), syntax("z1-f2", "origin cell 'z1' is not a cell of the glinski board"));
    assert_eq!(move_error(&g, "f5-f12"), syntax("f5-f12", "destination cell 'f12' is not a cell of the glinski board"));
    assert_eq!(move_error(&g, "e5-e6"), illegal("e5-e6", "no piece on e5"));
    assert_eq!(move_error(&g, "f7-f6"), illegal("f7-f6", "not your piece: the pawn on f7 is the opponent's"));
    assert_eq!(move_error(&g, "f1-f4"), illegal("f1-f4", "the bishop on f1 cannot move to f4"));
    assert_eq!(move_error(&g, "f5-f7"), illegal("f5-f7", "the pawn on f5 cannot move to f7"));
    assert_eq!(
        move_error(&g, "f5-f6=Q"),
        illegal("f5-f6=Q", "only a pawn reaching the last cell of its file promotes")
    );
    assert_eq!(move_error(&g, "f5xf6"), illegal("f5xf6", "'x' marks a capture, but nothing is captured on f6"));
    assert_eq!(move_error(&g, "f5-f6=QQ"), syntax("f5-f6=QQ", "promotion 'QQ' is not one piece letter (Q R B N)"));

    let promo =
        Glinski::from_text(&position_text(5, &[("l1", 'K'), ("f10", 'P'), ("a6", 'k'), ("e10", 'n')], "w - 0 1"))
            .unwrap();
    assert_eq!(
        move_error(&promo, "f10-f11"),
        illegal("f10-f11", "a promotion needs its piece: add =Q or =R or =B or =N")
    );
    assert_eq!(move_error(&promo, "f10-f11=K"), illegal("f10-f11=K", "a pawn cannot promote to a king in glinski"));
    assert!(promo.parse_move("f10xe10=N").is_ok());
    assert!(promo.parse_move("f10-e10=n").is_ok(), "promotion letters in either case");
}

#[test]
fn moves_are_written_in_spec_labels() {
    let g = Glinski::start();
    let mv = g.parse_move("f5-f6").unwrap();
    assert_eq!(g.move_text(mv), "f5-f6");
    // File e has ten cells, so e10 is its last: a pawn promotes there, and e11 names no cell.
    let promo = Glinski::from_text(&position_text(5, &[("l1", 'K'), ("e9", 'P'), ("a6", 'k')], "w - 0 1")).unwrap();
    assert!(matches!(promo.parse_move("e10-e11=Q"), Err(MoveError::Syntax { .. })));
    let mv = promo.parse_move("e9-e10=Q").unwrap();
    assert_eq!(promo.move_text(mv), "e9-e10=Q");
}
