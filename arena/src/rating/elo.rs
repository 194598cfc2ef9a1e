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

/// The first player's game scores over a two-player match, as the count and the two moments
/// that its Elo and the SPRT need: a game may score more than 1, 1/2 and 0 (a Glinski stalemate
/// gives the stalemating side 3/4), so counts of wins, draws and losses are not enough.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoreTally {
    games: f64,
    sum: f64,
    squares: f64,
}

impl ScoreTally {
    /// A tally of `wins` scores of 1, `draws` of 1/2 and `losses` of 0.
    pub fn from_wdl(wins: usize, draws: usize, losses: usize) -> ScoreTally {
        let mut t = ScoreTally::default();
        for (score, count) in [(1.0, wins), (0.5, draws), (0.0, losses)] {
            t.add_games(score, count as f64);
        }
        t
    }

    /// Counts one more game that scored `score` (0 to 1).
    pub fn add(&mut self, score: f64) {
        self.add_games(score, 1.0);
    }

    fn add_games(&mut self, score: f64, games: f64) {
        self.games += games;
        self.sum += games * score;
        self.squares += games * score * score;
    }

    /// Games counted.
    pub fn games(&self) -> f64 {
        self.games
    }

    /// Mean score per game (0 with no games).
    pub fn mean(&self) -> f64 {
        self.sum / self.games.max(1.0)
    }

    /// Variance of one game's score (0 with no games).
    fn variance(&self) -> f64 {
        (self.squares / self.games.max(1.0) - self.mean().powi(2)).max(0.0)
    }
}

/// Elo of the first player from its game scores, with a 95% interval from the normal
/// approximation to the mean game score (the scores smoothed by [`INTERVAL_PRIOR_GAMES`]).
pub fn elo_estimate(tally: &ScoreTally) -> EloEstimate {
    let score = tally.mean();
    let mut smoothed = *tally;
    for prior in [1.0, 0.5, 0.0] {
        smoothed.add_games(prior, INTERVAL_PRIOR_GAMES);
    }
    let centre = smoothed.mean();
    let half = 1.959964 * (smoothed.variance() / smoothed.games()).sqrt();
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

/// The SPRT's log-likelihood ratio and decision from the first player's game scores, with error
/// rates alpha = beta = 0.05, using the normal approximation to the score distribution (as in
/// cutechess and fishtest's GSPRT).
pub fn sprt(tally: &ScoreTally, elo0: f64, elo1: f64) -> (f64, SprtDecision) {
    let (n, score, var) = (tally.games(), tally.mean(), tally.variance());
    // An all-draw tally has no spread: nothing to decide on yet.
    if n == 0.0 || var <= 1e-12 {
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
        let small = elo_estimate(&ScoreTally::from_wdl(30, 40, 30));
        let large = elo_estimate(&ScoreTally::from_wdl(300, 400, 300));
        assert!(small.elo.abs() < 1e-9 && large.elo.abs() < 1e-9);
        assert!(small.low < 0.0 && small.high > 0.0);
        assert!(large.high - large.low < small.high - small.low);
        // 100 games, 60% score: +70 Elo, and the 95% interval is about +/- 60 Elo here.
        let e = elo_estimate(&ScoreTally::from_wdl(50, 20, 30));
        assert!((e.elo - 70.4).abs() < 0.5 && e.low > 0.0 && e.high < 150.0, "{e:?}");
    }

    #[test]
    fn all_draw_and_tiny_matches_get_honest_intervals() {
        // Ten draws: no evidence either way, but not certainty of exactly equal strength.
        let draws = elo_estimate(&ScoreTally::from_wdl(0, 10, 0));
        assert!(draws.elo.abs() < 1e-9);
        assert!(draws.low < -20.0 && draws.high > 20.0, "{draws:?}");
        // One game won: the interval reaches well below the +2000 point estimate.
        let one = elo_estimate(&ScoreTally::from_wdl(1, 0, 0));
        assert!(one.low <= one.elo && one.elo <= one.high, "{one:?}");
        assert!(one.low < 0.0, "{one:?}");
        // No games: the whole scale.
        let none = elo_estimate(&ScoreTally::default());
        assert!(none.low < -300.0 && none.high > 300.0, "{none:?}");
    }

    #[test]
    fn sprt_accepts_the_hypothesis_the_results_favour() {
        assert_eq!(sprt(&ScoreTally::from_wdl(600, 200, 200), 0.0, 20.0).1, SprtDecision::AcceptH1);
        assert_eq!(sprt(&ScoreTally::from_wdl(200, 200, 600), 0.0, 20.0).1, SprtDecision::AcceptH0);
        assert_eq!(sprt(&ScoreTally::from_wdl(5, 5, 5), 0.0, 20.0).1, SprtDecision::Continue);
    }

    #[test]
    fn partial_scores_count_for_what_they_score() {
        // Ten Glinski stalemates won (3/4 each) are 75%, not ten losses.
        let mut stalemates = ScoreTally::default();
        for _ in 0..10 {
            stalemates.add(0.75);
        }
        let e = elo_estimate(&stalemates);
        assert!((e.elo - elo_from_score(0.75)).abs() < 1e-9, "{e:?}");
        assert!(e.low < e.elo && e.elo < e.high, "{e:?}");
        // Game by game, a tally of wins, draws and losses is the counts' tally.
        let mut games = ScoreTally::default();
        for score in [1.0, 1.0, 0.5, 0.0] {
            games.add(score);
        }
        assert_eq!(games, ScoreTally::from_wdl(2, 1, 1));
        // 300 stalemate wins and 200 losses in 500 games: 45%, so H0 (elo <= 0) of [0, 20].
        let mut mixed = ScoreTally::default();
        (0..300).for_each(|_| mixed.add(0.75));
        (0..200).for_each(|_| mixed.add(0.0));
        assert!((mixed.mean() - 0.45).abs() < 1e-12);
        assert_eq!(sprt(&mixed, 0.0, 20.0).1, SprtDecision::AcceptH0);
        let mut better = ScoreTally::default();
        (0..400).for_each(|_| better.add(0.75));
        (0..100).for_each(|_| better.add(0.25));
        assert_eq!(sprt(&better, 0.0, 20.0).1, SprtDecision::AcceptH1, "65% over 500 games");
    }
}
