//! Per-player results of a finished game.

use crate::player::{Player, MAX_PLAYERS};

/// One score per player in [0, 1] (win 1, loss 0, draw 1/2, and the variants' special scores),
/// indexed by seat in turn order. The scores of a finished game always sum to
/// `num_players / 2` (the utility sum every variant declares).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scores {
    values: [f32; MAX_PLAYERS],
    len: u8,
}

impl Scores {
    /// Scores from one value per player.
    ///
    /// # Panics
    /// If there are no values or more than [`MAX_PLAYERS`].
    #[track_caller]
    pub fn new(values: &[f32]) -> Scores {
        assert!(!values.is_empty() && values.len() <= MAX_PLAYERS, "bad player count {}", values.len());
        let mut v = [0.0; MAX_PLAYERS];
        v[..values.len()].copy_from_slice(values);
        Scores { values: v, len: values.len() as u8 }
    }

    /// Every one of `players` players scores 1/2.
    pub fn draw(players: usize) -> Scores {
        Scores::new(&[0.5; MAX_PLAYERS][..players])
    }

    /// Two players: `winner` scores 1, the other 0.
    pub fn win2(winner: Player) -> Scores {
        let mut v = [0.0; 2];
        v[winner] = 1.0;
        Scores::new(&v)
    }

    /// The number of players.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Always false: a result has at least one player (here for clippy's sake).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The score of one player.
    pub fn get(&self, player: Player) -> f32 {
        self.as_slice()[player]
    }

    /// All scores, by seat.
    pub fn as_slice(&self) -> &[f32] {
        &self.values[..self.len as usize]
    }

    /// The sum of all scores.
    pub fn sum(&self) -> f32 {
        self.as_slice().iter().sum()
    }
}
