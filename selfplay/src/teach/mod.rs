//! The classical teacher (expert iteration's warm start): games of an alpha-beta player from
//! varied starts, every position labelled from the teacher's scores of all its root moves,
//! stored as replay shards a run trains its first network on (`vzero teach`, `[teacher]`).
//!
//! - Policy target: `softmax(score / policy_temperature)` over the root moves' centipawns.
//! - Value target: `value_mix` of the teacher's evaluation of the position (its best score,
//!   squashed by [`alphabeta::expected_score`]) plus the rest of the game's final score.
//! - Teacher games are numbered with [`crate::replay::TEACHER_GAME`] set, so the run counts and
//!   samples them apart from its self-play games.

mod game;
mod label;
mod phase;

pub use game::{score_margin, teacher_game, teacher_game_until, TeacherPlan};
pub use label::{choose, policy_target, softmax, POLICY_UNITS};
pub use phase::{stored_teacher_games, teach, Taught};
