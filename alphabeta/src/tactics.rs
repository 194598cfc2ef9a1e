//! Tactical leaf values: what a quiescence search (captures until the position is quiet), after
//! a few full-width plies or none, says a position is worth, as expected scores a search can
//! blend into its network's values ([`mcts::Blend`]). A young or weak network misses captures
//! a few plies deep; the quiescence search does not, so a search with this blend keeps its
//! tactics when the network plays.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use mcts::{Blend, Judged, LeafJudge, MoveJudge, NearRoot, Tactics};
use rules::{Material, Player, MAX_PLAYERS};

use crate::eval::expected_score;
use crate::judge_cache::JudgeCache;
use crate::search::{judged_value, values_judged};

/// The evaluator a search with [`Tactics`] searches with: its own, asked about the nodes within
/// [`Tactics::network_plies`] of the root, with the tactical leaf values blended in and every
/// move judged where the search asks; `'s` is the life of the stop flag its judge looks at
/// ([`tactical_evaluator_with`]).
pub type TacticalEvaluator<'s, E> = Judged<Blend<NearRoot<E>, TacticsJudge<'s>>, TacticsJudge<'s>>;

/// The evaluator `inner` with `tactics`: the leaf values blended by `tactics_weight`, the moves
/// judged at `tactics_depth` where the search's levers ask, every judged move searched afresh:
/// for a search or two ([`tactical_evaluator_with`] keeps the judge's values for a player's
/// many searches).
pub fn tactical_evaluator<E>(tactics: &Tactics, inner: E) -> TacticalEvaluator<'static, E> {
    judged_evaluator(tactics, inner, None, None)
}

/// [`tactical_evaluator`] keeping the judge's values in `cache` ([`JudgeCache`]), and whose
/// judge cuts its deeper searches short once `stop` (if given) is set, keeping the shallower
/// values it has: a search that must answer a stop at once (`uci`'s `stop`, a signal to
/// `analyse`) is not held up by a judged node of seconds. A player's games and moves,
/// self-play's games, the engine's searches of a game each pass one cache to all the evaluators
/// they build, so a position judged once is looked up after; the values are the same either way.
pub fn tactical_evaluator_with<'s, E>(
    tactics: &Tactics,
    inner: E,
    stop: Option<&'s AtomicBool>,
    cache: Arc<JudgeCache>,
) -> TacticalEvaluator<'s, E> {
    judged_evaluator(tactics, inner, stop, Some(cache))
}

/// The evaluators above: `inner` with `tactics`, the judge stopped by `stop` and keeping its
/// values in `cache`, where there are.
fn judged_evaluator<'s, E>(
    tactics: &Tactics,
    inner: E,
    stop: Option<&'s AtomicBool>,
    cache: Option<Arc<JudgeCache>>,
) -> TacticalEvaluator<'s, E> {
    let judge = TacticsJudge { depth: tactics.tactics_depth, stop, cache };
    let inner = NearRoot { inner, plies: tactics.network_plies.plies() };
    Judged { inner: Blend { inner, judge: judge.clone(), weight: tactics.tactics_weight }, judge }
}

/// A [`LeafJudge`] from the alpha-beta player's value of the leaf, squashed by
/// [`expected_score`]: [`Tactics::tactics_weight`] (`search.tactics_weight`, `--tactics`).
#[derive(Clone, Debug, Default)]
pub struct TacticsJudge<'s> {
    /// Full-width plies searched before the quiescence search (`--tactics-depth`): 0, the
    /// default, is [`crate::quiescence_value`] alone (captures only); each ply more also
    /// sees the quiet threats one move deeper, at several times the cost. Whatever the depth,
    /// one position costs at most [`crate::JUDGE_NODES`] nodes beyond its quiescence values.
    pub depth: u32,
    /// Once set, the judge stops deepening and keeps the values it has (none: never).
    pub stop: Option<&'s AtomicBool>,
    /// Where the judged moves' quiescence values are kept and found again (none: each is
    /// searched every time); the same values either way.
    pub cache: Option<Arc<JudgeCache>>,
}

