//! `vzero render`: one position as an SVG picture, from position text or a recorded game.

use anyhow::{anyhow, bail};
use rules::{with_game, FullGame};

use crate::cli::RenderArgs;
use crate::game_file::load_game;
use crate::output::Format;
use crate::viz::frames::{diagram_of, frames, status_line};
use crate::viz::svg_board::{board_svg, standalone, Arrow, ArrowKind};

/// Draws the chosen position and writes the SVG file.
pub fn run(args: RenderArgs) -> anyhow::Result<()> {
    let inputs: Vec<&std::path::Path> = args.game.as_deref().into_iter().collect();
    crate::output::check_out_file(&args.out, Some(Format::Svg), &inputs)?;
    let svg = match &args.game {
        Some(path) => {
            let (record, variant) = load_game(path, args.game_index.unwrap_or(0), args.variant)?;
            with_game!(variant, G => from_game::<G>(&args, &record))?
        }
        None => {
            let variant = args.variant.ok_or_else(|| anyhow!("--variant is needed without --game"))?;
            with_game!(variant, G => from_text::<G>(&args))?
        }
    };
    crate::output::write_file(&args.out, standalone(&svg).as_bytes())?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// The start position or `--position`, after `--moves`.
fn from_text<G: FullGame>(args: &RenderArgs) -> anyhow::Result<String> {
    let mut game = match &args.start.position {
        Some(text) => G::from_text(text)
            .map_err(|error| super::start::setup_usage(rules::SetupError::Position { text: text.clone(), error }))?,
        None => G::start(),
    };
    let mut last = None;
    for (i, text) in args.moves.list().iter().enumerate() {
        let mv =
            game.parse_move(text).map_err(|e| crate::cli::usage(format!("--moves: move {} ('{text}'): {e}", i + 1)))?;
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

/// Ply `--ply` of a recorded game.
fn from_game<G: FullGame>(args: &RenderArgs, record: &selfplay::replay::GameRecord) -> anyhow::Result<String> {
    let plies = record.moves.len();
    let ply = args.ply.unwrap_or(0);
    if ply > plies {
        bail!("--ply {ply} is out of range: the game has {plies} moves (0..={plies})");
    }
    let frames = frames::<G>(record, args.top.unwrap_or(0))?;
    let frame = &frames[ply];
    let arrows = frame.arrows(args.last_move, true);
    let mut title = format!("{} game {}: ply {ply} of {plies}", G::NAME, record.number);
    if let Some(ending) = &frame.ending {
        title.push_str(". ");
        title.push_str(ending);
    }
    Ok(board_svg(&frame.diagram, &arrows, Some(&title)))
}
