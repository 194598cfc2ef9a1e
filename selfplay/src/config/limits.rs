//! The range helper every section declares its keys' limits with, one line per key beside the
//! fields (as lc0 registers each option with its range and KataGo reads each key with its
//! bounds), and the error that names the key, its value and the range in words.

use std::borrow::Cow;
use std::fmt::Display;
use std::ops::{Bound, RangeBounds};

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
impl From<mcts::ParamsError> for OutOfRange {
    fn from(e: mcts::ParamsError) -> Self {
        OutOfRange { key: format!("search.{}", e.field), value: e.value, reason: e.expected.into() }
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
    rule(!(1..=max).contains(&value), key, value, format!("must be from 1 to {max}"))
}

/// A count of at least 1.
pub(super) fn at_least_one<T: PartialOrd + Display + From<u8>>(key: &str, value: T) -> Limits {
    within(key, value, T::from(1).., "must be at least 1")
}

/// A size of at most `max`.
pub(super) fn at_most(key: &str, value: usize, max: usize) -> Limits {
    rule(value > max, key, value, format!("must be at most {max}"))
}

/// A share, from 0 to 1.
pub(super) fn share<T: PartialOrd + Display + From<f32>>(key: &str, value: T) -> Limits {
    within(key, value, T::from(0.0)..=T::from(1.0), "must be between 0 and 1")
}

/// A finite number above 0; `reason` names its unit.
pub(super) fn positive<T: PartialOrd + Display + From<f32>>(key: &str, value: T, reason: &'static str) -> Limits {
    within(key, value, (Bound::Excluded(T::from(0.0)), Bound::Excluded(T::from(f32::INFINITY))), reason)
}

/// A finite number, 0 or above; `reason` names its unit.
pub(super) fn not_negative<T: PartialOrd + Display + From<f32>>(key: &str, value: T, reason: &'static str) -> Limits {
    within(key, value, T::from(0.0)..T::from(f32::INFINITY), reason)
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
        assert_eq!(at_most("k", 9, 8).unwrap_err().reason, "must be at most 8");
        assert!(share("k", 0.0f32).is_ok() && share("k", 1.0f64).is_ok());
        for bad in [-f32::MIN_POSITIVE, 1.0 + f32::EPSILON, f32::NAN] {
            assert!(share("k", bad).is_err(), "{bad}");
        }
        assert!(positive("k", f64::MIN_POSITIVE, "r").is_ok() && positive("k", f64::MAX, "r").is_ok());
        for bad in [0.0, f64::INFINITY, f64::NAN, -1.0] {
            assert!(positive("k", bad, "r").is_err(), "{bad}");
        }
        assert!(not_negative("k", 0.0f32, "r").is_ok() && not_negative("k", f32::MAX, "r").is_ok());
        for bad in [-f32::MIN_POSITIVE, f32::INFINITY, f32::NAN] {
            assert!(not_negative("k", bad, "r").is_err(), "{bad}");
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
