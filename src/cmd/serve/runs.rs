//! Watching runs: for each run directory under `--runs`, its latest iteration line (as the
//! trainer prints it), its gauntlet table (as `vzero gauntlet` prints it), its curves (the `vzero
//! plot` chart) and its last self-play games, each a page of `vzero replay`. Everything is read from the run directory on each request, so the page's
//! polling follows a run while it trains.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rules::{with_game, Variant};
use selfplay::gauntlet::gauntlet_table_from_log;
use selfplay::replay::read_shard;
use selfplay::{read_events, Config, RunDir};
use serde_json::{json, Value};

use super::api::Response;

/// Games listed per run: the newest.
const GAMES_LISTED: usize = 12;
/// Shards read for them, newest first (a shard holds one or more games).
const SHARDS_READ: usize = 12;

/// The runs found under `folders`.
pub fn list(folders: &[PathBuf]) -> Response {
    let runs: Vec<Value> = super::find_runs(folders)
        .iter()
        .map(|r| {
            let name = r.file_name().map_or_else(|| r.display().to_string(), |n| n.to_string_lossy().into_owned());
            let variant = Config::load(&r.join("config.toml"), &[]).ok().map(|c| c.variant.name().to_string());
            json!({"path": r.display().to_string(), "name": name, "variant": variant})
        })
        .collect();
    Response::json(&json!({ "runs": runs }))
}

/// The run at `dir` as the page shows it. Only what is cheap to read again every few seconds of
/// a long run: its config, metrics.jsonl and newest shards (not every shard, as `runs status`
/// reads them).
pub fn view(dir: &Path) -> Result<Response, String> {
    let text = |e: anyhow::Error| crate::error_text::error_text(&e);
    let run = RunDir::existing(dir).map_err(|e| e.to_string())?;
    let config = Config::load(&run.config(), &[])
        .with_context(|| format!("{} is not a run directory", dir.display()))
        .map_err(text)?;
    let variant = config.variant;
    let log = read_events(&std::fs::read_to_string(run.metrics()).unwrap_or_default());
    let last = log.iterations().next_back();
    let gauntlet = gauntlet_table_from_log(&log, None, None)
        .map(|t| crate::cmd::gauntlet::table_text(&t, variant.name()).trim_start().to_string());
    Ok(Response::json(&json!({
        "variant": variant.name(),
        "iteration": last.map(|it| it.progress_line()),
        "iterations_done": last.map(|it| it.iteration),
        "iterations": config.training.iterations,
        "trainer_games": last.map(|it| it.games),
        "finished": run.finished().exists(),
        "last_error": log.last_error().map(|e| e.message.clone()),
        "gauntlet": gauntlet,
        "games": last_games(&run, variant).map_err(text)?,
    })))
}

/// The newest games of the run, newest first: their shard, place in it, number, plies and scores.
fn last_games(run: &RunDir, variant: Variant) -> anyhow::Result<Vec<Value>> {
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
            games.push(json!({
                "shard": name,
                "index": index,
                "number": g.number & !selfplay::replay::EXTERNAL_GAME,
                "plies": g.moves.len(),
                "scores": g.scores,
                "teacher": g.is_teacher(),
            }));
            if games.len() == GAMES_LISTED {
                return Ok(games);
            }
        }
    }
    Ok(games)
}

/// The run's curves as `vzero plot` draws them.
pub fn plot(dir: &Path) -> Result<Response, String> {
    let (svg, _) = crate::cmd::plot::run_curves(dir).map_err(|e| crate::error_text::error_text(&e))?;
    Ok(Response::text("image/svg+xml", svg))
}

/// Game `index` of the shard named `shard` in the run's replay folder, as the page `vzero
/// replay` writes.
pub fn game_page(dir: &Path, shard: &str, index: usize) -> Result<Response, String> {
    let plain = !shard.is_empty()
        && shard.ends_with(".shard")
        && shard.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && !shard.starts_with('.');
    if !plain {
        return Err(format!("shard '{shard}': expected the file name of one of the run's replay shards"));
    }
    let path = RunDir::unchecked(dir).replay().join(shard);
    let (record, variant) =
        crate::game_file::load_game(&path, index, None).map_err(|e| crate::error_text::error_text(&e))?;
    let html = with_game!(variant, G => crate::cmd::replay::page::<G>(&record, 3))
        .map_err(|e| crate::error_text::error_text(&e))?;
    Ok(Response::text("text/html", html))
}
