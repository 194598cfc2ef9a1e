//! The server's state: its games, the networks it has loaded, and the searches running for
//! the games, each on a thread of its own and with a session of its own, so that no game's
//! search waits for another's (the sessions of one network share it and its batches).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use arena::uci::EngineBudget;
use arena::PlayerOptions;
use rules::{Variant, VariantGame};

use super::game::{Game, Job, MoveSearch};
use super::players::{self, Roots, Seat};
use super::wire::{JobKind, Report};
use crate::cli::NetArgs;
use crate::engine::{open_session, EngineSettings, Limits, ModelChoice, Session};

/// Games kept at once; a new one beyond this ends the one no page has asked about longest.
pub const MAX_GAMES: usize = 100;
/// A game a page asked about this recently is taken to be on a page's screen (which polls it
/// about three times a second), and is never ended for a new one: the new one is refused.
pub const SHOWN: Duration = Duration::from_secs(30);
/// Root moves a search reports (and the page draws as arrows).
const MULTIPV: usize = 5;
/// Interval of a search's reports to the page (which polls about three times as often).
const REPORT_EVERY: Duration = Duration::from_millis(250);
/// How long a stopping server waits for its searches to end.
const CLOSE_WAIT: Duration = Duration::from_secs(10);

/// What the server was started with.
pub struct Settings {
    /// The network the page offers first.
    pub model: ModelChoice,
    /// Visits of a network player that names none.
    pub sims: u32,
    /// The run directories found under `--runs`, looked for again on each request.
    pub runs: Vec<PathBuf>,
    /// Where networks and runs may be read.
    pub roots: Roots,
    /// How searches use the network.
    pub net: NetArgs,
    /// Seed of the fixed players' choices, mixed with each game's id.
    pub seed: u64,
    /// Whether engines move and analyse (off in the request fuzz, which checks the handlers).
    pub engines: bool,
    /// The id of the first game: numbered from the clock, so that a page reloaded after a
    /// restart finds no game under its id rather than another one.
    pub first_id: u64,
}

/// The server's state: its games, the networks loaded, and the jobs running.
pub struct App {
    /// What it was started with.
    pub settings: Settings,
    games: Mutex<Games>,
    /// One session per variant and network, opened on first use; each job searches a fork of
    /// it.
    sessions: Mutex<HashMap<SessionKey, Session>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    closing: AtomicBool,
}

/// A session's variant and network (none: the uniform evaluator).
type SessionKey = (Variant, Option<PathBuf>);

/// The games open on the page, by id.
struct Games {
    /// The id of the last game begun: ids are never reused, so a page's late request for an
    /// ended game gets a 404, not another game.
    next: u64,
    open: BTreeMap<u64, Game>,
}

