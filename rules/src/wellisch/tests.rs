//! Wellisch Chess tests: perft rows, hand-built positions with exact move lists for each special
//! rule, random games checking invariants and reaching every rule, text and policy properties.

use std::collections::{HashMap, HashSet};

use super::geometry::{CASTLE, HOME_EDGE};
use super::notation::row_cells;
use super::*;
use crate::encoding::Encoding;
use crate::hex::{parse_wellisch_label, Bits, Cell};
use crate::perft::{divide, perft};
use crate::{Ending, Game};

/// A position from `LABEL:OWNER KIND [DIR]` tokens (`D1:1K`, `B2:3P1` = P3's pawn moving like
/// P1's) and the remaining text fields (`mover castling reserves clock [options]`).
fn pos(pieces: &str, rest: &str) -> Wellisch {
    let mut at = HashMap::new();
    for tok in pieces.split_whitespace() {
        let (l, p) = tok.split_once(':').unwrap();
        let c = parse_wellisch_label(l, 5).unwrap_or_else(|| panic!("label {l}"));
        let text = match p.as_bytes() {
            [o, b'P', d] if o != d => format!("{}p{}", *o as char, *d as char),
            [o, k, ..] => format!("{}{}", *o as char, *k as char),
            _ => panic!("piece {p}"),
        };
        at.insert(c, text);
    }
    let rows: Vec<String> = (1..=11)
        .rev()
        .map(|row| row_cells(row).map(|c| at.get(&c).cloned().unwrap_or_else(|| ".".into())).collect())
        .collect();
    let text = format!("{} {rest}", rows.join("/"));
    Wellisch::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn cell(l: &str) -> Cell {
    parse_wellisch_label(l, 5).unwrap()
}

fn texts(g: &Wellisch) -> Vec<String> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut t: Vec<String> = moves.iter().map(|&m| g.move_text(m)).collect();
    t.sort();
    t
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play(g: &mut Wellisch, text: &str) {
    let mv = g.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    g.play(mv);
}

const KINGS23: &str = "C8:2K K9:3K";

#[test]
fn perft_matches_the_spec_rows() {
    let g = Wellisch::start();
    for (depth, leaves) in [(1, 20), (2, 400), (3, 8_000)] {
        assert_eq!(perft(&g, depth, true), leaves, "perft {depth} bulk");
        assert_eq!(perft(&g, depth, false), leaves, "perft {depth} no-bulk");
    }
    let split = divide(&g, 2, true);
    assert_eq!(split.len(), 20);
    assert!(split.iter().all(|(_, n)| *n == 20), "every P1 move leaves P2 its 20 moves");
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 400);
    assert!(split.iter().any(|(m, _)| m == "D1-E1"), "king-side castling is among the 20");
    // Deeper counts, bulk against make-every-move; both agree with a separate slow reference
    // (a Python generator written from the spec's words, run once outside the repository).
    assert_eq!(perft(&g, 4, true), 166_680);
    assert_eq!(perft(&g, 4, false), 166_680);
    assert_eq!(perft(&g, 5, true), 3_469_678);
}

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
                assert_eq!(g.pos.owner_at(c), Some(seat), "{l}");
                assert_eq!(g.pos.piece_at(c), Some((piece, if piece == Piece::Pawn { seat } else { 0 })), "{l}");
                count += 1;
            }
        }
        assert_eq!(g.pos.owner[seat].count_ones(), count);
        assert_eq!(g.pos.owner[seat] & g.pos.kinds[Piece::King as usize] & HOME_EDGE[seat], CASTLE[seat].king.bit());
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
    assert_eq!(k.pos.piece_at(cell("E1")), Some((Piece::King, 0)));
    assert_eq!(k.pos.piece_at(cell("D1")), Some((Piece::Rook, 0)));
    assert_eq!(k.pos.castling, 0);
    assert_eq!(k.clock(), 1);
    // Queen-side: needs the queen's cell C1 empty.
    let mut q = g.clone();
    play(&mut q, "D1-B1");
    assert_eq!(q.pos.piece_at(cell("B1")), Some((Piece::King, 0)));
    assert_eq!(q.pos.piece_at(cell("D1")), Some((Piece::Rook, 0)));

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
    assert_eq!(g.pos.castling, 0b10);
}

