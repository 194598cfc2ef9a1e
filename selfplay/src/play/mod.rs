//! Self-play: workers that interleave many games so each network call carries leaves of all of
//! them ([`worker`]), one phase of games on several workers ([`phase`]), their games written to
//! disk as they finish ([`flush`]), and self-play processes beside a trainer ([`scaleout`]).

pub mod flush;
pub mod phase;
pub mod scaleout;
pub mod worker;

pub use scaleout::{selfplay_only, SelfplayOptions};
pub use worker::{play_games, GameEnd, GameQueue, GameSummary};