/// Locks `m`, going on with the data of a thread that panicked while holding it (a job's panic
/// must not take every later request down with it).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl App {
    /// A server with no games yet.
    pub fn new(settings: Settings) -> Arc<App> {
        let next = settings.first_id.saturating_sub(1);
        Arc::new(App {
            settings,
            games: Mutex::new(Games { next, open: BTreeMap::new() }),
            sessions: Mutex::new(HashMap::new()),
            threads: Mutex::new(Vec::new()),
            closing: AtomicBool::new(false),
        })
    }

    /// Starts a game and its first engine move if an engine is to move; returns its id. With
    /// [`MAX_GAMES`] open, the game no page has asked about longest ends (its search stopped),
    /// unless every game was asked about within [`SHOWN`]: then the new one is refused, in words.
    pub fn add_game(self: &Arc<App>, mut game: Game) -> Result<u64, String> {
        let mut games = lock(&self.games);
        while games.open.len() >= MAX_GAMES {
            let (&unseen, oldest) = games.open.iter().min_by_key(|(_, g)| g.seen).expect("a full table has games");
            if oldest.seen.elapsed() < SHOWN {
                return Err(format!(
                    "the server holds {MAX_GAMES} games, each shown on a page in the last {} seconds: \
                     close a page or try again later",
                    SHOWN.as_secs()
                ));
            }
            if let Some(mut ended) = games.open.remove(&unseen) {
                ended.changed();
            }
        }
        games.next += 1;
        let id = games.next;
        game.seed = self.settings.seed ^ id.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        games.open.insert(id, game);
        self.advance(&mut games, id);
        Ok(id)
    }

    /// Runs `f` on game `id` without changing its position (it is marked seen); `None` for no
    /// such game.
    pub fn read_game<T>(&self, id: u64, f: impl FnOnce(&Game) -> T) -> Option<T> {
        let mut games = lock(&self.games);
        let game = games.open.get_mut(&id)?;
        game.seen = Instant::now();
        game.check_time();
        Some(f(game))
    }

    /// Runs `f` on game `id` (marked seen), then starts the engine if it is to move; `None` for
    /// no such game.
    pub fn with_game<T>(self: &Arc<App>, id: u64, f: impl FnOnce(&mut Game) -> T) -> Option<T> {
        let mut games = lock(&self.games);
        let game = games.open.get_mut(&id)?;
        game.seen = Instant::now();
        game.check_time();
        let out = f(game);
        self.advance(&mut games, id);
        Some(out)
    }

    /// Starts the move of the engine to move in game `id`, if one is and none is running.
    fn advance(self: &Arc<App>, games: &mut Games, id: u64) {
        let Some(game) = games.open.get_mut(&id) else { return };
        if game.job.is_some() || self.closing.load(Ordering::Relaxed) || !self.settings.engines {
            return;
        }
        let Some(mover) = game.mover() else { return };
        let seat = game.seats[mover % game.seats.len()].clone();
        if seat.is_person() || game.note.is_some() {
            return;
        }
        self.start_job(game, id, seat, JobKind::Move);
    }

    /// Starts `seat`'s search of game `id`'s position on a thread of its own.
    pub fn start_job(self: &Arc<App>, game: &mut Game, id: u64, seat: Seat, kind: JobKind) {
        let job = Job {
            kind,
            who: seat.title(),
            stop: Arc::new(AtomicBool::new(false)),
            report: Arc::new(Mutex::new(None)),
            version: game.version,
        };
        let work = Work {
            variant: game.position.variant(),
            start: game.start.clone(),
            moves: game.moves(),
            seed: game.seed ^ game.played.len() as u64,
            // A timed engine's share of its clock, as a UCI engine takes it.
            movetime: match (kind, game.mover(), &game.clocks) {
                (JobKind::Move, Some(mover), Some(clocks)) => clocks.budget(mover),
                _ => None,
            },
            stop: Arc::clone(&job.stop),
            report: Arc::clone(&job.report),
        };
        let version = job.version;
        game.job = Some(job);
        let app = Arc::clone(self);
        let spawned = std::thread::Builder::new().name(format!("serve-game-{id}")).spawn(move || {
            // A panic in a search must not leave the game thinking for ever.
            let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app.search(&seat, &work)))
                .unwrap_or_else(|_| Err("the engine failed (a bug: please report it)".into()));
            app.finish(id, version, kind, found);
        });
        match spawned {
            Ok(handle) => {
                let mut threads = lock(&self.threads);
                threads.retain(|t| !t.is_finished());
                threads.push(handle);
            }
            Err(e) => {
                game.job = None;
                game.note = Some(format!("could not start the search: {e}"));
            }
        }
    }

    /// Plays or records what a job found, if its game has not moved on meanwhile.
    fn finish(self: &Arc<App>, id: u64, version: u64, kind: JobKind, found: Result<Found, String>) {
        let mut games = lock(&self.games);
        let Some(game) = games.open.get_mut(&id) else { return };
        // A move found after the mover's time ran out is not played: the game is lost on time.
        game.check_time();
        if game.version != version || game.job.as_ref().is_none_or(|j| j.version != version) {
            return;
        }
        game.job = None;
        match found {
            Err(e) => game.note = Some(e),
            Ok(found) => {
                if found.report.is_some() {
                    game.analysis = found.report;
                }
                if kind == JobKind::Move {
                    if let Err(e) = game.play(&found.best, found.search) {
                        game.note = Some(format!("the engine's move '{}': {e}", found.best));
                    }
                }
            }
        }
        self.advance(&mut games, id);
    }

    /// The search of one job: a fixed player's choice, or a network's search reporting as it
    /// goes.
    fn search(&self, seat: &Seat, work: &Work) -> Result<Found, String> {
        let game = VariantGame::setup(work.variant, Some(&work.start), &work.moves).map_err(|e| e.to_string())?;
        match seat {
            Seat::Person => Err("a person's seat has no engine".into()),
            Seat::Fixed(spec) => {
                // A fixed player's search ends as a stopped one does, with its best move so far.
                if let Some(time) = work.movetime {
                    let stop = Arc::clone(&work.stop);
                    std::thread::spawn(move || {
                        std::thread::sleep(time);
                        stop.store(true, Ordering::Relaxed);
                    });
                }
                let best = players::fixed_move(spec, &game, work.seed, self.player_options(), &work.stop)?;
                Ok(Found { best, report: None, search: None })
            }
            Seat::Network { model, sims } => {
                let mut session = self.session(work.variant, model.clone())?;
                session.set_position(Some(&work.start), &work.moves).map_err(|e| e.to_string())?;
                let model_text = session.model().map(|p| p.display().to_string());
                let position = session.game().to_text();
                let variant = work.variant.name();
                let json = |a: &crate::engine::Analysis| {
                    crate::cmd::analyse::to_json(variant, model_text.as_deref(), &position, *sims, a)
                };
                let limits = Limits { nodes: Some(*sims), movetime: work.movetime, ..Limits::default() };
                let settings = EngineSettings {
                    threads: 1,
                    multipv: MULTIPV,
                    leaves: Some(self.settings.net.leaves),
                    tactics: self.settings.net.tactics(),
                    info_every: REPORT_EVERY,
                };
                let report = session.search(&limits, settings, &work.stop, &mut |a| {
                    *lock(&work.report) = Some(json(a));
                });
                let best = report.best().ok_or("the search found no move")?.to_string();
                let search = MoveSearch {
                    visits: report.lines.iter().map(|l| (l.mv.clone(), l.visits)).collect(),
                    values: Some(report.values.clone()),
                };
                Ok(Found { best, report: Some(json(&report)), search: Some(search) })
            }
        }
    }

    /// A session of its own for one search of `variant` with `model`: a fork of the one
    /// opened on first use (outside the lock, so that a network loading holds up no other
    /// game's search).
    fn session(&self, variant: Variant, model: Option<PathBuf>) -> Result<Session, String> {
        let key = (variant, model);
        if let Some(s) = lock(&self.sessions).get(&key) {
            return Ok(s.fork());
        }
        let inference = self.settings.net.inference(1).map_err(|e| e.to_string())?;
        let opened = open_session(variant, key.1.as_deref(), inference)?;
        let mut sessions = lock(&self.sessions);
        // Two games may have opened it at once: the first kept is the one all fork from.
        let session = sessions.entry(key).or_insert(opened);
        Ok(session.fork())
    }

    /// How fixed players are built (the arena's options; only alpha-beta and mcts read them).
    fn player_options(&self) -> PlayerOptions {
        PlayerOptions {
            default_sims: self.settings.sims,
            leaves: Some(self.settings.net.leaves),
            engine_budget: EngineBudget::Nodes(self.settings.sims),
            inference: nn::Inference::choose(nn::Device::Cpu, nn::PrecisionChoice::Fp32),
            tactics: self.settings.net.tactics(),
            reuse_trees: false,
            stop: None,
        }
    }

    /// Ends every job, waits for their threads (at most [`CLOSE_WAIT`]: each stops within a
    /// network batch or a few thousand nodes, and the process ends anyway) and closes the
    /// networks no job holds.
    pub fn close(&self) {
        self.closing.store(true, Ordering::Relaxed);
        for game in lock(&self.games).open.values_mut() {
            game.changed();
        }
        let threads = std::mem::take(&mut *lock(&self.threads));
        let begun = std::time::Instant::now();
        while threads.iter().any(|t| !t.is_finished()) && begun.elapsed() < CLOSE_WAIT {
            std::thread::sleep(Duration::from_millis(10));
        }
        for t in threads.into_iter().filter(|t| t.is_finished()) {
            let _ = t.join();
        }
        let sessions = std::mem::take(&mut *lock(&self.sessions));
        for (_, session) in sessions {
            session.close();
        }
    }
}

/// What a job needs of its game, copied so that it searches without the games' lock.
struct Work {
    variant: Variant,
    start: String,
    moves: Vec<String>,
    seed: u64,
    /// The time the search may take, in a timed game.
    movetime: Option<Duration>,
    stop: Arc<AtomicBool>,
    report: Arc<Mutex<Option<Report>>>,
}

/// What a job found.
struct Found {
    /// The move to play.
    best: String,
    /// The final report of a network's search.
    report: Option<Report>,
    search: Option<MoveSearch>,
}
