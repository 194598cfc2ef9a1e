//! Why a recorded game ended, as its `[Termination]` tag names it: the rule that ended it, or
//! what stopped it short of that (a ply limit, material, a forfeit, a clock run out).

use std::fmt;
use std::str::FromStr;

use crate::ending::Ending;

/// How a recorded game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The rules ended it: the final position is over for this reason.
    Rules(Ending),
    /// It reached the ply limit of a match and was scored a draw.
    MoveLimit,
    /// It reached the ply limit of a match and material decided it.
    Material,
    /// A player lost it by failing to move (a program that crashed, answered late or played an
    /// illegal move).
    Forfeit,
    /// A player's clock ran out.
    Time,
}

impl Termination {
    /// Every termination, for reading one back from its name.
    pub const ALL: [Termination; 11] = [
        Termination::Rules(Ending::Checkmate),
        Termination::Rules(Ending::Stalemate),
        Termination::Rules(Ending::KingCaptured),
        Termination::Rules(Ending::QuietPlies),
        Termination::Rules(Ending::Repetition),
        Termination::Rules(Ending::InsufficientMaterial),
        Termination::Rules(Ending::Other),
        Termination::MoveLimit,
        Termination::Material,
        Termination::Forfeit,
        Termination::Time,
    ];

    /// The name in words, as the `[Termination]` tag and the arena's table of endings write it.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Rules(ending) => ending.name(),
            Termination::MoveLimit => "move limit",
            Termination::Material => "material at the move limit",
            Termination::Forfeit => "forfeit",
            Termination::Time => "time forfeit",
        }
    }

    /// Whether the rules ended the game (its final position is over), rather than a match.
    pub const fn by_rules(self) -> bool {
        matches!(self, Termination::Rules(_))
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `[Termination]` value that names no ending.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown termination '{0}' (expected one of: {list})", list = names().join(", "))]
pub struct UnknownTermination(pub String);

/// Every termination's name.
fn names() -> Vec<&'static str> {
    Termination::ALL.iter().map(|t| t.name()).collect()
}

impl FromStr for Termination {
    type Err = UnknownTermination;

    /// Reads a name as [`Termination::name`] writes it, in any case.
    fn from_str(s: &str) -> Result<Termination, UnknownTermination> {
        Termination::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownTermination(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for name in names() {
            let t: Termination = name.parse().unwrap();
            assert_eq!(t.name(), name);
        }
        assert_eq!("Checkmate".parse::<Termination>(), Ok(Termination::Rules(Ending::Checkmate)));
        let err = "timeout".parse::<Termination>().unwrap_err().to_string();
        assert!(err.starts_with("unknown termination 'timeout' (expected one of: checkmate, "), "{err}");
    }
}
