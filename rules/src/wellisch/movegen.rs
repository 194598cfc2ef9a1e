//! Legal move generation for one turn, without the delayed promotion that may precede it (see
//! `promotion.rs`): pieces, pawns with immediate promotion, and castling (`castling.rs`).
//!
//! Moves are checked for king safety only where they can matter: a move that is not a king move
//! can expose the mover's king only by leaving an edge line through it (the only sliders, rooks
//! and queens, slide along edge lines), unless the king is already attacked. Everything else is
//! legal as generated, so most pieces pass their whole target set to the sink at once.

use crate::hex::{Bits, Cell, BOARD_R5};

use super::geometry::{FAR_EDGE, TABLES};
use super::piece::{Move, Piece};
use super::position::Pos;

/// Where generated moves go: a list, or a counter that adds whole target sets at once.
pub(crate) trait Sink {
    /// One legal move.
    fn add(&mut self, mv: Move);

    /// Plain moves from `from` to every cell of `targets` (all legal).
    #[inline(always)]
    fn add_targets(&mut self, from: Cell, targets: u128) {
        for to in Bits(targets) {
            self.add(Move::normal(from, to));
        }
    }
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without listing them (bulk perft).
pub(crate) struct Count(pub u64);

impl Sink for Count {
    #[inline(always)]
    fn add(&mut self, _mv: Move) {
        self.0 += 1;
    }

    #[inline(always)]
    fn add_targets(&mut self, _from: Cell, targets: u128) {
        self.0 += targets.count_ones() as u64;
    }
}

impl Pos {
    /// Adds every legal move of the mover, castling included and delayed promotion excluded;
    /// returns whether there was any.
    pub(crate) fn gen_basic<S: Sink>(&self, sink: &mut S) -> bool {
        let p = self.mover as usize;
        let own = self.owner[p];
        let occ = self.occupied();
        let enemy = occ & !own;
        let king = self.king(p);
        let in_check = king.is_some_and(|k| self.attacked(k, occ, enemy));
        let pin_zone = king.map_or(0, |k| BOARD_R5.edge_lines(k));
        let mut any = false;

        // Keeps the targets of a non-king piece on `from` that leave the king unattacked.
        let legal = |from: Cell, targets: u128| -> u128 {
            let Some(k) = king else { return targets };
            if !in_check && from.bit() & pin_zone == 0 {
                return targets;
            }
            let mut ok = 0;
            for to in Bits(targets) {
                let occ2 = (occ & !from.bit()) | to.bit();
                if !self.attacked(k, occ2, enemy & !to.bit()) {
                    ok |= to.bit();
                }
            }
            ok
        };

        let knights = self.kinds[Piece::Knight as usize] & own;
        for from in Bits(knights) {
            let t = legal(from, BOARD_R5.vertex_neighbours(from) & !own);
            any |= t != 0;
            sink.add_targets(from, t);
        }
        let rooks = self.kinds[Piece::Rook as usize] & own;
        for from in Bits(rooks) {
            let t = legal(from, BOARD_R5.rook_attacks(from, occ) & !own);
            any |= t != 0;
            sink.add_targets(from, t);
        }
        let queens = self.kinds[Piece::Queen as usize] & own;
        for from in Bits(queens) {
            let t = legal(from, (BOARD_R5.rook_attacks(from, occ) | BOARD_R5.vertex_neighbours(from)) & !own);
            any |= t != 0;
            sink.add_targets(from, t);
        }
        let reserve = self.reserve[p];
        let has_reserve = reserve != [0; 3];
        for (d, (&pawns, &edge)) in self.pawns.iter().zip(&FAR_EDGE).enumerate() {
            for from in Bits(pawns & own) {
                let t = legal(from, TABLES.pawn_targets[d][from.index()] & !own);
                any |= t != 0;
                let promo = t & edge;
                if promo != 0 && has_reserve {
                    sink.add_targets(from, t & !promo);
                    for to in Bits(promo) {
                        for (r, &n) in reserve.iter().enumerate() {
                            if n > 0 {
                                sink.add(Move::promoting(from, to, r));
                            }
                        }
                    }
                } else {
                    // With an empty reserve a pawn reaching the edge just waits there.
                    sink.add_targets(from, t);
                }
            }
        }
        if let Some(k) = king {
            let rest = occ & !k.bit();
            let mut t = 0;
            for to in Bits(BOARD_R5.edge_neighbours(k) & !own) {
                if !self.attacked(to, rest | to.bit(), enemy & !to.bit()) {
                    t |= to.bit();
                }
            }
            any |= t != 0;
            sink.add_targets(k, t);
            if !in_check {
                any |= self.gen_castles(sink, k);
            }
        }
        any
    }
}
