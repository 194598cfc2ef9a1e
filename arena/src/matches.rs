//! Matches between agents: seats rotated fairly, openings shared between the seat orders.

use mcts::game_seed;
use rand::{RngExt, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use rules::{move_limit_standings, Ending, Game, GameText, Material, Scores, Termination, Variant};

use crate::agent::{Agent, GameSoFar};
use crate::forfeit::Forfeit;
use crate::rating::ScoreTally;

/// Totals of a match, per agent (in the order given to [`play_match`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchResult {
    /// Games played.
    pub games: usize,
    /// Sum of scores per agent.
    pub score: Vec<f64>,
    /// Games each agent won outright (scored 1; in Wellisch, captured a king).
    pub wins: Vec<usize>,
    /// Games each agent lost outright (scored 0). Wins, draws and losses need not add up to the
    /// games: a Glinski stalemate scores 3/4 and 1/4, Wellisch's standings can split points.
    pub losses: Vec<usize>,
    /// The first agent's game scores, from which a two-player match's Elo and SPRT come.
    pub first_scores: ScoreTally,
    /// `seat_wins[agent][seat]`: outright wins of an agent from each seat.
    pub seat_wins: Vec<Vec<usize>>,
    /// `seat_games[agent][seat]`: games an agent played from each seat.
    pub seat_games: Vec<Vec<usize>>,
    /// Moves each agent chose (random opening plies not counted).
    pub moves: Vec<usize>,
    /// Wall-clock time each agent spent choosing them.
    pub thinking: Vec<std::time::Duration>,
    /// Games that ended with every player on the same score.
    pub draws: usize,
    /// Games in progress when [`MatchOptions::abandon`] was set: left unfinished and counted in
    /// no other total.
    pub abandoned: usize,
    /// Games adjudicated at the ply limit.
    pub adjudicated: usize,
    /// How many games ended each way ([`Termination::name`]: the rule, `move limit`,
    /// [`MATERIAL_ENDING`], `forfeit`), for reading why games were drawn.
    pub endings: std::collections::BTreeMap<&'static str, usize>,
    /// `forfeits[agent]`: why the agent lost each game it forfeited, in the order they ended.
    pub forfeits: Vec<Vec<Forfeit>>,
}

impl MatchResult {
    fn new(players: usize) -> MatchResult {
        MatchResult {
            score: vec![0.0; players],
            wins: vec![0; players],
            losses: vec![0; players],
            seat_wins: vec![vec![0; players]; players],
            seat_games: vec![vec![0; players]; players],
            forfeits: vec![Vec::new(); players],
            moves: vec![0; players],
            thinking: vec![std::time::Duration::ZERO; players],
            ..Default::default()
        }
    }

    /// Mean score of agent `i` per game.
    pub fn mean_score(&self, i: usize) -> f64 {
        self.score[i] / self.games.max(1) as f64
    }

    /// Mean wall-clock milliseconds agent `i` took to choose a move (0 before its first move).
    pub fn ms_per_move(&self, i: usize) -> f64 {
        self.thinking[i].as_secs_f64() * 1e3 / self.moves[i].max(1) as f64
    }

    /// Games in which agent `i` scored neither 1, 0 nor the same as every other player.
    pub fn partial(&self, i: usize) -> usize {
        self.games - self.wins[i] - self.losses[i] - self.draws
    }

    fn add(&mut self, game: &GameOutcome) {
        for (agent, (&moves, &time)) in game.played.seat_agents.iter().zip(game.moves.iter().zip(&game.thinking)) {
            self.moves[*agent] += moves;
            self.thinking[*agent] += time;
        }
        self.count(&game.played, game.adjudicated);
        if let Some((seat, forfeit)) = &game.forfeit {
            self.forfeits[game.played.seat_agents[*seat]].push(forfeit.clone());
        }
    }

    /// Counts a game played before the match was resumed: its result and ending, not the moves
    /// and time it took (which its record does not keep), nor a forfeit's reason.
    fn add_recorded(&mut self, game: &PlayedGame) {
        let adjudicated = matches!(game.termination, Termination::Material | Termination::MoveLimit);
        self.count(game, adjudicated);
    }

    /// Counts `game`'s result in the totals every game has.
    fn count(&mut self, game: &PlayedGame, adjudicated: bool) {
        self.games += 1;
        self.adjudicated += adjudicated as usize;
        *self.endings.entry(game.termination.name()).or_insert(0) += 1;
        let s = game.scores.as_slice();
        let drawn = s.iter().all(|&x| x == s[0]);
        self.draws += drawn as usize;
        for (seat, &agent) in game.seat_agents.iter().enumerate() {
            self.score[agent] += s[seat] as f64;
            self.seat_games[agent][seat] += 1;
            if s[seat] == 1.0 {
                self.wins[agent] += 1;
                self.seat_wins[agent][seat] += 1;
            }
            if s[seat] == 0.0 && !drawn {
                self.losses[agent] += 1;
            }
            if agent == 0 {
                self.first_scores.add(s[seat] as f64);
            }
        }
    }
}

