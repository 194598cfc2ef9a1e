//! Append-only logs (a run's metrics.jsonl, `arena --out`): one line per record, appended in
//! one write. A crash or a full disk can leave the last line torn (cut short, no newline);
//! appending after it would glue the next record onto it and lose both. So before a line goes
//! in, a torn or unreadable last line is moved out whole to a side file (`NAME.torn`, then
//! `NAME.torn.2`, ...), where it stays for a person to look at.

use std::ffi::OsString;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::{at, Error};

/// The extension of the side file a torn last line is moved to.
pub const TORN_EXTENSION: &str = "torn";

/// How far back a chunk of the tail is read at a time, looking for the last line's start.
const CHUNK: u64 = 64 * 1024;

/// A torn last line that [`append_line`] moved out of a log before appending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetAside {
    /// The log.
    pub log: PathBuf,
    /// The side file now holding the line.
    pub side: PathBuf,
    /// The line's length in bytes.
    pub bytes: u64,
}

/// The one-line warning a caller prints.
impl fmt::Display for SetAside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: its last line was torn or unreadable ({} bytes); moved it to {} before appending",
            self.log.display(),
            self.bytes,
            self.side.display()
        )
    }
}

/// Appends `line` (which must end with a newline) to the log at `path`, creating it if missing,
/// as one synced write. First, a last line that lacks its newline or that `valid` refuses is
/// moved to a side file ([`SetAside`], returned so the caller can warn). Writers of the same
/// log take turns through an exclusive lock on it.
pub fn append_line(path: &Path, line: &[u8], valid: impl Fn(&[u8]) -> bool) -> Result<Option<SetAside>, Error> {
    assert!(line.ends_with(b"\n"), "a log line ends with its newline");
    let mut f = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(at(path))?;
    f.lock().map_err(at(path))?;
    let set_aside = set_aside_torn_tail(&mut f, path, valid)?;
    f.write_all(line).map_err(at(path))?;
    f.sync_data().map_err(at(path))?;
    Ok(set_aside)
}

/// Moves the log's last line to a side file and cuts it off, if it is torn or invalid.
fn set_aside_torn_tail(f: &mut File, path: &Path, valid: impl Fn(&[u8]) -> bool) -> Result<Option<SetAside>, Error> {
    let len = f.metadata().map_err(at(path))?.len();
    if len == 0 {
        return Ok(None);
    }
    let (start, tail) = last_line(f, len).map_err(at(path))?;
    let complete = tail.ends_with(b"\n");
    let text = tail.strip_suffix(b"\n").unwrap_or(&tail);
    let blank = text.iter().all(u8::is_ascii_whitespace);
    if complete && (blank || valid(text)) {
        return Ok(None);
    }
    let side = free_side_path(path);
    crate::write(&side, &tail)?;
    f.set_len(start).map_err(at(path))?;
    f.sync_data().map_err(at(path))?;
    Ok(Some(SetAside { log: path.to_path_buf(), side, bytes: tail.len() as u64 }))
}

/// Where the log's last line starts, and its bytes (with its newline, if it has one).
fn last_line(f: &mut File, len: u64) -> io::Result<(u64, Vec<u8>)> {
    let mut last = [0u8];
    f.seek(SeekFrom::Start(len - 1))?;
    f.read_exact(&mut last)?;
    // The line starts after the newline before its own final one.
    let mut end = if last[0] == b'\n' { len - 1 } else { len };
    let mut start = 0;
    while end > 0 {
        let from = end.saturating_sub(CHUNK);
        let mut chunk = vec![0; (end - from) as usize];
        f.seek(SeekFrom::Start(from))?;
        f.read_exact(&mut chunk)?;
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            start = from + i as u64 + 1;
            break;
        }
        end = from;
    }
    let mut line = vec![0; (len - start) as usize];
    f.seek(SeekFrom::Start(start))?;
    f.read_exact(&mut line)?;
    Ok((start, line))
}

/// The first side-file name not taken: `NAME.torn`, then `NAME.torn.2`, `NAME.torn.3`, ...
fn free_side_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(OsString::from).unwrap_or_default();
    name.push(".");
    name.push(TORN_EXTENSION);
    let first = path.with_file_name(&name);
    if !first.exists() {
        return first;
    }
    (2u64..)
        .map(|n| {
            let mut numbered = name.clone();
            numbered.push(format!(".{n}"));
            path.with_file_name(numbered)
        })
        .find(|p| !p.exists())
        .expect("some number is free")
}
