//! A two-player game made to repeat positions. At home, the first player chooses between
//! shuttling (the second player's only answer comes straight back home: the position repeats) and
//! going far (a region that never repeats, three moves a ply, too deep for a search to see its
//! end). The game is drawn after [`PLY_LIMIT`] plies, so it is finite; the ply count is not
//! part of the position, so home after a shuttle is the position it was.
//!
//! ```text
//!   home (seat 0) --shuttle--> shuttled (seat 1) --back--> home
//!        \--far--> far 2 (seat 1) --1|2|3--> far 3..5 (seat 0) --1|2|3--> ...
//! ```

use rules::{Game, MoveError, Player, PositionError, Scores};

/// Plies after which the game is a draw.
pub const PLY_LIMIT: u16 = 100;

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spot {
    /// Seat 0 to move: shuttle or go far.
    Home,
    /// Seat 1 to move, with one move: back home.
    Shuttled,
    /// The far region's `n`-th step (2 on entering it, growing by 1 to 3 a move).
    Far(u16),
}

/// A move: at home 0 shuttles and 1 goes far; when shuttled 0 goes back; far, the step 1 to 3.
pub type ShuttleMove = u8;

/// The position and the plies played.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shuttle {
    pub spot: Spot,
    pub to_move: u8,
    pub plies: u16,
}

/// Home's move that shuttles.
pub const SHUTTLE: ShuttleMove = 0;
/// Home's move that goes far.
pub const FAR: ShuttleMove = 1;

impl Game for Shuttle {
    type Move = ShuttleMove;
    const NAME: &'static str = "shuttle";
    const NUM_PLAYERS: usize = 2;

    fn start() -> Self {
        Shuttle { spot: Spot::Home, to_move: 0, plies: 0 }
    }

    /// `home`, `shuttled` or `far N`, then the seat to move.
    fn from_text(text: &str) -> Result<Self, PositionError> {
        let bad = || PositionError::Syntax { field: "spot", at: 0, message: "expected home, shuttled or far N".into() };
        let words: Vec<&str> = text.split_whitespace().collect();
        let (spot, seat) = match words.as_slice() {
            ["home", s] => (Spot::Home, s),
            ["shuttled", s] => (Spot::Shuttled, s),
            ["far", n, s] => (Spot::Far(n.parse().map_err(|_| bad())?), s),
            _ => return Err(bad()),
        };
        Ok(Shuttle { spot, to_move: seat.parse().map_err(|_| bad())?, plies: 0 })
    }

    fn to_text(&self) -> String {
        match self.spot {
            Spot::Home => format!("home {}", self.to_move),
            Spot::Shuttled => format!("shuttled {}", self.to_move),
            Spot::Far(n) => format!("far {n} {}", self.to_move),
        }
    }

    fn to_move(&self) -> Player {
        self.to_move as Player
    }

    fn legal_moves(&self, moves: &mut Vec<ShuttleMove>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        match self.spot {
            Spot::Home => moves.extend([SHUTTLE, FAR]),
            Spot::Shuttled => moves.push(0),
            Spot::Far(_) => moves.extend([1, 2, 3]),
        }
    }

    fn play(&mut self, mv: ShuttleMove) {
        self.spot = match (self.spot, mv) {
            (Spot::Home, SHUTTLE) => Spot::Shuttled,
            (Spot::Home, _) => Spot::Far(2),
            (Spot::Shuttled, _) => Spot::Home,
            (Spot::Far(n), step) => Spot::Far(n + step as u16),
        };
        self.to_move ^= 1;
        self.plies += 1;
    }

    fn outcome(&self) -> Option<Scores> {
        (self.plies >= PLY_LIMIT).then(|| Scores::draw(2))
    }

    /// The spot and the seat to move, not the plies: positions equal for repetition.
    fn hash(&self) -> u64 {
        let spot = match self.spot {
            Spot::Home => 0,
            Spot::Shuttled => 1,
            Spot::Far(n) => 2 + n as u64,
        };
        spot << 1 | self.to_move as u64
    }

    fn move_text(&self, mv: ShuttleMove) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<ShuttleMove, MoveError> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        match text.parse::<u8>() {
            Ok(m) if moves.contains(&m) => Ok(m),
            _ => Err(MoveError::Illegal { text: text.into(), reason: "not a legal move here".into() }),
        }
    }
}

/// An evaluator with fixed opinions: uniform priors, and for seat 0 the value `home` at home
/// and when shuttled, `far` in the far region (seat 1 gets the rest).
pub struct Judge {
    pub home: f32,
    pub far: f32,
}

impl mcts::Evaluator<Shuttle> for Judge {
    fn max_batch_size(&self) -> usize {
        16
    }

    fn evaluate(&self, batch: &mut mcts::Batch<Shuttle>) {
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            let uniform = 1.0 / slot.priors.len() as f32;
            slot.priors.fill(uniform);
            let v = match slot.state.spot {
                Spot::Far(_) => self.far,
                _ => self.home,
            };
            *slot.value = [v, 1.0 - v, 0.0];
        }
    }
}
