//! Hand-built Wellisch positions with the exact move list of each special rule (castling,
//! immediate and delayed promotion, passes, king capture, takeover, the draw rules), the setup,
//! and the errors bad text gets.

mod common;

use std::collections::HashSet;

use common::move_texts as texts;
use common::wellisch::{assert_policy_injective, cell, pieces_of, play, pos, sorted, KINGS23};
use rules::wellisch::{Piece, Wellisch};
use rules::{Ending, Game, MoveError, PositionError};

#[test]
fn setups_are_the_spec_cells_and_rotations() {
    let g = Wellisch::start();
    let spec = [
        "K D1, Q C1, R B1 E1, N A1 D2 F1, P A2 B2 C2 D3 E3 E2 F2 G2",
        "K C8, Q D9, R B7 E10, N A6 D8 F11, P A5 B6 C7 D7 E8 E9 F10 G11",
        "K K9, Q K8, R K7 K10, N K6 J8 K11, P J5 J6 I7 J7 I8 J9 J10 J11",
    ];
    for (seat, line) in spec.iter().enumerate() {
        let mut count = 0;
        for group in line.split(", ") {
            let mut it = group.split(' ');
            let piece = Piece::from_letter(it.next().unwrap().chars().next().unwrap()).unwrap();
            for l in it {
                let c = cell(l);
                assert_eq!(g.owner_at(c), Some(seat), "{l}");
                assert_eq!(g.piece_at(c), Some((piece, if piece == Piece::Pawn { seat } else { 0 })), "{l}");
                count += 1;
            }
        }
        assert_eq!(pieces_of(&g, seat), count);
        // That each king stands on its seat's castling cell is checked beside the private
        // castling table, in rules/src/wellisch/geometry.rs.
    }
    assert_eq!(
        g.to_text(),
        "2N2P..3P3N/2R2P...3P3R/2Q2P....3P3K/2K2N2P...3P3N3Q/2R2P2P....3P3P3R/2N2P.......3P3N/\
         2P........3P/........./...1P1P.../1P1P1P1N1P1P1P/1N1R1Q1K1R1N 1 1KQ2KQ3KQ - 0"
    );
}

#[test]
fn castling_on_both_sides() {
    let base = "B1-A1 B1-B2 B1-B3 B1-B4 B1-B5 B1-B6 B1-B7 B1-C1 B1-C2 B1-D3 B1-E4 B1-F5 B1-G6 B1-H7 B1-I8 \
                B1-J9 B1-K10 D1-D2 D1-E2 E1-E10 E1-E2 E1-E3 E1-E4 E1-E5 E1-E6 E1-E7 E1-E8 E1-E9 E1-F1 E1-F2 \
                E1-G3 E1-H4 E1-I5 E1-J6 E1-K7";
    let mut all: Vec<&str> = base.split_whitespace().collect();
    all.extend(["D1-C1", "D1-E1", "D1-B1"]);
    let g = pos(&format!("D1:1K B1:1R E1:1R {KINGS23}"), "1 1KQ - 0");
    assert_eq!(texts(&g), sorted(&all));

    // King-side: king and rook swap; both rights of P1 are gone.
    let mut k = g.clone();
    play(&mut k, "D1-E1");
    assert_eq!(k.piece_at(cell("E1")), Some((Piece::King, 0)));
    assert_eq!(k.piece_at(cell("D1")), Some((Piece::Rook, 0)));
    assert_eq!(k.castling(), 0);
    assert_eq!(k.clock(), 1);
    // Queen-side: needs the queen's cell C1 empty.
    let mut q = g.clone();
    play(&mut q, "D1-B1");
    assert_eq!(q.piece_at(cell("B1")), Some((Piece::King, 0)));
    assert_eq!(q.piece_at(cell("D1")), Some((Piece::Rook, 0)));

    // The queen's cell attacked (P2 rook on C5): no queen-side castling, no king step to C1.
    let g = pos(&format!("D1:1K B1:1R E1:1R C5:2R {KINGS23}"), "1 1KQ - 0");
    let mut only_k: Vec<&str> = base.split_whitespace().collect();
    only_k.push("D1-E1");
    assert_eq!(texts(&g), sorted(&only_k));
    // In check (P2 rook on D6): no castling at all.
    let g = pos(&format!("D1:1K B1:1R E1:1R D6:2R {KINGS23}"), "1 1KQ - 0");
    assert_eq!(texts(&g), sorted(&["B1-D3", "D1-C1", "D1-E2"]));
    // A queen on C1 blocks queen-side castling; a rook that moved (no right) cannot castle.
    let g = pos(&format!("D1:1K B1:1R E1:1R C1:1Q {KINGS23}"), "1 1K - 0");
    let t = texts(&g);
    assert!(t.contains(&"D1-E1".to_string()) && !t.contains(&"D1-B1".to_string()));
    let g = pos(&format!("D1:1K B1:1R E1:1R {KINGS23}"), "1 1Q - 0");
    let t = texts(&g);
    assert!(!t.contains(&"D1-E1".to_string()) && t.contains(&"D1-B1".to_string()));
    // Moving a rook off its cell loses that side's right only.
    let mut g = pos(&format!("D1:1K B1:1R E1:1R {KINGS23}"), "1 1KQ - 0");
    play(&mut g, "E1-E2");
    assert_eq!(g.castling(), 0b10);
}

