//! `vzero analyse`: the JSON object scripts read, checked against the rules, and the table.

mod common;

use common::vzero;
use rules::wellisch::Wellisch;
use rules::{Game, Glinski};

/// Runs `vzero analyse ARGS --json` and parses its one object.
fn analyse_json(args: &[&str]) -> serde_json::Value {
    let out = vzero(&[&["analyse"], args, &["--json"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.trim_end().lines().count(), 1, "one line of JSON:\n{text}");
    serde_json::from_str(&text).unwrap()
}

/// Checks the object against the position `game`: `k` legal moves, most visited first, visits
/// within the budget, each PV a legal line, and uniform-evaluator values summing to `total`.
fn check<G: Game>(json: &serde_json::Value, game: &G, sims: u64, k: usize, total: f64) {
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), k, "{json}");
    let visits: Vec<u64> = moves.iter().map(|m| m["visits"].as_u64().unwrap()).collect();
    assert!(visits.iter().sum::<u64>() <= sims, "{visits:?}");
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "most visited first: {visits:?}");
    assert_eq!(json["nodes"].as_u64(), Some(sims));
    assert_eq!(json["bestmove"], moves[0]["move"]);
    assert_eq!(json["to_move"].as_u64(), Some(game.to_move() as u64));
    assert_eq!(json["position"].as_str(), Some(game.to_text().as_str()));
    for m in moves {
        let prior = m["prior"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&prior), "{m}");
        let q = m["q"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&q), "{m}");
        let pv = m["pv"].as_array().unwrap();
        assert_eq!(pv[0], m["move"]);
        let mut line = game.clone();
        for mv in pv {
            let mv = line.parse_move(mv.as_str().unwrap()).unwrap_or_else(|e| panic!("{m}: {e}"));
            line.play(mv);
        }
        let values: Vec<f64> = m["values"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert!((values.iter().sum::<f64>() - total).abs() < 1e-3, "{m}");
        assert!((values[game.to_move()] - q).abs() < 1e-6, "q is the mover's value: {m}");
    }
    let values: Vec<f64> = json["values"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(values.len(), G::NUM_PLAYERS);
    assert!((values.iter().sum::<f64>() - total).abs() < 1e-3, "root values {values:?}");
}

#[test]
fn glinski_json_lists_the_best_legal_moves() {
    let json = analyse_json(&["--variant", "glinski", "--moves", "f5-f6 c7-c6", "--sims", "400", "--multipv", "4"]);
    let mut game = Glinski::start();
    for mv in ["f5-f6", "c7-c6"] {
        let mv = game.parse_move(mv).unwrap();
        game.play(mv);
    }
    check(&json, &game, 400, 4, 1.0);
    assert_eq!(json["variant"], "glinski");
    assert_eq!(json["sims"], 400);
}

#[test]
fn wellisch_json_from_position_text_has_three_values() {
    let start = Wellisch::start().to_text();
    let json = analyse_json(&["--variant", "wellisch", "--position", &start, "--moves", "D1-E1", "--sims", "300"]);
    let mut game = Wellisch::start();
    let mv = game.parse_move("D1-E1").unwrap();
    game.play(mv);
    check(&json, &game, 300, 3, 1.5);
}

#[test]
fn the_table_and_bad_input() {
    let out = vzero(&["analyse", "--variant", "mini-hexchess", "--sims", "50", "--multipv", "2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("50 nodes in "), "{text}");
    assert_eq!(text.lines().count(), 4, "header, column names, two moves:\n{text}");

    // Bad flag values are usage errors (exit 2), in every command.
    let out = vzero(&["analyse", "--variant", "glinski", "--moves", "f5-f6 f5-f4"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("move 2 ('f5-f4')") && err.lines().count() == 1, "{err}");
    let out = vzero(&["analyse", "--variant", "glinski", "--position", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("position 'nonsense'"));
}

/// The determinism the docs promise: with the shipped network in each precision and a fixed
/// `--leaves`, the same search twice gives the same visits and values; more leaves in flight
/// search differently (a bigger batch) but still find legal moves.
#[test]
fn a_fixed_leaf_count_searches_the_same_way_every_time() {
    let run = |leaves: &str, precision: &str| {
        let flags = ["--variant", "mini-hexchess", "--sims", "200", "--multipv", "5"];
        let json = analyse_json(&[&flags[..], &["--leaves", leaves, "--precision", precision]].concat());
        let moves: Vec<(String, u64, String)> = json["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].as_str().unwrap().to_string(), m["visits"].as_u64().unwrap(), m["q"].to_string()))
            .collect();
        moves
    };
    for precision in ["fp32", "auto"] {
        for leaves in ["1", "16"] {
            assert_eq!(run(leaves, precision), run(leaves, precision), "--leaves {leaves} --precision {precision}");
        }
    }
    let out = vzero(&["analyse", "--variant", "mini-hexchess", "--leaves", "0"]);
    assert_eq!(out.status.code(), Some(2), "--leaves 0 is a usage error");
}
