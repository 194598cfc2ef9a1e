//! The network interface: plane layout, the policy map, the mover's view and the mirror symmetry.

mod common;

use std::collections::{BTreeSet, HashSet};

use common::{plain_moves, transformed_text, Plain};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rules::hex::Cell;
use rules::hexchess::{Glinski, GlinskiRules, HexChess, HexMove, HexRules, MiniHexchess, MiniRules};
use rules::{Encoding, Game};

/// Positions from random games (every third ply), start positions included.
fn sample<V: HexRules>(games: usize, seed: u64) -> Vec<HexChess<V>> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut game = HexChess::<V>::start();
        for ply in 0.. {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if ply % 3 == 0 {
                out.push(game.clone());
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    out
}

/// Asserts equal plane buffers, naming the first differing element (not printing thousands).
#[track_caller]
fn same(a: &[f32], b: &[f32], what: &str) {
    assert_eq!(a.len(), b.len());
    if let Some(i) = (0..a.len()).find(|&i| a[i] != b[i]) {
        panic!("{what}: element {i} differs: {} vs {}", a[i], b[i]);
    }
}

fn planes<G: Encoding>(game: &G) -> Vec<f32> {
    let mut p = vec![f32::NAN; G::input_len()];
    game.encode(&mut p);
    assert!(p.iter().all(|x| x.is_finite()), "every element is written");
    p
}

#[test]
fn shapes_and_sizes_are_as_documented() {
    assert_eq!(Glinski::INPUT_SHAPE, &[16, 11, 11]);
    assert_eq!(Glinski::POLICY_SIZE, 111 * 121);
    assert_eq!(MiniHexchess::INPUT_SHAPE, &[13, 7, 7]);
    assert_eq!(MiniHexchess::POLICY_SIZE, 72 * 49);
    assert_eq!(Glinski::NUM_SYMMETRIES, 2);
}

#[test]
fn start_planes_hold_the_pieces_and_constants() {
    let p = planes(&Glinski::start());
    let area = 121;
    let count = |plane: usize| p[plane * area..(plane + 1) * area].iter().filter(|&&x| x != 0.0).count();
    // Mover's pawns, knights, bishops, rooks, queen, king; then the opponent's.
    assert_eq!((0..12).map(count).collect::<Vec<_>>(), vec![9, 2, 3, 2, 1, 1, 9, 2, 3, 2, 1, 1]);
    assert_eq!(count(12), 0, "no en-passant cell");
    assert_eq!(count(13), 0, "no repetition");
    assert_eq!(count(14), 0, "halfmove clock 0");
    assert_eq!(count(15), 91, "on-board mask");
    // The king g1 = (1, -5, 4) sits at x = q + 5 = 6, y = r + 5 = 0.
    assert_eq!(p[5 * area + 6], 1.0);
    // Black's view after Nd1-f4: Black's pieces stand where White's started (the setup is
    // top-bottom symmetric) and White's knight shows on f8, the reflection of f4.
    let mut game = Glinski::start();
    game.play(game.parse_move("d1-f4").unwrap());
    let seen =
        Glinski::from_text("b/qbk/2b1n/r2n2r/ppppppppp/11/5P5/4P1P4/3P1B1P3/2P2B2P2/1PRNQBKNRP1 w - 0 1").unwrap();
    let black_view = planes(&game);
    same(&black_view[..12 * area], &planes(&seen)[..12 * area], "black's view");
    assert_eq!(black_view[14 * area + 60], 0.01, "one quiet ply");
}

fn check_policy<V: HexRules>(positions: &[HexChess<V>]) {
    let mut moves = Vec::new();
    for game in positions {
        game.legal_moves(&mut moves);
        let mut seen = HashSet::new();
        for &m in &moves {
            let i = game.policy_index(m);
            assert!(i < HexChess::<V>::POLICY_SIZE);
            assert!(seen.insert(i), "two moves share policy index {i} in {}", game.to_text());
        }
    }
}

#[test]
fn policy_index_is_injective_on_legal_moves() {
    check_policy(&sample::<GlinskiRules>(60, 3));
    check_policy(&sample::<MiniRules>(150, 4));
}

fn flip(c: Cell) -> Cell {
    c.flip()
}

fn mirror(c: Cell) -> Cell {
    c.mirror()
}

fn map_move(m: HexMove, f: fn(Cell) -> Cell) -> HexMove {
    HexMove { from: f(m.from), to: f(m.to), ..m }
}

/// The position seen from the other side (cells flipped top-bottom, colours swapped) encodes to
/// the same planes and the same policy indices: the network always sees the mover playing up.
fn check_mover_view<V: HexRules>(positions: &[HexChess<V>]) {
    let mut moves = Vec::new();
    for game in positions {
        if game.repetitions() > 0 {
            continue; // position text does not carry the history the repetition plane shows
        }
        let twin = HexChess::<V>::from_text(&transformed_text(game, flip, true)).unwrap();
        same(&planes(&twin), &planes(game), &game.to_text());
        game.legal_moves(&mut moves);
        for &m in &moves {
            assert_eq!(twin.policy_index(map_move(m, flip)), game.policy_index(m));
        }
    }
}

#[test]
fn encoding_is_from_the_movers_point_of_view() {
    check_mover_view(&sample::<GlinskiRules>(20, 5));
    check_mover_view(&sample::<MiniRules>(60, 6));
}

fn check_mirror<V: HexRules>(positions: &[HexChess<V>]) {
    type G<V> = HexChess<V>;
    let mut moves = Vec::new();
    let mut out = vec![0.0; G::<V>::input_len()];
    let mut back = vec![0.0; G::<V>::input_len()];
    for game in positions.iter().filter(|g| g.repetitions() == 0) {
        let mirrored = G::<V>::from_text(&transformed_text(game, mirror, false)).unwrap();
        // The mirror maps legal moves onto legal moves, and no others.
        let image: BTreeSet<Plain> =
            plain_moves(game).into_iter().map(|(f, t, p)| (f.mirror(), t.mirror(), p)).collect();
        assert_eq!(plain_moves(&mirrored), image, "{}", game.to_text());
        let p = planes(game);
        G::<V>::transform_planes(1, &p, &mut out);
        same(&out, &planes(&mirrored), &game.to_text());
        G::<V>::transform_planes(1, &out, &mut back);
        same(&back, &p, "the mirror is an involution on planes");
        game.legal_moves(&mut moves);
        for &m in &moves {
            let i = game.policy_index(m);
            assert_eq!(G::<V>::transform_policy_index(1, i), mirrored.policy_index(map_move(m, mirror)));
        }
    }
    // A bijection and an involution on every index.
    let image: HashSet<usize> = (0..G::<V>::POLICY_SIZE).map(|i| G::<V>::transform_policy_index(1, i)).collect();
    assert_eq!(image.len(), G::<V>::POLICY_SIZE);
    for i in 0..G::<V>::POLICY_SIZE {
        assert_eq!(G::<V>::transform_policy_index(1, G::<V>::transform_policy_index(1, i)), i);
        assert_eq!(G::<V>::transform_policy_index(0, i), i);
    }
}

#[test]
fn mirror_symmetry_maps_legal_moves_planes_and_policy_consistently() {
    check_mirror(&sample::<GlinskiRules>(20, 7));
    check_mirror(&sample::<MiniRules>(60, 8));
}
