//! Weltschach (Charles Gilman, 2008/2016): chess on an 8x8x8 cube with 176 pieces a side.
//!
//! Rules: ../shared/rules/weltschach.md, with the rules text winning where they differ. The
//! start position is a RECONSTRUCTION (spec §8): the original setup diagrams are not available.
//! Text formats: docs/notation-weltschach.md.

pub mod attacks;
mod diagram;
pub mod encode;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod piece;
pub mod position;
pub mod setup;
mod wins;
mod zobrist;

pub use geometry::Cell;
pub use piece::{Color, Kind};
pub use position::{Move, Weltschach, MOVE_LIMIT_PLIES, REP_WINDOW};

use crate::ending::EndReason;
use crate::error::{MoveError, PositionError};
use crate::game::{Game, Player};
use crate::material::Material;
use crate::scores::Scores;
use movegen::{generate, Any, Count};

impl Weltschach {
    /// Whether a draw rule ends the game: the move limit or threefold repetition.
    fn drawn_by_rule(&self) -> bool {
        self.halfmove >= MOVE_LIMIT_PLIES || self.repetitions() >= 2
    }

    /// Whether the side to move has a legal move (checkmate and stalemate tests stop early).
    pub fn has_legal_move(&self) -> bool {
        let mut any = Any(false);
        generate(self, &mut any);
        any.0
    }

    /// Moves that obey piece movement (castling geometry included) but may leave the Emperor
    /// attacked or facing: for tests that check the legality filter, and for error messages.
    pub fn pseudo_legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        movegen::generate_pseudo(self, moves);
    }

    /// Builds a position from a list like `"Kvd1* kve8 Rsa1 psb6"`: a piece letter (upper case White,
    /// lower case Black) and a cell, `*` marking a castling-relevant piece as unmoved; `side` moves.
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

    /// Sets the promotion pool of `color` (pieces it lost that may return), for building tests.
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
            && self.history_len == other.history_len
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
        if !self.has_legal_move() {
            return Some(if self.in_check() { Scores::win2(1 - self.side as usize) } else { Scores::draw(2) });
        }
        self.drawn_by_rule().then(|| Scores::draw(2))
    }

    fn end_reason(&self) -> Option<EndReason> {
        let mover = self.side as usize;
        if !self.has_legal_move() {
            return Some(if self.in_check() {
                EndReason::Checkmate { mated: mover }
            } else {
                EndReason::Stalemate { stalemated: mover }
            });
        }
        if self.halfmove >= MOVE_LIMIT_PLIES {
            return Some(EndReason::MoveLimit { plies: MOVE_LIMIT_PLIES as u32 });
        }
        (self.repetitions() >= 2).then_some(EndReason::Repetition)
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

// No piece values yet: the greedy baseline sees every capture as worth 0 here.
impl Material for Weltschach {}
