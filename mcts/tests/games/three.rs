//! A three-player game of three binary choices (seat 0, then 1, then 2) whose eight results are
//! chosen so that max-n and paranoid search disagree at the root:
//!
//! ```text
//!            seat 0 →  A (move 0)                       B (move 1)
//!            seat 1 →  b0              b1               b0              b1
//!            seat 2 →  c0      c1      c0      c1       c0      c1      c0      c1
//!   scores (s0,s1,s2)  1,.5,0  .8,.5,.2 .1,.4,1 .6,.4,.5 .5,.5,.5 .4,.3,.8 .6,.6,.3 .5,.6,.4
//! ```
//!
//! Max-n: seat 2 takes its best, seat 1 its best, so A is worth 0.8 to seat 0 and B 0.5: play A.
//! Paranoid: seats 1 and 2 minimise seat 0, so A is worth 0.1 and B 0.4: play B.

use rules::{Game, MoveError, Player, PositionError, Scores};

/// Results by `a * 4 + b * 2 + c`; each sums to 3/2, the utility sum of three players.
pub const LEAVES: [[f32; 3]; 8] = [
    [1.0, 0.5, 0.0],
    [0.8, 0.5, 0.2],
    [0.1, 0.4, 1.0],
    [0.6, 0.4, 0.5],
    [0.5, 0.5, 0.5],
    [0.4, 0.3, 0.8],
    [0.6, 0.6, 0.3],
    [0.5, 0.6, 0.4],
];

/// The max-n choice of seat 0.
pub const MAXN_MOVE: u8 = 0;
/// The paranoid choice of seat 0.
pub const PARANOID_MOVE: u8 = 1;

/// The choices made so far, first in the highest bit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Three {
    pub choices: u8,
    pub depth: u8,
}

impl Game for Three {
    /// 0 or 1.
    type Move = u8;
    const NAME: &'static str = "three";
    const NUM_PLAYERS: usize = 3;

    fn start() -> Self {
        Three { choices: 0, depth: 0 }
    }

    /// The choices so far as a string of `0`/`1` (empty at the start).
    fn from_text(text: &str) -> Result<Self, PositionError> {
        let mut game = Three::start();
        for (at, ch) in text.chars().enumerate() {
            match ch {
                '0' | '1' if game.depth < 3 => game.play(ch as u8 - b'0'),
                _ => {
                    return Err(PositionError::Syntax {
                        field: "choices",
                        at,
                        message: "expected up to three 0/1".into(),
                    })
                }
            }
        }
        Ok(game)
    }

    fn to_text(&self) -> String {
        (0..self.depth).map(|i| if self.choices >> (self.depth - 1 - i) & 1 == 1 { '1' } else { '0' }).collect()
    }

    fn to_move(&self) -> Player {
        self.depth as Player % 3
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.depth < 3 {
            moves.extend([0, 1]);
        }
    }

    fn play(&mut self, mv: u8) {
        self.choices = self.choices << 1 | mv;
        self.depth += 1;
    }

    fn outcome(&self) -> Option<Scores> {
        (self.depth == 3).then(|| Scores::new(&LEAVES[self.choices as usize]))
    }

    fn hash(&self) -> u64 {
        (self.depth as u64) << 8 | self.choices as u64
    }

    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        match text {
            "0" | "1" if self.depth < 3 => Ok(text.as_bytes()[0] - b'0'),
            "0" | "1" => Err(MoveError::Illegal { text: text.into(), reason: "the game is over".into() }),
            _ => Err(MoveError::Syntax { text: text.into(), message: "expected 0 or 1".into() }),
        }
    }
}
