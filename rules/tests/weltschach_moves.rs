//! Hand-built Weltschach positions with exact legal move lists.

use rules::weltschach::{Cell, Color, Kind, Weltschach, REP_WINDOW};
use rules::{Game, MoveError, Scores};

/// Both Emperors out of the way of the corner `sa` where most pieces are tested.
const KINGS: &str = "Kxf2 kue7";

fn position(side: usize, list: &str) -> Weltschach {
    let pos = Weltschach::from_placements(side, list).unwrap_or_else(|e| panic!("{list}: {e}"));
    assert!(!pos.in_check(), "{list}: mover in check");
    pos
}

/// Move texts of the legal moves from `from`, sorted.
fn moves_from(pos: &Weltschach, from: &str) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> =
        moves.iter().filter(|m| m.from().to_string() == from).map(|&m| pos.move_text(m)).collect();
    out.sort();
    out
}

fn expect(from: &str, targets: &str) -> Vec<String> {
    let mut out: Vec<String> = targets.split_whitespace().map(|t| format!("{from}-{t}")).collect();
    out.sort();
    out
}

fn check(side: usize, list: &str, from: &str, targets: &str) {
    let pos = position(side, list);
    assert_eq!(moves_from(&pos, from), expect(from, targets), "{list}");
}

#[test]
fn rook() {
    check(0, &format!("{KINGS} Rsa1 Nsc1 bsa3 nta1"), "sa1", "sb1 sa2 sa3 ta1");
}

#[test]
fn bishop() {
    check(0, &format!("{KINGS} Bsa1 Nsc3 nuc1 nva4"), "sa1", "sb2 tb1 uc1 ta2 ua3 va4");
}

#[test]
fn unicorn() {
    check(0, &format!("{KINGS} Usa1 nvd4"), "sa1", "tb2 uc3 vd4");
}

#[test]
fn cannon_hops_over_exactly_one_screen() {
    // +x: quiet sb1, screen sc1, capture se1; +rank: enemy sa2 is only a screen, own sa4 beyond;
    // +level: 7 quiet cells.
    check(0, &format!("{KINGS} Csa1 Nsc1 nse1 nsa2 Nsa4"), "sa1", "sb1 se1 ta1 ua1 va1 wa1 xa1 ya1 za1");
}

#[test]
fn cannon_needs_a_screen_and_stops_after_the_first_piece_beyond() {
    // No screen before the enemy on sa3; on +x two pieces beyond the screen, only the first counts.
    check(0, &format!("{KINGS} Csa1 nsa3 nta1 Nsc1 Nsd1 nse1 Nua1"), "sa1", "sa2 sb1");
}

#[test]
fn arrow() {
    check(0, &format!("{KINGS} Asa1 ntb1 nvd1 Nsd4 nsf6 nta2"), "sa1", "vd1 sb2 sc3 sf6");
}

#[test]
fn sling() {
    check(0, &format!("{KINGS} Ssa1 Nuc3 nwe5"), "sa1", "tb2 we5");
}

#[test]
fn knight() {
    check(0, &format!("{KINGS} Nsa1 Nsc2 nta3"), "sa1", "tc1 sb3 ta3 ub1 ua2");
}

#[test]
fn sexton() {
    check(0, &format!("{KINGS} Xsa1"), "sa1", "tc2 tb3 ub2");
}

#[test]
fn ninja() {
    check(0, &format!("{KINGS} Jsa1"), "sa1", "tc3 uc2 ub3");
}

#[test]
fn emperor_avoids_attacked_cells() {
    // The Rook on sb8 covers sb1 and sb2.
    check(0, "Ksa1 kzh5 rsb8", "sa1", "ta1 tb1 sa2 ta2 tb2");
}