/// One game of a match as it was played, for the record (`vzero arena --games-out`).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The game's number in the match, from 0 (games finish out of order when several are
    /// played at once).
    pub number: usize,
    /// The agent in each seat (indices into the agents given to [`play_match`]).
    pub seat_agents: Vec<usize>,
    /// Every move from the match's start position, the random opening's included, in the
    /// variant's notation.
    pub moves: Vec<String>,
    /// Every seat's score.
    pub scores: Scores,
    /// Why it ended.
    pub termination: Termination,
}

impl PlayedGame {
    /// The game as text ([`GameText`]): a game of `variant` from `start` (position text) in the
    /// match `event` names, each seat named by `names` (one per agent), numbered as `[Round]`
    /// from 1.
    pub fn text(&self, event: &str, variant: Variant, start: &str, names: &[String]) -> GameText {
        let mut game = GameText::new(variant, start);
        game.tags.push(("Event".into(), event.into()));
        game.tags.push(("Round".into(), (self.number + 1).to_string()));
        game.seats = self.seat_agents.iter().map(|&agent| names[agent].clone()).collect();
        game.moves = self.moves.clone();
        game.result = Some(self.scores);
        game.termination = Some(self.termination);
        game
    }
}

/// How one arena game went: the game, and what the totals count.
#[derive(Clone, Debug)]
struct GameOutcome {
    played: PlayedGame,
    adjudicated: bool,
    /// The seat that forfeited the game, and why.
    forfeit: Option<(usize, Forfeit)>,
    /// Moves chosen from each seat.
    moves: Vec<usize>,
    /// Time spent choosing them, per seat.
    thinking: Vec<std::time::Duration>,
}

/// How to run a match.
#[derive(Clone, Copy, Debug)]
pub struct MatchOptions {
    /// Games to play (fewer if `stop_when` ends the match early).
    pub games: usize,
    /// Random plies at the start of each game, shared by the games of one seat rotation.
    pub opening_plies: u32,
    /// Games longer than this are adjudicated: by material where seats are
    /// `adjudicate_material` pawns apart, else draws.
    pub max_plies: u32,
    /// Pawns of material that decide a game at `max_plies` ([`rules::move_limit_standings`],
    /// as self-play's `selfplay.adjudicate_material`); 0: every such game is a draw.
    pub adjudicate_material: f32,
    /// Games played at once.
    pub threads: usize,
    /// Seed of the openings and of the agents' random choices.
    pub seed: u64,
    /// Once set, the games in progress are abandoned (counted as [`MatchResult::abandoned`],
    /// scored nowhere) and no new one starts: a stop signal ends a match at once, since a game
    /// whose players were told to stop searching would finish on hurried moves.
    pub abandon: Option<&'static AtomicBool>,
}

/// Plays a match from `start` between `agents` (one per seat), rotating seats so that each agent sits in
/// every seat equally often (for three players: all six seat orders in turn). The games of one
/// rotation cycle share an opening of `opening_plies` random moves, so seat order is the only
/// difference between them. `after_game` sees each game as it ends with the running totals
/// (one game at a time, in the order they end), and ends the match early by returning true (an
/// SPRT decision, say); the games in progress then finish. [`MatchOptions::abandon`] ends it at
/// once instead.
pub fn play_match<G: Material>(
    agents: &[&dyn Agent<G>],
    start: &G,
    opts: MatchOptions,
    after_game: &(dyn Fn(&MatchResult, &PlayedGame) -> bool + Sync),
) -> MatchResult {
    continue_match(agents, start, opts, &[], after_game)
}

/// [`play_match`] resumed: the games of `earlier` (played before, with the same agents and
/// options, numbered as [`PlayedGame::number`]) count as played and are not played again; the
/// rest of the match's games are played as they would have been in one sitting, since each
/// game's opening and the agents' seeds depend on its number alone. Earlier games numbered
/// past `opts.games`, and repeats of a number, are left out.
pub fn continue_match<G: Material>(
    agents: &[&dyn Agent<G>],
    start: &G,
    opts: MatchOptions,
    earlier: &[PlayedGame],
    after_game: &(dyn Fn(&MatchResult, &PlayedGame) -> bool + Sync),
) -> MatchResult {
    let n = G::NUM_PLAYERS;
    assert_eq!(agents.len(), n, "one agent per seat");
    let orders = seat_orders(n);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut done = vec![false; opts.games];
    let mut totals = MatchResult::new(n);
    for game in earlier {
        if game.number < opts.games && !done[game.number] {
            done[game.number] = true;
            totals.add_recorded(game);
        }
    }
    let result = Mutex::new(totals);
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.max(1) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                let abandoning = opts.abandon.is_some_and(|a| a.load(Ordering::Relaxed));
                if g >= opts.games || stop.load(Ordering::Relaxed) || abandoning {
                    break;
                }
                if done[g] {
                    continue;
                }
                let cycle = (g / orders.len()) as u64;
                let seat_agents = orders[g % orders.len()].clone();
                let outcome = play_one(agents, start, seat_agents, &opts, game_seed(opts.seed, cycle), g);
                let mut r = result.lock().expect("match totals");
                let Some(outcome) = outcome else {
                    r.abandoned += 1;
                    break;
                };
                r.add(&outcome);
                if after_game(&r, &outcome.played) {
                    stop.store(true, Ordering::Relaxed);
                }
            });
        }
    });
    result.into_inner().expect("match totals")
}

