//! Where move generators put their moves: one sink trait for every engine, with one list, one
//! counter and one early-stop probe.
//!
//! Every engine's generator writes into a [`MoveSink`]: `Vec<M>` lists the moves
//! ([`crate::Game::legal_moves`]), [`Count`] only counts them (bulk perft,
//! [`crate::Game::count_legal_moves`]) and [`Any`] stops at the first (checkmate and stalemate
//! tests). The hex engines produce most moves as a whole target set of one piece (a 128-bit
//! [`Bitboard`]) and hand it over with [`MoveSink::add_targets`], so [`Count`] adds a popcount
//! instead of building and counting each move. Batches only one engine has (Glinski's pawn rows
//! with promotions) are extension traits of that engine on top of this one.

use crate::hex::{Bitboard, Bits, Cell};

/// Receives the moves of type `M` a generator produces, in generation order.
pub(crate) trait MoveSink<M> {
    /// Takes one move.
    fn add(&mut self, mv: M);

    /// Takes the move `mv(to)` for every cell `to` of `targets`, lowest cell number first. Sinks
    /// that do not need each move (a counter) override it to handle the set at once.
    #[inline(always)]
    fn add_targets(&mut self, targets: Bitboard, mut mv: impl FnMut(Cell) -> M) {
        for to in Bits(targets) {
            self.add(mv(to));
        }
    }

    /// True once the sink wants no more moves; generators check it between groups of moves (so
    /// a sink may still receive some after saying so).
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

impl<M> MoveSink<M> for Vec<M> {
    #[inline(always)]
    fn add(&mut self, mv: M) {
        self.push(mv);
    }
}

/// Counts moves without building them (bulk perft).
pub(crate) struct Count(pub(crate) u64);

impl<M> MoveSink<M> for Count {
    #[inline(always)]
    fn add(&mut self, _mv: M) {
        self.0 += 1;
    }

    #[inline(always)]
    fn add_targets(&mut self, targets: Bitboard, _mv: impl FnMut(Cell) -> M) {
        self.0 += targets.count_ones() as u64;
    }
}

/// Records whether there is any move and asks to stop at the first (has the mover a legal move?).
pub(crate) struct Any(pub(crate) bool);

impl<M> MoveSink<M> for Any {
    #[inline(always)]
    fn add(&mut self, _mv: M) {
        self.0 = true;
    }

    #[inline(always)]
    fn add_targets(&mut self, targets: Bitboard, _mv: impl FnMut(Cell) -> M) {
        self.0 |= targets != 0;
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds the same moves to a sink one by one and as a set.
    fn feed<S: MoveSink<(u8, u8)>>(sink: &mut S) {
        sink.add((0, 9));
        let from = 7;
        // Cells 60, 61 and 63 (60 is the centre).
        sink.add_targets(0b1011 << 60, |to| (from, to.index() as u8));
    }

    #[test]
    fn list_count_and_any_agree() {
        let mut list = Vec::new();
        feed(&mut list);
        assert_eq!(list, [(0, 9), (7, 60), (7, 61), (7, 63)]);
        let mut count = Count(0);
        feed(&mut count);
        assert_eq!(count.0, list.len() as u64);
        let mut any = Any(false);
        assert!(!MoveSink::<(u8, u8)>::done(&any));
        feed(&mut any);
        assert!(any.0 && MoveSink::<(u8, u8)>::done(&any));
        let mut none = Any(false);
        none.add_targets(0, |to| (0u8, to.index() as u8));
        assert!(!none.0);
    }
}
