//! The run's own gauntlet (`[gauntlet]`): the newest checkpoint against fixed opponents every
//! few iterations, on the same scale `vzero gauntlet` extends.

use rules::{Encoding, Material};

use super::Run;
use crate::error::TrainError;
use crate::gauntlet::{run_gauntlet, CheckpointChoice, GauntletOptions};

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
            tactics: 0.0,
            leaves: None,
            max_plies: self.config.selfplay.max_plies,
            opening_plies: 2,
            threads: 1,
            seed: self.config.seed,
        };
        let progress = self.progress;
        let mut report = |g: &crate::gauntlet::GauntletMatch| {
            if progress {
                let score = 100.0 * g.score / g.games.max(1) as f64;
                eprintln!("gauntlet: {} vs {}: {score:.1}% of {} games", g.player, g.opponent, g.games);
            }
        };
        run_gauntlet::<G>(&self.dir, &opts, self.inference, &self.stop, &mut report)?;
        Ok(())
    }
}
