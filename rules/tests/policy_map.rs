//! The policy map as data agrees with `policy_index`: every legal move of random positions maps
//! to an entry whose cells, named for the mover, are the move's cells in its text.

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rules::wellisch::Wellisch;
use rules::weltschach::Weltschach;
use rules::{Encoding, Glinski, MiniHexchess, PolicyMap};

/// The cell-like tokens of move text (letters then digits), in order: `f5xf6=Q` gives `f5`, `xf6`.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (bytes, mut start) = (text.as_bytes(), None);
    for (i, &b) in bytes.iter().enumerate() {
        let ends = i + 1 == bytes.len() || !bytes[i + 1].is_ascii_digit();
        match start {
            None if b.is_ascii_alphabetic() => start = Some(i),
            Some(s) if b.is_ascii_digit() && ends => {
                out.push(&text[s..=i]);
                start = None;
            }
            Some(_) if !b.is_ascii_alphanumeric() => start = None,
            _ => {}
        }
    }
    out
}

/// Checks every legal move of `plies` plies of `games` random games; returns the moves checked.
/// Wellisch moves promoting a pawn other than the first waiting one have no canonical index and
/// are skipped (`skip` says whether an index is in a block that holds such moves).
fn check<G: Encoding>(games: usize, plies: usize, seed: u64, skip: impl Fn(usize) -> bool) -> usize {
    let map: PolicyMap = G::policy_map();
    assert_eq!(map.moves.len(), G::POLICY_SIZE);
    let squares: usize = G::INPUT_SHAPE[1..].iter().product();
    assert_eq!(map.cells.len(), G::NUM_PLAYERS);
    assert!(map.cells.iter().all(|c| c.len() == squares));
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut moves, mut checked) = (Vec::new(), 0);
    for _ in 0..games {
        let mut game = G::start();
        for _ in 0..plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let names = &map.cells[game.to_move()];
            for &mv in &moves {
                let (index, text) = (game.policy_index(mv), game.move_text(mv));
                let entry = map.moves[index].as_ref().unwrap_or_else(|| panic!("{text}: index {index} has no entry"));
                let cells: Vec<&str> = [entry.from, entry.to]
                    .iter()
                    .flatten()
                    .map(|&sq| names[sq].as_deref().unwrap_or_else(|| panic!("{text}: square {sq} is padding")))
                    .collect();
                let found = tokens(&text);
                let agrees = cells.len() == found.len().min(2)
                    && cells.iter().zip(&found).all(|(c, t)| t.ends_with(c))
                    && [entry.promotion, entry.with_promotion].iter().flatten().all(|p| text.contains(*p));
                if !agrees && skip(index) {
                    continue;
                }
                assert!(agrees, "{text} (index {index}): map says {entry:?} = {cells:?}");
                checked += 1;
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    checked
}

#[test]
fn hex_chess_moves_are_where_the_map_says() {
    assert!(check::<Glinski>(4, 200, 1, |_| false) > 10_000);
    assert!(check::<MiniHexchess>(6, 200, 2, |_| false) > 3_000);
}

#[test]
fn wellisch_moves_are_where_the_map_says() {
    let plain_block = rules::wellisch::POLICY_BLOCK;
    assert!(check::<Wellisch>(3, 300, 3, |i| i >= plain_block) > 10_000);
}

#[test]
fn weltschach_moves_are_where_the_map_says() {
    assert!(check::<Weltschach>(2, 120, 4, |_| false) > 10_000);
}
