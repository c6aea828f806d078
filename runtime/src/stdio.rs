//! The threaded driver that serves Rust handlers over stdin and stdout (or any
//! reader and writer) for Rust handlers: the threads around the sans-IO
//! server core of `flow_protocol`.
//!
//! - Calls run on the thread that read them, with no hand-off, and a thread
//!   that runs long hands reading on (leader/follower, [`super::schedule`]):
//!   a slow or blocking handler delays other calls and cancels by at most two
//!   [`TICK`](super::schedule::TICK)s, and the calls of a Tool that runs long
//!   go to other threads. A handler's panic is caught and answered Unknown.
//! - Every line goes through one [`BatchWriter`]: replies that finish together
//!   are written in one `write`, with no flush per line.
//! - Work in flight is bounded: at most [`PoolBounds::workers`] calls run,
//!   [`PoolBounds::queue`] (and [`PoolBounds::queue_bytes`] of their lines)
//!   wait for a thread, and [`WriterBounds`] of lines wait to be written. A
//!   call past the pool's bounds is answered NotRun at once, naming them, and
//!   the reader reads on, so a cancel always reaches its call; a cancelled
//!   call still waiting is answered NotRun. Only a host that stops reading
//!   replies stops the reader (past the writer's bound), and the pipe pushes
//!   back on the host. A thread that cannot be started fails no call.
//! - At stdin's end the driver waits for running calls, writes their replies,
//!   and returns. It does not cancel them: the end of input says nothing more
//!   is coming, not that work should stop (`printf '...' | tool` must still get
//!   its answer). A host that wants a process gone ends it.

use std::collections::HashMap;
use std::io::{self, BufReader, Read, Write};
use std::sync::Arc;

use super::batch_writer::{BatchWriter, WriterBounds};
use super::schedule::Crew;
pub use super::schedule::{Handler, PoolBounds};
use flow_protocol::server::{HandlerResult, StartedCall};
use flow_protocol::Front;
use flow_protocol::LineReader;

/// How much work a [`StdioServer`] holds at once. The defaults: 64 calls
/// running, 1,024 waiting for a thread (at most 64 MiB of their lines, or one
/// line however long), 1,024 lines (at most 32 MiB, or one line however
/// long) waiting to be written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bounds {
    /// How many calls run and wait for a thread.
    pub pool: PoolBounds,
    /// How many lines wait to be written.
    pub writer: WriterBounds,
}

/// Handlers by Tool identity, ready to serve a [`Front`]: a
/// [`flow_protocol::ServerCore`] speaking the Flow protocol or MCP.
pub struct StdioServer {
    front: Box<dyn Front>,
    handlers: HashMap<String, Handler>,
    bounds: Bounds,
    /// Tests: no thread can be started.
    #[cfg(test)]
    no_threads: bool,
}

impl StdioServer {
    /// A server speaking `front`, with no handlers yet and the default bounds.
    pub fn new(front: impl Front + 'static) -> StdioServer {
        StdioServer {
            front: Box::new(front),
            handlers: HashMap::new(),
            bounds: Bounds::default(),
            #[cfg(test)]
            no_threads: false,
        }
    }

