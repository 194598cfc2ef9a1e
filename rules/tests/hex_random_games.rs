//! Thousands of random games per variant, checking invariants after every move and that the
//! sample reaches every rule.

mod common;

use common::{plain_moves, Kind, Reference};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rules::hexchess::{GlinskiRules, HexChess, HexMove, HexRules, MiniRules, Piece};
use rules::{Ending, Game, Material};

/// How often each rule was reached.
#[derive(Default, Debug)]
struct Coverage {
    plies: usize,
    promotions: [usize; 6],
    en_passant: usize,
    checkmates: usize,
    stalemates: usize,
    fifty_move_draws: usize,
    repetition_draws: usize,
    insufficient_material_draws: usize,
    reference_positions: usize,
}

/// Whether only the two kings are left, read from the position text (independent of the engine).
fn bare_kings(text: &str) -> bool {
    let board = text.split(' ').next().expect("a board field");
    board.chars().all(|c| c.is_ascii_digit() || matches!(c, '/' | 'k' | 'K'))
}

/// Picks a move: captures and promotions are preferred with probability `greed`, which thins the
/// board out so that endgames (promotions, stalemates, repetitions, 100 quiet plies) come often.
fn choose<V: HexRules>(game: &HexChess<V>, moves: &[HexMove], rng: &mut SmallRng, greed: f64) -> HexMove {
    if rng.random_bool(greed) {
        let forcing: Vec<HexMove> = moves
            .iter()
            .copied()
            .filter(|m| m.promotion.is_some() || game.piece_at(m.to).is_some() || Some(m.to) == game.en_passant())
            .collect();
        if !forcing.is_empty() {
            return forcing[rng.random_range(0..forcing.len())];
        }
    }
    moves[rng.random_range(0..moves.len())]
}

