//! The handlers of the routes (routes.rs): the page and its assets, the JSON API the page
//! calls (its bodies and replies are wire.rs's types), and the run views.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rules::{Variant, VariantGame};

use super::app::App;
use super::game::{board_reply, Game};
use super::http::{Refusal, Response};
use super::players::{check_sims, choices, Seat};
use super::request::Request;
use super::wire::{
    AnalyseRequest, IdRequest, JobKind, LoadRequest, MoveRequest, NewRequest, PlayersReply, PositionRequest,
    VariantInfo, VariantsReply,
};
use super::{page, runs, save};
use crate::engine::{Clocks, TimeControl};

/// What a handler returns: its answer, or why the request is refused.
pub type Answer = Result<Response, Refusal>;

/// `GET /` and `GET /index.html`: the page.
pub fn page_html(_: &Request) -> Answer {
    Ok(Response::text("text/html", page::PAGE_HTML.to_string()))
}

/// `GET /page.css`.
pub fn page_css(_: &Request) -> Answer {
    Ok(Response::text("text/css", page::PAGE_CSS.to_string()))
}

/// `GET /page.js`.
pub fn page_js(_: &Request) -> Answer {
    Ok(Response::text("text/javascript", page::PAGE_JS.to_string()))
}

/// `GET /api/variants`.
pub fn variants(_: &Request) -> Answer {
    let variants = Variant::ALL
        .iter()
        .map(|&v| VariantInfo {
            name: v.name(),
            summary: v.summary(),
            players: v.players(),
            seats: VariantGame::start(v).diagram().map(|d| d.players).unwrap_or_default(),
        })
        .collect();
    Ok(Response::json(&VariantsReply { variants }))
}

/// `GET /api/players?variant=V`.
pub fn players(request: &Request) -> Answer {
    let variant = request.query.variant()?;
    let s = &request.app.settings;
    let runs = runs::find_runs(&s.runs);
    let players = choices(variant, &s.model, &runs, s.sims);
    // The --model network first among the engines, else the shipped one, else alpha-beta.
    let engine = players.iter().skip(1).find(|c| c.text != "random").map(|c| c.text.clone());
    Ok(Response::json(&PlayersReply { players, engine, sims: s.sims }))
}

/// `GET /api/board?variant=V`.
pub fn board(request: &Request) -> Answer {
    Ok(Response::json(&board_reply(request.query.variant()?)))
}

/// `GET /api/game?id=N`.
pub fn game(request: &Request) -> Answer {
    state_of(request.app, request.query.id()?)
}

/// `GET /api/ply?id=N&ply=K`.
pub fn ply(request: &Request) -> Answer {
    let (id, ply) = (request.query.id()?, request.query.number("ply")?);
    let view = request.app.read_game(id, |game| game.ply_reply(id, ply.try_into().unwrap_or(usize::MAX)));
    Ok(Response::json(&view.ok_or_else(|| missing(id))?.map_err(Refusal::Bad)?))
}

/// The refusal of a request for game `id`, which is not open.
fn missing(id: u64) -> Refusal {
    Refusal::NotFound(format!("no game {id} (the server was restarted, or the game was ended for a newer one)"))
}

/// The state of game `id`.
fn state_of(app: &Arc<App>, id: u64) -> Answer {
    let state = app.read_game(id, |game| game.reply(id)).ok_or_else(|| missing(id))?;
    Ok(Response::json(&state))
}

/// `POST /api/new`.
pub fn new_game(request: &Request) -> Answer {
    let (app, r) = (request.app, request.body::<NewRequest>()?);
    let variant = r.variant.parse::<Variant>().map_err(|e| Refusal::Bad(e.to_string()))?;
    open_game(app, variant, &r.players, r.position.as_deref(), &r.moves, &r.clocks)
}

