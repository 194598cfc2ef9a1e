//! [`Game`] and [`Material`] for Wellisch Chess.

use crate::ending::Ending;
use crate::error::{MoveError, PositionError};
use crate::game::Game;
use crate::material::{material_standings, Material, Standings};
use crate::movesink::Count;
use crate::player::{Player, MAX_PLAYERS};
use crate::scores::Scores;

use super::piece::{Move, Piece};
use super::state::{Options, Wellisch};

impl Game for Wellisch {
    type Move = Move;

    const NAME: &'static str = "wellisch";
    const NUM_PLAYERS: usize = 3;

    fn start() -> Self {
        Wellisch::start_with(Options::default())
    }

    fn from_text(text: &str) -> Result<Self, PositionError> {
        Wellisch::read_text(text)
    }

    fn to_text(&self) -> String {
        self.write_text()
    }

    fn to_move(&self) -> Player {
        self.pos.mover as Player
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.moves(moves);
    }

    fn count_legal_moves(&self) -> u64 {
        if self.end.is_some() {
            return 0;
        }
        let mut count = Count(0);
        self.pos.generate(&mut count);
        count.0
    }

    fn winning_move(&self) -> Option<Move> {
        self.winning_capture()
    }

    fn play(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn outcome(&self) -> Option<Scores> {
        self.end.map(|(_, scores)| scores)
    }

    fn ending(&self) -> Option<Ending> {
        self.end.map(|(ending, _)| ending)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn move_text(&self, mv: Move) -> String {
        self.write_move(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.read_move(text)
    }
}

impl Material for Wellisch {
    fn capture_value(&self, mv: Move) -> f32 {
        if mv.is_castle() {
            return 0.0; // the king moves onto its own rook
        }
        match mv.to().and_then(|to| self.pos.piece_at(to)) {
            Some((piece, _)) => piece.value(),
            None => 0.0,
        }
    }

    fn mover_value(&self, mv: Move) -> f32 {
        match mv.from().and_then(|from| self.pos.piece_at(from)) {
            Some((piece, _)) => piece.value(),
            None => 0.0, // a pass
        }
    }

    fn material(&self) -> [f32; MAX_PLAYERS] {
        let pos = &self.pos;
        let mut sums = [0.0; MAX_PLAYERS];
        for (seat, sum) in sums.iter_mut().enumerate() {
            let own = pos.owner[seat];
            let officers: f32 =
                Piece::RESERVE.into_iter().map(|p| (pos.kinds[p as usize] & own).count_ones() as f32 * p.value()).sum();
            *sum = officers + (pos.all_pawns() & own).count_ones() as f32 * Piece::Pawn.value();
        }
        sums
    }

    fn standings(&self, margin: f32) -> Standings {
        let in_play = [0, 1, 2].map(|seat| self.is_alive(seat));
        material_standings(&self.material()[..3], &in_play, margin)
    }
}
