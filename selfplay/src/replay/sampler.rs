//! Drawing training batches from the replay window, with symmetry augmentation.

use nn::TrainBatch;
use rand::RngExt;
use rules::Encoding;

use crate::replay::sample::{write_example, ExampleSlices};
use crate::replay::{DecodeError, ReplayWindow, EXTERNAL_GAME};

/// Fills `batch` with `size` positions drawn uniformly from `window`, each under a random
/// symmetry of the variant, with value targets as [`write_example`] blends them. Buffers are
/// reused across calls. Positions are rebuilt from the window's snapshots of their games, not
/// replayed from the start ([`ReplayWindow::sample_position`]). Returns how many of the
/// positions came from games of extra self-play processes.
pub fn sample_batch<G: Encoding>(
    window: &ReplayWindow,
    size: usize,
    search_value_weight: f32,
    rng: &mut impl rand::Rng,
    batch: &mut TrainBatch,
) -> Result<usize, DecodeError> {
    let (input, policy, players) = (G::input_len(), G::POLICY_SIZE, G::NUM_PLAYERS);
    batch.len = size;
    batch.inputs.resize(size * input, 0.0);
    batch.policy.resize(size * policy, 0.0);
    batch.legal.resize(size * policy, 0.0);
    batch.values.resize(size * players, 0.0);
    let mut scratch = vec![0.0; input];
    let mut external = 0;
    for i in 0..size {
        let (record, ply, position) = window.sample_position::<G>(rng)?;
        external += (record.number & EXTERNAL_GAME != 0) as usize;
        let sym = rng.random_range(0..G::NUM_SYMMETRIES);
        let slices = ExampleSlices {
            planes: &mut batch.inputs[i * input..(i + 1) * input],
            policy: &mut batch.policy[i * policy..(i + 1) * policy],
            legal: &mut batch.legal[i * policy..(i + 1) * policy],
            values: &mut batch.values[i * players..(i + 1) * players],
        };
        write_example(&position, record, ply, sym, search_value_weight, &mut scratch, slices);
    }
    Ok(external)
}
