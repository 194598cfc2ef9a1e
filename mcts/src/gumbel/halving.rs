//! Sequential halving of the root's simulation budget (Karnin et al. 2013, scheduled as Gumbel
//! MuZero schedules it): the visit count at which the next root simulation enters a move.

/// For each of `budget` root simulations in turn, the visit count of the move it goes to, when
/// `considered` moves share the budget (mctx's `get_sequence_of_considered_visits`).
///
/// `ceil(log2 considered)` phases: each gives every move still in play
/// `max(1, budget / (phases * in_play))` more visits, one round at a time, then keeps the better
/// half of them (at least two). Rounds go move by move, so a root with several simulations in
/// flight spreads them over the moves of one round.
pub(crate) fn halving_schedule(considered: usize, budget: usize) -> Vec<u32> {
    if considered <= 1 {
        return (0..budget as u32).collect();
    }
    let phases = (usize::BITS - (considered - 1).leading_zeros()) as usize;
    let mut schedule = Vec::with_capacity(budget + considered);
    // Every move still in play has the same count at the start of each round.
    let mut visits = 0u32;
    let mut in_play = considered;
    while schedule.len() < budget {
        let rounds = (budget / (phases * in_play)).max(1);
        for _ in 0..rounds {
            schedule.extend(std::iter::repeat_n(visits, in_play));
            visits += 1;
        }
        in_play = (in_play / 2).max(2);
    }
    schedule.truncate(budget);
    schedule
}

#[cfg(test)]
mod tests {
    use super::halving_schedule;

    #[test]
    fn matches_the_papers_schedules() {
        // m = 4, n = 8: one round of four, then two rounds of the better two.
        assert_eq!(halving_schedule(4, 8), [0, 0, 0, 0, 1, 1, 2, 2]);
        // m = 2, n = 2: each of the two once.
        assert_eq!(halving_schedule(2, 2), [0, 0]);
        // m = 16, n = 32: four phases; the 16 and the 8 get one round, the last 4 two.
        let s = halving_schedule(16, 32);
        assert_eq!(s.len(), 32);
        assert_eq!(&s[..16], &[0; 16]);
        assert_eq!(&s[16..24], &[1; 8]);
        assert_eq!(&s[24..28], &[2; 4]);
        assert_eq!(&s[28..], &[3; 4]);
        // One move takes every simulation.
        assert_eq!(halving_schedule(1, 3), [0, 1, 2]);
        // A budget smaller than the moves reaches only the first few.
        assert_eq!(halving_schedule(16, 5), [0; 5]);
    }
}
