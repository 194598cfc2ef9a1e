//! One module per subcommand.

mod bench;
mod perft;
mod train;
mod variants;

use crate::cli::{Cli, Command};

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Variants => variants::run(),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Train(args) => train::run(args),
    }
}