#[test]
fn immediate_promotion_from_the_reserve() {
    let kings = format!("D1:1K {KINGS23}");
    let g = pos(&format!("F10:1P G11:2N {kings}"), "1 - 1QN 0");
    let expected = ["D1-C1", "D1-D2", "D1-E1", "D1-E2", "F10-G11=Q", "F10-G11=N", "F10-F11=Q", "F10-F11=N"];
    assert_eq!(texts(&g), sorted(&expected));
    let mut after = g.clone();
    play(&mut after, "F10-G11=Q");
    assert_eq!(after.pos.piece_at(cell("G11")), Some((Piece::Queen, 0)));
    assert_eq!(after.pos.reserve, [[0, 0, 1], [0, 0, 1], [0, 0, 0]], "P1 used its Q, P2's knight went to P2's reserve");
    assert_eq!(after.clock(), 0);
    // With an empty reserve the pawn just arrives and waits.
    let g = pos(&format!("F10:1P G11:2N {kings}"), "1 - - 0");
    assert_eq!(texts(&g), sorted(&["D1-C1", "D1-D2", "D1-E1", "D1-E2", "F10-F11", "F10-G11"]));
    // A promotion must name a piece from the reserve.
    let g = pos(&format!("F10:1P {kings}"), "1 - 1QN 0");
    assert!(matches!(g.parse_move("F10-F11"), Err(MoveErrorKind::Illegal { .. })));
    assert!(matches!(g.parse_move("F10-F11=R"), Err(MoveErrorKind::Illegal { .. })));
}

type MoveErrorKind = crate::error::MoveError;

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
    assert_eq!(after.pos.piece_at(cell("F11")), Some((Piece::Rook, 0)));
    assert_eq!(after.pos.reserve[0], [0, 0, 0]);
    assert_eq!(after.clock(), 8, "a promotion alone does not reset the 100-ply count");
    assert!(matches!(g.parse_move("D1-E2"), Err(MoveErrorKind::Illegal { .. })));

    // P1 is in check with no move; after either promotion still none: promotion, then pass.
    // (The new rook could take P3's king on K9, but that would leave P1's king attacked.)
    let g = pos("A1:1K K11:1P F1:3R G2:2R C8:2K K9:3K", "1 - 1RN 0");
    assert_eq!(texts(&g), sorted(&["K11=R,pass", "K11=N,pass"]));
    let mut after = g.clone();
    play(&mut after, "K11=R,pass");
    assert_eq!(after.pos.piece_at(cell("K11")), Some((Piece::Rook, 0)));
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
    assert!(g.pos.in_check_for_tests(0));
    assert_eq!(texts(&g), sorted(&["pass"]));
    play(&mut g, "pass");
    assert_eq!(g.clock(), 1, "a pass counts towards the 100 plies");
    play(&mut g, "C8-D9");
    assert!(texts(&g).contains(&"F1-A1".to_string()));
    play(&mut g, "F1-A1");
    assert_eq!(g.outcome().unwrap().as_slice(), &[0.0, 0.5, 1.0]);
    assert_eq!(g.ending(), Some(crate::Ending::KingCaptured));
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
        Err(MoveErrorKind::Illegal { reason, .. }) => assert!(reason.contains("king attacked"), "{reason}"),
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
    assert_eq!(g.pos.owner[0], 0);
    assert_eq!(g.pos.piece_at(cell("B2")), Some((Piece::Pawn, 0)), "the pawn keeps P1's direction");
    assert_eq!(g.pos.owner_at(cell("B2")), Some(2));
    assert_eq!(g.pos.reserve[2], [1, 0, 0], "P1's reserve went to P3 too");
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
        assert!(matches!(g.parse_move(bad), Err(MoveErrorKind::Syntax { .. })), "{bad}");
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
            Err(MoveErrorKind::Illegal { reason, .. }) => assert!(reason.contains(why), "{bad}: {reason}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
}

use crate::error::PositionError;

/// Independent attack test: walks the geometry cell by cell, with its own pawn directions.
fn naive_attacked(pos: &super::position::Pos, target: Cell, seat: usize) -> bool {
    naive_reach(pos, seat, true).iter().any(|&(_, to)| to == target)
}

