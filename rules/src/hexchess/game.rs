//! [`Game`] and [`Material`] for the two-player hex chess variants.

use crate::draw_rules::draw_by_rule;
use crate::ending::Ending;
use crate::error::{MoveError, PositionError};
use crate::game::Game;
use crate::material::Material;
use crate::movesink::Count;
use crate::player::{Player, MAX_PLAYERS};
use crate::scores::Scores;

use super::piece::Piece;
use super::position::{HexChess, HexMove};
use super::rules::HexRules;

/// Room for the moves of nearly every position (the start has 51, busy middlegames about 100).
const MOVES_RESERVE: usize = 128;

/// Plies without a capture or pawn move after which the game is drawn (50 moves a side), in
/// Glinski Chess and Mini Hexchess alike.
pub(super) const DRAW_PLIES: u16 = 100;

impl<V: HexRules> HexChess<V> {
    /// The draw rule ([`DRAW_PLIES`] quiet plies, threefold repetition, insufficient material)
    /// that has ended the game, if any, unless the position is also mate or stalemate, which take
    /// precedence (docs/rules/glinski.md, docs/rules/mini-hexchess.md).
    #[inline(always)]
    pub(super) fn draw_rule(&self) -> Option<Ending> {
        draw_by_rule(self.quiet_plies_out(), || self.repeated(), || self.insufficient_material())
    }

    /// Whether [`DRAW_PLIES`] plies without a capture or pawn move have been played.
    #[inline(always)]
    fn quiet_plies_out(&self) -> bool {
        self.halfmove >= DRAW_PLIES
    }

    /// Whether the position has occurred twice before (threefold repetition).
    #[inline(always)]
    fn repeated(&self) -> bool {
        self.reps >= 2
    }

    /// Whether a draw rule has ended the game (see [`Self::draw_rule`]).
    #[inline(always)]
    pub(super) fn drawn_by_rule(&self) -> bool {
        self.draw_rule().is_some()
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
            self.generate(moves);
        }
    }

    fn count_legal_moves(&self) -> u64 {
        if self.drawn_by_rule() {
            return 0;
        }
        let mut counter = Count(0);
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
        let mover = self.side as Player;
        Some(match self.ending()? {
            Ending::Checkmate => Scores::win2(mover ^ 1),
            Ending::Stalemate => {
                let mut scores = [0.0; 2];
                scores[mover ^ 1] = V::STALEMATE_SCORE;
                scores[mover] = 1.0 - V::STALEMATE_SCORE;
                Scores::new(&scores)
            }
            _ => Scores::draw(2),
        })
    }

    fn ending(&self) -> Option<Ending> {
        if !self.has_reply() {
            return Some(if self.in_check() { Ending::Checkmate } else { Ending::Stalemate });
        }
        self.draw_rule()
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
    const CAPTURES_GENERATOR: bool = true;

    fn capture_value(&self, mv: HexMove) -> f32 {
        match self.piece_at(mv.to) {
            Some((_, piece)) => piece.value(),
            // En passant: the capture step lands on the skipped, empty cell.
            None if mv.piece == Piece::Pawn && self.en_passant() == Some(mv.to) => Piece::Pawn.value(),
            None => 0.0,
        }
    }

    fn mover_value(&self, mv: HexMove) -> f32 {
        mv.piece.value()
    }

    fn tactical_outcome(&self) -> Option<Scores> {
        if self.in_check() && !self.has_reply() {
            return Some(Scores::win2(self.side as Player ^ 1));
        }
        // A repetition the judged move makes is the draw the search must see: cheap to test.
        self.drawn_by_rule().then(|| Scores::draw(2))
    }

    /// A capture resets the quiet-move count and the repetition history, so only here can
    /// they end the game; the material draw is the position's, which the hash decides.
    fn judge_key(&self) -> Option<u64> {
        (!self.quiet_plies_out() && !self.repeated()).then_some(self.hash)
    }

    fn count_and_captures(&self, captures: &mut Vec<HexMove>) -> u32 {
        captures.clear();
        if self.drawn_by_rule() {
            return 0;
        }
        self.count_with_captures(captures)
    }

    fn legal_captures(&self, moves: &mut Vec<HexMove>) {
        moves.clear();
        if !self.drawn_by_rule() {
            self.generate_captures(moves);
        }
    }

    fn worthwhile_captures(&self, moves: &mut Vec<HexMove>, floor: i32) {
        moves.clear();
        if !self.drawn_by_rule() {
            self.generate_worthwhile_captures(moves, floor);
        }
    }

    fn material(&self) -> [f32; MAX_PLAYERS] {
        let mut sums = [0.0; MAX_PLAYERS];
        for (side, sum) in sums.iter_mut().take(2).enumerate() {
            *sum = Piece::ALL
                .into_iter()
                .map(|p| (self.by_side[side] & self.by_piece[p.index()]).count_ones() as f32 * p.value())
                .sum();
        }
        sums
    }
}