fn play_random_games<V: HexRules>(kind: Kind, games: usize, seed: u64, reference_every: usize) -> Coverage {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut cov = Coverage::default();
    let mut moves = Vec::new();
    for g in 0..games {
        // Vary the greed so both long quiet games and quick liquidations occur.
        let greed = [0.0, 0.5, 0.9][g % 3];
        let mut game = HexChess::<V>::start();
        loop {
            assert_eq!(game.hash(), game.hash_from_scratch(), "incremental hash in {game:?}");
            let text = game.to_text();
            let back = HexChess::<V>::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back.to_text(), text);
            assert_eq!(back.hash(), game.hash());
            let copy = game.clone();
            assert_eq!(copy, game);

            game.legal_moves(&mut moves);
            // Bare kings are a draw where stalemate is one (Mini); in Glinski a stalemate of bare
            // kings scores 3/4, so they play on (docs/notation-hex.md).
            let insufficient = kind == Kind::Mini && bare_kings(&text);
            let drawn_by_rule = game.halfmove_clock() >= 100 || game.repetitions() >= 2 || insufficient;
            if g % reference_every == 0 && !drawn_by_rule {
                let reference = Reference::of(&game, kind);
                assert_eq!(plain_moves(&game), reference.legal(), "legal moves differ in {text}");
                assert_eq!(game.in_check(), reference.king_attacked(game.to_move()));
                cov.reference_positions += 1;
            }
            if let Some(scores) = game.outcome() {
                assert!(moves.is_empty(), "moves in a finished game {text}");
                assert_eq!(scores.sum(), 1.0);
                let mover = game.to_move();
                // Mate and stalemate take precedence over the draw rules (docs/rules/glinski.md),
                // so classify by whether any move exists at all, asked of the independent
                // reference.
                if Reference::of(&game, kind).legal().is_empty() {
                    if game.in_check() {
                        assert_eq!(scores.get(mover), 0.0, "mated player's score");
                        assert_eq!(game.ending(), Some(Ending::Checkmate));
                        assert_eq!(game.tactical_outcome(), Some(scores), "the captures' end test sees mate");
                        cov.checkmates += 1;
                    } else {
                        let expected = if kind == Kind::Glinski { 0.25 } else { 0.5 };
                        assert_eq!(scores.get(mover), expected, "stalemated player's score");
                        assert_eq!(game.ending(), Some(Ending::Stalemate));
                        cov.stalemates += 1;
                    }
                } else if game.halfmove_clock() >= 100 {
                    assert_eq!(scores.get(0), 0.5);
                    assert_eq!(game.ending(), Some(Ending::QuietPlies));
                    assert_eq!(game.tactical_outcome(), Some(scores), "the captures' end test sees draws");
                    cov.fifty_move_draws += 1;
                } else if game.repetitions() >= 2 {
                    assert_eq!(scores.get(0), 0.5);
                    assert_eq!(game.ending(), Some(Ending::Repetition));
                    assert_eq!(game.tactical_outcome(), Some(scores), "the captures' end test sees draws");
                    cov.repetition_draws += 1;
                } else {
                    assert!(insufficient, "a draw by no rule in {text}");
                    assert_eq!(scores.get(0), 0.5);
                    assert_eq!(game.ending(), Some(Ending::InsufficientMaterial));
                    assert_eq!(game.tactical_outcome(), Some(scores), "the captures' end test sees draws");
                    cov.insufficient_material_draws += 1;
                }
                break;
            }
            assert!(!moves.is_empty(), "no moves but no outcome in {text}");
            assert!(!insufficient, "bare kings play on in {text}");
            assert_eq!(game.count_legal_moves(), moves.len() as u64);
            // The captures-only generator lists exactly the legal moves that capture.
            let mut captures = Vec::new();
            game.legal_captures(&mut captures);
            let capturing: Vec<HexMove> = moves.iter().copied().filter(|&m| game.capture_value(m) > 0.0).collect();
            assert_eq!(captures, capturing, "captures differ in {text}");
            let mut counted = Vec::new();
            assert_eq!(game.count_and_captures(&mut counted), moves.len() as u32, "count in {text}");
            assert_eq!(counted, capturing, "counted captures differ in {text}");
            assert_eq!(game.tactical_outcome(), None, "a live position is not over in {text}");

            let mv = choose(&game, &moves, &mut rng, greed);
            if let Some(p) = mv.promotion {
                cov.promotions[p as usize] += 1;
            }
            if mv.piece == Piece::Pawn && Some(mv.to) == game.en_passant() {
                cov.en_passant += 1;
            }
            let mover = game.to_move();
            let before = game.clone();
            game.play(mv);
            cov.plies += 1;
            // The move must not leave the mover's king attacked (independent attack test).
            assert!(
                !Reference::of(&game, kind).king_attacked(mover),
                "{} leaves the king attacked in {text}",
                before.move_text(mv)
            );
            // Move text names exactly this move.
            assert_eq!(before.parse_move(&before.move_text(mv)), Ok(mv));
        }
    }
    cov
}

#[test]
fn glinski_random_games_keep_invariants_and_reach_every_rule() {
    let cov = play_random_games::<GlinskiRules>(Kind::Glinski, 2000, 1, 25);
    println!("{cov:?}");
    for p in [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight] {
        assert!(cov.promotions[p as usize] > 0, "no promotion to {p:?}: {cov:?}");
    }
    assert!(cov.en_passant > 0, "{cov:?}");
    assert!(cov.checkmates > 0, "{cov:?}");
    assert!(cov.stalemates > 0, "{cov:?}");
    assert!(cov.fifty_move_draws > 0, "{cov:?}");
    assert!(cov.repetition_draws > 0, "{cov:?}");
    assert_eq!(cov.insufficient_material_draws, 0, "{cov:?}");
}

#[test]
fn mini_random_games_keep_invariants_and_reach_every_rule() {
    let cov = play_random_games::<MiniRules>(Kind::Mini, 3000, 2, 25);
    println!("{cov:?}");
    for p in [Piece::Rook, Piece::Bishop, Piece::Knight] {
        assert!(cov.promotions[p as usize] > 0, "no promotion to {p:?}: {cov:?}");
    }
    assert_eq!(cov.promotions[Piece::Queen as usize], 0);
    assert_eq!(cov.en_passant, 0);
    assert!(cov.checkmates > 0, "{cov:?}");
    assert!(cov.stalemates > 0, "{cov:?}");
    assert!(cov.fifty_move_draws > 0, "{cov:?}");
    assert!(cov.repetition_draws > 0, "{cov:?}");
    assert!(cov.insufficient_material_draws > 0, "{cov:?}");
}
