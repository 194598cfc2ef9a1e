//! A variant's game type with every facet ([`FullGame`]), and dispatch from a [`Variant`](crate::Variant) chosen
//! at run time to code generic over it ([`with_game!`](crate::with_game)).

use crate::diagram::Pictured;
use crate::encoding::Encoding;
use crate::game::Game;
use crate::material::Material;

/// A variant's game type with every facet: rules and text ([`Game`]), the network's view
/// ([`Encoding`]), pictures ([`Pictured`]) and piece values ([`Material`]); what self-play, the
/// CLI and [`with_game!`](crate::with_game) work with. Implemented for every type that has the four.
pub trait FullGame: Game + Encoding + Pictured + Material {}

impl<G: Game + Encoding + Pictured + Material> FullGame for G {}

/// Runs an expression with a type alias for a variant's game type, chosen at run time:
/// `with_game!(variant, G => train::<G>(&config))` expands to a `match` with one arm per variant,
/// each naming `G` its game type, so the code is monomorphised per variant and hot paths never
/// go through `dyn` (shakmaty's `VariantPosition` dispatches the same way). The expression is
/// the arm's value; `return` and `?` in it act on the enclosing function.
#[macro_export]
macro_rules! with_game {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant {
            $crate::Variant::Glinski => {
                type $G = $crate::hexchess::Glinski;
                $body
            }
            $crate::Variant::MiniHexchess => {
                type $G = $crate::hexchess::MiniHexchess;
                $body
            }
            $crate::Variant::Wellisch => {
                type $G = $crate::wellisch::Wellisch;
                $body
            }
            $crate::Variant::Weltschach => {
                type $G = $crate::weltschach::Weltschach;
                $body
            }
        }
    };
}
