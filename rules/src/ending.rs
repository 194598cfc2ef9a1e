//! Why a finished game ended, beside its scores, so that people read "checkmate" rather than a
//! score vector.

use std::fmt;

use crate::diagram::Pictured;
use crate::game::Player;
use crate::scores::Scores;

/// The rule that ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The player to move is in check and has no legal move.
    Checkmate {
        /// The mated seat.
        mated: Player,
    },
    /// The player to move is not in check and has no legal move.
    Stalemate {
        /// The stalemated seat.
        stalemated: Player,
    },
    /// A king was captured (Wellisch); the last capture, which decided the game.
    KingCaptured {
        /// The seat whose king was taken.
        victim: Player,
        /// The seat that took it.
        captor: Player,
    },
    /// The same position arose a third time.
    Repetition,
    /// This many plies passed without a capture or pawn move.
    MoveLimit {
        /// The variant's limit, in plies.
        plies: u32,
    },
    /// Neither side can mate any more.
    InsufficientMaterial,
    /// A game that reports no reason (the default of [`crate::Game::end_reason`]).
    Unstated,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Checkmate { .. } => f.write_str("checkmate"),
            EndReason::Stalemate { .. } => f.write_str("stalemate"),
            EndReason::KingCaptured { .. } => f.write_str("king captured"),
            EndReason::Repetition => f.write_str("draw by threefold repetition"),
            EndReason::MoveLimit { plies } => write!(f, "draw by the {plies}-ply rule (no capture or pawn move)"),
            EndReason::InsufficientMaterial => f.write_str("draw by insufficient material"),
            EndReason::Unstated => f.write_str("game over"),
        }
    }
}

/// How the game ended in one sentence for people, naming seats by `names` (seat order, e.g.
/// `White`, `Black`): "Checkmate: Black is mated, White wins." Two-player results name the
/// winner or the draw; others list every seat's score.
pub fn describe_end(reason: EndReason, scores: &Scores, names: &[String]) -> String {
    let name = |p: Player| names.get(p).cloned().unwrap_or_else(|| format!("seat {}", p + 1));
    let what = match reason {
        EndReason::Checkmate { mated } => format!("checkmate: {} is mated", name(mated)),
        EndReason::Stalemate { stalemated } => format!("stalemate: {} cannot move", name(stalemated)),
        EndReason::KingCaptured { victim, captor } => {
            format!("king captured: {} took {}'s king", name(captor), name(victim))
        }
        other => other.to_string(),
    };
    let mut text = capitalised(&what);
    let shared = scores.as_slice().iter().all(|&v| v == scores.get(0));
    // "Draw by repetition" already says that everyone scores alike.
    if !(shared && reason.is_draw_rule()) {
        text.push_str(", ");
        text.push_str(&result_text(scores, &name));
    }
    text.push('.');
    text
}

impl EndReason {
    /// Whether the reason is a draw rule (whose scores may still differ, as in Wellisch after a
    /// king capture).
    pub fn is_draw_rule(self) -> bool {
        matches!(self, EndReason::Repetition | EndReason::MoveLimit { .. } | EndReason::InsufficientMaterial)
    }
}

/// How `game` ended in one sentence (see [`describe_end`]), seats named as its diagram names
/// them; `None` while the game goes on.
pub fn ending_text<G: Pictured>(game: &G) -> Option<String> {
    let reason = game.end_reason()?;
    let names = game.diagram().map(|d| d.players).unwrap_or_default();
    Some(describe_end(reason, &game.outcome()?, &names))
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
        assert_eq!(
            describe_end(EndReason::Checkmate { mated: 1 }, &Scores::win2(0), &wb),
            "Checkmate: Black is mated, White wins."
        );
        assert_eq!(
            describe_end(EndReason::Stalemate { stalemated: 1 }, &Scores::new(&[0.75, 0.25]), &wb),
            "Stalemate: Black cannot move, scores White 0.75, Black 0.25."
        );
        assert_eq!(describe_end(EndReason::Repetition, &Scores::draw(2), &wb), "Draw by threefold repetition.");
        let three = names(&["P1", "P2", "P3"]);
        assert_eq!(
            describe_end(EndReason::KingCaptured { victim: 2, captor: 0 }, &Scores::new(&[1.0, 0.5, 0.0]), &three),
            "King captured: P1 took P3's king, scores P1 1, P2 0.5, P3 0."
        );
    }
}
