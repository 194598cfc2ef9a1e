//! Watching runs: for each run directory under `--runs`, its latest iteration line (as the
//! trainer prints it), its gauntlet table (as `vzero gauntlet` prints it), its final evaluation
//! once it has one, its curves (the `vzero plot` chart) and its last self-play games, each a page
//! of `vzero replay`. Everything is read from the run directory on each request, so the page's
//! polling follows a run while it trains.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rules::{with_game, Variant};
use selfplay::gauntlet::gauntlet_table_from_log;
use selfplay::replay::read_shard;
use selfplay::store::events::EvaluationEvent;
use selfplay::{read_events, Config, RunDir};

use super::http::{Refusal, Response};
use super::wire::{RunEntry, RunGame, RunMatch, RunReply, RunsReply};
use crate::error_text::error_text;

/// Games listed per run: the newest.
const GAMES_LISTED: usize = 12;
/// Shards read for them, newest first (a shard holds one or more games).
const SHARDS_READ: usize = 12;

/// The runs found under `folders` (looked for again on each request, so a run started after
/// the server appears), and the folders themselves.
pub fn list(folders: &[PathBuf]) -> RunsReply {
    let runs = find_runs(folders)
        .iter()
        .map(|r| RunEntry {
            path: r.display().to_string(),
            name: r.file_name().map_or_else(|| r.display().to_string(), |n| n.to_string_lossy().into_owned()),
            variant: Config::load(&r.join("config.toml"), &[]).ok().map(|c| c.variant.name()),
        })
        .collect();
    RunsReply { folders: folders.iter().map(|f| f.display().to_string()).collect(), runs }
}

/// The run at `dir` as the page shows it. Only what is cheap to read again every few seconds of
/// a long run: its config, metrics.jsonl and newest shards (not every shard, as `runs status`
/// reads them).
pub fn view(dir: &Path) -> Result<RunReply, Refusal> {
    let text = |e: anyhow::Error| Refusal::Bad(error_text(&e));
    let run = RunDir::existing(dir).map_err(|e| Refusal::Bad(e.to_string()))?;
    let config = Config::load(&run.config(), &[])
        .with_context(|| format!("{} is not a run directory", dir.display()))
        .map_err(text)?;
    let variant = config.variant;
    let log = read_events(&std::fs::read_to_string(run.metrics()).unwrap_or_default());
    let last = log.iterations().next_back();
    let gauntlet = gauntlet_table_from_log(&log, None, None).map(|t| {
        let pairs = selfplay::gauntlet::head_to_head_from_log(&log, &t);
        crate::cmd::gauntlet::table_text(&t, &pairs, variant.name()).trim_start().to_string()
    });
    Ok(RunReply {
        variant: variant.name(),
        iteration: last.map(|it| it.progress_line()),
        iterations_done: last.map(|it| it.iteration),
        iterations: config.training.iterations,
        trainer_games: last.map(|it| it.games),
        finished: run.finished().exists(),
        last_error: log.last_error().map(|e| e.message.clone()),
        gauntlet,
        evaluation: log.final_evaluation().into_iter().map(run_match).collect(),
        games: last_games(&run, variant).map_err(text)?,
    })
}

/// One match of the final evaluation as the page shows it.
fn run_match(m: &EvaluationEvent) -> RunMatch {
    RunMatch {
        network: if m.network.is_empty() { "trained".into() } else { m.network.clone() },
        opponent: m.opponent.clone(),
        games: m.games,
        planned: m.games_planned,
        wins: m.network_wins,
        draws: m.draws,
        score: m.network_score,
        interrupted: m.interrupted,
    }
}

/// The newest games of the run, newest first: their shard, place in it, number, plies and scores.
fn last_games(run: &RunDir, variant: Variant) -> anyhow::Result<Vec<RunGame>> {
    let shards = run.shard_paths().with_context(|| format!("reading {}", run.replay().display()))?;
    let mut games = Vec::new();
    for path in shards.iter().rev().take(SHARDS_READ) {
        // A shard that does not read is left out here; `runs status` names it.
        let Ok(records) = read_shard(path) else { continue };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        for (index, g) in records.iter().enumerate().rev() {
            if g.variant != variant.name() {
                continue;
            }
            games.push(RunGame {
                shard: name.clone(),
                index,
                number: g.number & !selfplay::replay::EXTERNAL_GAME,
                plies: g.moves.len(),
                scores: g.scores.clone(),
                teacher: g.is_teacher(),
            });
            if games.len() == GAMES_LISTED {
                return Ok(games);
            }
        }
    }
    Ok(games)
}

/// The run's curves as `vzero plot` draws them.
pub fn plot(dir: &Path) -> Result<Response, Refusal> {
    let (svg, _) = crate::cmd::plot::run_curves(dir).map_err(|e| Refusal::NotFound(error_text(&e)))?;
    Ok(Response::text("image/svg+xml", svg))
}

/// Game `index` of the shard named `shard` in the run's replay folder, as the page `vzero
/// replay` writes.
pub fn game_page(dir: &Path, shard: &str, index: usize) -> Result<Response, Refusal> {
    let missing = |e: anyhow::Error| Refusal::NotFound(error_text(&e));
    let plain = !shard.is_empty()
        && shard.ends_with(".shard")
        && shard.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && !shard.starts_with('.');
    if !plain {
        return Err(Refusal::NotFound(format!(
            "shard '{shard}': expected the file name of one of the run's replay shards"
        )));
    }
    let path = RunDir::unchecked(dir).replay().join(shard);
    let (record, variant) = crate::game_file::load_game(&path, index, None).map_err(missing)?;
    let html = with_game!(variant, G => crate::cmd::replay::page::<G>(&record, 3)).map_err(missing)?;
    Ok(Response::text("text/html", html))
}

/// The run directories under `folders`: each folder that is a run (has a config.toml), else
/// its subfolders that are, by name.
pub fn find_runs(folders: &[PathBuf]) -> Vec<PathBuf> {
    let is_run = |p: &std::path::Path| RunDir::existing(p).is_ok();
    let mut runs = Vec::new();
    for folder in folders {
        if is_run(folder) {
            runs.push(folder.clone());
            continue;
        }
        let mut inside: Vec<PathBuf> = std::fs::read_dir(folder)
            .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| is_run(p)).collect())
            .unwrap_or_default();
        inside.sort();
        runs.extend(inside);
    }
    runs
}
