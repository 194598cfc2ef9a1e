//! One module per command (`runs` holds one per action of its own).

mod analyse;
mod arena;
mod arena_resume;
mod bench;
mod encode;
mod export;
mod gauntlet;
mod lever_bench;
mod perft;
mod play;
mod plot;
mod render;
mod replay;
mod runs;
mod selfplay;
mod serve;
mod start;
mod tactics_bench;
mod teach;
mod train;
mod uci;
mod variants;

use crate::cli::{Cli, Command};

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Variants => variants::run(),
        Command::Perft(args) => perft::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Train(args) => train::run(args),
        Command::Selfplay(args) => selfplay::run(args),
        Command::Teach(args) => teach::run(args),
        Command::Runs(args) => runs::run(args),
        Command::Render(args) => render::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Plot(args) => plot::run(args),
        Command::Arena(args) => arena::run(args),
        Command::Gauntlet(args) => gauntlet::run(args),
        Command::Export(args) => export::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Encode(args) => encode::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
    }
}
