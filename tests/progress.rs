//! Progress that a run whose output goes to a file or a pipe (CI, `make train > log`, a Slurm
//! job) still shows: no terminal means no bar, so plain lines on stderr say how far it is.

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::{config_path, output_within, scratch};

/// The final evaluation says each match as it begins and ends, before its table: it played 600
/// games in silence for a minute and a half when each match took less than a progress line's
/// minute.
#[test]
fn the_final_evaluation_shows_progress_before_its_table_when_output_is_a_file() {
    let dir = scratch("progress-evaluation");
    let log_path = dir.join("log");
    let log = std::fs::File::create(&log_path).unwrap();
    let run = dir.join("run");
    let child = common::vzero_command()
        .args(["train", "--config", &config_path("mini-hexchess-tiny.toml"), "--run", run.to_str().unwrap()])
        .args(["--set", "training.iterations=1", "--set", "evaluation.games=2"])
        .stdout(Stdio::from(log.try_clone().unwrap()))
        .stderr(Stdio::from(log))
        .spawn()
        .unwrap();
    let out = output_within(child, Duration::from_secs(300), "the tiny run did not end");
    let text = std::fs::read_to_string(&log_path).unwrap();
    assert!(out.status.success(), "{text}");
    let table = text.find("network vs").unwrap_or_else(|| panic!("no evaluation table in:\n{text}"));
    for opponent in ["random", "mcts"] {
        let begun = format!("0/2 evaluation games vs {opponent} ");
        let ended = format!("2/2 evaluation games vs {opponent} ");
        let at = |line: &str| text.find(line).unwrap_or_else(|| panic!("no line '{line}' in:\n{text}"));
        assert!(at(&begun) < at(&ended) && at(&ended) < table, "progress after the table:\n{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
