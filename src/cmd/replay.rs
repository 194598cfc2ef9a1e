//! `vzero replay`: a recorded game as a self-contained HTML page to step through.

use rules::{with_game, FullGame};
use selfplay::replay::GameRecord;

use crate::cli::ReplayArgs;
use crate::game_file::load_game;
use crate::output::Format;
use crate::viz::frames::frames;
use crate::viz::html_replay::{replay_html, ReplayInfo};

/// Reads the game, draws every ply and writes the page.
pub fn run(args: ReplayArgs) -> anyhow::Result<()> {
    crate::output::check_out_file(&args.out, Some(Format::Html), &[&args.game])?;
    let (record, variant) = load_game(&args.game, args.game_index, args.variant)?;
    let html = with_game!(variant, G => page::<G>(&record, args.top))?;
    crate::output::write_file(&args.out, html.as_bytes())?;
    println!("wrote {} ({} plies)", args.out.display(), record.moves.len());
    Ok(())
}

/// The page of one game (also the browser page's view of a run's games).
pub(crate) fn page<G: FullGame>(record: &GameRecord, top: usize) -> anyhow::Result<String> {
    let frames = frames::<G>(record, top)?;
    let title = format!("vzero replay: {} game {}", G::NAME, record.number & !selfplay::replay::EXTERNAL_GAME);
    Ok(replay_html(&ReplayInfo { title: &title, scores: &record.scores }, &frames))
}
