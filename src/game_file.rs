//! Reading one recorded game, for the commands that draw or analyse games: from a replay shard
//! (`RUN/replay/*.shard`, with the search's visits), a game text file (docs/games.md: tags,
//! then moves, as `arena --games-out` and `play --save` write it), or a run's own game lines
//! (`RUN/games/*.txt`, one game a line as `[scores] moves`, played from the run's
//! `start_position` or the variant's start). Text games have no visits.

use std::fs;
use std::path::Path;

use anyhow::{anyhow, bail, Context};
use rules::{read_games, with_game, FullGame, GameText, Variant};
use selfplay::replay::{read_shard, GameRecord, MoveRecord};
use selfplay::Config;

/// Game `index` of the file at `path`; `variant` (a `--variant` flag) must match the game's, and
/// names the variant of a text file outside a run directory.
pub fn load_game(path: &Path, index: usize, variant: Option<Variant>) -> anyhow::Result<(GameRecord, Variant)> {
    let bytes = fs::read(path).with_context(|| format!("reading the game file {}", path.display()))?;
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) if !is_shard(path) => text,
        _ => return from_shard(path, index, variant),
    };
    if is_run_lines(text) {
        return from_run_lines(text, path, index, variant);
    }
    let games = read_games(text, variant).with_context(|| format!("reading the game file {}", path.display()))?;
    let game = nth(games, index, path)?;
    check_variant(variant, game.variant)?;
    let record = record_of(&game).with_context(|| format!("{}: game {index}", path.display()))?;
    Ok((record, game.variant))
}

/// Game `index` of a run's game lines (`RUN/games/*.txt`), played from the run's start.
fn from_run_lines(
    text: &str,
    path: &Path,
    index: usize,
    variant: Option<Variant>,
) -> anyhow::Result<(GameRecord, Variant)> {
    let run = run_config(path);
    let chosen = match (variant, &run) {
        (Some(v), _) => v,
        (None, Some(config)) => config.variant(),
        (None, None) => bail!("{}: --variant is needed for a game text file outside a run directory", path.display()),
    };
    let start = run.as_ref().and_then(|c| c.start_position.as_deref());
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let line = nth(lines, index, path)?;
    let record = with_game!(chosen, G => record_from_text::<G>(line, start))
        .with_context(|| format!("{} line {}", path.display(), index + 1))?;
    checked(record, path, index, variant)
}

/// Game `index` of the replay shard at `path`.
fn from_shard(path: &Path, index: usize, variant: Option<Variant>) -> anyhow::Result<(GameRecord, Variant)> {
    let games = read_shard(path)
        .context("reading the game file (a replay shard, RUN/replay/*.shard, or a game text file, docs/games.md)")?;
    checked(nth(games, index, path)?, path, index, variant)
}

/// `record` with its variant, once it matches `variant` and holds together.
fn checked(
    record: GameRecord,
    path: &Path,
    index: usize,
    variant: Option<Variant>,
) -> anyhow::Result<(GameRecord, Variant)> {
    let found: Variant = record.variant.parse().map_err(|e| anyhow!("the recorded game: {e}"))?;
    check_variant(variant, found)?;
    // As training checks the games it loads: a game whose visits or scores do not hold
    // together would be drawn wrong (shares past 100%, values of NaN).
    with_game!(found, G => record.check::<G>()).map_err(|e| anyhow!("{}: game {index}: {e}", path.display()))?;
    Ok((record, found))
}

/// An error where `--variant` names another variant than the game's.
fn check_variant(variant: Option<Variant>, found: Variant) -> anyhow::Result<()> {
    match variant {
        Some(v) if v != found => bail!("--variant {v} does not match the game, which is {found}"),
        _ => Ok(()),
    }
}

/// Whether `path` is named as a replay shard (whatever its bytes).
fn is_shard(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "shard")
}

/// Whether `text` holds a run's game lines (`[1 0] f5-f6 ...`, a tag never starts with a digit
/// or `]`) rather than tagged games.
fn is_run_lines(text: &str) -> bool {
    let first = text.trim_start().strip_prefix('[').map(str::trim_start);
    first.is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit() || c == ']' || c == '-'))
}

/// A text game as a record: its start, its moves by policy index (no visits), its scores (none
/// for a game not finished).
pub fn record_of(game: &GameText) -> anyhow::Result<GameRecord> {
    let mut replay = game.start_game()?;
    let start = replay.to_text();
    let mut moves = Vec::with_capacity(game.moves.len());
    for text in &game.moves {
        let played = u32::try_from(replay.action_of(text)?)?;
        moves.push(MoveRecord { played, visits: Vec::new(), policy_target: false, root_value: None });
        replay.play_text(text)?;
    }
    let scores = game.result.map(|s| s.as_slice().to_vec()).unwrap_or_default();
    Ok(GameRecord { variant: game.variant.name().into(), number: 0, start, moves, scores })
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

/// Game `index` of the file at `path` (as [`load_game`] reads it) as its variant, its start
/// position's text and its moves in the variant's notation.
pub fn load_moves(
    path: &Path,
    index: usize,
    variant: Option<Variant>,
) -> anyhow::Result<(Variant, String, Vec<String>)> {
    let (record, variant) = load_game(path, index, variant)?;
    let mut game = rules::VariantGame::from_text(variant, &record.start)?;
    let mut moves = Vec::with_capacity(record.moves.len());
    for m in &record.moves {
        moves.push(game.play_action(i64::from(m.played))?.text);
    }
    Ok((variant, record.start, moves))
}
