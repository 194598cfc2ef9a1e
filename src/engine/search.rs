//! The engine's search: run in chunks ([`mcts::run_until`]), and between chunks the tree's size
//! checked and progress reported.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use alphabeta::{tactical_evaluator_with, JudgeCache};
use mcts::{run_until, Ended, Evaluator, Search, SearchParams, Tactics, Until};
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

/// Interval of the progress reports while searching, as UCI engines send `info` lines.
pub const INFO_EVERY: Duration = Duration::from_secs(1);

/// The search parameters of an engine search with `settings`: the play search's, each thread
/// keeping its own leaves in flight as one search thread does.
pub(crate) fn engine_params(settings: &EngineSettings) -> SearchParams {
    let mut params = SearchParams::playing(1, &settings.tactics);
    params.max_in_flight = settings.leaves.unwrap_or(params.max_in_flight) * settings.threads.max(1) as u32;
    params
}

/// `settings` for a search within `limits`, with a network or not: `network_plies = auto` keeps
/// a network near the root of a search against the clock ([`Tactics::at_clock`]); a search
/// without one has nothing to keep there, and keeps its tree between moves.
pub(crate) fn for_search(settings: EngineSettings, limits: &Limits, network: bool) -> EngineSettings {
    let timed = network && limits.movetime.is_some() && !limits.infinite;
    EngineSettings { tactics: settings.tactics.at_clock(timed), ..settings }
}

/// Searches `game` (which has a legal move) from an empty tree: see [`search_on`].
pub(crate) fn search<G: Material, E: Evaluator<G> + Sync + ?Sized>(
    game: &G,
    evaluator: &E,
    limits: &Limits,
    settings: EngineSettings,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Analysis),
) -> Analysis {
    let mut fresh = Search::new(game.clone(), engine_params(&settings), 0);
    search_on(&mut fresh, evaluator, &Arc::default(), limits, settings, stop, on_info)
}

/// Searches on from `search` (a fresh one, or one kept from the game's last move and advanced
/// to the position: its visits count toward the node limit) with `evaluator`, the judge keeping
/// its values in `judged` (a game's searches share one), until a limit in `limits` or `stop`,
/// calling `on_info` about every `settings.info_every`, and returns the
/// final analysis. The root is always expanded first, even with no time (`go movetime 0`) or a
/// stop already requested, so the analysis names a legal move: at worst the evaluator's
/// favourite.
pub(crate) fn search_on<G: Material, E: Evaluator<G> + Sync + ?Sized>(
    search: &mut Search<G>,
    evaluator: &E,
    judged: &Arc<JudgeCache>,
    limits: &Limits,
    settings: EngineSettings,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Analysis),
) -> Analysis {
    search_within(search, evaluator, judged, limits, settings, stop, on_info, MAX_EDGES)
}

/// [`search`] with the tree's growth capped at `max_edges` edges.
#[allow(clippy::too_many_arguments)]
fn search_within<G: Material, E: Evaluator<G> + Sync + ?Sized>(
    search: &mut Search<G>,
    evaluator: &E,
    judged: &Arc<JudgeCache>,
    limits: &Limits,
    settings: EngineSettings,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Analysis),
    max_edges: usize,
) -> Analysis {
    let start = Instant::now();
    // The judge looks at `stop` too: a judged node deep enough to take seconds ends with the
    // shallower values it has, so a stop is answered within about a chunk.
    let evaluator = &tactical_evaluator_with(&settings.tactics, evaluator, Some(stop), Arc::clone(judged));
    search.set_params(engine_params(&settings));
    let reused = search.tree().root().visits;
    let until = Until {
        visits: if limits.infinite { u32::MAX } else { limits.nodes.unwrap_or(u32::MAX) },
        deadline: if limits.infinite { None } else { limits.movetime.map(|t| start + t) },
        stop: Some(stop),
        early: limits.early && !limits.infinite,
        max_edges,
    };
    let mut last_info = start;
    let ended = run_until(search, evaluator, settings.threads, &until, |search| {
        if last_info.elapsed() >= settings.info_every {
            last_info = Instant::now();
            on_info(&analysis_of(search, settings.multipv, start.elapsed(), reused));
        }
        ControlFlow::Continue(())
    });
    let full = ended == Ended::TreeFull;
    // UCI: after `go infinite` the answer waits for `stop`, even when there is nothing to add.
    if full && limits.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    Analysis { tree_full: full, ..analysis_of(search, settings.multipv, start.elapsed(), reused) }
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

    /// The uniform evaluator, counting the positions it is asked about.
    struct Counting(std::sync::atomic::AtomicUsize);

    impl<G: Game> Evaluator<G> for Counting {
        fn max_batch_size(&self) -> usize {
            8
        }
        fn evaluate(&self, batch: &mut mcts::Batch<G>) {
            self.0.fetch_add(batch.len(), Ordering::Relaxed);
            mcts::UniformEvaluator.evaluate(batch);
        }
    }

    /// Positions the evaluator (a network, if `network`) is asked about in a default search of
    /// 64 nodes of Mini Hexchess's start, with `network_plies` and, if `timed`, a deadline it
    /// does not reach.
    fn evaluations(network_plies: mcts::NetworkPlies, timed: bool, network: bool) -> usize {
        let limits =
            Limits { nodes: Some(64), movetime: timed.then_some(Duration::from_secs(600)), ..Limits::default() };
        let tactics = Tactics { network_plies, ..Tactics::default() };
        let counting = Counting(Default::default());
        let settings = for_search(EngineSettings { tactics, ..settings() }, &limits, network);
        search(&MiniHexchess::start(), &counting, &limits, settings, &AtomicBool::new(false), &mut |_| {});
        counting.0.load(Ordering::Relaxed)
    }

    #[test]
    fn auto_network_plies_keep_a_network_near_the_root_at_a_clock_only() {
        use mcts::NetworkPlies::{Auto, Plies};
        let every = evaluations(Plies(0), true, true);
        let near = evaluations(Plies(mcts::CLOCK_NETWORK_PLIES), false, true);
        assert!(near < every, "{near} near the root, {every} at every node");
        assert_eq!(evaluations(Auto, true, true), near, "a deadline: the clock's plies");
        assert_eq!(evaluations(Auto, false, true), every, "a node budget: every ply");
        assert_eq!(evaluations(Auto, true, false), every, "no network: nothing to keep near the root");
    }

    #[test]
    fn a_full_tree_is_reported() {
        let game = MiniHexchess::start();
        let limits = Limits { nodes: Some(1000), ..Limits::default() };
        let report = search_within(
            &mut Search::new(game, engine_params(&settings()), 0),
            &mcts::UniformEvaluator,
            &Arc::default(),
            &limits,
            settings(),
            &AtomicBool::new(false),
            &mut |_| {},
            50,
        );
        assert!(report.tree_full && report.nodes < 1000, "{} nodes", report.nodes);
    }
}