/// Targets of a compound are exactly the union of its components' targets, in a busy position.
#[test]
fn compounds_are_unions_of_their_components() {
    let surroundings = "Kxf2 kue7 Nvc3 nve5 Bwd3 rtd4 Nud6 pvc5 pwe5 Pwe3 nsh4 Rvg4";
    let compounds = [
        ('Q', "RB"),
        ('D', "RU"),
        ('G', "BU"),
        ('T', "CA"),
        ('O', "CS"),
        ('L', "AS"),
        ('H', "NX"),
        ('M', "NJ"),
        ('V', "XJ"),
        ('E', "RBU"),
        ('Y', "CAS"),
        ('W', "NXJ"),
    ];
    for (compound, parts) in compounds {
        let targets = |letter: char| -> Vec<String> {
            let pos = position(0, &format!("{surroundings} {letter}vd3"));
            moves_from(&pos, "vd3")
        };
        let whole = targets(compound);
        // Triple compounds are River-bound: their components' moves beyond rank 4 do not count.
        let mut union: Vec<String> =
            parts.chars().flat_map(targets).filter(|m| parts.len() < 3 || m.as_bytes()[6] <= b'4').collect();
        union.sort();
        union.dedup();
        assert_eq!(whole, union, "{compound} = {parts}");
        assert!(!whole.is_empty());
    }
}

#[test]
fn stockbroker_examples_of_spec_5_1() {
    // (cell, quiet moves, captures) for White; captures are tested with enemies placed there.
    let cases = [
        ("sa3", "sa4 sb4 ta4", "tb4"),
        ("ta3", "ta4 ua4 sa4", "tb4 ub4 sb4"),
        ("tb3", "tb4 tc4 ub4", "ta4 sb4 uc4 sc4 ua4 sa4"),
        ("vd3", "vd4 ve4 wd4", "vc4 ud4 we4 ue4 wc4 uc4"),
        ("ub3", "ub4 vb4 tb4", "uc4 ua4 vc4 tc4 va4 ta4"),
    ];
    for (cell, quiet, caps) in cases {
        let enemies: String = caps.split_whitespace().map(|c| format!(" n{c}")).collect();
        let all = format!("{quiet} {caps}");
        check(0, &format!("Kzh1 kzg8 P{cell}{enemies}"), cell, &all);
        // Without enemies only the quiet moves remain.
        check(0, &format!("Kzh1 kzg8 P{cell}"), cell, quiet);
        // With enemies on the quiet cells and nothing to capture, nothing is left.
        let blockers: String = quiet.split_whitespace().map(|c| format!(" n{c}")).collect();
        check(0, &format!("Kzh1 kzg8 P{cell}{blockers}"), cell, "");
    }
    // Black sa6: the mirror image.
    check(1, "Kzh1 kzg8 psa6 Ntb5", "sa6", "sa5 sb5 ta5 tb5");
}

#[test]
fn stockbroker_is_promoted_on_crossing_the_river() {
    let mut pos = position(0, "Kzh1 kzg8 Psa4 ntb5");
    for text in ["sa4-sa5", "sa4-tb5"] {
        let mut p = pos.clone();
        p.play(p.parse_move(text).unwrap());
        let to = Cell::parse(&text[4..]).unwrap();
        assert_eq!(p.piece_at(to), Some((Color::White, Kind::Stockfwazir)), "{text}");
    }
    pos.play(pos.parse_move("sa4-sb5").unwrap());
    // Black's Stockbroker crosses the other way.
    let pos = position(1, "Kzh1 kzg8 psa5");
    let mut p = pos.clone();
    p.play(p.parse_move("sa5-sa4").unwrap());
    assert_eq!(p.piece_at(Cell::parse("sa4").unwrap()), Some((Color::Black, Kind::Stockfwazir)));
}

#[test]
fn stockfwazir_example_of_spec_5_3() {
    let all = "tc6 tc4 tb6 td6 tb4 td4 sc5 uc5 sb5 sd5 ub5 ud5";
    check(0, "Kzh1 kzg8 Ftc5", "tc5", all);
    check(1, "Kzh1 kzg8 ftc5", "tc5", all);
    // It captures in every direction too.
    let enemies: String = all.split_whitespace().map(|c| format!(" n{c}")).collect();
    check(0, &format!("Kzh1 kzg8 Ftc5{enemies}"), "tc5", all);
    // Outer corner: file steps and the same-ring diagonals, no ring-changing orthogonal.
    check(0, "Kzh1 kzg8 Fsa5", "sa5", "sa6 sa4 sb6 sb4 ta6 ta4 tb5");
}

