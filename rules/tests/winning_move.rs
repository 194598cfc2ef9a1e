//! `Game::winning_move` as each variant speeds it up agrees with its definition (play every
//! legal move, keep the first that wins at once) on positions from random games of every variant.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rules::wellisch::{Options, Wellisch};
use rules::weltschach::{Kind, Weltschach};
use rules::{winning_move_by_trying, wins_by};
use rules::{Game, Glinski, Material, MiniHexchess};

/// Positions seen and how many of them had a winning move.
#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    wins: usize,
}

/// Plays `games` random games from `start()` (captures preferred with a varying greed, so boards
/// thin out and mates come within reach) for at most `plies` plies each, comparing the fast and
/// the defining answer in every position.
fn compare<G: Game>(
    start: impl Fn(usize) -> G,
    is_capture: impl Fn(&G, G::Move) -> bool,
    games: usize,
    plies: usize,
    seed: u64,
) -> Tally {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut moves = Vec::new();
    for g in 0..games {
        let greed = [0.3, 0.7, 0.95][g % 3];
        let mut game = start(g);
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let fast = game.winning_move();
            assert_eq!(fast, winning_move_by_trying(&game), "{} in {}", G::NAME, game.to_text());
            tally.positions += 1;
            if let Some(mv) = fast {
                tally.wins += 1;
                assert!(wins_by(&game, mv).is_some());
                // Go on without the win half of the time, so games also reach later mates.
                if rng.random_bool(0.5) {
                    game.play(mv);
                    continue;
                }
            }
            let captures: Vec<G::Move> = moves.iter().copied().filter(|&m| is_capture(&game, m)).collect();
            let mv = if !captures.is_empty() && rng.random_bool(greed) {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            game.play(mv);
        }
    }
    println!("{}: {tally:?}", G::NAME);
    tally
}

/// Enough positions with a win that a filter dropping some kind of winning move would be seen.
fn assert_covered(tally: &Tally, min_wins: usize) {
    assert!(tally.wins >= min_wins, "too few positions with a win to test against: {tally:?}");
    assert!(tally.positions > 10 * tally.wins, "too few positions without one: {tally:?}");
}

#[test]
fn glinski_winning_moves_agree_with_trying_every_move() {
    let tally = compare(|_| Glinski::start(), |g, m| g.capture_value(m) > 0.0, 300, 300, 1);
    assert_covered(&tally, 80);
}

#[test]
fn mini_hexchess_winning_moves_agree_with_trying_every_move() {
    let tally = compare(|_| MiniHexchess::start(), |g, m| g.capture_value(m) > 0.0, 600, 200, 2);
    assert_covered(&tally, 150);
}

#[test]
fn wellisch_winning_moves_agree_with_trying_every_move() {
    // With the takeover rule the first king capture does not end the game: it must not count.
    let start = |g: usize| Wellisch::start_with(Options { takeover: g % 2 == 1, threefold: g % 4 == 3 });
    let tally = compare(start, |g, m| g.capture_value(m) > 0.0, 600, 400, 3);
    assert_covered(&tally, 100);
}

/// A legal Weltschach position with the two Emperors and a few random pieces of either colour:
/// mates in one are rare from the start position, whose 176 pieces a side random games barely
/// thin out.
fn sparse_weltschach(seed: usize) -> Weltschach {
    let mut rng = SmallRng::seed_from_u64(seed as u64);
    let pieces: Vec<Kind> = Kind::ALL.into_iter().filter(|&k| k != Kind::Emperor).collect();
    let cell = |rng: &mut SmallRng| {
        let [z, x, y] = [0, 0, 0].map(|_| rng.random_range(0..8u8));
        format!("{}{}{}", (b's' + z) as char, (b'a' + x) as char, (b'1' + y) as char)
    };
    loop {
        let mut list = format!("K{} k{}", cell(&mut rng), cell(&mut rng));
        for _ in 0..rng.random_range(4..14) {
            let letter = pieces[rng.random_range(0..pieces.len())].letter();
            let letter = if rng.random_bool(0.5) { letter } else { letter.to_ascii_lowercase() };
            list += &format!(" {letter}{}", cell(&mut rng));
        }
        if let Ok(pos) = Weltschach::from_placements(seed % 2, &list) {
            return pos;
        }
    }
}

#[test]
fn weltschach_winning_moves_agree_with_trying_every_move() {
    let tally = compare(|_| Weltschach::start(), |g, m| g.piece_at(m.to()).is_some(), 30, 300, 4);
    assert!(tally.positions > 5000, "{tally:?}");
    let tally = compare(sparse_weltschach, |g, m| g.piece_at(m.to()).is_some(), 1500, 40, 5);
    assert_covered(&tally, 8);
}
