//! The position: bitboards, side to move, en passant, clocks and repetition history; making moves.

use std::fmt;
use std::marker::PhantomData;

use crate::hex::{shift, Cell, Dir};
use crate::history::History;
use crate::player::Player;

use super::piece::{Piece, BLACK, WHITE};
use super::rules::HexRules;
use super::zobrist::ZOBRIST;

/// A move: the moving piece type travels from `from` to `to`, a pawn possibly promoting.
///
/// The piece type rides along so that playing a move needs no board lookup for it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HexMove {
    /// The cell the piece leaves.
    pub from: Cell,
    /// The cell it lands on (for en passant: the skipped cell, not the captured pawn's).
    pub to: Cell,
    /// The type of the moving piece.
    pub piece: Piece,
    /// For a promotion, the new piece type.
    pub promotion: Option<Piece>,
}

/// The repetition history's inline hashes: 16 keep the position about 300 bytes (see
/// [`History`] for the measurement behind the choice).
pub(crate) const RECENT_HASHES: usize = 16;

/// Marks "no en-passant cell".
pub(crate) const NO_CELL: u8 = u8::MAX;

/// A position of a two-player hex chess variant (Glinski Chess, Mini Hexchess) plus what the
/// draw rules need to know of its past. See [`crate::Game`] for the interface.
///
/// Search and perft copy positions instead of undoing moves, so the struct stays small (8
/// bitboards, a few scalars and 16 inline history hashes: about 300 bytes). Measured on Glinski
/// perft 4 (CPU time, one thread): copy-make 45 M leaves/s, against 46-50 for make plus restoring
/// a saved copy of the changed fields and 38-41 for make plus an incremental unmake (both without
/// even restoring the repetition history), so copying is as fast and much simpler.
pub struct HexChess<V: HexRules> {
    pub(crate) by_side: [u128; 2],
    pub(crate) by_piece: [u128; 6],
    pub(crate) hash: u64,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) ep: u8,
    pub(crate) side: u8,
    /// How often the current position occurred before (same player to move).
    pub(crate) reps: u8,
    pub(crate) history: History<RECENT_HASHES>,
    pub(crate) rules: PhantomData<V>,
}

impl<V: HexRules> Clone for HexChess<V> {
    #[inline(always)]
    fn clone(&self) -> Self {
        HexChess {
            by_side: self.by_side,
            by_piece: self.by_piece,
            hash: self.hash,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            ep: self.ep,
            side: self.side,
            reps: self.reps,
            history: self.history.clone(),
            rules: PhantomData,
        }
    }
}

impl<V: HexRules> PartialEq for HexChess<V> {
    fn eq(&self, o: &Self) -> bool {
        self.by_side == o.by_side
            && self.by_piece == o.by_piece
            && self.hash == o.hash
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.ep == o.ep
            && self.side == o.side
            && self.reps == o.reps
            && self.history == o.history
    }
}

impl<V: HexRules> Eq for HexChess<V> {}

impl<V: HexRules> fmt::Debug for HexChess<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(V::NAME)
            .field("position", &crate::Game::to_text(self))
            .field("repetitions", &self.reps)
            .field("history", &self.history)
            .finish()
    }
}

/// The direction a side's pawns move in.
#[inline(always)]
pub(crate) const fn forward(side: Player) -> Dir {
    if side == WHITE {
        Dir::N
    } else {
        Dir::S
    }
}

/// The capture directions of `side`'s pawns in variant `V`.
#[inline(always)]
pub(crate) const fn pawn_captures<V: HexRules>(side: Player) -> [Dir; 2] {
    PawnCaptures::<V>::BY_SIDE[side]
}

/// Both sides' pawn capture directions of variant `V`, worked out as the code compiles: Black's
/// are White's flipped, and [`Dir::flip`] searches the direction table, which the attack test
/// of every judged move otherwise ran for a Black pawn (a quarter of the judge's time).
struct PawnCaptures<V>(PhantomData<V>);

impl<V: HexRules> PawnCaptures<V> {
    /// White's directions, then Black's.
    const BY_SIDE: [[Dir; 2]; 2] = {
        let [a, b] = V::PAWN_CAPTURES;
        let mut by_side = [[a, b]; 2];
        by_side[BLACK] = [a.flip(), b.flip()];
        by_side
    };
}

impl<V: HexRules> HexChess<V> {
    /// An empty board, White to move; `from_text` fills it.
    pub(crate) fn empty() -> Self {
        HexChess {
            by_side: [0; 2],
            by_piece: [0; 6],
            hash: 0,
            halfmove: 0,
            fullmove: 1,
            ep: NO_CELL,
            side: WHITE as u8,
            reps: 0,
            history: History::new(),
            rules: PhantomData,
        }
    }

