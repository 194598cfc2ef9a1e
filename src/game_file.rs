//! Reading one recorded game, for the commands that draw games: from a replay shard
//! (`RUN/replay/*.shard`, with the search's visits) or a game text file (`RUN/games/*.txt`, one
//! game a line as `[scores] moves`, without visits, played from the run's `start_position` or
//! the variant's start).

use std::fs;
use std::path::Path;

use anyhow::{anyhow, bail, Context};
use rules::{with_game, FullGame, Variant};
use selfplay::replay::{read_shard, GameRecord, MoveRecord};
use selfplay::Config;

/// Game `index` of the file at `path`; `variant` (a `--variant` flag) must match the game's, and
/// names the variant of a text file outside a run directory.
pub fn load_game(path: &Path, index: usize, variant: Option<Variant>) -> anyhow::Result<(GameRecord, Variant)> {
    let record = if path.extension().is_some_and(|e| e == "txt") {
        let run = run_config(path);
        let variant = match (variant, &run) {
            (Some(v), _) => v,
            (None, Some(config)) => config.variant(),
            (None, None) => {
                bail!("{}: --variant is needed for a game text file outside a run directory", path.display())
            }
        };
        let start = run.as_ref().and_then(|c| c.start_position.as_deref());
        let text = fs::read_to_string(path).with_context(|| format!("reading the game file {}", path.display()))?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let line = nth(lines, index, path)?;
        with_game!(variant, G => record_from_text::<G>(line, start))
            .with_context(|| format!("{} line {}", path.display(), index + 1))?
    } else {
        let games = read_shard(path).context("reading the game file (a replay shard, RUN/replay/*.shard)")?;
        nth(games, index, path)?
    };
    let found: Variant = record.variant.parse().map_err(|e| anyhow!("the recorded game: {e}"))?;
    match variant {
        Some(v) if v != found => bail!("--variant {v} does not match the game, which is {found}"),
        _ => {
            // As training checks the games it loads: a game whose visits or scores do not hold
            // together would be drawn wrong (shares past 100%, values of NaN).
            with_game!(found, G => record.check::<G>())
                .map_err(|e| anyhow!("{}: game {index}: {e}", path.display()))?;
            Ok((record, found))
        }
    }
}

/// Item `index` of `items` read from `path`, or an error that says how many there are.
fn nth<T>(mut items: Vec<T>, index: usize, path: &Path) -> anyhow::Result<T> {
    let count = items.len();
    if index >= count {
        bail!("{}: --game-index {index} is out of range: the file holds {count} games (0..{count})", path.display());
    }
    Ok(items.swap_remove(index))
}

/// The config of the run whose `games/` folder holds `path`.
fn run_config(path: &Path) -> Option<Config> {
    let run = path.parent()?.parent()?;
    Config::load(&run.join("config.toml"), &[]).ok()
}

/// A game text line turned back into a record (moves as policy indices, no visits); `start`
/// is the run's start position text, if it sets one.
fn record_from_text<G: FullGame>(line: &str, start: Option<&str>) -> anyhow::Result<GameRecord> {
    let (scores, moves) = line
        .strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
        .ok_or_else(|| anyhow!("expected '[SCORES] MOVES', found '{}'", line.chars().take(40).collect::<String>()))?;
    let scores = scores
        .split_whitespace()
        .map(|s| s.parse::<f32>().map_err(|_| anyhow!("score '{s}' is not a number")))
        .collect::<anyhow::Result<Vec<f32>>>()?;
    let mut game = match start {
        Some(text) => G::from_text(text).map_err(|e| anyhow!("the run's start_position: {e}"))?,
        None => G::start(),
    };
    let mut record =
        GameRecord { variant: G::NAME.into(), number: 0, start: game.to_text(), moves: Vec::new(), scores };
    for (i, text) in moves.split_whitespace().enumerate() {
        let mv = game.parse_move(text).map_err(|e| anyhow!("move {} ('{text}'): {e}", i + 1))?;
        record.moves.push(MoveRecord {
            played: game.policy_index(mv) as u32,
            visits: Vec::new(),
            policy_target: false,
            root_value: None,
        });
        game.play(mv);
    }
    Ok(record)
}
