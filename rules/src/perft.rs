//! Perft: counting the leaves of the legal-move tree, the standard check of move generators.

use crate::game::Game;

/// Leaves at `depth` plies below `game`. With `bulk`, the last ply is counted without playing
/// its moves (via [`Game::count_legal_moves`]).
pub fn perft<G: Game>(game: &G, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if bulk && depth == 1 {
        return game.count_legal_moves();
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut nodes = 0;
    for &mv in &moves {
        let mut child = game.clone();
        child.play(mv);
        nodes += perft(&child, depth - 1, bulk);
    }
    nodes
}

/// Perft split by root move: the move text and its leaf count, in generation order.
pub fn divide<G: Game>(game: &G, depth: u32, bulk: bool) -> Vec<(String, u64)> {
    assert!(depth >= 1, "divide needs depth >= 1");
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play(mv);
            (game.move_text(mv), perft(&child, depth - 1, bulk))
        })
        .collect()
}

/// Perft split across `threads` threads by root move; the same total as [`perft`].
pub fn perft_parallel<G: Game>(game: &G, depth: u32, bulk: bool, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(game, depth, bulk);
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut nodes = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&mv) = moves.get(i) else { break nodes };
                        let mut child = game.clone();
                        child.play(mv);
                        nodes += perft(&child, depth - 1, bulk);
                    }
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("perft worker panicked")).sum()
    })
}
