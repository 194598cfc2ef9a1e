//! The server's connections, made so that no client can take it down or hold it up: a request
//! is judged by its head (its `Host`, its declared length, its media type) before a byte of its
//! body is read; its body must arrive within [`BODY_TIME`], its head within [`HEAD_TIME`], and
//! each write of the answer get on within [`WRITE_TIME`]; and its handler runs on one of
//! [`WORKERS`] threads, taken only once the whole request is in, so that clients sending or
//! reading slowly hold connections (at most [`MAX_CONNECTIONS`]), never a worker.
//!
//! hyper on tokio does the HTTP: waiting on a slow socket costs a task, not a thread, and it
//! reads no body that the handler does not ask for.

use std::convert::Infallible;
use std::net::{SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::Semaphore;
use tokio_io_timeout::TimeoutStream;

use super::app::App;
use super::http::{local_host, Refusal, Response};
use super::routes;

/// The largest request body read.
pub const MAX_BODY: u64 = 1 << 20;
/// Threads answering requests: a slow answer (a run's chart) holds one, the polls take the others.
const WORKERS: usize = 8;
/// Connections open at once; one past it is closed at once (a browser opens six a page).
const MAX_CONNECTIONS: usize = 512;
/// How long a request's head may take to arrive, and a kept-alive connection wait for the next.
const HEAD_TIME: Duration = Duration::from_secs(10);
/// How long a request's whole body may take to arrive.
const BODY_TIME: Duration = Duration::from_secs(10);
/// How long one write of an answer may wait for the client to read.
const WRITE_TIME: Duration = Duration::from_secs(10);
/// How often the accepting loop looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(100);
/// How long requests in progress get to finish once the server stops.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// What every connection shares: the games, and whose requests are answered.
struct Server {
    app: Arc<App>,
    /// The address listened on, which (or a local name at its port) a `Host` header on the
    /// loopback address must name.
    bound: SocketAddr,
}

/// Answers the requests `listener` accepts until `stop` is set.
pub fn serve(listener: TcpListener, app: Arc<App>, stop: &AtomicBool) -> anyhow::Result<()> {
    let server = Arc::new(Server { app, bound: listener.local_addr()? });
    // The handlers run on the blocking pool: its bound is the worker pool's.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(WORKERS)
        .thread_name("serve")
        .enable_all()
        .build()?;
    listener.set_nonblocking(true)?;
    let accepted = runtime.block_on(accept(listener, server, stop));
    runtime.shutdown_timeout(STOP_GRACE);
    accepted
}

/// Accepts connections, each served on a task of its own, until `stop` is set. An error in
/// accepting one (out of file descriptors) drops that one, never the server.
async fn accept(listener: TcpListener, server: Arc<Server>, stop: &AtomicBool) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    while !stop.load(Ordering::Relaxed) {
        let (stream, _) = match tokio::time::timeout(STOP_POLL, listener.accept()).await {
            Err(_) => continue,
            Ok(Ok(accepted)) => accepted,
            Ok(Err(_)) => {
                tokio::time::sleep(STOP_POLL).await;
                continue;
            }
        };
        // Past the limit the connection is closed unanswered, as a full backlog would.
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else { continue };
        let server = Arc::clone(&server);
        tokio::spawn(async move {
            let mut stream = TimeoutStream::new(stream);
            stream.set_write_timeout(Some(WRITE_TIME));
            let service = service_fn(move |request| {
                let server = Arc::clone(&server);
                async move { Ok::<_, Infallible>(server.answer(request).await) }
            });
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_TIME)
                .serve_connection(TokioIo::new(Box::pin(stream)), service);
            // A connection that ends badly (a client gone, a timeout) concerns no one else.
            let _ = connection.await;
            drop(permit);
        });
    }
    Ok(())
}

impl Server {
    /// The answer to one request: refused by its head, or its body read and its handler run.
    async fn answer(&self, request: hyper::Request<Incoming>) -> hyper::Response<Full<Bytes>> {
        let (head, body) = request.into_parts();
        if let Err(refusal) = self.check_head(&head) {
            return Response::refused(refusal).into_http(true);
        }
        let bytes = match read_body(body).await {
            Ok(bytes) => bytes,
            Err(refusal) => return Response::refused(refusal).into_http(true),
        };
        let app = Arc::clone(&self.app);
        let method = head.method.as_str().to_string();
        let url = head.uri.path_and_query().map_or_else(|| head.uri.path().to_string(), |p| p.as_str().to_string());
        let answered = tokio::task::spawn_blocking(move || routes::respond(&app, &method, &url, &bytes)).await;
        // A handler's panic is a bug, answered as one; the server goes on.
        let response = answered.unwrap_or_else(|_| {
            Response::refused(Refusal::Failed("the request failed (a bug: please report it)".into()))
        });
        response.into_http(false)
    }

    /// Why a request is refused by its head alone, if it is: a name not this machine's, a
    /// declared body over [`MAX_BODY`], a body not sent as JSON.
    fn check_head(&self, head: &hyper::http::request::Parts) -> Result<(), Refusal> {
        let value = |name: header::HeaderName| head.headers.get(name).and_then(|v| v.to_str().ok());
        if self.bound.ip().is_loopback() && !local_host(value(header::HOST), self.bound) {
            return Err(Refusal::Forbidden(format!(
                "this server answers requests addressed to localhost or {} only",
                self.bound
            )));
        }
        // A number too large for u64 does not reach here: hyper refuses the request itself.
        let declared = value(header::CONTENT_LENGTH).and_then(|n| n.trim().parse::<u64>().ok());
        if declared.is_some_and(|n| n > MAX_BODY) {
            return Err(Refusal::TooLarge(format!("a request body is at most {MAX_BODY} bytes")));
        }
        // A body of another type (a form, plain text) is what another site's page can send here
        // without asking; JSON makes the browser ask first, which this server never allows.
        let json = value(header::CONTENT_TYPE).is_some_and(|t| t.trim_start().starts_with("application/json"));
        if head.method == hyper::Method::POST && !json {
            return Err(Refusal::NotJson("a request body is JSON, sent as Content-Type: application/json".into()));
        }
        Ok(())
    }
}

/// The whole body, if it arrives within [`BODY_TIME`] and holds at most [`MAX_BODY`] bytes
/// (a body sent in chunks declares no length).
async fn read_body(body: Incoming) -> Result<Bytes, Refusal> {
    let limited = Limited::new(body, MAX_BODY as usize);
    match tokio::time::timeout(BODY_TIME, limited.collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => {
            Err(Refusal::TooLarge(format!("a request body is at most {MAX_BODY} bytes")))
        }
        Ok(Err(_)) => Err(Refusal::Bad("the request body could not be read".into())),
        Err(_) => Err(Refusal::Slow(format!("the request body did not arrive within {} seconds", BODY_TIME.as_secs()))),
    }
}
