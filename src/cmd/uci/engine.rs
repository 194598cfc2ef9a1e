//! The engine's state between commands: options, the session (variant, position, evaluator)
//! and the search running on its own thread, and what each command does to them.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::clip::clip_quotes;
use crate::engine::{open_session, Analysis, Clock, EngineSettings, Limits, Session, INFO_EVERY};
use crate::line_input::{too_long, Line};

use super::info::info_lines;
use super::options::{Changed, Options};
use super::protocol::{parse, Command, Go};

/// Writes one line to standard output at once (lines of the two threads never mix). A closed
/// output is ignored: the end of input ends the engine.
pub fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Answers a bad command; the engine goes on. What the message quotes of the input is cut
/// short: a GUI's log need not hold a hostile line twice.
fn error(message: &str) {
    say(&format!("info string error: {}", clip_quotes(message)));
}

/// Whether to read another command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// `quit` was read.
    Quit,
}

/// How long a search with a limit may go on once the input has ended: nobody is left to send
/// `stop`, so a `go movetime` of years or `go nodes` of hours would otherwise search (and grow
/// its tree) long after the one who asked has gone.
pub const END_OF_INPUT_WAIT: Duration = Duration::from_secs(10);

/// A search on its thread, which hands the session back when it ends.
struct Running {
    handle: JoinHandle<Session>,
    stop: Arc<AtomicBool>,
    /// Set just before `bestmove` is printed: a command read after it must find the search over.
    done: Arc<AtomicBool>,
    infinite: bool,
}

/// The engine.
pub struct Engine {
    options: Options,
    inference: nn::Inference,
    /// Leaves in flight per search thread (`--leaves`).
    leaves: Option<u32>,
    /// How the search uses the tactical judge (the tactical flags).
    tactics: mcts::Tactics,
    /// `None` only while a search holds it.
    session: Option<Session>,
    running: Option<Running>,
}

impl Engine {
    /// An engine with `options` whose searches keep `leaves` in flight per thread; fails if the
    /// model cannot be loaded.
    pub fn new(
        options: Options,
        inference: nn::Inference,
        leaves: Option<u32>,
        tactics: mcts::Tactics,
    ) -> Result<Engine, String> {
        let session = open_session(options.variant, model_path(&options).as_deref(), inference)?;
        Ok(Engine { options, inference, leaves, tactics, session: Some(session), running: None })
    }

    /// Does what a line of input asks; one too long to read is answered as an error.
    pub fn handle_line(&mut self, line: Line) -> Flow {
        match line {
            Line::Text(text) | Line::NotUtf8(text) => self.handle(&text),
            Line::TooLong(length) => {
                error(&too_long(length));
                Flow::Continue
            }
        }
    }