#[test]
fn triple_compounds_never_cross_the_river() {
    // White Empress on ve4 with an open board: no move reaches rank 5, not even a capture.
    let pos = position(0, "Kzh1 kzg8 Eve4 nve5 nwf5");
    let moves = moves_from(&pos, "ve4");
    assert!(!moves.is_empty());
    assert!(
        moves.iter().all(|m| m.ends_with('1') || m.ends_with('2') || m.ends_with('3') || m.ends_with('4')),
        "{moves:?}"
    );
    assert_eq!(
        pos.parse_move("ve4-ve5").unwrap_err().to_string(),
        "illegal move 've4-ve5': the Empress may not cross the River"
    );
    // Arsenal and Canoe likewise; a Canoe leap from rank 3 to 5 is refused.
    let pos = position(0, "Kzh1 kzg8 Wve3 Yvd4 nvd6 nvc5");
    assert!(moves_from(&pos, "ve3").iter().all(|m| m.as_bytes()[6] <= b'4'));
    assert!(moves_from(&pos, "vd4").iter().all(|m| m.as_bytes()[6] <= b'4'));
    // Black's Empress stays on ranks 5-8.
    let pos = position(1, "Kzh1 kzg8 eve5");
    assert!(moves_from(&pos, "ve5").iter().all(|m| m.as_bytes()[6] >= b'5'));
}

#[test]
fn triple_compounds_do_not_give_check_across_the_river() {
    // The White Empress looks straight at the Black Emperor on ve6 but cannot capture there.
    let pos = position(1, "Kzh1 kve6 Eve4");
    assert!(!pos.in_check());
    // The same line in White's half is a check.
    let pos = Weltschach::from_placements(0, "kve3 Kzh8 eve5").unwrap();
    assert!(!pos.in_check());
    let pos = Weltschach::from_placements(0, "Kve3 kzh8 qve5").unwrap();
    assert!(pos.in_check());
}

#[test]
fn hopper_check_through_a_screen() {
    // Black Cannon on sa6, White Knight screen on sa3: check.
    let pos = Weltschach::from_placements(0, "Ksa1 kzh5 Nsa3 csa6").unwrap();
    assert!(pos.in_check());
    // Moving the screen away answers it; so does adding a second screen (Knight tc1 to sa2).
    let pos = Weltschach::from_placements(0, "Ksa1 kzh5 csa6").unwrap();
    assert!(!pos.in_check());
    // A Knight that jumps onto the line would make a screen: illegal.
    let pos = position(0, "Ksa1 kzh5 csa6 Nub3");
    let err = pos.parse_move("ub3-sa3").unwrap_err();
    assert_eq!(err.to_string(), "illegal move 'ub3-sa3': it leaves the Emperor in check");
    assert!(!moves_from(&pos, "ub3").contains(&"ub3-sa3".to_string()));
    assert!(moves_from(&pos, "ub3").contains(&"ub3-ud2".to_string()));
}

#[test]
fn emperors_may_not_face_each_other() {
    // The Bishop on vd4 is the only piece between the Emperors on file vd: it is pinned, while a
    // Black Rook on vd6 may still slide along the file.
    let pos = position(0, "Kvd1 kvd8 Bvd4 Nsa1");
    assert_eq!(moves_from(&pos, "vd4"), Vec::<String>::new());
    assert_eq!(moves_from(&position(0, "Kvd1 kvd8 Pvd3"), "vd3"), expect("vd3", "vd4"));
    assert_eq!(
        pos.parse_move("vd4-vc5").unwrap_err().to_string(),
        "illegal move 'vd4-vc5': the Emperors would face each other with nothing between"
    );
    // A text with facing Emperors is refused; along a triagonal too; a same-rank line is allowed.
    assert!(Weltschach::from_placements(0, "Kvd1 kvd8").is_err());
    assert!(Weltschach::from_placements(0, "Ksa1 kzh8").is_err());
    assert!(Weltschach::from_placements(0, "Ksa4 ksh4").is_ok());
    // The Emperor may not step onto an open line with the other: ve1 and ve2 share file ve with
    // the Black Emperor on ve8, which attacks neither. (The far knight keeps bare Emperors from
    // ending the game by insufficient material.)
    let m = moves_from(&position(0, "Kvd1 kve8 Nzh1"), "vd1");
    assert!(!m.contains(&"vd1-ve1".to_string()) && !m.contains(&"vd1-ve2".to_string()), "{m:?}");
    assert!(m.contains(&"vd1-vd2".to_string()));
    assert_eq!(m.len(), 17 - 2, "{m:?}");
}

