//! `vzero bench mcts`'s second part: what each tactical lever of the search costs, with the
//! uniform evaluator and the alpha-beta judge, in microseconds per simulation and milliseconds
//! a move (microseconds per simulation times the simulations) at 64 and 400 simulations, over
//! positions along one game (its start and the positions `alphabeta:1` reaches against itself
//! after 10 and 20 plies), the judge keeping its values along the game as a player's does.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use alphabeta::tactical_evaluator_with;
use mcts::{run_until, Evaluator, MoveChoice, Search, SearchParams, Tactics, UniformEvaluator, Until, MAX_TREE_EDGES};
use rules::FullGame;

use super::tactics_bench::midgame_positions;

/// Plies at which the benchmark's positions are taken from the `alphabeta:1` game.
const PLIES: [usize; 3] = [0, 10, 20];

/// The lever sets measured, each named as the arena names it.
fn lever_sets() -> Vec<(&'static str, Tactics)> {
    let off = Tactics::off;
    vec![
        ("off", off()),
        ("--tactics 1", Tactics { tactics_weight: 1.0, ..off() }),
        ("prior", Tactics { tactical_prior: 1.0, ..off() }),
        ("prior+value", Tactics { tactical_prior: 1.0, tactical_value: 1.0, ..off() }),
        ("minimax", Tactics { minimax_weight: 0.5, ..off() }),
        ("lcb", Tactics { choice: MoveChoice::Lcb, ..off() }),
        ("default", Tactics::default()),
    ]
}

/// Wall time after which one position's search stops (Weltschach's judge takes seconds a move):
/// its cost per simulation is then read from the simulations done.
const CAP: Duration = Duration::from_millis(500);

/// Simulations added to a search between two looks at the clock.
const CHUNK: u32 = 4;

/// Prints one line per lever set and budget for `G`.
pub fn lever_bench<G: FullGame>() {
    let positions = midgame_positions::<G>(&PLIES);
    for (name, tactics) in lever_sets() {
        let mut line = format!("  {:<12}", name);
        for simulations in [64, 400] {
            // A player's judge keeps its values along a game: one cache for the positions, a
            // fresh one for each budget, whose searches would find the last one's positions.
            let evaluator = tactical_evaluator_with(&tactics, UniformEvaluator, None, Arc::default());
            let params = SearchParams::playing(simulations, &tactics);
            // The mean over the positions of each one's cost per simulation.
            let (mut micros, mut capped) = (0.0, false);
            for p in &positions {
                let (cost, stopped) = micros_per_simulation(p, &params, &evaluator);
                micros += cost / positions.len() as f64;
                capped |= stopped;
            }
            line += &format!(
                "  {simulations} sims: {micros:>9.2} us/sim {:>9.2} ms/move{}",
                micros * simulations as f64 / 1e3,
                if capped { " (capped)" } else { "  " }
            );
        }
        println!("{line}");
    }
    threads_line::<G>(&positions);
}

/// Simulations the default search makes per second of wall time over `positions` with one
/// thread and with two sharing its tree (virtual loss, [`Search::run_parallel`]), and their
/// ratio: what a game's search gains from a second core.
fn threads_line<G: FullGame>(positions: &[G]) {
    let tactics = Tactics::default();
    let mut line = format!("  {:<12}", "threads");
    let mut rates = Vec::new();
    for threads in [1, 2] {
        let evaluator = tactical_evaluator_with(&tactics, UniformEvaluator, None, Arc::default());
        let mut params = SearchParams::playing(THREADS_SIMULATIONS, &tactics);
        params.max_in_flight *= threads as u32;
        let (mut visits, mut seconds) = (0u64, 0.0);
        for p in positions {
            let began = Instant::now();
            let mut search = Search::new(p.clone(), params.clone(), 0);
            let deadline = Some(began + CAP);
            let until =
                Until { visits: THREADS_SIMULATIONS, deadline, stop: None, early: false, max_edges: MAX_TREE_EDGES };
            run_until(&mut search, &evaluator, threads, &until, |_| ControlFlow::Continue(()));
            visits += u64::from(search.tree().root().visits);
            seconds += began.elapsed().as_secs_f64();
        }
        let rate = visits as f64 / seconds.max(1e-9);
        rates.push(rate);
        line += &format!("  {threads} thread{}: {rate:>9.0} sims/s", if threads == 1 { " " } else { "s" });
    }
    println!("{line}  ratio {:.2} (default levers, {THREADS_SIMULATIONS} sims)", rates[1] / rates[0].max(1e-9));
}

/// Simulations of each search in the threads line: enough for both threads to stay busy.
const THREADS_SIMULATIONS: u32 = 400;

/// Searches `position` to `params.simulations` (in chunks, stopping at [`CAP`]): microseconds
/// per root visit made, and whether the cap stopped it.
fn micros_per_simulation<G: FullGame, E: Evaluator<G>>(
    position: &G,
    params: &SearchParams,
    evaluator: &E,
) -> (f64, bool) {
    let began = Instant::now();
    let mut search = Search::new(position.clone(), params.clone(), 0);
    let mut target = 0;
    let mut capped = false;
    while target < params.simulations && !capped {
        target = (target + CHUNK).min(params.simulations);
        search.set_params(SearchParams { simulations: target, ..params.clone() });
        search.run(evaluator);
        capped = began.elapsed() > CAP && target < params.simulations;
    }
    let visits = search.tree().root().visits.max(1);
    (1e6 * began.elapsed().as_secs_f64() / f64::from(visits), capped)
}
