//! The `vzero` command-line program.
//!
//! Exit codes: 0 success, 1 the command failed (the message says why), 2 bad command-line usage.

mod cli;
mod cmd;
mod engine;
mod viz;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(err) => return cli::usage_error(err),
    };
    match cmd::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("vzero: {err:#}");
            ExitCode::from(1)
        }
    }
}
