//! An arena player that is another program speaking vzero's engine protocol (docs/protocol.md),
//! named `uci:COMMAND`: started as a child process, told each position as the start and the
//! moves since, and asked for a move with a node or time budget. A program that exits, closes
//! its output, answers a move that cannot be played or overruns its allowance forfeits the
//! game; it is killed, and a fresh one is started for its next game.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rules::Game;

use super::process::{EngineProcess, ReadError};
use crate::agent::{Agent, GameSoFar};
use crate::forfeit::Forfeit;

/// What an engine is given per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineBudget {
    /// `go nodes N`.
    Nodes(u32),
    /// `go movetime MS`.
    Movetime(Duration),
}

/// How long an engine searching by nodes may take per move before it forfeits: generous, as
/// node rates differ by orders of magnitude between engines and machines.
pub const NODES_ALLOWANCE: Duration = Duration::from_secs(60);
/// The least margin an engine searching by time gets past its movetime.
pub const MOVETIME_MARGIN: Duration = Duration::from_secs(1);
/// How long an engine may take to answer `uci` and `isready` (loading a network included).
pub const STARTUP_ALLOWANCE: Duration = Duration::from_secs(60);
/// How long a crashed engine gets to report its exit status.
const EXIT_GRACE: Duration = Duration::from_millis(200);
/// How long an engine told to `stop` (the match is being abandoned) gets to answer its move.
const STOP_GRACE: Duration = Duration::from_secs(1);
/// How often a wait for the engine's move looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(25);

impl EngineBudget {
    /// The `go` command.
    fn go(self) -> String {
        match self {
            EngineBudget::Nodes(n) => format!("go nodes {n}"),
            EngineBudget::Movetime(t) => format!("go movetime {}", t.as_millis()),
        }
    }

    /// How long a move may take before the engine forfeits: [`NODES_ALLOWANCE`] for nodes; the
    /// movetime plus half of it, or plus [`MOVETIME_MARGIN`] if that is more.
    pub fn allowance(self) -> Duration {
        match self {
            EngineBudget::Nodes(_) => NODES_ALLOWANCE,
            EngineBudget::Movetime(t) => t + (t / 2).max(MOVETIME_MARGIN),
        }
    }
}

/// One running engine and the game it was last told of.
struct Session {
    process: EngineProcess,
    game: Option<u64>,
}

impl Session {
    /// Starts `argv` and sets it up for `variant`: `uci` answered by `uciok`, the variant set,
    /// `isready` answered by `readyok`. The error says what went wrong.
    fn start(argv: &[String], variant: &str) -> Result<Session, String> {
        let process = EngineProcess::spawn(argv).map_err(|e| format!("cannot run '{}': {e}", argv[0]))?;
        let mut session = Session { process, game: None };
        let deadline = Instant::now() + STARTUP_ALLOWANCE;
        session.send("uci").map_err(after("uci"))?;
        session.answer_to("uciok", deadline, STARTUP_ALLOWANCE).map_err(after("uci"))?;
        session.send(&format!("setoption name UCI_Variant value {variant}")).map_err(after("setoption"))?;
        session.send("isready").map_err(after("isready"))?;
        match session.answer_to("readyok", deadline, STARTUP_ALLOWANCE).map_err(after("isready"))? {
            None => Ok(session),
            Some(error) => Err(format!("it refused UCI_Variant {variant}: {error}")),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        self.process.send(line).map_err(|_| self.crashed())
    }

    /// Reads until a line whose first word is `answer`, by `deadline` (`allowed` after the
    /// question); returns the first `info string error` line read on the way, if any.
    fn answer_to(&mut self, answer: &str, deadline: Instant, allowed: Duration) -> Result<Option<String>, Forfeit> {
        let mut error = None;
        loop {
            let line = self.read_line(deadline, allowed)?;
            if line.split_whitespace().next() == Some(answer) {
                return Ok(error);
            }
            if error.is_none() && line.starts_with("info string error") {
                error = Some(line);
            }
        }
    }

    fn read_line(&mut self, deadline: Instant, allowed: Duration) -> Result<String, Forfeit> {
        self.process.read_line(deadline).map_err(|e| match e {
            ReadError::Closed => self.crashed(),
            ReadError::TimedOut => Forfeit::TimedOut(allowed),
        })
    }

    /// How the engine ended, once its output closed or its input broke.
    fn crashed(&mut self) -> Forfeit {
        Forfeit::Crashed(match self.process.exit_status(EXIT_GRACE) {
            Some(status) => format!("{status}"),
            None => "closed its output".into(),
        })
    }

    /// The engine's move in `game`, reached as `played` says. Once `stop` is set the engine is
    /// told to `stop` and gets [`STOP_GRACE`] to answer.
    fn best_move<G: Game>(
        &mut self,
        game: &G,
        played: &GameSoFar<'_, G>,
        budget: EngineBudget,
        stop: Option<&AtomicBool>,
    ) -> Result<G::Move, Forfeit> {
        if self.game != Some(played.game) {
            self.send("ucinewgame")?;
            self.send("isready")?;
            self.answer_to("readyok", Instant::now() + STARTUP_ALLOWANCE, STARTUP_ALLOWANCE)?;
            self.game = Some(played.game);
        }
        self.send(&position_command(played))?;
        let allowed = budget.allowance();
        let mut deadline = Instant::now() + allowed;
        self.send(&budget.go())?;
        let mut told_to_stop = false;
        let line = loop {
            if !told_to_stop && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                told_to_stop = true;
                self.send("stop")?;
                deadline = deadline.min(Instant::now() + STOP_GRACE);
            }
            // Short reads while a stop may come, so that it is seen within moments.
            let poll =
                if stop.is_some() && !told_to_stop { deadline.min(Instant::now() + STOP_POLL) } else { deadline };
            match self.read_line(poll, allowed) {
                Ok(line) if line.split_whitespace().next() == Some("bestmove") => break line,
                Ok(_) => {}
                Err(Forfeit::TimedOut(_)) if Instant::now() < deadline => {}
                Err(e) => return Err(e),
            }
        };
        match line.split_whitespace().nth(1) {
            None | Some("(none)") => Err(Forfeit::Unreadable(line)),
            Some(text) => {
                game.parse_move(text).map_err(|e| Forfeit::IllegalMove { mv: text.into(), reason: e.to_string() })
            }
        }
    }
}

