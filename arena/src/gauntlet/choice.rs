//! Which of a run's checkpoints a gauntlet measures.

use std::path::PathBuf;
use std::str::FromStr;

/// Which checkpoints to measure: `all`, `last`, or `every:K` (every K-th, oldest first, and
/// always the newest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckpointChoice {
    /// Every checkpoint.
    All,
    /// The newest only.
    Last,
    /// Every K-th checkpoint from the oldest, and the newest.
    Every(usize),
}

impl FromStr for CheckpointChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<CheckpointChoice, String> {
        let bad = || format!("'{text}': expected all, last or every:K (K at least 1)");
        match text {
            "all" => Ok(CheckpointChoice::All),
            "last" => Ok(CheckpointChoice::Last),
            _ => {
                let k = text.strip_prefix("every:").and_then(|k| k.parse::<usize>().ok()).ok_or_else(bad)?;
                if k == 0 {
                    return Err(bad());
                }
                Ok(CheckpointChoice::Every(k))
            }
        }
    }
}

impl CheckpointChoice {
    /// The chosen ones of `checkpoints` (oldest first), in the same order.
    pub fn select(self, checkpoints: &[PathBuf]) -> Vec<PathBuf> {
        let last = checkpoints.len().saturating_sub(1);
        checkpoints
            .iter()
            .enumerate()
            .filter(|&(i, _)| match self {
                CheckpointChoice::All => true,
                CheckpointChoice::Last => i == last,
                CheckpointChoice::Every(k) => i % k == 0 || i == last,
            })
            .map(|(_, c)| c.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_selects() {
        let all: Vec<PathBuf> = (0..7).map(|i| PathBuf::from(format!("step-{i}"))).collect();
        let names = |c: &str| -> Vec<String> {
            c.parse::<CheckpointChoice>().unwrap().select(&all).iter().map(|p| p.display().to_string()).collect()
        };
        assert_eq!(names("last"), ["step-6"]);
        assert_eq!(names("every:3"), ["step-0", "step-3", "step-6"]);
        assert_eq!(names("every:4"), ["step-0", "step-4", "step-6"], "the newest always");
        assert_eq!(names("all").len(), 7);
        for bad in ["every:0", "every:", "some", "every:x"] {
            assert!(bad.parse::<CheckpointChoice>().unwrap_err().contains("every:K"), "{bad}");
        }
    }
}
