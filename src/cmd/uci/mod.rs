//! `vzero uci`: a UCI-shaped engine on standard input and output (see docs/protocol.md).
//!
//! One thread reads commands, the search runs on another, so `stop`, `isready` and `quit` are
//! answered while it searches.

mod engine;
#[cfg(test)]
mod fuzz;
mod info;
mod options;
mod protocol;

use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::anyhow;
use rules::Variant;

use crate::cli::UciArgs;
use crate::engine::{model_variant, ModelChoice};
use crate::line_input::{read_line, Line, MAX_LINE};

use engine::{Engine, Flow};
use options::Options;

/// Runs the engine until `quit` or the end of input.
pub fn run(args: UciArgs) -> anyhow::Result<()> {
    let variant = match (args.variant, &args.engine.model) {
        (Some(v), _) => v,
        (None, ModelChoice::Path(path)) => model_variant(path).map_err(|e| anyhow!("--model: {e}"))?,
        (None, _) => Variant::Glinski,
    };
    let inference = args.net.inference(1)?;
    let mut engine =
        Engine::new(Options::new(variant, args.engine.model), inference, Some(args.net.leaves), args.net.tactics())
            .map_err(|e| anyhow!("--model: {e}"))?;

    // The reader ends with the input; a `quit` leaves it blocked on a read, which the exit ends.
    let (tx, rx) = mpsc::channel::<Line>();
    std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut input = std::io::stdin().lock();
        // A line that is not UTF-8 or too long is a bad command, not the end of input.
        while let Ok(Some(line)) = read_line(&mut input, MAX_LINE) {
            if tx.send(line).is_err() {
                break;
            }
        }
    })?;
    let signal = crate::stop::on_stop_signal("now: a search ends with its bestmove, then the engine exits")?;
    loop {
        match rx.recv_timeout(SIGNAL_CHECK) {
            Ok(line) => {
                if engine.handle_line(line) == Flow::Quit {
                    break;
                }
            }
            // A signal is `quit`: the search (if any) prints its bestmove first.
            Err(RecvTimeoutError::Timeout) if signal.load(Ordering::Relaxed) => break,
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                engine.end_of_input(&signal);
                break;
            }
        }
    }
    engine.close();
    Ok(())
}

/// How often the command loop looks for a stop signal while it waits for input.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);
