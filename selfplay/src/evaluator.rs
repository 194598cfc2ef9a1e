//! The network as a search evaluator: encodes a batch of leaves, asks the inference service,
//! and turns logits and mover-relative values into priors and per-seat values.

use std::marker::PhantomData;

use mcts::{Batch, Evaluator};
use nn::InferenceClient;
use rules::Encoding;

/// An [`Evaluator`] backed by the inference service.
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
        // The service only stops once every client is gone, and this evaluator holds one.
        let out = self.client.evaluate(inputs, n).expect("inference service stopped while a search used it");
        let players = G::NUM_PLAYERS;
        for i in 0..n {
            let slot = batch.slot_mut(i);
            let logits = &out.policy[i * G::POLICY_SIZE..(i + 1) * G::POLICY_SIZE];
            softmax_over_moves(slot.state, slot.moves, logits, slot.priors);
            let mover = slot.state.to_move();
            for k in 0..players {
                slot.value[(mover + k) % players] = out.values[i * players + k];
            }
        }
    }
}

/// Priors over `moves`: the softmax of their logits, illegal moves left out.
pub fn softmax_over_moves<G: Encoding>(state: &G, moves: &[G::Move], logits: &[f32], priors: &mut [f32]) {
    let mut max = f32::NEG_INFINITY;
    for (p, &mv) in priors.iter_mut().zip(moves) {
        *p = logits[state.policy_index(mv)];
        max = max.max(*p);
    }
    let mut sum = 0.0;
    for p in priors.iter_mut() {
        *p = (*p - max).exp();
        sum += *p;
    }
    for p in priors.iter_mut() {
        *p /= sum;
    }
}
