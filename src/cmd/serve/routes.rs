//! Every address the server answers, once: [`ROUTES`] dispatches requests, and the refusal of
//! an address it lacks or of a method it does not take is read from it. API.md documents each
//! route (a test holds the two together). [`respond`] is a function of the request's method,
//! address and body alone, so the fuzz drives it without a socket.

use std::sync::Arc;

use super::api::{self, Answer};
use super::app::App;
use super::http::{Refusal, Response};
use super::request::{Query, Request};

/// The HTTP methods the routes take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Reads: the page, a game's state, the runs.
    Get,
    /// Changes: a new game, a move, an analysis; the body is JSON.
    Post,
}

impl Method {
    /// The method as HTTP spells it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// One address the server answers, with the handler that answers it.
pub struct Route {
    /// The method it takes.
    pub method: Method,
    /// The address, without its query.
    pub path: &'static str,
    /// What answers it.
    pub handler: fn(&Request) -> Answer,
}

const fn get(path: &'static str, handler: fn(&Request) -> Answer) -> Route {
    Route { method: Method::Get, path, handler }
}

const fn post(path: &'static str, handler: fn(&Request) -> Answer) -> Route {
    Route { method: Method::Post, path, handler }
}

/// The routes, as API.md lists them.
pub const ROUTES: &[Route] = &[
    get("/", api::page_html),
    get("/index.html", api::page_html),
    get("/page.css", api::page_css),
    get("/page.js", api::page_js),
    get("/api/variants", api::variants),
    get("/api/players", api::players),
    get("/api/board", api::board),
    post("/api/new", api::new_game),
    get("/api/game", api::game),
    get("/api/ply", api::ply),
    post("/api/move", api::play),
    post("/api/undo", api::undo),
    post("/api/position", api::set_position),
    post("/api/analyse", api::analyse),
    post("/api/stop", api::stop),
    get("/api/save", api::save_game),
    post("/api/load", api::load_game),
    get("/api/runs", api::list_runs),
    get("/api/run", api::run_view),
    get("/run/plot.svg", api::run_plot),
    get("/run/game", api::run_game),
];

/// The route of `method` and `path`, or why there is none: no such address (404), or an
/// address that takes other methods (405).
pub fn route(method: &str, path: &str) -> Result<&'static Route, Refusal> {
    let here: Vec<&'static Route> = ROUTES.iter().filter(|r| r.path == path).collect();
    if let Some(route) = here.iter().find(|r| r.method.name() == method) {
        return Ok(route);
    }
    if here.is_empty() {
        return Err(Refusal::NotFound(format!("{path}: no such page or API (see docs/serve.md)")));
    }
    let methods: Vec<&str> = here.iter().map(|r| r.method.name()).collect();
    Err(Refusal::WrongMethod(format!("{method} {path}: this address answers {} only", methods.join(" or "))))
}

/// Answers one request.
pub fn respond(app: &Arc<App>, method: &str, url: &str, body: &[u8]) -> Response {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let request = Request { app, query: Query::parse(query), bytes: body };
    route(method, path).and_then(|route| (route.handler)(&request)).unwrap_or_else(Response::refused)
}
