//! A small fuzzing harness for the parsers of outside input, shared by every crate's
//! `tests/fuzz.rs` (feature `test-support`; it lives in `rules`, the crate every other one
//! depends on). Each target runs a fixed number of seeded cases in `cargo test --release`;
//! `VZERO_FUZZ_CASES=N` runs N cases per target instead, `VZERO_FUZZ_SEED=S` another seed, and
//! `VZERO_FUZZ_CASE=N` only case N, printing its input (docs/architecture.md, "Tests"). A case
//! fails the test when it panics, takes longer than [`CASE_LIMIT`] (twice), or holds more than
//! [`ALLOC_LIMIT`] at once; a case still running after [`HANG_LIMIT`] ends the test program.
//! The failure names the case and prints its input.

mod alloc;
pub mod mutate;
mod rng;

use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use alloc::{held_by, CountingAlloc};
pub use rng::Rng;

/// The seed of every target unless `VZERO_FUZZ_SEED` names another.
pub const SEED: u64 = 0x5eed_f022;
/// The longest a case may take (a slower one is timed again, and fails if it is slow twice):
/// the parsers answer in microseconds, so a case this slow is a near-hang or work proportional
/// to a hostile number.
pub const CASE_LIMIT: Duration = Duration::from_secs(1);
/// How long a case may run before the watchdog ends the program, printing the case.
pub const HANG_LIMIT: Duration = Duration::from_secs(10);
/// The most memory a case may hold at once beyond what it started with (measured where the
/// test program installs [`CountingAlloc`]): inputs are at most a few MiB, so more means an
/// allocation sized by a number in the input.
pub const ALLOC_LIMIT: usize = 64 << 20;
/// How much of a failing input the report prints.
const SHOWN: usize = 2000;

/// What a target did with its inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Inputs tried.
    pub cases: usize,
    /// Inputs the parser read (the rest it refused with an error).
    pub read: usize,
    /// Seconds the target took.
    pub seconds: f64,
}

/// The number of cases of a target whose default is `default`: `VZERO_FUZZ_CASES` if set.
pub fn cases(default: usize) -> usize {
    std::env::var("VZERO_FUZZ_CASES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

/// `VZERO_FUZZ_CASE=N`: only case N runs, its input printed first (to reproduce a failure).
fn only() -> Option<usize> {
    std::env::var("VZERO_FUZZ_CASE").ok().and_then(|v| v.trim().parse().ok())
}

fn seed() -> u64 {
    let text = std::env::var("VZERO_FUZZ_SEED").unwrap_or_default();
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    };
    parsed.unwrap_or(SEED)
}

/// The seed of case `case` of target `name`: cases are independent, so a failing one is
/// reproduced alone from its number.
fn case_seed(seed: u64, name: &str, case: usize) -> u64 {
    let name_hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
    crate::splitmix::mix(seed ^ name_hash).wrapping_add(case as u64)
}

/// Runs target `name`: [`cases`]`(default_cases)` inputs from `generate`, each given to `check`,
/// which returns whether the parser read it (`true`) or refused it with an error (`false`) and
/// asserts whatever must hold of the answer. Panics, naming the case and its input, on the
/// first case that panics, is too slow (twice) or holds too much memory.
pub fn run<I: Debug>(
    name: &str,
    default_cases: usize,
    generate: impl Fn(&mut Rng) -> I + Sync,
    mut check: impl FnMut(&I) -> bool,
) -> Stats {
    let cases = cases(default_cases);
    let seed = seed();
    let input_of = |case: usize| generate(&mut Rng::new(case_seed(seed, name, case)));
    let current = AtomicU64::new(u64::MAX);
    let started = Instant::now();
    let case_start = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let mut read = 0;
    std::thread::scope(|scope| {
        let watchdog = scope.spawn(|| watch(name, &current, &case_start, started, &done, &input_of));
        let result = (|| {
            for case in only().map_or(0..cases, |case| case..case + 1) {
                let input = input_of(case);
                if only().is_some() {
                    eprintln!("fuzz {name}: case {case}: {input:?}");
                }
                case_start.store(started.elapsed().as_nanos() as u64, Ordering::SeqCst);
                current.store(case as u64, Ordering::SeqCst);
                let mut attempt = || {
                    let before = alloc::start_case();
                    let t = Instant::now();
                    let outcome = catch_unwind(AssertUnwindSafe(|| check(&input)));
                    (outcome, t.elapsed(), alloc::case_peak(before))
                };
                let (mut outcome, mut took, mut peak) = attempt();
                if outcome.is_ok() && took > CASE_LIMIT {
                    // Timed again: on shared, busy cores a thread can wait that long for its
                    // turn; a slow parser is slow twice.
                    (outcome, took, peak) = attempt();
                }
                current.store(u64::MAX, Ordering::SeqCst);
                let failure = match outcome {
                    Err(payload) => Some(format!("panicked: {}", panic_message(&*payload))),
                    Ok(_) if took > CASE_LIMIT => Some(format!("took {took:?}, over the {CASE_LIMIT:?} limit")),
                    Ok(_) if peak > ALLOC_LIMIT => {
                        Some(format!("held {peak} bytes at once, over the {ALLOC_LIMIT}-byte limit"))
                    }
                    Ok(accepted) => {
                        read += accepted as usize;
                        None
                    }
                };
                if let Some(failure) = failure {
                    return Err(report(name, seed, case, &input, &failure));
                }
            }
            Ok(())
        })();
        done.store(true, Ordering::SeqCst);
        watchdog.thread().unpark();
        if let Err(message) = result {
            panic!("{message}");
        }
    });
    let stats = Stats { cases, read, seconds: started.elapsed().as_secs_f64() };
    eprintln!(
        "fuzz {name}: {} inputs ({} read, {} refused) in {:.2} s",
        stats.cases,
        stats.read,
        stats.cases - stats.read,
        stats.seconds
    );
    stats
}

/// Ends the program when a case runs past [`HANG_LIMIT`]: a hang cannot be caught like a
/// panic, and the test would otherwise never end.
fn watch<I: Debug>(
    name: &str,
    current: &AtomicU64,
    case_start: &AtomicU64,
    started: Instant,
    done: &AtomicBool,
    input_of: &(impl Fn(usize) -> I + Sync),
) {
    while !done.load(Ordering::SeqCst) {
        std::thread::park_timeout(Duration::from_millis(200));
        let case = current.load(Ordering::SeqCst);
        let since = Duration::from_nanos(case_start.load(Ordering::SeqCst));
        if case != u64::MAX && started.elapsed().saturating_sub(since) > HANG_LIMIT {
            let message = format!("still running after {HANG_LIMIT:?} (a hang)");
            eprintln!("{}", report(name, seed(), case as usize, &input_of(case as usize), &message));
            std::process::exit(101);
        }
    }
}

fn report(name: &str, seed: u64, case: usize, input: &impl Debug, failure: &str) -> String {
    let shown = format!("{input:?}");
    let clipped: String = shown.chars().take(SHOWN).collect();
    let more = if clipped.len() < shown.len() { format!("... ({} bytes in all)", shown.len()) } else { String::new() };
    format!(
        "fuzz {name}: case {case} (VZERO_FUZZ_SEED={seed:#x}, VZERO_FUZZ_CASES={}) {failure}\ninput: {clipped}{more}",
        case + 1
    )
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}