/// `POST /api/load`: the first game of a game text (docs/games.md), its seats played by the
/// request's players, or all by the person.
pub fn load_game(request: &Request) -> Answer {
    let (app, r) = (request.app, request.body::<LoadRequest>()?);
    let games = rules::read_games(&r.text, None).map_err(|e| Refusal::Bad(format!("the game text: {e}")))?;
    let game = games.into_iter().next().ok_or_else(|| Refusal::Bad("the game text holds no game".into()))?;
    let players = r.players.unwrap_or_else(|| vec![super::players::PERSON.to_string(); game.variant.players()]);
    open_game(app, game.variant, &players, game.start.as_deref(), &game.moves, &[])
}

/// A new game of `variant` with `players` from `position` (the start if `None`) after `moves`,
/// its seats' clocks set by `clocks` (none for a seat left out).
fn open_game(
    app: &Arc<App>,
    variant: Variant,
    players: &[String],
    position: Option<&str>,
    moves: &[String],
    clocks: &[Option<TimeControl>],
) -> Answer {
    if players.len() != variant.players() {
        return Err(Refusal::Bad(format!(
            "{variant} has {} seats, the request names {} players",
            variant.players(),
            players.len()
        )));
    }
    let s = &app.settings;
    let seats = players
        .iter()
        .map(|p| Seat::parse(p, variant, &s.roots, s.sims))
        .collect::<Result<Vec<Seat>, String>>()
        .map_err(Refusal::Bad)?;
    let controls = clocks
        .iter()
        .map(|c| c.map(TimeControl::checked).transpose())
        .collect::<Result<Vec<_>, String>>()
        .map_err(Refusal::Bad)?;
    let mut game = Game::new(variant, position, seats).map_err(Refusal::Bad)?;
    for (i, text) in moves.iter().enumerate() {
        game.play(text, None).map_err(|e| Refusal::Bad(format!("move {} of the game: {e}", i + 1)))?;
    }
    // Started once the moves restored are in: they took no one's time.
    game.clocks = Clocks::new(&controls, variant.players());
    let id = app.add_game(game).map_err(Refusal::Busy)?;
    state_of(app, id)
}

/// `POST /api/move`.
pub fn play(request: &Request) -> Answer {
    let (app, r) = (request.app, request.body::<MoveRequest>()?);
    app.with_game(r.id, |game| {
        let mover =
            game.mover().ok_or_else(|| Refusal::Bad(game.over_text().unwrap_or_else(|| "the game is over".into())))?;
        if !game.seats[mover % game.seats.len()].is_person() {
            return Err(Refusal::Conflict(format!("it is {}'s move, not yours", game.seats[mover].title())));
        }
        game.play(&r.text, None).map_err(Refusal::Bad)
    })
    .ok_or_else(|| missing(r.id))??;
    state_of(app, r.id)
}

/// `POST /api/undo`.
pub fn undo(request: &Request) -> Answer {
    let (app, IdRequest { id }) = (request.app, request.body()?);
    let undone = app.with_game(id, Game::undo).ok_or_else(|| missing(id))?;
    if !undone {
        return Err(Refusal::Bad("there is no move to take back".into()));
    }
    state_of(app, id)
}

/// `POST /api/position`.
pub fn set_position(request: &Request) -> Answer {
    let (app, r) = (request.app, request.body::<PositionRequest>()?);
    app.with_game(r.id, |game| {
        let fresh = Game::new(game.position.variant(), Some(&r.position), game.seats.clone()).map_err(Refusal::Bad)?;
        game.changed();
        // The clocks go on as they were (a lost game stays lost); the mover's runs from now.
        let mut clocks = game.clocks.take();
        if let Some(c) = &mut clocks {
            c.restart();
        }
        *game = Game { version: game.version, seed: game.seed, clocks, flag: game.flag, ..fresh };
        Ok(())
    })
    .ok_or_else(|| missing(r.id))??;
    state_of(app, r.id)
}

