//! The run's own gauntlet (`[gauntlet]`): the newest checkpoint against fixed opponents every
//! few iterations, on the same scale `vzero gauntlet` extends.

use std::sync::atomic::AtomicBool;

use arena::players::{load_players, PlayerOptions, PlayerSpec};
use arena::uci::EngineBudget;
use rules::{Encoding, Material};

use super::anchors::{gauntlet_cost, run_anchors};
use super::play::{run_gauntlet, GauntletError, GauntletOptions};
use super::{CheckpointChoice, GauntletMatch};
use crate::config::Config;
use crate::store::events::read_events;
use crate::store::RunDir;

/// Starts each `uci:` opponent `[gauntlet]` names, checks that it answers, and lets it go: an
/// engine that cannot play is reported once when the run starts, before anything is written,
/// not after the first iteration's self-play.
pub(crate) fn check_engines<G: Encoding + Material>(config: &Config) -> Result<(), GauntletError> {
    let cfg = &config.gauntlet;
    if cfg.every == 0 {
        return Ok(());
    }
    let engines: Vec<PlayerSpec> = cfg
        .against
        .iter()
        .filter_map(|o| o.parse::<PlayerSpec>().ok())
        .filter(|spec| matches!(spec, PlayerSpec::Uci { .. }))
        .collect();
    if engines.is_empty() {
        return Ok(());
    }
    let opts = PlayerOptions {
        default_sims: cfg.simulations,
        leaves: None,
        engine_budget: EngineBudget::Nodes(cfg.simulations),
        inference: config.inference()?,
        tactics: mcts::Tactics::off(),
        reuse_trees: true,
        stop: None,
    };
    let players = load_players::<G>(&engines, opts)?;
    players.close();
    Ok(())
}

/// Whether the run's gauntlet is due after iteration `iteration`: every `every` iterations
/// (`gauntlet.every`; 0 never), and after the last (`complete`).
pub(crate) fn gauntlet_due(every: u32, iteration: u32, complete: bool) -> bool {
    every != 0 && (iteration.is_multiple_of(every) || complete)
}

/// Plays the run's gauntlet: the newest checkpoint against `[gauntlet]`'s opponents, each match
/// shown as it ends when `progress` is on; a stop request ends every search at once, abandoning
/// the games in progress and keeping the games played.
pub(crate) fn gauntlet_phase<G: Encoding + Material>(
    dir: &RunDir,
    config: &Config,
    inference: nn::Inference,
    stop: &'static AtomicBool,
    progress: bool,
) -> Result<(), GauntletError> {
    let cfg = &config.gauntlet;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = GauntletOptions {
        opponents: cfg.against.clone(),
        checkpoints: CheckpointChoice::Last,
        each_other: false,
        anchors: run_anchors(dir, cfg),
        games: cfg.games,
        // The config's own size: one checkpoint, its opponents, its games.
        max_games: usize::MAX,
        sims: cfg.simulations,
        // The default search, as `vzero gauntlet` plays it, so that the run's table and the
        // command's agree.
        tactics: mcts::Tactics::default(),
        leaves: None,
        reuse_trees: true,
        max_plies: config.selfplay.max_plies,
        adjudicate_material: config.selfplay.adjudicate_material,
        opening_plies: 2,
        // Training waits for the gauntlet: its games use every core, each network one thread.
        threads: cores.min(cfg.games).max(1),
        seed: config.seed,
        abandon: Some(stop),
    };
    let mut report = |g: &GauntletMatch| {
        if progress {
            let score = 100.0 * g.score / g.games.max(1) as f64;
            let cut =
                if g.interrupted { format!(" (interrupted: {} planned)", g.games_planned) } else { String::new() };
            let forfeits = g.forfeit_line().map_or_else(String::new, |line| format!("; {line}"));
            eprintln!(
                "gauntlet: {} vs {}: {score:.1}% of {} games in {:.0} s{cut}{forfeits}",
                g.player, g.opponent, g.games, g.wall_seconds
            );
        }
    };
    // The run's gauntlet is one checkpoint against a few opponents: its size is in the config.
    run_gauntlet::<G>(dir, &opts, inference, stop, &mut |_| {}, &mut report, &|_, _| false)?;
    if progress {
        let events = read_events(&std::fs::read_to_string(dir.metrics()).unwrap_or_default()).events;
        if let Some((seconds, share)) = gauntlet_cost(&events) {
            eprintln!("gauntlet: {seconds:.0} s in all, {:.1}% of the run's logged time", 100.0 * share);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gauntlet_is_due_every_few_iterations_and_after_the_last() {
        assert!(!gauntlet_due(0, 4, true), "every = 0 turns it off");
        let due: Vec<u32> = (1..=5).filter(|&i| gauntlet_due(2, i, i == 5)).collect();
        assert_eq!(due, [2, 4, 5]);
    }
}
