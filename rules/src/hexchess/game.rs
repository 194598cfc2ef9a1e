//! [`Game`] and [`Material`] for the two-player hex chess variants.

use crate::ending::EndReason;
use crate::error::{MoveError, PositionError};
use crate::game::{Game, Player};
use crate::material::Material;
use crate::scores::Scores;

use super::movegen::{Counter, MoveList};
use super::piece::Piece;
use super::position::{HexChess, HexMove};
use super::rules::HexRules;

/// Quiet plies (no capture, no pawn move) that draw the game.
const DRAW_PLIES: u16 = 100;

/// Room for the moves of nearly every position (the start has 51, busy middlegames about 100).
const MOVES_RESERVE: usize = 128;

impl<V: HexRules> HexChess<V> {
    /// Whether a draw rule (100 quiet plies, threefold repetition) has ended the game, unless the
    /// position is also mate or stalemate, which take precedence (spec §5).
    #[inline(always)]
    pub(super) fn drawn_by_rule(&self) -> bool {
        self.halfmove >= DRAW_PLIES || self.reps >= 2
    }
}

impl<V: HexRules> Game for HexChess<V> {
    type Move = HexMove;

    const NAME: &'static str = V::NAME;
    const NUM_PLAYERS: usize = 2;

    fn start() -> Self {
        HexChess::parse_text(V::START).expect("the built-in start position is valid")
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        HexChess::parse_text(text)
    }

    fn to_text(&self) -> String {
        self.write_text()
    }

    fn to_move(&self) -> Player {
        self.side as Player
    }

    fn legal_moves(&self, moves: &mut Vec<HexMove>) {
        moves.clear();
        // One allocation up front for a fresh vector instead of growing it 4, 8, .. 128; a
        // reused vector already has the room, and then this costs nothing.
        moves.reserve(MOVES_RESERVE);
        if !self.drawn_by_rule() {
            self.generate(&mut MoveList(moves));
        }
    }

    fn count_legal_moves(&self) -> u64 {
        if self.drawn_by_rule() {
            return 0;
        }
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    fn winning_move(&self) -> Option<HexMove> {
        self.mating_move()
    }

    #[inline]
    fn play(&mut self, mv: HexMove) {
        self.make(mv);
    }

    fn outcome(&self) -> Option<Scores> {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        if counter.0 == 0 {
            let mover = self.side as usize;
            if self.in_check() {
                return Some(Scores::win2(mover ^ 1));
            }
            let mut scores = [0.0; 2];
            scores[mover ^ 1] = V::STALEMATE_SCORE;
            scores[mover] = 1.0 - V::STALEMATE_SCORE;
            return Some(Scores::new(&scores));
        }
        self.drawn_by_rule().then(|| Scores::draw(2))
    }

    fn end_reason(&self) -> Option<EndReason> {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        let mover = self.side as usize;
        if counter.0 == 0 {
            return Some(if self.in_check() {
                EndReason::Checkmate { mated: mover }
            } else {
                EndReason::Stalemate { stalemated: mover }
            });
        }
        if self.halfmove >= DRAW_PLIES {
            return Some(EndReason::MoveLimit { plies: DRAW_PLIES as u32 });
        }
        (self.reps >= 2).then_some(EndReason::Repetition)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn move_text(&self, mv: HexMove) -> String {
        self.write_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<HexMove, MoveError> {
        self.read_move(text)
    }
}

impl<V: HexRules> Material for HexChess<V> {
    fn capture_value(&self, mv: HexMove) -> f32 {
        match self.piece_at(mv.to) {
            Some((_, piece)) => piece.value(),
            // En passant: the capture step lands on the skipped, empty cell.
            None if mv.piece == Piece::Pawn && self.en_passant() == Some(mv.to) => Piece::Pawn.value(),
            None => 0.0,
        }
    }
}
