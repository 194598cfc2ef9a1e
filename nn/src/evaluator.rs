//! The network as a search evaluator: encodes a batch of leaves, asks the inference service,
//! and turns logits and mover-relative values into priors and per-seat values.

use std::marker::PhantomData;

use crate::inference::InferenceClient;
use crate::listed::ListedMoves;
use mcts::{fill_from_listed, fill_from_network, Batch, Evaluator};
use rules::Encoding;

/// Policies of at least this many logits are asked for at the legal moves alone
/// ([`InferenceClient::evaluate_at`]): Wellisch's 41,140 and Weltschach's 178,432, where writing
/// out the whole head costs more than the rest of the network; Glinski's and Mini Hexchess's
/// heads are small enough that the whole one is as cheap.
pub const LISTED_POLICY_FROM: usize = 20_000;

/// An [`Evaluator`] backed by the inference service.
#[derive(Clone)]
pub struct NetEvaluator<G> {
    client: InferenceClient,
    max_batch: usize,
    _game: PhantomData<fn() -> G>,
}

impl<G: Encoding> NetEvaluator<G> {
    /// An evaluator sending at most `max_batch` positions per request through `client`.
    pub fn new(client: InferenceClient, max_batch: usize) -> NetEvaluator<G> {
        NetEvaluator { client, max_batch: max_batch.max(1), _game: PhantomData }
    }

    /// The network's win, draw and loss probabilities for the player to move in `state` (two
    /// players), from its outcome distribution: a class in which the mover scores `s` counts
    /// `max(0, 2s - 1)` as a win and `max(0, 1 - 2s)` as a loss, the rest as a draw (Glinski's
    /// stalemate, 3/4, is half a win and half a draw), so that `win + draw / 2` is the mover's
    /// value.
    pub fn wdl(&self, state: &G) -> [f32; 3] {
        let mut inputs = vec![0.0; G::input_len()];
        state.encode(&mut inputs);
        let out = self.client.evaluate(inputs, 1).expect("inference service stopped while a search used it");
        fold_wdl(&G::value_classes(), &out.outcomes)
    }
}

/// Win, draw and loss probabilities of the mover from `probabilities` over `classes` (each a
/// score vector seen from the mover, as [`Encoding::value_classes`] lists them).
fn fold_wdl(classes: &[Vec<f32>], probabilities: &[f32]) -> [f32; 3] {
    let mut wdl = [0.0f32; 3];
    for (class, &p) in classes.iter().zip(probabilities) {
        let s = class[0];
        let (win, loss) = ((2.0 * s - 1.0).max(0.0), (1.0 - 2.0 * s).max(0.0));
        wdl[0] += p * win;
        wdl[2] += p * loss;
        wdl[1] += p * (1.0 - win - loss);
    }
    wdl
}

impl<G: Encoding> Evaluator<G> for NetEvaluator<G> {
    fn max_batch_size(&self) -> usize {
        self.max_batch
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        let n = batch.len();
        let len = G::input_len();
        let mut inputs = vec![0.0; n * len];
        for (state, planes) in batch.states().iter().zip(inputs.chunks_exact_mut(len)) {
            state.encode(planes);
        }
        let players = G::NUM_PLAYERS;
        // The service only stops once every client is gone, and this evaluator holds one.
        let stopped = "inference service stopped while a search used it";
        if G::POLICY_SIZE < LISTED_POLICY_FROM {
            let out = self.client.evaluate(inputs, n).expect(stopped);
            for i in 0..n {
                let logits = &out.policy[i * G::POLICY_SIZE..(i + 1) * G::POLICY_SIZE];
                fill_from_network(batch.slot_mut(i), logits, &out.values[i * players..(i + 1) * players]);
            }
            return;
        }
        let mut listed = ListedMoves::default();
        for i in 0..n {
            let slot = batch.slot_mut(i);
            listed.indices.extend(slot.moves.iter().map(|&mv| slot.state.policy_index(mv) as i64));
            listed.counts.push(slot.moves.len());
        }
        let out = self.client.evaluate_at(inputs, n, listed).expect(stopped);
        let mut from = 0;
        for i in 0..n {
            let slot = batch.slot_mut(i);
            let moves = slot.moves.len();
            fill_from_listed(slot, &out.policy[from..from + moves], &out.values[i * players..(i + 1) * players]);
            from += moves;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_classes_fold_into_wins_draws_and_losses() {
        // Glinski's classes: win, stalemating (3/4), draw, stalemated (1/4), loss.
        let classes = [vec![1.0, 0.0], vec![0.75, 0.25], vec![0.5, 0.5], vec![0.25, 0.75], vec![0.0, 1.0]];
        let probabilities = [0.4, 0.2, 0.2, 0.1, 0.1];
        let [w, d, l] = fold_wdl(&classes, &probabilities);
        assert!((w - 0.5).abs() < 1e-6 && (d - 0.35).abs() < 1e-6 && (l - 0.15).abs() < 1e-6, "{w} {d} {l}");
        let value: f32 = classes.iter().zip(&probabilities).map(|(c, p)| c[0] * p).sum();
        assert!((w + d / 2.0 - value).abs() < 1e-6, "win + draw/2 is the value");
    }
}
