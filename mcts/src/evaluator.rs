//! What the search asks of a position: priors over its legal moves and a value vector.
//!
//! The network evaluator lives in `nn`; here are the baselines the tests and benchmarks use.
//! All of them are deterministic functions of the position (and a seed), so results do not depend
//! on how leaves were batched or which thread evaluated them.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rules::{Game, Material, MAX_PLAYERS};

use crate::batch::{Batch, Slot};

/// Evaluates batches of positions.
pub trait Evaluator<G: Game> {
    /// The most positions one [`Evaluator::evaluate`] call takes; searches never hand over more.
    fn max_batch_size(&self) -> usize;

    /// Fills every entry's prior and value slots (see [`Slot`]); called once per batch.
    fn evaluate(&self, batch: &mut Batch<G>);

    /// Whether the values carry an opinion of the position. Where they do not (the uniform
    /// evaluator's constant 1/2), `tactical_value` gives the judged value the whole node value
    /// whatever its share, since there is nothing to blend it with.
    fn knows_values(&self) -> bool {
        true
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &E {
    fn max_batch_size(&self) -> usize {
        (**self).max_batch_size()
    }
    fn evaluate(&self, batch: &mut Batch<G>) {
        (**self).evaluate(batch)
    }
    fn knows_values(&self) -> bool {
        (**self).knows_values()
    }
}

/// Fills every slot of `batch` with `fill` (one position at a time).
fn for_each_slot<G: Game>(batch: &mut Batch<G>, mut fill: impl FnMut(Slot<'_, G>)) {
    for i in 0..batch.len() {
        fill(batch.slot_mut(i));
    }
}

/// The uniform evaluator's answer: equal priors, and 1/2 for every seat.
pub(crate) fn fill_uniform<G: Game>(slot: Slot<'_, G>) {
    uniform_priors(slot.priors);
    *slot.value = [0.5; MAX_PLAYERS];
}

fn uniform_priors(priors: &mut [f32]) {
    let p = 1.0 / priors.len().max(1) as f32;
    priors.fill(p);
}

/// Equal priors and the value 1/2 for every seat (what a draw scores: the value carries no
/// information, so the search is guided by exact results alone). The speed benchmark's evaluator.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn max_batch_size(&self) -> usize {
        1024
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        for_each_slot(batch, fill_uniform);
    }

    fn knows_values(&self) -> bool {
        false
    }
}

/// SplitMix64 finaliser: spreads a weak hash (toy games) over all 64 bits before seeding.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A generator seeded by the position and `seed`, so the same position always gets the same answer.
fn position_rng<G: Game>(state: &G, seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix(state.hash() ^ mix(seed)))
}

/// Equal priors and the result of one random playout (to the end, or to `max_plies`, where it
/// counts as a draw). The random generator is seeded by the position's hash and `seed`.
#[derive(Clone, Copy, Debug)]
pub struct RolloutEvaluator {
    /// Mixed with each position's hash to seed its playout.
    pub seed: u64,
    /// Playouts longer than this many plies stop and score a draw.
    pub max_plies: u32,
}

impl RolloutEvaluator {
    /// Playouts of at most `max_plies` plies, seeded by `seed`.
    pub fn new(seed: u64, max_plies: u32) -> RolloutEvaluator {
        RolloutEvaluator { seed, max_plies }
    }

    /// Each seat's score at the end of one random playout from `state`.
    pub fn playout<G: Game>(&self, state: &G) -> [f32; MAX_PLAYERS] {
        let mut rng = position_rng(state, self.seed);
        let mut game = state.clone();
        let mut moves = Vec::new();
        for _ in 0..self.max_plies {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                let scores = game.outcome().expect("no legal moves but the game is not over");
                return crate::tree::score_array(&scores);
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        [0.5; MAX_PLAYERS]
    }
}

impl<G: Game> Evaluator<G> for RolloutEvaluator {
    fn max_batch_size(&self) -> usize {
        1024
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        for_each_slot(batch, |slot| {
            uniform_priors(slot.priors);
            *slot.value = self.playout(slot.state);
        });
    }
}

/// A cheap judgement of what a position is worth to each seat, other than an evaluator's: a
/// random playout's result, or what the material count predicts.
pub trait LeafJudge<G: Game> {
    /// Each seat's expected score in `state`, as an evaluator's values are.
    fn judge(&self, state: &G) -> [f32; MAX_PLAYERS];
}

impl<G: Game> LeafJudge<G> for RolloutEvaluator {
    fn judge(&self, state: &G) -> [f32; MAX_PLAYERS] {
        self.playout(state)
    }
}

/// What the material count predicts ([`rules::material_values`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct MaterialJudge;

impl<G: Material> LeafJudge<G> for MaterialJudge {
    fn judge(&self, state: &G) -> [f32; MAX_PLAYERS] {
        rules::material_values(state)
    }
}

/// Another evaluator's priors, with its values blended with a judge's:
/// `(1 - weight) * value + weight * judged`. With a [`RolloutEvaluator`] this is AlphaGo's leaf
/// evaluation (its lambda = `weight`); with [`MaterialJudge`], a material prior. A young
/// network's values carry no signal; a judge gives the search one from the first game, so early
/// self-play games end decisively and the value head has something to learn.
#[derive(Clone, Copy, Debug)]
pub struct Blend<E, J> {
    /// Gives the priors and the values being blended.
    pub inner: E,
    /// Gives the other values.
    pub judge: J,
    /// Share of the judge's values, in [0, 1]; 0 leaves `inner` untouched (and asks no judge).
    pub weight: f32,
}

impl<G: Game, E: Evaluator<G>, J: LeafJudge<G>> Evaluator<G> for Blend<E, J> {
    fn max_batch_size(&self) -> usize {
        self.inner.max_batch_size()
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        self.inner.evaluate(batch);
        if self.weight <= 0.0 {
            return;
        }
        for_each_slot(batch, |slot| blend(slot.value, &self.judge.judge(slot.state), self.weight));
        // The judge's share is an opinion, whatever the inner evaluator's value was.
        for i in 0..batch.len() {
            batch.set_known(i, true);
        }
    }

