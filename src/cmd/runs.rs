//! `vzero runs status`: run directories at a glance, as text or as one JSON object per run.

use super::run_status::RunStatus;
use crate::cli::{RunsAction, RunsArgs};

/// Runs the chosen action.
pub fn run(args: RunsArgs) -> anyhow::Result<()> {
    match args.action {
        RunsAction::Status { dirs, json } => {
            for (i, dir) in dirs.iter().enumerate() {
                let status = RunStatus::gather(dir)?;
                if json {
                    println!("{}", serde_json::to_string(&status)?);
                } else {
                    if i > 0 {
                        println!();
                    }
                    print_text(&status);
                }
            }
            Ok(())
        }
    }
}

fn print_text(s: &RunStatus) {
    println!("run          {}", s.run.display());
    println!("variant      {} ({} blocks x {} channels)", s.variant, s.blocks, s.channels);
    let skipped = if s.skipped_shards > 0 {
        format!(", {} skipped (unreadable, foreign or inconsistent)", s.skipped_shards)
    } else {
        String::new()
    };
    let teacher = if s.teacher_games > 0 { format!(", {} by the teacher", s.teacher_games) } else { String::new() };
    println!(
        "games        {} ({} by the trainer, {} by selfplay processes{teacher}) in {} shards{skipped}",
        s.games, s.trainer_games, s.external_games, s.shards
    );
    let teacher =
        if s.teacher_games > 0 { format!(" ({} labelled by the teacher)", s.teacher_positions) } else { String::new() };
    println!("positions    {}{teacher}", s.positions);
    match (&s.checkpoint, s.step, s.iteration) {
        (Some(checkpoint), Some(step), Some(iteration)) => {
            let finished = if s.finished { ", finished" } else { "" };
            println!("steps        {step} (iteration {iteration} of {}{finished})", s.iterations);
            println!("checkpoint   {}", checkpoint.display());
        }
        _ if s.skipped_checkpoints.is_empty() => println!("checkpoint   none yet"),
        _ => println!("checkpoint   none usable"),
    }
    for skipped in &s.skipped_checkpoints {
        println!("skipped      {} ({})", skipped.checkpoint.display(), skipped.reason);
    }
    if let Some(it) = &s.last_iteration {
        // A loss is `null` for an iteration without training steps, as in metrics.jsonl.
        let loss = |l: Option<f64>| l.map_or_else(|| "null".to_string(), |v| format!("{v:.3}"));
        println!(
            "last iter.   {:.0} games/h, {:.0} positions/s, batch {:.1}, policy loss {}, value loss {}",
            it.games_per_hour,
            it.positions_per_second,
            it.mean_batch,
            loss(it.policy_loss),
            loss(it.value_loss)
        );
    }
    println!("last error   {}", s.last_error.as_deref().unwrap_or("none"));
}