#[test]
fn castling_and_cathedral_castling() {
    let base = "Kvd1* Qva1* Gsa1* kve8";
    let pos = position(0, base);
    let m = moves_from(&pos, "vd1");
    assert!(m.contains(&"vd1-vb1".to_string()), "{m:?}");
    assert!(m.contains(&"vd1-tb1".to_string()), "{m:?}");
    // 26 neighbours minus: none occupied on rank 1 nearby → the Emperor's steps plus 2 castlings.
    let mut p = pos.clone();
    p.play(p.parse_move("vd1-vb1").unwrap());
    assert_eq!(p.piece_at(Cell::parse("vb1").unwrap()), Some((Color::White, Kind::Emperor)));
    assert_eq!(p.piece_at(Cell::parse("vc1").unwrap()), Some((Color::White, Kind::Queen)));
    assert_eq!(p.piece_at(Cell::parse("va1").unwrap()), None);
    let mut p = pos.clone();
    p.play(p.parse_move("vd1-tb1").unwrap());
    assert_eq!(p.piece_at(Cell::parse("tb1").unwrap()), Some((Color::White, Kind::Emperor)));
    assert_eq!(p.piece_at(Cell::parse("uc1").unwrap()), Some((Color::White, Kind::Governor)));
    // A moved partner or Emperor cannot castle.
    let m = moves_from(&position(0, "Kvd1* Qva1 Gsa1 kve8"), "vd1");
    assert!(!m.contains(&"vd1-vb1".to_string()) && !m.contains(&"vd1-tb1".to_string()));
    let m = moves_from(&position(0, "Kvd1 Qva1* Gsa1* kve8"), "vd1");
    assert!(!m.contains(&"vd1-vb1".to_string()) && !m.contains(&"vd1-tb1".to_string()));
    // Duchess too; a Rook is no partner; a piece in between blocks.
    assert!(moves_from(&position(0, "Kvd1* Dva1* kve8"), "vd1").contains(&"vd1-vb1".to_string()));
    assert!(!moves_from(&position(0, "Kvd1* Rva1 kve8"), "vd1").contains(&"vd1-vb1".to_string()));
    assert!(!moves_from(&position(0, "Kvd1* Qva1* Nvb1 kve8"), "vd1").contains(&"vd1-vb1".to_string()));
    // Passing over an attacked cell (vc1, attacked by the Black Rook on vc8) is not allowed.
    let m = moves_from(&position(0, "Kvd1* Qva1* kve8 rvc8"), "vd1");
    assert!(!m.contains(&"vd1-vb1".to_string()), "{m:?}");
    // Nor castling out of check.
    let pos = Weltschach::from_placements(0, "Kvd1* Qva1* kwe8 rvd8").unwrap();
    assert!(pos.in_check());
    assert!(!moves_from(&pos, "vd1").contains(&"vd1-vb1".to_string()));
    // Black castles the same way on rank 8.
    let m = moves_from(&position(1, "Kve1 kvd8* qva8* gsa8*"), "vd8");
    assert!(m.contains(&"vd8-vb8".to_string()) && m.contains(&"vd8-tb8".to_string()), "{m:?}");
}

