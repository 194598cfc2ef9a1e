//! A program started as a child process and spoken to in lines: every read has a deadline (a
//! reader thread feeds a channel), and the child never outlives its owner.
//!
//! The child runs in a process group of its own, so a Ctrl-C at the terminal reaches only the
//! arena, which then ends its games and stops the children itself; dropping an
//! [`EngineProcess`] kills that whole group (a script's own children too) and waits for the
//! child. On Linux the child is also killed by the kernel if the thread that started it dies
//! without dropping it (an abort, a second Ctrl-C).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why a line did not come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The child closed its output (it exited, most likely).
    Closed,
    /// The deadline passed first.
    TimedOut,
}

/// A running child with a line-based conversation.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// How long a child asked to `quit` gets before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

impl EngineProcess {
    /// Starts `argv` (program, then arguments) with piped input and output; its standard error
    /// is discarded.
    pub fn spawn(argv: &[String]) -> std::io::Result<EngineProcess> {
        let (program, args) = argv.split_first().ok_or_else(|| std::io::Error::other("an empty command"))?;
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).process_group(0);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl is async-signal-safe, the only kind of call allowed between fork and exec.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let mut child = command.spawn()?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        let (sender, lines) = mpsc::channel();
        // Not joined: it ends when the output closes, which killing the group makes happen.
        std::thread::Builder::new().name("engine-output".into()).spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        })?;
        Ok(EngineProcess { child, stdin, lines })
    }

    /// Sends one line; an error means the child no longer reads (it exited).
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// The next line, waiting at most until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).map_err(|e| match e {
            RecvTimeoutError::Timeout => ReadError::TimedOut,
            RecvTimeoutError::Disconnected => ReadError::Closed,
        })
    }

    /// The child's exit status if it exits within `grace` (at once if it already has).
    pub fn exit_status(&mut self, grace: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < end => std::thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Asks the child to `quit` and gives it a moment to do so before it is killed (dropped).
    pub fn quit(mut self) {
        if self.send("quit").is_ok() {
            self.exit_status(QUIT_GRACE);
        }
    }

    /// SIGKILL to the whole group (the child leads it), then reaps the child.
    fn kill_group(&mut self) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: a plain system call; the group is the child's own (`process_group(0)`).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    /// Kills the child's group and waits for the child: on every path (a forfeit, the end of a
    /// match, a panic unwinding) no process is left behind.
    fn drop(&mut self) {
        self.kill_group();
    }
}
