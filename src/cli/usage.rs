//! How a command-line mistake is reported: one line and exit code 2.

use std::process::ExitCode;

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
            eprintln!("vzero: {} (see 'vzero --help')", crate::clip::clip_quotes(&first));
            ExitCode::from(2)
        }
    }
}
