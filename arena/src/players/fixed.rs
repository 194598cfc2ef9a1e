//! Fixed opponents: the players a gauntlet or a run's evaluation rates checkpoints against,
//! which must never change (a run directory among them, whose newest checkpoint learns, would
//! move the scale) and each appear once. One checkpoint folder is fixed: a run's teacher-only
//! checkpoint is the anchor its learning curve is read against.
//! One check for `gauntlet --against` and the config keys `gauntlet.against` and
//! `evaluation.against`, so that both say the same.

use std::fmt;
use std::path::Path;

use super::spec::{PlayerError, PlayerSpec};

/// The fixed players, as the messages list them.
const FIXED: &str =
    "random, greedy, mcts[:N][@MS], rollout[:N][@MS], alphabeta:DEPTH[:MS], uci:COMMAND or a checkpoint folder RUN/checkpoints/step-N[:SIMS][@MS]";

/// An opponent that cannot be a fixed one, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct NotFixed {
    /// The opponent as written.
    pub text: String,
    /// Why it is refused, to follow the text (`names no player (...)`).
    pub reason: String,
}

/// `'TEXT' REASON`.
impl fmt::Display for NotFixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' {}", self.text, self.reason)
    }
}

/// The first of `opponents` that is no fixed player, or names one named before it.
pub fn check_fixed_opponents(opponents: &[String]) -> Result<(), NotFixed> {
    for (i, text) in opponents.iter().enumerate() {
        check_fixed(text)?;
        if opponents[..i].contains(text) {
            let reason = "is named twice: each opponent is one row of the table, playing its games once".into();
            return Err(NotFixed { text: text.clone(), reason });
        }
    }
    Ok(())
}

/// Whether `text` names a player that never changes. A text that is no player's name is said
/// to be none (it was called a checkpoint, which any unknown text parses as); an existing run
/// directory is refused for learning.
fn check_fixed(text: &str) -> Result<(), NotFixed> {
    let refuse = |reason: String| Err(NotFixed { text: text.to_string(), reason });
    match text.parse::<PlayerSpec>() {
        Ok(spec) if spec.is_fixed() => Ok(()),
        Ok(spec) if spec.network_path().is_some_and(Path::exists) => refuse(format!(
            "is a run directory (or another folder), whose newest checkpoint learns and would move the rating \
             scale; the opponents are fixed players ({FIXED}); compare runs with `vzero arena` or \
             `gauntlet --each-other`"
        )),
        Ok(spec) if spec.network_path().is_some() => refuse(format!("names no fixed player (expected {FIXED})")),
        Err(PlayerError::Unknown(_)) => refuse(format!("names no fixed player (expected {FIXED})")),
        Ok(_) => unreachable!("every player but a network is fixed"),
        // Its own reason (a depth out of range, no simulations), without the repeated text.
        Err(e) => {
            let message = e.to_string();
            let prefix = format!("player '{text}': ");
            refuse(message.strip_prefix(&prefix).map_or(message.clone(), str::to_string))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(opponents: &[&str]) -> NotFixed {
        let list: Vec<String> = opponents.iter().map(|s| s.to_string()).collect();
        check_fixed_opponents(&list).expect_err("refused")
    }

    #[test]
    fn an_opponent_is_refused_for_what_it_is() {
        assert!(check_fixed_opponents(&["random".into(), "alphabeta:2".into(), "uci:x y".into()]).is_ok());
        let e = refused(&["bogus"]);
        assert!(e.reason.starts_with("names no fixed player") && !e.reason.contains("run directory"), "{e}");
        assert!(refused(&[""]).reason.starts_with("names no fixed player"));
        let e = refused(&["random", "greedy", "random"]);
        assert_eq!(e.text, "random");
        assert!(e.reason.contains("twice"), "{e}");
        let e = refused(&["alphabeta:0"]);
        assert!(e.reason.starts_with("expected alphabeta:DEPTH"), "{e}");
        let e = refused(&[env!("CARGO_MANIFEST_DIR")]);
        assert!(e.reason.starts_with("is a run directory"), "{e}");
    }

    #[test]
    fn a_checkpoint_folder_is_a_fixed_anchor() {
        let dir = std::env::temp_dir().join(format!("vzero-anchor-{}", std::process::id()));
        let checkpoint = dir.join("checkpoints/step-000004000");
        std::fs::create_dir_all(&checkpoint).unwrap();
        std::fs::write(checkpoint.join("state.json"), "{}").unwrap();
        let anchor = format!("{}:64", checkpoint.display());
        assert!(check_fixed_opponents(&[anchor, "mcts:64".into()]).is_ok());
        assert!(refused(&[dir.to_str().unwrap()]).reason.starts_with("is a run directory"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
