//! Legal move generation: pin- and check-aware, allocation-free, and shared by listing and counting.
//!
//! The generator finds the checkers and the pinned pieces from the king outwards once per
//! position, then produces only legal moves: pinned pieces stay on their pin line, in check every
//! move must capture the checker or block its line, and the king steps only to unattacked cells.
//! Only en passant (rare; it removes two pieces from a line at once) is tested by making it.

use crate::hex::{nearest, shift, Bits, Cell, Dir};
use crate::movesink::{Any, Count, MoveSink};
use crate::player::Player;

use super::piece::{Piece, WHITE};
use super::position::{forward, pawn_captures, HexChess, HexMove, NO_CELL};
use super::rules::HexRules;

/// The hex chess batches on top of [`MoveSink`]: whole target sets of one piece, and pawn rows
/// with their promotions, so that a counter adds popcounts instead of counting moves (bulk perft).
pub(crate) trait HexSink: MoveSink<HexMove> {
    /// Moves of a non-pawn `piece` from `from` to every cell of `targets`.
    #[inline(always)]
    fn piece(&mut self, piece: Piece, from: Cell, targets: u128) {
        self.add_targets(targets, |to| HexMove { from, to, piece, promotion: None });
    }

    /// Pawn moves onto every cell of `targets`, each from the cell `by` cell numbers before it;
    /// those onto `promo` cells are promotions, one move per promotion piece, listed together.
    #[inline(always)]
    fn pawns<V: HexRules>(&mut self, targets: u128, by: i32, promo: u128) {
        for to in Bits(targets) {
            let from = Cell::from_index_unchecked((to.index() as i32 - by) as u32);
            if promo & to.bit() != 0 {
                for &p in V::PROMOTIONS {
                    self.add(HexMove { from, to, piece: Piece::Pawn, promotion: Some(p) });
                }
            } else {
                self.add(HexMove { from, to, piece: Piece::Pawn, promotion: None });
            }
        }
    }
}

impl HexSink for Vec<HexMove> {}

impl HexSink for Count {
    #[inline(always)]
    fn pawns<V: HexRules>(&mut self, targets: u128, _by: i32, promo: u128) {
        self.0 += pawn_move_count::<V>(targets, promo);
    }
}

/// The moves of pawns onto `targets`: one each, and one per promotion piece onto `promo` cells.
#[inline(always)]
fn pawn_move_count<V: HexRules>(targets: u128, promo: u128) -> u64 {
    (targets & !promo).count_ones() as u64 + (targets & promo).count_ones() as u64 * V::PROMOTIONS.len() as u64
}

impl HexSink for Any {
    #[inline(always)]
    fn pawns<V: HexRules>(&mut self, targets: u128, _by: i32, _promo: u128) {
        self.0 |= targets != 0;
    }
}

/// Counts every move and lists the captures among them: whole target sets are counted by
/// popcount, and only their cells the other side holds become moves.
struct CountCaptures<'a> {
    count: u64,
    captures: &'a mut Vec<HexMove>,
    /// The other side's pieces.
    theirs: u128,
}

impl MoveSink<HexMove> for CountCaptures<'_> {
    /// En passant, the only move added alone, is a capture.
    #[inline(always)]
    fn add(&mut self, mv: HexMove) {
        self.count += 1;
        self.captures.push(mv);
    }

    #[inline(always)]
    fn add_targets(&mut self, targets: u128, mv: impl FnMut(Cell) -> HexMove) {
        self.count += u64::from(targets.count_ones());
        self.captures.add_targets(targets & self.theirs, mv);
    }
}

impl HexSink for CountCaptures<'_> {
    #[inline(always)]
    fn pawns<V: HexRules>(&mut self, targets: u128, by: i32, promo: u128) {
        self.count += pawn_move_count::<V>(targets, promo);
        self.captures.pawns::<V>(targets & self.theirs, by, promo);
    }
}

/// The cells each piece type may land on in one generation: a plain `u128` is the same set for
/// all (every cell, or the other side's pieces for the captures), [`Worthwhile`] one set each.
pub(crate) trait Onto: Copy {
    /// The cells a `piece` may land on.
    fn cells(self, piece: Piece) -> u128;

    /// Whether none of `piece`'s cells lies on `lines` (a slider's lines on the empty board), so
    /// that its targets need not be worked out.
    #[inline(always)]
    fn none_on(self, _piece: Piece, _lines: u128) -> bool {
        false
    }
}

impl Onto for u128 {
    #[inline(always)]
    fn cells(self, _piece: Piece) -> u128 {
        self
    }
}

