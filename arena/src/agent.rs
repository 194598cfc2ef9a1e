//! Players of a match: anything that picks moves ([`Agent`]), and the built-in ones: random,
//! greedy, classical alpha-beta, and search with an evaluator.

use std::any::Any;
use std::collections::VecDeque;
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use mcts::{run_until, Evaluator, Search, SearchParams, Tactics, Until, MAX_TREE_EDGES};
use rand::{RngExt, SeedableRng};
use rules::{Game, Material};

use crate::forfeit::Forfeit;

/// Something that picks moves.
pub trait Agent<G: Game>: Sync {
    /// A short name for tables.
    fn name(&self) -> String;
    /// The move to play in `game` (which is not over); `seed` varies per move.
    fn choose(&self, game: &G, seed: u64) -> G::Move;
    /// The move to play, or why this agent loses the game instead; the arena asks this. Only a
    /// program in another process can fail, so agents in this one keep the default.
    fn try_choose(&self, game: &G, _played: &GameSoFar<'_, G>, seed: u64) -> Result<G::Move, Forfeit> {
        Ok(self.choose(game, seed))
    }
}

/// The game an agent is asked to move in, as a program in another process is told it: where
/// it began and the moves since (UCI `position ... moves ...`), and which game of the match.
#[derive(Clone, Copy, Debug)]
pub struct GameSoFar<'a, G: Game> {
    /// The match's start position.
    pub start: &'a G,
    /// The moves played since, in the variant's notation.
    pub moves: &'a [String],
    /// The game's number in the match (a new number is a new game).
    pub game: u64,
}

/// Picks a legal move uniformly at random.
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&self, game: &G, seed: u64) -> G::Move {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
        moves[rng.random_range(0..moves.len())]
    }
}

/// Takes the most valuable capture ([`Material::capture_value`]), else a random move.
pub struct GreedyAgent;

impl<G: Material> Agent<G> for GreedyAgent {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&self, game: &G, seed: u64) -> G::Move {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let best = moves.iter().map(|&m| game.capture_value(m)).fold(0.0, f32::max);
        let candidates: Vec<G::Move> = moves.into_iter().filter(|&m| game.capture_value(m) == best).collect();
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
        candidates[rng.random_range(0..candidates.len())]
    }
}

/// Classical alpha-beta with quiescence ([`alphabeta::search`]): the fixed yardstick.
pub struct AlphaBetaAgent {
    /// Depth, time limit and table.
    pub limits: alphabeta::SearchLimits,
    /// Ends a search at once when set (a stop signal), whatever its depth: the move is then a
    /// hurried one, for a game about to be abandoned.
    pub stop: Option<&'static AtomicBool>,
}

impl<G: Material> Agent<G> for AlphaBetaAgent {
    fn name(&self) -> String {
        let depth = self.limits.depth;
        match self.limits.time {
            Some(t) => format!("alphabeta:{depth}:{}", t.as_millis()),
            None => format!("alphabeta:{depth}"),
        }
    }

    fn choose(&self, game: &G, seed: u64) -> G::Move {
        let outcome = match self.stop {
            Some(stop) => alphabeta::search_until(game, &self.limits, seed, stop),
            None => alphabeta::search(game, &self.limits, seed),
        };
        outcome.expect("a live position has a legal move").best
    }
}

/// Searches with an evaluator and plays the move its search chooses (the most visited, or by
/// its lower confidence bound with [`Tactics::choice`]).
pub struct SearchAgent<E> {
    /// Name for tables.
    pub label: String,
    /// The evaluator (a network, or the uniform baseline).
    pub evaluator: E,
    /// Root visits per move; with `reuse_trees`, the visits kept from the last move count.
    pub simulations: u32,
    /// Leaves the search keeps waiting for the evaluator at once (`max_in_flight`): more make
    /// bigger network batches and fewer calls, at a little selectivity. The same count always
    /// gives the same search.
    pub leaves: u32,
    /// Keep each game's tree between this player's moves (lc0's and KataGo's tree reuse): the
    /// subtree of the position reached is searched on, so fewer new leaves fill the visits,
    /// and the game's earlier positions count for repetition draws in the tree.
    pub reuse_trees: bool,
    /// Time a move: the search runs until it is up, `simulations` then being a cap
    /// ([`mcts::run_until`]); none: `simulations` alone.
    pub movetime: Option<Duration>,
    /// The tactical levers inside the tree (priors, values, minimax, move choice); they need
    /// the evaluator to judge moves ([`mcts::Judged`]). Off unless set.
    pub tactics: Tactics,
    /// Ends a search at once when set (a stop signal); the move is then a hurried one, for a
    /// game about to be abandoned. Unset, the search is exactly the one without it.
    pub stop: Option<&'static AtomicBool>,
    trees: KeptTrees,
}

