//! Matches between agents: seats rotated fairly, openings shared between the seat orders.

use mcts::{Evaluator, Search, SearchParams};
use rand::{RngExt, SeedableRng};
use rules::{Game, Player, Scores};

use crate::games::game_seed;

/// Something that picks moves.
pub trait Agent<G: Game>: Sync {
    /// A short name for tables.
    fn name(&self) -> String;
    /// The move to play in `game` (which is not over); `seed` varies per move.
    fn choose(&self, game: &G, seed: u64) -> G::Move;
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

/// Searches with an evaluator and plays the most visited move.
pub struct SearchAgent<E> {
    /// Name for tables.
    pub label: String,
    /// The evaluator (a network, or the uniform baseline).
    pub evaluator: E,
    /// Root visits per move.
    pub simulations: u32,
}

impl<G: Game, E: Evaluator<G> + Sync> Agent<G> for SearchAgent<E> {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&self, game: &G, seed: u64) -> G::Move {
        let mut search = Search::new(game.clone(), SearchParams::analysis(self.simulations), seed);
        search.run(&self.evaluator);
        search.result().expect("a live position has a search result").chosen
    }
}

/// Totals of a match, from the first agent's point of view and per agent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchResult {
    /// Games played.
    pub games: usize,
    /// Sum of scores per agent (in the order given to [`play_match`]).
    pub score: Vec<f64>,
    /// Games each agent won outright (scored 1).
    pub wins: Vec<usize>,
    /// Games that ended with every player on the same score.
    pub draws: usize,
    /// Games adjudicated at the ply limit.
    pub adjudicated: usize,
}

impl MatchResult {
    /// Mean score of agent `i` per game.
    pub fn mean_score(&self, i: usize) -> f64 {
        self.score[i] / self.games.max(1) as f64
    }
}

/// Plays `games` games between `agents` (one per seat), rotating seats so each agent sits in
/// every seat equally often. The games of one rotation cycle share an opening of
/// `opening_plies` random moves, so seat order is the only difference between them. Games
/// longer than `max_plies` are adjudicated draws.
pub fn play_match<G: Game>(agents: &[&dyn Agent<G>], games: usize, opening_plies: u32, max_plies: u32, seed: u64) -> MatchResult {
    let n = G::NUM_PLAYERS;
    assert_eq!(agents.len(), n, "one agent per seat");
    let mut result = MatchResult { score: vec![0.0; n], wins: vec![0; n], ..Default::default() };
    for g in 0..games {
        let cycle = (g / n) as u64;
        let rotation = g % n;
        // Seat s is played by agent (s + rotation) % n.
        let seat_agent = |seat: Player| (seat + rotation) % n;
        let (scores, adjudicated) = play_one(agents, &seat_agent, opening_plies, max_plies, game_seed(seed, cycle), g as u64);
        result.games += 1;
        result.adjudicated += adjudicated as usize;
        if scores.as_slice().iter().all(|&s| s == scores.get(0)) {
            result.draws += 1;
        }
        for seat in 0..n {
            let a = seat_agent(seat);
            result.score[a] += scores.get(seat) as f64;
            if scores.get(seat) == 1.0 {
                result.wins[a] += 1;
            }
        }
    }
    result
}

fn play_one<G: Game>(
    agents: &[&dyn Agent<G>],
    seat_agent: &dyn Fn(Player) -> usize,
    opening_plies: u32,
    max_plies: u32,
    opening_seed: u64,
    game_number: u64,
) -> (Scores, bool) {
    let mut game = G::start();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(opening_seed);
    let mut moves = Vec::new();
    for ply in 0..max_plies {
        if let Some(scores) = game.outcome() {
            return (scores, false);
        }
        let mv = if ply < opening_plies {
            game.legal_moves(&mut moves);
            moves[rng.random_range(0..moves.len())]
        } else {
            agents[seat_agent(game.to_move())].choose(&game, game_seed(game_number, ply as u64))
        };
        game.play(mv);
    }
    match game.outcome() {
        Some(scores) => (scores, false),
        None => (Scores::draw(G::NUM_PLAYERS), true),
    }
}
