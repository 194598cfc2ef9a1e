//! Exact game-theoretic values by full search, to check the search against.

use std::collections::HashMap;

use rules::{Game, Player, MAX_PLAYERS};

/// How each mover chooses among children.
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// Every mover maximises its own score (for two players: negamax).
    MaxN,
    /// The given seat maximises its score, every other mover minimises it.
    Paranoid(Player),
}

/// The value vector of `game` under `rule`, ties to the first move in generation order.
pub fn value<G: Game>(game: &G, rule: Rule) -> [f32; MAX_PLAYERS] {
    solve(game, rule, &mut HashMap::new())
}

/// The moves at `game` whose value equals the best value for the mover under `rule`.
pub fn optimal_moves<G: Game>(game: &G, rule: Rule) -> Vec<G::Move> {
    let mut memo = HashMap::new();
    let mover = game.to_move();
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let scored: Vec<(G::Move, f32)> = moves
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play(mv);
            (mv, utility(&solve(&child, rule, &mut memo), mover, rule))
        })
        .collect();
    let best = scored.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
    scored.into_iter().filter(|s| (s.1 - best).abs() < 1e-6).map(|s| s.0).collect()
}

fn utility(v: &[f32; MAX_PLAYERS], mover: Player, rule: Rule) -> f32 {
    match rule {
        Rule::MaxN => v[mover],
        Rule::Paranoid(root) if root == mover => v[root],
        Rule::Paranoid(root) => -v[root],
    }
}

fn solve<G: Game>(game: &G, rule: Rule, memo: &mut HashMap<u64, [f32; MAX_PLAYERS]>) -> [f32; MAX_PLAYERS] {
    if let Some(v) = memo.get(&game.hash()) {
        return *v;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let v = if moves.is_empty() {
        let scores = game.outcome().expect("no moves, not over");
        let mut v = [0.0; MAX_PLAYERS];
        v[..scores.len()].copy_from_slice(scores.as_slice());
        v
    } else {
        let mover = game.to_move();
        let mut best: Option<[f32; MAX_PLAYERS]> = None;
        for mv in moves {
            let mut child = game.clone();
            child.play(mv);
            let v = solve(&child, rule, memo);
            if best.is_none_or(|b| utility(&v, mover, rule) > utility(&b, mover, rule)) {
                best = Some(v);
            }
        }
        best.unwrap()
    };
    memo.insert(game.hash(), v);
    v
}
