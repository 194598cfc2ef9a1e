//! Winning king captures, found without playing every move: a move wins at once only by taking a
//! king, so a turn with no enemy king attacked (and no delayed promotion, whose new piece could
//! attack one) has none, and otherwise only the legal moves onto a king cell are played.

use crate::game::wins_by;
use crate::hex::{Bits, Cell};
use crate::movesink::MoveSink;

use super::piece::{Move, Piece};
use super::state::Wellisch;

/// Receives the legal moves in generation order and keeps the first that wins.
struct KingCaptures<'a> {
    state: &'a Wellisch,
    /// The cells of the other seats' kings.
    kings: u128,
    /// The first winning move, once found.
    found: Option<Move>,
}

impl MoveSink<Move> for KingCaptures<'_> {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        // A capture ends the game only where the rules say so (not the first under takeover).
        if self.found.is_none() && mv.to().is_some_and(|to| self.kings & to.bit() != 0) && !mv.is_castle() {
            self.found = wins_by(self.state, mv).map(|_| mv);
        }
    }

    #[inline(always)]
    fn add_targets(&mut self, targets: u128, mut mv: impl FnMut(Cell) -> Move) {
        for to in Bits(targets & self.kings) {
            self.add(mv(to));
        }
    }
}

impl Wellisch {
    /// [`crate::Game::winning_move`]: the first legal move that captures a king and so wins.
    pub(crate) fn winning_capture(&self) -> Option<Move> {
        if self.end.is_some() {
            return None;
        }
        let pos = &self.pos;
        let own = pos.owner[pos.mover as usize];
        let kings = pos.kinds[Piece::King as usize] & !own;
        let occupied = pos.occupied();
        if !pos.must_promote() && Bits(kings).all(|k| !pos.attacked(k, occupied, own)) {
            return None;
        }
        let mut sink = KingCaptures { state: self, kings, found: None };
        pos.generate(&mut sink);
        sink.found
    }
}
