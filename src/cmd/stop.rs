//! Ctrl-C handling shared by the long-running commands.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;

/// A flag that the first Ctrl-C sets (the command then finishes its step, saves and exits);
/// a second Ctrl-C exits at once.
pub fn on_ctrl_c() -> anyhow::Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!("vzero: stopping after the current step (Ctrl-C again to abort)");
    })
    .context("installing the Ctrl-C handler")?;
    Ok(stop)
}
