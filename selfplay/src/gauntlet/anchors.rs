//! The checkpoints a run's own gauntlet plays besides its fixed opponents
//! (`gauntlet.each_other`, `gauntlet.against_teacher`): the learning curve's two head-to-head
//! lines, drawn as the run trains.

use std::path::{Path, PathBuf};

use nn::checkpoint::{checkpoint_dir, list_checkpoints};

use super::play::folder_name;
use crate::config::GauntletConfig;
use crate::store::events::{read_events, RunEvent};
use crate::store::rundir::RunDir;

/// The name the teacher-only checkpoint's matches are logged under: `teacher-only step-N`, not
/// the folder's bare name, which `vzero plot` reads as the checkpoint before.
fn teacher_anchor_name(folder: &Path) -> String {
    format!("teacher-only {}", folder_name(folder))
}

/// The checkpoints the newest of `checkpoints` (oldest first, as listed) plays besides the
/// fixed opponents, each with its logged name, from the run's `events`: with `against_teacher`
/// the teacher-only checkpoint (after the steps of the run's pretraining, `teacher_step`); with
/// `each_other` the newest checkpoint an earlier gauntlet measured, or, at the first, the one the
/// curve starts from (the teacher-only checkpoint, or the untrained network of a run without a
/// teacher). A checkpoint is played once, under its first name, and never against itself.
fn gauntlet_anchors(
    cfg: &GauntletConfig,
    checkpoints: &[PathBuf],
    teacher_step: Option<u64>,
    measured: &[String],
) -> Vec<(String, PathBuf)> {
    let Some(newest) = checkpoints.last() else { return Vec::new() };
    let teacher = teacher_step.and_then(|step| {
        let parent = newest.parent()?;
        let path = checkpoint_dir(parent, step);
        checkpoints.contains(&path).then_some(path)
    });
    let mut out: Vec<(String, PathBuf)> = Vec::new();
    if cfg.against_teacher {
        if let Some(path) = &teacher {
            out.push((teacher_anchor_name(path), path.clone()));
        }
    }
    if cfg.each_other {
        let earlier = measured
            .iter()
            .rev()
            .filter_map(|name| checkpoints.iter().find(|p| folder_name(p) == *name))
            .find(|p| *p != newest);
        if let Some(path) = earlier.or(teacher.as_ref()).or(checkpoints.first()) {
            if !out.iter().any(|(_, p)| p == path) {
                out.push((folder_name(path), path.clone()));
            }
        }
    }
    out.retain(|(_, path)| path != newest);
    out
}

/// [`gauntlet_anchors`] for the run in `dir` as it stands: its checkpoints on disk, the step its
/// pretraining ended at and the checkpoints its gauntlets measured, from its metrics.jsonl.
pub(crate) fn run_anchors(dir: &RunDir, cfg: &GauntletConfig) -> Vec<(String, PathBuf)> {
    if !cfg.each_other && !cfg.against_teacher {
        return Vec::new();
    }
    let checkpoints = list_checkpoints(&dir.checkpoints()).unwrap_or_default();
    let events = read_events(&std::fs::read_to_string(dir.metrics()).unwrap_or_default()).events;
    let mut teacher_step = None;
    let mut measured = Vec::new();
    for event in events {
        match event {
            RunEvent::Pretrain(p) => teacher_step = Some(p.step),
            RunEvent::Gauntlet(g) => measured.push(g.player),
            _ => {}
        }
    }
    gauntlet_anchors(cfg, &checkpoints, teacher_step, &measured)
}

/// Seconds the run's gauntlet matches in `events` took, and their share of the run's wall time
/// as its events count it (teacher, pretraining, iterations and gauntlets): what rating the run
/// beside its training costs. `None` before any match that recorded its time.
pub(super) fn gauntlet_cost(events: &[RunEvent]) -> Option<(f64, f64)> {
    let (mut gauntlet, mut rest) = (0.0, 0.0);
    for event in events {
        match event {
            RunEvent::Gauntlet(g) => gauntlet += g.wall_seconds,
            RunEvent::Iteration(i) => rest += i.selfplay_seconds + i.train_seconds,
            RunEvent::Teacher(t) => rest += t.seconds,
            RunEvent::Pretrain(p) => rest += p.seconds,
            _ => {}
        }
    }
    (gauntlet > 0.0).then(|| (gauntlet, gauntlet / (gauntlet + rest)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(steps: &[u64]) -> Vec<PathBuf> {
        steps.iter().map(|&s| checkpoint_dir(Path::new("r/checkpoints"), s)).collect()
    }

    fn cfg(each_other: bool, against_teacher: bool) -> GauntletConfig {
        GauntletConfig { each_other, against_teacher, ..GauntletConfig::default() }
    }

    fn names(anchors: &[(String, PathBuf)]) -> Vec<&str> {
        anchors.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn the_chain_starts_at_the_teacher_and_follows_the_measured_checkpoints() {
        let all = run(&[0, 400, 900, 1500]);
        let first = gauntlet_anchors(&cfg(true, false), &all[..3], Some(400), &[]);
        assert_eq!(names(&first), ["step-000000400"], "the first block is played against the teacher-only one");
        let measured = ["step-000000900".to_string(), "step-000000900".to_string()];
        let later = gauntlet_anchors(&cfg(true, true), &all, Some(400), &measured);
        assert_eq!(names(&later), ["teacher-only step-000000400", "step-000000900"]);
        assert_eq!(later[1].1, all[2]);
    }

    #[test]
    fn a_checkpoint_is_played_once_and_never_against_itself() {
        let all = run(&[0, 400, 900]);
        let both = gauntlet_anchors(&cfg(true, true), &all, Some(400), &[]);
        assert_eq!(names(&both), ["teacher-only step-000000400"], "the chain's start is the teacher anchor");
        // The newest is the teacher-only checkpoint itself (no training since): nothing to play.
        assert!(gauntlet_anchors(&cfg(true, true), &all[..2], Some(400), &[]).is_empty());
        // A measured checkpoint since deleted is passed over: the chain falls back to its start.
        let measured = ["step-000000100".to_string()];
        assert_eq!(names(&gauntlet_anchors(&cfg(true, false), &all, None, &measured)), ["step-000000000"]);
    }

    #[test]
    fn the_cost_is_the_gauntlets_share_of_the_logged_time() {
        use crate::store::events::{IterationEvent, PretrainEvent};
        use arena::gauntlet::GauntletMatch;
        let mut events = vec![RunEvent::Pretrain(PretrainEvent { seconds: 100.0, ..Default::default() })];
        assert_eq!(gauntlet_cost(&events), None);
        let iteration = IterationEvent { selfplay_seconds: 200.0, train_seconds: 60.0, ..Default::default() };
        events.push(RunEvent::Iteration(iteration));
        events.push(RunEvent::Gauntlet(GauntletMatch { wall_seconds: 40.0, ..Default::default() }));
        assert_eq!(gauntlet_cost(&events), Some((40.0, 0.1)));
    }

    #[test]
    fn without_a_teacher_the_chain_starts_at_the_untrained_network() {
        let all = run(&[0, 300]);
        assert_eq!(names(&gauntlet_anchors(&cfg(true, false), &all, None, &[])), ["step-000000000"]);
        assert!(gauntlet_anchors(&cfg(false, true), &all, None, &[]).is_empty());
        assert!(gauntlet_anchors(&cfg(false, false), &all, Some(0), &["step-000000000".into()]).is_empty());
    }
}