#[test]
fn end_rank_promotion_from_the_pool() {
    let mut pos = position(0, "Kzh1 kzg8 Fsa2 Fsb7");
    pos.set_pool(Color::White, Kind::Queen, 1);
    pos.set_pool(Color::White, Kind::Empress, 1);
    // Own first rank: any pooled type, the triple compound included.
    let m = moves_from(&pos, "sa2");
    for t in
        ["sa2-sa1", "sa2-sa1=Q", "sa2-sa1=E", "sa2-sb1", "sa2-sb1=Q", "sa2-sb1=E", "sa2-ta1", "sa2-ta1=Q", "sa2-ta1=E"]
    {
        assert!(m.contains(&t.to_string()), "{t} missing from {m:?}");
    }
    assert!(!m.iter().any(|t| t.starts_with("sa2-sa3=") || t.starts_with("sa2-tb2=")));
    // Far end rank: no triple compound.
    let m = moves_from(&pos, "sb7");
    assert!(m.contains(&"sb7-sb8=Q".to_string()) && !m.contains(&"sb7-sb8=E".to_string()), "{m:?}");
    assert_eq!(
        pos.parse_move("sb7-sb8=E").unwrap_err().to_string(),
        "illegal move 'sb7-sb8=E': a Empress may only be promoted to on your own first rank"
    );
    assert!(matches!(pos.parse_move("sb7-sb8=R"), Err(MoveError::Illegal { .. })));
    // Promotion takes the piece out of the pool.
    pos.play(pos.parse_move("sa2-sa1=E").unwrap());
    assert_eq!(pos.piece_at(Cell::parse("sa1").unwrap()), Some((Color::White, Kind::Empress)));
    assert_eq!(pos.pool_count(Color::White, Kind::Empress), 0);
    assert_eq!(pos.hash(), pos.hash_from_scratch());
}

#[test]
fn captured_pieces_enter_the_owners_pool() {
    let mut pos = position(0, "Kzh1 kzg8 Rsa1 rsa5");
    pos.play(pos.parse_move("sa1-sa5").unwrap());
    assert_eq!(pos.pool_count(Color::Black, Kind::Rook), 1);
    assert!(pos.to_text().contains(" r "), "{}", pos.to_text());
}

#[test]
fn checkmate_and_stalemate() {
    let mate = Weltschach::from_placements(0, "Ksa1 kzh5 rsa8 rtb8 rsb8 rta8").unwrap();
    assert!(mate.in_check());
    assert_eq!(mate.count_legal_moves(), 0);
    assert_eq!(mate.outcome(), Some(Scores::win2(1)));
    let stale = Weltschach::from_placements(0, "Ksa1 kzh5 rtb8 rsb8 rta8 rsh2").unwrap();
    assert!(!stale.in_check());
    assert_eq!(stale.count_legal_moves(), 0);
    assert_eq!(stale.outcome(), Some(Scores::draw(2)));
}

