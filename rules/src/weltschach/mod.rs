//! Weltschach (Charles Gilman, 2008/2016): chess on an 8x8x8 cube with 176 pieces a side.
//!
//! Rules: ../shared/rules/weltschach.md, with the rules text winning where they differ. The
//! start position is a RECONSTRUCTION (spec §8): the original setup diagrams are not available.
//! Text formats: docs/notation-weltschach.md.
//!
//! The generator writes into the crate's shared move sink (`movesink.rs`) and repetition uses the
//! crate's shared history (`history.rs`), compared over the last [`REP_WINDOW`] positions only,
//! a rule of this engine. A side is a [`Color`] rather than a bare [`Player`] number: it is one
//! bit of every board byte (`piece.rs`) and the case of a piece letter in the text, and an enum
//! cannot hold a third value; [`Color::index`] and [`Color::from_index`] convert to and from the
//! seat that [`Game`] speaks of.

pub mod attacks;
mod diagram;
pub mod encode;
pub mod geometry;
mod insufficient;
pub mod movegen;
pub mod notation;
pub mod piece;
mod policy_map;
pub mod position;
pub mod setup;
mod wins;
mod zobrist;

pub use geometry::Cell;
pub use piece::{Color, Kind};
pub use position::{Move, Weltschach, MOVE_LIMIT_PLIES, REP_WINDOW};

use crate::ending::Ending;
use crate::error::{MoveError, PositionError};
use crate::game::{Game, Player, MAX_PLAYERS};
use crate::material::Material;
use crate::movesink::{Any, Count};
use crate::scores::Scores;
use movegen::generate;

impl Weltschach {
    /// Whether a draw rule ends the game: the move limit, threefold repetition or insufficient
    /// material.
    fn drawn_by_rule(&self) -> bool {
        self.halfmove >= MOVE_LIMIT_PLIES || self.repetitions() >= 2 || self.insufficient_material()
    }

    /// Whether the side to move has a legal move (checkmate and stalemate tests stop early).
    pub fn has_legal_move(&self) -> bool {
        let mut any = Any(false);
        generate(self, &mut any);
        any.0
    }

    /// Moves that obey piece movement (castling geometry included) but may leave the Emperor
    /// attacked or facing: for tests that check the legality filter (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn pseudo_legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        movegen::generate_pseudo(self, moves);
    }

    /// Builds a position from a list like `"Kvd1* kve8 Rsa1 psb6"`: a piece letter (upper case White,
    /// lower case Black) and a cell, `*` marking a castling-relevant piece as unmoved; `side` moves.
    /// For tests (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn from_placements(side: Player, list: &str) -> Result<Weltschach, PositionError> {
        let mut pos = Weltschach::empty();
        pos.side = side as u8;
        let mut at = 0;
        for item in list.split_whitespace() {
            let offset = list[at..].find(item).map_or(at, |i| at + i);
            at = offset + item.len();
            let err =
                |m: &str| PositionError::Syntax { field: "placements", at: offset, message: format!("'{item}': {m}") };
            let mut chars = item.chars();
            let letter = chars.next().ok_or_else(|| err("empty"))?;
            let kind = Kind::from_letter(letter).ok_or_else(|| err("unknown piece letter"))?;
            let rest: &str = chars.as_str();
            let (name, unmoved) = match rest.strip_suffix('*') {
                Some(n) => (n, true),
                None => (rest, false),
            };
            let cell = Cell::parse(name).ok_or_else(|| err("not a cell"))?;
            if pos.board[cell.index()] != 0 {
                return Err(err("cell already occupied"));
            }
            let color = if letter.is_ascii_uppercase() { Color::White } else { Color::Black };
            pos.put(cell.index(), color, kind);
            if unmoved {
                pos.unmoved[cell.index() >> 6] |= 1 << (cell.index() & 63);
            }
        }
        let text = notation::to_text(&pos);
        notation::from_text(&text)
    }

    /// Sets the promotion pool of `color` (pieces it lost that may return), for building tests
    /// (feature `test-support`).
    #[cfg(feature = "test-support")]
    pub fn set_pool(&mut self, color: Color, kind: Kind, count: u8) {
        assert!(kind.is_poolable(), "{kind:?} never enters a pool");
        self.pool[color.index()][kind as usize] = count;
        self.finish();
    }
}

impl std::fmt::Debug for Weltschach {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Weltschach({})", notation::to_text(self))
    }
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
        if self.halfmove >= MOVE_LIMIT_PLIES {
            Some(Ending::QuietPlies)
        } else if self.repetitions() >= 2 {
            Some(Ending::Repetition)
        } else if self.insufficient_material() {
            Some(Ending::InsufficientMaterial)
        } else {
            None
        }
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
    fn capture_value(&self, mv: Move) -> f32 {
        // Castling lands on an empty cell, so only a capture finds a piece on `to`.
        self.piece_at(mv.to()).map_or(0.0, |(_, kind)| kind.value())
    }

    fn mover_value(&self, mv: Move) -> f32 {
        self.piece_at(mv.from()).map_or(0.0, |(_, kind)| kind.value())
    }

    fn material(&self) -> [f32; MAX_PLAYERS] {
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