    /// Does what `line` asks.
    fn handle(&mut self, line: &str) -> Flow {
        self.reap();
        let command = match parse(line) {
            Ok(c) => c,
            Err(unread) => {
                error(&unread.to_string());
                return Flow::Continue;
            }
        };
        if self.running.is_some() {
            match command {
                Command::Stop => self.stop_search(),
                Command::Quit => return Flow::Quit,
                Command::IsReady => say("readyok"),
                Command::Uci => self.identify(),
                Command::Empty => {}
                _ => error(&format!("'{}' ignored while searching (send stop first)", line.trim())),
            }
            return Flow::Continue;
        }
        match command {
            Command::Uci => self.identify(),
            Command::IsReady => say("readyok"),
            Command::NewGame => {
                self.session().forget_tree();
                self.set_position(None, &[]);
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { text, moves } => self.set_position(text.as_deref(), &moves),
            Command::Go(go) => self.go(go),
            Command::Stop | Command::Empty => {}
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    /// The input has ended: a search with a limit is let finish (its `bestmove` is printed),
    /// but for at most [`END_OF_INPUT_WAIT`] more, or until `signal` is set; `go infinite` is
    /// stopped at once.
    pub fn end_of_input(&mut self, signal: &AtomicBool) {
        let Some(r) = &self.running else { return };
        if !r.infinite {
            let until = Instant::now() + END_OF_INPUT_WAIT;
            while !r.handle.is_finished() && Instant::now() < until && !signal.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(10));
            }
            if !r.handle.is_finished() && !signal.load(Ordering::Relaxed) {
                say(&format!(
                    "info string the input ended: the search stops after {} s more, with what it has",
                    END_OF_INPUT_WAIT.as_secs()
                ));
            }
        }
        self.stop_search();
    }

    /// Stops any search and the network service.
    pub fn close(mut self) {
        self.stop_search();
        if let Some(session) = self.session.take() {
            session.close();
        }
    }

    fn identify(&self) {
        say(&format!("id name vzero {}", env!("CARGO_PKG_VERSION")));
        say("id author the vzero authors");
        for line in self.options.uci_lines() {
            say(&line);
        }
        say("uciok");
    }

    fn session(&mut self) -> &mut Session {
        self.session.as_mut().expect("the session is home when no search runs")
    }

    fn set_position(&mut self, text: Option<&str>, moves: &[String]) {
        if let Err(message) = self.session().set_position(text, moves) {
            error(&format!("{message}; the position is unchanged"));
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(Changed::Search) => {}
            Ok(Changed::Session) => self.reopen(),
            Err(refused) => error(&refused.to_string()),
        }
    }

    /// Opens the session again after the variant or the model changed. The position stays if
    /// the variant did; a model that does not fit is reported and the uniform evaluator used
    /// until the model and the variant agree (the option keeps its value).
    fn reopen(&mut self) {
        let old = self.session.take().expect("the session is home when no search runs");
        let kept = (old.game().variant() == self.options.variant).then(|| old.game().to_text());
        old.close();
        let session = match open_session(self.options.variant, model_path(&self.options).as_deref(), self.inference) {
            Ok(s) => s,
            Err(message) => {
                error(&format!("option Model: {message}; searching with the uniform evaluator"));
                open_session(self.options.variant, None, self.inference).expect("the uniform evaluator always opens")
            }
        };
        self.session = Some(session);
        if let Some(text) = kept {
            self.set_position(Some(&text), &[]);
        }
    }

    fn go(&mut self, go: Go) {
        for problem in &go.problems {
            error(&problem.to_string());
        }
        if let Some(reason) = self.session().game().game_over_text() {
            error(&format!("nothing to search: {reason}"));
            say("bestmove (none)");
            return;
        }
        let mut session = self.session.take().expect("the session is home when no search runs");
        let clock = Clock { time: go.time, inc: go.inc, movestogo: go.movestogo };
        let budget = clock.budget(session.game().to_move());
        let movetime = match (go.movetime, budget) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // Time saved on a clock is kept for later moves; a fixed time a move is not.
        let early = go.movetime.is_none() && budget.is_some();
        let nodes = match (go.nodes, movetime, go.infinite) {
            (None, None, false) => Some(self.options.simulations),
            (nodes, _, _) => nodes,
        };
        let limits = Limits { nodes, movetime, infinite: go.infinite, early };
        let settings = EngineSettings {
            threads: self.options.threads,
            multipv: self.options.multipv,
            leaves: self.leaves,
            tactics: self.tactics.clone(),
            info_every: INFO_EVERY,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (stop_flag, done_flag) = (Arc::clone(&stop), Arc::clone(&done));
        let handle = std::thread::Builder::new().name("search".into()).spawn(move || {
            let report = session.search(&limits, settings, &stop_flag, &mut print_info);
            print_info(&report);
            if let Some(note) = report.tree_full_note(limits.nodes) {
                say(&format!("info string {note}"));
            }
            done_flag.store(true, Ordering::SeqCst);
            say(&format!("bestmove {}", report.best().unwrap_or("(none)")));
            session
        });
        match handle {
            Ok(handle) => self.running = Some(Running { handle, stop, done, infinite: go.infinite }),
            Err(e) => {
                error(&format!("cannot start the search thread: {e}"));
                self.recover();
            }
        }
    }

    fn stop_search(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
        self.join_search();
    }

    /// Waits for the search to end and takes its session back.
    fn join_search(&mut self) {
        let Some(r) = self.running.take() else { return };
        match r.handle.join() {
            Ok(session) => self.session = Some(session),
            Err(_) => {
                error("the search failed; starting over from the start position");
                self.recover();
            }
        }
    }

    /// Takes a finished search's session back (waiting the moment between its `bestmove` and
    /// its end).
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.done.load(Ordering::SeqCst) || r.handle.is_finished()) {
            self.join_search();
        }
    }

    /// A fresh session after a failure lost the old one.
    fn recover(&mut self) {
        let session = open_session(self.options.variant, model_path(&self.options).as_deref(), self.inference)
            .or_else(|_| open_session(self.options.variant, None, self.inference));
        self.session = Some(session.expect("the uniform evaluator always opens"));
    }
}

fn print_info(report: &Analysis) {
    for line in info_lines(report) {
        say(&line);
    }
}

/// The checkpoint the options name for their variant, if any.
fn model_path(options: &Options) -> Option<PathBuf> {
    options.model.resolve(options.variant)
}
