//! Stop signals shared by the long-running commands: Ctrl-C (SIGINT), SIGTERM (what Slurm and
//! Kubernetes send before they kill a job) and SIGHUP all mean "finish the current step, save,
//! exit"; a second one aborts at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use anyhow::Context;

/// Exit status of a command that a stop signal ended early after it saved its work: a job
/// script requeues on it (0 means finished, 1 failed, 2 bad usage).
pub const EXIT_STOPPED: u8 = 3;

/// Exit status of a second stop signal, which aborts without saving (128 + SIGINT, as shells do).
const EXIT_ABORTED: i32 = 130;

/// The flag the first stop signal sets; one per process, since a signal handler is.
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// A flag that the first stop signal sets (the command then finishes its step, saves and
/// exits); a second signal exits at once.
pub fn on_stop_signal() -> anyhow::Result<Arc<AtomicBool>> {
    if let Some(stop) = STOP.get() {
        return Ok(Arc::clone(stop));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            // `_exit`, not `exit`: running atexit handlers and static destructors while
            // libtorch's threads still use them is what made a second Ctrl-C segfault.
            // SAFETY: _exit only ends the process; it touches no Rust state.
            unsafe { libc::_exit(EXIT_ABORTED) };
        }
        eprintln!("vzero: stopping after the current step (send the signal again to abort)");
    })
    .context("installing the stop-signal handler")?;
    Ok(Arc::clone(STOP.get_or_init(|| stop)))
}

/// Whether a stop signal has arrived in this process.
pub fn stop_requested() -> bool {
    STOP.get().is_some_and(|stop| stop.load(Ordering::Relaxed))
}
