//! Stop signals shared by the long-running commands: Ctrl-C (SIGINT), SIGTERM (what Slurm and
//! Kubernetes send before they kill a job) and SIGHUP all mean "finish the current step, save,
//! exit"; a second one aborts at once, unless it came within [`SAME_REQUEST`] of the first.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::Context;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// Exit status of a command that a stop signal ended early after it saved its work: a job
/// script requeues on it (0 means finished, 1 failed, 2 bad usage).
pub const EXIT_STOPPED: u8 = 3;

/// Exit status of a second stop signal, which aborts without saving (128 + SIGINT, as shells do).
const EXIT_ABORTED: i32 = 130;

/// The signals that ask a command to stop.
const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// When the first stop signal arrived, in nanoseconds of the monotonic clock (0: none yet).
/// Kept inside the signal handler itself, not on a thread the handler wakes: a second signal
/// then aborts even if the command is in the middle of exiting on its own after the first.
static FIRST_AT: AtomicU64 = AtomicU64::new(0);

/// A second signal this soon after the first is the same request from a second sender, not a
/// person asking to abort: `timeout` forwarding the SIGTERM that Slurm also sent vzero, or a
/// `kill` of the process group that reaches a wrapper and vzero together. Aborting on it would
/// throw away the save the first signal began. Someone who means to abort reads the first
/// message before signalling again, which takes longer.
const SAME_REQUEST: Duration = Duration::from_secs(1);

/// The monotonic clock in nanoseconds, read in a way that is safe inside a signal handler
/// (`clock_gettime` is async-signal-safe; `Instant::now` is not documented to be).
fn monotonic_nanos() -> u64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `now` is a valid, writable timespec; CLOCK_MONOTONIC is always available on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
}

/// The flag the first stop signal sets; one per process, since a signal handler is.
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// A flag that the first stop signal sets (the command then finishes its step, saves and
/// exits); a later one, [`SAME_REQUEST`] or more after the first, exits at once. `then` says
/// what the command does on the first, as `vzero: stopping THEN (send the signal again to
/// abort)`.
pub fn on_stop_signal(then: &'static str) -> anyhow::Result<Arc<AtomicBool>> {
    let mut installed = Ok(());
    let stop = STOP.get_or_init(|| {
        let stop = Arc::new(AtomicBool::new(false));
        installed = install(Arc::clone(&stop), then);
        stop
    });
    installed.context("installing the stop-signal handler")?;
    Ok(Arc::clone(stop))
}

/// [`on_stop_signal`]'s flag as a reference for the life of the process, for players that
/// outlive any one borrow (the arena's, whose searches end at once when it is set).
pub fn on_stop_signal_static(then: &'static str) -> anyhow::Result<&'static AtomicBool> {
    on_stop_signal(then)?;
    Ok(STOP.get().expect("the flag was just made").as_ref())
}

/// Registers the counting handler for every stop signal, and a thread that says what the first
/// one does (printing is not safe inside a signal handler).
fn install(stop: Arc<AtomicBool>, then: &'static str) -> std::io::Result<()> {
    for signal in STOP_SIGNALS {
        let flag = Arc::clone(&stop);
        // SAFETY: the action only touches atomics and calls `clock_gettime` and `abort_now`'s
        // `write`, `ftruncate` and `_exit`, all async-signal-safe. `_exit`, not `exit`: running
        // atexit handlers and static destructors while libtorch's threads still use them is
        // what made a second Ctrl-C segfault.
        unsafe {
            signal_hook::low_level::register(signal, move || {
                // One exchange, so that two signals handled at once on two threads cannot both
                // see themselves as the first, nor the second see no first yet.
                let now = monotonic_nanos().max(1);
                let first = match FIRST_AT.compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst) {
                    Ok(_) => now,
                    Err(earlier) => earlier,
                };
                if now.saturating_sub(first) >= SAME_REQUEST.as_nanos() as u64 {
                    abort_now();
                }
                flag.store(true, Ordering::SeqCst);
            })?;
        }
    }
    let mut signals = signal_hook::iterator::Signals::new(STOP_SIGNALS)?;
    std::thread::Builder::new().name("stop-signal".into()).spawn(move || {
        if signals.forever().next().is_some() {
            eprintln!("vzero: stopping {then} (send the signal again to abort)");
        }
    })?;
    Ok(())
}

/// What an abort says: printed from inside the signal handler, so fixed text.
const ABORT_MESSAGE: &[u8] =
    b"vzero: aborted by a second signal: nothing more is saved (what was saved before stays)\n";

/// Ends the process at once on a second stop signal: says so, releases the run's trainer lock
/// (emptying it, as a clean exit does, so the next trainer does not report a dead one) and
/// exits with [`EXIT_ABORTED`]. Only async-signal-safe calls: `write`, `ftruncate`, `_exit`.
fn abort_now() -> ! {
    // SAFETY: writing a static buffer to stderr and truncating an open descriptor are
    // async-signal-safe; a failure of either changes nothing about the exit.
    unsafe {
        libc::write(libc::STDERR_FILENO, ABORT_MESSAGE.as_ptr().cast(), ABORT_MESSAGE.len());
        if let Some(fd) = selfplay::store::held_lock_fd() {
            libc::ftruncate(fd, 0);
        }
        libc::_exit(EXIT_ABORTED)
    }
}

/// Whether a stop signal has arrived in this process.
pub fn stop_requested() -> bool {
    STOP.get().is_some_and(|stop| stop.load(Ordering::Relaxed))
}

/// Set by a command whose normal end is a stop signal (a server): it then exits 0, not
/// [`EXIT_STOPPED`], since nothing was left unfinished.
static SIGNAL_IS_THE_END: AtomicBool = AtomicBool::new(false);

/// Declares that this command ends normally on a stop signal: `vzero serve` runs until it is
/// told to stop, and a service manager's SIGTERM is then a success, not work cut short.
pub fn signal_is_the_end() {
    SIGNAL_IS_THE_END.store(true, Ordering::Relaxed);
}

/// Whether the command ended early because of a stop signal: one arrived, and the command
/// does not end on one normally ([`signal_is_the_end`]).
pub fn stopped_early() -> bool {
    stop_requested() && !SIGNAL_IS_THE_END.load(Ordering::Relaxed)
}
