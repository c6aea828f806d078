//! The threaded driver that serves Rust handlers over stdin and stdout (or any
//! reader and writer): the only place in [`crate::protocol`] with threads.
//!
//! - One reader (the calling thread) reads frames and hands them to the
//!   [`ServerCore`] under a lock.
//! - Each started call runs on its own thread, so a slow handler stalls no
//!   other call; its panic is caught and answered Unknown.
//! - Every line is written whole under one writer lock, in the order calls
//!   complete.
//! - At stdin's end the driver waits for running calls, writes their replies,
//!   and returns. It does not cancel them: the end of input says nothing more
//!   is coming, not that work should stop (`printf '...' | tool` must still get
//!   its answer). A host that wants a process gone ends it.

use std::collections::HashMap;
use std::io::{self, BufReader, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::framing::LineReader;
use super::server::{Event, HandlerResult, ServerCore, StartedCall};

/// A Tool's implementation: runs on its own thread, may block, should watch
/// `call.cancel`.
pub type Handler = Arc<dyn Fn(StartedCall) -> HandlerResult + Send + Sync>;

/// Handlers by Tool identity, ready to serve a [`ServerCore`].
pub struct StdioServer {
    core: ServerCore,
    handlers: HashMap<String, Handler>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A handler panic is caught before it can poison these locks; a poisoned
    // lock would mean a bug here, and serving on beats dying.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

struct Shared<W> {
    core: Mutex<ServerCore>,
    out: Mutex<W>,
}

impl<W: Write> Shared<W> {
    fn write(&self, line: &str) {
        let mut out = lock(&self.out);
        // A host that stopped reading is gone; there is nobody to tell.
        if out.write_all(line.as_bytes()).and_then(|()| out.flush()).is_err() {
            eprintln!("flow tool: could not write a reply: the host is gone");
        }
    }
}

impl StdioServer {
    pub fn new(core: ServerCore) -> StdioServer {
        StdioServer { core, handlers: HashMap::new() }
    }

    /// Sets the handler of the Tool with this identity.
    pub fn handle(mut self, identity: &str, handler: impl Fn(StartedCall) -> HandlerResult + Send + Sync + 'static) -> StdioServer {
        self.handlers.insert(identity.to_owned(), Arc::new(handler));
        self
    }

    /// Serves stdin and stdout until stdin ends.
    pub fn serve_stdio(self) -> io::Result<()> {
        self.serve(io::stdin().lock(), io::stdout())
    }

    /// Serves `input` and `output` until `input` ends and every running call
    /// has replied. Refuses to start when a served Tool has no handler, or a
    /// handler names no served Tool.
    pub fn serve<R: Read, W: Write + Send + 'static>(self, input: R, output: W) -> io::Result<()> {
        let StdioServer { core, mut handlers } = self;
        let mut by_index = Vec::new();
        for identity in core.identities() {
            let handler = handlers.remove(identity).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, format!("no handler for the served Tool {identity}"))
            })?;
            by_index.push(handler);
        }
        if let Some(identity) = handlers.keys().next() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("a handler for {identity}, which is not served")));
        }
        let limit = core.limits().max_bytes;
        let shared = Arc::new(Shared { core: Mutex::new(core), out: Mutex::new(output) });
        let mut reader = LineReader::new(BufReader::new(input), limit);
        let mut workers: Vec<JoinHandle<()>> = Vec::new();
        let result = loop {
            let frame = match reader.next_frame() {
                Ok(Some(frame)) => frame,
                Ok(None) => break Ok(()),
                Err(e) => break Err(e),
            };
            let events = lock(&shared.core).receive_frame(frame);
            for event in events {
                match event {
                    Event::Write(line) => shared.write(&line),
                    Event::Log(text) => eprintln!("flow tool: {text}"),
                    Event::Cancel(_) => {}
                    Event::Start(call) => {
                        let handler = by_index[call.tool].clone();
                        let shared = shared.clone();
                        workers.retain(|w| !w.is_finished());
                        workers.push(std::thread::spawn(move || run(&shared, &handler, *call)));
                    }
                }
            }
        };
        for worker in workers {
            let _ = worker.join();
        }
        result
    }
}

fn run<W: Write>(shared: &Shared<W>, handler: &Handler, call: StartedCall) {
    let key = call.key.clone();
    let result = catch_unwind(AssertUnwindSafe(|| handler(call)))
        .unwrap_or_else(|payload| HandlerResult::Error(format!("it panicked: {}", panic_text(&*payload))));
    let lines = lock(&shared.core).finish(&key, result);
    for line in lines {
        shared.write(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Json;
    use crate::types::parse::listing_from_text;
    use crate::value::Value;
    use crate::Limits;
    use std::sync::mpsc;

    const WEATHER: &[u8] = include_bytes!("../../../tests/examples/weather.tools.json");
    const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";

    /// An output that sends each complete write to a channel.
    struct Lines(mpsc::Sender<String>);
    impl Write for Lines {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.send(String::from_utf8(buf.to_vec()).unwrap()).unwrap();
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn server() -> StdioServer {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let mut server = StdioServer::new(ServerCore::from_listing(&listing).unwrap());
        for tool in &listing.tools {
            server = server.handle(&tool.tool, |_| HandlerResult::Error("not here".into()));
        }
        server.handle(FORECAST, |call| {
            match &call.args[0] {
                Value::Text(city) if city == "panic" => panic!("the handler broke"),
                // Blocks until cancelled: proves the reader goes on meanwhile.
                Value::Text(city) if city == "wait" => {
                    call.cancel.wait();
                    HandlerResult::FailedJson(Json::str("RateLimited"))
                }
                _ => HandlerResult::FailedJson(Json::object([("Unavailable", Json::str("PT5S"))])),
            }
        })
    }

    fn forecast(call: &str, city: &str) -> String {
        format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"call\",\"params\":{{\"run\":\"r\",\"call\":\"{call}\",\"tool\":\"{FORECAST}\",\"args\":{{\"city\":\"{city}\",\"days\":1,\"units\":\"None\"}}}}}}\n"
        )
    }

    #[test]
    fn serves_calls_concurrently_catches_panics_and_waits_at_the_end() {
        let input = [
            forecast("blocked", "wait"),
            forecast("p", "panic"),
            forecast("ok", "Oslo"),
            "{\"jsonrpc\":\"2.0\",\"method\":\"cancel\",\"params\":{\"run\":\"r\",\"call\":\"blocked\"}}\n".to_owned(),
        ]
        .concat();
        let (tx, rx) = mpsc::channel();
        server().serve(input.as_bytes(), Lines(tx)).unwrap();
        let lines: Vec<String> = rx.into_iter().collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines.iter().all(|l| l.ends_with('\n') && l.matches('\n').count() == 1));
        let find = |call: &str| lines.iter().find(|l| l.contains(&format!("\"call\":\"{call}\""))).unwrap().clone();
        assert!(find("p").contains("\"Unknown\":\"the handler failed: it panicked: the handler broke\""));
        assert!(find("ok").contains("{\"Failed\":{\"Unavailable\":\"PT5S\"}}"));
        assert!(find("blocked").contains("{\"Failed\":\"RateLimited\"}"));
    }

    #[test]
    fn refuses_to_start_without_every_handler() {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let server = StdioServer::new(ServerCore::from_listing(&listing).unwrap()).handle(FORECAST, |_| HandlerResult::Error("x".into()));
        let err = server.serve(&b""[..], io::sink()).unwrap_err();
        assert!(err.to_string().contains("no handler for the served Tool"));
    }
}
