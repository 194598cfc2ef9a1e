//! Making a run's teacher data: teacher games played on several threads until the run holds the
//! positions asked for, written as ordinary replay shards every `selfplay.flush_games` games.
//! Game `k` is a function of the run's seed and `k`, and the numbers already stored are skipped,
//! so a killed `teach` resumes without duplicates and loses at most the games not yet flushed.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rules::Encoding;

use super::game::{teacher_game_until, TeacherPlan};
use crate::config::Config;
use crate::error::TrainError;
use crate::play::flush::Flusher;
use crate::progress::Progress;
use crate::replay::{read_checked_shard, GameRecord, ShardName, TEACHER_GAME};
use crate::setup::start_state;
use crate::store::RunDir;

/// What [`teach`] did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Taught {
    /// Labelled positions the run holds in all, these included.
    pub total_positions: u64,
    /// Wall time.
    pub seconds: f64,
    /// A stop request ended it before `positions` were reached.
    pub interrupted: bool,
    /// The games played now, in the order they finished (each in one of the shards written).
    pub records: Vec<GameRecord>,
}

impl Taught {
    /// Teacher games played now.
    pub fn games(&self) -> usize {
        self.records.len()
    }

    /// Labelled positions they hold.
    pub fn positions(&self) -> u64 {
        self.records.iter().map(|g| g.training_positions() as u64).sum()
    }
}

/// The teacher games stored in `dir`'s shards (unreadable shards are skipped with a warning, as
/// a resume skips them).
pub fn stored_teacher_games<G: Encoding>(dir: &RunDir) -> Result<Vec<GameRecord>, TrainError> {
    let mut games = Vec::new();
    for path in dir.shard_paths()? {
        match read_checked_shard::<G>(&path) {
            Ok(records) => games.extend(records.into_iter().filter(GameRecord::is_teacher)),
            Err(e) => eprintln!("vzero: warning: skipping {e}"),
        }
    }
    Ok(games)
}

/// Teacher games in a row that may end before their first labelled position (by the rules,
/// within `teacher.random_plies`) before the teacher gives up: a few such games are chance,
/// this many say that the random plies outlast the variant's games, and the teacher would
/// otherwise play on forever without making a position.
pub const UNLABELLED_GAMES_LIMIT: usize = 200;

/// Finished games the workers may have waiting for the writer: a bound, so that games that end
/// in microseconds cannot pile up in memory faster than shards are written.
const WAITING_GAMES: usize = 64;

/// Plays teacher games in `dir` until its teacher games hold at least `positions` labelled
/// positions (or `stop` is set), with `threads` threads, as `config`'s `[teacher]` says. Fails,
/// naming `teacher.random_plies`, when its games end before they label anything: at once when
/// the random plies reach `selfplay.max_plies`, else after [`UNLABELLED_GAMES_LIMIT`] games in a
/// row that ended by the rules within them.
pub fn teach<G: Encoding>(
    dir: &RunDir,
    config: &Config,
    positions: u64,
    threads: usize,
    stop: &AtomicBool,
    progress: bool,
) -> Result<Taught, TrainError> {
    let began = Instant::now();
    let t = &config.teacher;
    let plan = TeacherPlan {
        settings: t.settings().map_err(|e| TrainError::Run(format!("teacher.player '{}': {e}", t.player)))?,
        random_plies: t.random_plies,
        policy_temperature: t.policy_temperature,
        choice_temperature: t.choice_temperature,
        value_mix: t.value_mix,
        max_plies: config.selfplay.max_plies,
        adjudicate_material: config.selfplay.adjudicate_material,
        seed: config.seed,
    };
    if let Some(reason) = t.random_plies_rule(plan.max_plies) {
        return Err(TrainError::Run(format!("teacher.random_plies = {}: {reason}", t.random_plies)));
    }
    let start: G = start_state(config)?;
    let stored = stored_teacher_games::<G>(dir)?;
    let have: u64 = stored.iter().map(|g| g.training_positions() as u64).sum();
    let done: BTreeSet<u64> = stored.iter().map(|g| g.number & !TEACHER_GAME).collect();
    let mut taught = Taught { total_positions: have, ..Taught::default() };
    if have >= positions {
        return Ok(taught);
    }
    let bar = Progress::new(progress, positions - have, "positions");
    let next = Mutex::new((0u64, done));
    // Positions stored or being played: workers stop taking games once it reaches the target.
    let made = Mutex::new(have);
    let (send, receive) = crossbeam::channel::bounded::<GameRecord>(WAITING_GAMES);
    let mut names = ShardName::for_this_process();
    let mut flusher = Flusher::<G>::new(dir, &mut names, config.selfplay.flush_games);
    let written = std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let send = send.clone();
            let (next, made, start, plan) = (&next, &made, &start, &plan);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) && *made.lock().expect("no panics") < positions {
                    let k = {
                        let mut guard = next.lock().expect("no panics");
                        let (counter, done) = &mut *guard;
                        while done.contains(counter) {
                            *counter += 1;
                        }
                        *counter += 1;
                        *counter - 1
                    };
                    // A game cut short by a stop is dropped; the same number replays it later.
                    let Some((record, _)) = teacher_game_until(start, k, plan, stop) else { return };
                    *made.lock().expect("no panics") += record.training_positions() as u64;
                    if send.send(record).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        let mut unlabelled = 0;
        for record in receive.iter() {
            unlabelled = if record.training_positions() == 0 { unlabelled + 1 } else { 0 };
            if unlabelled >= UNLABELLED_GAMES_LIMIT {
                // Dropping the receiver ends the workers at their next game's end.
                drop(receive);
                return Err(unlabelled_games(t.random_plies));
            }
            bar.inc(record.training_positions() as u64);
            flusher.add(record)?;
        }
        flusher.finish()
    });
    bar.finish_and_clear();
    taught.records = written?.games;
    taught.total_positions = have + taught.positions();
    taught.interrupted = taught.total_positions < positions;
    taught.seconds = began.elapsed().as_secs_f64();
    Ok(taught)
}

/// The teacher's games keep ending within their `random_plies` random plies.
fn unlabelled_games(random_plies: u32) -> TrainError {
    TrainError::Run(format!(
        "teacher.random_plies = {random_plies}: the last {UNLABELLED_GAMES_LIMIT} teacher games all ended within \
         their random plies, before any position was labelled; expected fewer random plies than the games last \
         (lower teacher.random_plies, or start from a position further from the end: start_position)"
    ))
}
