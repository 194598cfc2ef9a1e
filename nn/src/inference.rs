//! The inference service: one thread owns the network and serves many self-play workers,
//! gathering their positions into large batches.
//!
//! Workers send encoded positions over a crossbeam channel and block on their own reply
//! channel. The service takes the first waiting request, then keeps collecting until the batch
//! holds `max_batch` positions, every client that is waiting has been heard from, or
//! `max_wait` has passed; runs one forward pass; and answers each request with its slice of the
//! outputs. New weights are swapped in between batches.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam::channel::{self, Receiver, RecvTimeoutError, Sender};
use tch::Kind;

use crate::fast::{FastNet, InferenceForm};
use crate::listed::ListedMoves;
use crate::net::PolicyValueNet;

/// Raw network outputs for a group of positions.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// Policy logits: `policy_size` per position (the caller masks illegal moves), or, for
    /// [`InferenceClient::evaluate_at`], one per listed move in the order listed.
    pub policy: Shared,
    /// Expected scores by seat from the mover on, `players` per position.
    pub values: Shared,
    /// The distribution over the network's outcome classes (`NetConfig::outcomes`, seen from
    /// the mover) whose expectation the values are, one probability per class per position.
    pub outcomes: Shared,
}

/// One request's part of a whole batch's output buffer, read as a slice: the requests of a
/// batch share the buffer instead of copying their parts out (a Glinski batch of 256 holds 3.4
/// million policy logits).
#[derive(Clone, Debug, Default)]
pub struct Shared {
    buffer: Arc<Vec<f32>>,
    range: std::ops::Range<usize>,
}

impl Shared {
    fn part(buffer: &Arc<Vec<f32>>, range: std::ops::Range<usize>) -> Shared {
        Shared { buffer: Arc::clone(buffer), range }
    }
}

impl std::ops::Deref for Shared {
    type Target = [f32];

    fn deref(&self) -> &[f32] {
        &self.buffer[self.range.clone()]
    }
}

enum Message {
    Evaluate { inputs: Vec<f32>, count: usize, listed: Option<ListedMoves>, reply: Sender<Outputs> },
    LoadWeights { path: PathBuf, reply: Sender<Result<(), String>> },
}

/// Counters of the service's work, for the batch-fill report.
#[derive(Debug, Default)]
pub struct InferenceStats {
    batches: AtomicU64,
    positions: AtomicU64,
    /// Clients blocked in [`InferenceClient::evaluate`] right now: once that many requests are
    /// in, nobody else can add to the batch, so waiting longer would only add latency.
    waiting: AtomicUsize,
}

impl InferenceStats {
    /// Forward passes run so far.
    pub fn batches(&self) -> u64 {
        self.batches.load(Ordering::Relaxed)
    }

    /// Positions evaluated so far.
    pub fn positions(&self) -> u64 {
        self.positions.load(Ordering::Relaxed)
    }

    /// Mean positions per forward pass.
    pub fn mean_batch(&self) -> f64 {
        self.positions() as f64 / self.batches().max(1) as f64
    }
}

/// How the service batches, and the form it runs the network in.
#[derive(Clone, Copy, Debug)]
pub struct BatchingConfig {
    /// Most positions in one forward pass.
    pub max_batch: usize,
    /// Longest wait for more positions once one request is in.
    pub max_wait: Duration,
    /// The form of the network's forward passes ([`InferenceForm::PLAIN`]: as trained); a
    /// fast form is rebuilt from the weights whenever new ones are loaded.
    pub form: InferenceForm,
    /// libtorch threads of each forward pass.
    pub threads: usize,
    /// Forward passes a batch is split into, run at once on threads of their own (each with
    /// `threads` libtorch threads; fast forms only). On a CPU, whole passes in parallel keep
    /// their speed on cores that other work holds, where libtorch's own pool, whose threads
    /// wait for each other at every layer, collapses.
    pub passes: usize,
}

impl BatchingConfig {
    /// Batches of at most `max_batch` positions, waiting at most `max_wait` for more, run as
    /// `inference` says (form, threads, passes).
    pub fn new(max_batch: usize, max_wait: Duration, inference: &crate::fast::Inference) -> BatchingConfig {
        BatchingConfig {
            max_batch,
            max_wait,
            form: inference.form,
            threads: inference.threads,
            passes: inference.passes,
        }
    }
}

/// A handle workers use to reach the service; cheap to clone, one per worker.
#[derive(Clone)]
pub struct InferenceClient {
    tx: Sender<Message>,
    stats: Arc<InferenceStats>,
}

