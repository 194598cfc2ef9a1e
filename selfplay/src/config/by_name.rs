//! Serde of a value written as its name: parsed with `FromStr`, written with `Display` (the
//! variant, the device, the precision and the training form).

use std::fmt::Display;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serializer};

/// Writes `value` as its name.
pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// Reads a value from its name.
pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
where
    T: FromStr,
    T::Err: Display,
    D: Deserializer<'de>,
{
    String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
}