/// The agent in each seat of game `number` of a match between `players` agents.
pub fn seat_agents(players: usize, number: usize) -> Vec<usize> {
    let orders = seat_orders(players);
    orders[number % orders.len()].clone()
}

/// Seat orders used in turn: rotations for two players, all permutations for three.
fn seat_orders(n: usize) -> Vec<Vec<usize>> {
    match n {
        3 => vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1], vec![0, 2, 1], vec![2, 1, 0], vec![1, 0, 2]],
        _ => (0..n).map(|r| (0..n).map(|seat| (seat + r) % n).collect()).collect(),
    }
}

/// Plays game `number` with `seat_agents`; `None` if the match's abandon flag was set before it
/// ended.
fn play_one<G: Material>(
    agents: &[&dyn Agent<G>],
    start: &G,
    seat_agents: Vec<usize>,
    opts: &MatchOptions,
    opening_seed: u64,
    number: usize,
) -> Option<GameOutcome> {
    let game_number = number as u64;
    let n = G::NUM_PLAYERS;
    let (mut moves_by_seat, mut thinking) = (vec![0; n], vec![std::time::Duration::ZERO; n]);
    let mut game = start.clone();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(opening_seed);
    let mut moves = Vec::new();
    let mut played = Vec::new();
    let abandoned = || opts.abandon.is_some_and(|a| a.load(Ordering::Relaxed));
    let ended = |scores, adjudicated, termination, forfeit, moves, thinking, played: &Vec<String>| {
        // A move chosen after the flag was set may be a hurried one: the game counts for nothing.
        (!abandoned()).then(|| GameOutcome {
            played: PlayedGame { number, seat_agents: seat_agents.clone(), moves: played.clone(), scores, termination },
            adjudicated,
            forfeit,
            moves,
            thinking,
        })
    };
    for ply in 0..opts.max_plies {
        if abandoned() {
            return None;
        }
        if let Some(scores) = game.outcome() {
            return ended(scores, false, rules_ending(&game), None, moves_by_seat, thinking, &played);
        }
        let mv = if ply < opts.opening_plies {
            game.legal_moves(&mut moves);
            moves[rng.random_range(0..moves.len())]
        } else {
            let seed = game_seed(opts.seed ^ game_number, ply as u64);
            let seat = game.to_move();
            let so_far = GameSoFar { start, moves: &played, game: game_number };
            let began = std::time::Instant::now();
            let chosen = agents[seat_agents[seat]].try_choose(&game, &so_far, seed);
            thinking[seat] += began.elapsed();
            moves_by_seat[seat] += 1;
            match chosen {
                Ok(mv) => mv,
                Err(forfeit) => {
                    let scores = forfeited(seat, n);
                    let forfeit = Some((seat, forfeit));
                    return ended(scores, false, Termination::Forfeit, forfeit, moves_by_seat, thinking, &played);
                }
            }
        };
        played.push(game.move_text(mv));
        game.play(mv);
    }
    match game.outcome() {
        Some(scores) => ended(scores, false, rules_ending(&game), None, moves_by_seat, thinking, &played),
        None => {
            let standings = move_limit_standings(&game, opts.adjudicate_material);
            let ending = if standings.by_material { Termination::Material } else { Termination::MoveLimit };
            ended(standings.scores, true, ending, None, moves_by_seat, thinking, &played)
        }
    }
}

/// The ending of a game at the move limit that material decided (`--adjudicate-material`).
pub const MATERIAL_ENDING: &str = Termination::Material.name();

/// The rule that ended `game` (over).
fn rules_ending<G: Game>(game: &G) -> Termination {
    Termination::Rules(game.ending().unwrap_or(Ending::Other))
}

/// The scores of a game `seat` forfeited: 0 for it, and the rest of what a game hands out
/// (as much as a draw does) shared equally by the others: 1 to the opponent of two players,
/// 3/4 to each of the other two of three.
fn forfeited(seat: usize, players: usize) -> Scores {
    let total = Scores::draw(players).sum();
    let share = total / (players - 1) as f32;
    let values: Vec<f32> = (0..players).map(|p| if p == seat { 0.0 } else { share }).collect();
    Scores::new(&values)
}
