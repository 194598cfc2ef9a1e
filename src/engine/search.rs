//! The search run in chunks: the visit target is raised a chunk at a time on the same tree
//! (`Search::set_params` then `run` again continues where it stopped), and between chunks the
//! stop flag, the clock, the node budget and the tree's size are checked and progress reported.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use alphabeta::tactical_evaluator_until;
use mcts::{Evaluator, Search, SearchParams, Tactics};
use rules::Material;

use super::analysis::{analysis_of, Analysis};
use super::limits::{Limits, MAX_EDGES};

/// How a search runs, apart from when it stops.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSettings {
    /// Threads sharing the tree.
    pub threads: usize,
    /// Root moves to report.
    pub multipv: usize,
    /// Leaves in flight per thread (`None`: analysis's, [`SearchParams::analysis`]).
    pub leaves: Option<u32>,
    /// How the search uses the tactical judge (`Tactics::default()`: the default search).
    pub tactics: Tactics,
    /// Interval of the progress reports while searching ([`INFO_EVERY`] for the engine
    /// protocol; the browser page asks for more).
    pub info_every: Duration,
}

/// How long one chunk should take: short enough that `stop` is answered within about this
/// much, long enough that checking between chunks costs nothing.
const CHUNK_TIME: Duration = Duration::from_millis(40);
/// Interval of the progress reports while searching, as UCI engines send `info` lines.
pub const INFO_EVERY: Duration = Duration::from_secs(1);

/// Searches `game` (which has a legal move) with `evaluator` until a limit in `limits` or
/// `stop`, calling `on_info` about every `settings.info_every`, and returns the final analysis. The root is
/// always expanded first, even with no time (`go movetime 0`) or a stop already requested, so
/// the analysis names a legal move: at worst the evaluator's favourite.
pub(crate) fn search<G: Material, E: Evaluator<G> + Sync + ?Sized>(
    game: &G,
    evaluator: &E,
    limits: &Limits,
    settings: EngineSettings,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Analysis),
) -> Analysis {
    search_within(game, evaluator, limits, settings, stop, on_info, MAX_EDGES)
}

/// [`search`] with the tree's growth capped at `max_edges` edges.
fn search_within<G: Material, E: Evaluator<G> + Sync + ?Sized>(
    game: &G,
    evaluator: &E,
    limits: &Limits,
    settings: EngineSettings,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Analysis),
    max_edges: usize,
) -> Analysis {
    let start = Instant::now();
    // The judge looks at `stop` too: a judged node deep enough to take seconds ends with the
    // shallower values it has, so a stop is answered within about a chunk.
    let evaluator = &tactical_evaluator_until(&settings.tactics, evaluator, stop);
    let threads = settings.threads.max(1);
    let mut params = SearchParams::playing(1, &settings.tactics);
    // Each thread keeps its own leaves in flight, as one search thread does.
    params.max_in_flight = settings.leaves.unwrap_or(params.max_in_flight) * threads as u32;
    let mut search = Search::new(game.clone(), params.clone(), 0);
    let node_limit = if limits.infinite { u32::MAX } else { limits.nodes.unwrap_or(u32::MAX) };
    let deadline = if limits.infinite { None } else { limits.movetime.map(|t| start + t) };
    let mut chunk: u32 = 8;
    let mut last_info = start;
    let full = loop {
        let visits = search.tree().root().visits;
        let ended =
            stop.load(Ordering::Relaxed) || visits >= node_limit || deadline.is_some_and(|d| Instant::now() >= d);
        // Not before the root's own visit: without its edges there is no move to answer.
        if ended && visits > 0 {
            break false;
        }
        if search.tree().edges.len() >= max_edges {
            break true;
        }
        // Not when the search has just ended: the final report follows at once.
        if last_info.elapsed() >= settings.info_every {
            last_info = Instant::now();
            on_info(&analysis_of(&search, settings.multipv, start.elapsed()));
        }
        let step = if ended { 1 } else { chunk };
        params.simulations = visits.saturating_add(step).min(node_limit.max(1));
        search.set_params(params.clone());
        let t = Instant::now();
        if threads > 1 {
            search.run_parallel(evaluator, threads);
        } else {
            search.run(evaluator);
        }
        chunk = next_chunk(chunk, t.elapsed(), deadline.map(|d| d.saturating_duration_since(Instant::now())));
    };
    // UCI: after `go infinite` the answer waits for `stop`, even when there is nothing to add.
    if full && limits.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    Analysis { tree_full: full, ..analysis_of(&search, settings.multipv, start.elapsed()) }
}

/// The next chunk's size from how long this one took: aiming at [`CHUNK_TIME`], growing at
/// most fourfold, and no longer than the time `left` allows.
fn next_chunk(chunk: u32, took: Duration, left: Option<Duration>) -> u32 {
    let per_visit = took.as_secs_f64().max(1e-7) / chunk as f64;
    let mut aim = CHUNK_TIME.as_secs_f64();
    if let Some(left) = left {
        aim = aim.min(left.as_secs_f64());
    }
    ((aim / per_visit) as u32).clamp(1, chunk.saturating_mul(4).max(4))
}

#[cfg(test)]
mod tests {
    use rules::hexchess::MiniHexchess;
    use rules::Game;

    use super::*;

    fn settings() -> EngineSettings {
        EngineSettings { threads: 1, multipv: 1, leaves: None, tactics: Tactics::off(), info_every: INFO_EVERY }
    }

    #[test]
    fn no_time_or_an_early_stop_still_names_a_legal_move() {
        let game = MiniHexchess::start();
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let legal: Vec<String> = legal.into_iter().map(|m| game.move_text(m)).collect();
        let no_time = Limits { movetime: Some(Duration::ZERO), ..Limits::default() };
        let stopped = AtomicBool::new(true);
        for (limits, stop) in
            [(&no_time, &AtomicBool::new(false)), (&Limits { infinite: true, ..Limits::default() }, &stopped)]
        {
            let report = search(&game, &mcts::UniformEvaluator, limits, settings(), stop, &mut |_| {});
            let best = report.best().expect("a move");
            assert!(legal.iter().any(|m| m == best), "{best} is not legal");
            assert!(report.nodes >= 1 && !report.tree_full, "{report:?}");
        }
    }

    #[test]
    fn a_full_tree_is_reported() {
        let game = MiniHexchess::start();
        let limits = Limits { nodes: Some(1000), ..Limits::default() };
        let report = search_within(
            &game,
            &mcts::UniformEvaluator,
            &limits,
            settings(),
            &AtomicBool::new(false),
            &mut |_| {},
            50,
        );
        assert!(report.tree_full && report.nodes < 1000, "{} nodes", report.nodes);
    }

    #[test]
    fn chunks_aim_at_the_chunk_time_and_the_time_left() {
        let ms = Duration::from_millis;
        assert_eq!(next_chunk(100, ms(40), None), 100);
        assert_eq!(next_chunk(100, ms(4), None), 400, "grows at most fourfold");
        assert_eq!(next_chunk(100, ms(80), None), 50);
        assert_eq!(next_chunk(100, ms(40), Some(ms(10))), 25);
        assert_eq!(next_chunk(1, ms(500), None), 1, "never below one visit");
    }
}
