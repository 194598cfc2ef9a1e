//! The position a command starts from, as `--position` and `--moves` give it: read and judged
//! on the text alone, so that a mistake in either, or a game already over where one is to be
//! played, is a usage error (exit 2) naming the flag.

use rules::{Game, SetupError};

use crate::cli::usage;

/// The position given by `--position` (or the start) after playing `--moves`.
pub fn start_position<G: Game>(position: Option<&str>, moves: Option<&str>) -> anyhow::Result<G> {
    let mut game = match position {
        Some(text) => {
            G::from_text(text).map_err(|error| setup_usage(SetupError::Position { text: text.into(), error }))?
        }
        None => G::start(),
    };
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        let mv = game.parse_move(text).map_err(|e| usage(format!("--moves: move {} ('{text}'): {e}", i + 1)))?;
        game.play(mv);
    }
    Ok(game)
}

/// A setup error as the usage error of the flag it blames.
pub fn setup_usage(e: SetupError) -> anyhow::Error {
    match e {
        SetupError::Position { .. } => usage(format!("--{e}")),
        SetupError::Move { .. } => usage(format!("--moves: {e}")),
    }
}

/// Refuses a start whose game is over (`over`, the game's [`rules::game_over_text`]) for a
/// command that plays or searches it: there is no move to make. `moves` says whether `--moves`
/// led there, which the message then blames instead of `--position`.
pub fn refuse_finished(over: Option<String>, moves: bool) -> anyhow::Result<()> {
    match over {
        None => Ok(()),
        Some(reason) => {
            let flag = if moves { "--moves" } else { "--position" };
            Err(usage(format!("{flag}: {reason}; there is no move to play or search")))
        }
    }
}