impl<G: Material> LeafJudge<G> for TacticsJudge<'_> {
    fn judge(&self, state: &G) -> [f32; MAX_PLAYERS] {
        if let Some(scores) = state.outcome() {
            return mcts::tree::score_array(&scores);
        }
        let centipawns = judged_value(state, self.depth, self.stop);
        seat_values::<G>(state.to_move(), expected_score(centipawns))
    }
}

/// Each move's value after a search of [`TacticsJudge::depth`] full-width plies past it (0: the
/// quiescence search alone), squashed by [`expected_score`]: the tactical priors, values and
/// minimax backups of an `mcts` search ([`mcts::judge`]).
impl<G: Material> MoveJudge<G> for TacticsJudge<'_> {
    fn judge_moves(&self, state: &G, moves: &[G::Move], values: &mut [f32]) {
        let mut centipawns = vec![0; moves.len()];
        values_judged(state, moves, self.depth, &mut centipawns, self.stop, self.cache.as_deref());
        for (v, &cp) in values.iter_mut().zip(&centipawns) {
            *v = expected_score(cp);
        }
    }
}

/// Per-seat expected scores from the mover's: the mover gets `mover`, and the others share
/// what is left of the variant's utility sum (`num_players / 2`) equally: the other side's
/// `1 - mover` for two players; for three, paranoid as the alpha-beta search is, each of the
/// two others `(1.5 - mover) / 2`.
pub fn seat_values<G: Material>(to_move: Player, mover: f32) -> [f32; MAX_PLAYERS] {
    mcts::seat_vector(G::NUM_PLAYERS, to_move, mover)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use mcts::{Batch, Evaluator, NetworkPlies, RandomEvaluator, Search, SearchParams};
    use rules::{Game, Glinski, MiniHexchess};

    use super::*;

    /// A stand-in network that counts the positions it is asked about.
    struct Counting(AtomicUsize);

    impl<G: Game> Evaluator<G> for Counting {
        fn max_batch_size(&self) -> usize {
            8
        }
        fn evaluate(&self, batch: &mut Batch<G>) {
            self.0.fetch_add(batch.len(), Ordering::Relaxed);
            RandomEvaluator { seed: 5 }.evaluate(batch);
        }
    }

    /// Positions the network is asked about in a 64-simulation default search of Mini
    /// Hexchess's start with `network_plies`.
    fn network_evaluations(network_plies: NetworkPlies) -> usize {
        let tactics = Tactics { network_plies, ..Tactics::default() };
        let counting = Counting(AtomicUsize::new(0));
        let evaluator = tactical_evaluator(&tactics, &counting);
        let mut search = Search::new(MiniHexchess::start(), SearchParams::playing(64, &tactics), 1);
        search.run(&evaluator);
        counting.0.load(Ordering::Relaxed)
    }

    #[test]
    fn the_network_is_asked_only_within_its_plies() {
        assert_eq!(network_evaluations(NetworkPlies::Plies(1)), 1, "the root alone");
        let mut moves = Vec::new();
        MiniHexchess::start().legal_moves(&mut moves);
        let two = network_evaluations(NetworkPlies::Plies(2));
        assert!(two > 1 && two <= 1 + moves.len(), "the root and some of its {} moves: {two}", moves.len());
        let every = network_evaluations(NetworkPlies::Plies(0));
        assert!(every > two, "every node");
        // `auto`: every node for a search of so many simulations, two plies at a clock.
        assert_eq!(network_evaluations(NetworkPlies::Auto), every);
        assert_eq!(network_evaluations(NetworkPlies::Auto.at_clock(true)), two);
        assert_eq!(network_evaluations(NetworkPlies::Auto.at_clock(false)), every);
    }

    #[test]
    fn the_values_sum_to_the_utility_sum() {
        let two = seat_values::<Glinski>(1, 0.8);
        assert!((two[0] - 0.2).abs() < 1e-6 && two[1] == 0.8, "{two:?}");
        let three = seat_values::<rules::wellisch::Wellisch>(2, 0.9);
        assert!((three[..3].iter().sum::<f32>() - 1.5).abs() < 1e-6);
        assert_eq!(three[0], three[1]);
        assert_eq!(TacticsJudge::default().judge(&Glinski::start())[..2], [0.5, 0.5]);
    }
}
