//! Playing self-play games: one worker interleaves many games so that each evaluator call
//! carries leaves from all of them.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use mcts::{game_seed, Batch, Evaluator, Search, SearchParams};
use rand::{RngExt, SeedableRng};
use rules::{Encoding, Scores};

use crate::config::SelfplayConfig;
use crate::replay::{GameRecord, MoveRecord};

/// How a finished game ended, for the metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// The game's number in the run.
    pub number: u64,
    /// Plies played.
    pub plies: u32,
    /// Final scores by seat.
    pub scores: Vec<f32>,
    /// How it ended.
    pub end: GameEnd,
    /// In a game with resignation disabled for measurement: the seat that would have
    /// resigned, if any. It was a false resignation if that seat did not lose.
    pub would_have_resigned: Option<usize>,
}

/// Why a game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The rules ended it.
    Rules,
    /// A player resigned.
    Resigned,
    /// It reached `max_plies` and was adjudicated a draw.
    MaxPlies,
    /// It reached `max_plies` with seats `adjudicate_material` apart, scored by their material.
    Material,
}

struct InProgress {
    record: GameRecord,
    /// Consecutive own moves below the resignation threshold, by seat.
    low: Vec<u32>,
    may_resign: bool,
    would_have_resigned: Option<usize>,
}

/// Game numbers waiting to be played, shared by the workers of a run.
pub type GameQueue = Mutex<VecDeque<u64>>;

/// Plays games from `start` whose numbers it takes from `queue`, `cfg.games_per_worker` at a time,
/// calling `finished` for each game as it ends, until the queue is empty or `stop` is set (then
/// games in progress are abandoned). A game is a function of the seed and its number; with
/// one worker the order of the games is too.
#[allow(clippy::too_many_arguments)]
pub fn play_games<G: Encoding, E: Evaluator<G>>(
    cfg: &SelfplayConfig,
    params: &SearchParams,
    evaluator: &E,
    start: &G,
    seed: u64,
    queue: &GameQueue,
    stop: &AtomicBool,
    mut finished: impl FnMut(GameRecord, GameSummary),
) {
    let take = || queue.lock().expect("game queue lock").pop_front();
    let mut searches: Vec<Search<G>> = Vec::new();
    let mut games: Vec<InProgress> = Vec::new();
    let start = |number: u64| -> (Search<G>, InProgress) {
        let s = game_seed(seed, number);
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(s);
        let may_resign =
            cfg.resign_threshold > 0.0 && G::NUM_PLAYERS == 2 && !rng.random_bool(cfg.resign_playthrough as f64);
        let game = start.clone();
        let record = GameRecord {
            variant: G::NAME.to_string(),
            number,
            start: game.to_text(),
            moves: Vec::new(),
            scores: Vec::new(),
        };
        let progress = InProgress { record, low: vec![0; G::NUM_PLAYERS], may_resign, would_have_resigned: None };
        (Search::new(game, params.clone(), s), progress)
    };
    for _ in 0..cfg.games_per_worker {
        let Some(n) = take() else { break };
        let (s, g) = start(n);
        searches.push(s);
        games.push(g);
    }
    // Each game moves on as soon as its own search is done (none waits for the others'), and
    // a stop request is seen after one network batch.
    let on_done = |i: usize, search: &mut Search<G>| -> bool {
        let Some((end, scores)) = step_game(cfg, search, &mut games[i]) else { return true };
        let g = &mut games[i];
        g.record.scores = scores.as_slice().to_vec();
        let summary = GameSummary {
            number: g.record.number,
            plies: g.record.moves.len() as u32,
            scores: g.record.scores.clone(),
            end,
            would_have_resigned: g.would_have_resigned,
        };
        finished(std::mem::replace(&mut g.record, empty_record()), summary);
        match take() {
            Some(n) => {
                (*search, games[i]) = start(n);
                true
            }
            None => false,
        }
    };
    mcts::drive_until(&mut searches, evaluator, &mut Batch::new(), on_done, stop);
}

fn empty_record() -> GameRecord {
    GameRecord { variant: String::new(), number: 0, start: String::new(), moves: Vec::new(), scores: Vec::new() }
}