#[test]
fn immediate_promotion_from_the_reserve() {
    let kings = format!("D1:1K {KINGS23}");
    let g = pos(&format!("F10:1P G11:2N {kings}"), "1 - 1QN 0");
    let expected = ["D1-C1", "D1-D2", "D1-E1", "D1-E2", "F10-G11=Q", "F10-G11=N", "F10-F11=Q", "F10-F11=N"];
    assert_eq!(texts(&g), sorted(&expected));
    let mut after = g.clone();
    play(&mut after, "F10-G11=Q");
    assert_eq!(after.piece_at(cell("G11")), Some((Piece::Queen, 0)));
    assert_eq!(after.reserves(), [[0, 0, 1], [0, 0, 1], [0, 0, 0]], "P1 used its Q, P2's knight went to P2's reserve");
    assert_eq!(after.clock(), 0);
    // With an empty reserve the pawn just arrives and waits.
    let g = pos(&format!("F10:1P G11:2N {kings}"), "1 - - 0");
    assert_eq!(texts(&g), sorted(&["D1-C1", "D1-D2", "D1-E1", "D1-E2", "F10-F11", "F10-G11"]));
    // A promotion must name a piece from the reserve.
    let g = pos(&format!("F10:1P {kings}"), "1 - 1QN 0");
    assert!(matches!(g.parse_move("F10-F11"), Err(MoveError::Illegal { .. })));
    assert!(matches!(g.parse_move("F10-F11=R"), Err(MoveError::Illegal { .. })));
}

#[test]
fn delayed_promotion_comes_first_and_can_be_followed_by_a_pass() {
    // P1's pawn waits on F11; its reserve got a rook. Every move starts with F11=R.
    let g = pos(&format!("F11:1P D1:1K {KINGS23}"), "1 - 1R 7");
    let mut expected = vec![];
    for k in ["D1-C1", "D1-D2", "D1-E1", "D1-E2"] {
        expected.push(format!("F11=R,{k}"));
    }
    for t in [
        "G11", "H11", "I11", "J11", "K11", "F10", "F9", "F8", "F7", "F6", "F5", "F4", "F3", "F2", "F1", "E10", "D9",
        "C8",
    ] {
        expected.push(format!("F11=R,F11-{t}"));
    }
    let e: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_eq!(texts(&g), sorted(&e));
    let mut after = g.clone();
    play(&mut after, "F11=R,D1-E2");
    assert_eq!(after.piece_at(cell("F11")), Some((Piece::Rook, 0)));
    assert_eq!(after.reserves()[0], [0, 0, 0]);
    assert_eq!(after.clock(), 8, "a promotion alone does not reset the 100-ply count");
    assert!(matches!(g.parse_move("D1-E2"), Err(MoveError::Illegal { .. })));

    // P1 is in check with no move; after either promotion still none: promotion, then pass.
    // (The new rook could take P3's king on K9, but that would leave P1's king attacked.)
    let g = pos("A1:1K K11:1P F1:3R G2:2R C8:2K K9:3K", "1 - 1RN 0");
    assert_eq!(texts(&g), sorted(&["K11=R,pass", "K11=N,pass"]));
    let mut after = g.clone();
    play(&mut after, "K11=R,pass");
    assert_eq!(after.piece_at(cell("K11")), Some((Piece::Rook, 0)));
    assert_eq!(after.to_move(), 1);
    assert_eq!(after.clock(), 1);

    // Two waiting pawns: each pawn and each reserve piece; the policy stays injective.
    let g = pos(&format!("F11:1P G11:1P D1:1K {KINGS23}"), "1 - 1RN 0");
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let firsts: HashSet<String> =
        moves.iter().map(|&m| g.move_text(m).split(',').next().unwrap().to_string()).collect();
    assert_eq!(firsts, ["F11=R", "F11=N", "G11=R", "G11=N"].iter().map(|s| s.to_string()).collect());
    assert_policy_injective(&g, &moves);
}