    /// Serves through the front `speak` makes of the current one (nothing
    /// has been read yet): how a toolkit chooses MCP or the Flow protocol
    /// (`flow_mcp::front::front_for`) without this module naming MCP.
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
        #[cfg(test)]
        let no_threads = self.no_threads;
        let StdioServer { front: core, mut handlers, bounds, .. } = self;
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
        #[allow(unused_mut)]
        let mut crew = Crew::new(core, BatchWriter::new(output, bounds.writer), by_index, bounds.pool);
        #[cfg(test)]
        {
            crew.no_threads = no_threads;
        }
        crew.serve(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::lock;
    use flow_core::json::Json;
    use flow_core::types::parse::listing_from_text;
    use flow_core::value::Value;
    use flow_core::Limits;
    use flow_protocol::ServerCore;
    use std::sync::mpsc;
    use std::sync::Mutex;

    const WEATHER: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");
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

    fn cancel(call: &str) -> String {
        format!("{{\"jsonrpc\":\"2.0\",\"method\":\"cancel\",\"params\":{{\"run\":\"r\",\"call\":\"{call}\"}}}}\n")
    }

    #[test]
    fn past_its_bounds_a_call_is_not_run_at_once_and_every_cancel_reaches_its_call() {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let bounds = Bounds { pool: PoolBounds { workers: 2, queue: 3, ..PoolBounds::default() }, ..Bounds::default() };
        let mut server = StdioServer::new(ServerCore::from_listing(&listing).unwrap()).with_bounds(bounds);
        for tool in &listing.tools {
            server = server.handle(&tool.tool, |_| HandlerResult::Error("not here".into()));
        }
        let running = Arc::new(Running::default());
        let counted = running.clone();
        // Every handler waits for its cancel: the calls past the bounds and
        // the cancels behind them must be read all the same.
        let server = server.handle(FORECAST, move |call| {
            let _running = counted.enter();
            call.cancel.wait();
            HandlerResult::FailedJson(Json::str("RateLimited"))
        });
        let taken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let lines: std::collections::VecDeque<String> = (0..50)
            .map(|n| forecast(&n.to_string(), "Oslo"))
            // Last first: the waiting calls' cancels come while the running
            // two still hold both workers.
            .chain((0..50).rev().map(|n| cancel(&n.to_string())))
            .collect();
        let input = Counted { lines, taken: taken.clone() };
        let (tx, rx) = mpsc::channel();
        server.serve(input, Lines(tx)).unwrap();
        assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 100, "every line is read");
        let lines: Vec<String> = rx.into_iter().collect::<Vec<_>>().concat().lines().map(str::to_owned).collect();
        let mut answered = std::collections::BTreeMap::new();
        for line in &lines {
            *answered.entry(call_of(line)).or_insert(0) += 1;
        }
        assert_eq!(answered.len(), 50, "{lines:?}");
        assert!(answered.values().all(|&n| n == 1), "a call answered twice: {lines:?}");
        let count = |text: &str| lines.iter().filter(|l| l.contains(text)).count();
        let bound = r#"{"NotRun":"the Tool is at its bound of calls (2 running and 3 waiting, or 64 MiB of waiting call lines)"#;
        // One or two ran and were cancelled (the second call runs once a
        // follower takes it); the next three waited and were cancelled before
        // they started (or two, the second having run); the rest were past the
        // bounds, answered as they were read.
        let (ran, waited) = (count(r#"{"Failed":"RateLimited"}"#), count(r#"{"NotRun":"cancelled before it started"#));
        assert!((1..=2).contains(&ran) && (2..=3).contains(&waited) && ran + waited >= 4, "{lines:?}");
        assert_eq!(count(bound), 50 - ran - waited, "{lines:?}");
        assert!(running.most() <= 2, "never more calls running than the pool's workers");
    }

    /// Counts the calls running at once, and the most seen.
    #[derive(Default)]
    struct Running {
        now: std::sync::atomic::AtomicUsize,
        most: std::sync::atomic::AtomicUsize,
    }
    struct Entered<'a>(&'a Running);
    impl Running {
        fn enter(&self) -> Entered<'_> {
            let now = self.now.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            self.most.fetch_max(now, std::sync::atomic::Ordering::SeqCst);
            Entered(self)
        }
        fn most(&self) -> usize {
            self.most.load(std::sync::atomic::Ordering::SeqCst)
        }
    }
    impl Drop for Entered<'_> {
        fn drop(&mut self) {
            self.0.now.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// A gate handlers wait at until the test opens it.
    #[derive(Default)]
    struct Gate {
        open: Mutex<bool>,
        opened: std::sync::Condvar,
    }
    impl Gate {
        fn wait(&self) {
            let mut open = lock(&self.open);
            while !*open {
                open = self.opened.wait(open).unwrap();
            }
        }
        fn open(&self) {
            *lock(&self.open) = true;
            self.opened.notify_all();
        }
    }

    /// Serves `input` on a thread with FORECAST's handler `forecast`; the
    /// reply lines come on the receiver, one per item, as they are written.
    fn serving(
        server: StdioServer,
        input: String,
        forecast: impl Fn(StartedCall) -> HandlerResult + Send + Sync + 'static,
    ) -> (std::thread::JoinHandle<io::Result<()>>, mpsc::Receiver<String>) {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let mut server = server;
        for tool in &listing.tools {
            server = server.handle(&tool.tool, |_| HandlerResult::Error("not here".into()));
        }
        let server = server.handle(FORECAST, forecast);
        let (writes_tx, writes) = mpsc::channel::<String>();
        let (lines_tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for write in writes {
                for line in write.split_inclusive('\n') {
                    let _ = lines_tx.send(line.to_owned());
                }
            }
        });
        (std::thread::spawn(move || server.serve(input.as_bytes(), Lines(writes_tx))), lines)
    }

