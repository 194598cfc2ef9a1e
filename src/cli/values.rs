//! Value parsers that flags of several commands use, so a bad value is a usage error (exit 2)
//! whose message names the flag and the range it takes (`0 is not in 1..=256`).

/// A flag's value parsed by its type's `FromStr`, so that a bad one is a usage error (exit 2)
/// with the type's own message, as a bad `--variant` is.
pub fn parsed<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse::<T>().map_err(|e| e.to_string())
}

/// A whole number from `min` to `max`, as clap checks and reports it: a count of games,
/// simulations, plies, positions or moves that could not make the work (0) or could not be
/// held by its type.
pub fn count<T>(min: u64, max: u64) -> clap::builder::RangedU64ValueParser<T>
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
    <T as TryFrom<u64>>::Error: std::error::Error + Send + Sync + 'static,
{
    clap::builder::RangedU64ValueParser::<T>::new().range(min..=max)
}

/// A thread count from 1 to 256: 0 cannot run, more is a typing mistake on any machine
/// vzero runs on (uci's `Threads` option has the same cap), and spawning 100000 threads fails.
pub fn threads_1_to_256() -> clap::builder::RangedU64ValueParser<usize> {
    count(1, MAX_THREADS)
}

/// The most search or worker threads a flag (or uci's `Threads` option) asks for.
pub const MAX_THREADS: u64 = 256;
/// The most simulations a move's search is given (`--sims`, uci's `Simulations`).
pub const MAX_SIMULATIONS: u64 = mcts::MAX_SIMULATIONS as u64;
/// The most root moves an analysis lists (`--multipv`, uci's `MultiPV`): more than any
/// position has (Weltschach's crowded middlegames reach about 700), so that every move can be
/// listed, and more is a typing mistake.
pub const MAX_MULTIPV: u64 = 5000;

/// Simulations of one search, from 1 to [`MAX_SIMULATIONS`].
pub fn simulations() -> clap::builder::RangedU64ValueParser<u32> {
    count(1, MAX_SIMULATIONS)
}

/// The most positions one batch holds (`bench replay --batch`, `bench nn --batches`): the
/// largest `training.batch_size` and `selfplay.max_batch` a config takes.
pub fn batch_size() -> clap::builder::RangedU64ValueParser<usize> {
    count(1, 1 << 16)
}
