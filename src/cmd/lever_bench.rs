//! `vzero bench mcts`'s second part: what each tactical lever of the search costs, with the
//! uniform evaluator and the alpha-beta judge, in microseconds per simulation and milliseconds
//! a move at 64 and 400 simulations, over positions along one game (its start and the positions
//! `alphabeta:1` reaches against itself after 10 and 20 plies).

use std::time::Instant;

use alphabeta::{SearchLimits, Tactics};
use mcts::{MoveChoice, Search, SearchParams, TreeTactics, UniformEvaluator};
use rules::FullGame;

/// Plies at which the benchmark's positions are taken from the `alphabeta:1` game.
const PLIES: [usize; 3] = [0, 10, 20];

/// The lever sets measured, each named as the arena names it.
fn lever_sets() -> Vec<(&'static str, Tactics)> {
    let tree = |t: TreeTactics| Tactics { tree: t, ..Tactics::default() };
    let off = TreeTactics::default();
    vec![
        ("off", Tactics::default()),
        ("--tactics 1", Tactics { weight: 1.0, ..Tactics::default() }),
        ("prior", tree(TreeTactics { prior: 1.0, ..off })),
        ("prior+value", tree(TreeTactics { prior: 1.0, value: 1.0, ..off })),
        ("minimax", tree(TreeTactics { minimax: 0.5, ..off })),
        ("lcb", tree(TreeTactics { choice: MoveChoice::Lcb, ..off })),
        ("default", tree(TreeTactics::recommended())),
    ]
}

/// The benchmark's positions for `G` (fewer where the game ends sooner).
fn positions<G: FullGame>() -> Vec<G> {
    let mut game = G::start();
    let mut out = Vec::new();
    for ply in 0..=*PLIES.last().expect("plies") {
        if PLIES.contains(&ply) {
            out.push(game.clone());
        }
        match alphabeta::search(&game, &SearchLimits::depth(1), ply as u64) {
            Some(outcome) => game.play(outcome.best),
            None => break,
        }
    }
    out
}

/// Prints one line per lever set and budget for `G`.
pub fn lever_bench<G: FullGame>() {
    let positions = positions::<G>();
    for (name, tactics) in lever_sets() {
        let evaluator = tactics.blend(UniformEvaluator);
        let mut line = format!("  {:<12}", name);
        for simulations in [64, 400] {
            let mut params = SearchParams::analysis(simulations);
            tactics.apply_to(&mut params);
            let (mut visits, began) = (0u64, Instant::now());
            for p in &positions {
                let mut search = Search::new(p.clone(), params.clone(), 0);
                search.run(&evaluator);
                visits += u64::from(search.tree().root().visits);
            }
            let seconds = began.elapsed().as_secs_f64();
            line += &format!(
                "  {simulations} sims: {:>8.2} us/sim {:>8.2} ms/move",
                1e6 * seconds / visits.max(1) as f64,
                1e3 * seconds / positions.len() as f64
            );
        }
        println!("{line}");
    }
}
