//! Wellisch Chess helpers: positions from a list of pieces, cells by label, playing a move by
//! its text, and the policy check several Wellisch tests share.

use std::collections::{HashMap, HashSet};

use rules::hex::{parse_wellisch_label, Cell, BOARD_R5};
use rules::wellisch::{Move, Wellisch};
use rules::{Encoding, Game};

/// P2's and P3's kings, for positions about P1's pieces.
pub const KINGS23: &str = "C8:2K K9:3K";

/// The cells of row `row` (1..=11) in the order position text lists them: from the row's lowest
/// column letter to its highest (docs/notation-wellisch.md).
pub fn row_cells(row: i8) -> impl Iterator<Item = Cell> {
    "ABCDEFGHIJK".chars().filter_map(move |column| parse_wellisch_label(&format!("{column}{row}"), 5))
}

/// A position from `LABEL:OWNER KIND [DIR]` tokens (`D1:1K`, `B2:3P1` = P3's pawn moving like
/// P1's) and the remaining text fields (`mover castling reserves clock [options]`).
pub fn pos(pieces: &str, rest: &str) -> Wellisch {
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

/// The cell of a Wellisch label such as `D1`.
pub fn cell(l: &str) -> Cell {
    parse_wellisch_label(l, 5).unwrap()
}

/// How many pieces `seat` owns.
pub fn pieces_of(g: &Wellisch, seat: usize) -> usize {
    BOARD_R5.cells().iter().filter(|&&c| g.owner_at(c) == Some(seat)).count()
}

/// Move texts, sorted, to compare with `move_texts`.
pub fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays the move written `text`.
pub fn play(g: &mut Wellisch, text: &str) {
    let mv = g.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
    g.play(mv);
}

/// Every move has its own policy index, inside the policy.
pub fn assert_policy_injective(g: &Wellisch, moves: &[Move]) {
    let mut seen = HashSet::new();
    for &m in moves {
        let i = g.policy_index(m);
        assert!(i < Wellisch::POLICY_SIZE, "{}", g.move_text(m));
        assert!(seen.insert(i), "policy index {i} twice ({})", g.move_text(m));
    }
}
