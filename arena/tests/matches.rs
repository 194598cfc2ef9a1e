//! Matches rotate seats fairly, share openings between seat orders, and stop when asked.

use arena::{continue_match, play_match, Agent, GreedyAgent, MatchOptions, MatchResult, PlayedGame, RandomAgent};
use rules::hexchess::MiniHexchess;
use rules::wellisch::Wellisch;
use rules::Game;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

fn opts(games: usize, threads: usize) -> MatchOptions {
    MatchOptions { games, opening_plies: 2, max_plies: 120, adjudicate_material: 0.0, threads, seed: 5, abandon: None }
}

#[test]
fn two_player_seats_alternate_and_totals_add_up() {
    let agents: [&dyn Agent<MiniHexchess>; 2] = [&GreedyAgent, &RandomAgent];
    let r = play_match::<MiniHexchess>(&agents, &MiniHexchess::start(), opts(30, 2), &|_, _| false);
    assert_eq!(r.games, 30);
    for agent in 0..2 {
        assert_eq!(r.seat_games[agent], vec![15, 15], "agent {agent} seats");
    }
    // Mini Hexchess has no partial results: every game is a win, a draw or a loss.
    assert_eq!(r.wins[0] + r.draws + r.losses[0], 30);
    assert_eq!(r.partial(0), 0);
    assert_eq!(r.wins[1], r.losses[0], "the second agent's wins are the first one's losses");
    assert!((r.mean_score(0) + r.mean_score(1) - 1.0).abs() < 1e-9);
    assert_eq!(r.first_scores.games(), 30.0);
    assert!((r.first_scores.mean() - r.mean_score(0)).abs() < 1e-9, "the tally is the first agent's scores");
}

#[test]
fn three_player_matches_use_every_seat_order_equally_often() {
    let agents: [&dyn Agent<Wellisch>; 3] = [&GreedyAgent, &RandomAgent, &RandomAgent];
    let r = play_match::<Wellisch>(&agents, &Wellisch::start(), opts(12, 2), &|_, _| false);
    for agent in 0..3 {
        assert_eq!(r.seat_games[agent], vec![4, 4, 4], "agent {agent} seats");
    }
    let total: f64 = (0..3).map(|a| r.mean_score(a)).sum();
    assert!((total - 1.5).abs() < 1e-9, "Wellisch scores sum to 3/2 per game, got {total}");
}

#[test]
fn a_match_is_reproducible_and_stops_when_asked() {
    let agents: [&dyn Agent<MiniHexchess>; 2] = [&GreedyAgent, &RandomAgent];
    let a = play_match::<MiniHexchess>(&agents, &MiniHexchess::start(), opts(10, 1), &|_, _| false);
    let b = play_match::<MiniHexchess>(&agents, &MiniHexchess::start(), opts(10, 2), &|_, _| false);
    // Thinking time is wall-clock time, which no seed fixes; everything else must agree.
    let untimed = |r: MatchResult| MatchResult { thinking: Vec::new(), ..r };
    assert_eq!(untimed(a), untimed(b), "the same seed gives the same totals, however many threads");
    let stopped = play_match::<MiniHexchess>(&agents, &MiniHexchess::start(), opts(50, 1), &|r, _| r.games >= 7);
    assert_eq!(stopped.games, 7);
}

/// An `after_game` that keeps every game in `played` and never stops the match.
fn record(played: &Mutex<Vec<PlayedGame>>) -> impl Fn(&MatchResult, &PlayedGame) -> bool + Sync + '_ {
    move |_, game| {
        played.lock().unwrap().push(game.clone());
        false
    }
}

#[test]
fn a_resumed_match_plays_only_the_missing_games_and_ends_as_one_sitting_would() {
    let agents: [&dyn Agent<MiniHexchess>; 2] = [&GreedyAgent, &RandomAgent];
    let start = MiniHexchess::start();
    let whole_games = Mutex::new(Vec::new());
    let whole = play_match::<MiniHexchess>(&agents, &start, opts(10, 2), &record(&whole_games));
    let mut whole_games = whole_games.into_inner().unwrap();
    whole_games.sort_by_key(|g| g.number);
    // Four games kept from a first sitting, one of them twice, and one of a longer match.
    let mut earlier: Vec<PlayedGame> = [0, 3, 4, 9, 3].iter().map(|&n| whole_games[n].clone()).collect();
    earlier.push(PlayedGame { number: 12, ..whole_games[0].clone() });
    let resumed_games = Mutex::new(Vec::new());
    let resumed = continue_match::<MiniHexchess>(&agents, &start, opts(10, 2), &earlier, &record(&resumed_games));
    let mut resumed_games = resumed_games.into_inner().unwrap();
    resumed_games.sort_by_key(|g| g.number);
    let numbers: Vec<usize> = resumed_games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, [1, 2, 5, 6, 7, 8], "only the games not kept are played, each once");
    for game in &resumed_games {
        assert_eq!(game, &whole_games[game.number], "game {} is played as in one sitting", game.number);
    }
    // Moves and thinking time are counted for the games played now only; the rest must agree.
    let results = |r: MatchResult| MatchResult { thinking: Vec::new(), moves: Vec::new(), ..r };
    assert_eq!(results(resumed), results(whole));
}

/// Raises the match's abandon flag at its `at`-th move (counted over all games), then plays
/// greedily: a stop signal arriving mid-game.
struct RaisesTheFlag {
    at: usize,
    moves: AtomicUsize,
    flag: &'static AtomicBool,
}

impl Agent<MiniHexchess> for RaisesTheFlag {
    fn name(&self) -> String {
        "raises the flag".into()
    }

