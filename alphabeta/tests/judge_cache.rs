//! The judge cache changes no value: judged moves come out the same with a cache as without,
//! whether the cache is cold or holds the positions already, and a search with it grows the
//! same tree; a position that a draw rule looking at the history has ended is never keyed.

use std::sync::Arc;

use alphabeta::{move_values, move_values_cached, tactical_evaluator, tactical_evaluator_with, JudgeCache};
use mcts::{Evaluator, Search, SearchParams, Tactics};
use rules::{Game, Glinski, Material, MiniHexchess};

/// Positions of a few games of pseudo-random moves (a fixed generator), `plies` plies each.
fn positions<G: Game>(games: u64, plies: usize) -> Vec<G> {
    let mut out = Vec::new();
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    for _ in 0..games {
        let mut game = G::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(game.clone());
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            game.play(moves[(state >> 33) as usize % moves.len()]);
        }
    }
    out
}

/// Every position's judged moves, with `cache` and without, are equal; returns how many of
/// the judged positions the cache then holds with the value found for them.
fn cached_values_are_exact<G: Material>(positions: &[G], cache: &JudgeCache) -> usize {
    let mut held = 0;
    for game in positions {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let (mut plain, mut cached) = (vec![0; moves.len()], vec![0; moves.len()]);
        move_values(game, &moves, 0, &mut plain, None);
        move_values_cached(game, &moves, 0, &mut cached, None, cache);
        assert_eq!(plain, cached, "{}", game.to_text());
        for (&mv, &value) in moves.iter().zip(&plain) {
            let mut next = game.clone();
            next.play(mv);
            let key = next.judge_key().map(|k| JudgeCache::key(k, moves.len() as u32));
            held += usize::from(key.and_then(|k| cache.probe(k)) == Some(value));
        }
    }
    held
}

#[test]
fn judged_moves_are_the_same_with_a_cache_cold_or_warm() {
    let cache = JudgeCache::new();
    let mini = positions::<MiniHexchess>(6, 40);
    let held = cached_values_are_exact(&mini, &cache);
    assert!(held > 1000, "the cache keeps what it found: {held}");
    // Warm: each position again, now answered from the cache where it still holds them.
    cached_values_are_exact(&mini, &cache);
    let glinski = positions::<Glinski>(3, 40);
    let cache = JudgeCache::new();
    assert!(cached_values_are_exact(&glinski, &cache) > 1000);
    cached_values_are_exact(&glinski, &cache);
}

/// The root's visit counts of a deterministic 400-simulation default search of `game`.
fn root_visits<G: Material, E: Evaluator<G>>(game: &G, evaluator: &E) -> Vec<u32> {
    let mut search = Search::new(game.clone(), SearchParams::playing(400, &Tactics::default()), 3);
    search.run(evaluator);
    search.result().expect("the position has moves").visits
}

#[test]
fn a_search_grows_the_same_tree_with_the_cache() {
    let tactics = Tactics::default();
    for game in [MiniHexchess::start(), positions::<MiniHexchess>(1, 21).pop().unwrap()] {
        let plain = root_visits(&game, &tactical_evaluator(&tactics, mcts::UniformEvaluator));
        let cache = Arc::new(JudgeCache::new());
        let cached = tactical_evaluator_with(&tactics, mcts::UniformEvaluator, None, Arc::clone(&cache));
        assert_eq!(root_visits(&game, &cached), plain, "cold");
        assert_eq!(root_visits(&game, &cached), plain, "warm: every position judged before");
    }
}

#[test]
fn a_position_a_repetition_ended_has_no_key() {
    let mut game = Glinski::start();
    assert_eq!(game.judge_key(), Some(game.hash()));
    for _ in 0..2 {
        for text in ["d1-f4", "d9-f8", "f4-d1", "f8-d9"] {
            let mv = game.parse_move(text).unwrap();
            game.play(mv);
        }
    }
    assert!(game.outcome().is_some(), "drawn by repetition");
    assert_eq!(game.hash(), Glinski::start().hash(), "the start's position, with another history");
    assert_eq!(game.judge_key(), None);
}

#[test]
fn a_position_the_quiet_move_count_ended_has_no_key() {
    // The start with 99 quiet plies behind it: one more ends the game.
    let start = Glinski::start().to_text();
    let mut fields: Vec<&str> = start.split(' ').collect();
    fields[3] = "99";
    let mut game = Glinski::from_text(&fields.join(" ")).unwrap();
    assert_eq!(game.judge_key(), Some(game.hash()));
    game.play(game.parse_move("d1-f4").unwrap());
    assert!(game.outcome().is_some(), "drawn by the quiet-move count");
    assert_eq!(game.judge_key(), None);
}
