//! The server's answers: the page and its assets, the JSON API the page calls, and the run
//! views. [`respond`] is a function of the request's method, address and body alone, so the
//! fuzz drives it without a socket. Every refusal is a JSON object `{"error": "..."}` with one
//! line saying why, and a 4xx status.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rules::{Variant, VariantGame};
use serde::Deserialize;

use super::app::App;
use super::game::{board, Game};
use super::http::{Refusal, Response};
use super::players::{choices, Seat};
use super::wire::{
    AnalyseRequest, IdRequest, JobKind, MoveRequest, NewRequest, PlayersReply, PositionRequest, VariantInfo,
    VariantsReply,
};
use super::{page, runs, save};

/// What a handler returns: its answer, or why the request is refused.
type Answer = Result<Response, Refusal>;

/// Answers one request.
pub fn respond(app: &Arc<App>, method: &str, url: &str, body: &[u8]) -> Response {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let query = Query::parse(query);
    let answer = match (method, path) {
        ("GET", "/") | ("GET", "/index.html") => Ok(Response::text("text/html", page::PAGE_HTML.to_string())),
        ("GET", "/page.css") => Ok(Response::text("text/css", page::PAGE_CSS.to_string())),
        ("GET", "/page.js") => Ok(Response::text("text/javascript", page::PAGE_JS.to_string())),
        ("GET", "/api/variants") => Ok(variants()),
        ("GET", "/api/players") => players(app, &query),
        ("GET", "/api/board") => query.variant().map(|v| Response::json(&board(v))),
        ("GET", "/api/game") => query.id().and_then(|id| game_state(app, id)),
        ("GET", "/api/save") => query.id().and_then(|id| save(app, id)),
        ("POST", "/api/new") => parse(body).and_then(|r| new_game(app, r)),
        ("POST", "/api/move") => parse(body).and_then(|r: MoveRequest| play(app, r)),
        ("POST", "/api/undo") => parse(body).and_then(|r: IdRequest| undo(app, r.id)),
        ("POST", "/api/position") => parse(body).and_then(|r| set_position(app, r)),
        ("POST", "/api/analyse") => parse(body).and_then(|r| analyse(app, r)),
        ("POST", "/api/stop") => parse(body).and_then(|r: IdRequest| stop(app, r.id)),
        ("GET", "/api/runs") => Ok(Response::json(&runs::list(&app.settings.runs))),
        ("GET", "/api/run") => run_dir(app, &query).and_then(|dir| Ok(Response::json(&runs::view(&dir)?))),
        ("GET", "/run/plot.svg") => run_dir(app, &query).and_then(|dir| runs::plot(&dir)),
        ("GET", "/run/game") => run_dir(app, &query).and_then(|dir| {
            let shard = query.get("shard").ok_or_else(|| Refusal::Bad("shard= is missing".into()))?;
            let index = query.number("game")?;
            runs::game_page(&dir, shard, index as usize)
        }),
        (_, "/" | "/index.html" | "/page.css" | "/page.js" | "/api/variants" | "/api/players" | "/api/board")
        | (_, "/api/game" | "/api/save" | "/api/runs" | "/api/run" | "/run/plot.svg" | "/run/game") => {
            Err(Refusal::WrongMethod(format!("{method} {path}: this address answers GET only")))
        }
        (_, p) if p.starts_with("/api/") && is_post_route(p) => {
            Err(Refusal::WrongMethod(format!("{method} {path}: this address answers POST only")))
        }
        _ => Err(Refusal::NotFound(format!("{path}: no such page or API (see docs/serve.md)"))),
    };
    answer.unwrap_or_else(Response::refused)
}

fn is_post_route(path: &str) -> bool {
    ["/api/new", "/api/move", "/api/undo", "/api/position", "/api/analyse", "/api/stop"].contains(&path)
}

/// The query of an address, percent-decoded.
struct Query(Vec<(String, String)>);