    fn choose(&self, game: &MiniHexchess, seed: u64) -> <MiniHexchess as Game>::Move {
        if self.moves.fetch_add(1, Ordering::SeqCst) + 1 == self.at {
            self.flag.store(true, Ordering::SeqCst);
        }
        GreedyAgent.choose(game, seed)
    }
}

#[test]
fn an_abandoned_match_scores_the_games_in_progress_nowhere() {
    let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    // Random openings of 2 plies, then the flag at this agent's 4th move: no game is over yet.
    let raiser = RaisesTheFlag { at: 4, moves: AtomicUsize::new(0), flag };
    let agents: [&dyn Agent<MiniHexchess>; 2] = [&raiser, &RandomAgent];
    let o = MatchOptions { abandon: Some(flag), ..opts(10, 1) };
    let r = play_match::<MiniHexchess>(&agents, &MiniHexchess::start(), o, &|_, _| false);
    assert_eq!((r.games, r.abandoned), (0, 1), "{r:?}");
    assert_eq!(r.score, vec![0.0, 0.0]);
    // Set before the match: no game starts, so none is abandoned.
    let r = play_match::<MiniHexchess>(&agents, &MiniHexchess::start(), o, &|_, _| false);
    assert_eq!((r.games, r.abandoned), (0, 0), "{r:?}");
}

#[test]
fn paired_games_share_their_opening() {
    // The whole game is the shared random opening, so the two games of a pair are the same
    // game with the agents' seats swapped: every decisive result is matched by the opposite
    // one, which independent openings would not give.
    let agents: [&dyn Agent<MiniHexchess>; 2] = [&RandomAgent, &RandomAgent];
    let o = MatchOptions {
        games: 40,
        opening_plies: 300,
        max_plies: 300,
        adjudicate_material: 0.0,
        threads: 1,
        seed: 9,
        abandon: None,
    };
    let r = play_match::<MiniHexchess>(&agents, &MiniHexchess::start(), o, &|_, _| false);
    assert!(r.wins[0] + r.wins[1] >= 4, "too few decisive games to tell: {r:?}");
    assert_eq!(r.wins[0], r.wins[1], "{r:?}");
    assert_eq!(r.seat_wins[0][0], r.seat_wins[1][0], "{r:?}");
}

#[test]
fn the_move_limit_scores_a_material_lead_as_a_win_when_asked() {
    // Black is a rook short; a move limit of 0 stops every game where it starts.
    let lead = MiniHexchess::from_text("b/1kn/ppppp/7/3P3/2PKP2/1PNBRP1 w - 0 1").unwrap();
    let agents: [&dyn Agent<MiniHexchess>; 2] = [&GreedyAgent, &RandomAgent];
    let at_limit = |margin: f32| MatchOptions {
        games: 4,
        opening_plies: 0,
        max_plies: 0,
        adjudicate_material: margin,
        threads: 1,
        seed: 3,
        abandon: None,
    };
    let r = play_match::<MiniHexchess>(&agents, &lead, at_limit(3.0), &|_, _| false);
    assert_eq!(r.endings.get(arena::MATERIAL_ENDING), Some(&4), "{r:?}");
    assert_eq!((r.wins[0], r.wins[1], r.draws), (2, 2, 0), "white wins each game, whoever sits there");
    assert_eq!(r.adjudicated, 4);
    // A lead smaller than the margin, or no margin at all, is a draw.
    for margin in [5.5, 0.0] {
        let r = play_match::<MiniHexchess>(&agents, &lead, at_limit(margin), &|_, _| false);
        assert_eq!((r.draws, r.endings.get("move limit")), (4, Some(&4)), "margin {margin}: {r:?}");
    }
    // Level material is a draw at any margin.
    let r = play_match::<MiniHexchess>(&agents, &MiniHexchess::start(), at_limit(0.5), &|_, _| false);
    assert_eq!((r.draws, r.endings.get("move limit")), (4, Some(&4)), "{r:?}");
}

/// Every game handed to the caller as it ends, as text and read back.
fn games_as_text<G: Game + rules::Material>(agents: &[&dyn Agent<G>], variant: rules::Variant) -> Vec<rules::GameText> {
    let texts = std::sync::Mutex::new(Vec::new());
    let names: Vec<String> = agents.iter().map(|a| a.name()).collect();
    let start = G::start().to_text();
    let r = play_match::<G>(agents, &G::start(), opts(12, 2), &|_, game| {
        texts.lock().unwrap().push(game.text("test", variant, &start, &names).write());
        false
    });
    let texts = texts.into_inner().unwrap();
    assert_eq!((r.games, texts.len()), (12, 12));
    let read = rules::read_games(&texts.concat(), None).unwrap();
    let ended: usize = r.endings.values().sum();
    assert_eq!(ended, read.len());
    for (name, &count) in &r.endings {
        assert_eq!(read.iter().filter(|g| g.termination.map(|t| t.name()) == Some(name)).count(), count, "{name}");
    }
    read
}

#[test]
fn the_games_of_a_match_are_handed_over_and_read_back_as_text() {
    let two: [&dyn Agent<MiniHexchess>; 2] = [&GreedyAgent, &RandomAgent];
    let games = games_as_text(&two, rules::Variant::MiniHexchess);
    assert!(games.iter().all(|g| g.seats.len() == 2 && g.seats.contains(&"greedy".to_string())));
    let three: [&dyn Agent<Wellisch>; 3] = [&GreedyAgent, &RandomAgent, &RandomAgent];
    let games = games_as_text(&three, rules::Variant::Wellisch);
    let mut rounds: Vec<&str> = games.iter().filter_map(|g| g.tag("Round")).collect();
    rounds.sort_by_key(|r| r.parse::<usize>().unwrap());
    assert_eq!(rounds, (1..=12).map(|n| n.to_string()).collect::<Vec<_>>());
}
