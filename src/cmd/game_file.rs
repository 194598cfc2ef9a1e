//! Reading one recorded game from a replay shard, for the commands that draw games.

use std::path::Path;

use anyhow::{anyhow, bail, Context};
use rules::Variant;
use selfplay::replay::{read_shard, GameRecord};

/// Game `index` of the replay shard at `path`.
pub fn load_game(path: &Path, index: usize) -> anyhow::Result<GameRecord> {
    let mut games = read_shard(path).context("reading the game file (a replay shard, RUN/replay/*.shard)")?;
    let count = games.len();
    if index >= count {
        bail!("{}: --game-index {index} is out of range: the shard holds {count} games (0..{count})", path.display());
    }
    Ok(games.swap_remove(index))
}

/// The variant `record` was played in; `asked` (a `--variant` flag) must agree with it.
pub fn variant_of(record: &GameRecord, asked: Option<Variant>) -> anyhow::Result<Variant> {
    let variant: Variant = record.variant.parse().map_err(|e| anyhow!("the recorded game: {e}"))?;
    match asked {
        Some(v) if v != variant => bail!("--variant {v} does not match the game, which is {variant}"),
        _ => Ok(variant),
    }
}