impl Query {
    fn parse(text: &str) -> Query {
        Query(
            text.split('&')
                .filter(|p| !p.is_empty())
                .map(|pair| {
                    let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                    (decode(k), decode(v))
                })
                .collect(),
        )
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn number(&self, key: &str) -> Result<u64, Refusal> {
        let text = self.get(key).ok_or_else(|| Refusal::Bad(format!("{key}= is missing")))?;
        text.parse().map_err(|_| Refusal::Bad(format!("{key}='{text}': expected a whole number")))
    }

    fn id(&self) -> Result<u64, Refusal> {
        self.number("id")
    }

    fn variant(&self) -> Result<Variant, Refusal> {
        let text = self.get("variant").ok_or_else(|| Refusal::Bad("variant= is missing".into()))?;
        text.parse::<Variant>().map_err(|e| Refusal::Bad(e.to_string()))
    }
}

/// `text` with `+` as a space and `%XX` as its byte; a broken escape is kept as written, and
/// bytes that are not UTF-8 become U+FFFD.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
                (Some(hi), Some(lo)) => {
                    out.push((hi * 16 + lo) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A request body read as `T`; the refusal names what did not read.
fn parse<'a, T: Deserialize<'a>>(body: &'a [u8]) -> Result<T, Refusal> {
    serde_json::from_slice(body).map_err(|e| Refusal::Bad(format!("the request body: {e}")))
}

fn variants() -> Response {
    let variants = Variant::ALL
        .iter()
        .map(|&v| VariantInfo {
            name: v.name(),
            summary: v.summary(),
            players: v.players(),
            seats: VariantGame::start(v).diagram().map(|d| d.players).unwrap_or_default(),
        })
        .collect();
    Response::json(&VariantsReply { variants })
}

fn players(app: &App, query: &Query) -> Answer {
    let variant = query.variant()?;
    let s = &app.settings;
    let runs = runs::find_runs(&s.runs);
    let players = choices(variant, &s.model, &runs, s.sims);
    // The --model network first among the engines, else the shipped one, else alpha-beta.
    let engine = players.iter().skip(1).find(|c| c.text != "random").map(|c| c.text.clone());
    Ok(Response::json(&PlayersReply { players, engine, sims: s.sims }))
}

/// The refusal of a request for game `id`, which is not open.
fn missing(id: u64) -> Refusal {
    Refusal::NotFound(format!("no game {id} (the server was restarted, or the game was ended for a newer one)"))
}

fn game_state(app: &Arc<App>, id: u64) -> Answer {
    let state = app.read_game(id, |game| game.reply(id)).ok_or_else(|| missing(id))?;
    Ok(Response::json(&state))
}

fn new_game(app: &Arc<App>, r: NewRequest) -> Answer {
    let variant = r.variant.parse::<Variant>().map_err(|e| Refusal::Bad(e.to_string()))?;
    if r.players.len() != variant.players() {
        return Err(Refusal::Bad(format!(
            "{variant} has {} seats, the request names {} players",
            variant.players(),
            r.players.len()
        )));
    }
    let s = &app.settings;
    let seats = r
        .players
        .iter()
        .map(|p| Seat::parse(p, variant, &s.roots, s.sims))
        .collect::<Result<Vec<Seat>, String>>()
        .map_err(Refusal::Bad)?;
    let game = Game::new(variant, r.position.as_deref(), seats).map_err(Refusal::Bad)?;
    let id = app.add_game(game);
    game_state(app, id)
}

fn play(app: &Arc<App>, r: MoveRequest) -> Answer {
    app.with_game(r.id, |game| {
        let mover = game
            .mover()
            .ok_or_else(|| Refusal::Bad(game.position.game_over_text().unwrap_or_else(|| "the game is over".into())))?;
        if !game.seats[mover % game.seats.len()].is_person() {
            return Err(Refusal::Conflict(format!("it is {}'s move, not yours", game.seats[mover].label())));
        }
        game.play(&r.text, None).map_err(Refusal::Bad)
    })
    .ok_or_else(|| missing(r.id))??;
    game_state(app, r.id)
}

fn undo(app: &Arc<App>, id: u64) -> Answer {
    let undone = app.with_game(id, Game::undo).ok_or_else(|| missing(id))?;
    if !undone {
        return Err(Refusal::Bad("there is no move to take back".into()));
    }
    game_state(app, id)
}

fn set_position(app: &Arc<App>, r: PositionRequest) -> Answer {
    app.with_game(r.id, |game| {
        let fresh = Game::new(game.position.variant(), Some(&r.position), game.seats.clone()).map_err(Refusal::Bad)?;
        game.changed();
        *game = Game { version: game.version, seed: game.seed, ..fresh };
        Ok(())
    })
    .ok_or_else(|| missing(r.id))??;
    game_state(app, r.id)
}

fn analyse(app: &Arc<App>, r: AnalyseRequest) -> Answer {
    let limit = crate::cli::MAX_SIMULATIONS as u32;
    if r.sims == 0 || r.sims > limit {
        return Err(Refusal::Bad(format!("sims {}: expected 1 to {limit}", r.sims)));
    }
    if !app.settings.engines {
        return Err(Refusal::Conflict("this server runs no engines".into()));
    }
    let state = app
        .with_game(r.id, |game| {
            if let Some(job) = &game.job {
                return Err(Refusal::Conflict(format!("{} is still searching; stop it first", job.who)));
            }
            if game.mover().is_none() {
                return Err(Refusal::Bad(game.position.game_over_text().unwrap_or_else(|| "the game is over".into())));
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

fn stop(app: &Arc<App>, id: u64) -> Answer {
    app.read_game(id, |game| {
        if let Some(job) = &game.job {
            job.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })
    .ok_or_else(|| missing(id))?;
    game_state(app, id)
}

fn save(app: &Arc<App>, id: u64) -> Answer {
    let (bytes, variant) =
        app.read_game(id, |game| (save::shard_of(game), game.position.variant())).ok_or_else(|| missing(id))?;
    let bytes = bytes.map_err(Refusal::Failed)?;
    let name = format!("vzero-{}-game-{id}.shard", variant.name());
    Ok(Response { status: 200, content_type: "application/octet-stream", body: bytes, download: Some(name) })
}

/// The run directory `run=` names, if it is one of the runs being watched.
fn run_dir(app: &App, query: &Query) -> Result<PathBuf, Refusal> {
    let text = query.get("run").ok_or_else(|| Refusal::Bad("run= is missing".into()))?;
    let real = app.settings.roots.check(Path::new(text)).map_err(Refusal::Forbidden)?;
    runs::find_runs(&app.settings.runs)
        .into_iter()
        .find(|r| r.canonicalize().is_ok_and(|c| c == real))
        .ok_or_else(|| Refusal::NotFound(format!("'{text}' is not a run directory this server watches (--runs)")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_percent_decoded_and_broken_escapes_kept() {
        let q = Query::parse("run=%2Fruns%2Fa+b&x=%zz&y=%4&&z");
        assert_eq!(q.get("run"), Some("/runs/a b"));
        assert_eq!(q.get("x"), Some("%zz"));
        assert_eq!(q.get("y"), Some("%4"));
        assert_eq!(q.get("z"), Some(""));
        assert_eq!(decode("%e2%82%ac%ff"), "\u{20ac}\u{fffd}");
    }
}
