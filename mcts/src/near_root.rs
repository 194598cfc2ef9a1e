//! A network asked only about the top of the tree. On a CPU one network evaluation costs several
//! times a judged node (Glinski's 4x32 network hundreds of microseconds a position, the judge
//! tens), so at a clock a search that asks the network about every leaf sees a few hundred
//! nodes. Deep in the tree the judge's tactical prior and judged value decide most of what a
//! node is worth anyway; near the root the network's prior and value matter most.

use rules::Game;

use crate::batch::Batch;
use crate::evaluator::{fill_uniform, Evaluator};

/// `inner` for the nodes fewer than `plies` plies below the root (0: every node); each deeper
/// node gets equal priors and the uninformed value 1/2, marked as such ([`Batch::set_known`]),
/// so that the tactical levers treat it as the search without a network does: the tactical
/// prior mixed into equal priors, the judged value whole.
#[derive(Clone, Copy, Debug)]
pub struct NearRoot<E> {
    /// The network (or any evaluator) asked about the nodes near the root.
    pub inner: E,
    /// Plies below the root whose nodes `inner` evaluates: 1 the root alone, 0 every ply.
    pub plies: u32,
}

impl<E> NearRoot<E> {
    /// Whether a node `depth` plies below the root is asked of the inner evaluator.
    fn asks(&self, depth: u32) -> bool {
        self.plies == 0 || depth < self.plies
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for NearRoot<E> {
    fn max_batch_size(&self) -> usize {
        self.inner.max_batch_size()
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        if (0..batch.len()).all(|i| self.asks(batch.depth(i))) {
            return self.inner.evaluate(batch);
        }
        // The near entries go to the inner evaluator as a batch of their own; the copy of a few
        // positions costs nothing beside one network evaluation.
        let (asked, deep): (Vec<usize>, Vec<usize>) = (0..batch.len()).partition(|&i| self.asks(batch.depth(i)));
        for i in deep {
            fill_uniform(batch.slot_mut(i));
            batch.set_known(i, false);
        }
        if asked.is_empty() {
            return;
        }
        let mut near = batch.subset(&asked);
        self.inner.evaluate(&mut near);
        batch.take_answers(&near, &asked);
    }

    fn knows_values(&self) -> bool {
        self.inner.knows_values()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use rules::{Game, MiniHexchess};

    use super::*;
    use crate::evaluator::RandomEvaluator;

    /// A random evaluator that counts the positions it is asked about.
    struct Counting {
        asked: AtomicUsize,
    }

    impl<G: Game> Evaluator<G> for Counting {
        fn max_batch_size(&self) -> usize {
            64
        }
        fn evaluate(&self, batch: &mut Batch<G>) {
            self.asked.fetch_add(batch.len(), Ordering::Relaxed);
            RandomEvaluator { seed: 3 }.evaluate(batch);
        }
    }

    fn batch_at_depths(depths: &[u32]) -> Batch<MiniHexchess> {
        let game = MiniHexchess::start();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut batch = Batch::new();
        for (node, &depth) in depths.iter().enumerate() {
            batch.push(game.clone(), &moves, node as u32, depth);
        }
        batch
    }

    #[test]
    fn only_the_nodes_near_the_root_are_asked_of_the_network() {
        let counting = Counting { asked: AtomicUsize::new(0) };
        let near_root = NearRoot { inner: &counting, plies: 2 };
        let mut batch = batch_at_depths(&[0, 1, 2, 5]);
        near_root.evaluate(&mut batch);
        assert_eq!(counting.asked.load(Ordering::Relaxed), 2);
        let mut alone = batch_at_depths(&[1]);
        RandomEvaluator { seed: 3 }.evaluate(&mut alone);
        assert_eq!(batch.answer(1), alone.answer(0), "the network's answer reaches its entry");
        assert!(batch.known(0) && batch.known(1) && !batch.known(2) && !batch.known(3));
        let (priors, value) = batch.answer(3);
        assert!(priors.iter().all(|&p| p == priors[0]) && value[..2] == [0.5, 0.5]);
    }

    #[test]
    fn zero_plies_asks_about_every_node() {
        let counting = Counting { asked: AtomicUsize::new(0) };
        let mut batch = batch_at_depths(&[0, 7, 300]);
        NearRoot { inner: &counting, plies: 0 }.evaluate(&mut batch);
        assert_eq!(counting.asked.load(Ordering::Relaxed), 3);
        assert!((0..3).all(|i| batch.known(i)));
    }
}
