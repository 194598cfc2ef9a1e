//! How deep below the root the network is asked (`search.network_plies`, `--network-plies`): a
//! number of plies, or `auto`, which depends on what bounds the search. On a CPU one network
//! evaluation costs several judged nodes, so a search at a clock makes many more nodes with the
//! network kept near the root and is stronger for it (Glinski at 100 ms a move against
//! `alphabeta:30:100`: 26.5% with the network at every node, 60.0% with it two plies deep),
//! while at a fixed number of simulations the network's opinion at every node is worth more
//! than nodes that cost nothing extra (78.0% against 69.2% against `alphabeta:3` at 64).

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::setting::{SettingValue, MAX_PLY_COUNT};

/// The network's plies a search at a clock takes under `auto`: the best measured on Glinski (2:
/// 60.0% against `alphabeta:30:100`; 0: 26.5%) and on Mini Hexchess (1 to 3 within the noise of
/// each other, all above 0's 38.0%).
pub const CLOCK_NETWORK_PLIES: u32 = 2;

/// Plies below the root whose new nodes the network evaluates ([`super::Tactics::network_plies`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd)]
pub enum NetworkPlies {
    /// [`CLOCK_NETWORK_PLIES`] for a network's search bounded by time, every ply for one bounded
    /// by simulations or nodes, or with no network.
    #[default]
    Auto,
    /// The first `N` plies (1 the root alone), 0 every ply.
    Plies(u32),
}

impl NetworkPlies {
    /// The setting for a network's search bounded by time (`timed`) or not (by simulations, or
    /// with no network to keep near the root): `auto` resolved, a number kept.
    pub fn at_clock(self, timed: bool) -> NetworkPlies {
        match self {
            NetworkPlies::Auto if timed => NetworkPlies::Plies(CLOCK_NETWORK_PLIES),
            NetworkPlies::Auto => NetworkPlies::Plies(0),
            given => given,
        }
    }

    /// The plies the network is asked about (0: every ply); `auto` not resolved by
    /// [`NetworkPlies::at_clock`] is that of a search bounded by simulations, every ply.
    pub fn plies(self) -> u32 {
        match self {
            NetworkPlies::Auto => 0,
            NetworkPlies::Plies(n) => n,
        }
    }
}

impl fmt::Display for NetworkPlies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkPlies::Auto => f.write_str("auto"),
            NetworkPlies::Plies(n) => write!(f, "{n}"),
        }
    }
}

impl SettingValue for NetworkPlies {
    const KIND: &'static str = "auto or a whole number from 0 to 1000000";
    fn read(text: &str) -> Option<NetworkPlies> {
        match text.trim() {
            "auto" => Some(NetworkPlies::Auto),
            n => n.parse().ok().filter(|&n| n <= MAX_PLY_COUNT).map(NetworkPlies::Plies),
        }
    }
}

impl Serialize for NetworkPlies {
    /// `"auto"` or the number, as a config writes it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            NetworkPlies::Auto => serializer.serialize_str("auto"),
            NetworkPlies::Plies(n) => serializer.serialize_u32(*n),
        }
    }
}

impl<'de> Deserialize<'de> for NetworkPlies {
    /// `"auto"` or a whole number up to [`MAX_PLY_COUNT`].
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<NetworkPlies, D::Error> {
        struct Plies;
        impl Visitor<'_> for Plies {
            type Value = NetworkPlies;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(NetworkPlies::KIND)
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<NetworkPlies, E> {
                match text {
                    "auto" => Ok(NetworkPlies::Auto),
                    _ => Err(E::invalid_value(de::Unexpected::Str(text), &self)),
                }
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<NetworkPlies, E> {
                match u32::try_from(n) {
                    Ok(n) if n <= MAX_PLY_COUNT => Ok(NetworkPlies::Plies(n)),
                    _ => Err(E::invalid_value(de::Unexpected::Unsigned(n), &self)),
                }
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<NetworkPlies, E> {
                match u64::try_from(n) {
                    Ok(n) => self.visit_u64(n),
                    Err(_) => Err(E::invalid_value(de::Unexpected::Signed(n), &self)),
                }
            }
        }
        deserializer.deserialize_any(Plies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_keeps_the_network_near_the_root_only_at_a_clock() {
        assert_eq!(NetworkPlies::Auto.at_clock(true), NetworkPlies::Plies(CLOCK_NETWORK_PLIES));
        assert_eq!(NetworkPlies::Auto.at_clock(false), NetworkPlies::Plies(0));
        for given in [0, 1, 5] {
            for timed in [false, true] {
                assert_eq!(NetworkPlies::Plies(given).at_clock(timed), NetworkPlies::Plies(given));
            }
        }
        assert_eq!(NetworkPlies::Auto.plies(), 0);
        assert_eq!(NetworkPlies::Plies(3).plies(), 3);
    }

    #[test]
    fn reads_and_writes_auto_or_a_count() {
        assert_eq!(NetworkPlies::read(" auto "), Some(NetworkPlies::Auto));
        assert_eq!(NetworkPlies::read("2"), Some(NetworkPlies::Plies(2)));
        for bad in ["-1", "1000001", "two", "Auto", ""] {
            assert_eq!(NetworkPlies::read(bad), None, "{bad}");
        }
        assert_eq!(NetworkPlies::Auto.to_string(), "auto");
        assert_eq!(NetworkPlies::Plies(7).to_string(), "7");
        // The kind is a literal (a const cannot be formatted): it must name the real top.
        assert!(NetworkPlies::KIND.ends_with(&format!(" {MAX_PLY_COUNT}")), "{}", NetworkPlies::KIND);
    }

    #[test]
    fn a_config_gives_auto_or_a_count() {
        #[derive(Deserialize, Serialize)]
        struct Section {
            network_plies: NetworkPlies,
        }
        let read = |text: &str| serde_json::from_str::<Section>(text).map(|s| s.network_plies);
        assert_eq!(read(r#"{"network_plies": "auto"}"#).unwrap(), NetworkPlies::Auto);
        assert_eq!(read(r#"{"network_plies": 3}"#).unwrap(), NetworkPlies::Plies(3));
        for bad in ["-1", "1000001", r#""3""#, "1.5"] {
            let bad = format!(r#"{{"network_plies": {bad}}}"#);
            let bad = bad.as_str();
            let err = read(bad).expect_err(bad).to_string();
            assert!(err.contains("auto or a whole number"), "{bad}: {err}");
        }
        for plies in [NetworkPlies::Auto, NetworkPlies::Plies(4)] {
            let text = serde_json::to_string(&Section { network_plies: plies }).unwrap();
            assert_eq!(read(&text).unwrap(), plies, "{text}");
        }
    }
}