const EDGE: [(i8, i8); 6] = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)];
const VERTEX: [(i8, i8); 6] = [(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)];
const PAWN: [[(i8, i8); 2]; 3] = [[(0, 1), (-1, 1)], [(1, 0), (1, -1)], [(-1, 0), (0, -1)]];

/// Every (from, to) step of the pieces of `seat` (or, with `others`, of every other seat) onto a
/// cell not held by the stepping piece's owner, found by walking the cube coordinates.
fn naive_reach(pos: &super::position::Pos, seat: usize, others: bool) -> Vec<(Cell, Cell)> {
    let at = |c: Cell, d: (i8, i8)| c.offset(d.0, d.1, 5);
    let mut out = Vec::new();
    for c in Bits(pos.occupied()) {
        let owner = pos.owner_at(c).unwrap();
        if (owner == seat) == others {
            continue;
        }
        let free = |x: Cell| pos.owner[owner] & x.bit() == 0;
        let (piece, dir) = pos.piece_at(c).unwrap();
        let steps: &[(i8, i8)] = match piece {
            Piece::King | Piece::Rook => &EDGE,
            Piece::Knight => &VERTEX,
            Piece::Pawn => &PAWN[dir],
            Piece::Queen => &EDGE,
        };
        for &d in steps {
            let mut cur = at(c, d);
            while let Some(x) = cur {
                if free(x) {
                    out.push((c, x));
                }
                let slides = matches!(piece, Piece::Rook | Piece::Queen);
                if !slides || pos.occupied() & x.bit() != 0 {
                    break;
                }
                cur = at(x, d);
            }
        }
        if piece == Piece::Queen {
            out.extend(VERTEX.iter().filter_map(|&d| at(c, d)).filter(|&x| free(x)).map(|x| (c, x)));
        }
    }
    out
}

/// Whether `c` is on the promotion edge of pawn direction `d`, from the coordinates.
fn naive_far(c: Cell, d: usize) -> bool {
    [c.r(), c.q(), c.s()][d] == 5
}

/// Castling cells `(king, queen, king-side rook, queen-side rook)` of `seat`, by rotating P1's.
fn naive_castle_cells(seat: usize) -> [Cell; 4] {
    ["D1", "C1", "E1", "B1"].map(|l| {
        let mut c = cell(l);
        for _ in 0..seat {
            c = Cell::new(c.r(), c.s()).unwrap();
        }
        c
    })
}

/// An independent, slow legal-move list in move text: walks the geometry for every piece, plays
/// each candidate on a copy and asks `naive_attacked`; castling, promotions and passes by the
/// rules' words.
fn reference_moves(g: &Wellisch) -> Vec<String> {
    if g.outcome().is_some() {
        return vec![];
    }
    let pos = g.pos;
    let p = pos.mover as usize;
    let waiting: Vec<Cell> =
        Bits(pos.owner[p] & pos.all_pawns()).filter(|&c| naive_far(c, pos.piece_at(c).unwrap().1)).collect();
    let mut out = Vec::new();
    if !waiting.is_empty() && pos.reserve[p] != [0; 3] {
        for &w in &waiting {
            for r in 0..3 {
                if pos.reserve[p][r] == 0 {
                    continue;
                }
                let mut q = pos;
                q.clear(w);
                q.put(w, Piece::RESERVE[r], p, p);
                q.reserve[p][r] -= 1;
                let mut inner = reference_basic(&q);
                if inner.is_empty() {
                    inner.push("pass".into());
                }
                out.extend(inner.into_iter().map(|m| format!("{}={},{m}", label(w), Piece::RESERVE[r].letter())));
            }
        }
    } else {
        out = reference_basic(&pos);
        if out.is_empty() {
            out.push("pass".into());
        }
    }
    out.sort();
    out
}