    /// The piece and its side on `cell`, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<(Player, Piece)> {
        let bit = cell.bit();
        let side = if self.by_side[WHITE] & bit != 0 {
            WHITE
        } else if self.by_side[BLACK] & bit != 0 {
            BLACK
        } else {
            return None;
        };
        let piece = Piece::ALL.into_iter().find(|p| self.by_piece[p.index()] & bit != 0)?;
        Some((side, piece))
    }

    /// Puts a piece on an empty cell (position setup), keeping the hash.
    pub(crate) fn put(&mut self, side: Player, piece: Piece, cell: Cell) {
        self.by_side[side] |= cell.bit();
        self.by_piece[piece.index()] |= cell.bit();
        self.hash ^= ZOBRIST.pieces[side][piece.index()][cell.index()];
    }

    /// The cell of `side`'s king (the position always has one).
    #[inline(always)]
    pub(crate) fn king(&self, side: Player) -> Cell {
        Cell::from_index_unchecked((self.by_piece[Piece::King.index()] & self.by_side[side]).trailing_zeros())
    }

    /// The en-passant cell (the cell a pawn skipped on the last move), if any.
    pub fn en_passant(&self) -> Option<Cell> {
        (self.ep != NO_CELL).then(|| Cell::from_index_unchecked(self.ep as u32))
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// How often this position occurred before in the game (threefold repetition at 2).
    pub fn repetitions(&self) -> u8 {
        self.reps
    }

    /// The hash computed from scratch; equals the incrementally kept one (a test invariant).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for side in [WHITE, BLACK] {
            for piece in Piece::ALL {
                for cell in crate::hex::Bits(self.by_side[side] & self.by_piece[piece.index()]) {
                    h ^= ZOBRIST.pieces[side][piece.index()][cell.index()];
                }
            }
        }
        if self.side as Player == BLACK {
            h ^= ZOBRIST.black_to_move;
        }
        if self.ep != NO_CELL {
            h ^= ZOBRIST.en_passant[self.ep as usize];
        }
        h
    }

    /// Makes a legal move; the hot path of search and perft.
    #[inline]
    pub(crate) fn make(&mut self, mv: HexMove) {
        let us = self.side as Player;
        let them = us ^ 1;
        let z = &ZOBRIST;
        let old_hash = self.hash;
        let mut h = old_hash ^ z.black_to_move;
        let old_ep = self.ep;
        if old_ep != NO_CELL {
            h ^= z.en_passant[old_ep as usize];
            self.ep = NO_CELL;
        }
        let (from, to) = (mv.from, mv.to);
        let to_bit = to.bit();
        let mut irreversible = mv.piece == Piece::Pawn;
        if self.by_side[them] & to_bit != 0 {
            irreversible = true;
            let captured = self.captured_type(to_bit);
            self.by_piece[captured] ^= to_bit;
            self.by_side[them] ^= to_bit;
            h ^= z.pieces[them][captured][to.index()];
        }
        let p = mv.piece.index();
        let from_to = from.bit() | to_bit;
        self.by_side[us] ^= from_to;
        self.by_piece[p] ^= from_to;
        h ^= z.pieces[us][p][from.index()] ^ z.pieces[us][p][to.index()];
        if mv.piece == Piece::Pawn {
            let step = forward(us).shift();
            let moved = to.index() as i32 - from.index() as i32;
            if let Some(promo) = mv.promotion {
                self.by_piece[p] ^= to_bit;
                self.by_piece[promo.index()] ^= to_bit;
                h ^= z.pieces[us][p][to.index()] ^ z.pieces[us][promo.index()][to.index()];
            } else if moved == 2 * step {
                let skipped = (from.index() as i32 + step) as u8;
                self.ep = skipped;
                h ^= z.en_passant[skipped as usize];
            } else if to.index() as u8 == old_ep {
                // Only an en-passant capture lands on the skipped cell: the double-stepped pawn
                // stands right behind it, so no push can get there.
                let victim = shift(to_bit, -step);
                self.by_piece[p] ^= victim;
                self.by_side[them] ^= victim;
                h ^= z.pieces[them][p][victim.trailing_zeros() as usize];
            }
        }
        if irreversible {
            self.halfmove = 0;
            self.history.clear();
            self.reps = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
            self.history.push(old_hash);
            // Two players alternate, so only every second position had the same side to move.
            self.reps = self.history.occurrences(h, 2, usize::MAX) as u8;
        }
        if us == BLACK {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them as u8;
        self.hash = h;
    }

    /// The type of the opposing piece on `bit` (never a king in a legal position).
    #[inline(always)]
    fn captured_type(&self, bit: u128) -> usize {
        let bp = &self.by_piece;
        if bp[Piece::Pawn.index()] & bit != 0 {
            Piece::Pawn.index()
        } else if bp[Piece::Knight.index()] & bit != 0 {
            Piece::Knight.index()
        } else if bp[Piece::Bishop.index()] & bit != 0 {
            Piece::Bishop.index()
        } else if bp[Piece::Rook.index()] & bit != 0 {
            Piece::Rook.index()
        } else if bp[Piece::Queen.index()] & bit != 0 {
            Piece::Queen.index()
        } else {
            Piece::King.index()
        }
    }
}
