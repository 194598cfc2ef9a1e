//! Tic-tac-toe: small enough to solve exactly, rich enough to have traps.

use rules::{Encoding, Game, Material, MoveError, Player, PolicyMap, PolicyMove, PositionError, Scores, MAX_PLAYERS};

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// Cells 0..9 row by row from the top left; 0 empty, 1 X (seat 0), 2 O (seat 1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    pub cells: [u8; 9],
    pub to_move: u8,
}

impl TicTacToe {
    fn winner(&self) -> Option<Player> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| c as usize - 1)
        })
    }
}

/// Every position (each once) up to `plies` plies from the start that is not over, in the order
/// a breadth-first walk meets them.
pub fn positions(plies: usize) -> Vec<TicTacToe> {
    let mut seen = std::collections::HashSet::new();
    let mut frontier = vec![TicTacToe::start()];
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut next = Vec::new();
        for game in frontier {
            game.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = game.clone();
                child.play(mv);
                if child.outcome().is_none() && seen.insert(child.hash()) {
                    out.push(child.clone());
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    out
}

impl Game for TicTacToe {
    type Move = u8;
    const NAME: &'static str = "tictactoe";
    const NUM_PLAYERS: usize = 2;

    fn start() -> Self {
        TicTacToe { cells: [0; 9], to_move: 0 }
    }

    /// Nine characters `.`, `x`, `o` row by row, a space, and the side to move (`x` or `o`).
    fn from_text(text: &str) -> Result<Self, PositionError> {
        let bad = |at, message: &str| PositionError::Syntax { field: "board", at, message: message.into() };
        let (board, side) = text.split_once(' ').ok_or_else(|| bad(0, "expected 'board side'"))?;
        if board.len() != 9 {
            return Err(bad(0, "expected 9 cells"));
        }
        let mut cells = [0; 9];
        for (i, ch) in board.chars().enumerate() {
            cells[i] = match ch {
                '.' => 0,
                'x' => 1,
                'o' => 2,
                _ => return Err(bad(i, "expected '.', 'x' or 'o'")),
            };
        }
        let to_move = match side {
            "x" => 0,
            "o" => 1,
            _ => return Err(PositionError::Syntax { field: "side", at: 10, message: "expected x or o".into() }),
        };
        Ok(TicTacToe { cells, to_move })
    }

    fn to_text(&self) -> String {
        let board: String = self.cells.iter().map(|&c| ['.', 'x', 'o'][c as usize]).collect();
        format!("{board} {}", ['x', 'o'][self.to_move as usize])
    }

    fn to_move(&self) -> Player {
        self.to_move as Player
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.winner().is_some() {
            return;
        }
        moves.extend((0..9u8).filter(|&i| self.cells[i as usize] == 0));
    }

    fn play(&mut self, mv: u8) {
        self.cells[mv as usize] = self.to_move + 1;
        self.to_move ^= 1;
    }

    fn outcome(&self) -> Option<Scores> {
        match self.winner() {
            Some(w) => Some(Scores::win2(w)),
            None if self.cells.iter().all(|&c| c != 0) => Some(Scores::draw(2)),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.cells.iter().fold(self.to_move as u64, |h, &c| h * 3 + c as u64)
    }

    fn move_text(&self, mv: u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let mv: u8 =
            text.parse().map_err(|_| MoveError::Syntax { text: text.into(), message: "expected a cell 0-8".into() })?;
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal { text: text.into(), reason: "cell taken or game over".into() })
        }
    }
}

/// No pieces to count: every trainable game has piece values, and tic-tac-toe's are nil.
impl Material for TicTacToe {
    fn capture_value(&self, _: u8) -> f32 {
        0.0
    }

    fn mover_value(&self, _: u8) -> f32 {
        0.0
    }

    fn material(&self) -> [f32; MAX_PLAYERS] {
        [0.0; MAX_PLAYERS]
    }
}

/// The network's view, for the test that maps a search's policy target to policy indices.
impl Encoding for TicTacToe {
    const INPUT_SHAPE: &'static [usize] = &[2, 3, 3];
    const POLICY_SIZE: usize = 9;

    fn encode(&self, planes: &mut [f32]) {
        for (i, &c) in self.cells.iter().enumerate() {
            planes[i] = (c != 0 && c - 1 == self.to_move) as u8 as f32;
            planes[9 + i] = (c != 0 && c - 1 != self.to_move) as u8 as f32;
        }
    }

    fn policy_index(&self, mv: u8) -> usize {
        mv as usize
    }

    fn policy_map() -> PolicyMap {
        let placement = |cell| Some(PolicyMove { from: None, to: Some(cell), promotion: None, with_promotion: None });
        let names = (0..9).map(|cell| Some(cell.to_string())).collect::<Vec<_>>();
        PolicyMap { moves: (0..9).map(placement).collect(), cells: vec![names.clone(), names] }
    }
}
