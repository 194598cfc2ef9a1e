//! Value parsers that flags of several commands use, so a bad value is a usage error (exit 2).

/// A flag's value parsed by its type's `FromStr`, so that a bad one is a usage error (exit 2)
/// with the type's own message, as a bad `--variant` is.
pub fn parsed<T: std::str::FromStr>(text: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    text.parse::<T>().map_err(|e| e.to_string())
}

/// A thread count from 1 to 256: 0 cannot run, more is a typing mistake on any machine
/// vzero runs on (uci's `Threads` option has the same cap).
pub fn threads_1_to_256() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256)
}
