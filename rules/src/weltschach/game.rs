//! [`Game`] and [`Material`] for Weltschach.

use crate::draw_rules::draw_by_rule;
use crate::ending::Ending;
use crate::error::{MoveError, PositionError};
use crate::game::Game;
use crate::material::Material;
use crate::movesink::{Any, Count};
use crate::player::{Player, MAX_PLAYERS};
use crate::scores::Scores;

use super::movegen::{generate, generate_captures};
use super::piece::{self, Kind};
use super::position::{Move, Weltschach, MOVE_LIMIT_PLIES};
use super::{notation, setup};

impl Weltschach {
    /// The draw rule that ends the game, if any: the move limit, threefold repetition or
    /// insufficient material (mate and stalemate take precedence).
    #[inline(always)]
    fn draw_rule(&self) -> Option<Ending> {
        draw_by_rule(self.halfmove >= MOVE_LIMIT_PLIES, || self.repetitions() >= 2, || self.insufficient_material())
    }

    /// Whether a draw rule ends the game (see [`Self::draw_rule`]).
    pub(super) fn drawn_by_rule(&self) -> bool {
        self.draw_rule().is_some()
    }

    /// Whether the side to move has a legal move (checkmate and stalemate tests stop early).
    pub fn has_legal_move(&self) -> bool {
        let mut any = Any(false);
        generate(self, &mut any);
        any.0
    }
}

impl Game for Weltschach {
    type Move = Move;

    const NAME: &'static str = "weltschach";
    const NUM_PLAYERS: usize = 2;

    fn start() -> Self {
        setup::start()
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        notation::from_text(text)
    }

    fn to_text(&self) -> String {
        notation::to_text(self)
    }

    fn to_move(&self) -> Player {
        self.side as Player
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if !self.drawn_by_rule() {
            generate(self, moves);
        }
    }

    fn count_legal_moves(&self) -> u64 {
        if self.drawn_by_rule() {
            return 0;
        }
        let mut count = Count(0);
        generate(self, &mut count);
        count.0
    }

    fn winning_move(&self) -> Option<Move> {
        self.mating_move()
    }

    fn play(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn outcome(&self) -> Option<Scores> {
        Some(match self.ending()? {
            Ending::Checkmate => Scores::win2(1 - self.side as usize),
            _ => Scores::draw(2),
        })
    }

    fn ending(&self) -> Option<Ending> {
        if !self.has_legal_move() {
            return Some(if self.in_check() { Ending::Checkmate } else { Ending::Stalemate });
        }
        self.draw_rule()
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn move_text(&self, mv: Move) -> String {
        notation::move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}

impl Material for Weltschach {
    const CAPTURES_GENERATOR: bool = true;

    fn legal_captures(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if !self.drawn_by_rule() {
            generate_captures(self, moves);
        }
    }

    fn capture_value(&self, mv: Move) -> f32 {
        // Castling lands on an empty cell, so only a capture finds a piece on `to`.
        self.piece_at(mv.to()).map_or(0.0, |(_, kind)| kind.value())
    }

    fn mover_value(&self, mv: Move) -> f32 {
        self.piece_at(mv.from()).map_or(0.0, |(_, kind)| kind.value())
    }

    fn material(&self) -> [f32; MAX_PLAYERS] {
        let mut sums = [0.0; MAX_PLAYERS];
        sums[..2].copy_from_slice(&self.material);
        sums
    }
}

impl Weltschach {
    /// Each colour's material summed over the board: what [`Material::material`] keeps as
    /// pieces move, worked out afresh (tests compare the two).
    pub fn material_on_board(&self) -> [f32; MAX_PLAYERS] {
        let mut sums = [0.0; MAX_PLAYERS];
        for (color, sum) in sums.iter_mut().take(2).enumerate() {
            for (rank, &word) in self.occ[color].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let cell = rank * 64 + bits.trailing_zeros() as usize;
                    *sum += Kind::from_index(piece::byte_kind(self.board[cell])).value();
                    bits &= bits - 1;
                }
            }
        }
        sums
    }
}
