//! Mates in one, found without playing every move: a stalemate is a draw, so only a move that
//! gives check can win. The enemy Emperor is not attacked before the move, so a move can attack
//! it only by landing on one of its 26 lines or its leap cells, or by leaving one of its lines;
//! only those lines (and leaps) are re-examined on a scratch board, and only the checks are
//! played and tested for a reply.

use super::attacks::{attacked, leap_attacks, ray_attacks};
use super::geometry::{DIR_OFFSET, LEAP_MASK, LEAP_OFFSET, NUM_DIRS, RAY_LEN};
use super::movegen::generate;
use super::piece::{byte_kind, piece_byte, Color, Kind};
use super::position::{Move, Weltschach};
use crate::game::wins_by;
use crate::movesink::MoveSink;

/// Per cell, what it is to the enemy Emperor: 1 + the direction from it along one of its lines
/// (0: on none), and whether a leaper there would attack it.
struct Around {
    line: [u8; 512],
    leap: [bool; 512],
}

impl Around {
    fn new(emperor: usize) -> Around {
        let mut around = Around { line: [0; 512], leap: [false; 512] };
        for d in 0..NUM_DIRS {
            let mut t = emperor as isize;
            for _ in 0..RAY_LEN[emperor][d] {
                t += DIR_OFFSET[d];
                around.line[t as usize] = d as u8 + 1;
            }
        }
        for (cls, &mask) in LEAP_MASK[emperor].iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                around.leap[(emperor as isize + LEAP_OFFSET[cls * 24 + i]) as usize] = true;
            }
        }
        around
    }
}

/// Receives the legal moves in generation order and keeps the first that mates.
struct MateFinder<'a> {
    pos: &'a Weltschach,
    around: Around,
    /// The position's board, changed by one move at a time and restored.
    board: [u8; 512],
    emperor: usize,
    found: Option<Move>,
}

impl MateFinder<'_> {
    /// Whether `mv` (not castling) attacks the enemy Emperor.
    #[inline(always)]
    fn checks(&mut self, mv: Move) -> bool {
        let (from, to) = (mv.from_index(), mv.to_index());
        let (from_line, to_line, to_leap) = (self.around.line[from], self.around.line[to], self.around.leap[to]);
        if from_line == 0 && to_line == 0 && !to_leap {
            return false;
        }
        let us = self.pos.side as usize;
        let (moving, captured) = (self.board[from], self.board[to]);
        // What lands (apply's rules): a Stockbroker crossing the river becomes a Stockfwazir.
        let landing = if byte_kind(moving) == Kind::Stockbroker as usize && (to >> 6 == 4 - us) {
            piece_byte(Color::from_index(us), Kind::Stockfwazir)
        } else if let Some(kind) = mv.promotion_kind() {
            piece_byte(Color::from_index(us), kind)
        } else {
            moving
        };
        self.board[from] = 0;
        self.board[to] = landing;
        let bound = self.pos.emperor_river_bound;
        let on_ray =
            |board: &[u8; 512], line: u8| line != 0 && ray_attacks(board, self.emperor, line as usize - 1, us, bound);
        let check = on_ray(&self.board, to_line)
            || (from_line != to_line && on_ray(&self.board, from_line))
            || (to_leap && leap_attacks(&self.board, self.emperor, us));
        self.board[to] = captured;
        self.board[from] = moving;
        check
    }
}

impl MoveSink<Move> for MateFinder<'_> {
    #[inline(always)]
    fn add(&mut self, mv: Move) {
        // Castling moves two pieces: played in full, as it is rare.
        if self.found.is_none() && (mv.is_castle() || self.checks(mv)) {
            self.found = wins_by(self.pos, mv).map(|_| mv);
        }
    }

    fn done(&self) -> bool {
        self.found.is_some()
    }
}

impl Weltschach {
    /// [`crate::Game::winning_move`]: the first legal move that mates.
    pub(crate) fn mating_move(&self) -> Option<Move> {
        if self.drawn_by_rule() {
            return None;
        }
        let us = self.side as usize;
        let emperor = self.kings[1 - us] as usize;
        if attacked(&self.board, emperor, us, self.emperor_river_bound) {
            // Not a position legal play reaches; the shortcuts above assume it away.
            return crate::game::winning_move_by_trying(self);
        }
        let mut finder =
            MateFinder { pos: self, around: Around::new(emperor), board: self.board, emperor, found: None };
        generate(self, &mut finder);
        finder.found
    }
}
