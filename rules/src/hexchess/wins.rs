//! Mates in one, found without playing every move: only a move that gives check can mate (a
//! stalemate scores below 1 in both variants), so the generator's moves are filtered by the
//! cells that check the enemy king, and only the few that pass are played and tested.

use crate::game::Game;
use crate::hex::{nearest, Bits, Cell, Dir};
use crate::movesink::{Any, MoveSink};
use crate::player::Player;

use super::movegen::HexSink;
use super::piece::Piece;
use super::position::{HexChess, HexMove};
use super::rules::HexRules;

/// Receives the legal moves in generation order and keeps the first that mates.
///
/// The filter lets through a superset of the checking moves: a piece landing where its type
/// attacks the enemy king (lines as they stand before the move: the cell a slider leaves cannot
/// lie between its new cell and the king unless it attacked the king already), every move of a
/// piece that may uncover a line to the king, every promotion and every en passant.
struct MateFinder<'a, V: HexRules> {
    pos: &'a HexChess<V>,
    /// Per piece type: the cells from which a piece of that type attacks the enemy king.
    checks: [u128; 6],
    /// Own pieces first on a line from the enemy king with an own slider of that line's kind
    /// further out (or themselves such a slider): any of their moves may check.
    loose: u128,
    /// The first mating move, once found.
    found: Option<HexMove>,
}

impl<'a, V: HexRules> MateFinder<'a, V> {
    fn new(pos: &'a HexChess<V>) -> Self {
        let b = V::BOARD;
        let us = pos.side as Player;
        let king = pos.king(us ^ 1);
        let own = pos.by_side[us];
        let occupied = pos.by_side[0] | pos.by_side[1];
        let bp = &pos.by_piece;
        let rook_lines = b.rook_attacks(king, occupied);
        let bishop_lines = b.bishop_attacks(king, occupied);
        let mut checks = [0; 6];
        checks[Piece::Pawn.index()] = super::movegen::pawn_attacks::<V>(us ^ 1, king.bit());
        checks[Piece::Knight.index()] = b.knight(king);
        checks[Piece::Bishop.index()] = bishop_lines;
        checks[Piece::Rook.index()] = rook_lines;
        checks[Piece::Queen.index()] = rook_lines | bishop_lines;

        let queens = bp[Piece::Queen.index()];
        let rooks = (bp[Piece::Rook.index()] | queens) & own;
        let bishops = (bp[Piece::Bishop.index()] | queens) & own;
        let mut loose = 0;
        for dir in Dir::ALL {
            let sliders = if dir.is_edge() { rooks } else { bishops };
            let ray = b.ray(king, dir);
            let blockers = ray & occupied;
            if ray & sliders == 0 || blockers == 0 {
                continue;
            }
            let first = nearest(blockers, dir);
            if first.bit() & own != 0 && (first.bit() | b.ray(first, dir)) & sliders != 0 {
                loose |= first.bit();
            }
        }
        MateFinder { pos, checks, loose, found: None }
    }

    /// Plays `mv` (a move that may check), and keeps it if it mates.
    #[inline(always)]
    fn try_move(&mut self, mv: HexMove) {
        let mut next = self.pos.clone();
        next.make(mv);
        // Cheap tests first: most candidates do not even check, most checks have a reply (the
        // search for one stops at the first); the result itself decides.
        if next.in_check() && !next.has_reply() && next.outcome().is_some_and(|s| s.get(self.pos.side as Player) >= 1.0)
        {
            self.found = Some(mv);
        }
    }

    /// The cells of `targets` a move from `from` by `piece` may check from.
    #[inline(always)]
    fn candidates(&self, piece: Piece, from: Cell, targets: u128) -> u128 {
        if self.loose & from.bit() != 0 {
            targets
        } else {
            targets & self.checks[piece.index()]
        }
    }
}

impl<V: HexRules> MoveSink<HexMove> for MateFinder<'_, V> {
    /// One move (en passant, which may uncover a line, is always tried).
    #[inline(always)]
    fn add(&mut self, mv: HexMove) {
        if self.found.is_none() {
            self.try_move(mv);
        }
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.found.is_some()
    }
}

impl<V: HexRules> HexSink for MateFinder<'_, V> {
    #[inline(always)]
    fn piece(&mut self, piece: Piece, from: Cell, targets: u128) {
        if self.found.is_some() {
            return;
        }
        for to in Bits(self.candidates(piece, from, targets)) {
            self.try_move(HexMove { from, to, piece, promotion: None });
            if self.found.is_some() {
                return;
            }
        }
    }

    #[inline(always)]
    fn pawns<W: HexRules>(&mut self, targets: u128, by: i32, promo: u128) {
        if self.found.is_some() {
            return;
        }
        // Every promotion is tried: the new piece may check where a pawn would not.
        let direct = self.checks[Piece::Pawn.index()] | promo;
        for to in Bits(targets) {
            let from = Cell::from_index_unchecked((to.index() as i32 - by) as u32);
            if direct & to.bit() == 0 && self.loose & from.bit() == 0 {
                continue;
            }
            if promo & to.bit() != 0 {
                for &p in W::PROMOTIONS {
                    self.try_move(HexMove { from, to, piece: Piece::Pawn, promotion: Some(p) });
                    if self.found.is_some() {
                        return;
                    }
                }
            } else {
                self.try_move(HexMove { from, to, piece: Piece::Pawn, promotion: None });
                if self.found.is_some() {
                    return;
                }
            }
        }
    }
}

impl<V: HexRules> HexChess<V> {
    /// Whether the side to move has a legal move, draw rules aside: the generator stops at
    /// the first group of moves it finds.
    pub(crate) fn has_reply(&self) -> bool {
        let mut any = Any(false);
        self.generate(&mut any);
        any.0
    }

    /// [`Game::winning_move`]: the first legal move that mates.
    pub(crate) fn mating_move(&self) -> Option<HexMove> {
        if V::STALEMATE_SCORE >= 1.0 {
            // A stalemating move would win too; no variant scores it so, but stay exact if one did.
            return crate::game::winning_move_by_trying(self);
        }
        if self.drawn_by_rule() {
            return None;
        }
        let mut finder = MateFinder::new(self);
        self.generate(&mut finder);
        finder.found
    }
}
