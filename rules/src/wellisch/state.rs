//! The game state: position plus the 100-ply clock, captured kings, the takeover option, the
//! result, the Zobrist hash and the repetition history; and how a move changes it.

use crate::draw_rules::draw_by_rule;
use crate::ending::Ending;
use crate::hex::{parse_wellisch_label, Bits, Cell};
use crate::history::History;
use crate::player::Player;
use crate::scores::Scores;

use super::geometry::{rotate_by, CASTLE_LOSS};
use super::piece::{Move, Piece};
use super::position::Pos;
use super::zobrist::{castling_key, code, reserve_key, KEYS};

/// The repetition history's inline hashes: none. Repetition is an option, off by default, so in
/// standard play the history stays empty and an inline buffer would only make every clone (search
/// copies states at every node) bigger; under the option each quiet ply allocates once, as the
/// persistent list this replaced did.
const RECENT_HASHES: usize = 0;

/// Plies without a capture or pawn move after which the game is drawn (passes count).
pub const DRAW_PLIES: u8 = 100;

/// Rule options that are not part of Wellisch's standard rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Options {
    /// The inventor's rule: a king's captor takes over the loser's pieces (pawns keep their
    /// direction) and reserve, and play goes on between the two others.
    pub takeover: bool,
    /// Threefold repetition draws. Off by default: Wellisch's rules (docs/rules/wellisch.md) name
    /// only king capture and the 100-ply count as ways the game ends.
    pub threefold: bool,
}

/// A Wellisch Chess game state (the [`crate::Game`] of the variant).
#[derive(Clone, Debug, PartialEq)]
pub struct Wellisch {
    /// Board, reserves, castling rights and mover.
    pub(crate) pos: Pos,
    /// Rule options, fixed for the game.
    pub(crate) options: Options,
    /// Plies since the last capture or pawn move.
    pub(crate) clock: u8,
    /// Kings captured so far, as (victim, captor) seats, in order.
    pub(crate) captures: [(u8, u8); 2],
    /// How many entries of `captures` are used.
    pub(crate) n_captures: u8,
    /// Bit `seat`: the seat still plays (its king was not captured).
    pub(crate) alive: u8,
    /// Zobrist hash, kept incrementally.
    pub(crate) hash: u64,
    /// Why the game ended and its result, once it is over.
    pub(crate) end: Option<(Ending, Scores)>,
    /// Earlier positions since the last capture or pawn move (kept with threefold only).
    history: History<RECENT_HASHES>,
}

/// P1's setup; P2's and P3's are its rotations by 120 and 240 degrees.
const P1_SETUP: [(&str, Piece); 15] = [
    ("D1", Piece::King),
    ("C1", Piece::Queen),
    ("B1", Piece::Rook),
    ("E1", Piece::Rook),
    ("A1", Piece::Knight),
    ("D2", Piece::Knight),
    ("F1", Piece::Knight),
    ("A2", Piece::Pawn),
    ("B2", Piece::Pawn),
    ("C2", Piece::Pawn),
    ("D3", Piece::Pawn),
    ("E3", Piece::Pawn),
    ("E2", Piece::Pawn),
    ("F2", Piece::Pawn),
    ("G2", Piece::Pawn),
];

impl Wellisch {
    /// The start position under the given rule options.
    pub fn start_with(options: Options) -> Wellisch {
        let mut pos = Pos::EMPTY;
        for (label, piece) in P1_SETUP {
            let c = parse_wellisch_label(label, 5).expect("setup label");
            for seat in 0..3 {
                pos.put(rotate_by(c, seat), piece, seat, seat);
            }
        }
        pos.castling = 0b11_1111;
        Wellisch::from_parts(pos, options, 0, &[])
    }

    /// A state from its parts; `captures` lists (victim, captor) seats in order. The result is
    /// derived from them and the clock.
    pub(crate) fn from_parts(pos: Pos, options: Options, clock: u8, captures: &[(u8, u8)]) -> Wellisch {
        let mut g = Wellisch {
            pos,
            options,
            clock,
            captures: [(0, 0); 2],
            n_captures: captures.len() as u8,
            alive: 0b111,
            hash: 0,
            end: None,
            history: History::new(),
        };
        for (i, &(v, c)) in captures.iter().enumerate() {
            g.captures[i] = (v, c);
            g.alive &= !(1 << v);
        }
        g.hash = g.compute_hash();
        g.end = g.result_after_capture().or_else(|| g.draw_result());
        g
    }

    /// The rule options of this game.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Plies since the last capture or pawn move.
    pub fn clock(&self) -> u8 {
        self.clock
    }

    /// How often the position on the board occurred before since the last capture or pawn move;
    /// always 0 without the threefold option, which alone keeps the history. Every earlier
    /// position is compared (a position with another seat to move has another hash).
    ///
    /// Never inlined: with this loop inside, `draw_result` was no longer inlined into every
    /// move's `apply`, and no-bulk perft 5 fell from 24.8 to 22 M leaves/s, though the loop only
    /// runs under the option.
    #[inline(never)]
    pub fn repetitions(&self) -> usize {
        self.history.occurrences(self.hash, 1, usize::MAX)
    }