/// The captures a capture search tries, by the piece that captures: victims worth at least the
/// piece (a king's: any) and more than the search's floor ([`HexChess::generate_worthwhile_captures`]).
#[derive(Clone, Copy)]
pub(crate) struct Worthwhile([u128; 6]);

impl Onto for Worthwhile {
    #[inline(always)]
    fn cells(self, piece: Piece) -> u128 {
        self.0[piece.index()]
    }

    #[inline(always)]
    fn none_on(self, piece: Piece, lines: u128) -> bool {
        lines & self.0[piece.index()] == 0
    }
}

/// Where the king stands and what restricts the other pieces.
struct Constraints {
    /// Cells a non-king move may land on: anything not own, or in check the checker and its line.
    target: u128,
    /// Number of pieces giving check.
    checkers: u32,
    /// Pinned own pieces.
    pinned: u128,
    /// Each pinned piece with the cells it may still move to (its pin line, pinner included).
    pins: [(Cell, u128); 12],
    /// How many entries of `pins` are used.
    pin_count: usize,
}

/// The last cell of each file in `side`'s forward direction: where its pawns promote.
#[inline(always)]
pub(crate) fn promotion_cells<V: HexRules>(side: Player) -> u128 {
    V::PROMOTION_CELLS[side]
}

/// `side`'s pawn start cells (from which it may step twice).
#[inline(always)]
pub(crate) fn pawn_starts<V: HexRules>(side: Player) -> u128 {
    V::PAWN_STARTS[side]
}

/// The cells a pawn of `side` on `cell` captures onto (equally: the cells from which a pawn of
/// the other side attacks `cell`, since the two sides' capture directions are opposite).
#[inline(always)]
pub(crate) fn pawn_attacks<V: HexRules>(side: Player, cells: u128) -> u128 {
    let b = V::BOARD;
    let [l, r] = pawn_captures::<V>(side);
    shift(cells & b.can_step(l), l.shift()) | shift(cells & b.can_step(r), r.shift())
}

impl<V: HexRules> HexChess<V> {
    /// Whether a piece of side `by` attacks `cell`, with `occupied` as the blockers and `their`
    /// as `by`'s pieces (callers pass modified sets to test a king step or en passant).
    #[inline(always)]
    pub(crate) fn attacked(&self, cell: Cell, by: Player, occupied: u128, their: u128) -> bool {
        let b = V::BOARD;
        let bp = &self.by_piece;
        if b.knight(cell) & bp[Piece::Knight.index()] & their != 0
            || pawn_attacks::<V>(by ^ 1, cell.bit()) & bp[Piece::Pawn.index()] & their != 0
            || b.king(cell) & bp[Piece::King.index()] & their != 0
        {
            return true;
        }
        let queens = bp[Piece::Queen.index()];
        let rooks = (bp[Piece::Rook.index()] | queens) & their;
        if b.edge_lines(cell) & rooks != 0 && b.rook_attacks(cell, occupied) & rooks != 0 {
            return true;
        }
        let bishops = (bp[Piece::Bishop.index()] | queens) & their;
        b.vertex_lines(cell) & bishops != 0 && b.bishop_attacks(cell, occupied) & bishops != 0
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let us = self.side as Player;
        let occupied = self.by_side[0] | self.by_side[1];
        self.attacked(self.king(us), us ^ 1, occupied, self.by_side[us ^ 1])
    }

    /// Feeds every legal move to `sink` (ignoring the draw rules, which the caller applies).
    #[inline(always)]
    pub(crate) fn generate<S: HexSink>(&self, sink: &mut S) {
        self.generate_onto(sink, !0u128);
    }

    /// [`HexChess::generate`] for the moves landing on `onto` cells only (en passant, which
    /// lands on an empty cell, whatever `onto` says): a captures-only list asks for the other
    /// side's cells, and the king's steps elsewhere are then never tested for attacks.
    #[inline(always)]
    fn generate_onto<S: HexSink, O: Onto>(&self, sink: &mut S, onto: O) {
        if self.side as Player == WHITE {
            self.generate_for::<S, O, 0>(sink, onto);
        } else {
            self.generate_for::<S, O, 1>(sink, onto);
        }
    }

    /// Puts every legal capture in `moves` (en passant included; promotions that capture
    /// nothing left out), as [`HexChess::generate`] lists them.
    pub(crate) fn generate_captures(&self, moves: &mut Vec<HexMove>) {
        let theirs = self.by_side[self.side as usize ^ 1];
        self.generate_onto(moves, theirs);
    }

