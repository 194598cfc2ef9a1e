//! Subtraction game: take 1 to 3 stones, whoever takes the last stone wins. A pile that is a
//! multiple of 4 is lost for the player to move.

use rules::{Game, MoveError, Player, PositionError, Scores};

/// `stones` left, `to_move` the seat to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    pub stones: u8,
    pub to_move: u8,
}

impl Nim {
    /// A pile of `stones` with the first player to move.
    pub fn pile(stones: u8) -> Nim {
        Nim { stones, to_move: 0 }
    }
}

impl Game for Nim {
    /// Stones taken.
    type Move = u8;
    const NAME: &'static str = "nim";
    const NUM_PLAYERS: usize = 2;

    fn start() -> Self {
        Nim::pile(21)
    }

    /// `<stones> <seat to move>`.
    fn from_text(text: &str) -> Result<Self, PositionError> {
        let bad = || PositionError::Syntax { field: "pile", at: 0, message: "expected '<stones> <0|1>'".into() };
        let (s, p) = text.split_once(' ').ok_or_else(bad)?;
        let stones = s.parse().map_err(|_| bad())?;
        let to_move = p.parse().map_err(|_| bad())?;
        if to_move > 1 {
            return Err(bad());
        }
        Ok(Nim { stones, to_move })
    }

    fn to_text(&self) -> String {
        format!("{} {}", self.stones, self.to_move)
    }

    fn to_move(&self) -> Player {
        self.to_move as Player
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        moves.extend((1..=3).filter(|&k| k <= self.stones));
    }

    fn play(&mut self, mv: u8) {
        self.stones -= mv;
        self.to_move ^= 1;
    }

    fn outcome(&self) -> Option<Scores> {
        // The player who took the last stone is the one not to move.
        (self.stones == 0).then(|| Scores::win2(1 - self.to_move as usize))
    }

    fn hash(&self) -> u64 {
        (self.stones as u64) << 1 | self.to_move as u64
    }

    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        match text.parse::<u8>() {
            Ok(k) if (1..=3).contains(&k) && k <= self.stones => Ok(k),
            Ok(_) => Err(MoveError::Illegal { text: text.into(), reason: "take 1 to 3, at most the pile".into() }),
            Err(_) => Err(MoveError::Syntax { text: text.into(), message: "expected a number".into() }),
        }
    }
}
