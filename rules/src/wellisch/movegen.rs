//! Legal move generation for one turn, without the delayed promotion that may precede it (see
//! `promotion.rs`): pieces, pawns with immediate promotion, and castling (`castling.rs`).
//!
//! Moves are checked for king safety only where they can matter: a move that is not a king move
//! can expose the mover's king only if the piece is pinned (the first piece on an edge line from
//! the king, with an enemy rook or queen next behind it: rooks and queens are the only sliders),
//! unless the king is already attacked. Captures land where the captured piece stood, so they
//! open no line. Everything else is legal as generated, so most pieces pass their whole target
//! set to the sink at once; pinned pieces and moves out of check are tried one by one.

use crate::hex::{nearest, Bits, Cell, Dir, BOARD_R5};
use crate::movesink::MoveSink;

/// The six edge directions, along which rooks and queens slide (and pin).
const EDGE: [Dir; 6] = [Dir::N, Dir::NE, Dir::SE, Dir::S, Dir::SW, Dir::NW];

use super::geometry::{FAR_EDGE, TABLES};
use super::piece::{Move, Piece};
use super::position::Pos;

impl Pos {
    /// The mover's pieces (`own`) that are the only piece between the king on `king` and an
    /// enemy slider (`sliders`) on an edge line.
    #[inline]
    fn pinned(&self, king: Cell, own: u128, occ: u128, sliders: u128) -> u128 {
        if BOARD_R5.edge_lines(king) & sliders == 0 {
            return 0;
        }
        let mut pinned = 0;
        for dir in EDGE {
            let blockers = BOARD_R5.ray(king, dir) & occ;
            if blockers == 0 {
                continue;
            }
            let first = nearest(blockers, dir);
            if own & first.bit() == 0 {
                continue;
            }
            let beyond = BOARD_R5.ray(first, dir) & occ;
            if beyond != 0 && sliders & nearest(beyond, dir).bit() != 0 {
                pinned |= first.bit();
            }
        }
        pinned
    }

    /// Adds every legal move of the mover, castling included and delayed promotion excluded;
    /// returns whether there was any.
    pub(crate) fn gen_basic<S: MoveSink<Move>>(&self, sink: &mut S) -> bool {
        let p = self.mover as usize;
        let own = self.owner[p];
        let occ = self.occupied();
        let enemy = occ & !own;
        let king = self.king(p);
        let in_check = king.is_some_and(|k| self.attacked(k, occ, enemy));
        let sliders = (self.kinds[Piece::Rook as usize] | self.kinds[Piece::Queen as usize]) & enemy;
        let pinned = king.map_or(0, |k| self.pinned(k, own, occ, sliders));
        let mut any = false;

        // Keeps the targets of a non-king piece on `from` that leave the king unattacked.
        let legal = |from: Cell, targets: u128| -> u128 {
            let Some(k) = king else { return targets };
            if !in_check && from.bit() & pinned == 0 {
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
            sink.add_targets(t, |to| Move::normal(from, to));
        }
        let rooks = self.kinds[Piece::Rook as usize] & own;
        for from in Bits(rooks) {
            let t = legal(from, BOARD_R5.rook_attacks(from, occ) & !own);
            any |= t != 0;
            sink.add_targets(t, |to| Move::normal(from, to));
        }
        let queens = self.kinds[Piece::Queen as usize] & own;
        for from in Bits(queens) {
            let t = legal(from, (BOARD_R5.rook_attacks(from, occ) | BOARD_R5.vertex_neighbours(from)) & !own);
            any |= t != 0;
            sink.add_targets(t, |to| Move::normal(from, to));
        }
        let reserve = self.reserve[p];
        let has_reserve = reserve != [0; 3];
        for (d, (&pawns, &edge)) in self.pawns.iter().zip(&FAR_EDGE).enumerate() {
            for from in Bits(pawns & own) {
                let t = legal(from, TABLES.pawn_targets[d][from.index()] & !own);
                any |= t != 0;
                let promo = t & edge;
                if promo != 0 && has_reserve {
                    sink.add_targets(t & !promo, |to| Move::normal(from, to));
                    for to in Bits(promo) {
                        for (r, &n) in reserve.iter().enumerate() {
                            if n > 0 {
                                sink.add(Move::promoting(from, to, r));
                            }
                        }
                    }
                } else {
                    // With an empty reserve a pawn reaching the edge just waits there.
                    sink.add_targets(t, |to| Move::normal(from, to));
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
            sink.add_targets(t, |to| Move::normal(k, to));
            if !in_check {
                any |= self.gen_castles(sink, k);
            }
        }
        any
    }
}
