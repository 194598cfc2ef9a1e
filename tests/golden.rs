//! Golden outputs: the whole standard output of `vzero variants`, `perft --divide` (one position
//! per variant), `analyse --model none --json` and `gauntlet --table-only`, compared with the
//! files in tests/expected/ line by line; a mismatch names the first differing line.
//!
//! Re-record on purpose, then review the change with `git diff tests/expected/`:
//! `VZERO_RECORD=1 cargo test --release --test golden` rewrites every expected file.
//!
//! Normalisation: `analyse --json`'s `time_ms` (the search's wall time) is replaced by `MASKED`;
//! nothing else varies from run to run (one search thread, the uniform evaluator). The gauntlet
//! table is printed by `--table-only` from a run directory made of a shipped config and the
//! fixed results of tests/fixtures/gauntlet-metrics.jsonl (a real tiny run's iterations and
//! gauntlet with `--each-other`, plus one match cut short by hand to show the partial-row
//! footnote), so its timing columns (`trained`, `ms/move`) are fixed too and stay unmasked.

mod common;

use common::golden::{assert_golden, compare_golden, expected_path, first_difference, recording, RECORD_COMMAND};
use common::{config_path, scratch, stderr_of, stdout_of, vzero};

/// The standard output of a successful `vzero ARGS`.
fn stdout_of_success(args: &[&str]) -> String {
    let out = vzero(args);
    assert!(out.status.success(), "vzero {args:?}: {}", stderr_of(&out));
    stdout_of(&out)
}

#[test]
fn variants() {
    assert_golden("variants.txt", &stdout_of_success(&["variants"]));
}

/// `perft --divide` runs: (expected file, arguments); each well under a second.
const DIVIDES: [(&str, &[&str]); 4] = [
    ("perft-divide-glinski.txt", &["perft", "glinski", "2", "--divide", "--moves", "f5-f6 c7-c6"]),
    ("perft-divide-mini-hexchess.txt", &["perft", "mini-hexchess", "3", "--divide"]),
    ("perft-divide-wellisch.txt", &["perft", "wellisch", "2", "--divide", "--moves", "D2-E4 D8-C6"]),
    ("perft-divide-weltschach.txt", &["perft", "weltschach", "2", "--divide", "--moves", "vd3-vd4"]),
];

#[test]
fn perft_divide() {
    for (name, args) in DIVIDES {
        assert_golden(name, &stdout_of_success(args));
    }
}

/// `analyse --json` runs: (expected file, arguments). `--tactics` gives the uniform evaluator's
/// leaves values other than a draw, so that values and q differ between moves.
const ANALYSES: [(&str, &[&str]); 2] = [
    (
        "analyse-glinski.json",
        &["--variant", "glinski", "--moves", "f5-f6 c7-c6", "--sims", "200", "--multipv", "4", "--tactics", "0.5"],
    ),
    ("analyse-wellisch.json", &["--variant", "wellisch", "--sims", "100", "--multipv", "3"]),
];

#[test]
fn analyse_json() {
    for (name, args) in ANALYSES {
        let out = stdout_of_success(&[&["analyse", "--model", "none", "--json"], args].concat());
        assert_golden(name, &mask_number(&out, "time_ms"));
    }
}

/// `text` with the number after each `"FIELD":` replaced by `MASKED`.
fn mask_number(text: &str, field: &str) -> String {
    let key = format!("\"{field}\":");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&key) {
        let (before, after) = rest.split_at(at + key.len());
        out.push_str(before);
        out.push_str("MASKED");
        rest = after.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    }
    out.push_str(rest);
    out
}

#[test]
fn gauntlet_table() {
    let run = scratch("golden-gauntlet");
    std::fs::copy(config_path("mini-hexchess-tiny.toml"), run.join("config.toml")).unwrap();
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/gauntlet-metrics.jsonl");
    std::fs::copy(fixture, run.join("metrics.jsonl")).unwrap();
    let out = stdout_of_success(&["gauntlet", run.to_str().unwrap(), "--table-only", "--sims", "4"]);
    assert_golden("gauntlet-table.txt", &out);
    std::fs::remove_dir_all(run).unwrap();
}

#[test]
fn a_changed_character_fails_naming_its_line() {
    if recording() {
        return; // the files are being rewritten; there is nothing to compare yet
    }
    let expected = std::fs::read_to_string(expected_path("variants.txt")).unwrap();
    let line = expected.lines().nth(2).unwrap();
    let changed = expected.replacen(line, &line.replacen('W', "w", 1), 1);
    assert_ne!(changed, expected);
    let err = compare_golden("variants.txt", &changed).unwrap_err();
    assert!(err.contains("variants.txt differs from the output at line 3, column 16:"), "{err}");
    assert!(err.contains(line) && err.contains(RECORD_COMMAND), "{err}");
}

#[test]
fn first_difference_shows_both_lines_or_the_missing_one() {
    assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
    assert_eq!(
        first_difference("a\nbcd\n", "a\nbxd\n").unwrap(),
        "line 2, column 2:\n  expected: \"bcd\"\n  actual:   \"bxd\""
    );
    assert_eq!(
        first_difference("a\n", "a\nextra\n").unwrap(),
        "line 2, column 1:\n  expected: \"\"\n  actual:   \"extra\""
    );
    assert_eq!(first_difference("a\n", "a").unwrap(), "line 2, column 1:\n  expected: \"\"\n  actual:   (no line)");
}

#[test]
fn masking_replaces_only_the_named_number() {
    let text = r#"{"nodes":200,"time_ms":17,"x":{"time_ms":3.5}}"#;
    assert_eq!(mask_number(text, "time_ms"), r#"{"nodes":200,"time_ms":MASKED,"x":{"time_ms":MASKED}}"#);
}