/// The service thread; dropping every client stops it, [`InferenceService::join`] waits for it.
pub struct InferenceService {
    thread: JoinHandle<()>,
}

/// The service has stopped (its thread ended or panicked).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the inference service has stopped")]
pub struct ServiceStopped;

impl InferenceService {
    /// Starts the service thread; `make_net` runs on that thread, so the network never moves
    /// between threads. Returns once the service has built its network and set its threads.
    ///
    /// Waiting matters for reproducibility: libtorch's thread count is partly process-wide
    /// (MKL's count and the shared thread pool), so a service whose threads set theirs late
    /// would change the count of whatever the caller runs next (a training step, say) at a
    /// moment that depends on timing, and with it the rounding of its results.
    pub fn spawn<F>(make_net: F, batching: BatchingConfig) -> (InferenceService, InferenceClient)
    where
        F: FnOnce() -> PolicyValueNet + Send + 'static,
    {
        let (tx, rx) = channel::unbounded();
        let (ready, set_up) = channel::bounded(1);
        let stats = Arc::new(InferenceStats::default());
        let thread_stats = Arc::clone(&stats);
        let thread = std::thread::Builder::new()
            .name("inference".into())
            .spawn(move || serve(make_net(), rx, batching, &thread_stats, ready))
            .expect("spawn inference thread");
        // An error means the thread panicked while setting up; clients then see ServiceStopped.
        let _ = set_up.recv();
        (InferenceService { thread }, InferenceClient { tx, stats })
    }

    /// Waits for the service to finish (after every client is dropped).
    pub fn join(self) {
        let _ = self.thread.join();
    }
}

impl InferenceClient {
    /// Evaluates `count` positions encoded one after another in `inputs`; blocks until done.
    pub fn evaluate(&self, inputs: Vec<f32>, count: usize) -> Result<Outputs, ServiceStopped> {
        self.request(inputs, count, None)
    }

    /// Like [`InferenceClient::evaluate`], with the policy logits at `listed`'s indices only
    /// (a position's legal moves, say): far fewer numbers where the policy is large.
    pub fn evaluate_at(&self, inputs: Vec<f32>, count: usize, listed: ListedMoves) -> Result<Outputs, ServiceStopped> {
        assert_eq!(listed.positions(), count, "a move list for each of the {count} positions");
        self.request(inputs, count, Some(listed))
    }

    fn request(&self, inputs: Vec<f32>, count: usize, listed: Option<ListedMoves>) -> Result<Outputs, ServiceStopped> {
        let (reply, rx) = channel::bounded(1);
        self.stats.waiting.fetch_add(1, Ordering::SeqCst);
        let answer = match self.tx.send(Message::Evaluate { inputs, count, listed, reply }) {
            Ok(()) => rx.recv().map_err(|_| ServiceStopped),
            Err(_) => Err(ServiceStopped),
        };
        self.stats.waiting.fetch_sub(1, Ordering::SeqCst);
        answer
    }

    /// Replaces the network's weights with those saved at `path`, between two batches.
    pub fn load_weights(&self, path: PathBuf) -> Result<Result<(), String>, ServiceStopped> {
        let (reply, rx) = channel::bounded(1);
        self.tx.send(Message::LoadWeights { path, reply }).map_err(|_| ServiceStopped)?;
        rx.recv().map_err(|_| ServiceStopped)
    }

    /// The service's counters.
    pub fn stats(&self) -> &InferenceStats {
        &self.stats
    }
}

struct Pending {
    count: usize,
    listed: Option<ListedMoves>,
    reply: Sender<Outputs>,
}

/// One forward pass's flat outputs: policy logits (every one, or those listed), outcome
/// probabilities, values.
type PassOutputs = (Vec<f32>, Vec<f32>, Vec<f32>);

