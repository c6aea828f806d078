//! The threaded driver that serves Rust handlers over stdin and stdout (or any
//! reader and writer): the only place in [`crate::protocol`] with threads.
//!
//! - Calls run on the thread that read them, with no hand-off, and a thread
//!   that runs long hands reading on (leader/follower, [`super::schedule`]):
//!   a slow or blocking handler delays other calls and cancels by at most two
//!   [`TICK`](super::schedule::TICK)s, and the calls of a Tool that runs long
//!   go to other threads. A handler's panic is caught and answered Unknown.
//! - Every line goes through one [`BatchWriter`]: replies that finish together
//!   are written in one `write`, with no flush per line.
//! - Work in flight is bounded: at most [`PoolBounds::workers`] calls run,
//!   [`PoolBounds::queue`] wait for a thread, and [`WriterBounds`] of lines
//!   wait to be written. Past that the reader stops reading, and the pipe
//!   pushes back on the host. A thread that cannot be started fails no call.
//! - At stdin's end the driver waits for running calls, writes their replies,
//!   and returns. It does not cancel them: the end of input says nothing more
//!   is coming, not that work should stop (`printf '...' | tool` must still get
//!   its answer). A host that wants a process gone ends it.

use std::collections::HashMap;
use std::io::{self, BufReader, Read, Write};
use std::sync::Arc;

use super::batch_writer::{BatchWriter, WriterBounds};
use super::framing::LineReader;
use super::front::Front;
use super::schedule::Crew;
pub use super::schedule::PoolBounds;
use super::server::{HandlerResult, StartedCall};

/// A Tool's implementation: runs on whichever thread read its call, may
/// block, should watch `call.cancel`.
pub type Handler = Arc<dyn Fn(StartedCall) -> HandlerResult + Send + Sync>;

/// How much work a [`StdioServer`] holds at once. The defaults: 64 calls
/// running, 1,024 waiting for a thread, 1,024 lines (at most 32 MiB, or one
/// line however long) waiting to be written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    /// How many calls run and wait for a thread.
    pub pool: PoolBounds,
    /// How many lines wait to be written.
    pub writer: WriterBounds,
}

/// Handlers by Tool identity, ready to serve a [`Front`]: a
/// [`super::ServerCore`] speaking the Flow protocol or MCP.
pub struct StdioServer {
    front: Box<dyn Front>,
    handlers: HashMap<String, Handler>,
    bounds: Bounds,
}

impl StdioServer {
    /// A server speaking `front`, with no handlers yet and the default bounds.
    pub fn new(front: impl Front + 'static) -> StdioServer {
        StdioServer { front: Box::new(front), handlers: HashMap::new(), bounds: Bounds::default() }
    }

    /// Serves through the front `speak` makes of the current one (nothing
    /// has been read yet): how a toolkit chooses MCP or the Flow protocol
    /// (`crate::mcp::front::front_for`) without this module naming MCP.
    pub fn speak<E: std::fmt::Display>(
        self,
        speak: impl FnOnce(Box<dyn Front>) -> Result<Box<dyn Front>, E>,
    ) -> io::Result<StdioServer> {
        let front = speak(self.front).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
        Ok(StdioServer { front, ..self })
    }

    /// Sets the handler of the Tool with this identity.
    pub fn handle(
        mut self,
        identity: &str,
        handler: impl Fn(StartedCall) -> HandlerResult + Send + Sync + 'static,
    ) -> StdioServer {
        self.handlers.insert(identity.to_owned(), Arc::new(handler));
        self
    }

    /// Changes how much work is held at once (see [`Bounds`]).
    pub fn with_bounds(mut self, bounds: Bounds) -> StdioServer {
        self.bounds = bounds;
        self
    }

    /// Serves stdin and stdout until stdin ends.
    pub fn serve_stdio(self) -> io::Result<()> {
        self.serve(io::stdin(), io::stdout())
    }

