//! `vzero runs endings` names how each game ended: games of known endings (a threefold
//! repetition, the move limit, a resignation) land in the right group and column, the teacher's
//! apart, and `--json` carries the same counts.

mod common;

use std::path::PathBuf;

use common::{tiny_run, vzero};
use rules::hexchess::MiniHexchess;
use rules::{Encoding, Game};
use selfplay::replay::{write_shard, GameRecord, MoveRecord, TEACHER_GAME};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("vzero-endings-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Game `number` of Mini Hexchess from its start, playing `moves` (move texts), with `scores`.
fn game(number: u64, moves: &[&str], scores: [f32; 2]) -> GameRecord {
    let mut position = MiniHexchess::start();
    let mut record = GameRecord {
        variant: MiniHexchess::NAME.into(),
        number,
        start: position.to_text(),
        moves: Vec::new(),
        scores: scores.to_vec(),
    };
    for text in moves {
        let mv = position.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let played = position.policy_index(mv) as u32;
        record.moves.push(MoveRecord { played, visits: vec![(played, 1)], policy_target: true, root_value: None });
        position.play(mv);
    }
    record
}

/// Knights out and back twice: the start position stands for the third time after 8 plies.
const REPETITION: [&str; 8] = ["c1-a2", "e6-d4", "a2-c1", "d4-e6", "c1-a2", "e6-d4", "a2-c1", "d4-e6"];

/// Six plies that end nothing (the start position stands twice, not three times).
const SIX_QUIET: [&str; 6] = ["c1-a2", "e6-d4", "a2-c1", "d4-e6", "c1-d4", "e6-g3"];

#[test]
fn games_are_grouped_and_named_by_how_they_ended() {
    let run = fresh_dir("known");
    tiny_run(&run);
    for entry in std::fs::read_dir(run.join("replay")).unwrap() {
        std::fs::remove_file(entry.unwrap().path()).unwrap();
    }
    // mini-hexchess-tiny.toml: 8 games an iteration; the move limit is set to 6 plies below.
    let config = std::fs::read_to_string(run.join("config.toml")).unwrap();
    let config = config.replace("max_plies = 60", "max_plies = 6");
    assert!(config.contains("max_plies = 6\n"), "the tiny config's move limit moved: {config}");
    std::fs::write(run.join("config.toml"), config).unwrap();
    let games = [
        game(0, &REPETITION, [0.5, 0.5]),
        game(1, &SIX_QUIET, [0.5, 0.5]),
        game(2, &REPETITION[..3], [0.0, 1.0]),
        game(8, &REPETITION, [0.5, 0.5]),
        game(TEACHER_GAME | 3, &REPETITION[..5], [1.0, 0.0]),
    ];
    write_shard(&run.join("replay/1000000000000-test-1-000001.shard"), &games).unwrap();

    let out = vzero(&["runs", "endings", run.to_str().unwrap(), "--every", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let row = |name: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("no {name} row: {text}"));
        line[name.len()..].split_whitespace().map(str::to_string).collect()
    };
    assert_eq!(row("games"), ["count", "plies", "draws", "move", "limit", "repetition", "resigned"], "{text}");
    // count, mean plies, draw share, then move limit, repetition, resigned.
    assert_eq!(row("teacher"), ["1", "5", "0%", "0", "0", "1"], "{text}");
    assert_eq!(row("iterations 1-1"), ["3", "6", "67%", "1", "1", "1"], "{text}");
    assert_eq!(row("iterations 2-2"), ["1", "8", "100%", "0", "1", "0"], "{text}");

    let out = vzero(&["runs", "endings", run.to_str().unwrap(), "--every", "1", "--json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let groups = json["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 3);
    assert_eq!(groups[1]["games"], "iterations 1-1");
    assert_eq!(groups[1]["endings"]["repetition"], 1);
    assert_eq!(groups[1]["endings"]["move limit"], 1);
    assert_eq!(groups[1]["draws"], 2);
}

#[test]
fn a_folder_without_a_run_is_refused_by_name() {
    let dir = fresh_dir("none");
    std::fs::create_dir_all(&dir).unwrap();
    let out = vzero(&["runs", "endings", dir.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a run directory"), "{err}");
}
