//! The training run: iterations of self-play, training and checkpointing in a run directory.
//!
//! Each iteration plays `games_per_iteration` games with the current network (workers
//! interleave games; one inference thread batches their leaves), stores them as a shard,
//! trains on the replay window until each new position has been sampled about
//! `samples_per_position` times, saves a checkpoint and hands the new weights to inference.
//! Every random choice derives from the config's seed and a counter (game number, step), so a
//! run is reproducible and resumes exactly. [`Run`] holds the run's state and does each phase.

use rules::{Encoding, Material};

use super::evaluation::Evaluation;
use super::{Run, TrainOptions, TrainSummary};
use crate::config::Config;
use crate::error::TrainError;
use crate::gauntlet::check_engines;

/// Runs (or resumes) training for game `G`.
pub fn train<G: Encoding + Material>(config: &Config, opts: &TrainOptions) -> Result<TrainSummary, TrainError> {
    let refused = |e: TrainError| TrainError::NotOpened(Box::new(e));
    check_engines::<G>(config).map_err(|e| refused(e.into()))?;
    let mut run = Run::<G>::open(config, opts).map_err(refused)?;
    let iterations_done = run.complete();
    if iterations_done && run.evaluated() {
        // A requeued job or a repeated command: the final evaluation is not played again.
        run.mark_finished()?;
        // The evaluation was whole when it was played: nothing was stopped now.
        let played_before = Evaluation { complete: true, ..Evaluation::default() };
        return Ok(TrainSummary { already_complete: true, ..run.finish(played_before, false) });
    }
    run.mark_unfinished()?;
    // After the mark is withdrawn: a run that cannot go on is not finished for its new target.
    run.check_replay()?;
    let mut interrupted = !run.warm_start()?;
    while !interrupted && !run.complete() {
        let played = run.self_play()?;
        if run.stop_requested() {
            // The network has not changed since the last checkpoint, which stays the latest.
            interrupted = true;
            break;
        }
        let trained = run.learn()?;
        interrupted = !trained.complete;
        run.checkpoint(trained.complete)?;
        run.promote(trained.complete)?;
        run.record(&played, &trained)?;
        if interrupted {
            break;
        }
        run.gauntlet_if_due()?;
    }
    if interrupted {
        return Ok(run.finish(Evaluation::default(), true));
    }
    if iterations_done {
        // Resumed after every iteration, the final evaluation stopped or killed: the last
        // gauntlet plays any games it lacks, then the evaluation is played again.
        run.gauntlet_if_due()?;
    }
    let evaluation = run.evaluate()?;
    // Finished only once the evaluation is whole, so a resume after a stop plays it again.
    if evaluation.complete {
        run.mark_finished()?;
    }
    Ok(run.finish(evaluation, false))
}
