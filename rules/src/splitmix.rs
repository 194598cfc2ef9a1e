//! SplitMix64 (Steele, Lea and Flood, 2014), the one key generator of every variant's Zobrist
//! hashes: `const`, so the key tables are built at compile time and hashes are the same in
//! every build.

/// The step SplitMix64 adds to its state: the golden ratio as a 64-bit fraction.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The key at counter value `z`: unrelated keys for neighbouring `z` (a key computed on demand,
/// where a table would cost more cache than the mixing costs time).
#[inline(always)]
pub(crate) const fn mix(z: u64) -> u64 {
    let mut z = z.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The next key of the stream whose state is `state`, advancing it.
pub(crate) const fn next(state: &mut u64) -> u64 {
    let key = mix(*state);
    *state = state.wrapping_add(GOLDEN_GAMMA);
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_matches_the_reference_splitmix64() {
        // The first outputs of the reference implementation (Vigna's splitmix64.c) seeded 0.
        let mut state = 0;
        assert_eq!(next(&mut state), 0xE220_A839_7B1D_CDAF);
        assert_eq!(next(&mut state), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(next(&mut state), 0x06C4_5D18_8009_454F);
    }
}
