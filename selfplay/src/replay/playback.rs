//! The one way a recorded game is replayed: from its start position, move by move, each stored
//! policy index turned back into a legal move. The sampler, the game text and the pictures of
//! `vzero replay` all walk a record through [`Replay`].

use rules::Encoding;
use thiserror::Error;

use crate::replay::record::{GameRecord, MoveRecord};

/// A recorded game does not replay under the current rules (wrong variant, edited file, or a
/// changed policy map).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The record's variant is not the one being trained.
    #[error("record is for variant '{found}', expected '{expected}'")]
    WrongVariant { expected: &'static str, found: String },
    /// The start position text does not parse.
    #[error("record start position: {0}")]
    Start(String),
    /// A recorded move is not among the legal moves at its ply.
    #[error("recorded move {index} at ply {ply} is not legal there")]
    IllegalMove { ply: usize, index: u32 },
    /// A recorded visit names a policy index that is no legal move at its ply.
    #[error("recorded visits at ply {ply} name policy index {index}, which is no legal move there")]
    BadVisit { ply: usize, index: u32 },
    /// A recorded visit names a policy index that an earlier visit of its ply named (each legal
    /// move has one count, and a second would be dropped from the policy target).
    #[error("recorded visits at ply {ply} name policy index {index} twice")]
    RepeatedVisit { ply: usize, index: u32 },
    /// The recorded visits of a ply count more than a `u32` holds in all.
    #[error("recorded visits at ply {ply} add up to more than 2^32")]
    VisitTotal { ply: usize },
    /// The record's final scores are not one per seat.
    #[error("record has {found} scores for a {expected}-player game")]
    Scores { expected: usize, found: usize },
    /// A final score or a search value (which is named) of the record is not a finite number.
    #[error("record has a {0} that is not a finite number")]
    NotFinite(&'static str),
}

/// A record being replayed: yields one [`Step`] per recorded move (see [`Replay::step`]).
///
/// Not an `Iterator`: each step lends the position and its legal moves, which live in the
/// replay and change at the next step, so nothing is cloned per ply.
pub struct Replay<'r, G: Encoding> {
    record: &'r GameRecord,
    game: G,
    /// The ply of the next step.
    ply: usize,
    /// The move of the last step, played when the replay moves on.
    pending: Option<G::Move>,
    /// The legal moves at `ply`.
    legal: Vec<G::Move>,
}

/// One recorded move and the position it was played in.
pub struct Step<'r, 's, G: Encoding> {
    /// The move's index in the record (0 for the first move).
    pub ply: usize,
    /// The position before the move.
    pub position: &'s G,
    /// The legal moves of `position`.
    pub legal: &'s [G::Move],
    /// The move played.
    pub mv: G::Move,
    /// What the record holds about the move: its search's visits and value.
    pub record: &'r MoveRecord,
}

impl GameRecord {
    /// Starts replaying the record as a game of `G`; fails if it is another variant's or its
    /// start position does not parse.
    pub fn replay<G: Encoding>(&self) -> Result<Replay<'_, G>, DecodeError> {
        if self.variant != G::NAME {
            return Err(DecodeError::WrongVariant { expected: G::NAME, found: self.variant.clone() });
        }
        let game = G::from_text(&self.start).map_err(|e| DecodeError::Start(e.to_string()))?;
        Ok(Replay { record: self, game, ply: 0, pending: None, legal: Vec::new() })
    }
}

impl<'r, G: Encoding> Replay<'r, G> {
    /// The next recorded move with the position before it; `None` after the last move, and
    /// after an error (a move that is not legal ends the replay).
    pub fn step(&mut self) -> Option<Result<Step<'r, '_, G>, DecodeError>> {
        self.settle();
        let m = self.record.moves.get(self.ply)?;
        let ply = self.ply;
        self.ply += 1;
        self.game.legal_moves(&mut self.legal);
        let Some(mv) = find(&self.game, &self.legal, m.played) else {
            self.ply = self.record.moves.len();
            return Some(Err(DecodeError::IllegalMove { ply, index: m.played }));
        };
        self.pending = Some(mv);
        Some(Ok(Step { ply, position: &self.game, legal: &self.legal, mv, record: m }))
    }

    /// The position before move `ply` (the final position for `ply` = the number of moves).
    ///
    /// # Panics
    /// If `ply` is past the number of moves, or before a move already stepped over.
    pub fn position_at(mut self, ply: usize) -> Result<G, DecodeError> {
        assert!(ply <= self.record.moves.len(), "ply {ply} is past the record's {} moves", self.record.moves.len());
        assert!(self.ply <= ply, "ply {ply} was already replayed");
        while self.ply < ply {
            self.step().expect("a move before ply")?;
        }
        Ok(self.into_position())
    }

    /// The position reached: after the last step's move, or the final position once every
    /// step was taken.
    pub fn into_position(mut self) -> G {
        self.settle();
        self.game
    }

    /// Plays the move of the last step.
    fn settle(&mut self) {
        if let Some(mv) = self.pending.take() {
            self.game.play(mv);
        }
    }
}

impl<G: Encoding> Step<'_, '_, G> {
    /// The legal move of this position with policy index `index` (a recorded visit's move).
    pub fn legal_move(&self, index: u32) -> Option<G::Move> {
        find(self.position, self.legal, index)
    }
}

/// The move among `legal` (the legal moves of `game`) with policy index `index`.
fn find<G: Encoding>(game: &G, legal: &[G::Move], index: u32) -> Option<G::Move> {
    legal.iter().copied().find(|&mv| game.policy_index(mv) as u32 == index)
}
