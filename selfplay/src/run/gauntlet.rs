//! The run's own gauntlet (`[gauntlet]`): the newest checkpoint against fixed opponents every
//! few iterations, on the same scale `vzero gauntlet` extends.

use arena::players::{load_players, PlayerOptions, PlayerSpec};
use arena::uci::EngineBudget;
use rules::{Encoding, Material};

use super::Run;
use crate::config::Config;
use crate::error::TrainError;
use crate::gauntlet::{run_gauntlet, CheckpointChoice, GauntletError, GauntletOptions};

/// Starts each `uci:` opponent `[gauntlet]` names, checks that it answers, and lets it go: an
/// engine that cannot play is reported once when the run starts, before anything is written,
/// not after the first iteration's self-play.
pub(crate) fn check_engines<G: Encoding + Material>(config: &Config) -> Result<(), TrainError> {
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
        tactics: alphabeta::Tactics::default(),
        reuse_trees: true,
    };
    let players = load_players::<G>(&engines, opts).map_err(GauntletError::from)?;
    players.close();
    Ok(())
}

impl<G: Encoding + Material> Run<G> {
    /// Plays the gauntlet if this iteration is due one (every `gauntlet.every` iterations and
    /// after the last); a stop request ends it between games, keeping the games played.
    pub fn gauntlet_if_due(&self) -> Result<(), TrainError> {
        let cfg = &self.config.gauntlet;
        let iteration = self.state.iteration;
        if cfg.every == 0 || (!iteration.is_multiple_of(cfg.every) && !self.complete()) {
            return Ok(());
        }
        let opts = GauntletOptions {
            opponents: cfg.against.clone(),
            checkpoints: CheckpointChoice::Last,
            each_other: false,
            games: cfg.games,
            sims: cfg.simulations,
            tactics: alphabeta::Tactics::default(),
            leaves: None,
            reuse_trees: true,
            max_plies: self.config.selfplay.max_plies,
            opening_plies: 2,
            threads: 1,
            seed: self.config.seed,
        };
        let progress = self.progress;
        let mut report = |g: &crate::gauntlet::GauntletMatch| {
            if progress {
                let score = 100.0 * g.score / g.games.max(1) as f64;
                let cut =
                    if g.interrupted { format!(" (interrupted: {} planned)", g.games_planned) } else { String::new() };
                eprintln!("gauntlet: {} vs {}: {score:.1}% of {} games{cut}", g.player, g.opponent, g.games);
            }
        };
        run_gauntlet::<G>(&self.dir, &opts, self.inference, &self.stop, &mut report)?;
        Ok(())
    }
}