/// The service thread's loop; `ready` is told once every thread count is set and the network
/// is built, before the first request is taken.
fn serve(
    mut net: PolicyValueNet,
    rx: Receiver<Message>,
    batching: BatchingConfig,
    stats: &InferenceStats,
    ready: Sender<()>,
) {
    let input_len = net.config().input_len();
    let policy_size = net.config().policy_size;
    let players = net.config().players;
    let mut inputs: Vec<f32> = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    // The service's own thread count, set on this thread where libtorch and oneDNN read it: a
    // count inherited from whichever thread last set one would change results with timing.
    tch::set_num_threads(batching.threads.max(1) as i32);
    let fast_form = |net: &PolicyValueNet| batching.form.folded.then(|| FastNet::new(net, batching.form));
    let mut fast = fast_form(&net);
    let helpers = if fast.is_some() { batching.passes.max(1) - 1 } else { 0 };
    let mut passes = Passes::start(helpers, batching.threads, || fast_form(&net).expect("a fast form"));
    let _ = ready.send(());
    // The first message of a batch is awaited without a deadline; then the clock runs.
    while let Ok(first) = rx.recv() {
        let deadline = Instant::now() + batching.max_wait;
        let mut total = 0;
        let mut next = Some(first);
        loop {
            match next.take() {
                Some(Message::Evaluate { inputs: x, count, listed, reply }) => {
                    debug_assert_eq!(x.len(), count * input_len);
                    inputs.extend_from_slice(&x);
                    total += count;
                    pending.push(Pending { count, listed, reply });
                }
                Some(Message::LoadWeights { path, reply }) => {
                    let result = crate::checkpoint::load_weights(&mut net, &path).map_err(|e| e.to_string());
                    fast = fast_form(&net);
                    passes.reload(|| fast_form(&net).expect("a fast form"));
                    let _ = reply.send(result);
                }
                None => {}
            }
            if total >= batching.max_batch || pending.len() >= stats.waiting.load(Ordering::SeqCst) {
                break;
            }
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(msg) => next = Some(msg),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        if total == 0 {
            continue;
        }
        // The batch lists its moves only when every request does; otherwise the listed
        // requests get their logits picked out of the whole policy.
        let listed = pending.iter().map(|p| p.listed.as_ref()).collect::<Option<Vec<_>>>().map(|lists| {
            let mut all = ListedMoves::default();
            lists.into_iter().for_each(|l| all.extend(l));
            all
        });
        let (policy, outcomes, values) = match &fast {
            Some(fast) => passes.run(fast, &inputs, total, listed.as_ref()),
            None => run_batch(&net, &inputs, total, listed.as_ref()),
        };
        let classes = outcomes.len() / total;
        let (policy, outcomes, values) = (Arc::new(policy), Arc::new(outcomes), Arc::new(values));
        stats.batches.fetch_add(1, Ordering::Relaxed);
        stats.positions.fetch_add(total as u64, Ordering::Relaxed);
        let (mut offset, mut logit) = (0, 0);
        for p in pending.drain(..) {
            let policy = match (&p.listed, listed.is_some()) {
                (Some(l), true) => Shared::part(&policy, logit..logit + l.indices.len()),
                (Some(l), false) => picked(&policy[offset * policy_size..(offset + p.count) * policy_size], l),
                (None, _) => Shared::part(&policy, offset * policy_size..(offset + p.count) * policy_size),
            };
            let out = Outputs {
                policy,
                values: Shared::part(&values, offset * players..(offset + p.count) * players),
                outcomes: Shared::part(&outcomes, offset * classes..(offset + p.count) * classes),
            };
            offset += p.count;
            logit += p.listed.as_ref().map_or(0, |l| l.indices.len());
            let _ = p.reply.send(out);
        }
        inputs.clear();
    }
}

/// The `listed` logits of consecutive positions out of their whole policies (`whole`).
fn picked(whole: &[f32], listed: &ListedMoves) -> Shared {
    let size = whole.len() / listed.positions().max(1);
    let mut logits = Vec::with_capacity(listed.indices.len());
    let mut at = listed.indices.iter();
    for (row, &n) in listed.counts.iter().enumerate() {
        logits.extend(at.by_ref().take(n).map(|&i| whole[row * size + i as usize]));
    }
    let len = logits.len();
    Shared::part(&Arc::new(logits), 0..len)
}

/// One forward pass over `count` positions of the network as trained (in mixed precision on
/// CUDA), returned as flat f32 buffers: policy logits (every one, or those `listed`), outcome
/// probabilities, values.
fn run_batch(net: &PolicyValueNet, inputs: &[f32], count: usize, listed: Option<&ListedMoves>) -> PassOutputs {
    let (policy, outcomes, values) = tch::autocast(net.device().is_cuda(), || match listed {
        Some(listed) => net.predict_outcomes_at(inputs, count, listed),
        None => net.predict_outcomes(inputs, count),
    });
    (to_vec(policy), to_vec(outcomes), to_vec(values))
}

/// Smallest part of a batch worth a forward pass of its own: below it a pass costs about what
/// the whole batch would (a Glinski 4x32 pass of 1 position takes half the time of 8).
const MIN_PART: usize = 4;

/// Threads that run parts of a batch in the fast form while the service thread runs the
/// first part, each with its own copy of the weights (libtorch tensors may move between
/// threads but not be shared).
struct Passes {
    helpers: Vec<Helper>,
}

/// One helper thread and its channels: parts of a batch in, their outputs back.
struct Helper {
    work: Sender<Job>,
    done: Receiver<PassOutputs>,
    thread: JoinHandle<()>,
}

impl Drop for Passes {
    /// Ends the helpers and waits for them, so that a joined service holds no threads.
    fn drop(&mut self) {
        for Helper { work, thread, .. } in self.helpers.drain(..) {
            drop(work);
            let _ = thread.join();
        }
    }
}

enum Job {
    Part { inputs: Vec<f32>, count: usize, listed: Option<ListedMoves> },
    Reload(Box<FastNet>),
}

impl Passes {
    /// `count` helper threads with `threads` libtorch threads each, running networks `make`
    /// builds (on this thread); returns once every helper has set its thread count (see
    /// [`InferenceService::spawn`] for why).
    fn start(count: usize, threads: usize, mut make: impl FnMut() -> FastNet) -> Passes {
        let (ready, set_up) = channel::bounded(count);
        let helpers = (0..count)
            .map(|i| {
                let (work, jobs) = channel::unbounded::<Job>();
                let (results, done) = channel::unbounded();
                let mut net = Box::new(make());
                let ready = ready.clone();
                let thread = std::thread::Builder::new()
                    .name(format!("inference-pass-{}", i + 1))
                    .spawn(move || {
                        tch::set_num_threads(threads.max(1) as i32);
                        let _ = ready.send(());
                        drop(ready);
                        while let Ok(job) = jobs.recv() {
                            match job {
                                Job::Part { inputs, count, listed } => {
                                    let out = run_batch_fast(&net, &inputs, count, listed.as_ref());
                                    if results.send(out).is_err() {
                                        break;
                                    }
                                }
                                Job::Reload(fresh) => net = fresh,
                            }
                        }
                    })
                    .expect("spawn an inference pass thread");
                Helper { work, done, thread }
            })
            .collect::<Vec<_>>();
        drop(ready);
        // Each helper answers, then drops its sender (as does one that dies first), so the
        // wait ends when all have answered.
        while set_up.recv().is_ok() {}
        Passes { helpers }
    }

    /// Hands every helper a network `make` builds from new weights (before the next batch).
    fn reload(&mut self, mut make: impl FnMut() -> FastNet) {
        for h in &self.helpers {
            let _ = h.work.send(Job::Reload(Box::new(make())));
        }
    }

    /// The batch's outputs, its parts run at once: the first on this thread with `fast`, the
    /// others on helpers; parts of at least [`MIN_PART`] positions, in order.
    fn run(&self, fast: &FastNet, inputs: &[f32], count: usize, listed: Option<&ListedMoves>) -> PassOutputs {
        let parts = (self.helpers.len() + 1).min(count / MIN_PART).max(1);
        if parts == 1 {
            return run_batch_fast(fast, inputs, count, listed);
        }
        let len = inputs.len() / count;
        let sizes: Vec<usize> = (0..parts).map(|i| count / parts + usize::from(i < count % parts)).collect();
        let mut start = sizes[0];
        for (h, &n) in self.helpers.iter().zip(&sizes[1..]) {
            let part = inputs[start * len..(start + n) * len].to_vec();
            let listed = listed.map(|l| l.part(start, n));
            h.work.send(Job::Part { inputs: part, count: n, listed }).expect("an inference pass thread runs");
            start += n;
        }
        let first = listed.map(|l| l.part(0, sizes[0]));
        let (mut policy, mut outcomes, mut values) =
            run_batch_fast(fast, &inputs[..sizes[0] * len], sizes[0], first.as_ref());
        for h in &self.helpers[..parts - 1] {
            let (p, o, v) = h.done.recv().expect("an inference pass thread answers");
            policy.extend_from_slice(&p);
            outcomes.extend_from_slice(&o);
            values.extend_from_slice(&v);
        }
        (policy, outcomes, values)
    }
}

/// [`run_batch`] in a fast form.
fn run_batch_fast(fast: &FastNet, inputs: &[f32], count: usize, listed: Option<&ListedMoves>) -> PassOutputs {
    let (policy, outcomes, values) = match listed {
        Some(listed) => fast.predict_outcomes_at(inputs, count, listed),
        None => fast.predict_outcomes(inputs, count),
    };
    (to_vec(policy), to_vec(outcomes), to_vec(values))
}

/// A tensor's values as a flat vector on the CPU.
fn to_vec(t: tch::Tensor) -> Vec<f32> {
    let t = t.to_kind(Kind::Float).to_device(tch::Device::Cpu).flatten(0, -1);
    Vec::<f32>::try_from(&t).expect("network output converts to f32")
}
