//! Drawing training batches from the replay window, with symmetry augmentation.

use nn::TrainBatch;
use rand::RngExt;
use rules::Encoding;

use crate::replay::sample::{write_example, write_listed_policy, write_planes, write_values, ExampleSlices};
use crate::replay::{DecodeError, ReplayWindow, EXTERNAL_GAME};

/// Fills `batch` with `size` positions drawn uniformly from `window`, each under a random
/// symmetry of the variant, with value targets as [`write_example`] blends them. Buffers are
/// reused across calls. Positions are rebuilt from the window's snapshots of their games, not
/// replayed from the start ([`ReplayWindow::sample_position`]). Returns how many of the
/// positions came from games of extra self-play processes.
///
/// # Panics
/// If the window is empty.
pub fn sample_batch<G: Encoding>(
    window: &ReplayWindow,
    size: usize,
    search_value_weight: f32,
    rng: &mut impl rand::Rng,
    batch: &mut TrainBatch,
) -> Result<usize, DecodeError> {
    let mix = TeacherMix { window: None, share: 0.0 };
    Ok(sample_mixed_batch::<G>(window, mix, size, search_value_weight, rng, batch)?.external)
}

/// The teacher's games and their share of a batch ([`sample_mixed_batch`]).
#[derive(Clone, Copy)]
pub struct TeacherMix<'a> {
    /// The teacher's games, if the run has any.
    pub window: Option<&'a ReplayWindow>,
    /// The chance that a position is drawn from them (every position when the self-play window
    /// is still empty).
    pub share: f32,
}

/// Where the positions of a batch came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sampled {
    /// From games of extra self-play processes.
    pub external: usize,
    /// From the teacher's games.
    pub teacher: usize,
}

/// [`sample_batch`] with each position drawn from the teacher's games with chance
/// `teacher.share` (with no share, the random stream is [`sample_batch`]'s exactly).
pub fn sample_mixed_batch<G: Encoding>(
    window: &ReplayWindow,
    teacher: TeacherMix<'_>,
    size: usize,
    search_value_weight: f32,
    rng: &mut impl rand::Rng,
    batch: &mut TrainBatch,
) -> Result<Sampled, DecodeError> {
    let (input, policy, players) = (G::input_len(), G::POLICY_SIZE, G::NUM_PLAYERS);
    // Large policies go to the trainer as each position's legal moves, as the search asks.
    let listed = G::POLICY_SIZE >= nn::LISTED_POLICY_FROM;
    batch.len = size;
    batch.inputs.resize(size * input, 0.0);
    if listed {
        batch.policy.clear();
        batch.legal.clear();
        batch.listed = Some(nn::ListedMoves::default());
    } else {
        batch.policy.resize(size * policy, 0.0);
        batch.legal.resize(size * policy, 0.0);
        batch.listed = None;
    }
    batch.values.resize(size * players, 0.0);
    let mut scratch = vec![0.0; input];
    let mut sampled = Sampled::default();
    let teacher_games = teacher.window.filter(|w| !w.is_empty() && teacher.share > 0.0);
    for i in 0..size {
        let source = match teacher_games {
            Some(t) if window.is_empty() || rng.random::<f32>() < teacher.share => t,
            _ => window,
        };
        let (record, ply, position) = source.sample_position::<G>(rng)?;
        sampled.external += (record.number & EXTERNAL_GAME != 0) as usize;
        sampled.teacher += record.is_teacher() as usize;
        let sym = rng.random_range(0..G::NUM_SYMMETRIES);
        if let Some(moves) = &mut batch.listed {
            write_planes(&position, sym, &mut scratch, &mut batch.inputs[i * input..(i + 1) * input]);
            write_listed_policy(&position, record, ply, sym, moves, &mut batch.policy);
            let values = &mut batch.values[i * players..(i + 1) * players];
            write_values(&position, record, ply, search_value_weight, values);
            continue;
        }
        let slices = ExampleSlices {
            planes: &mut batch.inputs[i * input..(i + 1) * input],
            policy: &mut batch.policy[i * policy..(i + 1) * policy],
            legal: &mut batch.legal[i * policy..(i + 1) * policy],
            values: &mut batch.values[i * players..(i + 1) * players],
        };
        write_example(&position, record, ply, sym, search_value_weight, &mut scratch, slices);
    }
    Ok(sampled)
}