    fn weather_server() -> StdioServer {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        StdioServer::new(ServerCore::from_listing(&listing).unwrap())
    }

    /// The call id of a reply line.
    fn call_of(line: &str) -> String {
        let at = line.find("\"call\":\"").unwrap() + 8;
        line[at..at + line[at..].find('"').unwrap()].to_owned()
    }

    const WAIT: std::time::Duration = std::time::Duration::from_secs(20);

    #[test]
    fn a_blocked_handler_delays_no_other_call_and_a_pair_re_sent_while_it_runs_is_answered_once() {
        let gate = Arc::new(Gate::default());
        let held = gate.clone();
        // The blocked call first: it runs on the thread that read it, which
        // must hand reading on for the others to be answered at all.
        let mut input = forecast("slow", "slow");
        for n in 0..300 {
            input.push_str(&forecast(&format!("fast{n}"), "Oslo"));
            if n == 150 {
                input.push_str(&forecast("slow", "slow"));
            }
        }
        let (serving, lines) = serving(weather_server(), input, move |call| {
            if matches!(&call.args[0], Value::Text(city) if city == "slow") {
                held.wait();
            }
            HandlerResult::FailedJson(Json::str("RateLimited"))
        });
        // Every fast call is answered while the slow one is still blocked.
        let mut answered = std::collections::BTreeSet::new();
        while answered.len() < 300 {
            let line = lines.recv_timeout(WAIT).expect("a fast call stalled behind the blocked handler");
            let call = call_of(&line);
            assert_ne!(call, "slow", "the blocked call was answered before its handler returned");
            assert!(answered.insert(call), "a call answered twice: {line}");
        }
        gate.open();
        serving.join().unwrap().unwrap();
        let rest: Vec<String> = lines.into_iter().collect();
        assert_eq!(rest.iter().map(|l| call_of(l)).collect::<Vec<_>>(), vec!["slow"], "{rest:?}");
    }