    /// Serves `input` and `output` until `input` ends and every running call
    /// has replied. Refuses to start when a served Tool has no handler, or a
    /// handler names no served Tool. Whichever thread leads reads `input`, so
    /// it is `Send`.
    pub fn serve<R: Read + Send, W: Write + Send>(self, input: R, output: W) -> io::Result<()> {
        let StdioServer { front: core, mut handlers, bounds } = self;
        let mut by_index = Vec::new();
        for identity in core.core().identities() {
            let handler = handlers.remove(identity).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidInput, format!("no handler for the served Tool {identity}"))
            })?;
            by_index.push(handler);
        }
        if let Some(identity) = handlers.keys().next() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a handler for {identity}, which is not served"),
            ));
        }
        let limit = core.limits().max_bytes;
        let input = LineReader::new(BufReader::with_capacity(64 << 10, input), limit);
        Crew::new(core, BatchWriter::new(output, bounds.writer), by_index, bounds.pool).serve(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Json;
    use crate::protocol::schedule::lock;
    use std::sync::Mutex;
    use crate::protocol::ServerCore;
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
        // A write may carry several lines, each whole.
        let writes: Vec<String> = rx.into_iter().collect();
        assert!(writes.iter().all(|w| w.ends_with('\n')), "{writes:?}");
        let lines: Vec<String> = writes.concat().split_inclusive('\n').map(str::to_owned).collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        let find = |call: &str| lines.iter().find(|l| l.contains(&format!("\"call\":\"{call}\""))).unwrap().clone();
        assert!(find("p").contains("\"Unknown\":\"the handler failed: it panicked: the handler broke\""));
        assert!(find("ok").contains("{\"Failed\":{\"Unavailable\":\"PT5S\"}}"));
        assert!(find("blocked").contains("{\"Failed\":\"RateLimited\"}"));
    }

    /// An input that hands out one line per read and counts the lines taken.
    struct Counted {
        lines: std::collections::VecDeque<String>,
        taken: Arc<std::sync::atomic::AtomicUsize>,
    }
    impl Read for Counted {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some(line) = self.lines.pop_front() else { return Ok(0) };
            assert!(line.len() <= buf.len());
            buf[..line.len()].copy_from_slice(line.as_bytes());
            self.taken.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok(line.len())
        }
    }

    #[test]
    fn past_its_bounds_the_reader_stops_reading_until_calls_end() {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let gate = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let mut server = StdioServer::new(ServerCore::from_listing(&listing).unwrap())
            .with_bounds(Bounds { pool: PoolBounds { workers: 2, queue: 3 }, ..Bounds::default() });
        for tool in &listing.tools {
            server = server.handle(&tool.tool, |_| HandlerResult::Error("not here".into()));
        }
        let held = gate.clone();
        let server = server.handle(FORECAST, move |_| {
            let (open, cv) = &*held;
            let mut open = lock(open);
            while !*open {
                open = cv.wait(open).unwrap();
            }
            HandlerResult::FailedJson(Json::str("RateLimited"))
        });
        let taken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let input =
            Counted { lines: (0..50).map(|n| forecast(&n.to_string(), "Oslo")).collect(), taken: taken.clone() };
        let (tx, rx) = mpsc::channel();
        let serving = std::thread::spawn(move || server.serve(input, Lines(tx)));
        std::thread::sleep(std::time::Duration::from_millis(300));
        // Two run, three wait, and the reader holds the sixth: no more is read.
        assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 6);
        {
            let (open, cv) = &*gate;
            *lock(open) = true;
            cv.notify_all();
        }
        serving.join().unwrap().unwrap();
        let lines: Vec<String> = rx.into_iter().collect::<Vec<_>>().concat().lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), 50);
        assert!(lines.iter().all(|l| l.contains(r#"{"Failed":"RateLimited"}"#)));
    }

    #[test]
    fn refuses_to_start_without_every_handler() {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let server = StdioServer::new(ServerCore::from_listing(&listing).unwrap())
            .handle(FORECAST, |_| HandlerResult::Error("x".into()));
        let err = server.serve(&b""[..], io::sink()).unwrap_err();
        assert!(err.to_string().contains("no handler for the served Tool"));
    }
}
