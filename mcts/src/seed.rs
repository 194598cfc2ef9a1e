//! Seeds of numbered games: self-play, arena matches and the trainer's sampler derive the seed
//! of their `n`-th game (or step) from one run or match seed, so a run is a function of its seed.

/// Seeds of game `number` in a run seeded `seed`: different for every game, the same on every
/// run with that seed.
pub fn game_seed(seed: u64, number: u64) -> u64 {
    // SplitMix64 finaliser: consecutive numbers give unrelated seeds.
    let mut z = seed ^ number.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
