//! `vzero serve`: a local web page to play any variant against networks, alpha-beta or simple
//! players, see what the engine thinks while it searches, and watch training runs.
//!
//! One thread answers requests ([`api::respond`], a function of the request alone, which the
//! fuzz drives without a socket); every search runs on a thread of its own as a job of its game
//! ([`game::Job`]), which the page polls. The page itself (page.html, page.css, page.js) is
//! compiled into the binary.

mod api;
#[cfg(test)]
mod fuzz;
mod game;
mod page;
mod players;
mod runs;
mod save;

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::anyhow;
use arena::uci::EngineBudget;
use arena::PlayerOptions;
use rules::{Variant, VariantGame};
use serde_json::Value;

use crate::cli::{NetArgs, ServeArgs};
use crate::engine::{models_dir, open_session, EngineSettings, Limits, ModelChoice, Session};
use game::{Job, JobKind, MoveSearch, Table};
use players::{Roots, Seat};

/// Games kept at once; a new one beyond this ends the oldest.
const MAX_GAMES: usize = 32;
/// The largest request body read.
const MAX_BODY: u64 = 1 << 20;
/// Root moves a search reports (and the page draws as arrows).
const MULTIPV: usize = 5;
/// Interval of a search's reports to the page (which polls about three times as often).
const REPORT_EVERY: Duration = Duration::from_millis(250);
/// Threads answering requests: a slow answer (a run's chart) does not hold up the polls.
const WORKERS: usize = 4;
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
}

/// The server's state: its games, the networks loaded, and the jobs running.
pub struct App {
    settings: Settings,
    games: Mutex<Games>,
    /// One session per variant and network, shared by the games (a job holds it while it
    /// searches).
    sessions: Mutex<HashMap<SessionKey, Arc<Mutex<Session>>>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    closing: AtomicBool,
}

/// A session's variant and network (none: the uniform evaluator).
type SessionKey = (Variant, Option<PathBuf>);

#[derive(Default)]
struct Games {
    next: u64,
    tables: BTreeMap<u64, Table>,
}

