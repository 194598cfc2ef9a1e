//! After training: the checkpoint, and which network self-play uses next (with gating, only a
//! network that beats the best so far).

use std::path::PathBuf;

use rules::Encoding;

use super::Run;
use crate::error::TrainError;
use crate::gauntlet::run_anchors;
use crate::run::gating::gate;
use crate::setup::load_into_service;
use crate::store::rundir::RunIoError;
use nn::checkpoint;

impl<G: Encoding> Run<G> {
    /// Saves the network, optimizer and counters as a checkpoint of the current step; a network
    /// with a non-finite weight is never saved (it would be resumed, exported and played).
    pub(super) fn save_checkpoint(&self) -> Result<PathBuf, TrainError> {
        if let Some(name) = self.net.non_finite_weight() {
            return Err(TrainError::Diverged { step: self.state.step, what: format!("weight {name} is not finite") });
        }
        let saved = checkpoint::save_checkpoint(&self.dir.checkpoints(), &self.net, &self.trainer, &self.state)?;
        self.prune_checkpoints()?;
        Ok(saved)
    }

    /// Deletes all but the newest `training.keep_checkpoints` checkpoints, the best one and those
    /// the run's gauntlet will play again (its teacher-only anchor, the last it measured).
    fn prune_checkpoints(&self) -> Result<(), TrainError> {
        let keep = self.config.training.keep_checkpoints;
        if keep == 0 {
            return Ok(());
        }
        let anchors =
            if self.config.gauntlet.every > 0 { run_anchors(&self.dir, &self.config.gauntlet) } else { vec![] };
        let kept = |p: &PathBuf| *p == self.best || anchors.iter().any(|(_, a)| a == p);
        let all = checkpoint::list_checkpoints(&self.dir.checkpoints())?;
        let old = all.len().saturating_sub(keep);
        for path in all.into_iter().take(old).filter(|p| !kept(p)) {
            std::fs::remove_dir_all(&path).map_err(|source| RunIoError { path, source })?;
        }
        Ok(())
    }

    /// Counts the iteration if its training was `complete` and saves the latest checkpoint (an
    /// interrupted iteration is repeated from its checkpoint on `--resume`).
    pub fn checkpoint(&mut self, complete: bool) -> Result<(), TrainError> {
        if complete {
            self.state.iteration += 1;
        }
        self.latest = self.save_checkpoint()?;
        Ok(())
    }

    /// Hands the latest network to self-play; with gating, only after a `complete` iteration and
    /// if it wins its gating match against the best so far (which the match logs).
    pub fn promote(&mut self, complete: bool) -> Result<(), TrainError> {
        if self.config.gating.games == 0 {
            self.best = self.latest.clone();
            load_into_service(&self.client, &self.best)?;
        } else if complete
            && gate::<G>(&self.config, &self.dir, self.inference, &self.latest, &self.best, &self.client)?
        {
            self.best = self.latest.clone();
            self.dir.write_best(&self.best)?;
            load_into_service(&self.client, &self.best)?;
        }
        Ok(())
    }
}
