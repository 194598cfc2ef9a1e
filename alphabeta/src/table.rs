//! The transposition table: what earlier visits of a position (by Zobrist hash) proved.

use crate::eval::DECIDED;

/// What a stored value says about the position's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value itself.
    Exact,
    /// At least the value (the search cut off above the window).
    Lower,
    /// At most the value (no move reached the window).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<M> {
    key: u64,
    /// The best or refuting move, tried first on the next visit.
    pub best: Option<M>,
    value: i32,
    /// Plies searched below the position.
    pub depth: u32,
    /// How `value` bounds the true value.
    pub bound: Bound,
}

impl<M> Entry<M> {
    /// The stored value, as seen from a node `ply` plies below the root.
    pub fn value(&self, ply: usize) -> i32 {
        from_table(self.value, ply)
    }
}

/// A fixed number of slots indexed by the low bits of the hash; a slot is replaced unless it
/// holds a deeper result of another position.
pub(crate) struct Table<M> {
    slots: Vec<Option<Entry<M>>>,
}

impl<M: Copy> Table<M> {
    /// A table of `2^bits` slots; `None` makes one that stores nothing.
    pub fn new(bits: Option<u32>) -> Table<M> {
        Table { slots: bits.map_or_else(Vec::new, |b| vec![None; 1 << b]) }
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        let slot = self.slots.get(self.index(key))?.as_ref()?;
        (slot.key == key).then_some(slot)
    }

    /// Stores a result found `ply` plies below the root.
    pub fn store(&mut self, key: u64, depth: u32, value: i32, bound: Bound, best: Option<M>, ply: usize) {
        let index = self.index(key);
        let Some(slot) = self.slots.get_mut(index) else { return };
        if matches!(slot, Some(old) if old.key != key && old.depth > depth) {
            return;
        }
        *slot = Some(Entry { key, best, value: to_table(value, ply), depth, bound });
    }

    fn index(&self, key: u64) -> usize {
        // The slot count is a power of two (or zero, where `get` finds nothing).
        (key as usize) & self.slots.len().wrapping_sub(1)
    }
}

/// A value relative to the node rather than the root: a win in `k` plies from here stays one
/// wherever the position recurs.
fn to_table(value: i32, ply: usize) -> i32 {
    match value {
        v if v > DECIDED => v + ply as i32,
        v if v < -DECIDED => v - ply as i32,
        v => v,
    }
}

/// The inverse of [`to_table`].
fn from_table(value: i32, ply: usize) -> i32 {
    match value {
        v if v > DECIDED => v - ply as i32,
        v if v < -DECIDED => v + ply as i32,
        v => v,
    }
}
