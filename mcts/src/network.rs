//! How a network's raw answer for one position fills an evaluator's slot: policy logits by policy
//! index become priors over the legal moves, and values seen from the mover become values by
//! seat. Shared by every evaluator that asks a network (libtorch's in `nn`, a Python callback).

use rules::Encoding;

use crate::batch::Slot;

/// Fills `slot` from a network's answer for its position: `logits` (by policy index, length
/// `G::POLICY_SIZE`) become the softmax over the legal moves' logits, illegal moves left out;
/// `mover_values[k]`, the expected final score of the player `k` seats after the mover (the
/// layout of an exported network's values), becomes that seat's value.
pub fn fill_from_network<G: Encoding>(slot: Slot<'_, G>, logits: &[f32], mover_values: &[f32]) {
    for (p, &mv) in slot.priors.iter_mut().zip(slot.moves) {
        *p = logits[slot.state.policy_index(mv)];
    }
    finish_slot(slot, mover_values);
}

/// [`fill_from_network`] for an answer that lists the logits of the slot's moves alone, in the
/// slot's move order (the policy indices the evaluator asked for).
pub fn fill_from_listed<G: Encoding>(slot: Slot<'_, G>, move_logits: &[f32], mover_values: &[f32]) {
    assert_eq!(move_logits.len(), slot.moves.len(), "a logit for each legal move");
    slot.priors.copy_from_slice(move_logits);
    finish_slot(slot, mover_values);
}

/// Turns the priors, which hold the moves' logits, into their softmax, and puts the
/// mover-relative values on their seats.
fn finish_slot<G: Encoding>(slot: Slot<'_, G>, mover_values: &[f32]) {
    softmax_in_place(slot.priors);
    let players = G::NUM_PLAYERS;
    let mover = slot.state.to_move();
    for (k, &v) in mover_values.iter().enumerate().take(players) {
        slot.value[(mover + k) % players] = v;
    }
}

/// The softmax of logits, in place.
fn softmax_in_place(priors: &mut [f32]) {
    let max = priors.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for p in priors.iter_mut() {
        *p = (*p - max).exp();
        sum += *p;
    }
    for p in priors.iter_mut() {
        *p /= sum;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::Batch;
    use rules::wellisch::Wellisch;
    use rules::Game;

    /// Logits become the softmax over the legal moves alone, and the mover-relative values land
    /// on their seats: here seat 1 is to move, so value 0 is seat 1's and value 2 seat 0's.
    #[test]
    fn logits_become_legal_priors_and_values_turn_to_seats() {
        let mut game = Wellisch::start();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        game.play(moves[0]);
        game.legal_moves(&mut moves);
        assert_eq!(game.to_move(), 1);
        let mut batch = Batch::new();
        batch.push(game.clone(), &moves, 0, 0);
        let mut logits = vec![100.0; Wellisch::POLICY_SIZE];
        let (a, b) = (game.policy_index(moves[0]), game.policy_index(moves[1]));
        for &mv in &moves {
            logits[game.policy_index(mv)] = -50.0;
        }
        logits[a] = (3.0f32).ln();
        logits[b] = 0.0;
        fill_from_network(batch.slot_mut(0), &logits, &[0.75, 0.5, 0.25]);
        let (priors, value) = batch.answer(0);
        let rest = moves.len() - 2;
        assert!((priors[0] - 0.75).abs() < 1e-5 && (priors[1] - 0.25).abs() < 1e-5, "{priors:?}");
        assert!(priors[2..].iter().all(|&p| p < 1e-20), "illegal logits of 100 are left out ({rest} others)");
        assert_eq!(value, &[0.25, 0.75, 0.5]);

        // The same answer listed by move gives the same priors and values.
        let listed: Vec<f32> = moves.iter().map(|&mv| logits[game.policy_index(mv)]).collect();
        let mut again = Batch::new();
        again.push(game.clone(), &moves, 0, 0);
        fill_from_listed(again.slot_mut(0), &listed, &[0.75, 0.5, 0.25]);
        assert_eq!(again.answer(0), batch.answer(0));
    }
}
