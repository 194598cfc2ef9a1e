//! Elo differences from match scores, with confidence intervals, and the sequential probability
//! ratio test (SPRT) used to stop a match once the evidence is clear.

/// Elo difference that gives expected score `score` (logistic model), clamped to ±2000 at
/// scores of 0 or 1.
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    // `+ 0.0` turns the -0 of an even score into 0, which prints as "+0", not "-0".
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-2000.0, 2000.0) + 0.0
}

/// Expected score at an Elo difference of `elo`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

/// Half a game added to each of wins, draws and losses for the interval only (the Jeffreys
/// prior of the trinomial): without it an all-draw match, or a 1-0, has zero variance and an
/// interval of zero width, claiming certainty that a handful of games cannot give.
const INTERVAL_PRIOR_GAMES: f64 = 0.5;

/// Elo of the first player from wins, draws and losses, with a 95% interval from the normal
/// approximation to the mean game score (trinomial variance, counts smoothed by
/// [`INTERVAL_PRIOR_GAMES`]).
pub fn elo_estimate(wins: usize, draws: usize, losses: usize) -> EloEstimate {
    let n = (wins + draws + losses) as f64;
    let score = (wins as f64 + 0.5 * draws as f64) / n.max(1.0);
    let [w, d, l] = [wins, draws, losses].map(|c| c as f64 + INTERVAL_PRIOR_GAMES);
    let m = w + d + l;
    let centre = (w + 0.5 * d) / m;
    let var = (w * (1.0 - centre).powi(2) + d * (0.5 - centre).powi(2) + l * centre.powi(2)) / m;
    let half = 1.959964 * (var / m).sqrt();
    let (low, high) = ((centre - half).min(score), (centre + half).max(score));
    EloEstimate { elo: elo_from_score(score), low: elo_from_score(low), high: elo_from_score(high) }
}

/// The state of an SPRT of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtDecision {
    /// The log-likelihood ratio crossed the upper bound: H1 (elo1) accepted.
    AcceptH1,
    /// It crossed the lower bound: H0 (elo0) accepted.
    AcceptH0,
    /// Neither bound yet: play on.
    Continue,
}

/// The SPRT's log-likelihood ratio and decision, with error rates alpha = beta = 0.05, using the
/// normal approximation to the trinomial model (as in cutechess and fishtest's GSPRT).
pub fn sprt(wins: usize, draws: usize, losses: usize, elo0: f64, elo1: f64) -> (f64, SprtDecision) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (0.0, SprtDecision::Continue);
    }
    let score = (wins as f64 + 0.5 * draws as f64) / n;
    let var =
        (wins as f64 * (1.0 - score).powi(2) + draws as f64 * (0.5 - score).powi(2) + losses as f64 * score.powi(2))
            / n;
    if var <= 0.0 {
        return (0.0, SprtDecision::Continue);
    }
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    let llr = n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * var);
    let (alpha, beta) = (0.05f64, 0.05f64);
    let (lower, upper) = ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln());
    let decision = if llr >= upper {
        SprtDecision::AcceptH1
    } else if llr <= lower {
        SprtDecision::AcceptH0
    } else {
        SprtDecision::Continue
    };
    (llr, decision)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse_and_anchored() {
        assert!((elo_from_score(0.5)).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01, "{}", elo_from_score(0.75));
        for elo in [-300.0, -50.0, 0.0, 120.0, 400.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-6);
        }
        assert_eq!(elo_from_score(1.0), 2000.0);
    }

    #[test]
    fn the_interval_contains_the_estimate_and_narrows_with_games() {
        let small = elo_estimate(30, 40, 30);
        let large = elo_estimate(300, 400, 300);
        assert!(small.elo.abs() < 1e-9 && large.elo.abs() < 1e-9);
        assert!(small.low < 0.0 && small.high > 0.0);
        assert!(large.high - large.low < small.high - small.low);
        // 100 games, 60% score: +70 Elo, and the 95% interval is about +/- 60 Elo here.
        let e = elo_estimate(50, 20, 30);
        assert!((e.elo - 70.4).abs() < 0.5 && e.low > 0.0 && e.high < 150.0, "{e:?}");
    }

    #[test]
    fn all_draw_and_tiny_matches_get_honest_intervals() {
        // Ten draws: no evidence either way, but not certainty of exactly equal strength.
        let draws = elo_estimate(0, 10, 0);
        assert!(draws.elo.abs() < 1e-9);
        assert!(draws.low < -20.0 && draws.high > 20.0, "{draws:?}");
        // One game won: the interval reaches well below the +2000 point estimate.
        let one = elo_estimate(1, 0, 0);
        assert!(one.low <= one.elo && one.elo <= one.high, "{one:?}");
        assert!(one.low < 0.0, "{one:?}");
        // No games: the whole scale.
        let none = elo_estimate(0, 0, 0);
        assert!(none.low < -300.0 && none.high > 300.0, "{none:?}");
    }

    #[test]
    fn sprt_accepts_the_hypothesis_the_results_favour() {
        assert_eq!(sprt(600, 200, 200, 0.0, 20.0).1, SprtDecision::AcceptH1);
        assert_eq!(sprt(200, 200, 600, 0.0, 20.0).1, SprtDecision::AcceptH0);
        assert_eq!(sprt(5, 5, 5, 0.0, 20.0).1, SprtDecision::Continue);
    }
}