impl<E> SearchAgent<E> {
    /// A player searching `simulations` root visits a move with `evaluator`, with analysis's
    /// leaves in flight ([`SearchParams::analysis`]) and tree reuse.
    pub fn new(label: String, evaluator: E, simulations: u32) -> SearchAgent<E> {
        let leaves = SearchParams::analysis(simulations).max_in_flight;
        SearchAgent {
            label,
            evaluator,
            simulations,
            leaves,
            reuse_trees: true,
            movetime: None,
            tactics: Tactics::off(),
            stop: None,
            trees: KeptTrees::default(),
        }
    }

    fn params(&self) -> SearchParams {
        SearchParams { max_in_flight: self.leaves, ..SearchParams::playing(self.simulations, &self.tactics) }
    }

    /// Searches `search`'s current move to this player's simulations, or until its time a move
    /// is up.
    fn run<G: Game>(&self, search: &mut Search<G>)
    where
        E: Evaluator<G> + Sync,
    {
        search.set_params(self.params());
        match (self.movetime, self.stop) {
            (None, None) => search.run(&self.evaluator),
            (None, Some(stop)) => search.run_or_stop(&self.evaluator, stop),
            (Some(movetime), stop) => {
                let deadline = Some(Instant::now() + movetime);
                // The edge cap: a long time a move would otherwise grow the tree past the memory.
                let until = Until { visits: self.simulations, deadline, stop, early: false, max_edges: MAX_TREE_EDGES };
                run_until(search, &self.evaluator, 1, &until, |_| ControlFlow::Continue(()));
            }
        }
    }
}

impl<G: Game, E: Evaluator<G> + Sync> Agent<G> for SearchAgent<E> {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&self, game: &G, seed: u64) -> G::Move {
        let mut search = Search::new(game.clone(), self.params(), seed);
        self.run(&mut search);
        search.result().expect("a live position has a search result").chosen
    }

    fn try_choose(&self, game: &G, played: &GameSoFar<'_, G>, seed: u64) -> Result<G::Move, Forfeit> {
        if !self.reuse_trees {
            return Ok(self.choose(game, seed));
        }
        let mut search = self
            .trees
            .take::<G>(played.game)
            .and_then(|kept| kept.caught_up(game, played.moves))
            .unwrap_or_else(|| Search::new(game.clone(), self.params(), seed));
        self.run(&mut search);
        let chosen = search.result().expect("a live position has a search result").chosen;
        search.advance(chosen);
        self.trees.keep(played.game, Kept { search, seen: played.moves.len() + 1 });
        Ok(chosen)
    }
}

/// A game's search as this player's last move left it: advanced past that move, which was
/// move number `seen` of the game.
struct Kept<G: Game> {
    search: Search<G>,
    seen: usize,
}

impl<G: Game> Kept<G> {
    /// The search advanced through the moves played since (`moves` is the whole game's list),
    /// if they lead to `game`; `None` where they do not (another game, a move it cannot read).
    fn caught_up(mut self, game: &G, moves: &[String]) -> Option<Search<G>> {
        for text in moves.get(self.seen..)? {
            let mv = self.search.root_state().parse_move(text).ok()?;
            self.search.advance(mv);
        }
        let at = self.search.root_state();
        (at.hash() == game.hash() && at.to_text() == game.to_text()).then_some(self.search)
    }
}

/// Most games whose trees a player keeps at once; the oldest goes first (a finished game's
/// tree is never asked for again, and the arena does not say when a game ends).
const KEPT_GAMES: usize = 64;

/// The kept trees by game number, oldest first. Type-erased because a player is generic over
/// its evaluator only and serves one game type per match.
#[derive(Default)]
struct KeptTrees(Mutex<VecDeque<(u64, Box<dyn Any + Send>)>>);

impl KeptTrees {
    fn take<G: Game>(&self, game: u64) -> Option<Kept<G>> {
        let mut trees = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let i = trees.iter().position(|(g, _)| *g == game)?;
        let (_, kept) = trees.remove(i)?;
        kept.downcast::<Kept<G>>().ok().map(|k| *k)
    }

    fn keep<G: Game>(&self, game: u64, kept: Kept<G>) {
        let mut trees = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if trees.len() >= KEPT_GAMES {
            trees.pop_front();
        }
        trees.push_back((game, Box::new(kept)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcts::{UniformEvaluator, CHUNK_TIME, MAX_SIMULATIONS};
    use rules::hexchess::MiniHexchess;

    #[test]
    fn a_timed_search_player_takes_about_its_time_whatever_its_simulations() {
        let mut agent = SearchAgent::new("timed".into(), UniformEvaluator, MAX_SIMULATIONS);
        agent.movetime = Some(Duration::from_millis(80));
        let game = MiniHexchess::start();
        let began = Instant::now();
        agent.choose(&game, 1);
        let took = began.elapsed();
        assert!(took >= Duration::from_millis(80) && took < Duration::from_millis(80) + 2 * CHUNK_TIME, "{took:?}");
        // Simulations given as a cap end the search first.
        agent.simulations = 10;
        let began = Instant::now();
        agent.choose(&game, 1);
        assert!(began.elapsed() < Duration::from_millis(40), "{:?}", began.elapsed());
    }
}
