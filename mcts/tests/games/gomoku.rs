//! Four in a row on a 7x7 board: a branching factor near chess's (49 moves at the start), cheap
//! to generate, and games long enough that the tree, not terminal hits, does the work. The speed
//! benchmark's toy game.

use rules::{Game, MoveError, Player, PositionError, Scores};

const SIZE: usize = 7;
const CELLS: usize = SIZE * SIZE;

/// Cells row by row; 0 empty, 1 seat 0, 2 seat 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Gomoku {
    pub cells: [u8; CELLS],
    pub to_move: u8,
    /// The seat that made four in a row, if any.
    pub winner: Option<u8>,
    pub filled: u8,
    pub hash: u64,
}

fn zobrist(cell: usize, stone: u8) -> u64 {
    let mut z = (cell as u64 * 2 + stone as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 29)
}

impl Gomoku {
    fn makes_four(&self, cell: usize) -> bool {
        let stone = self.cells[cell];
        let (r, c) = ((cell / SIZE) as i32, (cell % SIZE) as i32);
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
                while (0..SIZE as i32).contains(&rr)
                    && (0..SIZE as i32).contains(&cc)
                    && self.cells[rr as usize * SIZE + cc as usize] == stone
                {
                    run += 1;
                    rr += sign * dr;
                    cc += sign * dc;
                }
            }
            run >= 4
        })
    }
}

impl Game for Gomoku {
    /// A cell index, row by row.
    type Move = u8;
    const NAME: &'static str = "gomoku7";
    const NUM_PLAYERS: usize = 2;

    fn start() -> Self {
        Gomoku { cells: [0; CELLS], to_move: 0, winner: None, filled: 0, hash: 0 }
    }

    /// 49 characters `.`, `x`, `o` row by row (seat 0 is `x`); the side to move follows from the
    /// stone counts.
    fn from_text(text: &str) -> Result<Self, PositionError> {
        if text.chars().count() != CELLS {
            return Err(PositionError::Syntax { field: "board", at: 0, message: "expected 49 cells".into() });
        }
        let mut game = Gomoku::start();
        let (mut xs, mut os) = (Vec::new(), Vec::new());
        for (i, ch) in text.chars().enumerate() {
            match ch {
                '.' => {}
                'x' => xs.push(i as u8),
                'o' => os.push(i as u8),
                _ => return Err(PositionError::Syntax { field: "board", at: i, message: "expected . x o".into() }),
            }
        }
        if os.len() > xs.len() || xs.len() > os.len() + 1 {
            return Err(PositionError::Invalid("stone counts cannot arise".into()));
        }
        for (i, &x) in xs.iter().enumerate() {
            game.play(x);
            if let Some(&o) = os.get(i) {
                game.play(o);
            }
        }
        Ok(game)
    }

    fn to_text(&self) -> String {
        self.cells.iter().map(|&c| ['.', 'x', 'o'][c as usize]).collect()
    }

    fn to_move(&self) -> Player {
        self.to_move as Player
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.winner.is_none() {
            moves.extend((0..CELLS as u8).filter(|&i| self.cells[i as usize] == 0));
        }
    }

    fn play(&mut self, mv: u8) {
        let stone = self.to_move + 1;
        self.cells[mv as usize] = stone;
        self.hash ^= zobrist(mv as usize, stone);
        self.filled += 1;
        if self.makes_four(mv as usize) {
            self.winner = Some(self.to_move);
        }
        self.to_move ^= 1;
    }

    fn outcome(&self) -> Option<Scores> {
        match self.winner {
            Some(w) => Some(Scores::win2(w as usize)),
            None if self.filled as usize == CELLS => Some(Scores::draw(2)),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.hash ^ self.to_move as u64
    }

    fn move_text(&self, mv: u8) -> String {
        format!("{}{}", (b'a' + mv % SIZE as u8) as char, mv / SIZE as u8 + 1)
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let bad = || MoveError::Syntax { text: text.into(), message: "expected a cell like d4".into() };
        let mut chars = text.chars();
        let file = chars.next().ok_or_else(bad)?;
        let rank: u8 = chars.as_str().parse().map_err(|_| bad())?;
        if !('a'..='g').contains(&file) || !(1..=SIZE as u8).contains(&rank) {
            return Err(bad());
        }
        let mv = (rank - 1) * SIZE as u8 + (file as u8 - b'a');
        if self.winner.is_some() || self.cells[mv as usize] != 0 {
            return Err(MoveError::Illegal { text: text.into(), reason: "cell taken or game over".into() });
        }
        Ok(mv)
    }
}
