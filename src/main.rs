//! The `vzero` command-line program.
//!
//! Exit codes: 0 success, 1 the command failed (the message says why), 2 bad command-line usage,
//! 3 stopped early by a signal (SIGINT, SIGTERM, SIGHUP) after saving its work, 130 aborted by a
//! second signal.

mod cli;
mod clip;
mod cmd;
mod engine;
mod npy;
mod viz;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so writing to a closed pipe (`vzero bench perft | head -1`) would
    // panic; the default action ends the program quietly, as other command-line tools do.
    // SAFETY: called before any other thread exists; SIG_DFL is a valid disposition.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(err) => return cli::usage_error(err),
    };
    match cmd::run(args) {
        Ok(()) if cmd::stop::stop_requested() => ExitCode::from(cmd::stop::EXIT_STOPPED),
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("vzero: {}", clip::clip_quotes(&format!("{err:#}")));
            ExitCode::from(1)
        }
    }
}