    /// The legal captures a capture search tries, in `moves` (and perhaps a few more), in
    /// [`HexChess::generate_captures`]'s order: those whose victim is worth at least the capturing
    /// piece (anything, for the king) and whose value in centipawns exceeds `floor`. Pieces with
    /// no such victim on their lines are skipped before their targets are worked out.
    pub(crate) fn generate_worthwhile_captures(&self, moves: &mut Vec<HexMove>, floor: i32) {
        let theirs = self.by_side[self.side as usize ^ 1];
        // Each class of victims with every more valuable one, cut at the floor.
        let worth = |pieces: &[Piece]| -> u128 {
            let value = pieces[0].value();
            let bits = pieces.iter().fold(0, |bits, p| bits | self.by_piece[p.index()]);
            if (value * 100.0) as i32 > floor {
                bits & theirs
            } else {
                0
            }
        };
        let queens = worth(&[Piece::Queen]);
        let rooks_up = queens | worth(&[Piece::Rook]);
        let minors_up = rooks_up | worth(&[Piece::Knight, Piece::Bishop]);
        let any = minors_up | worth(&[Piece::Pawn]);
        let victims = [any, minors_up, minors_up, rooks_up, queens, any];
        self.generate_onto(moves, Worthwhile(victims));
    }

    /// The number of legal moves, with the captures among them put in `captures`, in one pass.
    pub(crate) fn count_with_captures(&self, captures: &mut Vec<HexMove>) -> u32 {
        let theirs = self.by_side[self.side as usize ^ 1];
        let mut sink = CountCaptures { count: 0, captures, theirs };
        self.generate(&mut sink);
        sink.count as u32
    }

    /// Checkers and pins of side `US`'s king.
    #[inline(always)]
    fn constraints<const US: Player>(&self, king: Cell, own: u128, opp: u128) -> Constraints {
        let b = V::BOARD;
        let bp = &self.by_piece;
        let occupied = own | opp;
        let mut checkers = (b.knight(king) & bp[Piece::Knight.index()] & opp)
            | (pawn_attacks::<V>(US, king.bit()) & bp[Piece::Pawn.index()] & opp);
        let mut evasion = checkers;
        let queens = bp[Piece::Queen.index()];
        let rooks = (bp[Piece::Rook.index()] | queens) & opp;
        let bishops = (bp[Piece::Bishop.index()] | queens) & opp;
        let mut c = Constraints { target: 0, checkers: 0, pinned: 0, pins: [(king, 0); 12], pin_count: 0 };
        for dir in Dir::ALL {
            let sliders = if dir.is_edge() { rooks } else { bishops };
            let ray = b.ray(king, dir);
            if ray & sliders == 0 {
                continue;
            }
            let blockers = ray & occupied;
            let first = nearest(blockers, dir);
            if first.bit() & opp != 0 {
                if first.bit() & sliders != 0 {
                    checkers |= first.bit();
                    evasion |= ray ^ b.ray(first, dir);
                }
            } else {
                let rest = blockers ^ first.bit();
                if rest != 0 {
                    let second = nearest(rest, dir);
                    if second.bit() & sliders != 0 {
                        c.pinned |= first.bit();
                        c.pins[c.pin_count] = (first, ray ^ b.ray(second, dir));
                        c.pin_count += 1;
                    }
                }
            }
        }
        c.checkers = checkers.count_ones();
        c.target = if c.checkers == 0 { b.on_board() & !own } else { evasion };
        c
    }

