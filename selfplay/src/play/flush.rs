//! Finished self-play games on their way to disk: every `selfplay.flush_games` games become a
//! shard (and its game text) while the phase goes on, so a process stopped or killed in the
//! middle of an iteration loses at most the games not yet written.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use rules::Encoding;

use crate::error::TrainError;
use crate::replay::{record_to_text, write_shard, GameRecord, ShardName};
use crate::store::{write_atomic, RunDir};

/// Collects the games of one self-play phase and writes them out in shards of at most `every`
/// games (the last one at [`Flusher::finish`]).
pub(crate) struct Flusher<'a, G> {
    dir: &'a RunDir,
    names: &'a mut ShardName,
    every: usize,
    /// Every game of the phase, in the order they finished; those before `written` are on disk.
    games: Vec<GameRecord>,
    written: usize,
    shards: Vec<PathBuf>,
    game: PhantomData<fn() -> G>,
}

/// What a phase stored: its games (in the order they finished) and the shards holding them.
pub(crate) struct Flushed {
    /// Every game, each in exactly one of `shards`.
    pub games: Vec<GameRecord>,
    /// The shards written, oldest first.
    pub shards: Vec<PathBuf>,
}

impl<'a, G: Encoding> Flusher<'a, G> {
    /// A flusher writing into `dir`'s replay folder under names from `names`.
    pub(crate) fn new(dir: &'a RunDir, names: &'a mut ShardName, every: usize) -> Flusher<'a, G> {
        Flusher {
            dir,
            names,
            every: every.max(1),
            games: Vec::new(),
            written: 0,
            shards: Vec::new(),
            game: PhantomData,
        }
    }

    /// Keeps a finished game; writes the games not yet on disk once there are `every` of them.
    pub(crate) fn add(&mut self, game: GameRecord) -> Result<(), TrainError> {
        self.games.push(game);
        if self.games.len() - self.written >= self.every {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the games not yet on disk, then hands back every game and shard of the phase.
    pub(crate) fn finish(mut self) -> Result<Flushed, TrainError> {
        self.flush()?;
        Ok(Flushed { games: self.games, shards: self.shards })
    }

    /// Writes the games not yet on disk as one shard and its game text.
    fn flush(&mut self) -> Result<(), TrainError> {
        let pending = &self.games[self.written..];
        if pending.is_empty() {
            return Ok(());
        }
        let shard = self.dir.replay().join(self.names.next_name());
        write_shard(&shard, pending)?;
        write_game_texts::<G>(self.dir, &shard, pending)?;
        self.written = self.games.len();
        self.shards.push(shard);
        Ok(())
    }
}

/// Writes `records` as move text to `games/<shard name>.txt`.
pub(crate) fn write_game_texts<G: Encoding>(
    dir: &RunDir,
    shard: &Path,
    records: &[GameRecord],
) -> Result<(), TrainError> {
    let mut text = String::new();
    for r in records {
        text.push_str(&record_to_text::<G>(r)?);
        text.push('\n');
    }
    let name = shard.with_extension("txt");
    let path = dir.games().join(name.file_name().expect("shard has a name"));
    write_atomic(&path, text.as_bytes())?;
    Ok(())
}