/// `POST /api/analyse`.
pub fn analyse(request: &Request) -> Answer {
    let (app, r) = (request.app, request.body::<AnalyseRequest>()?);
    check_sims(r.sims).map_err(Refusal::Bad)?;
    if !app.settings.engines {
        return Err(Refusal::Conflict("this server runs no engines".into()));
    }
    let state = app
        .with_game(r.id, |game| {
            if let Some(job) = &game.job {
                return Err(Refusal::Conflict(format!("{} is still searching; stop it first", job.who)));
            }
            if game.mover().is_none() {
                return Err(Refusal::Bad(game.over_text().unwrap_or_else(|| "the game is over".into())));
            }
            let text = format!("{}:{}", r.model.trim(), r.sims);
            let seat =
                Seat::parse(&text, game.position.variant(), &app.settings.roots, r.sims).map_err(Refusal::Bad)?;
            if !matches!(seat, Seat::Network { .. }) {
                return Err(Refusal::Bad(format!("model '{}': expected default, none or a network's path", r.model)));
            }
            app.start_job(game, r.id, seat, JobKind::Analysis);
            Ok(game.reply(r.id))
        })
        .ok_or_else(|| missing(r.id))??;
    Ok(Response::json(&state))
}

/// `POST /api/stop`.
pub fn stop(request: &Request) -> Answer {
    let (app, IdRequest { id }) = (request.app, request.body()?);
    app.read_game(id, |game| {
        if let Some(job) = &game.job {
            job.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })
    .ok_or_else(|| missing(id))?;
    state_of(app, id)
}

/// `GET /api/save?id=N`: the game as a replay shard, downloaded; with `as=text`, as text
/// (docs/games.md).
pub fn save_game(request: &Request) -> Answer {
    let (app, id) = (request.app, request.query.id()?);
    match request.query.get("as") {
        None | Some("shard") => {}
        Some("text") => {
            let (text, variant) = app
                .read_game(id, |game| (save::text_of(game).write(), game.position.variant()))
                .ok_or_else(|| missing(id))?;
            let name = format!("vzero-{}-game-{id}.{}", variant.name(), rules::game_text::EXTENSION);
            let body = text.into_bytes();
            return Ok(Response { status: 200, content_type: "text/plain; charset=utf-8", body, download: Some(name) });
        }
        Some(other) => return Err(Refusal::Bad(format!("as='{other}': expected text or shard"))),
    }
    let (bytes, variant) =
        app.read_game(id, |game| (save::shard_of(game), game.position.variant())).ok_or_else(|| missing(id))?;
    let bytes = bytes.map_err(Refusal::Failed)?;
    let name = format!("vzero-{}-game-{id}.shard", variant.name());
    Ok(Response { status: 200, content_type: "application/octet-stream", body: bytes, download: Some(name) })
}

/// `GET /api/runs`.
pub fn list_runs(request: &Request) -> Answer {
    Ok(Response::json(&runs::list(&request.app.settings.runs)))
}

/// `GET /api/run?run=PATH`.
pub fn run_view(request: &Request) -> Answer {
    let dir = run_dir(request)?;
    Ok(Response::json(&runs::view(&dir)?))
}

/// `GET /run/plot.svg?run=PATH`.
pub fn run_plot(request: &Request) -> Answer {
    runs::plot(&run_dir(request)?)
}

/// `GET /run/game?run=PATH&shard=NAME&game=I`.
pub fn run_game(request: &Request) -> Answer {
    let dir = run_dir(request)?;
    let shard = request.query.get("shard").ok_or_else(|| Refusal::Bad("shard= is missing".into()))?;
    let index = request.query.number("game")?;
    runs::game_page(&dir, shard, index as usize)
}

/// The run directory `run=` names, if it is one of the runs being watched.
fn run_dir(request: &Request) -> Result<PathBuf, Refusal> {
    let app = request.app;
    let text = request.query.get("run").ok_or_else(|| Refusal::Bad("run= is missing".into()))?;
    let real = app.settings.roots.check(Path::new(text)).map_err(Refusal::Forbidden)?;
    runs::find_runs(&app.settings.runs)
        .into_iter()
        .find(|r| r.canonicalize().is_ok_and(|c| c == real))
        .ok_or_else(|| Refusal::NotFound(format!("'{text}' is not a run directory this server watches (--runs)")))
}
