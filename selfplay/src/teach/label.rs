//! A teacher's labels for one position, from the alpha-beta scores of all its root moves: the
//! policy target (a softmax over centipawns) and the value (the best score, squashed), and the
//! move the teacher plays (a softmax draw, so that games differ).

use rand::RngExt;

/// Visit-count units a policy target is written in: shares are stored as counts out of this
/// (replay records hold counts), so a share below half a unit is dropped.
pub const POLICY_UNITS: f32 = 1000.0;

/// `softmax(score / temperature)` over `scores` (centipawns) ([`mcts::softmax`], which the
/// tactical prior shares): mate scores (ten million) do not overflow, and temperature 0 shares
/// the whole weight among the best moves.
pub fn softmax(scores: &[i32], temperature: f32) -> Vec<f32> {
    let scores: Vec<f64> = scores.iter().map(|&s| s as f64).collect();
    mcts::softmax(&scores, temperature as f64)
}

/// The policy target as (policy index, count) pairs: `softmax(score / temperature)` in
/// [`POLICY_UNITS`], moves rounding to 0 left out, the best move always kept; temperature 0
/// is the best move alone (equal best moves share it).
pub fn policy_target(indices: &[u32], scores: &[i32], temperature: f32) -> Vec<(u32, u32)> {
    let shares = softmax(scores, temperature);
    let best = scores.iter().enumerate().max_by_key(|&(_, &s)| s).map_or(0, |(i, _)| i);
    indices
        .iter()
        .zip(&shares)
        .enumerate()
        .filter_map(|(i, (&index, &p))| {
            let count = (p * POLICY_UNITS).round() as u32;
            let count = if i == best { count.max(1) } else { count };
            (count > 0).then_some((index, count))
        })
        .collect()
}

/// The index of the move to play: drawn from `softmax(score / temperature)`, or the best
/// (the first of equals) at temperature 0.
pub fn choose(scores: &[i32], temperature: f32, rng: &mut impl rand::Rng) -> usize {
    let best = scores.iter().enumerate().max_by_key(|&(i, &s)| (s, std::cmp::Reverse(i))).map_or(0, |(i, _)| i);
    if temperature <= 0.0 {
        return best;
    }
    let shares = softmax(scores, temperature);
    let mut x: f32 = rng.random();
    for (i, p) in shares.iter().enumerate() {
        if x < *p {
            return i;
        }
        x -= p;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_best_move_gets_the_largest_target() {
        let scores = [120, -40, 300, 300 - 200, -5000];
        let target = policy_target(&[7, 8, 9, 10, 11], &scores, 200.0);
        let largest = target.iter().max_by_key(|&&(_, n)| n).unwrap();
        assert_eq!(largest.0, 9, "{target:?}");
        // 200 cp below the best is e^-1 of its share.
        let of = |i: u32| target.iter().find(|&&(j, _)| j == i).map_or(0, |&(_, n)| n) as f32;
        assert!((of(10) / of(9) - (-1.0f32).exp()).abs() < 0.01, "{target:?}");
        assert!(target.iter().all(|&(i, _)| i != 11), "a move 53 pawns worse rounds to nothing");
        let total: u32 = target.iter().map(|&(_, n)| n).sum();
        assert!((999..=1001).contains(&total), "{total}");
    }

    /// Centipawn scores as an evaluation of material plus a centipawn a legal move gives them:
    /// sound quiet moves a few apart, a move that hangs a pawn a pawn below them.
    const QUIET: [i32; 6] = [4, 5, 2, 0, -95, -3];

    #[test]
    fn a_sharp_target_puts_the_best_move_first_and_drops_the_hung_pawn() {
        let indices = [10, 11, 12, 13, 14, 15];
        let count = |target: &[(u32, u32)], i: u32| target.iter().find(|&&(j, _)| j == i).map_or(0, |&(_, n)| n);
        let sharp = policy_target(&indices, &QUIET, 10.0);
        let order: Vec<u32> = {
            let mut t = sharp.clone();
            t.sort_by_key(|&(i, n)| (std::cmp::Reverse(n), i));
            t.iter().map(|&(i, _)| i).collect()
        };
        assert_eq!(order, vec![11, 10, 12, 13, 15], "by score, the hung pawn left out: {sharp:?}");
        // 10 cp: a move 5 cp worse gets e^-0.5 of the best's share, 8 cp worse e^-0.8.
        let ratio = |i| count(&sharp, i) as f32 / count(&sharp, 11) as f32;
        assert!((ratio(13) - (-0.5f32).exp()).abs() < 0.01, "{sharp:?}");
        assert!((ratio(15) - (-0.8f32).exp()).abs() < 0.01, "{sharp:?}");
        // 200 cp, the old default: every quiet move within 3% of the best and the hung pawn
        // still 0.61 of it, the flat target the sharp one replaces.
        let soft = policy_target(&indices, &QUIET, 200.0);
        let soft_ratio = |i| count(&soft, i) as f32 / count(&soft, 11) as f32;
        assert!((10..=15).filter(|&i| i != 14).all(|i| soft_ratio(i) > 0.96), "{soft:?}");
        assert!((soft_ratio(14) - 0.61).abs() < 0.01, "{soft:?}");
    }

    #[test]
    fn temperature_zero_targets_the_best_move_alone_and_splits_ties() {
        assert_eq!(policy_target(&[10, 11, 12, 13, 14, 15], &QUIET, 0.0), vec![(11, 1000)]);
        assert_eq!(policy_target(&[7, 8, 9], &[30, -10, 30], 0.0), vec![(7, 500), (9, 500)]);
    }

    #[test]
    fn mate_scores_do_not_overflow() {
        let shares = softmax(&[alphabeta::MATE - 1, 0, -alphabeta::MATE + 2], 200.0);
        assert_eq!(shares, vec![1.0, 0.0, 0.0]);
    }

    #[test]
    fn choices_follow_the_softmax_and_temperature_zero_is_the_best() {
        let scores = [0, 100, 100, -300];
        assert_eq!(choose(&scores, 0.0, &mut rand::rngs::Xoshiro256PlusPlus::seed_from_u64(1)), 1);
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(2);
        let mut counts = [0; 4];
        for _ in 0..4000 {
            counts[choose(&scores, 100.0, &mut rng)] += 1;
        }
        let shares = softmax(&scores, 100.0);
        for (c, p) in counts.iter().zip(&shares) {
            assert!((*c as f32 / 4000.0 - p).abs() < 0.03, "{counts:?} vs {shares:?}");
        }
    }
}
