//! The list of variants and their names; dispatch from a variant to its game type is
//! [`with_game!`](crate::with_game) (full_game.rs).

use std::fmt;
use std::str::FromStr;

/// One of the chess variants vzero knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Glinski's hexagonal chess, 2 players, 91 cells.
    Glinski,
    /// Mini Hexchess, 2 players, 37 cells.
    MiniHexchess,
    /// Wellisch's three-player hexagonal chess, 91 cells.
    Wellisch,
    /// Gilman's Weltschach, 2 players on an 8x8x8 cube.
    Weltschach,
}

impl Variant {
    /// Every variant, in the order `vzero variants` lists them.
    pub const ALL: [Variant; 4] = [Variant::Glinski, Variant::MiniHexchess, Variant::Wellisch, Variant::Weltschach];

    /// The name used on the command line and in configs.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Glinski => "glinski",
            Variant::MiniHexchess => "mini-hexchess",
            Variant::Wellisch => "wellisch",
            Variant::Weltschach => "weltschach",
        }
    }

    /// One line describing the variant.
    pub fn summary(self) -> &'static str {
        match self {
            Variant::Glinski => "Glinski Chess: 2 players, 91-cell hexagon, the classic hexagonal chess (1949)",
            Variant::MiniHexchess => "Mini Hexchess: 2 players, 37-cell hexagon, no queen, pawns never double-step",
            Variant::Wellisch => "Wellisch Chess: 3 players, 91-cell hexagon, kings can be captured (1912)",
            Variant::Weltschach => {
                "Weltschach: 2 players, 8x8x8 cube, 176 pieces a side (start position reconstructed)"
            }
        }
    }

    /// Number of players.
    pub fn players(self) -> usize {
        match self {
            Variant::Wellisch => 3,
            _ => 2,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (expected one of: glinski, mini-hexchess, wellisch, weltschach)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let lower = s.to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == lower || (lower == "mini" && *v == Variant::MiniHexchess))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}
