//! The engine's options, each declared once: its UCI name, type, default and range, and how a
//! `setoption` value is read.

use rules::variant::UnknownVariant;
use rules::Variant;

use crate::engine::ModelChoice;

/// The options' values.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// `UCI_Variant`: the variant played.
    pub variant: Variant,
    /// `Model`: `default` (the shipped network of the variant), a checkpoint folder or run
    /// directory, or `none` / `<empty>` for the uniform evaluator.
    pub model: ModelChoice,
    /// `Threads`: search threads sharing the tree.
    pub threads: usize,
    /// `MultiPV`: root moves reported in `info` lines.
    pub multipv: usize,
    /// `Simulations`: root visits of a `go` that names no limit.
    pub simulations: u32,
}

/// Most search threads: the command line's limit.
const MAX_THREADS: i64 = crate::cli::MAX_THREADS as i64;
/// Most `MultiPV` lines: the command line's limit.
const MAX_MULTIPV: i64 = crate::cli::MAX_MULTIPV as i64;
/// Most default simulations: the command line's limit.
const MAX_SIMULATIONS: i64 = crate::cli::MAX_SIMULATIONS as i64;

/// One `setoption` that changed something the engine must act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Changed {
    /// The variant or the model: the session must be opened again.
    Session,
    /// Something the next search reads.
    Search,
}

/// Why a `setoption` was refused: it names the option, the value and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// A number outside the option's range.
    #[error("option {name}: {value} is out of range: {what} must be from {min} to {max}")]
    OutOfRange {
        /// The option's name as written.
        name: String,
        /// The value as written.
        value: String,
        /// What the option counts.
        what: &'static str,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// A value of a number option that is no whole number.
    #[error("option {name}: '{value}' is not a whole number ({what}, from {min} to {max})")]
    NotANumber {
        /// The option's name as written.
        name: String,
        /// The value as written.
        value: String,
        /// What the option counts.
        what: &'static str,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// A `UCI_Variant` that names no variant.
    #[error("option UCI_Variant: {0}")]
    Variant(#[from] UnknownVariant),
    /// An option the engine does not have.
    #[error("unknown option '{0}' (expected UCI_Variant, Model, Threads, MultiPV or Simulations)")]
    Unknown(String),
}

impl Options {
    /// Defaults, with the variant and model given on the command line.
    pub fn new(variant: Variant, model: ModelChoice) -> Options {
        Options { variant, model, threads: 1, multipv: 1, simulations: 800 }
    }

    /// The `option` lines `uci` answers with.
    pub fn uci_lines(&self) -> Vec<String> {
        let vars: Vec<String> = Variant::ALL.iter().map(|v| format!("var {v}")).collect();
        let model = match &self.model {
            ModelChoice::Uniform => "<empty>".to_string(),
            other => other.to_string(),
        };
        vec![
            format!("option name UCI_Variant type combo default {} {}", self.variant, vars.join(" ")),
            format!("option name Model type string default {model}"),
            format!("option name Threads type spin default {} min 1 max {MAX_THREADS}", self.threads),
            format!("option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}", self.multipv),
            format!("option name Simulations type spin default {} min 1 max {MAX_SIMULATIONS}", self.simulations),
        ]
    }

    /// Applies `setoption name NAME value VALUE` (names match without regard to case, as UCI
    /// asks). Errors name the option and what it expects; the value is then unchanged.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, OptionError> {
        let value = value.map(str::trim).unwrap_or("");
        // A refused value names the option, the value and why: the range and what it counts.
        let spin = |min: i64, max: i64, what: &'static str| -> Result<i64, OptionError> {
            let digits = value.strip_prefix('-').unwrap_or(value);
            let (name, value) = (name.to_string(), value.to_string());
            match value.parse::<i64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                _ if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(OptionError::OutOfRange { name, value, what, min, max })
                }
                _ => Err(OptionError::NotANumber { name, value, what, min, max }),
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                self.variant = value.parse::<Variant>()?;
                Ok(Changed::Session)
            }
            "model" => {
                self.model = value.parse().expect("every text names a model choice");
                Ok(Changed::Session)
            }
            "threads" => {
                self.threads = spin(1, MAX_THREADS, "the search threads sharing the tree")? as usize;
                Ok(Changed::Search)
            }
            "multipv" => {
                self.multipv = spin(1, MAX_MULTIPV, "the root moves reported")? as usize;
                Ok(Changed::Search)
            }
            "simulations" => {
                self.simulations = spin(1, MAX_SIMULATIONS, "the visits of a go without a limit")? as u32;
                Ok(Changed::Search)
            }
            _ => Err(OptionError::Unknown(name.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_set_by_any_case_and_checked() {
        let mut o = Options::new(Variant::Glinski, ModelChoice::Shipped);
        assert_eq!(o.set("uci_variant", Some("Wellisch")), Ok(Changed::Session));
        assert_eq!(o.variant, Variant::Wellisch);
        assert_eq!(o.set("MULTIPV", Some("3")), Ok(Changed::Search));
        assert_eq!(o.multipv, 3);
        let err = o.set("Threads", Some("5000")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "option Threads: 5000 is out of range: the search threads sharing the tree must be from 1 to 256"
        );
        let err = o.set("Simulations", Some("0")).unwrap_err();
        assert!(matches!(err, OptionError::OutOfRange { min: 1, max: 100_000_000, .. }), "{err}");
        let huge = "9".repeat(30);
        assert!(matches!(o.set("MultiPV", Some(&huge)), Err(OptionError::OutOfRange { .. })));
        let err = o.set("Threads", Some("two")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "option Threads: 'two' is not a whole number (the search threads sharing the tree, from 1 to 256)"
        );
        let err = o.set("UCI_Variant", Some("chess")).unwrap_err();
        assert_eq!(err, OptionError::Variant(rules::variant::UnknownVariant("chess".into())));
        assert_eq!(o.set("Hash", Some("64")), Err(OptionError::Unknown("Hash".into())));
        assert_eq!(o.threads, 1, "a refused value leaves the option unchanged");
        assert_eq!(o.set("Model", Some("<empty>")), Ok(Changed::Session));
        assert_eq!(o.model, ModelChoice::Uniform);
        assert_eq!(o.set("Model", Some("runs/a")), Ok(Changed::Session));
        assert_eq!(o.model, ModelChoice::Path("runs/a".into()));
    }

    #[test]
    fn every_option_has_one_line() {
        let lines = Options::new(Variant::Glinski, ModelChoice::Uniform).uci_lines();
        assert_eq!(lines.len(), 5);
        assert!(lines[0].ends_with("var glinski var mini-hexchess var wellisch var weltschach"), "{}", lines[0]);
    }
}
