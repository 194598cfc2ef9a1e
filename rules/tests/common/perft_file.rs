//! The perft reference files of rules/tests/perft/ (one `VARIANT.perft` per variant): their
//! entries of `id`, `position`, `source` and `perft DEPTH LEAVES` lines, parsed with errors that
//! name the line.

use std::path::{Path, PathBuf};

/// One position of a perft file and its reference leaf counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftEntry {
    /// A name unique in its file; `start` is the variant's start position.
    pub id: String,
    /// The position in the variant's text format, as `to_text` writes it.
    pub position: String,
    /// Where the counts come from (a spec page, an outside program, or this implementation).
    pub source: String,
    /// (depth, leaves) in file order.
    pub counts: Vec<(u32, u64)>,
}

/// The folder holding the perft files.
pub fn perft_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft")
}

/// The entries of the perft file at `path`; panics naming the file and line if it is malformed.
pub fn read_perft_file(path: &Path) -> Vec<PerftEntry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_perft(&text).unwrap_or_else(|e| panic!("{}:{e}", path.display()))
}

/// Parses perft file text: blank lines and `#` comments are skipped, `id NAME` opens an entry,
/// which then needs one `position TEXT`, one `source TEXT` and at least one `perft DEPTH LEAVES`.
pub fn parse_perft(text: &str) -> Result<Vec<PerftEntry>, String> {
    let mut entries: Vec<PerftEntry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: &str| format!("{}: {what}: '{line}'", i + 1);
        let (key, value) = line.split_once(' ').map_or((line, ""), |(k, v)| (k, v.trim()));
        if value.is_empty() {
            return Err(at("a key needs a value"));
        }
        if key == "id" {
            if entries.iter().any(|e| e.id == value) {
                return Err(at("a second entry with this id"));
            }
            if let Some(last) = entries.last() {
                complete(last).map_err(|e| at(&e))?;
            }
            entries.push(PerftEntry {
                id: value.into(),
                position: String::new(),
                source: String::new(),
                counts: vec![],
            });
            continue;
        }
        let entry = entries.last_mut().ok_or_else(|| at("a line before the first `id`"))?;
        match key {
            "position" => set_once(&mut entry.position, value).map_err(|e| at(&e))?,
            "source" => set_once(&mut entry.source, value).map_err(|e| at(&e))?,
            "perft" => entry.counts.push(depth_and_leaves(value).ok_or_else(|| at("expected `perft DEPTH LEAVES`"))?),
            _ => return Err(at("unknown key (expected id, position, source or perft)")),
        }
    }
    match entries.last() {
        Some(last) => complete(last).map_err(|e| format!("end: {e}"))?,
        None => return Err("end: no entries".into()),
    }
    Ok(entries)
}

/// Fills an entry's field that may be given once.
fn set_once(field: &mut String, value: &str) -> Result<(), String> {
    if !field.is_empty() {
        return Err("given twice in one entry".into());
    }
    *field = value.into();
    Ok(())
}

/// `DEPTH LEAVES` as two unsigned numbers.
fn depth_and_leaves(value: &str) -> Option<(u32, u64)> {
    let mut words = value.split_whitespace();
    let pair = (words.next()?.parse().ok()?, words.next()?.parse().ok()?);
    words.next().is_none().then_some(pair)
}

/// Checks that an entry has everything a perft check needs.
fn complete(entry: &PerftEntry) -> Result<(), String> {
    let missing = [("position", entry.position.is_empty()), ("source", entry.source.is_empty())];
    if let Some((key, _)) = missing.iter().find(|(_, empty)| *empty) {
        return Err(format!("entry '{}' has no `{key}`", entry.id));
    }
    if entry.counts.is_empty() {
        return Err(format!("entry '{}' has no `perft` line", entry.id));
    }
    Ok(())
}
