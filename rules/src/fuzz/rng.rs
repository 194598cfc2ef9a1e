//! The fuzz cases' random numbers: SplitMix64, seeded per case, so the same seed gives the same
//! inputs on every machine.

/// A seeded generator of the numbers a case draws.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose stream is fixed by `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        crate::splitmix::next(&mut self.0)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// True `percent` times in 100.
    pub fn percent(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A size in `0..=max` that is usually small and sometimes large: its bit length is
    /// drawn evenly.
    pub fn size(&mut self, max: usize) -> usize {
        let bits = self.below((usize::BITS - max.leading_zeros()) as usize + 1) as u32;
        let cap = 1usize.checked_shl(bits).unwrap_or(usize::MAX);
        self.below(cap.min(max.saturating_add(1)))
    }
}
