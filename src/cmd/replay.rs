//! `vzero replay`: a recorded game as a self-contained HTML page to step through.

use std::fs;

use anyhow::Context;
use rules::{FullGame, WithGame};
use selfplay::replay::GameRecord;

use super::game_file::load_game;
use crate::cli::ReplayArgs;
use crate::viz::frames::frames;
use crate::viz::html_replay::{replay_html, ReplayInfo};

/// Reads the game, draws every ply and writes the page.
pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    let (record, variant) = load_game(&args.game, args.game_index, args.variant)?;
    let html = variant.with_game(Page { record: &record, top: args.top })?;
    fs::write(&args.out, html).with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {} ({} plies)", args.out.display(), record.moves.len());
    Ok(())
}

/// The page of one game.
struct Page<'a> {
    record: &'a GameRecord,
    top: usize,
}

impl WithGame for Page<'_> {
    type Output = anyhow::Result<String>;

    fn run<G: FullGame>(self) -> anyhow::Result<String> {
        let frames = frames::<G>(self.record, self.top)?;
        let title = format!("vzero replay: {} game {}", G::NAME, self.record.number & !selfplay::replay::EXTERNAL_GAME);
        Ok(replay_html(&ReplayInfo { title: &title, scores: &self.record.scores }, &frames))
    }
}
