//! A game written as text: its tags, a blank line, then its moves in lines of at most
//! [`LINE_WIDTH`] characters, ending with the result.

use std::fmt::Write;

use super::result::result_text;
use super::{seat_tags, GameText, Rounds};
use crate::ending::Ending;
use crate::variant_game::VariantGame;

/// The longest line of moves (PGN's export format keeps lines under 80 characters).
const LINE_WIDTH: usize = 79;

impl GameText {
    /// The game as text, ending with a blank line, so that games written one after another in
    /// a file read back as separate games. Move numbers and check marks come from replaying the
    /// moves; past a move that does not replay (a game not built from legal moves), the moves
    /// are written as they are.
    pub fn write(&self) -> String {
        let mut text = String::new();
        for (name, value) in &self.tags {
            tag_line(&mut text, name, value);
        }
        tag_line(&mut text, "Variant", self.variant.name());
        if let Some(start) = &self.start {
            tag_line(&mut text, "Start", start);
        }
        for (tag, name) in seat_tags(self.variant).iter().zip(&self.seats) {
            tag_line(&mut text, tag, name);
        }
        let result = result_text(self.result.as_ref());
        tag_line(&mut text, "Result", &result);
        if let Some(termination) = self.termination {
            tag_line(&mut text, "Termination", termination.name());
        }
        text.push('\n');
        let mut line = String::new();
        for word in self.move_words().into_iter().chain([result]) {
            if !line.is_empty() && line.len() + 1 + word.len() > LINE_WIDTH {
                text.push_str(&line);
                text.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        text.push_str(&line);
        text.push_str("\n\n");
        text
    }

    /// The moves with their numbers (`1. `, `1... ` for a first move by a later seat) and marks.
    fn move_words(&self) -> Vec<String> {
        let mut game = self.start_game().ok();
        let mut rounds = Rounds::default();
        let mut words = Vec::new();
        for (ply, mv) in self.moves.iter().enumerate() {
            let seat = game.as_ref().map_or(ply % self.variant.players(), VariantGame::to_move);
            let (number, starts) = rounds.next(seat);
            // A number stays on the line of its move.
            let number = match (starts, seat != 0 && ply == 0) {
                (false, _) => String::new(),
                (true, false) => format!("{number}. "),
                (true, true) => format!("{number}... "),
            };
            let mark = game.as_mut().and_then(|g| g.play_text(mv).ok().map(|_| check_mark(g)));
            if mark.is_none() {
                game = None;
            }
            words.push(format!("{number}{mv}{}", mark.unwrap_or("")));
        }
        words
    }
}

/// What the move that reached `game` gave, as move lists mark it after the move: `#` for a
/// checkmate, `+` for a check, nothing otherwise.
pub fn check_mark(game: &VariantGame) -> &'static str {
    match (game.ending(), game.checked_king()) {
        (Some(Ending::Checkmate), _) => "#",
        (_, Some(_)) => "+",
        _ => "",
    }
}

/// `[Name "value"]` and a line end, with `\` and `"` escaped and control characters made
/// spaces (a tag is one line).
fn tag_line(text: &mut String, name: &str, value: &str) {
    let value: String = value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(text, "[{name} \"{value}\"]");
}
