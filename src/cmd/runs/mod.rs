//! `vzero runs status` and `vzero runs endings`: run directories at a glance, and how their
//! games ended, as text or as one JSON object per run.

mod endings;
mod status;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cli::{RunsAction, RunsArgs};
use endings::RunEndings;
use status::RunStatus;

/// Runs the chosen action.
pub fn run(args: RunsArgs) -> anyhow::Result<()> {
    match args.action {
        RunsAction::Status(runs) => each_run(&runs.dirs, runs.json, RunStatus::gather, print_text),
        RunsAction::Endings { every, runs } => {
            each_run(&runs.dirs, runs.json, |dir| RunEndings::gather(dir, every), print_endings)
        }
    }
}

/// What `gather` reports of each of `dirs`, printed by `print` (a blank line between runs) or
/// as one JSON object per run and line. A folder that cannot be read is named on standard error
/// and the others are still reported; the command then fails, saying how many could not be
/// (one folder's error is the command's own).
fn each_run<T: Serialize>(
    dirs: &[PathBuf],
    json: bool,
    gather: impl Fn(&Path) -> anyhow::Result<T>,
    print: fn(&T),
) -> anyhow::Result<()> {
    let mut failed = 0;
    let mut printed = 0;
    for dir in dirs {
        let report = match gather(dir) {
            Ok(report) => report,
            Err(e) if dirs.len() == 1 => return Err(e),
            Err(e) => {
                eprintln!("vzero: {}", crate::clip::clip_quotes(&crate::error_text::error_text(&e)));
                failed += 1;
                continue;
            }
        };
        if json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            if printed > 0 {
                println!();
            }
            print(&report);
        }
        printed += 1;
    }
    if failed > 0 {
        anyhow::bail!("{failed} of the {} run directories could not be read", dirs.len());
    }
    Ok(())
}

fn print_endings(e: &RunEndings) {
    println!("run {}: how its games ended", e.run.display());
    let mut names: Vec<&str> = e.groups.iter().flat_map(|g| g.endings.keys().map(String::as_str)).collect();
    names.sort_unstable();
    names.dedup();
    let width = names.iter().map(|n| n.len().max(6)).collect::<Vec<_>>();
    print!("{:<22} {:>7} {:>6} {:>6}", "games", "count", "plies", "draws");
    for (n, w) in names.iter().zip(&width) {
        print!("  {n:>w$}");
    }
    println!();
    for g in &e.groups {
        print!(
            "{:<22} {:>7} {:>6.0} {:>5.0}%",
            g.games,
            g.count,
            g.mean_plies,
            100.0 * g.draws as f64 / g.count as f64
        );
        for (n, w) in names.iter().zip(&width) {
            print!("  {:>w$}", g.endings.get(*n).copied().unwrap_or(0));
        }
        println!();
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
        _ if s.skipped_checkpoints.is_empty() && s.set_aside_checkpoints.is_empty() => {
            println!("checkpoint   none yet")
        }
        _ => {
            println!("checkpoint   none usable: the run cannot resume (put a good checkpoint back, or start a new run)")
        }
    }
    for skipped in &s.skipped_checkpoints {
        println!("skipped      {} ({})", skipped.checkpoint.display(), skipped.reason);
    }
    for set_aside in &s.set_aside_checkpoints {
        println!("set aside    {} (found unusable by a resume)", set_aside.display());
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
