//! Position text built from piece lists, and checks on what a move does.

#![allow(dead_code)]

use std::collections::HashMap;

use rules::hex::parse_glinski_label;
use rules::{Game, Material};

/// Glinski (`radius` 5) or Mini Hexchess (3) position text from (cell label, piece letter)
/// pairs and the fields after the board (`side ep halfmove fullmove`).
pub fn hex_position(radius: i8, pieces: &[(&str, char)], rest: &str) -> String {
    let files: Vec<char> = "abcdefghikl".chars().take(2 * radius as usize + 1).collect();
    let ranks: Vec<String> = (1..=2 * radius as u32 + 1)
        .rev()
        .map(|rank| {
            let cells = files.iter().map(|f| format!("{f}{rank}")).filter(|l| parse_glinski_label(l, radius).is_some());
            let marks: Vec<Option<char>> =
                cells.map(|l| pieces.iter().find(|(p, _)| *p == l).map(|&(_, c)| c)).collect();
            run_length(&marks, |n| n.to_string())
        })
        .collect();
    format!("{} {rest}", ranks.join("/"))
}

/// Wellisch position text from `LABEL:SEAT+PIECE` tokens (`C8:2K`) and the fields after the
/// board (`mover castling reserves clock`).
pub fn wellisch_position(pieces: &str, rest: &str) -> String {
    let at: HashMap<&str, &str> = pieces.split_whitespace().filter_map(|t| t.split_once(':')).collect();
    let columns = "ABCDEFGHIJK";
    let rows: Vec<String> = (1..=11usize)
        .rev()
        .map(|row| {
            // Rows 1-6 start at column A and grow; rows 7-11 start further along and end at K.
            let (first, last) = if row <= 6 { (0, 4 + row) } else { (row - 6, 10) };
            (first..=last)
                .map(|c| {
                    let label = format!("{}{row}", &columns[c..=c]);
                    at.get(label.as_str()).map_or(".".to_string(), |p| p.to_string())
                })
                .collect()
        })
        .collect();
    format!("{} {rest}", rows.join("/"))
}

/// Pieces as letters, runs of empty cells as what `empty` writes for their length.
fn run_length(marks: &[Option<char>], empty: impl Fn(usize) -> String) -> String {
    let mut text = String::new();
    let mut gap = 0;
    for mark in marks {
        match mark {
            Some(c) => {
                if gap > 0 {
                    text += &empty(gap);
                    gap = 0;
                }
                text.push(*c);
            }
            None => gap += 1,
        }
    }
    if gap > 0 {
        text += &empty(gap);
    }
    text
}

/// The position after `mv`.
pub fn after<G: Game>(game: &G, mv: G::Move) -> G {
    let mut next = game.clone();
    next.play(mv);
    next
}

/// Whether `mv` ends the game with its mover scoring 1.
pub fn wins_at_once<G: Game>(game: &G, mv: G::Move) -> bool {
    after(game, mv).outcome().is_some_and(|s| s.get(game.to_move()) == 1.0)
}

/// The most material (in pawns) any reply to `mv` captures.
pub fn best_reply_capture<G: Material>(game: &G, mv: G::Move) -> f32 {
    let next = after(game, mv);
    let mut replies = Vec::new();
    next.legal_moves(&mut replies);
    replies.iter().map(|&r| next.capture_value(r)).fold(0.0, f32::max)
}

/// Every legal move's text, for assertion messages.
pub fn move_texts<G: Game>(game: &G) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.iter().map(|&m| game.move_text(m)).collect()
}
