//! Reserves and promotion: captured queens, rooks and knights go to their owner's reserve; a pawn
//! on its promotion edge with an empty reserve waits there, and is promoted at the start of a
//! later turn of its owner once the reserve holds a piece.
//!
//! A delayed promotion is part of the turn's move (docs/rules/wellisch.md): the turn is "promote
//! waiting pawn W to X, then make any move legal after that promotion", or "promote, then pass"
//! when none is. It is compulsory: while a pawn waits and the reserve is not empty, every move
//! starts with one.

use crate::hex::{Bits, Cell};
use crate::movesink::MoveSink;
use crate::player::Player;

use super::geometry::FAR_EDGE;
use super::piece::{Move, Piece};
use super::position::Pos;

/// Tags every move with a delayed promotion before passing it on.
struct Delayed<'a, S> {
    /// Where the tagged moves go.
    inner: &'a mut S,
    /// The promoted waiting pawn.
    pawn: Cell,
    /// Its new kind's reserve index.
    r: usize,
}

impl<S: MoveSink<Move>> MoveSink<Move> for Delayed<'_, S> {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        self.inner.add(mv.with_delayed(self.pawn, self.r));
    }
}

impl Pos {
    /// The pawns of `seat` standing on their promotion edge.
    #[inline(always)]
    pub(crate) fn waiting(&self, seat: Player) -> u128 {
        let own = self.owner[seat];
        (self.pawns[0] & FAR_EDGE[0] | self.pawns[1] & FAR_EDGE[1] | self.pawns[2] & FAR_EDGE[2]) & own
    }

    /// Turns the mover's waiting pawn on `pawn` into reserve piece `r`, taken from the reserve.
    pub(crate) fn promote_waiting(&mut self, pawn: Cell, r: usize) {
        let p = self.mover as usize;
        for d in &mut self.pawns {
            *d &= !pawn.bit();
        }
        self.kinds[Piece::RESERVE[r] as usize] |= pawn.bit();
        self.reserve[p][r] -= 1;
    }

    /// Whether the mover's turn must start with a delayed promotion.
    #[inline(always)]
    pub(crate) fn must_promote(&self) -> bool {
        let p = self.mover as usize;
        self.has_reserve(p) && self.waiting(p) != 0
    }

    /// Adds every legal move of the whole turn: delayed promotions combined with what follows,
    /// or plain moves, or a forced pass.
    pub(crate) fn generate<S: MoveSink<Move>>(&self, sink: &mut S) {
        let p = self.mover as usize;
        if self.must_promote() {
            for pawn in Bits(self.waiting(p)) {
                for r in 0..3 {
                    if self.reserve[p][r] == 0 {
                        continue;
                    }
                    let mut after = *self;
                    after.promote_waiting(pawn, r);
                    let mut tagged = Delayed { inner: sink, pawn, r };
                    if !after.gen_basic(&mut tagged) {
                        tagged.add(Move::pass());
                    }
                }
            }
        } else if !self.gen_basic(sink) {
            sink.add(Move::pass());
        }
    }
}
