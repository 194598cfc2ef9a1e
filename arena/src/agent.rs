//! Players of a match: anything that picks moves ([`Agent`]), and the built-in ones: random,
//! greedy, classical alpha-beta, and search with an evaluator.

use mcts::{Evaluator, Search, SearchParams};
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
    fn try_choose(&self, game: &G, _played: &Played<'_, G>, seed: u64) -> Result<G::Move, Forfeit> {
        Ok(self.choose(game, seed))
    }
}

/// The game an agent is asked to move in, as a program in another process is told it: where
/// it began and the moves since (UCI `position ... moves ...`), and which game of the match.
#[derive(Clone, Copy, Debug)]
pub struct Played<'a, G: Game> {
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
    pub settings: alphabeta::Settings,
}

impl<G: Material> Agent<G> for AlphaBetaAgent {
    fn name(&self) -> String {
        let depth = self.settings.depth;
        match self.settings.time {
            Some(t) => format!("alphabeta:{depth}:{}", t.as_millis()),
            None => format!("alphabeta:{depth}"),
        }
    }

    fn choose(&self, game: &G, seed: u64) -> G::Move {
        alphabeta::search(game, &self.settings, seed).expect("a live position has a legal move").best
    }
}

/// Searches with an evaluator and plays the most visited move.
pub struct SearchAgent<E> {
    /// Name for tables.
    pub label: String,
    /// The evaluator (a network, or the uniform baseline).
    pub evaluator: E,
    /// Root visits per move.
    pub simulations: u32,
    /// Leaves the search keeps waiting for the evaluator at once (`max_in_flight`): more make
    /// bigger network batches and fewer calls, at a little selectivity. The same count always
    /// gives the same search.
    pub leaves: u32,
}

impl<E> SearchAgent<E> {
    /// A player searching `simulations` root visits a move with `evaluator`, with analysis's
    /// leaves in flight ([`SearchParams::analysis`]).
    pub fn new(label: String, evaluator: E, simulations: u32) -> SearchAgent<E> {
        SearchAgent { label, evaluator, simulations, leaves: SearchParams::analysis(simulations).max_in_flight }
    }
}

impl<G: Game, E: Evaluator<G> + Sync> Agent<G> for SearchAgent<E> {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&self, game: &G, seed: u64) -> G::Move {
        let params = SearchParams { max_in_flight: self.leaves, ..SearchParams::analysis(self.simulations) };
        let mut search = Search::new(game.clone(), params, seed);
        search.run(&self.evaluator);
        search.result().expect("a live position has a search result").chosen
    }
}
