//! How a command-line mistake is reported: one line and exit code 2, whether clap finds it
//! (a flag's type or range) or a command does (text judged against its variant, two flags that
//! do not go together).

use std::fmt;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// A flag or argument whose value is refused on its text alone, found by a command after clap
/// has parsed it (position text, moves, a player spec): reported as clap's own usage errors
/// are, in one line with exit code 2.
#[derive(Debug)]
pub struct Usage(pub String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A usage error with `message`, which names the flag (`--position 'x': ...`).
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(message.into()))
}

/// Whether `err`, or an error it was made from, is a [`Usage`] error.
pub fn is_usage(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.is::<Usage>())
}

/// Prints a usage error's one line, as clap's own are printed, and returns exit code 2.
pub fn print_usage(message: &str) -> ExitCode {
    eprintln!("vzero: {} (see 'vzero --help')", crate::clip::clip_quotes(message));
    ExitCode::from(2)
}

/// Reports a command-line mistake in one line and returns exit code 2; help and version
/// requests print as usual and succeed.
pub fn usage_error(err: clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            eprintln!("{}", usage_line(err));
            ExitCode::from(2)
        }
    }
}

/// The one line a command-line mistake is reported in: clap's first line, the arguments it
/// lists below it joined on, and a pointer to the help.
pub fn usage_line(mut err: clap::Error) -> String {
    use crate::clip::{clip_quotes, escape_controls, quote_value};
    // A refused value may hold quote marks, line breaks or ESCs itself (clap's rendering drops
    // some, and a value parser's reason may quote the value again): its line is written here,
    // where the value and the flag are known, so that it stays one line and names the flag.
    let value = match err.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(value)) => Some(quote_value(value)),
        _ => None,
    };
    if let (ErrorKind::ValueValidation, Some(value), Some(ContextValue::String(arg))) =
        (err.kind(), &value, err.get(ContextKind::InvalidArg))
    {
        let reason =
            std::error::Error::source(&err).map(|r| format!(": {}", clip_quotes(&escape_controls(&r.to_string()))));
        return format!(
            "vzero: invalid value '{value}' for '{arg}'{} (see 'vzero --help')",
            reason.unwrap_or_default()
        );
    }
    if let Some(value) = &value {
        err.insert(ContextKind::InvalidValue, ContextValue::String(value.clone()));
    }
    let text = err.render().to_string();
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("bad arguments");
    let mut first = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // "the following required arguments were not provided:" lists them indented below.
    if first.ends_with(':') {
        for more in lines.take_while(|l| l.starts_with(' ')) {
            first.push(' ');
            first.push_str(more.trim());
        }
    }
    // With the value quoted already, the line holds no other text of the user's.
    let first = if value.is_some() { first } else { clip_quotes(&first) };
    format!("vzero: {first} (see 'vzero --help')")
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::usage_line;
    use crate::cli::Cli;
    use crate::clip::MAX_QUOTE;

    /// Found by the command-line fuzz: a value with a line break in it ended the message's one
    /// line before the flag was named.
    #[test]
    fn a_refused_value_with_a_line_break_is_one_line_naming_the_flag() {
        let args = ["vzero", "perft", "glinski", "--threads=1\r\n2\u{1b}", "2"];
        let err = Cli::try_parse_from(args).expect_err("not a number");
        assert_eq!(
            usage_line(err),
            "vzero: invalid value '1\\x0d\\x0a2\\x1b' for '--threads <THREADS>': '1\\x0d\\x0a2\\x1b' is not a whole number (expected 1..=256) (see 'vzero --help')"
        );
        // A long value with quote marks in it, which the value parser's reason quotes again.
        let long = format!("gl'in\"ski\u{7}{}", "x".repeat(500));
        let err = Cli::try_parse_from(["vzero", "analyse", "--variant", &long]).expect_err("no such variant");
        let line = usage_line(err);
        assert!(
            line.starts_with("vzero: invalid value 'gl'in\"ski\\x07xxx") && line.contains("for '--variant <VARIANT>'"),
            "{line}"
        );
        assert!(
            line.ends_with("(expected one of: glinski, mini-hexchess, wellisch, weltschach) (see 'vzero --help')"),
            "{line}"
        );
        assert!(line.len() < 600 && !line.contains(&"x".repeat(MAX_QUOTE + 1)), "{line}");
    }
}