/// Locks `m`, going on with the data of a thread that panicked while holding it (a job's panic
/// must not take every later request down with it).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl App {
    /// A server with no games yet.
    pub fn new(settings: Settings) -> Arc<App> {
        Arc::new(App {
            settings,
            games: Mutex::new(Games::default()),
            sessions: Mutex::new(HashMap::new()),
            threads: Mutex::new(Vec::new()),
            closing: AtomicBool::new(false),
        })
    }

    /// Starts a game and its first engine move if an engine is to move; returns its id.
    fn add_game(self: &Arc<App>, table: Table) -> u64 {
        let mut games = lock(&self.games);
        games.next += 1;
        let id = games.next;
        let mut table = table;
        table.seed = self.settings.seed ^ id.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        while games.tables.len() >= MAX_GAMES {
            if let Some((_, mut oldest)) = games.tables.pop_first() {
                oldest.changed();
            }
        }
        games.tables.insert(id, table);
        self.advance(&mut games, id);
        id
    }

    /// Runs `f` on game `id`, then starts the engine if it is to move; `None` for no such game.
    fn with_game<T>(self: &Arc<App>, id: u64, f: impl FnOnce(&mut Table) -> T) -> Option<T> {
        let mut games = lock(&self.games);
        let out = f(games.tables.get_mut(&id)?);
        self.advance(&mut games, id);
        Some(out)
    }

    /// Starts the move of the engine to move in game `id`, if one is and none is running.
    fn advance(self: &Arc<App>, games: &mut Games, id: u64) {
        let Some(table) = games.tables.get_mut(&id) else { return };
        if table.job.is_some() || self.closing.load(Ordering::Relaxed) || !self.settings.engines {
            return;
        }
        let Some(mover) = table.mover() else { return };
        let seat = table.seats[mover % table.seats.len()].clone();
        if seat.is_person() || table.note.is_some() {
            return;
        }
        self.start_job(table, id, seat, JobKind::Move);
    }

    /// Starts `seat`'s search of game `id`'s position on a thread of its own.
    fn start_job(self: &Arc<App>, table: &mut Table, id: u64, seat: Seat, kind: JobKind) {
        let job = Job {
            kind,
            who: seat.label(),
            stop: Arc::new(AtomicBool::new(false)),
            report: Arc::new(Mutex::new(None)),
            version: table.version,
        };
        let work = Work {
            variant: table.game.variant(),
            start: table.start.clone(),
            moves: table.moves(),
            seed: table.seed ^ table.played.len() as u64,
            stop: Arc::clone(&job.stop),
            report: Arc::clone(&job.report),
        };
        let version = job.version;
        table.job = Some(job);
        let app = Arc::clone(self);
        let spawned = std::thread::Builder::new().name(format!("serve-game-{id}")).spawn(move || {
            // A panic in a search must not leave the game thinking for ever.
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app.search(&seat, &work)))
                .unwrap_or_else(|_| Err("the engine failed (a bug: please report it)".into()));
            app.finish(id, version, kind, answer);
        });
        match spawned {
            Ok(handle) => {
                let mut threads = lock(&self.threads);
                threads.retain(|t| !t.is_finished());
                threads.push(handle);
            }
            Err(e) => {
                table.job = None;
                table.note = Some(format!("could not start the search: {e}"));
            }
        }
    }

    /// Plays or records what a job found, if its game has not moved on meanwhile.
    fn finish(self: &Arc<App>, id: u64, version: u64, kind: JobKind, answer: Result<Answer, String>) {
        let mut games = lock(&self.games);
        let Some(table) = games.tables.get_mut(&id) else { return };
        if table.version != version || table.job.as_ref().is_none_or(|j| j.version != version) {
            return;
        }
        table.job = None;
        match answer {
            Err(e) => table.note = Some(e),
            Ok(answer) => {
                if answer.report.is_some() {
                    table.analysis = answer.report;
                }
                if kind == JobKind::Move {
                    if let Err(e) = table.play(&answer.best, answer.search) {
                        table.note = Some(format!("the engine's move '{}': {e}", answer.best));
                    }
                }
            }
        }
        self.advance(&mut games, id);
    }

    /// The search of one job: a fixed player's choice, or a network's search reporting as it
    /// goes.
    fn search(&self, seat: &Seat, work: &Work) -> Result<Answer, String> {
        let game = VariantGame::setup(work.variant, Some(&work.start), &work.moves).map_err(|e| e.to_string())?;
        match seat {
            Seat::Person => Err("a person's seat has no engine".into()),
            Seat::Fixed(spec) => {
                let best = players::fixed_move(spec, &game, work.seed, self.player_options())?;
                Ok(Answer { best, report: None, search: None })
            }
            Seat::Network { model, sims } => {
                let session = self.session(work.variant, model.clone())?;
                let mut session = lock(&session);
                session.set_position(Some(&work.start), &work.moves).map_err(|e| e.to_string())?;
                let model_text = session.model().map(|p| p.display().to_string());
                let position = session.game().to_text();
                let variant = work.variant.name();
                let json = |a: &crate::engine::Analysis| {
                    crate::cmd::analyse::to_json(variant, model_text.as_deref(), &position, *sims, a)
                };
                let limits = Limits { nodes: Some(*sims), ..Limits::default() };
                let settings = EngineSettings {
                    threads: 1,
                    multipv: MULTIPV,
                    leaves: self.settings.net.leaves,
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
                Ok(Answer { best, report: Some(json(&report)), search: Some(search) })
            }
        }
    }

    /// The session of `variant` with `model`, opened on first use.
    fn session(&self, variant: Variant, model: Option<PathBuf>) -> Result<Arc<Mutex<Session>>, String> {
        let mut sessions = lock(&self.sessions);
        if let Some(s) = sessions.get(&(variant, model.clone())) {
            return Ok(Arc::clone(s));
        }
        let inference = self.settings.net.inference(1).map_err(|e| e.to_string())?;
        let session = Arc::new(Mutex::new(open_session(variant, model.as_deref(), inference)?));
        sessions.insert((variant, model), Arc::clone(&session));
        Ok(session)
    }

    /// How fixed players are built (the arena's options; only alpha-beta and mcts read them).
    fn player_options(&self) -> PlayerOptions {
        PlayerOptions {
            default_sims: self.settings.sims,
            leaves: self.settings.net.leaves,
            engine_budget: EngineBudget::Nodes(self.settings.sims),
            inference: nn::Inference::choose(nn::Device::Cpu, nn::PrecisionChoice::Fp32),
            tactics: self.settings.net.tactics(),
            reuse_trees: false,
        }
    }

    /// Ends every job, waits for their threads (at most [`CLOSE_WAIT`]: an alpha-beta search
    /// cannot be stopped, and the process ends anyway) and closes the networks no job holds.
    pub fn close(&self) {
        self.closing.store(true, Ordering::Relaxed);
        for table in lock(&self.games).tables.values_mut() {
            table.changed();
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
            if let Ok(session) = Arc::try_unwrap(session) {
                session.into_inner().unwrap_or_else(|p| p.into_inner()).close();
            }
        }
    }
}

