//! The yardstick does not move: on fixed positions of Glinski, Mini Hexchess and Wellisch, the
//! quiescence value, every move's judged value and the depth-1 and depth-2 searches (value, best
//! move and nodes) equal those recorded in tests/expected/yardstick.txt. (The judged values on
//! the hex boards were recorded again when the judge began listing captures alone; the
//! searches' lines did not change.) Every strength figure in
//! the docs is measured against `alphabeta:D`, so a change to the search that is meant to be
//! cheaper elsewhere (Weltschach's quiescence) must leave these three boards exactly as they were.
//! `VZERO_RECORD=1 cargo test --release -p alphabeta --test yardstick` rewrites the file, for a
//! change that is meant to move the yardstick (and re-measure docs/alphabeta.md's tables).

use std::fmt::Write;
use std::path::Path;

use alphabeta::{move_values, quiescence_value, search, SearchLimits};
use rules::wellisch::Wellisch;
use rules::{Game, Glinski, Material, MiniHexchess};

/// Positions per variant: the start and points along seeded random games.
const POSITIONS: usize = 8;

/// A small deterministic generator, so the positions never depend on another crate's choices.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *state >> 33
}

/// The start and `POSITIONS - 1` positions reached by random moves, none finished.
fn positions<G: Game>(seed: u64) -> Vec<G> {
    let mut found = vec![G::start()];
    let mut state = seed;
    let mut moves = Vec::new();
    while found.len() < POSITIONS {
        let mut game = G::start();
        let plies = 4 + next(&mut state) % 40;
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play(moves[(next(&mut state) % moves.len() as u64) as usize]);
        }
        game.legal_moves(&mut moves);
        if !moves.is_empty() {
            found.push(game);
        }
    }
    found
}

/// Every number the yardstick gives on `G`'s positions, one line each.
fn describe<G: Material>(seed: u64, out: &mut String) {
    let mut moves = Vec::new();
    for game in positions::<G>(seed) {
        writeln!(out, "{} {}", G::NAME, game.to_text()).unwrap();
        writeln!(out, "  quiescence {}", quiescence_value(&game)).unwrap();
        game.legal_moves(&mut moves);
        let mut values = vec![0; moves.len()];
        move_values(&game, &moves, 0, &mut values, None);
        writeln!(out, "  move values {values:?}").unwrap();
        for depth in 1..=2 {
            let found = search(&game, &SearchLimits::depth(depth), 3).unwrap();
            let best = game.move_text(found.best);
            writeln!(out, "  depth {depth}: {best} value {} nodes {}", found.value, found.nodes).unwrap();
        }
    }
}

#[test]
fn the_hex_boards_search_exactly_as_recorded() {
    let mut text = String::new();
    describe::<Glinski>(11, &mut text);
    describe::<MiniHexchess>(12, &mut text);
    describe::<Wellisch>(13, &mut text);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/yardstick.txt");
    if std::env::var_os("VZERO_RECORD").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("tests/expected/yardstick.txt is recorded");
    for (line, (got, want)) in text.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "line {} of yardstick.txt differs", line + 1);
    }
    assert_eq!(text.lines().count(), expected.lines().count(), "yardstick.txt has another number of lines");
}

/// The judge's values (captures alone from the first ply) against each move's full quiescence
/// value, listing every move at every node: equal for decided games (mates), and otherwise
/// apart by the mobility term alone, 1 cp a legal move of difference between the judge's
/// node and the nodes below it.
fn judge_against_full<G: Material>(seed: u64) -> i32 {
    let mut moves = Vec::new();
    let mut widest = 0;
    for game in positions::<G>(seed) {
        game.legal_moves(&mut moves);
        let mut values = vec![0; moves.len()];
        move_values(&game, &moves, 0, &mut values, None);
        for (&mv, &judged) in moves.iter().zip(&values) {
            let mut next = game.clone();
            next.play(mv);
            let full = if next.outcome().is_some() { judged } else { -quiescence_value(&next) };
            let decided = |v: i32| v.abs() > alphabeta::MATE / 4;
            assert_eq!(
                decided(judged),
                decided(full),
                "{} in {}: {judged} against {full}",
                game.move_text(mv),
                game.to_text()
            );
            widest = widest.max((judged - full).abs());
        }
    }
    widest
}

#[test]
fn the_judge_differs_from_the_full_quiescence_by_the_mobility_term_alone() {
    // 68 cp when recorded: the capture sequences' movers' counts against the judged node's.
    let widest = judge_against_full::<Glinski>(11).max(judge_against_full::<MiniHexchess>(12));
    assert!(widest <= 100, "the judge's values are {widest} cp from the full quiescence's");
}
