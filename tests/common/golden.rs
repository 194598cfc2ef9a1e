//! Expected outputs kept as files in tests/expected/ and compared whole, as KataGo keeps what
//! its commands print in cpp/tests/results/; `VZERO_RECORD=1` rewrites them instead.

use std::path::{Path, PathBuf};

/// The environment variable that, set to `1`, makes [`assert_golden`] record instead of compare.
pub const RECORD_VAR: &str = "VZERO_RECORD";

/// The command that re-records every expected file, for failure messages.
pub const RECORD_COMMAND: &str = "VZERO_RECORD=1 cargo test --release --test golden";

/// The path of the expected file `name` in tests/expected/.
pub fn expected_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected").join(name)
}

/// Whether this run re-records the expected files.
pub fn recording() -> bool {
    std::env::var_os(RECORD_VAR).is_some_and(|v| v == "1")
}

/// Checks `actual` against the expected file `name` whole, or writes it there when recording;
/// a mismatch fails with the first differing line.
pub fn assert_golden(name: &str, actual: &str) {
    if recording() {
        let path = expected_path(name);
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    if let Err(message) = compare_golden(name, actual) {
        panic!("{message}");
    }
}

/// Compares `actual` with the expected file `name`: an error names the file, the first
/// differing line and how to re-record.
pub fn compare_golden(name: &str, actual: &str) -> Result<(), String> {
    let path = expected_path(name);
    let expected = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e}; record it with {RECORD_COMMAND}", path.display()))?;
    match first_difference(&expected, actual) {
        None => Ok(()),
        Some(diff) => Err(format!(
            "{} differs from the output at {diff}\n(if the change is intended, re-record with {RECORD_COMMAND} and review the diff)",
            path.display()
        )),
    }
}

/// Where two texts first differ, as `line N, column C:` (C counts characters from 1; a long
/// JSON line needs it) with both lines quoted so that spaces show, or `None` if they are equal.
/// A missing line (one text is shorter) reads `(no line)`.
pub fn first_difference(expected: &str, actual: &str) -> Option<String> {
    let (mut want, mut got) = (expected.split('\n'), actual.split('\n'));
    for number in 1.. {
        match (want.next(), got.next()) {
            (None, None) => return None,
            (w, g) if w == g => continue,
            (w, g) => {
                let (w_chars, g_chars) = (w.unwrap_or("").chars(), g.unwrap_or("").chars());
                let column = 1 + w_chars.zip(g_chars).take_while(|(a, b)| a == b).count();
                let show = |line: Option<&str>| line.map_or_else(|| "(no line)".to_string(), |l| format!("{l:?}"));
                return Some(format!(
                    "line {number}, column {column}:\n  expected: {}\n  actual:   {}",
                    show(w),
                    show(g)
                ));
            }
        }
    }
    unreachable!("the loop returns when both texts end")
}
