//! The range helper every section declares its keys' limits with, one line per key beside the
//! fields (as lc0 registers each option with its range and KataGo reads each key with its
//! bounds), and the error that names the key, its value and the range in words.

use std::borrow::Cow;
use std::fmt::Display;
use std::ops::RangeBounds;

use super::ConfigError;

/// A value outside its key's range: the dotted key, the value as the message shows it, and the
/// range in words.
#[derive(Debug, PartialEq)]
pub(super) struct OutOfRange {
    /// The dotted key (`section.key`).
    pub key: String,
    /// The value as the message shows it.
    pub value: String,
    /// The allowed range in words (`must be between 0 and 1`).
    pub reason: Cow<'static, str>,
}

/// The outcome of checking limits: the first value out of range, if any.
pub(super) type Limits = Result<(), OutOfRange>;

impl OutOfRange {
    /// `value` of `key` refused with `reason`.
    pub fn new(key: &str, value: impl Display, reason: impl Into<Cow<'static, str>>) -> Self {
        OutOfRange { key: key.to_string(), value: value.to_string(), reason: reason.into() }
    }

    /// The error of config file `path` for this value.
    pub fn in_file(self, path: &str) -> ConfigError {
        ConfigError::Invalid { path: path.to_string(), key: self.key, value: self.value, reason: self.reason.into() }
    }
}

/// `[search]`'s limits are declared with its fields in `mcts`; its errors name the bare field.
impl From<mcts::SettingError> for OutOfRange {
    fn from(e: mcts::SettingError) -> Self {
        OutOfRange { key: format!("search.{}", e.key), value: e.value, reason: e.expected.into() }
    }
}

/// `value` lies in `range`, or `reason` says what it must be.
pub(super) fn within<T: PartialOrd + Display>(
    key: &str,
    value: T,
    range: impl RangeBounds<T>,
    reason: impl Into<Cow<'static, str>>,
) -> Limits {
    rule(!range.contains(&value), key, value, reason)
}

/// A rule that is `broken` refuses `value` of `key` with `reason`.
pub(super) fn rule(broken: bool, key: &str, value: impl Display, reason: impl Into<Cow<'static, str>>) -> Limits {
    if broken {
        Err(OutOfRange::new(key, value, reason))
    } else {
        Ok(())
    }
}

/// A size from 1 to `max`. Sizes past their maximum are typing mistakes, not experiments:
/// memory or time would run out; the message names the range (it named this crate's source).
pub(super) fn size(key: &str, value: usize, max: usize) -> Limits {
    one_to(key, value as u64, max as u64)
}

/// The most games one match, gauntlet pairing or iteration plays (`--games` takes as many):
/// more is a typing mistake, not a plan.
pub const MAX_GAMES: u64 = 1_000_000;

/// The most simulations a search is given ([`mcts::MAX_SIMULATIONS`]).
pub const MAX_SIMULATIONS: u64 = mcts::MAX_SIMULATIONS as u64;

/// The most iterations a run, or a fade, counts.
pub const MAX_ITERATIONS: u64 = 1_000_000;

/// The most training steps or positions a count names: past a billion, a typing mistake.
pub const MAX_STEPS: u64 = 1_000_000_000;

/// The longest game in plies a key names: no variant's game comes near it.
pub const MAX_PLIES: u64 = 100_000;

/// The widest material margin that decides a game at the move limit
/// (`selfplay.adjudicate_material`, `--adjudicate-material`): every variant's whole material is
/// a few hundred pawns at most.
pub const MAX_ADJUDICATION_PAWNS: f32 = 10_000.0;

/// The most positions a replay window holds or training waits for: half a billion positions
/// outgrow any machine's memory, so more is a typing mistake.
pub const MAX_WINDOW: u64 = 500_000_000;

/// A count from 1 to `max`.
pub(super) fn one_to(key: &str, value: u64, max: u64) -> Limits {
    rule(!(1..=max).contains(&value), key, value, format!("must be from 1 to {max}"))
}

/// A count from 0 (its feature off) to `max`.
pub(super) fn up_to(key: &str, value: u64, max: u64) -> Limits {
    rule(value > max, key, value, format!("must be from 0 to {max}"))
}

/// A number above 0 and at most `max`, in `unit` (NaN refused).
pub(super) fn above_zero_to(key: &str, value: f64, max: f64, unit: &str) -> Limits {
    rule(!(value > 0.0 && value <= max), key, value, format!("must be above 0 and at most {max}{unit}"))
}

/// A number from 0 to `max`, in `unit` (NaN refused).
pub(super) fn zero_to(key: &str, value: f64, max: f64, unit: &str) -> Limits {
    rule(!(0.0..=max).contains(&value), key, value, format!("must be from 0 to {max}{unit}"))
}

/// A share, from 0 to 1.
pub(super) fn share<T: PartialOrd + Display + From<f32>>(key: &str, value: T) -> Limits {
    within(key, value, T::from(0.0)..=T::from(1.0), "must be between 0 and 1")
}

