//! `vzero render`: one position as an SVG picture, from position text or a recorded game.

use std::fs;

use anyhow::{anyhow, bail, Context};
use rules::{FullGame, WithGame};

use super::game_file::load_game;
use crate::cli::RenderArgs;
use crate::viz::frames::{diagram_of, frames, status_line};
use crate::viz::svg_board::{board_svg, standalone, Arrow, ArrowKind};

/// Draws the chosen position and writes the SVG file.
pub fn run(args: RenderArgs) -> anyhow::Result<()> {
    let svg = match &args.game {
        Some(path) => {
            let (record, variant) = load_game(path, args.game_index.unwrap_or(0), args.variant)?;
            variant.with_game(FromGame { args: &args, record })?
        }
        None => {
            let variant = args.variant.ok_or_else(|| anyhow!("--variant is needed without --game"))?;
            variant.with_game(FromText(&args))?
        }
    };
    fs::write(&args.out, standalone(&svg)).with_context(|| format!("writing {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// The start position or `--position`, after `--moves`.
struct FromText<'a>(&'a RenderArgs);

impl WithGame for FromText<'_> {
    type Output = anyhow::Result<String>;

    fn run<G: FullGame>(self) -> anyhow::Result<String> {
        let args = self.0;
        let mut game = match &args.position {
            Some(text) => G::from_text(text).with_context(|| format!("--position '{text}'"))?,
            None => G::start(),
        };
        let mut last = None;
        for (i, text) in args.moves.as_deref().unwrap_or("").split_whitespace().enumerate() {
            let mv = game.parse_move(text).map_err(|e| anyhow!("--moves: move {} ('{text}'): {e}", i + 1))?;
            last = game.move_cells(mv);
            game.play(mv);
        }
        let arrows: Vec<Arrow> = match last {
            Some((from, to)) if args.last_move => vec![Arrow { from, to, kind: ArrowKind::LastMove }],
            _ => Vec::new(),
        };
        let diagram = diagram_of(&game)?;
        let ending = rules::ending_text(&game);
        let title = format!("{}: {}", G::NAME, status_line(&diagram, ending.as_deref()));
        Ok(board_svg(&diagram, &arrows, Some(&title)))
    }
}

/// Ply `--ply` of a recorded game.
struct FromGame<'a> {
    args: &'a RenderArgs,
    record: selfplay::replay::GameRecord,
}

impl WithGame for FromGame<'_> {
    type Output = anyhow::Result<String>;

    fn run<G: FullGame>(self) -> anyhow::Result<String> {
        let args = self.args;
        let plies = self.record.moves.len();
        let ply = args.ply.unwrap_or(0);
        if ply > plies {
            bail!("--ply {ply} is out of range: the game has {plies} moves (0..={plies})");
        }
        let frames = frames::<G>(&self.record, args.top.unwrap_or(0))?;
        let frame = &frames[ply];
        let arrows = frame.arrows(args.last_move, true);
        let mut title = format!("{} game {}: ply {ply} of {plies}", G::NAME, self.record.number);
        if let Some(ending) = &frame.ending {
            title.push_str(". ");
            title.push_str(ending);
        }
        Ok(board_svg(&frame.diagram, &arrows, Some(&title)))
    }
}
