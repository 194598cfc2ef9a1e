//! `vzero serve`: a local web page to play any variant against networks, alpha-beta or simple
//! players, see what the engine thinks while it searches, and watch training runs.
//!
//! Requests are answered by [`routes::respond`], a function of the request alone, which the
//! fuzz drives without a socket; every search runs on a thread of its own as a job of its game
//! ([`game::Job`]), which the page polls. The page itself (page.html, page.css, page.js) is
//! compiled into the binary, and API.md is its contract with the server.
//!
//! Modules import one way: this one (the server loop) uses `routes`, the table of addresses,
//! which uses `api`, their handlers, which use `app` (the games and their searches), `runs`
//! and `save`, which use `game` and `players`; `http` uses only `wire` (the JSON), which uses
//! none of them.

mod api;
mod app;
#[cfg(test)]
mod fuzz;
mod game;
mod http;
mod page;
mod players;
mod request;
mod routes;
mod runs;
mod save;
#[cfg(test)]
mod tests;
mod wire;

use std::io::Read;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::anyhow;

use crate::cli::ServeArgs;
use crate::engine::{models_dir, ModelChoice};
use app::{lock, App, Settings};
use http::{Refusal, Response};
use players::Roots;

/// The largest request body read.
const MAX_BODY: u64 = 1 << 20;
/// Threads answering requests: a slow answer (a run's chart) does not hold up the polls.
const WORKERS: usize = 4;

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
        Response::refused(Refusal::TooLarge(format!("a request body is at most {MAX_BODY} bytes")))
    } else if read.is_err() {
        Response::refused(Refusal::Bad("the request body could not be read".into()))
    } else if loopback && !http::local_host(host.as_deref(), port) {
        Response::refused(Refusal::Forbidden("this server answers requests to localhost only".into()))
    } else if post && !json {
        Response::refused(Refusal::NotJson("a request body is JSON, sent as Content-Type: application/json".into()))
    } else {
        let method = request.method().as_str().to_string();
        routes::respond(app, &method, request.url(), &body)
    };
    let _ = request.respond(response.into_http());
}
