//! Shard files: a batch of finished games, checksummed, written atomically.
//!
//! Layout: the 8-byte magic `VZSHARD2`, the payload length (u64 little-endian), the payload's
//! CRC-32 (u32 LE), then the payload: `bincode` (standard config) of `Vec<GameRecord>`.
//! `VZSHARD1` shards (moves without root values) are still read.
//! A file is written under a temporary name and renamed, so readers never see half a shard.

use std::fs;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::replay::playback::DecodeError;
use crate::replay::record::{GameRecord, MoveRecord};

const MAGIC: &[u8; 8] = b"VZSHARD2";
/// The first format, whose moves carry no root value.
const MAGIC_V1: &[u8; 8] = b"VZSHARD1";
const HEADER_LEN: usize = 8 + 8 + 4;
/// The largest payload a reader accepts; a header claiming more is rejected before any
/// allocation, so a hostile or corrupt file cannot exhaust memory.
pub const MAX_SHARD_BYTES: u64 = 1 << 30;

/// Why a shard could not be written or read.
#[derive(Debug, Error)]
pub enum ShardError {
    /// The file system failed (full disk, permissions, ...).
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    /// The file is not a shard, is truncated, or fails its checksum.
    #[error("{path}: corrupt shard: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    /// A game in the shard cannot be trained on as the run's variant: another variant's or
    /// policy map's game, or contents that are inconsistent though the checksum holds.
    #[error("{path}: game {number:#x}: {source}")]
    Unusable { path: PathBuf, number: u64, source: DecodeError },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ShardError + '_ {
    move |source| ShardError::Io { path: path.to_path_buf(), source }
}

/// Writes `games` as a shard at `path`, atomically (through `NAME.tmp`, which resume deletes
/// after a crash; see [`durable::write`]).
pub fn write_shard(path: &Path, games: &[GameRecord]) -> Result<(), ShardError> {
    let bytes = shard_bytes(games)
        .map_err(|e| ShardError::Corrupt { path: path.to_path_buf(), reason: format!("cannot encode: {e}") })?;
    durable::write(path, &bytes).map_err(|e| ShardError::Io { path: e.path, source: e.source })
}

/// The bytes of a shard file holding `games` (what [`write_shard`] writes, and what the browser
/// page hands out as a saved game); the error says why they cannot be encoded.
pub fn shard_bytes(games: &[GameRecord]) -> Result<Vec<u8>, String> {
    let payload = bincode::serde::encode_to_vec(games, bincode::config::standard()).map_err(|e| e.to_string())?;
    let mut bytes = Vec::with_capacity(HEADER_LEN + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    bytes.extend_from_slice(&payload);
    Ok(bytes)
}

/// Reads and verifies a shard written by [`write_shard`].
pub fn read_shard(path: &Path) -> Result<Vec<GameRecord>, ShardError> {
    let corrupt = |reason: String| ShardError::Corrupt { path: path.to_path_buf(), reason };
    let len = fs::metadata(path).map_err(io_err(path))?.len();
    // Before reading: a huge file is refused without its bytes in memory.
    if len > MAX_SHARD_BYTES + HEADER_LEN as u64 {
        return Err(corrupt(format!("{len} bytes is over the {MAX_SHARD_BYTES}-byte limit")));
    }
    let bytes = fs::read(path).map_err(io_err(path))?;
    parse_shard(path, &bytes)
}

/// Verifies and decodes the bytes of a shard file (`path` names it in errors): what
/// [`read_shard`] does once the file is read.
pub fn parse_shard(path: &Path, bytes: &[u8]) -> Result<Vec<GameRecord>, ShardError> {
    let corrupt = |reason: String| ShardError::Corrupt { path: path.to_path_buf(), reason };
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(format!("{} bytes is shorter than the header", bytes.len())));
    }
    let v1 = &bytes[..8] == MAGIC_V1;
    if &bytes[..8] != MAGIC && !v1 {
        return Err(corrupt("not a vzero shard (bad magic)".into()));
    }
    let payload_len = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
    let crc = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes"));
    let payload = &bytes[HEADER_LEN..];
    if payload.len() as u64 != payload_len {
        return Err(corrupt(format!("payload is {} bytes, header says {payload_len} (truncated?)", payload.len())));
    }
    if crc32fast::hash(payload) != crc {
        return Err(corrupt("checksum mismatch".into()));
    }
    if v1 {
        let games: Vec<v1::GameRecord> = decode(payload).map_err(corrupt)?;
        return Ok(games.into_iter().map(GameRecord::from).collect());
    }
    let games: Vec<StoredGame> = decode(payload).map_err(corrupt)?;
    Ok(games.into_iter().map(GameRecord::from).collect())
}

