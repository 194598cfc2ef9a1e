//! The Slurm scripts of deploy/slurm on a real one-node cluster: a trainer and a two-task
//! self-play array share a run; the trainer hits its (simulated) time limit, saves and requeues
//! itself, one worker is cancelled with plain `scancel` part-way, and the rest finish. Skipped,
//! and says so, where Slurm is not installed (`make slurm` installs it).

#[path = "slurm/cluster.rs"]
mod cluster;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cluster::{wait_until, Cluster};
use selfplay::replay::{read_shard, EXTERNAL_GAME};
use selfplay::RunDir;

/// Trainer iterations: enough that it is still training when the time-limit signal comes.
const ITERATIONS: u32 = 3;

/// Games per worker: a bound on the trainer's work (it trains on every game the workers add),
/// and room enough that the worker to cancel is still playing when `scancel` comes (it is
/// cancelled after its first two-game shard).
const WORKER_GAMES: u32 = 40;

/// How long any one stage of the test may take before it counts as hung.
const STAGE_LIMIT: Duration = Duration::from_secs(300);

#[test]
fn the_slurm_scripts_requeue_at_the_time_limit_and_stop_cleanly_on_scancel() {
    if let Some(why) = cluster::unavailable() {
        eprintln!("SKIPPED: no Slurm cluster: {why}");
        return;
    }
    let begun = Instant::now();
    let scratch = std::env::temp_dir().join(format!("vzero-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let mut slurm = Cluster::start(&scratch.join("cluster"));
    eprintln!("cluster up in {:.1} s", begun.elapsed().as_secs_f64());
    let run = scratch.join("run");
    let logs = scratch.join("logs");
    std::fs::create_dir_all(&logs).unwrap();

    let trainer = slurm.submit(batch_job(
        &slurm,
        &run,
        "train.sbatch",
        &format!("--quiet --set training.iterations={ITERATIONS} --set evaluation.games=0"),
        &[&format!("--output={}/train-%j.out", logs.display())],
    ));
    // Two-game shards: the worker to cancel writes soon, and has finished games to keep.
    let workers = slurm.submit(batch_job(
        &slurm,
        &run,
        "selfplay.sbatch",
        &format!("--quiet --games {WORKER_GAMES} --set selfplay.games_per_iteration=2"),
        &["--array=0-1", &format!("--output={}/selfplay-%a.out", logs.display())],
    ));
    let (cancelled, survivor) = (format!("{workers}_0"), format!("{workers}_1"));
    let trainer_log = logs.join(format!("train-{trainer}.out"));
    let worker_log = |task: u32| logs.join(format!("selfplay-{task}.out"));

    // The time limit's warning, as Slurm sends it (USR1 to the batch shell), once the run exists.
    let config = RunDir::unchecked(&run).config();
    wait_until(STAGE_LIMIT, "the trainer never created its run", || config.exists());
    slurm.run("scancel", &["--batch", "--signal=USR1", &trainer]);
    wait_until(STAGE_LIMIT, "the trainer was not requeued after the time-limit signal", || {
        let job = slurm.job(&trainer);
        job.get("JobState") == "PENDING" && job.get("Restarts") == "1"
    });
    let log = read(&trainer_log);
    assert!(log.contains("train exited with status 3") && log.contains("requeueing job"), "{log}");

    // The trainer is queued (a requeued job waits two minutes to start again), so the run goes
    // on until it is released: the worker to cancel plays for sure before it is cancelled.
    wait_until(STAGE_LIMIT, "the worker to cancel never wrote a game", || {
        vzero_pid(&read(&worker_log(0))).is_some_and(|pid| !external_games(&run, Some(pid)).is_empty())
    });
    let cancelled_at = Instant::now();
    slurm.run("scancel", &[&cancelled]);
    wait_until(STAGE_LIMIT, "the cancelled worker never ended", || {
        slurm.job(&cancelled).get("JobState") == "CANCELLED"
    });
    let stop_seconds = cancelled_at.elapsed().as_secs_f64();
    slurm.run("scontrol", &["update", &format!("JobId={trainer}"), "StartTime=now"]);
    wait_until(STAGE_LIMIT, "the trainer and the other worker never ended", || {
        [&trainer, &survivor]
            .iter()
            .all(|id| !matches!(slurm.job(id).get("JobState"), "PENDING" | "RUNNING" | "COMPLETING"))
    });

    for id in [&trainer, &survivor] {
        let job = slurm.job(id);
        assert_eq!(
            (job.get("JobState"), job.get("ExitCode")),
            ("COMPLETED", "0:0"),
            "job {id}: {job:?}\n{}\n{}",
            read(&trainer_log) + &read(&worker_log(1)),
            slurm.logs()
        );
    }
    let log = read(&trainer_log);
    assert!(log.contains("holds this config's run; resuming it"), "the requeued trainer did not resume:\n{log}");
    let job = slurm.job(&cancelled);
    let log = read(&worker_log(0));
    assert_eq!(job.get("ExitCode"), "3:0", "the cancelled worker did not stop cleanly: {job:?}\n{log}");
    assert!(log.contains("selfplay exited with status 3") && !log.contains("requeueing"), "{log}");

    // Every game a worker says it wrote is on disk exactly once, under that worker's process.
    let mut all_external = 0;
    for task in [0, 1] {
        let log = read(&worker_log(task));
        let pid = vzero_pid(&log).unwrap_or_else(|| panic!("worker {task} named no process:\n{log}"));
        let written = games_written(&log).unwrap_or_else(|| panic!("worker {task} did not say what it wrote:\n{log}"));
        let on_disk = external_games(&run, Some(pid)).len() as u64;
        // A SIGTERM loses no finished game: the worker writes them before it exits (its games in
        // progress are abandoned, never finished).
        assert_eq!(on_disk, written, "worker {task}: games on disk against games it says it wrote");
        if task == 0 {
            assert!(written < WORKER_GAMES as u64, "the worker ended before it was cancelled:\n{log}");
            eprintln!("cancelled worker: {written} games kept, stopped {stop_seconds:.1} s after scancel");
        }
        all_external += written;
    }
    let numbers = external_games(&run, None);
    assert_eq!(numbers.len() as u64, all_external, "games not written by either worker");
    assert_eq!(numbers.values().filter(|&&copies| copies > 1).count(), 0, "games stored twice: {numbers:?}");
    let out =
        Command::new(env!("CARGO_BIN_EXE_vzero")).args(["runs", "status", run.to_str().unwrap()]).output().unwrap();
    let status = String::from_utf8_lossy(&out.stdout);
    assert!(status.contains(&format!("{all_external} by selfplay processes")), "{status}");
    assert!(status.contains(&format!("iteration {ITERATIONS} of {ITERATIONS}")), "{status}");
    let leftovers = temporary_files(&run);
    assert!(leftovers.is_empty(), "temporary files left in the run: {leftovers:?}");

    drop(slurm);
    eprintln!("slurm test: {:.1} s in all", begun.elapsed().as_secs_f64());
    std::fs::remove_dir_all(&scratch).unwrap();
}

/// `sbatch --parsable` of one of the scripts in deploy/slurm for `run`, submitted from the checkout as the
/// scripts expect, with the test's binary and config, the extra vzero arguments `vzero_args`
/// and extra sbatch options (which override the script's).
fn batch_job(slurm: &Cluster, run: &Path, script: &str, vzero_args: &str, options: &[&str]) -> Command {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut sbatch = slurm.command("sbatch");
    sbatch
        .current_dir(root)
        .env("VZERO", env!("CARGO_BIN_EXE_vzero"))
        .env("VZERO_CONFIG", format!("{root}/configs/mini-hexchess-tiny.toml"))
        .env("VZERO_RUN", run)
        .env("VZERO_WAIT", "300")
        .env("VZERO_ARGS", vzero_args)
        .args(["--parsable", "--cpus-per-task=1"])
        .args(options)
        .arg(format!("{root}/deploy/slurm/{script}"));
    sbatch
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The vzero process of a job, from run-requeueable.sh's line in its log.
fn vzero_pid(log: &str) -> Option<u32> {
    log.lines().find_map(|line| line.split("running as process ").nth(1)?.trim().parse().ok())
}

/// "N games written to DIR", which `vzero selfplay` prints when it ends.
fn games_written(log: &str) -> Option<u64> {
    log.lines().find_map(|line| {
        let (count, rest) = line.split_once(' ')?;
        rest.starts_with("games written to ").then(|| count.parse().ok())?
    })
}

/// External game numbers in the run's shards (those of the process `pid` only, if given), each
/// with how many times it is stored.
fn external_games(run: &Path, pid: Option<u32>) -> BTreeMap<u64, usize> {
    let mut numbers = BTreeMap::new();
    let shards = RunDir::unchecked(run).shard_paths().unwrap_or_default();
    for shard in shards.iter().filter(|path| pid.is_none_or(|pid| shard_pid(path) == Some(pid))) {
        for game in read_shard(shard).unwrap_or_else(|e| panic!("{}: {e}", shard.display())) {
            if game.number & EXTERNAL_GAME != 0 {
                *numbers.entry(game.number).or_insert(0) += 1;
            }
        }
    }
    numbers
}

/// The writer's process id in a shard name (`MILLIS-HOST-PID-SEQUENCE.shard`).
fn shard_pid(path: &Path) -> Option<u32> {
    let name = path.file_stem()?.to_str()?;
    name.rsplit('-').nth(1)?.parse().ok()
}

/// Files and folders under `dir` that a crash-safe write leaves only while it is unfinished.
fn temporary_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let temporary =
            name.split('.').skip(1).any(|part| part == durable::TMP_EXTENSION || part == durable::PARTIAL_EXTENSION);
        if temporary {
            found.push(path.clone());
        }
        if path.is_dir() {
            found.extend(temporary_files(&path));
        }
    }
    found
}
