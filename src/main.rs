//! The `vzero` command-line program.
//!
//! Exit codes: 0 success, 1 the command failed (the message says why), 2 bad command-line usage
//! (clap's errors and `cli::usage`: a flag or argument refused on its text alone), 3 stopped
//! early by a signal (SIGINT, SIGTERM, SIGHUP) after saving its work, 130 aborted by a second
//! signal. `vzero serve`, which runs until a signal ends it, exits 0 on one.

mod allocator;
mod cli;
mod clip;
mod cmd;
mod engine;
mod error_text;
mod game_file;
mod games_out;
mod line_input;
mod npy;
mod output;
mod stop;
mod viz;

use std::process::ExitCode;

/// Ends the program quietly when its standard output or error is a pipe whose reader went away
/// (`vzero bench perft | head -1`), as other command-line tools do. SIGPIPE stays ignored (Rust's
/// default): a write to a `uci:` engine that died must be an error, which the arena scores as
/// that engine's forfeit, not a signal that ends vzero. So the closed-pipe panic of `println!`
/// is what ends the program here, before it prints anything.
fn quiet_on_closed_output() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info)
    }));
}

fn main() -> ExitCode {
    allocator::keep_freed_memory();
    quiet_on_closed_output();
    let args = match cli::parse_args() {
        Ok(args) => args,
        Err(err) => return cli::usage_error(err),
    };
    match cmd::run(args) {
        Ok(()) if stop::stopped_early() => ExitCode::from(stop::EXIT_STOPPED),
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if cli::is_usage(&err) => cli::print_usage(&error_text::error_text(&err)),
        Err(err) => {
            eprintln!("vzero: {}", clip::clip_quotes(&error_text::error_text(&err)));
            ExitCode::from(1)
        }
    }
}
