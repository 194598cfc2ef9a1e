//! An evaluation cache in front of any evaluator (lc0's `memcache`): transpositions and positions
//! met again in the next move's search are answered without asking the network.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rules::{Game, MAX_PLAYERS};

use crate::batch::Batch;
use crate::evaluator::Evaluator;

/// One remembered answer: the position's hash, its priors in move-generation order, its value.
struct Entry {
    hash: u64,
    priors: Box<[f32]>,
    value: [f32; MAX_PLAYERS],
}

/// Wraps `inner`, remembering answers by position hash in a table of fixed size where a new
/// answer replaces whatever shared its slot. Misses of a batch go to `inner` as one smaller batch.
///
/// Sound as long as equal hashes mean equal positions with the same legal moves in the same
/// order (what [`Game::hash`] promises, up to 64-bit collisions, which are also checked against
/// the number of moves).
pub struct CachedEvaluator<G: Game, E> {
    inner: E,
    table: Mutex<Vec<Option<Entry>>>,
    hits: AtomicU64,
    misses: AtomicU64,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game, E: Evaluator<G>> CachedEvaluator<G, E> {
    /// A cache of `capacity` answers in front of `inner`.
    pub fn new(inner: E, capacity: usize) -> CachedEvaluator<G, E> {
        let capacity = capacity.max(1);
        CachedEvaluator {
            inner,
            table: Mutex::new((0..capacity).map(|_| None).collect()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            _game: std::marker::PhantomData,
        }
    }

    /// Positions answered from the cache so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }

    /// Positions passed on to the wrapped evaluator so far.
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// The wrapped evaluator.
    pub fn inner(&self) -> &E {
        &self.inner
    }
}

impl<G: Game, E: Evaluator<G>> Evaluator<G> for CachedEvaluator<G, E> {
    fn max_batch_size(&self) -> usize {
        self.inner.max_batch_size()
    }

    fn evaluate(&self, batch: &mut Batch<G>) {
        let mut missed = Vec::new();
        {
            let table = self.table.lock().expect("cache poisoned");
            for i in 0..batch.len() {
                let slot = batch.slot_mut(i);
                let hash = slot.state.hash();
                match &table[(hash % table.len() as u64) as usize] {
                    Some(e) if e.hash == hash && e.priors.len() == slot.priors.len() => {
                        slot.priors.copy_from_slice(&e.priors);
                        *slot.value = e.value;
                    }
                    _ => missed.push(i),
                }
            }
        }
        self.hits.fetch_add((batch.len() - missed.len()) as u64, Ordering::Relaxed);
        self.misses.fetch_add(missed.len() as u64, Ordering::Relaxed);
        if missed.is_empty() {
            return;
        }
        // Evaluated unlocked: other threads keep reading the cache meanwhile.
        let mut misses = batch.subset(&missed);
        self.inner.evaluate(&mut misses);
        batch.take_answers(&misses, &missed);
        let mut table = self.table.lock().expect("cache poisoned");
        for (j, &i) in missed.iter().enumerate() {
            let (priors, value) = misses.answer(j);
            let hash = batch.states()[i].hash();
            let len = table.len() as u64;
            table[(hash % len) as usize] = Some(Entry { hash, priors: priors.into(), value: *value });
        }
    }

    fn knows_values(&self) -> bool {
        self.inner.knows_values()
    }
}