/// Every opponent in `opponents` is an arena player that never learns, named once: the check
/// of `gauntlet --against` too, so both say the same.
pub(super) fn fixed_opponents(key: &str, opponents: &[String]) -> Limits {
    // Text that names no player can be anything, of any length: the message shows its start.
    arena::players::check_fixed_opponents(opponents).map_err(|e| OutOfRange::new(key, shortened(&e.text), e.reason))
}

/// The first 100 characters of a text value, enough to recognise it in a one-line message.
pub(super) fn shortened(text: &str) -> String {
    text.chars().take(100).collect()
}

/// Test helpers: a section's limits checked with one key changed at a time.
#[cfg(test)]
pub(super) mod testing {
    use super::Limits;

    /// One case: a change to the section, and the key it must be refused for (`None`: taken).
    pub type Case<S> = (fn(&mut S), Option<&'static str>);

    /// Applies each case to a copy of `base` and checks that `limits` refuses it naming the
    /// case's key, or takes it.
    pub fn check_cases<S: Clone>(base: &S, limits: fn(&S) -> Limits, cases: &[Case<S>]) {
        limits(base).expect("the base of the cases is within its limits");
        for (i, (change, refused)) in cases.iter().enumerate() {
            let mut section = base.clone();
            change(&mut section);
            match (limits(&section), refused) {
                (Ok(()), None) => {}
                (Err(e), Some(key)) => assert_eq!(e.key, *key, "case {i}: {e:?}"),
                (outcome, _) => panic!("case {i}: expected {refused:?}, got {outcome:?}"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_helper_refuses_just_outside_its_range_and_takes_its_bounds() {
        assert!(size("k", 1, 8).is_ok() && size("k", 8, 8).is_ok());
        assert_eq!(size("k", 0, 8).unwrap_err().reason, "must be from 1 to 8");
        // A size too large names its range, not a source file (issue 40).
        assert_eq!(size("k", 9, 8).unwrap_err().reason, "must be from 1 to 8");
        assert!(share("k", 0.0f32).is_ok() && share("k", 1.0f64).is_ok());
        for bad in [-f32::MIN_POSITIVE, 1.0 + f32::EPSILON, f32::NAN] {
            assert!(share("k", bad).is_err(), "{bad}");
        }
        assert!(one_to("k", 1, 8).is_ok() && one_to("k", 8, 8).is_ok());
        assert_eq!(one_to("k", 9, 8).unwrap_err().reason, "must be from 1 to 8");
        assert!(up_to("k", 0, 8).is_ok() && up_to("k", 8, 8).is_ok());
        assert_eq!(up_to("k", 9, 8).unwrap_err().reason, "must be from 0 to 8");
        assert!(above_zero_to("k", f64::MIN_POSITIVE, 2.0, "").is_ok() && above_zero_to("k", 2.0, 2.0, "").is_ok());
        for bad in [0.0, 2.0 + 1e-9, f64::INFINITY, f64::NAN, -1.0] {
            assert!(above_zero_to("k", bad, 2.0, "").is_err(), "{bad}");
        }
        assert_eq!(above_zero_to("k", 3.0, 2.0, " pawns").unwrap_err().reason, "must be above 0 and at most 2 pawns");
        assert!(zero_to("k", 0.0, 2.0, "").is_ok() && zero_to("k", 2.0, 2.0, "").is_ok());
        for bad in [-f64::MIN_POSITIVE, 2.0 + 1e-9, f64::INFINITY, f64::NAN] {
            assert!(zero_to("k", bad, 2.0, "").is_err(), "{bad}");
        }
    }

    /// The value is shown as its own type prints it: an f32 share read as f64 shows its error.
    #[test]
    fn a_refusal_names_the_key_the_value_and_the_range() {
        let e = share("selfplay.resign_playthrough", f64::from(1.1f32)).unwrap_err();
        assert_eq!((e.key.as_str(), e.value.as_str()), ("selfplay.resign_playthrough", "1.100000023841858"));
        assert_eq!(share("teacher.share", 1.1f32).unwrap_err().value, "1.1");
        // A text that names nothing is not called a checkpoint (`evaluation.against = bogus`).
        let bogus = "runs/a/checkpoints/7".to_string();
        let e = fixed_opponents("gauntlet.against", &["random".into(), bogus.clone()]).unwrap_err();
        assert_eq!(e.value, bogus);
        assert!(e.reason.starts_with("names no fixed player (expected random, greedy"), "{}", e.reason);
        let e = fixed_opponents("gauntlet.against", &["random".into(), "random".into()]).unwrap_err();
        assert!(e.reason.contains("twice"), "{}", e.reason);
        let unreadable = format!("uci:'{}", "x".repeat(300));
        let e = fixed_opponents("evaluation.against", &[unreadable]).unwrap_err();
        assert_eq!((e.value.len(), e.key.as_str()), (100, "evaluation.against"));
        assert!(fixed_opponents("evaluation.against", &["greedy".into(), "alphabeta:2".into()]).is_ok());
    }
}
