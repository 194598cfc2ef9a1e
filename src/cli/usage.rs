//! How a command-line mistake is reported: one line and exit code 2, whether clap finds it
//! (a flag's type or range) or a command does (text judged against its variant, two flags that
//! do not go together).

use std::fmt;
use std::process::ExitCode;

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
    use clap::error::ErrorKind;
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
            print_usage(&first)
        }
    }
}
