//! A one-node Slurm cluster on this machine for the length of a test: munged with its own key,
//! slurmctld and slurmd in the foreground as child processes, and every state, spool, log and
//! pid file in a scratch folder. Dropping it cancels the jobs it ran and ends the daemons by
//! process id, whatever the test's outcome.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The programs the cluster needs; `make slurm` installs them (Debian's slurmctld, slurmd,
/// slurm-client and munge).
const PROGRAMS: [&str; 8] = ["munged", "slurmctld", "slurmd", "sbatch", "scontrol", "scancel", "squeue", "sinfo"];

/// The cluster's one partition.
const PARTITION: &str = "test";

/// Why no cluster can be started here (programs missing, or not root, which slurmd needs to
/// start jobs), or None.
pub fn unavailable() -> Option<String> {
    let missing: Vec<&str> = PROGRAMS.iter().copied().filter(|p| !on_path(p)).collect();
    if !missing.is_empty() {
        return Some(format!("{} not installed (`make slurm` installs them)", missing.join(", ")));
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("slurmd must run as root to start jobs".into());
    }
    None
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// A running one-node cluster.
pub struct Cluster {
    scratch: PathBuf,
    conf: PathBuf,
    /// munged, slurmctld, slurmd: ended in reverse order.
    daemons: Vec<Child>,
    /// Whether a job was submitted (and so may need ending).
    submitted: bool,
}

/// What `scontrol show job` says about one job, or one task of an array.
#[derive(Clone, Debug)]
pub struct JobInfo {
    /// Its `KEY=VALUE` fields (JobState, ExitCode, Restarts, ArrayTaskId, ...).
    pub fields: BTreeMap<String, String>,
}

impl JobInfo {
    /// The value of one field ("" when absent).
    pub fn get(&self, key: &str) -> &str {
        self.fields.get(key).map_or("", String::as_str)
    }
}

impl Cluster {
    /// Writes the config into `scratch`, starts the daemons and waits until the node is idle.
    pub fn start(scratch: &Path) -> Cluster {
        let conf = scratch.join("slurm.conf");
        let mut cluster =
            Cluster { scratch: scratch.to_path_buf(), conf: conf.clone(), daemons: Vec::new(), submitted: false };
        for dir in ["state", "spool", "log", "munge-run"] {
            fs::create_dir_all(scratch.join(dir)).unwrap();
        }
        // munged refuses a key that others may read, and a socket folder that others cannot enter.
        let key_dir = scratch.join("munge-key");
        fs::create_dir_all(&key_dir).unwrap();
        fs::set_permissions(&key_dir, fs::Permissions::from_mode(0o700)).unwrap();
        fs::set_permissions(scratch.join("munge-run"), fs::Permissions::from_mode(0o755)).unwrap();
        let mut key = [0u8; 128];
        fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut key)).unwrap();
        fs::write(key_dir.join("munge.key"), key).unwrap();
        fs::set_permissions(key_dir.join("munge.key"), fs::Permissions::from_mode(0o400)).unwrap();
        let socket = scratch.join("munge-run/munge.socket");
        cluster.spawn_daemon(
            "munged",
            &[
                "--foreground",
                &format!("--key-file={}", key_dir.join("munge.key").display()),
                &format!("--socket={}", socket.display()),
                &format!("--pid-file={}", scratch.join("munge-run/munged.pid").display()),
                &format!("--log-file={}", scratch.join("log/munged.log").display()),
                &format!("--seed-file={}", key_dir.join("munged.seed").display()),
            ],
        );
        wait_until(Duration::from_secs(20), "munged never created its socket", || socket.exists());
        fs::write(&conf, slurm_conf(scratch, &socket)).unwrap();
        cluster.spawn_daemon("slurmctld", &["-D"]);
        cluster.spawn_daemon("slurmd", &["-D"]);
        wait_until(Duration::from_secs(60), "the Slurm node never became idle", || {
            let out = cluster.command("sinfo").args(["--noheader", "--format=%t"]).output().unwrap();
            String::from_utf8_lossy(&out.stdout).trim() == "idle"
        });
        cluster
    }

    /// A Slurm command that talks to this cluster.
    pub fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    /// Submits a batch job (an `sbatch --parsable` command) and returns its id.
    pub fn submit(&mut self, mut sbatch: Command) -> String {
        let out = sbatch.output().unwrap();
        assert!(out.status.success(), "sbatch: {}", String::from_utf8_lossy(&out.stderr));
        let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
        self.submitted = true;
        id
    }

    /// The job `id` (for an array, each of its tasks) as `scontrol show job` sees it.
    pub fn jobs(&self, id: &str) -> Vec<JobInfo> {
        let out = self.command("scontrol").args(["--oneliner", "show", "job", id]).output().unwrap();
        assert!(out.status.success(), "scontrol show job {id}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| JobInfo {
                fields: line
                    .split_whitespace()
                    .filter_map(|field| field.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            })
            .collect()
    }

    /// The one job (or array task, `ARRAY_TASK`) called `id`.
    pub fn job(&self, id: &str) -> JobInfo {
        let jobs = self.jobs(id);
        assert_eq!(jobs.len(), 1, "scontrol show job {id}: {jobs:?}");
        jobs.into_iter().next().unwrap()
    }

    /// Runs a Slurm command that must succeed.
    pub fn run(&self, program: &str, args: &[&str]) {
        let out = self.command(program).args(args).output().unwrap();
        assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    /// The daemons' logs, for a failure message.
    pub fn logs(&self) -> String {
        ["slurmctld.log", "slurmd.log"]
            .iter()
            .map(|name| {
                let text = fs::read_to_string(self.scratch.join("log").join(name)).unwrap_or_default();
                let tail: Vec<&str> = text.lines().rev().take(30).collect();
                format!("--- {name} (last lines)\n{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn spawn_daemon(&mut self, program: &str, args: &[&str]) {
        let log = fs::File::create(self.scratch.join("log").join(format!("{program}.out"))).unwrap();
        let child = self
            .command(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("starting {program}: {e}"));
        self.daemons.push(child);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Jobs first, while slurmd can still end them: their processes are not our children.
        // Every job of this private cluster is the test's: none is missed, however it was submitted.
        if self.submitted {
            let _ = self.command("scancel").args(["--signal=KILL", "--full", "--partition", PARTITION]).output();
            let _ = self.command("scancel").args(["--partition", PARTITION]).output();
            let begun = Instant::now();
            while begun.elapsed() < Duration::from_secs(20) {
                let out = self.command("squeue").args(["--noheader", "--format=%i"]).output();
                if out.is_ok_and(|o| o.status.success() && o.stdout.iter().all(u8::is_ascii_whitespace)) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        for daemon in self.daemons.iter_mut().rev() {
            stop_daemon(daemon);
        }
    }
}

/// SIGTERM, a few seconds to exit, then SIGKILL; always reaped.
fn stop_daemon(daemon: &mut Child) {
    let pid = daemon.id().to_string();
    let _ = Command::new("kill").args(["-TERM", &pid]).status();
    let begun = Instant::now();
    while begun.elapsed() < Duration::from_secs(10) {
        if let Ok(Some(_)) = daemon.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = daemon.kill();
    let _ = daemon.wait();
}

/// Polls `done` until it holds; past `limit` the test fails with `what`.
pub fn wait_until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let begun = Instant::now();
    while !done() {
        assert!(begun.elapsed() < limit, "{what} (waited {limit:?})");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A TCP port nobody listens on now (the daemons bind it a moment later).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The cluster's config: this host as controller and only node (its real CPUs and memory, as
/// `slurmd -C` reports them), ports nobody else uses, every file in `scratch`, no cgroups and no
/// accounting daemon, and the scheduler looking every second. Finished jobs stay visible to
/// `scontrol` for an hour (MinJobAge); vzero gets a minute to save after a SIGTERM (KillWait);
/// and each CPU may be shared by up to four jobs (OverSubscribe), so that a trainer and two
/// one-CPU workers run at once on a two-core machine.
fn slurm_conf(scratch: &Path, munge_socket: &Path) -> String {
    let node = Command::new("slurmd").arg("-C").output().expect("slurmd -C");
    let node = String::from_utf8_lossy(&node.stdout).lines().next().unwrap_or_default().to_string();
    let host = node
        .split_whitespace()
        .find_map(|field| field.strip_prefix("NodeName="))
        .unwrap_or_else(|| panic!("slurmd -C printed no NodeName: {node:?}"))
        .to_string();
    let s = scratch.display();
    let (ctld_port, slurmd_port) = (free_port(), free_port());
    format!(
        "ClusterName=vzerotest\n\
         SlurmctldHost={host}(127.0.0.1)\n\
         SlurmctldPort={ctld_port}\n\
         SlurmdPort={slurmd_port}\n\
         SlurmUser=root\n\
         AuthType=auth/munge\n\
         AuthInfo=socket={socket}\n\
         CredType=cred/munge\n\
         StateSaveLocation={s}/state\n\
         SlurmdSpoolDir={s}/spool\n\
         SlurmctldPidFile={s}/log/slurmctld.pid\n\
         SlurmdPidFile={s}/log/slurmd.pid\n\
         SlurmctldLogFile={s}/log/slurmctld.log\n\
         SlurmdLogFile={s}/log/slurmd.log\n\
         ProctrackType=proctrack/linuxproc\n\
         TaskPlugin=task/none\n\
         JobAcctGatherType=jobacct_gather/none\n\
         AccountingStorageType=accounting_storage/none\n\
         JobCompType=jobcomp/filetxt\n\
         JobCompLoc={s}/log/jobcomp.txt\n\
         MpiDefault=none\n\
         SelectType=select/cons_tres\n\
         SelectTypeParameters=CR_CPU\n\
         SchedulerType=sched/backfill\n\
         SchedulerParameters=sched_interval=1,bf_interval=1\n\
         MinJobAge=3600\n\
         KillWait=60\n\
         ReturnToService=2\n\
         {node} NodeAddr=127.0.0.1 State=UNKNOWN\n\
         PartitionName={PARTITION} Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4\n",
        socket = munge_socket.display(),
    )
}