#[test]
fn forced_pass_then_king_capture_ends_the_game() {
    let mut g = pos("A1:1K F1:3R G2:2R C8:2K K9:3K", "1 - - 0");
    assert!(g.in_check(0));
    assert_eq!(texts(&g), sorted(&["pass"]));
    play(&mut g, "pass");
    assert_eq!(g.clock(), 1, "a pass counts towards the 100 plies");
    play(&mut g, "C8-D9");
    assert!(texts(&g).contains(&"F1-A1".to_string()));
    play(&mut g, "F1-A1");
    assert_eq!(g.outcome().unwrap().as_slice(), &[0.0, 0.5, 1.0]);
    assert_eq!(g.ending(), Some(Ending::KingCaptured));
    assert!(texts(&g).is_empty(), "no moves once the game is over");
    assert_eq!(g.count_legal_moves(), 0);
    let back = Wellisch::from_text(&g.to_text()).unwrap();
    assert_eq!(back.outcome(), g.outcome());
    assert!(g.to_text().ends_with(" out=1:3"), "{}", g.to_text());
}

#[test]
fn a_king_capture_may_not_leave_the_own_king_attacked() {
    // P1's rook on B1 could take P2's king on B7, but it is pinned by P3's rook along row 1.
    let g = pos("A1:1K B1:1R F1:3R B7:2K K9:3K", "1 - - 0");
    assert_eq!(texts(&g), sorted(&["A1-A2", "A1-B2", "B1-C1", "B1-D1", "B1-E1", "B1-F1"]));
    match g.parse_move("B1-B7") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("king attacked"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn takeover_rule_hands_the_pieces_to_the_captor() {
    let mut g = pos("A1:1K B2:1P A2:1N F1:3R C8:2K K9:3K", "3 - 1Q 0 takeover");
    play(&mut g, "F1-A1");
    assert_eq!(g.outcome(), None, "play goes on between two players");
    assert!(!g.is_alive(0));
    assert_eq!(g.to_move(), 1, "P1 is skipped: P2 moves after P3");
    assert_eq!(pieces_of(&g, 0), 0);
    assert_eq!(g.piece_at(cell("B2")), Some((Piece::Pawn, 0)), "the pawn keeps P1's direction");
    assert_eq!(g.owner_at(cell("B2")), Some(2));
    assert_eq!(g.reserves()[2], [1, 0, 0], "P1's reserve went to P3 too");
    assert_eq!(g.hash(), g.compute_hash());
    assert!(g.to_text().contains("3p1") && g.to_text().ends_with("takeover out=1:3"), "{}", g.to_text());
    play(&mut g, "C8-D9");
    assert_eq!(g.to_move(), 2);
    // P3 moves the taken-over pawn in P1's forward directions (N and NW): B3 and A3... (B2 + N = C3).
    let t = texts(&g);
    assert!(t.contains(&"B2-C3".to_string()) && t.contains(&"B2-B3".to_string()), "{t:?}");
    assert_eq!(Wellisch::from_text(&g.to_text()).unwrap().to_text(), g.to_text());
    // The second king capture ends the game: winner 1, last loser 1/2, first loser 0.
    let mut g = pos("D9:2K E9:3R K9:3K", "3 - - 0 takeover out=1:3");
    play(&mut g, "E9-D9");
    assert_eq!(g.outcome().unwrap().as_slice(), &[0.0, 0.5, 1.0]);
}

#[test]
fn hundred_quiet_plies_draw_the_game() {
    let quiet = pos(&format!("D1:1K B2:1P {KINGS23}"), "1 - - 99");
    let mut g = quiet.clone();
    play(&mut g, "D1-C1");
    assert_eq!(g.outcome().unwrap().as_slice(), &[0.5, 0.5, 0.5]);
    assert_eq!(g.ending(), Some(Ending::QuietPlies));
    let mut g = quiet.clone();
    play(&mut g, "B2-B3");
    assert_eq!(g.outcome(), None, "a pawn move resets the count");
    assert_eq!(g.clock(), 0);
    // Delayed promotion plus a quiet move on the 100th ply still draws.
    let mut g = pos(&format!("F11:1P D1:1K {KINGS23}"), "1 - 1R 99");
    play(&mut g, "F11=R,D1-C1");
    assert!(g.outcome().is_some());
    // Under takeover, after one king is gone, the two left share the draw. (The knight keeps
    // the game from ending at once by insufficient material.)
    let mut g = pos("D1:1K A1:1N C8:2K", "1 - - 99 takeover out=3:1");
    play(&mut g, "D1-C1");
    assert_eq!(g.outcome().unwrap().as_slice(), &[0.75, 0.75, 0.0]);
}

#[test]
fn threefold_repetition_only_with_the_option() {
    for (opt, ends) in [("", false), (" threefold", true)] {
        // The knight keeps the game from ending at once by insufficient material.
        let mut g = pos(&format!("D1:1K A1:1N {KINGS23}"), &format!("1 - - 0{opt}"));
        let cycle = ["D1-C1", "C8-D9", "K9-K8", "C1-D1", "D9-C8", "K8-K9"];
        for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
            assert_eq!(g.outcome(), None, "ply {i}");
            play(&mut g, m);
        }
        assert_eq!(g.outcome().is_some(), ends, "threefold{opt}");
        assert_eq!(g.ending(), ends.then_some(Ending::Repetition), "threefold{opt}");
    }
}

#[test]
fn text_errors_say_what_and_where() {
    for (text, field) in [
        ("", "board"),
        ("x 1 - - 0", "board"),
        ("....../......./......../........./........../.........../........../........./......../......./...... 4 - - 0", "seat to move"),
        ("....../......./......../........./........../.........../........../........./......../......./...... 1 1X - 0", "castling"),
        ("....../......./......../........./........../.........../........../........./......../......./...... 1 - 1K 0", "reserves"),
        ("....../......./......../........./........../.........../........../........./......../......./...... 1 - - 101", "clock"),
        ("....../......./......../........./........../.........../........../........./......../......./...... 1 - - 0 foo", "options"),
    ] {
        match Wellisch::from_text(text) {
            Err(PositionError::Syntax { field: f, .. }) => assert_eq!(f, field, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    let empty =
        "....../......./......../........./........../.........../........../........./......../......./...... 1 - - 0";
    assert!(matches!(Wellisch::from_text(empty), Err(PositionError::Invalid(_))), "no kings");
    let g = Wellisch::start();
    for bad in ["A1", "A1-Z9", "A1-A2=K", "pass,A2-A3", ""] {
        assert!(matches!(g.parse_move(bad), Err(MoveError::Syntax { .. })), "{bad}");
    }
    for (bad, why) in [
        ("A3-A4", "no piece"),
        ("C8-D9", "belongs to P2"),
        ("B1-B2", "holds a piece of P1"),
        ("A1-A3", "cannot move"),
        ("pass", "pass"),
        ("D1-B1", "castling"),
        ("A2=Q,A2-A3", "not a pawn"),
        ("A2-A3=Q", "promotion edge"),
    ] {
        match g.parse_move(bad) {
            Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains(why), "{bad}: {reason}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
}
