//! The game state: board, piece sets, castling flags, promotion pools, clocks, hash and the
//! repetition history, about 920 bytes in all so that copy-make stays cheap (a clone is little
//! more than a memcpy).

use crate::history::History;

use super::attacks::{attacked, facing};
use super::geometry::{Cell, CELLS, DIR_OFFSET};
use super::piece::{byte_color, byte_kind, piece_byte, Color, Kind, NUM_POOL_KINDS};
use super::zobrist;

/// Plies without capture, Stockbroker move or promotion after which the game is drawn
/// (100 moves a side): the rules text has no draw rules, so this engine adds one, with a high
/// limit for a board this size (docs/rules/weltschach.md).
pub const MOVE_LIMIT_PLIES: u16 = 200;
/// How many earlier positions (since the last irreversible move) repetition detection sees: a
/// rule of this engine (docs/notation-weltschach.md), not a storage limit. The history keeps
/// every position since the last irreversible move; only the newest `REP_WINDOW` are compared.
pub const REP_WINDOW: usize = 64;

/// The repetition history's inline hashes: 16, as in the hex variants; a 64-entry inline ring
/// (the window) made the position 1280 bytes, and search copies it at every node.
const RECENT_HASHES: usize = 16;

/// A move: from-cell, to-cell, an optional end-rank promotion, and a castling flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

const PROMO_SHIFT: u32 = 18;
const CASTLE_BIT: u32 = 1 << 23;

impl Move {
    /// A plain move (also a hop, a capture, or a Stockbroker's automatic River promotion).
    #[inline(always)]
    pub const fn new(from: usize, to: usize) -> Move {
        Move(from as u32 | (to as u32) << 9)
    }

    /// A Stockfwazir move that ends on an end rank and promotes to `kind` from the pool.
    #[inline(always)]
    pub const fn promotion(from: usize, to: usize, kind: usize) -> Move {
        Move(from as u32 | (to as u32) << 9 | ((kind as u32 + 1) << PROMO_SHIFT))
    }

    /// Castling: the Emperor moves from `from` two cells to `to`; the partner is found beyond.
    #[inline(always)]
    pub const fn castle(from: usize, to: usize) -> Move {
        Move(from as u32 | (to as u32) << 9 | CASTLE_BIT)
    }

    /// The cell the moving piece leaves.
    pub const fn from(self) -> Cell {
        Cell::from_index(self.from_index())
    }

    /// The cell the moving piece (the Emperor, when castling) lands on.
    pub const fn to(self) -> Cell {
        Cell::from_index(self.to_index())
    }

    /// Index of the from-cell.
    #[inline(always)]
    pub const fn from_index(self) -> usize {
        (self.0 & 511) as usize
    }

    /// Index of the to-cell.
    #[inline(always)]
    pub const fn to_index(self) -> usize {
        ((self.0 >> 9) & 511) as usize
    }

    /// The end-rank promotion chosen, if any.
    pub const fn promotion_kind(self) -> Option<Kind> {
        let p = (self.0 >> PROMO_SHIFT) & 31;
        if p == 0 {
            None
        } else {
            Some(Kind::from_index(p as usize - 1))
        }
    }

    /// Whether this is castling or Cathedral castling.
    pub const fn is_castle(self) -> bool {
        self.0 & CASTLE_BIT != 0
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.from(), self.to())?;
        if let Some(k) = self.promotion_kind() {
            write!(f, "={}", k.letter())?;
        }
        if self.is_castle() {
            write!(f, "(castle)")?;
        }
        Ok(())
    }
}

/// A Weltschach position with everything needed for the rules and repetition.
#[derive(Clone)]
pub struct Weltschach {
    pub(crate) board: [u8; CELLS],
    /// Occupied cells per colour, as 8 words of 64 bits (one rank per word).
    pub(crate) occ: [[u64; 8]; 2],
    /// Cells whose Emperor, Queen, Duchess or Governor has never moved (castling rights).
    pub(crate) unmoved: [u64; 8],
    pub(crate) hash: u64,
    /// Hashes of earlier positions since the last irreversible move.
    pub(crate) history: History<RECENT_HASHES>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u32,
    pub(crate) kings: [u16; 2],
    /// Per colour, how many of its captured pieces of each symmetric type can return by promotion.
    pub(crate) pool: [[u8; NUM_POOL_KINDS]; 2],
    pub(crate) side: u8,
    pub(crate) emperor_river_bound: bool,
    /// Each colour's material in pawns ([`Kind::value`]), kept as pieces come and go: the
    /// tactical judge's evaluation asks for it at every node, and summing 352 pieces there was
    /// a seventh of a judged node's time. Exact: every value is a multiple of half a pawn.
    pub(crate) material: [f32; 2],
}

