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
pub fn count<T>(min: u64, max: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    // Read wider than the type, so that a negative or oversized number is refused with the
    // range, as one past the top is, rather than as text that is no number.
    move |text| match text.trim().parse::<i128>() {
        Ok(value) if (min as i128..=max as i128).contains(&value) => {
            T::try_from(value as u64).map_err(|_| format!("{text} is not in {min}..={max}"))
        }
        Ok(_) => Err(format!("{text} is not in {min}..={max}")),
        Err(_) => Err(format!("'{text}' is not a whole number (expected {min}..={max})")),
    }
}

/// A seed: any 64-bit number.
pub fn seed() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    count(0, u64::MAX)
}

/// A thread count from 1 to 256: 0 cannot run, more is a typing mistake on any machine
/// vzero runs on (uci's `Threads` option has the same cap), and spawning 100000 threads fails.
pub fn threads_1_to_256() -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
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

/// The longest game in plies a flag names (`--max-plies`, `--opening-plies`, `render --ply`), as
/// `selfplay.max_plies` and `teacher.random_plies` take: no variant's game comes near it.
pub const MAX_PLIES: u64 = selfplay::config::MAX_PLIES;

/// Simulations of one search, from 1 to [`MAX_SIMULATIONS`].
pub fn simulations() -> impl Fn(&str) -> Result<u32, String> + Clone + Send + Sync + 'static {
    count(1, MAX_SIMULATIONS)
}

/// The most positions one batch holds (`bench replay --batch`, `bench nn --batches`): the
/// largest `training.batch_size` and `selfplay.max_batch` a config takes.
pub fn batch_size() -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    count(1, 1 << 16)
}

/// A count of plies from `min` to [`MAX_PLIES`].
pub fn plies<T>(min: u64) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    count(min, MAX_PLIES)
}

/// Which game of a file (`--game-index`), from 0: a file holds at most an iteration's games,
/// [`selfplay::config::MAX_GAMES`].
pub fn game_index() -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    count(0, selfplay::config::MAX_GAMES - 1)
}

/// How many of the search's most visited moves a picture shows (`--top`), from 0 (none) to
/// [`MAX_MULTIPV`], more than any position has.
pub fn top_moves() -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    count(0, MAX_MULTIPV)
}

/// A finite number from `min` to `max`, refused in clap's words for whole numbers (`2 is not in
/// 0..=1`); NaN and the infinities are not in any range.
pub fn number<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text| match text.parse::<T>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        Ok(_) => Err(format!("{text} is not in {min}..={max}")),
        Err(_) => Err(format!("'{text}' is not a number (expected {min}..={max})")),
    }
}