    fn knows_values(&self) -> bool {
        self.weight > 0.0 || self.inner.knows_values()
    }
}

/// `value = (1 - weight) * value + weight * other`, seat by seat (`weight` capped at 1).
fn blend(value: &mut [f32; MAX_PLAYERS], other: &[f32; MAX_PLAYERS], weight: f32) {
    let w = weight.min(1.0);
    for (v, o) in value.iter_mut().zip(other) {
        *v = (1.0 - w) * *v + w * o;
    }
}

/// Random but repeatable priors and values derived from the position's hash and `seed` (lc0's
/// `random` backend): a stand-in network with opinions, for testing search mechanics.
#[derive(Clone, Copy, Debug)]
pub struct RandomEvaluator {
    /// Mixed with each position's hash.
    pub seed: u64,
}

impl<G: Game> Evaluator<G> for RandomEvaluator {
    fn max_batch_size(&self) -> usize {
        1024
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        let n = G::NUM_PLAYERS;
        for_each_slot(batch, |slot| {
            let mut rng = position_rng(slot.state, self.seed);
            for p in slot.priors.iter_mut() {
                // Between 0.1 and 1.1 before normalising: opinions, but no move is made invisible.
                let r: f32 = rng.random();
                *p = 0.1 + r;
            }
            let sum: f32 = slot.priors.iter().sum();
            slot.priors.iter_mut().for_each(|p| *p /= sum);
            // Per-seat values that sum to n/2 (the utility sum of every variant) and lie in [0, 1].
            let mut r = [0.0f32; MAX_PLAYERS];
            for x in &mut r[..n] {
                *x = rng.random();
            }
            let mean = r[..n].iter().sum::<f32>() / n as f32;
            let spread = if n == 2 { 1.0 } else { 0.75 };
            *slot.value = [0.0; MAX_PLAYERS];
            for (v, x) in slot.value[..n].iter_mut().zip(&r[..n]) {
                *v = 0.5 + (x - mean) * spread;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::MiniHexchess;

    /// A batch of a few positions along one game, each with its legal moves.
    fn batch_of<G: Game>(plies: usize) -> Batch<G> {
        let mut batch = Batch::new();
        let mut game = G::start();
        let mut moves = Vec::new();
        for i in 0..plies {
            game.legal_moves(&mut moves);
            batch.push(game.clone(), &moves, i as u32, 0);
            game.play(moves[i % moves.len()]);
        }
        batch
    }

    fn answers<G: Game>(batch: &Batch<G>) -> Vec<(Vec<f32>, [f32; MAX_PLAYERS])> {
        (0..batch.len()).map(|i| (batch.answer(i).0.to_vec(), *batch.answer(i).1)).collect()
    }

    /// What `e` answers on the test batch (40 positions along one game).
    fn evaluate<G: Game>(e: &dyn Evaluator<G>) -> Vec<(Vec<f32>, [f32; MAX_PLAYERS])> {
        let mut batch = batch_of::<G>(40);
        e.evaluate(&mut batch);
        answers(&batch)
    }

    /// Priors always come from the inner evaluator; values are the weighted mean of its values
    /// and `other`'s, exactly the inner ones at weight 0 and `other`'s at 1.
    fn check_blend<G: Game>(
        other: &[[f32; MAX_PLAYERS]],
        mixed_at: impl Fn(f32) -> Vec<(Vec<f32>, [f32; MAX_PLAYERS])>,
    ) {
        let net = evaluate::<G>(&RandomEvaluator { seed: 3 });
        for weight in [0.0f32, 0.25, 1.0] {
            let mixed = mixed_at(weight);
            for ((m, n), o) in mixed.iter().zip(&net).zip(other) {
                assert_eq!(m.0, n.0, "priors are the inner evaluator's");
                for ((got, inner), other) in m.1.iter().zip(&n.1).zip(o).take(G::NUM_PLAYERS) {
                    let want = (1.0 - weight) * inner + weight * other;
                    assert!((got - want).abs() < 1e-6, "weight {weight}: {got} vs {want}");
                }
            }
        }
    }

    #[test]
    fn a_playout_blend_mixes_values_and_keeps_priors() {
        let inner = RandomEvaluator { seed: 3 };
        let rollout = RolloutEvaluator::new(9, 400);
        let playouts: Vec<_> = evaluate::<MiniHexchess>(&rollout).into_iter().map(|a| a.1).collect();
        assert!(playouts.iter().any(|v| v[0] != 0.5), "some playout must end decisively for the test to bite");
        check_blend::<MiniHexchess>(&playouts, |weight| {
            evaluate::<MiniHexchess>(&Blend { inner, judge: rollout, weight })
        });
    }

    #[test]
    fn a_material_blend_mixes_values_and_keeps_priors() {
        let inner = RandomEvaluator { seed: 3 };
        let mut batch = batch_of::<MiniHexchess>(40);
        let material: Vec<_> = (0..batch.len()).map(|i| rules::material_values(batch.slot_mut(i).state)).collect();
        assert!(material.iter().any(|v| v[0] != 0.5), "some position must be unequal for the test to bite");
        check_blend::<MiniHexchess>(&material, |weight| {
            evaluate::<MiniHexchess>(&Blend { inner, judge: MaterialJudge, weight })
        });
    }
}
