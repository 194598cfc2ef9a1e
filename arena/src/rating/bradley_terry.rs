//! One rating scale for many players from many matches: the maximum-likelihood Bradley-Terry
//! (logistic Elo) fit that BayesElo and Ordo make, with draws scored as half a win and a 95%
//! interval per player from the curvature of the likelihood.

/// A match between two players of the fit (indices into its player list).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    /// The first player.
    pub a: usize,
    /// The second player.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// The first player's total score over them (a win 1, a draw 1/2).
    pub score: f64,
}

/// A player's place on the fitted scale, relative to the anchor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo, the anchor at 0.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// One drawn game added to every pairing that met (BayesElo's "prior" of virtual draws): without
/// it a player who won every game would have an infinite rating, which a finite match cannot show.
const PRIOR_DRAWS: f64 = 1.0;

/// Elo per natural-log unit of the strength ratio.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// Fits ratings to `results` with `anchor` at 0. A player with no chain of matches to the
/// anchor cannot be placed on its scale and gets `None`.
pub fn fit_ratings(players: usize, results: &[PairResult], anchor: usize) -> Vec<Option<Rating>> {
    let placed = connected_to(players, results, anchor);
    // Unknowns: every placed player but the anchor, in index order.
    let unknown: Vec<usize> = (0..players).filter(|&p| placed[p] && p != anchor).collect();
    let slot = |p: usize| unknown.iter().position(|&u| u == p);
    let mut r = vec![0.0f64; players];
    let mut covariance = Vec::new();
    for _ in 0..100 {
        let (gradient, hessian) = derivatives(&r, results, &unknown, &slot);
        let Some(inverse) = invert(&hessian) else { break };
        let mut largest = 0.0f64;
        for (i, &p) in unknown.iter().enumerate() {
            let delta: f64 = (0..unknown.len()).map(|j| inverse[i][j] * gradient[j]).sum();
            r[p] += delta;
            largest = largest.max(delta.abs());
        }
        covariance = inverse;
        if largest < 1e-10 {
            break;
        }
    }
    (0..players)
        .map(|p| {
            if !placed[p] {
                return None;
            }
            let half = slot(p).map_or(0.0, |i| 1.959964 * covariance.get(i).map_or(0.0, |row| row[i]).sqrt());
            let elo = r[p] * ELO_PER_NAT + 0.0;
            Some(Rating { elo, low: elo - half * ELO_PER_NAT, high: elo + half * ELO_PER_NAT })
        })
        .collect()
}

/// Players joined to `anchor` through matches that were played.
fn connected_to(players: usize, results: &[PairResult], anchor: usize) -> Vec<bool> {
    let mut placed = vec![false; players];
    placed[anchor] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for m in results.iter().filter(|m| m.games > 0.0) {
            if placed[m.a] != placed[m.b] {
                placed[m.a] = true;
                placed[m.b] = true;
                grew = true;
            }
        }
    }
    placed
}

/// The gradient of the log-likelihood over the unknowns, and the negated Hessian (the observed
/// information, positive definite), at ratings `r` in natural units.
fn derivatives(
    r: &[f64],
    results: &[PairResult],
    unknown: &[usize],
    slot: &dyn Fn(usize) -> Option<usize>,
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = unknown.len();
    let (mut gradient, mut information) = (vec![0.0; n], vec![vec![0.0; n]; n]);
    for m in results.iter().filter(|m| m.games > 0.0 && m.a != m.b) {
        let games = m.games + PRIOR_DRAWS;
        let score = m.score + PRIOR_DRAWS / 2.0;
        let p = 1.0 / (1.0 + (r[m.b] - r[m.a]).exp());
        let (g, w) = (score - games * p, games * p * (1.0 - p));
        let (sa, sb) = (slot(m.a), slot(m.b));
        if let Some(i) = sa {
            gradient[i] += g;
            information[i][i] += w;
        }
        if let Some(j) = sb {
            gradient[j] -= g;
            information[j][j] += w;
        }
        if let (Some(i), Some(j)) = (sa, sb) {
            information[i][j] -= w;
            information[j][i] -= w;
        }
    }
    (gradient, information)
}

/// The inverse of a small symmetric positive-definite matrix by Gauss-Jordan elimination with
/// partial pivoting; `None` if it is singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m.to_vec();
    let mut inv: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for j in 0..n {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in (0..n).filter(|&row| row != col) {
            let f = a[row][col];
            if f != 0.0 {
                for j in 0..n {
                    a[row][j] -= f * a[col][j];
                    inv[row][j] -= f * inv[col][j];
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::elo_from_score;

    fn pair(a: usize, b: usize, games: f64, score: f64) -> PairResult {
        PairResult { a, b, games, score }
    }

    #[test]
    fn two_players_get_the_elo_of_their_score_with_the_prior_draw() {
        let r = fit_ratings(2, &[pair(0, 1, 99.0, 74.5)], 1);
        // 99 games + 1 virtual draw: 75 of 100.
        let expected = elo_from_score(0.75);
        let a = r[0].unwrap();
        assert!((a.elo - expected).abs() < 1e-6, "{} vs {expected}", a.elo);
        assert!(a.low < a.elo && a.elo < a.high);
        assert_eq!(r[1].unwrap(), Rating { elo: 0.0, low: 0.0, high: 0.0 }, "the anchor");
    }

    #[test]
    fn ratings_chain_through_a_common_opponent() {
        // A beats B and B beats C by the same margin, never meeting: A sits twice as far above C.
        let r = fit_ratings(3, &[pair(0, 1, 400.0, 300.0), pair(1, 2, 400.0, 300.0)], 2);
        let (a, b) = (r[0].unwrap().elo, r[1].unwrap().elo);
        assert!((a - 2.0 * b).abs() < 1.0, "A {a}, B {b}");
        assert!(b > 180.0 && b < 195.0, "{b}");
        assert!(r[0].unwrap().high - r[0].unwrap().low > r[1].unwrap().high - r[1].unwrap().low, "wider further out");
    }

    #[test]
    fn more_games_narrow_the_interval_and_a_clean_sweep_stays_finite() {
        let width = |games: f64| {
            let r = fit_ratings(2, &[pair(0, 1, games, games / 2.0)], 1)[0].unwrap();
            r.high - r.low
        };
        assert!(width(400.0) < width(100.0) / 1.9, "{} vs {}", width(400.0), width(100.0));
        let sweep = fit_ratings(2, &[pair(0, 1, 20.0, 20.0)], 1)[0].unwrap();
        assert!(sweep.elo.is_finite() && sweep.elo > 400.0, "{sweep:?}");
    }

    #[test]
    fn a_player_without_a_path_to_the_anchor_is_not_placed() {
        let r = fit_ratings(4, &[pair(0, 1, 10.0, 5.0), pair(2, 3, 10.0, 9.0)], 0);
        assert!(r[0].is_some() && r[1].is_some());
        assert!(r[2].is_none() && r[3].is_none());
    }
}