    #[test]
    fn every_call_is_answered_once_within_the_bounds_when_slow_and_fast_handlers_mix() {
        let running = Arc::new(Running::default());
        let counted = running.clone();
        let bounds = Bounds { pool: PoolBounds { workers: 4, queue: 8, ..PoolBounds::default() }, ..Bounds::default() };
        let input: String =
            (0..2000).map(|n| forecast(&format!("c{n}"), if n % 40 == 0 { "slow" } else { "Oslo" })).collect();
        let (serving, lines) = serving(weather_server().with_bounds(bounds), input, move |call| {
            let _running = counted.enter();
            if matches!(&call.args[0], Value::Text(city) if city == "slow") {
                // Long enough for the standby to take the input up.
                std::thread::sleep(super::super::pace::TICK * 3);
            }
            HandlerResult::FailedJson(Json::str("RateLimited"))
        });
        serving.join().unwrap().unwrap();
        let mut answered = std::collections::BTreeMap::new();
        let mut ran = 0;
        for line in lines {
            // A call read while 4 ran and 8 waited was not run, and said so.
            if line.contains(r#"{"Failed":"RateLimited"}"#) {
                ran += 1;
            } else {
                assert!(
                    line.contains(r#"{"NotRun":"the Tool is at its bound of calls (4 running and 8 waiting"#),
                    "{line}"
                );
            }
            *answered.entry(call_of(&line)).or_insert(0) += 1;
        }
        assert_eq!(answered.len(), 2000);
        assert!(ran >= 50, "only {ran} calls ran");
        assert!(answered.values().all(|&n| n == 1), "a call answered more than once");
        assert!(running.most() <= 4, "{} calls ran at once, past the pool's 4", running.most());
    }

    #[test]
    fn an_async_handler_woken_from_another_thread_replies_and_others_go_on() {
        // As a method awaiting work on the author's runtime does: the future
        // is completed by another thread, and block_on parks meanwhile.
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let done_rx = Mutex::new(done_rx);
        let mut input = forecast("async", "async");
        input.push_str(&forecast("after", "Oslo"));
        let (serving, lines) = serving(weather_server(), input, move |call| {
            if matches!(&call.args[0], Value::Text(city) if city == "async") {
                let released = lock(&done_rx).recv_timeout(WAIT).is_ok();
                let value = park_on(Remote::spawn(released));
                return HandlerResult::FailedJson(Json::str(if value { "RateLimited" } else { "x" }));
            }
            HandlerResult::FailedJson(Json::object([("Unavailable", Json::str("PT5S"))]))
        });
        // The other call is answered while the async one waits.
        let first = lines.recv_timeout(WAIT).unwrap();
        assert_eq!(call_of(&first), "after");
        done_tx.send(()).unwrap();
        serving.join().unwrap().unwrap();
        let last = lines.recv_timeout(WAIT).unwrap();
        assert_eq!(call_of(&last), "async");
        assert!(last.contains(r#"{"Failed":"RateLimited"}"#), "{last}");
    }

    /// Polls `future` on this thread, parking while it is pending: what the
    /// generated Rust Tools' executor does (a toolkit module, above this one).
    fn park_on<F: std::future::Future>(future: F) -> F::Output {
        struct Unpark(std::thread::Thread);
        impl std::task::Wake for Unpark {
            fn wake(self: Arc<Self>) {
                self.0.unpark();
            }
        }
        let mut future = std::pin::pin!(future);
        let waker = std::task::Waker::from(Arc::new(Unpark(std::thread::current())));
        let mut context = std::task::Context::from_waker(&waker);
        loop {
            if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
                return output;
            }
            std::thread::park();
        }
    }

    /// A future completed by a thread of its own, as a runtime's join handle is.
    struct Remote(Arc<Mutex<(Option<bool>, Option<std::task::Waker>)>>);
    impl Remote {
        fn spawn(value: bool) -> Remote {
            let slot: Arc<Mutex<(Option<bool>, Option<std::task::Waker>)>> = Arc::new(Mutex::new((None, None)));
            let remote = slot.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(5));
                let waker = {
                    let mut slot = lock(&remote);
                    slot.0 = Some(value);
                    slot.1.take()
                };
                if let Some(waker) = waker {
                    waker.wake();
                }
            });
            Remote(slot)
        }
    }
    impl std::future::Future for Remote {
        type Output = bool;
        fn poll(self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<bool> {
            let mut slot = lock(&self.0);
            match slot.0 {
                Some(value) => std::task::Poll::Ready(value),
                None => {
                    slot.1 = Some(cx.waker().clone());
                    std::task::Poll::Pending
                }
            }
        }
    }

    #[test]
    fn with_no_thread_to_start_every_call_still_runs_and_nothing_panics() {
        let gate = Arc::new(Gate::default());
        let held = gate.clone();
        let mut server = weather_server();
        server.no_threads = true;
        let mut input = forecast("first", "slow");
        for n in 0..20 {
            input.push_str(&forecast(&format!("c{n}"), "Oslo"));
        }
        let (serving, lines) = serving(server, input, move |call| {
            if matches!(&call.args[0], Value::Text(city) if city == "slow") {
                held.wait();
            }
            HandlerResult::FailedJson(Json::str("RateLimited"))
        });
        // With no standby, reading waits for the blocked handler (said on
        // stderr); once it returns, every call is answered.
        std::thread::sleep(super::super::pace::TICK * 20);
        gate.open();
        serving.join().unwrap().unwrap();
        let answered: Vec<String> = lines.into_iter().map(|l| call_of(&l)).collect();
        assert_eq!(answered.len(), 21, "{answered:?}");
        assert_eq!(answered[0], "first");
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