/// What a job needs of its game, copied so that it searches without the games' lock.
struct Work {
    variant: Variant,
    start: String,
    moves: Vec<String>,
    seed: u64,
    stop: Arc<AtomicBool>,
    report: Arc<Mutex<Option<Value>>>,
}

/// What a job found.
struct Answer {
    /// The move to play.
    best: String,
    /// The final report of a network's search.
    report: Option<Value>,
    search: Option<MoveSearch>,
}

/// The run directories under `folders`: each folder that is a run (has a config.toml), else
/// its subfolders that are, by name.
pub fn find_runs(folders: &[PathBuf]) -> Vec<PathBuf> {
    let is_run = |p: &std::path::Path| p.join("config.toml").is_file();
    let mut runs = Vec::new();
    for folder in folders {
        if is_run(folder) {
            runs.push(folder.clone());
            continue;
        }
        let mut inside: Vec<PathBuf> = std::fs::read_dir(folder)
            .map(|entries| entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| is_run(p)).collect())
            .unwrap_or_default();
        inside.sort();
        runs.extend(inside);
    }
    runs
}

/// Serves the page until a stop signal.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let stop = crate::stop::on_stop_signal("the server: searches end, open games are dropped")?;
    for dir in &args.runs {
        if !dir.is_dir() {
            return Err(crate::cli::usage(format!("--runs: '{}' is not a folder", dir.display())));
        }
    }
    let mut folders = vec![models_dir()];
    folders.extend(args.runs.iter().cloned());
    if let ModelChoice::Path(path) = &args.engine.model {
        crate::engine::model_variant(path).map_err(|e| anyhow!("--model: {e}"))?;
        folders.push(path.clone());
    }
    let settings = Settings {
        model: args.engine.model.clone(),
        sims: args.sims,
        runs: args.runs.clone(),
        roots: Roots::new(&folders),
        net: args.net.clone(),
        seed: args.seed,
        engines: true,
    };
    let server = tiny_http::Server::http((args.bind, args.port))
        .map_err(|e| anyhow!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
    let addr = server.server_addr().to_ip().ok_or_else(|| anyhow!("the server has no IP address"))?;
    if !args.bind.is_loopback() {
        eprintln!(
            "vzero: warning: serving on {addr}, reachable from other machines: anyone who reaches it can play, \
             search and read the runs; --bind 127.0.0.1 serves this machine only"
        );
    }
    println!("vzero serve: http://{addr}/ (Ctrl-C stops)");
    let app = App::new(settings);
    let (port, loopback) = (addr.port(), args.bind.is_loopback());
    let failed = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) && lock(&failed).is_none() {
                    match server.recv_timeout(Duration::from_millis(100)) {
                        Ok(Some(request)) => answer(&app, request, port, loopback),
                        Ok(None) => {}
                        Err(e) => *lock(&failed) = Some(e),
                    }
                }
            });
        }
    });
    app.close();
    if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(anyhow!("the server stopped: {e}"));
    }
    eprintln!("vzero serve: stopped");
    Ok(())
}

/// Reads one request, answers it and sends the answer.
fn answer(app: &Arc<App>, mut request: tiny_http::Request, port: u16, loopback: bool) {
    let mut body = Vec::new();
    let too_long = request.body_length().is_some_and(|n| n as u64 > MAX_BODY);
    let read = request.as_reader().take(MAX_BODY + 1).read_to_end(&mut body);
    let header = |name: &'static str| {
        request.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str().to_string())
    };
    let host = header("Host");
    // A body of another type (a form, plain text) is what another site's page can send here
    // without asking; JSON makes the browser ask first, which this server never allows.
    let json = header("Content-Type").is_some_and(|t| t.trim_start().starts_with("application/json"));
    let post = request.method() == &tiny_http::Method::Post;
    let response = if too_long || body.len() as u64 > MAX_BODY {
        api::Response::error(413, format!("a request body is at most {MAX_BODY} bytes"))
    } else if read.is_err() {
        api::Response::error(400, "the request body could not be read".into())
    } else if loopback && !api::local_host(host.as_deref(), port) {
        api::Response::error(403, "this server answers requests to localhost only".into())
    } else if post && !json {
        api::Response::error(415, "a request body is JSON, sent as Content-Type: application/json".into())
    } else {
        let method = request.method().as_str().to_string();
        api::respond(app, &method, request.url(), &body)
    };
    let _ = request.respond(response.into_http());
}