/// An error message for a failure after `asked` was sent while starting.
fn after(asked: &'static str) -> impl Fn(Forfeit) -> String {
    move |f| format!("after '{asked}': {f}")
}

/// `position startpos|fen TEXT [moves ...]` for the game so far.
fn position_command<G: Game>(played: &GameSoFar<'_, G>) -> String {
    let start = played.start.to_text();
    let mut line =
        if start == G::start().to_text() { "position startpos".to_string() } else { format!("position fen {start}") };
    if !played.moves.is_empty() {
        line.push_str(" moves ");
        line.push_str(&played.moves.join(" "));
    }
    line
}

/// A `uci:COMMAND` player: one engine process per arena thread, each playing that thread's
/// games one after another (`ucinewgame` between them).
pub struct UciAgent<G> {
    label: String,
    argv: Vec<String>,
    budget: EngineBudget,
    stop: Option<&'static AtomicBool>,
    /// The engine of each arena thread that has one.
    sessions: Mutex<HashMap<ThreadId, Session>>,
    /// The engine started to check the command, for the first thread that needs one.
    spare: Mutex<Option<Session>>,
    variant: PhantomData<fn() -> G>,
}

impl<G: Game> UciAgent<G> {
    /// Starts `argv` once, to refuse a command that cannot play `G` before a match begins; the
    /// error says why. `label` names the player in tables; once `stop` is set, a move being
    /// waited for is asked for at once (`stop`).
    pub fn start(
        label: String,
        argv: Vec<String>,
        budget: EngineBudget,
        stop: Option<&'static AtomicBool>,
    ) -> Result<UciAgent<G>, String> {
        let first = Session::start(&argv, G::NAME)?;
        Ok(UciAgent {
            label,
            argv,
            budget,
            stop,
            sessions: Mutex::new(HashMap::new()),
            spare: Mutex::new(Some(first)),
            variant: PhantomData,
        })
    }

    /// This thread's engine, or the spare one, or a new one.
    fn session(&self) -> Result<Session, Forfeit> {
        let me = std::thread::current().id();
        let mine = self.sessions.lock().expect("engine sessions").remove(&me);
        match mine.or_else(|| self.spare.lock().expect("spare engine").take()) {
            Some(session) => Ok(session),
            None => Session::start(&self.argv, G::NAME).map_err(Forfeit::NotStarted),
        }
    }
}

impl<G: Game> Agent<G> for UciAgent<G> {
    fn name(&self) -> String {
        self.label.clone()
    }

    /// For callers that cannot score a forfeit (the arena asks [`Agent::try_choose`]): the
    /// engine's move from this position alone, or a random legal move if it forfeits.
    fn choose(&self, game: &G, seed: u64) -> G::Move {
        let alone = GameSoFar { start: game, moves: &[], game: seed };
        self.try_choose(game, &alone, seed).unwrap_or_else(|_| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
            moves[rng.random_range(0..moves.len())]
        })
    }

    fn try_choose(&self, game: &G, played: &GameSoFar<'_, G>, _seed: u64) -> Result<G::Move, Forfeit> {
        let mut session = self.session()?;
        // A forfeiting engine is dropped here, which kills it.
        let mv = session.best_move(game, played, self.budget, self.stop)?;
        self.sessions.lock().expect("engine sessions").insert(std::thread::current().id(), session);
        Ok(mv)
    }
}

impl<G> Drop for UciAgent<G> {
    /// Asks every engine to quit (each is killed if it does not).
    fn drop(&mut self) {
        let sessions = std::mem::take(self.sessions.get_mut().unwrap_or_else(|e| e.into_inner()));
        let spare = self.spare.get_mut().unwrap_or_else(|e| e.into_inner()).take();
        for session in sessions.into_values().chain(spare) {
            session.process.quit();
        }
    }
}
