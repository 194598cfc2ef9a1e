//! Ratings from match results: the Elo difference of one match with its interval and the SPRT
//! that stops a match once decided ([`elo`]), and one Bradley-Terry scale over many matches
//! ([`bradley_terry`]).

pub mod bradley_terry;
pub mod elo;

pub use bradley_terry::{fit_ratings, PairResult, Rating};
pub use elo::{elo_estimate, elo_from_score, score_from_elo, sprt, EloEstimate, ScoreTally, SprtDecision};