/// Records and plays the searched move of one game; returns how the game ended, if it did.
fn step_game<G: Encoding>(
    cfg: &SelfplayConfig,
    search: &mut Search<G>,
    game: &mut InProgress,
) -> Option<(GameEnd, Scores)> {
    let state = search.root_state().clone();
    let result = search.result().expect("a finished search of a live game has a result");
    let mover = state.to_move();
    // The policy target as sparse counts out of the search's child visits: PUCT's (pruned) visit
    // shares, or Gumbel search's improved policy rounded to the same units, so that shards keep
    // one format and the precision of visit counts.
    let total = result.visits.iter().sum::<u32>() as f32;
    let visits = result
        .policy_target(|mv| state.policy_index(mv))
        .into_iter()
        .map(|(index, share)| (index as u32, (share * total).round() as u32))
        .filter(|&(_, n)| n > 0)
        .collect();
    game.record.moves.push(MoveRecord {
        played: state.policy_index(result.chosen) as u32,
        visits,
        policy_target: result.full_search,
        root_value: Some(result.value),
    });

    if cfg.resign_threshold > 0.0 && G::NUM_PLAYERS == 2 {
        game.low[mover] = if result.value[mover] < cfg.resign_threshold { game.low[mover] + 1 } else { 0 };
        if game.low[mover] >= cfg.resign_plies {
            if game.may_resign {
                return Some((GameEnd::Resigned, Scores::win2(1 - mover)));
            }
            game.would_have_resigned.get_or_insert(mover);
        }
    }
    search.advance(result.chosen);
    if let Some(scores) = search.root_state().outcome() {
        return Some((GameEnd::Rules, scores));
    }
    if game.record.moves.len() as u32 >= cfg.max_plies {
        return Some(at_move_limit(search.root_state(), cfg.adjudicate_material));
    }
    None
}

/// How a game stopped at the move limit in `state` scores: a draw, or (`margin` above 0) the
/// standings of seats at least `margin` pawns of material apart ([`rules::material_standings`]).
pub(crate) fn at_move_limit<G: Encoding>(state: &G, margin: f32) -> (GameEnd, Scores) {
    let standings = rules::move_limit_standings(state, margin);
    let end = if standings.by_material { GameEnd::Material } else { GameEnd::MaxPlies };
    (end, standings.scores)
}

#[cfg(test)]
mod tests {
    use rules::{Game, Material, MiniHexchess};

    use super::*;

    #[test]
    fn the_move_limit_scores_a_material_lead_only_when_asked() {
        // A fixed game that takes the first capture it sees, until one side is ahead.
        let mut game = MiniHexchess::start();
        let mut moves = Vec::new();
        let lead = |g: &MiniHexchess| g.material()[0] - g.material()[1];
        for i in 0..400 {
            if lead(&game) != 0.0 || game.outcome().is_some() {
                break;
            }
            game.legal_moves(&mut moves);
            let capture = moves.iter().copied().find(|&mv| game.capture_value(mv) > 0.0);
            game.play(capture.unwrap_or(moves[(i * 7) % moves.len()]));
        }
        let lead = lead(&game);
        assert!(lead != 0.0 && game.outcome().is_none(), "the game reached a material lead");
        let leader = if lead > 0.0 { 0 } else { 1 };
        assert_eq!(at_move_limit(&game, lead.abs()), (GameEnd::Material, Scores::win2(leader)));
        assert_eq!(at_move_limit(&game, lead.abs() + 0.5), (GameEnd::MaxPlies, Scores::draw(2)));
        assert_eq!(at_move_limit(&game, 0.0), (GameEnd::MaxPlies, Scores::draw(2)), "0 turns it off");
    }

    #[test]
    fn three_players_at_the_move_limit_are_ranked_by_material_only_when_asked() {
        // Wellisch's start with P1's queen and P2's knight gone.
        let text = ".2P..3P3N/2R2P...3P3R/2Q2P....3P3K/2K2N2P...3P3N3Q/2R2P2P....3P3P3R/\
                    2N2P.......3P3N/2P........3P/........./...1P1P.../1P1P1P1N1P1P1P/1N1R.1K1R1N \
                    1 1KQ2KQ3KQ - 0";
        let game = rules::wellisch::Wellisch::from_text(text).expect("a legal position");
        assert_eq!(at_move_limit(&game, 2.0), (GameEnd::Material, Scores::new(&[0.0, 0.5, 1.0])));
        assert_eq!(at_move_limit(&game, 10.0), (GameEnd::MaxPlies, Scores::draw(3)));
        assert_eq!(at_move_limit(&game, 0.0), (GameEnd::MaxPlies, Scores::draw(3)), "0 turns it off");
    }
}
