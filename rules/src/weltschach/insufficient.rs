//! Draw by insufficient material: only the two Emperors are left. An Emperor steps one cell and two
//! Emperors never stand side by side (each would attack the other), and facing
//! (docs/rules/weltschach.md) is no attack, so neither can ever be in check: no checkmate, and
//! stalemate is a draw. With any other piece left we claim nothing (docs/notation-weltschach.md
//! says why).

use super::position::Weltschach;

impl Weltschach {
    /// Whether only the two Emperors are left: 8 ORs and popcounts, beside a move generation
    /// that costs thousands of times more.
    #[inline]
    pub(crate) fn insufficient_material(&self) -> bool {
        let pieces: u32 = (0..8).map(|rank| (self.occ[0][rank] | self.occ[1][rank]).count_ones()).sum();
        pieces == 2
    }
}
