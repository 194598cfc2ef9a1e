//! Why a game ended, named for people and metrics (the scores say only who gained what), and
//! the sentence that tells people: "Checkmate: Black is mated, White wins."

use std::fmt;

use crate::player::Player;
use crate::scores::Scores;

/// The rule that ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The player to move is in check and has no legal move.
    Checkmate,
    /// The player to move is not in check and has no legal move.
    Stalemate,
    /// A king was captured (Wellisch).
    KingCaptured,
    /// The variant's count of plies without a capture or pawn move ran out.
    QuietPlies,
    /// The position occurred for the third time.
    Repetition,
    /// No sequence of legal moves can end the game other than as this draw.
    InsufficientMaterial,
    /// The rules ended it for a reason the game does not name (toy games in tests).
    Other,
}

impl Ending {
    /// The reason in words, as reports print it.
    pub const fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::KingCaptured => "king captured",
            Ending::QuietPlies => "no capture or pawn move for too long",
            Ending::Repetition => "repetition",
            Ending::InsufficientMaterial => "insufficient material",
            Ending::Other => "the rules",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the game ended in one sentence for people, naming seats by `names` (seat order, e.g.
/// `White`, `Black`): "Checkmate: Black is mated, White wins." `to_move` is the seat to move
/// in the final position (the mated or stalemated one); a king capture's captor and victim are
/// read off the scores (1 and 0). Two-player results name the winner or the draw; others list
/// every seat's score.
pub fn describe_end(ending: Ending, scores: &Scores, to_move: Player, names: &[String]) -> String {
    let name = |p: Player| names.get(p).cloned().unwrap_or_else(|| format!("seat {}", p + 1));
    let seat_scoring = |v: f32| scores.as_slice().iter().position(|&s| s == v);
    let what = match ending {
        Ending::Checkmate => format!("checkmate: {} is mated", name(to_move)),
        Ending::Stalemate => format!("stalemate: {} cannot move", name(to_move)),
        Ending::KingCaptured => match (seat_scoring(1.0), seat_scoring(0.0)) {
            (Some(captor), Some(victim)) => format!("king captured: {} took {}'s king", name(captor), name(victim)),
            _ => "king captured".to_string(),
        },
        Ending::QuietPlies => "draw by the quiet-move rule (no capture or pawn move for too long)".to_string(),
        Ending::Repetition => "draw by threefold repetition".to_string(),
        Ending::InsufficientMaterial => "draw by insufficient material".to_string(),
        Ending::Other => "game over".to_string(),
    };
    let mut text = capitalised(&what);
    let shared = scores.as_slice().iter().all(|&v| v == scores.get(0));
    // "Draw by repetition" already says that everyone scores alike.
    if !(shared && ending.is_draw_rule()) {
        text.push_str(", ");
        text.push_str(&result_text(scores, &name));
    }
    text.push('.');
    text
}

impl Ending {
    /// Whether the reason is a draw rule (whose scores may still differ, as in Wellisch after a
    /// king capture).
    pub fn is_draw_rule(self) -> bool {
        matches!(self, Ending::Repetition | Ending::QuietPlies | Ending::InsufficientMaterial)
    }
}

/// "White wins", "draw", or every seat's score.
fn result_text(scores: &Scores, name: &dyn Fn(Player) -> String) -> String {
    let s = scores.as_slice();
    if s.len() == 2 && s.contains(&1.0) && s.contains(&0.0) {
        let winner = if s[0] == 1.0 { 0 } else { 1 };
        return format!("{} wins", name(winner));
    }
    if s.iter().all(|&v| v == s[0]) {
        return "a draw".into();
    }
    let parts: Vec<String> = s.iter().enumerate().map(|(p, v)| format!("{} {v}", name(p))).collect();
    format!("scores {}", parts.join(", "))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().collect::<String>() + chars.as_str()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn endings_name_the_rule_and_the_result() {
        let wb = names(&["White", "Black"]);
        assert_eq!(describe_end(Ending::Checkmate, &Scores::win2(0), 1, &wb), "Checkmate: Black is mated, White wins.");
        assert_eq!(
            describe_end(Ending::Stalemate, &Scores::new(&[0.75, 0.25]), 1, &wb),
            "Stalemate: Black cannot move, scores White 0.75, Black 0.25."
        );
        assert_eq!(describe_end(Ending::Repetition, &Scores::draw(2), 0, &wb), "Draw by threefold repetition.");
        let three = names(&["P1", "P2", "P3"]);
        assert_eq!(
            describe_end(Ending::KingCaptured, &Scores::new(&[1.0, 0.5, 0.0]), 1, &three),
            "King captured: P1 took P3's king, scores P1 1, P2 0.5, P3 0."
        );
    }
}