impl PartialEq for Weltschach {
    /// Positions are equal when every field the rules or the text can see is equal.
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.occ == other.occ
            && self.unmoved == other.unmoved
            && self.hash == other.hash
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.kings == other.kings
            && self.pool == other.pool
            && self.side == other.side
            && self.history == other.history
    }
}

impl Weltschach {
    /// An empty board, White to move, nothing else set; callers place pieces then `finish`.
    pub(crate) fn empty() -> Weltschach {
        Weltschach {
            board: [0; CELLS],
            occ: [[0; 8]; 2],
            unmoved: [0; 8],
            hash: 0,
            history: History::new(),
            halfmove: 0,
            fullmove: 1,
            kings: [u16::MAX; 2],
            pool: [[0; NUM_POOL_KINDS]; 2],
            side: 0,
            emperor_river_bound: false,
            material: [0.0; 2],
        }
    }

    /// Puts a piece on an empty cell (no hash update; `finish` computes the hash).
    pub(crate) fn put(&mut self, cell: usize, color: Color, kind: Kind) {
        self.board[cell] = piece_byte(color, kind);
        self.occ[color.index()][cell >> 6] |= 1 << (cell & 63);
        self.material[color.index()] += kind.value();
        if kind == Kind::Emperor {
            self.kings[color.index()] = cell as u16;
        }
    }

    /// Recomputes the hash after a position was built piece by piece.
    pub(crate) fn finish(&mut self) {
        self.hash = self.hash_from_scratch();
        self.history.clear();
    }