/// The legal moves of `pos.mover` without delayed promotion, from `naive_reach`.
fn reference_basic(pos: &super::position::Pos) -> Vec<String> {
    let p = pos.mover as usize;
    let mut out = Vec::new();
    let safe = |q: &super::position::Pos| q.king(p).is_none_or(|k| !naive_attacked(q, k, p));
    for (from, to) in naive_reach(pos, p, false) {
        let (piece, dir) = pos.piece_at(from).unwrap();
        let mut q = *pos;
        q.clear(to);
        q.clear(from);
        q.put(to, piece, p, dir);
        if !safe(&q) {
            continue;
        }
        let text = format!("{}-{}", label(from), label(to));
        if piece == Piece::Pawn && naive_far(to, dir) && pos.reserve[p] != [0; 3] {
            for r in (0..3).filter(|&r| pos.reserve[p][r] > 0) {
                out.push(format!("{text}={}", Piece::RESERVE[r].letter()));
            }
        } else {
            out.push(text);
        }
    }
    let [king, queen, krook, qrook] = naive_castle_cells(p);
    let own_at = |c: Cell, piece: Piece| pos.owner_at(c) == Some(p) && pos.piece_at(c).map(|x| x.0) == Some(piece);
    if own_at(king, Piece::King) && !naive_attacked(pos, king, p) {
        if pos.castling & (1 << (2 * p)) != 0 && own_at(krook, Piece::Rook) && !naive_attacked(pos, krook, p) {
            out.push(format!("{}-{}", label(king), label(krook)));
        }
        if pos.castling & (2 << (2 * p)) != 0
            && own_at(qrook, Piece::Rook)
            && pos.owner_at(queen).is_none()
            && !naive_attacked(pos, qrook, p)
            && !naive_attacked(pos, queen, p)
        {
            out.push(format!("{}-{}", label(king), label(qrook)));
        }
    }
    out
}

fn assert_policy_injective(g: &Wellisch, moves: &[Move]) {
    let mut seen = HashSet::new();
    for &m in moves {
        let i = g.policy_index(m);
        assert!(i < Wellisch::POLICY_SIZE, "{}", g.move_text(m));
        assert!(seen.insert(i), "policy index {i} twice ({})", g.move_text(m));
    }
}

/// A small deterministic generator (xorshift64*), so the tests need no RNG crate.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Which rules a sample of games reached.
#[derive(Default, Debug)]
struct Reached {
    castle_king_side: usize,
    castle_queen_side: usize,
    promotion: usize,
    delayed: usize,
    delayed_pass: usize,
    forced_pass: usize,
    king_capture: usize,
    takeover: usize,
    draw100: usize,
}

