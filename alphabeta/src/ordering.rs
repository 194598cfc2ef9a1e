//! The order moves are tried in: the table's move, captures by most valuable victim then least
//! valuable attacker, two killer moves per ply, then quiet moves by their history score.

use std::hash::{Hash, Hasher};

use rules::Material;

/// Above every other key: the table's move goes first.
const TABLE_MOVE: i32 = i32::MAX;
/// Base of capture keys, above killers and history.
const CAPTURE: i32 = 1 << 29;
/// Key of the first killer (the second gets one less), above every history score.
const KILLER: i32 = 1 << 28;
/// History scores are halved when one reaches this, keeping them below the killers.
const HISTORY_CAP: i32 = 1 << 27;
/// Slots of the history table (moves are hashed into them; a shared slot only blurs ordering).
const HISTORY_SLOTS: usize = 1 << 14;

/// Killers and history gathered during one search.
pub(crate) struct MoveOrder<M> {
    killers: Vec<[Option<M>; 2]>,
    /// Empty until the first reward: the tactical judge makes a searcher per judged node, and
    /// most of them (quiescence alone) never reward a move, so zeroing the table up front was a
    /// fiftieth of a judged node's time.
    history: Vec<i32>,
}

impl<M: Copy + Eq + Hash> MoveOrder<M> {
    /// No killers and no history yet.
    pub fn new() -> MoveOrder<M> {
        MoveOrder { killers: Vec::new(), history: Vec::new() }
    }

    /// The sort key of `mv` at `ply` (higher first); `capture` is what it captures, in pawns.
    pub fn key<G: Material<Move = M>>(&self, game: &G, mv: M, capture: f32, ply: usize, table: Option<M>) -> i32 {
        if table == Some(mv) {
            return TABLE_MOVE;
        }
        if capture > 0.0 {
            // Victims in tenths of a pawn times 1024, less the attacker: MVV first, then LVA.
            let attacker = (game.mover_value(mv) * 10.0) as i32;
            return CAPTURE + (capture * 10.0) as i32 * 1024 - attacker.min(1023);
        }
        match self.killers.get(ply) {
            Some([Some(k), _]) if *k == mv => KILLER,
            Some([_, Some(k)]) if *k == mv => KILLER - 1,
            _ => self.history.get(slot(mv)).copied().unwrap_or(0),
        }
    }

    /// Remembers a quiet move that refuted a position searched `depth` plies deep at `ply`.
    pub fn reward(&mut self, mv: M, ply: usize, depth: u32) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        if self.history.is_empty() {
            self.history = vec![0; HISTORY_SLOTS];
        }
        let score = &mut self.history[slot(mv)];
        *score += (depth * depth) as i32;
        if *score >= HISTORY_CAP {
            self.history.iter_mut().for_each(|s| *s /= 2);
        }
    }
}

/// The history slot of a move: FNV-1a over what its `Hash` writes.
fn slot<M: Hash>(mv: M) -> usize {
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    mv.hash(&mut hasher);
    hasher.finish() as usize & (HISTORY_SLOTS - 1)
}

/// FNV-1a: a few multiplications for a four-byte move, where the standard hasher costs more
/// than the move generation it orders.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}
