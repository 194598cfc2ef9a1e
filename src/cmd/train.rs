//! `vzero train`: a self-play training run from a config, or the continuation of one.

use std::path::PathBuf;

use anyhow::Context;
use rules::{with_game, FullGame};
use selfplay::run::{EvaluatedMatch, UNTRAINED};
use selfplay::store::events::{ErrorEvent, RunEvent};
use selfplay::Config;
use selfplay::RunDir;
use selfplay::TrainError;
use selfplay::{train, TrainOptions, TrainSummary};

use crate::cli::TrainArgs;

/// Runs training and prints the final evaluation table.
pub fn run(args: TrainArgs) -> anyhow::Result<()> {
    let (config_path, run_dir, resume) = match (&args.resume, &args.config) {
        (Some(dir), _) => (RunDir::existing(dir)?.config(), dir.clone(), true),
        (None, Some(path)) => (path.clone(), PathBuf::new(), false),
        (None, None) => unreachable!("clap requires --config or --resume"),
    };
    let mut overrides = args.overrides.clone();
    if let Some(seed) = args.seed {
        overrides.push(format!("seed={seed}"));
    }
    let config = Config::load(&config_path, &overrides)?;
    let run_dir =
        if resume { run_dir } else { args.run.clone().unwrap_or_else(|| default_run_dir(config.variant.name())) };
    if !resume {
        crate::output::refuse_nested_run(&run_dir)?;
    }
    // The same job line, requeued, finds its run: the same config resumes it; another is refused.
    let saved_config = RunDir::unchecked(&run_dir).config();
    let resume = resume || requeued(&config, &saved_config, &run_dir)?;
    let stop = crate::stop::on_stop_signal(
        "soon: finished games and the current training step are saved (self-play games in progress are \
         dropped and replayed on resume; the evaluation, cut short, is played again on resume)",
    )?;
    let opts = TrainOptions { run_dir, resume, progress: !args.quiet, stop };
    let summary = match with_game!(config.variant(), G => train_game::<G>(&config, &opts)) {
        Ok(summary) => summary,
        Err(err) => {
            log_error(&opts.run_dir, &err);
            return Err(err);
        }
    };
    if summary.already_complete {
        println!(
            "run {} was already complete ({} iterations); nothing to do (extend it with --resume and --set training.iterations=N)",
            opts.run_dir.display(),
            config.training.iterations
        );
    }
    println!(
        "run {}: {} games, {} training steps, checkpoint {}",
        opts.run_dir.display(),
        summary.games,
        summary.steps,
        summary.checkpoint.display()
    );
    if summary.interrupted {
        println!("stopped early; continue with: vzero train --resume {}", opts.run_dir.display());
    }
    if summary.evaluation_interrupted {
        println!(
            "the final evaluation was stopped by a signal, so the run is not finished; \
             play it again with: vzero train --resume {}",
            opts.run_dir.display()
        );
    }
    if !summary.evaluation.is_empty() {
        print_evaluation(&summary, config.evaluation.games);
    }
    Ok(())
}

/// Whether `vzero train --config` should resume the run already in `run_dir`: yes when its saved
/// config is this one, an error naming the differences when it is another.
fn requeued(config: &Config, saved: &std::path::Path, run_dir: &std::path::Path) -> anyhow::Result<bool> {
    if !saved.exists() {
        return Ok(false);
    }
    let before = Config::load(saved, &[])?;
    let differences = before.differences(config);
    if !differences.is_empty() {
        anyhow::bail!(
            "{} holds a run with another config ({}); continue it with --resume, or choose another --run",
            run_dir.display(),
            differences.join("; ")
        );
    }
    eprintln!("vzero train: {} holds this config's run; resuming it", run_dir.display());
    Ok(true)
}

/// `runs/<variant>-<unix seconds>`: a new folder per run, in start order.
fn default_run_dir(variant: &str) -> PathBuf {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    PathBuf::from(format!("runs/{variant}-{secs}"))
}

/// Records a failure in the run's metrics, where `vzero runs status` shows it (if the run
/// directory exists; the error is reported on stderr anyway).
fn log_error(run_dir: &std::path::Path, err: &anyhow::Error) {
    // A trainer refused before the run opened (another holds it, the config does not fit its
    // checkpoints) never touched it: the run is healthy, and its metrics are not this one's.
    if err.downcast_ref::<TrainError>().is_some_and(TrainError::is_refusal) {
        return;
    }
    let dir = RunDir::unchecked(run_dir);
    if dir.config().exists() {
        let _ = dir.log_event(&RunEvent::Error(ErrorEvent { message: crate::error_text::error_text(err) }));
    }
}

/// Trains game `G`, naming the run directory in an error.
fn train_game<G: FullGame>(config: &Config, opts: &TrainOptions) -> anyhow::Result<TrainSummary> {
    train::<G>(config, opts).with_context(|| format!("training in {}", opts.run_dir.display()))
}

/// The final evaluation's table: per baseline, the trained network's games, results, score and
/// Elo with its 95% interval, and beside them the untrained network's score and Elo where it
/// played. A match cut short shows the games it played of the `planned`. Games the network
/// neither won, drew nor lost (a Glinski stalemate, Wellisch's split points) get a `partial`
/// column when there are any.
fn print_evaluation(summary: &TrainSummary, planned: usize) {
    let trained: Vec<&EvaluatedMatch> = summary.evaluation.iter().filter(|m| m.network.is_empty()).collect();
    let untrained =
        |opponent: &str| summary.evaluation.iter().find(|m| m.network == UNTRAINED && m.opponent == opponent);
    let with_untrained = summary.evaluation.iter().any(|m| m.network == UNTRAINED);
    let with_partial = trained.iter().any(|m| m.result.partial(0) > 0);
    let partial_column = |p: String| if with_partial { format!(" {p:>7}") } else { String::new() };
    let untrained_column = |p: String| if with_untrained { format!("  {p}") } else { String::new() };
    println!(
        "{:<22} {:>9} {:>6} {:>6} {:>6}{} {:>8} {:>22}{}",
        "network vs",
        "games",
        "wins",
        "draws",
        "losses",
        partial_column("partial".to_string()),
        "score",
        "Elo [95% interval]",
        untrained_column(format!("{:>8} {:>22}", "step 0", "Elo [95% interval]"))
    );
    for m in trained {
        let r = &m.result;
        let (games, note) = if r.games < planned {
            (format!("{}/{planned}", r.games), "  (interrupted)")
        } else {
            (r.games.to_string(), "")
        };
        let before = untrained(&m.opponent).map_or_else(
            || format!("{:>8} {:>22}", "-", ""),
            |u| format!("{:>7.1}% {:>22}", 100.0 * u.result.mean_score(0), elo_text(&u.result)),
        );
        println!(
            "{:<22} {:>9} {:>6} {:>6} {:>6}{} {:>7.1}% {:>22}{}{note}",
            m.opponent,
            games,
            r.wins[0],
            r.draws,
            r.losses[0],
            partial_column(r.partial(0).to_string()),
            100.0 * r.mean_score(0),
            elo_text(r),
            untrained_column(before),
        );
    }
}

/// `+63 [-6, +131]`: the first seat's Elo over its opponents with the 95% interval.
fn elo_text(result: &arena::MatchResult) -> String {
    let e = arena::rating::elo_estimate(&result.first_scores);
    format!("{:+.0} [{:+.0}, {:+.0}]", e.elo, e.low, e.high)
}