#[test]
fn random_games_keep_the_invariants_and_reach_every_rule() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut reached = Reached::default();
    let mut buf = vec![0f32; Wellisch::input_len()];
    let mut moves = Vec::new();
    for game in 0..240 {
        // Styles bias the choice so every rule shows up: 0 captures, 1 pawns, 2 quiet.
        let style = game % 3;
        let options = Options { takeover: game % 4 == 1, threefold: game % 8 == 3 };
        let mut g = Wellisch::start_with(options);
        for ply in 0..600 {
            assert_eq!(g.hash(), g.compute_hash(), "incremental hash, game {game} ply {ply}");
            let text = g.to_text();
            let back = Wellisch::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.to_text(), text);
            assert_eq!((back.pos, back.hash(), back.outcome()), (g.pos, g.hash(), g.outcome()));
            g.legal_moves(&mut moves);
            assert_eq!(g.count_legal_moves(), moves.len() as u64);
            assert_eq!(texts(&g), reference_moves(&g), "legal moves against the reference in {text}");
            if g.outcome().is_some() {
                assert!(moves.is_empty());
                break;
            }
            if ply % 17 == 0 {
                buf.fill(f32::NAN);
                g.encode(&mut buf);
                assert!(buf.iter().all(|x| x.is_finite()), "encode writes every element");
            }
            assert_policy_injective(&g, &moves);
            let snapshot = g.clone();
            let p = g.to_move();
            for (i, &m) in moves.iter().enumerate() {
                let mut child = g.clone();
                child.play(m);
                // A pass is forced (no other move exists), so it may leave the king attacked.
                if let (false, Some(k)) = (m.is_pass(), child.pos.king(p)) {
                    assert!(
                        !naive_attacked(&child.pos, k, p),
                        "{} leaves P{}'s king attacked in {text}",
                        g.move_text(m),
                        p + 1
                    );
                }
                if ply % 5 == 0 || i % 7 == 0 {
                    assert_eq!(g.parse_move(&g.move_text(m)), Ok(m));
                }
            }
            assert_eq!(g, snapshot, "playing on clones leaves the state unchanged");

            let captures = |m: &Move| m.to().is_some_and(|t| g.pos.occupied() & t.bit() != 0 && !m.is_castle());
            let takes_king = |m: &Move| m.to().is_some_and(|t| captures(m) && g.pos.kinds[0] & t.bit() != 0);
            let pawn_move = |m: &Move| m.from().is_some_and(|f| g.pos.all_pawns() & f.bit() != 0);
            let pick = |rng: &mut Rng, pred: &dyn Fn(&Move) -> bool| {
                let c: Vec<Move> = moves.iter().copied().filter(|m| pred(m)).collect();
                (!c.is_empty()).then(|| c[rng.below(c.len())])
            };
            let roll = rng.below(100);
            let mv = match style {
                0 => pick(&mut rng, &takes_king)
                    .or_else(|| if roll < 50 { pick(&mut rng, &|m: &Move| m.is_castle()) } else { None })
                    .or_else(|| if roll < 60 { pick(&mut rng, &captures) } else { None }),
                1 => pick(&mut rng, &|m: &Move| m.promotion().is_some() || m.delayed().is_some())
                    .or_else(|| if roll < 70 { pick(&mut rng, &pawn_move) } else { None })
                    .or_else(|| if roll < 85 { pick(&mut rng, &captures) } else { None }),
                _ => pick(&mut rng, &|m: &Move| !captures(m) && !pawn_move(m)),
            }
            .unwrap_or_else(|| moves[rng.below(moves.len())]);

            if mv.is_castle() {
                if mv.to() == Some(CASTLE[p].krook) {
                    reached.castle_king_side += 1;
                } else {
                    reached.castle_queen_side += 1;
                }
            }
            reached.promotion += mv.promotion().is_some() as usize;
            reached.delayed += mv.delayed().is_some() as usize;
            reached.delayed_pass += (mv.delayed().is_some() && mv.is_pass()) as usize;
            reached.forced_pass += (mv.delayed().is_none() && mv.is_pass()) as usize;
            let before = g.n_captures;
            g.play(mv);
            if g.n_captures > before {
                reached.king_capture += 1;
                reached.takeover += (g.outcome().is_none()) as usize;
                assert!(g.outcome().is_none() || g.outcome().unwrap().as_slice().contains(&1.0));
            }
            if let Some(s) = g.outcome() {
                assert!((s.sum() - 1.5).abs() < 1e-6, "scores sum to 3/2");
                if g.clock() == DRAW_PLIES {
                    reached.draw100 += 1;
                }
            }
        }
    }
    println!("{reached:?}");
    let r = &reached;
    for (name, n) in [
        ("king-side castling", r.castle_king_side),
        ("queen-side castling", r.castle_queen_side),
        ("promotion from the reserve", r.promotion),
        ("delayed promotion", r.delayed),
        ("forced pass", r.forced_pass),
        ("king capture", r.king_capture),
        ("takeover", r.takeover),
        ("100-ply draw", r.draw100),
    ] {
        assert!(n > 0, "random games never reached {name}: {r:?}");
    }
}