/// A [`GameRecord`] as it is decoded: its texts borrowed from the payload. bincode allocates an
/// owned `String` at the length its prefix claims before reading the bytes, so a 27-byte file
/// claiming a 200 MB variant name made the reader allocate 200 MB; a borrowed text's length is
/// checked against the bytes that are there.
#[derive(serde::Deserialize)]
struct StoredGame<'a> {
    variant: &'a str,
    number: u64,
    start: &'a str,
    moves: Vec<MoveRecord>,
    scores: Vec<f32>,
}

impl From<StoredGame<'_>> for GameRecord {
    fn from(g: StoredGame<'_>) -> Self {
        let StoredGame { variant, number, start, moves, scores } = g;
        GameRecord { variant: variant.into(), number, start: start.into(), moves, scores }
    }
}

/// Decodes a whole payload as `T`, borrowing its texts (see [`StoredGame`]).
fn decode<'a, T: serde::Deserialize<'a>>(payload: &'a [u8]) -> Result<T, String> {
    let config = bincode::config::standard().with_limit::<{ MAX_SHARD_BYTES as usize }>();
    let (value, used): (T, usize) =
        bincode::serde::borrow_decode_from_slice(payload, config).map_err(|e| format!("cannot decode: {e}"))?;
    if used != payload.len() {
        return Err(format!("{} trailing bytes", payload.len() - used));
    }
    Ok(value)
}

/// The `VZSHARD1` records, kept only to read old runs.
mod v1 {
    use serde::Deserialize;

    /// Texts borrowed, as in [`super::StoredGame`].
    #[derive(Deserialize)]
    pub struct GameRecord<'a> {
        variant: &'a str,
        number: u64,
        start: &'a str,
        moves: Vec<MoveRecord>,
        scores: Vec<f32>,
    }

    #[derive(Deserialize)]
    struct MoveRecord {
        played: u32,
        visits: Vec<(u32, u32)>,
        policy_target: bool,
    }

    impl From<GameRecord<'_>> for super::GameRecord {
        fn from(g: GameRecord<'_>) -> Self {
            let moves = g
                .moves
                .into_iter()
                .map(|m| super::MoveRecord {
                    played: m.played,
                    visits: m.visits,
                    policy_target: m.policy_target,
                    root_value: None,
                })
                .collect();
            let (variant, start) = (g.variant.into(), g.start.into());
            super::GameRecord { variant, number: g.number, start, moves, scores: g.scores }
        }
    }
}

/// Shard file names that never collide across processes and hosts sharing a run directory:
/// `<unix-millis>-<host>-<pid>-<sequence>.shard`, which also sorts by creation time.
#[derive(Debug)]
pub struct ShardName {
    host: String,
    pid: u32,
    sequence: u64,
}

impl ShardName {
    /// Names for this process.
    pub fn for_this_process() -> ShardName {
        ShardName { host: crate::store::host::this_host(), pid: std::process::id(), sequence: 0 }
    }

    /// The next file name.
    pub fn next_name(&mut self) -> String {
        let millis =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
        self.sequence += 1;
        format!("{millis:013}-{}-{}-{:06}.shard", self.host, self.pid, self.sequence)
    }
}