    /// Sets the promotion pool of `color` (pieces it lost that may return), for building tests
    /// (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn set_pool(&mut self, color: Color, kind: Kind, count: u8) {
        assert!(kind.is_poolable(), "{kind:?} never enters a pool");
        self.pool[color.index()][kind as usize] = count;
        self.finish();
    }

    /// The Zobrist hash computed from the whole position, for checking the incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for (cell, &b) in self.board.iter().enumerate() {
            if b != 0 {
                h ^= zobrist::piece(b, cell);
            }
            if self.is_unmoved(cell) {
                h ^= zobrist::unmoved(cell);
            }
        }
        for c in 0..2 {
            for k in 0..NUM_POOL_KINDS {
                h ^= zobrist::pool(c, k, self.pool[c][k]);
            }
        }
        if self.side == 1 {
            h ^= zobrist::SIDE;
        }
        h
    }

    /// Whether the piece on `cell` still has castling rights (never moved).
    pub fn is_unmoved(&self, cell: usize) -> bool {
        self.unmoved[cell >> 6] >> (cell & 63) & 1 != 0
    }

    /// The piece on a cell, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<(Color, Kind)> {
        let b = self.board[cell.index()];
        (b != 0).then(|| (Color::from_index(byte_color(b)), Kind::from_index(byte_kind(b))))
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        Color::from_index(self.side as usize)
    }

    /// The cell of a side's Emperor.
    pub fn emperor(&self, color: Color) -> Cell {
        Cell::from_index(self.kings[color.index()] as usize)
    }

    /// Whether the side to move has its Emperor attacked.
    pub fn in_check(&self) -> bool {
        let us = self.side as usize;
        attacked(&self.board, self.kings[us] as usize, 1 - us, self.emperor_river_bound)
    }

    /// Whether the side that just moved left its Emperor attacked or the Emperors facing:
    /// never true after a legal move, used to validate position text.
    pub(crate) fn mover_exposed(&self) -> bool {
        let them = 1 - self.side as usize;
        attacked(&self.board, self.kings[them] as usize, self.side as usize, self.emperor_river_bound)
            || facing(&self.board, self.kings[0] as usize, self.kings[1] as usize)
    }

    /// How many captured pieces of `kind` `color` may bring back by promotion.
    pub fn pool_count(&self, color: Color, kind: Kind) -> u8 {
        if kind.is_poolable() {
            self.pool[color.index()][kind as usize]
        } else {
            0
        }
    }

    /// Plies since the last capture, Stockbroker move or promotion.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Confines the Emperors to their own halves as well (a question the rules text leaves open,
    /// docs/rules/weltschach.md; default off).
    pub fn set_emperor_river_bound(&mut self, bound: bool) {
        self.emperor_river_bound = bound;
    }

    /// How often the current position occurred before, within the repetition window.
    pub fn repetitions(&self) -> usize {
        // Only positions an even number of plies back can have the same side to move.
        self.history.occurrences(self.hash, 2, REP_WINDOW)
    }

    #[inline(always)]
    fn remove(&mut self, cell: usize) {
        let b = self.board[cell];
        self.occ[byte_color(b)][cell >> 6] &= !(1 << (cell & 63));
        self.material[byte_color(b)] -= Kind::from_index(byte_kind(b)).value();
        self.hash ^= zobrist::piece(b, cell);
        self.board[cell] = 0;
    }

    #[inline(always)]
    fn place(&mut self, cell: usize, b: u8) {
        self.occ[byte_color(b)][cell >> 6] |= 1 << (cell & 63);
        self.material[byte_color(b)] += Kind::from_index(byte_kind(b)).value();
        self.hash ^= zobrist::piece(b, cell);
        self.board[cell] = b;
    }

    #[inline(always)]
    fn clear_unmoved(&mut self, cell: usize) -> bool {
        let bit = 1u64 << (cell & 63);
        if self.unmoved[cell >> 6] & bit != 0 {
            self.unmoved[cell >> 6] &= !bit;
            self.hash ^= zobrist::unmoved(cell);
            true
        } else {
            false
        }
    }

    #[inline(always)]
    fn update_pool(&mut self, color: usize, kind: usize, count: u8) {
        self.hash ^= zobrist::pool(color, kind, self.pool[color][kind]) ^ zobrist::pool(color, kind, count);
        self.pool[color][kind] = count;
    }

    /// Applies a move generated for this position.
    pub(crate) fn apply(&mut self, mv: Move) {
        let us = self.side as usize;
        let from = mv.from_index();
        let to = mv.to_index();
        let prev_hash = self.hash;
        let moving = self.board[from];
        let mut irreversible = false;
        if mv.is_castle() {
            let d = super::geometry::line_dir(from, to).expect("castling moves along a line");
            let off = DIR_OFFSET[d];
            let mid = (from as isize + off) as usize;
            let mut partner = (to as isize + off) as usize;
            while self.board[partner] == 0 {
                partner = (partner as isize + off) as usize;
            }
            let pb = self.board[partner];
            self.remove(from);
            self.remove(partner);
            self.place(to, moving);
            self.place(mid, pb);
            self.clear_unmoved(from);
            self.clear_unmoved(partner);
            self.kings[us] = to as u16;
            irreversible = true;
            self.halfmove = self.halfmove.saturating_add(1);
        } else {
            let captured = self.board[to];
            let mut reset = false;
            if captured != 0 {
                let ck = byte_kind(captured);
                let cc = byte_color(captured);
                self.remove(to);
                if ck < NUM_POOL_KINDS {
                    let n = self.pool[cc][ck].saturating_add(1);
                    self.update_pool(cc, ck, n);
                }
                self.clear_unmoved(to);
                reset = true;
            }
            self.remove(from);
            let kind = byte_kind(moving);
            let mut landing = moving;
            if kind == Kind::Stockbroker as usize {
                reset = true;
                let crossed = if us == 0 { to >> 6 == 4 } else { to >> 6 == 3 };
                if crossed {
                    landing = piece_byte(Color::from_index(us), Kind::Stockfwazir);
                }
            } else if let Some(p) = mv.promotion_kind() {
                reset = true;
                landing = piece_byte(Color::from_index(us), p);
                let n = self.pool[us][p as usize] - 1;
                self.update_pool(us, p as usize, n);
            } else if kind == Kind::Emperor as usize {
                self.kings[us] = to as u16;
            }
            self.place(to, landing);
            if self.clear_unmoved(from) {
                irreversible = true;
            }
            if reset {
                self.halfmove = 0;
                irreversible = true;
            } else {
                self.halfmove = self.halfmove.saturating_add(1);
            }
        }
        if irreversible {
            self.history.clear();
        } else {
            self.history.push(prev_hash);
        }
        if us == 1 {
            // Saturating: a position text may give the largest move number, and wrapping to 0
            // would write a text that is refused (move numbers start at 1).
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side ^= 1;
        self.hash ^= zobrist::SIDE;
    }
}