#[test]
fn encoding_is_seen_from_the_movers_seat() {
    assert_eq!(Wellisch::input_len(), PLANES * 121);
    // The setup is symmetric under the 120-degree rotation, so each seat sees the same planes.
    let start = Wellisch::start().to_text();
    let planes: Vec<Vec<f32>> = ["1", "2", "3"]
        .iter()
        .map(|m| {
            let g = Wellisch::from_text(&start.replacen(" 1 1KQ", &format!(" {m} 1KQ"), 1)).unwrap();
            let mut buf = vec![0.0; Wellisch::input_len()];
            g.encode(&mut buf);
            buf
        })
        .collect();
    assert_eq!(planes[0], planes[1]);
    assert_eq!(planes[0], planes[2]);
    // The mover's king (plane 0) is on the bottom row 10, column q + 5 = 8 (D1 = (3, -5)).
    let king: Vec<usize> = (0..121).filter(|&i| planes[0][i] == 1.0).collect();
    assert_eq!(king, vec![10 * 11 + 8]);
    // The next seat's king (plane 5) is P2's C8 = (-5, 2) for P1.
    let king2: Vec<usize> = (0..121).filter(|&i| planes[0][5 * 121 + i] == 1.0).collect();
    assert_eq!(king2, vec![(5 - 2) * 11]);
    assert_eq!(planes[0][super::encode::ON_BOARD * 121..][..121].iter().sum::<f32>(), 91.0);
    assert_eq!(Some(planes[0][super::encode::ON_BOARD * 121..][..121].to_vec()), Wellisch::board_mask());
    assert_eq!(planes[1][super::encode::ON_BOARD * 121..][..121], planes[2][super::encode::ON_BOARD * 121..][..121]);

    // Policy indices agree between seats for rotated moves.
    let p1 = Wellisch::start();
    let mut moves = Vec::new();
    p1.legal_moves(&mut moves);
    for seat in 1..3 {
        let g = Wellisch::from_text(&start.replacen(" 1 1KQ", &format!(" {} 1KQ", seat + 1), 1)).unwrap();
        for &m in &moves {
            let (f, t) = (super::geometry::rot(m.from().unwrap(), seat), super::geometry::rot(m.to().unwrap(), seat));
            let text = format!("{}-{}", label(f), label(t));
            let rm = g.parse_move(&text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(g.policy_index(rm), p1.policy_index(m), "{} vs {text}", p1.move_text(m));
        }
    }
    assert_policy_injective(&p1, &moves);
}

#[test]
fn registered_for_the_cli() {
    struct Name;
    impl crate::WithGame for Name {
        type Output = (&'static str, usize);
        fn run<G: crate::Game>(self) -> Self::Output {
            (G::NAME, G::NUM_PLAYERS)
        }
    }
    assert_eq!(crate::Variant::Wellisch.with_game(Name), ("wellisch", 3));
}

#[test]
fn bulk_counting_agrees_with_playing_every_move_in_special_positions() {
    let positions = [
        pos(&format!("D1:1K B1:1R E1:1R {KINGS23}"), "1 1KQ - 0"),
        pos(&format!("F10:1P G11:2N D1:1K {KINGS23}"), "1 - 1QN 0"),
        pos(&format!("F11:1P G11:1P D1:1K {KINGS23}"), "1 - 1RN 0"),
        pos("A1:1K K11:1P F1:3R G2:2R C8:2K K9:3K", "1 - 1RN 0"),
        pos("A1:1K B2:1P A2:1N F1:3R C8:2K K9:3K", "3 - 1Q 0 takeover"),
        pos(&format!("D1:1K B2:1P {KINGS23}"), "1 - - 98"),
    ];
    for g in &positions {
        for depth in 1..=3 {
            assert_eq!(perft(g, depth, true), perft(g, depth, false), "perft {depth} of {}", g.to_text());
        }
    }
}

#[test]
fn states_stay_small_for_copy_make() {
    // Search and perft copy a state per node: keep it a flat value of a few cache lines.
    assert!(std::mem::size_of::<Wellisch>() <= 256, "{}", std::mem::size_of::<Wellisch>());
    assert_eq!(std::mem::size_of::<Move>(), 4);
}

#[test]
fn mangled_text_is_rejected_without_panicking() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let alphabet: Vec<char> =
        "123KQRNPp./- =,:abcdefghijkABCDEFGHIJK0456789takeoverthreefoldout=pass\u{e9}\u{1F600}".chars().collect();
    let texts =
        [Wellisch::start().to_text(), pos("A1:1K B2:1P2 A2:1N F1:3R K9:3K", "1 - 1Q 0 takeover out=2:1").to_text()];
    for i in 0..20_000 {
        let mut chars: Vec<char> = texts[i % 2].chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(chars.len() + 1);
            match rng.below(3) {
                0 if at < chars.len() => {
                    chars.remove(at);
                }
                1 if at < chars.len() => chars[at] = alphabet[rng.below(alphabet.len())],
                _ => chars.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(g) = Wellisch::from_text(&text) {
            assert_eq!(Wellisch::from_text(&g.to_text()).unwrap(), g, "{text}");
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            for &m in &moves {
                assert_eq!(g.parse_move(&g.move_text(m)), Ok(m));
            }
        }
    }
    let g = Wellisch::start();
    for _ in 0..20_000 {
        let len = rng.below(12);
        let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        let _ = g.parse_move(&text);
    }
}