    /// Whether `seat` still plays.
    pub fn is_alive(&self, seat: Player) -> bool {
        self.alive & (1 << seat) != 0
    }

    /// The Zobrist hash computed from scratch (the incremental one must equal it).
    pub fn compute_hash(&self) -> u64 {
        let pos = &self.pos;
        let mut h = KEYS.mover[pos.mover as usize] ^ castling_key(pos.castling);
        for seat in 0..3 {
            for (k, piece) in [Piece::King, Piece::Queen, Piece::Rook, Piece::Knight].into_iter().enumerate() {
                for c in Bits(pos.kinds[k] & pos.owner[seat]) {
                    h ^= KEYS.piece[code(piece, seat, 0)][c.index()];
                }
            }
            for d in 0..3 {
                for c in Bits(pos.pawns[d] & pos.owner[seat]) {
                    h ^= KEYS.piece[code(Piece::Pawn, seat, d)][c.index()];
                }
            }
            for r in 0..3 {
                h ^= reserve_key(seat, r, pos.reserve[seat][r]);
            }
            if !self.is_alive(seat) {
                h ^= KEYS.out[seat];
            }
        }
        h
    }

    /// The owner of the piece on `c`, if any, for tests (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn owner_at(&self, c: Cell) -> Option<Player> {
        self.pos.owner_at(c)
    }

    /// The piece on `c` and, for a pawn, the seat whose forward directions it moves in (0 for
    /// other pieces), for tests (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn piece_at(&self, c: Cell) -> Option<(Piece, usize)> {
        self.pos.piece_at(c)
    }

    /// The castling rights, bit `2 * seat` king-side and bit `2 * seat + 1` queen-side, for
    /// tests (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn castling(&self) -> u8 {
        self.pos.castling
    }

    /// Each seat's reserve, the counts of [`Piece::RESERVE`] it may promote to, for tests
    /// (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn reserves(&self) -> [[u8; 3]; 3] {
        self.pos.reserve
    }

    /// Puts a piece on an empty cell, keeping the hash.
    #[inline(always)]
    fn put(&mut self, c: Cell, piece: Piece, owner: Player, dir: usize) {
        self.pos.put(c, piece, owner, dir);
        self.hash ^= KEYS.piece[code(piece, owner, dir)][c.index()];
    }

    /// Removes the piece on `c`, keeping the hash; returns it with its owner and pawn direction.
    #[inline(always)]
    fn take(&mut self, c: Cell) -> (Piece, Player, usize) {
        let owner = self.pos.owner_at(c).expect("a piece to take");
        let (piece, dir) = self.pos.piece_at(c).expect("a piece to take");
        self.pos.clear(c);
        self.hash ^= KEYS.piece[code(piece, owner, dir)][c.index()];
        (piece, owner, dir)
    }

    /// Changes a reserve count, keeping the hash.
    #[inline(always)]
    fn set_reserve(&mut self, seat: Player, r: usize, n: u8) {
        self.hash ^= reserve_key(seat, r, self.pos.reserve[seat][r]) ^ reserve_key(seat, r, n);
        self.pos.reserve[seat][r] = n;
    }

    /// Changes the castling rights, keeping the hash.
    #[inline(always)]
    fn set_castling(&mut self, rights: u8) {
        self.hash ^= castling_key(self.pos.castling ^ rights);
        self.pos.castling = rights;
    }

    /// Plays a legal move (see [`crate::Game::play`]).
    pub(crate) fn apply(&mut self, mv: Move) {
        debug_assert!(self.end.is_none(), "move played after the end of the game");
        let p = self.pos.mover as Player;
        let old_hash = self.hash;
        let mut irreversible = false;
        let mut king_taken = None;
        if let Some((pawn, r)) = mv.delayed() {
            self.take(pawn);
            self.put(pawn, Piece::RESERVE[r], p, 0);
            self.set_reserve(p, r, self.pos.reserve[p][r] - 1);
        }
        if mv.is_castle() {
            let (k, rook) = (mv.from().expect("castling cell"), mv.to().expect("castling cell"));
            self.take(k);
            self.take(rook);
            self.put(rook, Piece::King, p, 0);
            self.put(k, Piece::Rook, p, 0);
            self.set_castling(self.pos.castling & !(3 << (2 * p)));
        } else if !mv.is_pass() {
            let (from, to) = (mv.from().expect("move cell"), mv.to().expect("move cell"));
            if self.pos.owner[p] & to.bit() == 0 && self.pos.occupied() & to.bit() != 0 {
                let (victim, owner, _) = self.take(to);
                irreversible = true;
                match victim.reserve_index() {
                    Some(r) => self.set_reserve(owner, r, self.pos.reserve[owner][r] + 1),
                    None if victim == Piece::King => king_taken = Some(owner),
                    None => {}
                }
            }
            let (piece, _, dir) = self.take(from);
            match mv.promotion() {
                Some(r) => {
                    self.put(to, Piece::RESERVE[r], p, 0);
                    self.set_reserve(p, r, self.pos.reserve[p][r] - 1);
                }
                None => self.put(to, piece, p, dir),
            }
            irreversible |= piece == Piece::Pawn;
            let lost = CASTLE_LOSS[from.index()] | CASTLE_LOSS[to.index()];
            if self.pos.castling & lost != 0 {
                self.set_castling(self.pos.castling & !lost);
            }
        }
        if let Some(victim) = king_taken {
            self.king_captured(victim, p);
        }
        let next = self.next_seat(p);
        self.hash ^= KEYS.mover[p] ^ KEYS.mover[next];
        self.pos.mover = next as u8;
        if irreversible {
            self.clock = 0;
            self.history.clear();
        } else {
            self.clock += 1;
            if self.options.threefold {
                self.history.push(old_hash);
            }
        }
        if self.end.is_none() {
            self.end = self.draw_result();
        }
    }

    /// The next seat in turn order that still plays.
    fn next_seat(&self, p: Player) -> Player {
        let mut n = (p + 1) % 3;
        while !self.is_alive(n) && n != p {
            n = (n + 1) % 3;
        }
        n
    }

    /// Records that `captor` took the king of `victim`: the game ends, or under the takeover
    /// rule the captor takes over the victim's pieces and reserve.
    fn king_captured(&mut self, victim: Player, captor: Player) {
        self.captures[self.n_captures as usize] = (victim as u8, captor as u8);
        self.n_captures += 1;
        self.alive &= !(1 << victim);
        self.hash ^= KEYS.out[victim];
        let rights = self.pos.castling & !(3 << (2 * victim));
        self.set_castling(rights);
        if self.options.takeover && self.n_captures == 1 {
            for c in Bits(self.pos.owner[victim]) {
                let (piece, _, dir) = self.take(c);
                self.put(c, piece, captor, dir);
            }
            for r in 0..3 {
                let n = self.pos.reserve[victim][r];
                if n > 0 {
                    self.set_reserve(victim, r, 0);
                    self.set_reserve(captor, r, self.pos.reserve[captor][r] + n);
                }
            }
        }
        self.end = self.result_after_capture();
    }

    /// The result decided by captured kings, if that has ended the game.
    fn result_after_capture(&self) -> Option<(Ending, Scores)> {
        let mut s = [0.5f32; 3];
        match (self.options.takeover, self.n_captures) {
            (false, 1) => {
                let (victim, captor) = self.captures[0];
                s[victim as usize] = 0.0;
                s[captor as usize] = 1.0;
            }
            (true, 2) => {
                // Ranked by how long each survived: winner 1, last loser 1/2, first loser 0.
                let (first, _) = self.captures[0];
                let (second, captor) = self.captures[1];
                s[first as usize] = 0.0;
                s[second as usize] = 0.5;
                s[captor as usize] = 1.0;
            }
            _ => return None,
        }
        Some((Ending::KingCaptured, Scores::new(&s)))
    }

    /// A draw by the 100-ply count, (if enabled) threefold repetition or insufficient material,
    /// if one applies now.
    fn draw_result(&self) -> Option<(Ending, Scores)> {
        let ending = draw_by_rule(
            self.clock >= DRAW_PLIES,
            || self.options.threefold && self.repetitions() >= 2,
            || self.insufficient_material(),
        )?;
        Some((ending, self.draw_scores()))
    }

    /// What a draw scores now: the seats still playing share the points of the places still
    /// undecided (1/2 each, or 3/4 to each survivor of one capture).
    pub(crate) fn draw_scores(&self) -> Scores {
        let mut s = [0.5f32; 3];
        if self.n_captures == 1 {
            for (seat, v) in s.iter_mut().enumerate() {
                *v = if self.is_alive(seat) { 0.75 } else { 0.0 };
            }
        }
        Scores::new(&s)
    }

    /// Every legal move (empty once the game is over).
    pub(crate) fn moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.end.is_none() {
            self.pos.generate(moves);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wellisch::geometry::{CASTLE, HOME_EDGE};
    use crate::Game;

    /// Each seat's king starts on the king cell of the castling table, the one king on that
    /// seat's home edge (the setup's other cells are checked in tests/wellisch_moves.rs).
    #[test]
    fn castling_table_kings_are_the_setup_kings() {
        let g = Wellisch::start();
        for seat in 0..3 {
            assert_eq!(
                g.pos.owner[seat] & g.pos.kinds[Piece::King as usize] & HOME_EDGE[seat],
                CASTLE[seat].king.bit()
            );
        }
    }
}
