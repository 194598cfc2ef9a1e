//! Evaluators with known opinions, for tests of what a search reports (this crate's and the
//! engine's): one home, so that two layers' tests do not each keep a copy.

use rules::hexchess::MiniHexchess;
use rules::Game;

use crate::{Batch, Evaluator};

/// A Mini Hexchess evaluator sure that White wins and that the move written `.0` is the way:
/// that move gets a prior 300 times the others', so visits pile up on it.
pub struct FondOf(pub &'static str);

impl Evaluator<MiniHexchess> for FondOf {
    fn max_batch_size(&self) -> usize {
        32
    }

    fn evaluate(&self, batch: &mut Batch<MiniHexchess>) {
        for i in 0..batch.len() {
            let slot = batch.slot_mut(i);
            for (p, &mv) in slot.priors.iter_mut().zip(slot.moves) {
                *p = if slot.state.move_text(mv) == self.0 { 30.0 } else { 0.1 };
            }
            *slot.value = [0.97, 0.03, 0.0];
        }
    }
}
