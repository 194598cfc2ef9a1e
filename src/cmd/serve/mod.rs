//! `vzero serve`: a local web page to play any variant against networks, alpha-beta or simple
//! players, see what the engine thinks while it searches, and watch training runs.
//!
//! Requests are answered by [`routes::respond`], a function of the request alone, which the
//! fuzz drives without a socket; every search runs on a thread of its own as a job of its game
//! ([`game::Job`]), which the page polls. The page itself (page.html, page.css, page.js) is
//! compiled into the binary, and API.md is its contract with the server.
//!
//! Modules import one way: this one starts `server` (the connections, their limits and
//! timeouts), which uses `routes`, the table of addresses, which uses `api`, their handlers,
//! which use `app` (the games and their searches), `runs` and `save`, which use `game` and
//! `players`; `game` uses `clock` (a timed game's clocks); `http` uses only `wire` (the JSON),
//! which uses none of them but `clock`'s time control.

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
mod server;
#[cfg(test)]
mod tests;
mod wire;

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::anyhow;

use crate::cli::ServeArgs;
use crate::engine::{models_dir, ModelChoice};
use app::{App, Settings};
use players::Roots;

/// Serves the page until a stop signal.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let stop = crate::stop::on_stop_signal("the server: searches end, open games are dropped")?;
    // A server's end is a signal: nothing was cut short, so it exits 0.
    crate::stop::signal_is_the_end();
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
        first_id: first_id(),
    };
    let listener = std::net::TcpListener::bind((args.bind, args.port))
        .map_err(|e| anyhow!("cannot listen on {}:{}: {e}", args.bind, args.port))?;
    let addr = listener.local_addr()?;
    if !args.bind.is_loopback() {
        eprintln!(
            "vzero: warning: serving on {addr}, reachable from other machines: anyone who reaches it can play, \
             search and read the runs; --bind 127.0.0.1 serves this machine only"
        );
    }
    println!("vzero serve: http://{addr}/ (Ctrl-C stops)");
    let app = App::new(settings);
    let served = server::serve(listener, Arc::clone(&app), &stop);
    app.close();
    served.map_err(|e| anyhow!("the server stopped: {e}"))?;
    eprintln!("vzero serve: stopped");
    Ok(())
}

/// The first game's id: the milliseconds of the clock, so that no two runs of the server (one
/// a restart of the other) give one id to two games.
fn first_id() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |t| t.as_millis() as u64)
}