    /// The generator for side `US` (a constant, so pawn directions fold away).
    #[inline(always)]
    fn generate_for<S: HexSink, O: Onto, const US: Player>(&self, sink: &mut S, onto: O) {
        let b = V::BOARD;
        let them = US ^ 1;
        let own = self.by_side[US];
        let opp = self.by_side[them];
        let occupied = own | opp;
        let bp = &self.by_piece;
        let king = self.king(US);
        let c = self.constraints::<US>(king, own, opp);

        // King steps, tested against the board without the king so it cannot hide on a check line.
        let without_king = occupied ^ king.bit();
        let mut steps = 0;
        for to in Bits(b.king(king) & !own & onto.cells(Piece::King)) {
            if !self.attacked(to, them, without_king, opp) {
                steps |= to.bit();
            }
        }
        sink.piece(Piece::King, king, steps);
        if c.checkers >= 2 || sink.done() {
            return;
        }
        let target = |piece: Piece| c.target & onto.cells(piece);
        let free = own & !c.pinned;

        for from in Bits(bp[Piece::Knight.index()] & free) {
            sink.piece(Piece::Knight, from, b.knight(from) & target(Piece::Knight));
        }
        for from in Bits(bp[Piece::Bishop.index()] & free) {
            if !onto.none_on(Piece::Bishop, b.vertex_lines(from)) {
                sink.piece(Piece::Bishop, from, b.bishop_attacks(from, occupied) & target(Piece::Bishop));
            }
        }
        for from in Bits(bp[Piece::Rook.index()] & free) {
            if !onto.none_on(Piece::Rook, b.edge_lines(from)) {
                sink.piece(Piece::Rook, from, b.rook_attacks(from, occupied) & target(Piece::Rook));
            }
        }
        for from in Bits(bp[Piece::Queen.index()] & free) {
            if !onto.none_on(Piece::Queen, b.edge_lines(from) | b.vertex_lines(from)) {
                let a = b.rook_attacks(from, occupied) | b.bishop_attacks(from, occupied);
                sink.piece(Piece::Queen, from, a & target(Piece::Queen));
            }
        }
        if sink.done() {
            return;
        }

        let empty = b.on_board() & !occupied;
        let promo = promotion_cells::<V>(US);
        self.pawn_moves::<S, US>(sink, bp[Piece::Pawn.index()] & free, empty, opp, target(Piece::Pawn), promo);

        for &(from, line) in &c.pins[..c.pin_count] {
            let piece_bit = from.bit();
            let allowed = |piece: Piece| line & target(piece);
            if bp[Piece::Pawn.index()] & piece_bit != 0 {
                self.pawn_moves::<S, US>(sink, piece_bit, empty, opp, allowed(Piece::Pawn), promo);
            } else if bp[Piece::Bishop.index()] & piece_bit != 0 {
                sink.piece(Piece::Bishop, from, b.bishop_attacks(from, occupied) & allowed(Piece::Bishop));
            } else if bp[Piece::Rook.index()] & piece_bit != 0 {
                sink.piece(Piece::Rook, from, b.rook_attacks(from, occupied) & allowed(Piece::Rook));
            } else if bp[Piece::Queen.index()] & piece_bit != 0 {
                let a = b.rook_attacks(from, occupied) | b.bishop_attacks(from, occupied);
                sink.piece(Piece::Queen, from, a & allowed(Piece::Queen));
            }
            // A pinned knight never stays on its pin line.
        }

        if V::DOUBLE_STEP && self.ep != NO_CELL {
            self.en_passant_moves::<S, US>(sink, king, own, opp);
        }
    }

    /// Pushes, double steps and captures of the pawns `pawns`, landing only on `target` cells.
    #[inline(always)]
    fn pawn_moves<S: HexSink, const US: Player>(
        &self,
        sink: &mut S,
        pawns: u128,
        empty: u128,
        opp: u128,
        target: u128,
        promo: u128,
    ) {
        let b = V::BOARD;
        let fwd = forward(US);
        let step = fwd.shift();
        let single = shift(pawns & b.can_step(fwd), step) & empty;
        sink.pawns::<V>(single & target, step, promo);
        if V::DOUBLE_STEP {
            let starts = pawn_starts::<V>(US);
            let double = shift(single & shift(starts, step) & b.can_step(fwd), step) & empty & target;
            sink.pawns::<V>(double, 2 * step, 0);
        }
        for dir in pawn_captures::<V>(US) {
            let captures = shift(pawns & b.can_step(dir), dir.shift()) & opp & target;
            sink.pawns::<V>(captures, dir.shift(), promo);
        }
    }

    /// En-passant captures, each tested by making it on the occupancy: it empties two cells and
    /// fills one, which can open a line to the king in ways pins do not describe.
    #[cold]
    fn en_passant_moves<S: HexSink, const US: Player>(&self, sink: &mut S, king: Cell, own: u128, opp: u128) {
        let them = US ^ 1;
        let to = Cell::from_index_unchecked(self.ep as u32);
        let victim = shift(to.bit(), -forward(US).shift());
        let pawns = self.by_piece[Piece::Pawn.index()] & own;
        // Our pawns that capture onto `to` stand where their pawns would attack `to` from.
        for from in Bits(pawn_attacks::<V>(them, to.bit()) & pawns) {
            let occupied = (own | opp) ^ from.bit() ^ to.bit() ^ victim;
            if !self.attacked(king, them, occupied, opp ^ victim) {
                sink.add(HexMove { from, to, piece: Piece::Pawn, promotion: None });
            }
        }
    }
}