#[test]
fn threefold_repetition_and_move_limit_draw() {
    // The far knight keeps bare Emperors from ending the game by insufficient material.
    let mut pos = position(0, "Kvd1 kve8 Nzh1");
    assert_eq!(pos.outcome(), None);
    for round in 0..2 {
        for text in ["vd1-vd2", "ve8-ve7", "vd2-vd1", "ve7-ve8"] {
            assert_eq!(pos.outcome(), None, "round {round} before {text}");
            pos.play(pos.parse_move(text).unwrap());
        }
    }
    assert_eq!(pos.repetitions(), 2);
    assert_eq!(pos.outcome(), Some(Scores::draw(2)));
    assert_eq!(pos.ending(), Some(rules::Ending::Repetition));
    assert_eq!(pos.count_legal_moves(), 0);

    let text = position(0, "Kvd1 kve8 Rsa1").to_text().replace(" 0 1", " 199 80");
    let mut pos = Weltschach::from_text(&text).unwrap();
    assert_eq!(pos.outcome(), None);
    pos.play(pos.parse_move("sa1-sa2").unwrap());
    assert_eq!(pos.outcome(), Some(Scores::draw(2)));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn repetition_is_seen_only_within_the_window() {
    // A rook tours a closed path of cells in level s (each on a line with the next, the last
    // with the first) while the black Emperor steps back and forth: the start position recurs
    // after twice the path's length in plies, and no position recurs sooner.
    let mut tour: Vec<String> = Vec::new();
    for (file, up) in [('a', true), ('b', false), ('c', true), ('d', false)] {
        for rank in 1..=8 {
            tour.push(format!("s{file}{}", if up { rank } else { 9 - rank }));
        }
    }
    assert_eq!(2 * tour.len(), REP_WINDOW, "the short tour comes back exactly a window later");
    for (extra, seen) in [(&[][..], 1), (&["se1", "sf1"][..], 0)] {
        let cells: Vec<String> = tour.iter().cloned().chain(extra.iter().map(|c| c.to_string())).collect();
        let mut pos = position(0, "Kvd1 kve8 Rsa1");
        let black = ["ve8-ve7", "ve7-ve8"];
        for (i, from) in cells.iter().enumerate() {
            let to = &cells[(i + 1) % cells.len()];
            for text in [format!("{from}-{to}"), black[i % 2].to_string()] {
                assert_eq!((pos.repetitions(), pos.outcome()), (0, None), "before {text}");
                pos.play(pos.parse_move(&text).unwrap());
            }
        }
        let back = 2 * cells.len();
        assert_eq!(pos.repetitions(), seen, "the start position {back} plies back");
        assert_eq!(pos.outcome(), None);
    }
}

#[test]
fn move_text_errors_say_what_and_where() {
    let pos = Weltschach::start();
    let msg = |t: &str| pos.parse_move(t).unwrap_err().to_string();
    assert_eq!(msg("vd4-vd5"), "illegal move 'vd4-vd5': there is no piece on vd4");
    assert_eq!(msg("vd6-vd5"), "illegal move 'vd6-vd5': the piece on vd6 is Black's, and White is to move");
    assert_eq!(msg("va2-va4"), "illegal move 'va2-va4': the Rook on va2 cannot move to va4");
    assert_eq!(msg("va2-va3"), "illegal move 'va2-va3': va3 holds a piece of your own");
    assert!(matches!(pos.parse_move("qd3-vd4"), Err(MoveError::Syntax { .. })));
    assert!(matches!(pos.parse_move("vd3"), Err(MoveError::Syntax { .. })));
    assert_eq!(pos.parse_move("vd3xvd4"), pos.parse_move("vd3-vd4"));
}

#[test]
fn position_text_errors_name_field_and_offset() {
    let start = Weltschach::start().to_text();
    let e = Weltschach::from_text(&start.replacen(" w ", " x ", 1)).unwrap_err().to_string();
    assert!(e.contains("side to move") && e.contains("expected 'w' or 'b'"), "{e}");
    let e = Weltschach::from_text(&start.replacen('G', "Z", 1)).unwrap_err().to_string();
    assert!(e.contains("board at character") && e.contains("'Z'"), "{e}");
    let e = Weltschach::from_text("8,8,8,8,8,8,8,8 w - - 0 1").unwrap_err().to_string();
    assert!(e.contains("expected 8 ranks"), "{e}");
    let e = Weltschach::from_placements(0, "Kvd1 kve8 Psa6").unwrap_err().to_string();
    assert!(e.contains("beyond the River"), "{e}");
    let e = Weltschach::from_placements(0, "kve8").unwrap_err().to_string();
    assert!(e.contains("White has no Emperor"), "{e}");
}

#[test]
fn emperor_river_flag_confines_the_emperors() {
    // Default (the rules text leaves it open; docs/rules/weltschach.md): the Emperor may cross
    // the River.
    // The far knight keeps bare Emperors from ending the game by insufficient material.
    let mut pos = position(0, "Kvd4 kzg8 Nsa1");
    assert!(moves_from(&pos, "vd4").contains(&"vd4-vd5".to_string()));
    pos.set_emperor_river_bound(true);
    let m = moves_from(&pos, "vd4");
    assert!(!m.is_empty() && m.iter().all(|t| t.as_bytes()[6] <= b'4'), "{m:?}");
    // (Whether a bound Emperor attacks across the River cannot matter: the only piece it could
    // affect there is the enemy Emperor, which the facing rule already keeps away.)
}
