//! Append-only logs: a torn last line (a crash or a full disk cut it short) is set aside whole
//! before the next line goes in, so the next record is not glued onto it and lost.

use std::fs;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-durable-log-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// A line is valid when it is a `{...}` record, as a JSON object line would be.
fn braced(line: &[u8]) -> bool {
    line.starts_with(b"{") && line.ends_with(b"}")
}

fn append(path: &Path, line: &str) -> Option<durable::SetAside> {
    durable::append_line(path, line.as_bytes(), braced).unwrap()
}

#[test]
fn lines_append_to_a_sound_log_and_create_a_missing_one() {
    let dir = scratch("sound");
    let log = dir.join("metrics.jsonl");
    assert_eq!(append(&log, "{1}\n"), None);
    assert_eq!(append(&log, "{2}\n"), None);
    fs::write(&log, "{1}\n{2}\n\n").unwrap();
    assert_eq!(append(&log, "{3}\n"), None, "a blank last line is no torn line");
    assert_eq!(fs::read_to_string(&log).unwrap(), "{1}\n{2}\n\n{3}\n");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no side file, no temporary");
}

#[test]
fn a_torn_last_line_is_moved_to_a_side_file_before_appending() {
    let dir = scratch("torn");
    let log = dir.join("metrics.jsonl");
    fs::write(&log, "{1}\n{2}\n{3 cut sh").unwrap();
    let set_aside = append(&log, "{4}\n").expect("the torn line is reported");
    assert_eq!(set_aside.side, dir.join("metrics.jsonl.torn"));
    assert_eq!(set_aside.bytes, 9);
    assert_eq!(fs::read_to_string(&log).unwrap(), "{1}\n{2}\n{4}\n");
    assert_eq!(fs::read_to_string(&set_aside.side).unwrap(), "{3 cut sh");
    let warning = set_aside.to_string();
    assert!(warning.contains("metrics.jsonl.torn") && !warning.contains('\n'), "{warning}");

    // A second tear keeps the first side file and takes the next name; a torn only line too.
    fs::write(&log, "{5").unwrap();
    let again = append(&log, "{6}\n").unwrap();
    assert_eq!(again.side, dir.join("metrics.jsonl.torn.2"));
    assert_eq!(fs::read_to_string(&log).unwrap(), "{6}\n");
    assert_eq!(fs::read_to_string(&set_aside.side).unwrap(), "{3 cut sh");
}

#[test]
fn an_unreadable_complete_last_line_is_set_aside_too() {
    let dir = scratch("invalid");
    let log = dir.join("out.jsonl");
    fs::write(&log, "{1}\nnot a record\n").unwrap();
    let set_aside = append(&log, "{2}\n").unwrap();
    assert_eq!(fs::read_to_string(&set_aside.side).unwrap(), "not a record\n");
    assert_eq!(fs::read_to_string(&log).unwrap(), "{1}\n{2}\n");
}

#[test]
fn a_long_torn_line_is_found_across_read_chunks() {
    let dir = scratch("long");
    let log = dir.join("metrics.jsonl");
    let long = format!("{{{}", "x".repeat(200_000));
    fs::write(&log, format!("{{1}}\n{long}")).unwrap();
    let set_aside = append(&log, "{2}\n").unwrap();
    assert_eq!(set_aside.bytes, long.len() as u64);
    assert_eq!(fs::read_to_string(&log).unwrap(), "{1}\n{2}\n");
}
