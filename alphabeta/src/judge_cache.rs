//! Judged moves remembered across a player's nodes and moves: the tactical judge values every
//! legal move of every node a tree search expands, and the position after a move often recurs
//! (the same two moves played in either order lead to the same position two plies on, and the
//! next move's tree covers much of the last one's). On Mini Hexchess a third or more of the
//! judged positions of a search had been judged before; on Glinski's larger board about one in
//! twenty. A value found once is looked up instead of searched again.
//!
//! Exact, not approximate: a capture search from a position depends only on the position and on
//! the mover's move count at the node above (the mobility term's other half), both in the key,
//! and on the draw rules that look at the game's history, which only the position itself can
//! meet (every move below it is a capture, which restarts the quiet-move count and the
//! repetition history); a position a draw rule may end has no key ([`rules::Material::judge_key`])
//! and is always searched. Two different positions share a key only if their 64-bit hashes
//! collide.
//!
//! Shared by the threads of a search and the games of a player without a lock: a slot is one
//! word, its key's tag and its value, written and read whole.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Slots of a player's table, as a power of two: 2^17 slots of 8 bytes (1 MiB) stay in a
/// core's second-level cache, where a larger table's lookups cost more than they saved.
pub const JUDGE_CACHE_BITS: u32 = 17;

/// The value's bits in a slot; the key's top half fills the rest.
const VALUE_BITS: u64 = 0xFFFF_FFFF;

/// The values a judge found, by the judged position's key ([`JudgeCache::key`]).
#[derive(Debug, Default)]
pub struct JudgeCache {
    /// One word a slot, the key's top 32 bits above the value's 32 (the slot's index is the
    /// key's low bits): so a value is found only under a key that agrees with its own in 49
    /// bits. Allocated at the first use, so a search that never judges a keyed position
    /// costs nothing.
    slots: OnceLock<Box<[AtomicU64]>>,
}

impl JudgeCache {
    /// An empty table of [`JUDGE_CACHE_BITS`] slots, allocated when first used.
    pub fn new() -> JudgeCache {
        JudgeCache::default()
    }

    /// The key of a position with key `position` ([`rules::Material::judge_key`]) judged for a
    /// mover with `mobility` legal moves at the node above it.
    pub fn key(position: u64, mobility: u32) -> u64 {
        position ^ u64::from(mobility).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The value stored under `key`, if its slot still holds it.
    pub fn probe(&self, key: u64) -> Option<i32> {
        let word = self.slot(key).load(Ordering::Relaxed);
        (word & !VALUE_BITS == Self::tag(key)).then_some(word as u32 as i32)
    }

    /// Stores `value` under `key`, replacing whatever its slot held.
    pub fn store(&self, key: u64, value: i32) {
        self.slot(key).store(Self::tag(key) | u64::from(value as u32), Ordering::Relaxed);
    }

    /// The part of `key` a slot keeps: its top half, never 0, so that an empty slot (0)
    /// matches no key.
    fn tag(key: u64) -> u64 {
        (key & !VALUE_BITS).max(1 << 32)
    }

    /// `key`'s slot.
    fn slot(&self, key: u64) -> &AtomicU64 {
        let slots = self.slots.get_or_init(|| (0..1usize << JUDGE_CACHE_BITS).map(|_| AtomicU64::new(0)).collect());
        &slots[key as usize & ((1 << JUDGE_CACHE_BITS) - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_value_is_found_under_its_key_alone() {
        let cache = JudgeCache::new();
        assert_eq!(cache.probe(12345), None, "an empty slot matches nothing");
        assert_eq!(cache.probe(0), None, "not even the key 0");
        assert_eq!(cache.probe(12345 + (1 << 20)), None, "another slot");
        cache.store(12345, -317);
        assert_eq!(cache.probe(12345), Some(-317));
        // The same slot, another key: a miss, then the newer value replaces the older.
        let other = 12345 + (1 << 40);
        assert_eq!(cache.probe(other), None);
        cache.store(other, 29_000);
        assert_eq!((cache.probe(other), cache.probe(12345)), (Some(29_000), None));
    }

    #[test]
    fn the_movers_count_is_part_of_the_key() {
        assert_ne!(JudgeCache::key(99, 30), JudgeCache::key(99, 31));
        assert_eq!(JudgeCache::key(99, 30), JudgeCache::key(99, 30));
    }
}
