//! Why a player lost a game without it being played out: only a program in another process (a
//! `uci:` player) can fail this way; the arena scores the game lost and the match goes on.

use std::collections::BTreeMap;
use std::time::Duration;

use thiserror::Error;

/// The reason a player forfeited a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Forfeit {
    /// The program exited or closed its output.
    #[error("crashed ({0})")]
    Crashed(String),
    /// It answered a move that cannot be played in the position.
    #[error("illegal move '{mv}': {reason}")]
    IllegalMove {
        /// The move as answered.
        mv: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// It answered something that is not a move (`bestmove` alone, `bestmove (none)`).
    #[error("unreadable answer '{0}'")]
    Unreadable(String),
    /// No answer within the time allowed.
    #[error("no answer within {} ms", .0.as_millis())]
    TimedOut(Duration),
    /// It could not be (re)started for the game.
    #[error("could not start: {0}")]
    NotStarted(String),
}

impl Forfeit {
    /// The kind of failure, for counting forfeits by reason.
    pub fn kind(&self) -> &'static str {
        match self {
            Forfeit::Crashed(_) => "crashed",
            Forfeit::IllegalMove { .. } => "illegal move",
            Forfeit::Unreadable(_) => "unreadable answer",
            Forfeit::TimedOut(_) => "timed out",
            Forfeit::NotStarted(_) => "could not start",
        }
    }
}

/// How many games of each forfeit kind, e.g. `{"crashed": 2}`: what `arena --json` and a
/// gauntlet's log record.
pub fn forfeit_counts(forfeits: &[Forfeit]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for f in forfeits {
        *counts.entry(f.kind().to_string()).or_insert(0) += 1;
    }
    counts
}

/// `NAME forfeited N games: KIND n, ...` from the counts by kind, each kind followed by
/// `detail(kind)` (the arena names the first forfeit of each); none for a player that never
/// forfeited. The one wording of `arena` and `gauntlet`.
pub fn forfeit_line(name: &str, counts: &BTreeMap<String, usize>, detail: impl Fn(&str) -> String) -> Option<String> {
    let total: usize = counts.values().sum();
    if total == 0 {
        return None;
    }
    let kinds: Vec<String> = counts.iter().map(|(kind, n)| format!("{kind} {n}{}", detail(kind))).collect();
    let games = if total == 1 { "game" } else { "games" };
    Some(format!("{name} forfeited {total} {games}: {}", kinds.join(", ")))
}
