//! The lines waiting to go to one Tool process's stdin, and the pipe they
//! are written to.
//!
//! Callers append whole lines and return at once. Lines are written in
//! batches, by whichever comes first:
//! - a caller that has just queued the [`CHUNK_CALLS`]th call line not yet
//!   written writes the queue itself ([`Outbox::write_chunk`]), if the pipe
//!   is free, without blocking: the stdin is non-blocking, and what a full
//!   pipe does not take is left to the writer thread. So the process gets
//!   work while the caller prepares more, instead of a whole window at once
//!   followed by idling while its replies are read;
//! - a caller about to block on a handle writes every line queued so far
//!   itself ([`Outbox::flush`]): it would sleep anyway, and a thread woken
//!   per line costs a context switch, more than the line's own work;
//! - the writer thread, woken only when it sleeps idle (so an idle process
//!   gets its first line at once), when the queue passes [`FLUSH_BYTES`], or
//!   when the process is stopped; after each write it lingers
//!   [`WRITER_LINGER`] before writing lines queued meanwhile, so a caller
//!   that never blocks still has its lines written within that time.
//!
//! Whoever writes holds the pipe's lock and takes the queue under it, so
//! lines reach the pipe in the order they were queued. Each call line gets
//! the next sequence number, and the writer records the last one wholly
//! written, so which calls reached the process is one number.

use std::io::Write;
use std::os::fd::RawFd;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long the writer thread waits after a write before writing the lines
/// queued meanwhile (unless a caller writes them first).
pub(crate) const WRITER_LINGER: Duration = Duration::from_millis(1);

/// Queued bytes past which the writer thread writes at once.
pub(crate) const FLUSH_BYTES: usize = 64 << 10;

/// Call lines queued and not written at which the caller queuing the last
/// writes them (see the module's doc): a quarter of a 64-call window, so
/// the process has lines while the rest are prepared, and a write serves
/// many calls.
pub(crate) const CHUNK_CALLS: usize = 16;

/// How a write meets a full pipe.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Full {
    /// Waits until the pipe takes the rest (the writer thread, a caller
    /// about to block anyway).
    Wait,
    /// Stops, leaving the rest in the batch (a caller that must not block).
    Leave,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Door {
    Open,
    /// No new line is taken; what is queued is still written, then stdin
    /// is closed.
    Closing,
    /// Nothing more is written: the process ended or its stdin failed.
    Shut,
}

/// What the writer thread is doing, so that callers wake it only when it
/// would not come back by itself.
#[derive(Clone, Copy, PartialEq, Eq)]
enum WriterState {
    /// Asleep until woken: the next line queued wakes it.
    Idle,
    /// Writing, or about to.
    Busy,
    /// Asleep until its linger ends.
    Lingering,
}

struct Queue {
    bytes: Vec<u8>,
    /// Where each queued call line ends in `bytes`, in order.
    call_ends: Vec<usize>,
    /// The sequence number of the first call line in `bytes`.
    first_call: u64,
    door: Door,
    writer: WriterState,
    /// The writer thread is to act now: lines for an idle process, a full
    /// queue, a caller's failed write.
    urgent: bool,
}

/// The write end of a process's stdin and what was written to it.
pub(crate) struct Pipe {
    pub(crate) stdin: Option<Box<dyn Write + Send>>,
    /// No line goes to the process any more: it ended or was retired.
    pub(crate) dead: bool,
    /// The sequence number of the last call line wholly written (0: none).
    pub(crate) written: u64,
    /// A caller's write failed: the writer thread retires the process.
    pub(crate) failed: Option<std::io::Error>,
    /// The batch being written: its bytes before `batch.done` were written.
    /// Its buffers are reused.
    batch: Batch,
    /// The stdin's descriptor when it was made non-blocking, to wait on
    /// when it is full; `None`: writes block (and callers never write in
    /// [`Outbox::write_chunk`]).
    nonblocking: Option<RawFd>,
}

/// The lines queued for one process, and its pipe.
pub(crate) struct Outbox {
    queue: Mutex<Queue>,
    wake: Condvar,
    pipe: Mutex<Pipe>,
    /// Whether callers may write chunks: the stdin is non-blocking.
    chunks: bool,
}

/// What the writer thread does next.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Work {
    /// Write what is queued (or handle a caller's failed write).
    Write,
    /// Stopped and drained: close stdin.
    Close,
    /// Nothing more is written.
    Stop,
}

/// Lines taken from the queue: write `bytes`; the call lines among them are
/// numbered from `first_call`, and end at `call_ends`.
#[derive(Default)]
pub(crate) struct Batch {
    pub(crate) bytes: Vec<u8>,
    pub(crate) call_ends: Vec<usize>,
    pub(crate) first_call: u64,
    /// How many of `bytes` were written.
    pub(crate) done: usize,
}

impl Batch {
    /// The sequence number of the last call line wholly inside the first
    /// `written` bytes, if any.
    pub(crate) fn last_call_within(&self, written: usize) -> Option<u64> {
        let whole = self.call_ends.partition_point(|&end| end <= written);
        (whole > 0).then(|| self.first_call + whole as u64 - 1)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Outbox {
    /// An outbox for a blocking `stdin`: only the writer thread and callers
    /// about to block write to it.
    #[cfg(test)]
    pub(crate) fn new(stdin: Box<dyn Write + Send>) -> Outbox {
        Outbox::with_descriptor(stdin, None)
    }

    /// An outbox for a process's stdin pipe, made non-blocking so that a
    /// caller can write a chunk without risking a block on a full pipe. If
    /// that fails, it stays blocking and callers write no chunks.
    pub(crate) fn for_pipe(stdin: std::process::ChildStdin) -> Outbox {
        use std::os::fd::AsRawFd;
        let fd = stdin.as_raw_fd();
        let nonblocking = set_nonblocking(fd).then_some(fd);
        Outbox::with_descriptor(Box::new(stdin), nonblocking)
    }

    fn with_descriptor(stdin: Box<dyn Write + Send>, nonblocking: Option<RawFd>) -> Outbox {
        let queue = Queue {
            bytes: Vec::with_capacity(64 << 10),
            call_ends: Vec::new(),
            first_call: 1,
            door: Door::Open,
            writer: WriterState::Idle,
            urgent: false,
        };
        let pipe =
            Pipe { stdin: Some(stdin), dead: false, written: 0, failed: None, batch: Batch::default(), nonblocking };
        Outbox { queue: Mutex::new(queue), wake: Condvar::new(), pipe: Mutex::new(pipe), chunks: nonblocking.is_some() }
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        lock(&self.queue)
    }

    /// The pipe, locked. Lock order: the pipe before the connection's state
    /// and before the queue.
    pub(crate) fn pipe(&self) -> MutexGuard<'_, Pipe> {
        lock(&self.pipe)
    }

    fn queued(&self, mut queue: MutexGuard<'_, Queue>, line: &[u8]) {
        queue.bytes.extend_from_slice(line);
        // A futex wake only when the writer would not come back by itself.
        let wake = !queue.urgent
            && match queue.writer {
                WriterState::Idle => true,
                WriterState::Lingering => queue.bytes.len() >= FLUSH_BYTES,
                WriterState::Busy => false,
            };
        queue.urgent |= wake;
        drop(queue);
        if wake {
            self.wake.notify_one();
        }
    }

    /// Queues a call line (ending in `\n`); its sequence number, or `None`
    /// if the process takes no more lines.
    pub(crate) fn push_call(&self, line: &[u8]) -> Option<u64> {
        let mut queue = self.lock();
        if queue.door != Door::Open {
            return None;
        }
        let end = queue.bytes.len() + line.len();
        queue.call_ends.push(end);
        let seq = queue.first_call + queue.call_ends.len() as u64 - 1;
        self.queued(queue, line);
        Some(seq)
    }

    /// Queues a line that is not a call (describe, cancel, an error answer);
    /// false if the process takes no more lines.
    pub(crate) fn push_line(&self, line: &[u8]) -> bool {
        let queue = self.lock();
        if queue.door != Door::Open {
            return false;
        }
        self.queued(queue, line);
        true
    }

    /// Asks the writer thread to write what is queued now, without waiting
    /// for its linger.
    pub(crate) fn hurry(&self) {
        let mut queue = self.lock();
        if queue.urgent || queue.bytes.is_empty() {
            return;
        }
        queue.urgent = true;
        drop(queue);
        self.wake.notify_one();
    }

    /// The writer thread's wait: blocks until there is work for it (see the
    /// module's doc for when).
    pub(crate) fn wait_for_work(&self, linger: Duration) -> Work {
        let mut queue = self.lock();
        let mut deadline: Option<Instant> = None;
        loop {
            if queue.door == Door::Shut {
                return Work::Stop;
            }
            let queued = !queue.bytes.is_empty();
            if queue.urgent || (queued && (queue.door == Door::Closing || queue.bytes.len() >= FLUSH_BYTES)) {
                queue.urgent = false;
                queue.writer = WriterState::Busy;
                return Work::Write;
            }
            if queue.door == Door::Closing {
                return Work::Close;
            }
            let now = Instant::now();
            match queue.writer {
                WriterState::Busy => {
                    queue.writer = WriterState::Lingering;
                    deadline = Some(now + linger);
                }
                WriterState::Lingering => {
                    let until = *deadline.get_or_insert(now + linger);
                    if now >= until {
                        if queued {
                            queue.writer = WriterState::Busy;
                            return Work::Write;
                        }
                        queue.writer = WriterState::Idle;
                    }
                }
                WriterState::Idle => {}
            }
            queue = match (queue.writer, deadline) {
                (WriterState::Lingering, Some(until)) => {
                    let left = until.saturating_duration_since(now);
                    self.wake.wait_timeout(queue, left).unwrap_or_else(|e| e.into_inner()).0
                }
                _ => self.wake.wait(queue).unwrap_or_else(|e| e.into_inner()),
            };
        }
    }

    /// Writes every line queued, with `pipe` (this outbox's, locked) held,
    /// and records the last call line wholly written; the rest of a batch a
    /// caller left goes first. Nothing to write, or no stdin any more: `Ok`.
    pub(crate) fn write_queued(&self, pipe: &mut Pipe) -> std::io::Result<()> {
        self.write_pending(pipe, Full::Wait).map(|_| ())
    }

    /// As [`Outbox::write_queued`]; with [`Full::Leave`], `Ok(false)` if a
    /// full pipe left part of the batch unwritten.
    fn write_pending(&self, pipe: &mut Pipe, full: Full) -> std::io::Result<bool> {
        let Pipe { stdin, written, batch, nonblocking, .. } = pipe;
        let Some(stdin) = stdin.as_mut() else { return Ok(true) };
        let mut took = false;
        loop {
            if batch.done == batch.bytes.len() {
                if took {
                    return Ok(true);
                }
                took = true;
                let mut queue = self.lock();
                if queue.bytes.is_empty() {
                    return Ok(true);
                }
                batch.bytes.clear();
                batch.call_ends.clear();
                batch.done = 0;
                std::mem::swap(&mut queue.bytes, &mut batch.bytes);
                std::mem::swap(&mut queue.call_ends, &mut batch.call_ends);
                batch.first_call = queue.first_call;
                queue.first_call += batch.call_ends.len() as u64;
            }
            let result = write_from(stdin, batch, *nonblocking, full);
            if let Some(seq) = batch.last_call_within(batch.done) {
                *written = seq;
            }
            if !result? {
                return Ok(false);
            }
        }
    }

    /// Writes every line queued now, on the calling thread (one about to
    /// block on a reply). A failed write is left to the writer thread,
    /// which retires the process.
    pub(crate) fn flush(&self) {
        if self.lock().bytes.is_empty() {
            // The rest of a batch a caller left is the writer thread's already.
            return;
        }
        let mut pipe = self.pipe();
        if pipe.dead || pipe.failed.is_some() {
            return;
        }
        if let Err(e) = self.write_queued(&mut pipe) {
            self.failed(pipe, e);
        }
    }

    /// Called by a caller after it queued a call line, holding no lock:
    /// once [`CHUNK_CALLS`] call lines wait, writes them, unless someone
    /// else is writing (they take the queue next) or the stdin blocks. What
    /// a full pipe does not take goes to the writer thread.
    pub(crate) fn write_chunk(&self) {
        if !self.chunks || self.lock().call_ends.len() < CHUNK_CALLS {
            return;
        }
        let Ok(mut pipe) = self.pipe.try_lock() else { return };
        if pipe.dead || pipe.failed.is_some() {
            return;
        }
        match self.write_pending(&mut pipe, Full::Leave) {
            Ok(true) => {}
            Ok(false) => {
                // Under the pipe's lock, so the writer thread cannot close
                // stdin before it sees this.
                self.lock().urgent = true;
                self.wake.notify_one();
            }
            Err(e) => self.failed(pipe, e),
        }
    }

    /// A caller's write failed: no caller writes again, and the writer
    /// thread retires the process.
    fn failed(&self, mut pipe: MutexGuard<'_, Pipe>, e: std::io::Error) {
        pipe.dead = true;
        pipe.failed = Some(e);
        let mut queue = self.lock();
        queue.urgent = true;
        drop(queue);
        self.wake.notify_one();
    }

    /// Takes no new line; what is queued is still written.
    pub(crate) fn close(&self) {
        let mut queue = self.lock();
        if queue.door == Door::Open {
            queue.door = Door::Closing;
        }
        drop(queue);
        self.wake.notify_all();
    }

    /// Whether [`Outbox::shut`] was called.
    pub(crate) fn is_shut(&self) -> bool {
        self.lock().door == Door::Shut
    }

    /// Writes nothing more; what is queued is dropped, its calls never sent.
    pub(crate) fn shut(&self) {
        let mut queue = self.lock();
        queue.door = Door::Shut;
        queue.bytes = Vec::new();
        queue.call_ends = Vec::new();
        drop(queue);
        self.wake.notify_all();
    }
}

/// Writes the rest of `batch` (from `batch.done`, which it advances),
/// retrying short writes. A full non-blocking pipe is waited on (`fd`) or
/// left, as `full` says: `Ok(false)` if left.
fn write_from(out: &mut dyn Write, batch: &mut Batch, fd: Option<RawFd>, full: Full) -> std::io::Result<bool> {
    while batch.done < batch.bytes.len() {
        match out.write(&batch.bytes[batch.done..]) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => batch.done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => match full {
                Full::Leave => return Ok(false),
                Full::Wait => wait_writable(fd)?,
            },
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

/// Makes `fd` non-blocking; false if it could not.
fn set_nonblocking(fd: RawFd) -> bool {
    // SAFETY: fcntl on a descriptor the caller owns, no pointers.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) >= 0
    }
}

/// Blocks until `fd` can take more (or has failed: the next write says how).
/// Without a descriptor (a test's writer), yields and lets the write retry.
fn wait_writable(fd: Option<RawFd>) -> std::io::Result<()> {
    let Some(fd) = fd else {
        std::thread::yield_now();
        return Ok(());
    };
    let mut poll = libc::pollfd { fd, events: libc::POLLOUT, revents: 0 };
    loop {
        // SAFETY: one valid pollfd, for the length given.
        if unsafe { libc::poll(&mut poll, 1, -1) } >= 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// A pipe that keeps what is written, and can be made to fail.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<(Vec<u8>, bool)>>);

    impl Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let mut sink = lock(&self.0);
            if sink.1 {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            // Half at most: short writes are retried.
            let n = bytes.len().div_ceil(2);
            sink.0.extend_from_slice(&bytes[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn new_outbox() -> (Outbox, Sink) {
        let sink = Sink::default();
        (Outbox::new(Box::new(sink.clone())), sink)
    }

    #[test]
    fn a_batch_holds_every_line_queued_and_numbers_its_calls() {
        let (outbox, sink) = new_outbox();
        assert_eq!(outbox.push_call(b"a\n"), Some(1));
        assert!(outbox.push_line(b"cancel\n"));
        assert_eq!(outbox.push_call(b"bb\n"), Some(2));
        outbox.flush();
        assert_eq!(lock(&sink.0).0, b"a\ncancel\nbb\n");
        {
            let pipe = outbox.pipe();
            assert_eq!(pipe.written, 2);
            let batch = &pipe.batch;
            assert_eq!(batch.last_call_within(batch.bytes.len()), Some(2));
            // A write that stopped inside the second call: only the first arrived whole.
            assert_eq!(batch.last_call_within(batch.bytes.len() - 1), Some(1));
            assert_eq!(batch.last_call_within(1), None);
        }
        assert_eq!(outbox.push_call(b"c\n"), Some(3));
        outbox.flush();
        let pipe = outbox.pipe();
        assert_eq!((pipe.written, pipe.batch.first_call), (3, 3));
        assert_eq!(lock(&sink.0).0, b"a\ncancel\nbb\nc\n");
    }

    #[test]
    fn the_writer_is_woken_when_idle_and_lingers_after_a_write() {
        let (outbox, _sink) = new_outbox();
        assert_eq!(outbox.push_call(b"a\n"), Some(1));
        // Idle when the line came: at once.
        assert_eq!(outbox.wait_for_work(Duration::from_secs(3600)), Work::Write);
        outbox.write_queued(&mut outbox.pipe()).unwrap();
        assert_eq!(outbox.push_call(b"b\n"), Some(2));
        // Busy when it came: written after the linger, not before.
        let started = Instant::now();
        assert_eq!(outbox.wait_for_work(Duration::from_millis(20)), Work::Write);
        assert!(started.elapsed() >= Duration::from_millis(20));
        outbox.write_queued(&mut outbox.pipe()).unwrap();
        // A queue past FLUSH_BYTES does not wait for the linger.
        assert!(outbox.push_line(&vec![b' '; FLUSH_BYTES]));
        assert_eq!(outbox.wait_for_work(Duration::from_secs(3600)), Work::Write);
        outbox.write_queued(&mut outbox.pipe()).unwrap();
        assert_eq!(outbox.pipe().written, 2);
    }

    #[test]
    fn a_failed_write_by_a_caller_goes_to_the_writer() {
        let (outbox, sink) = new_outbox();
        assert_eq!(outbox.push_call(b"a\n"), Some(1));
        outbox.flush();
        lock(&sink.0).1 = true;
        assert_eq!(outbox.push_call(b"b\n"), Some(2));
        outbox.flush();
        let pipe = outbox.pipe();
        assert!(pipe.dead && pipe.failed.is_some());
        assert_eq!(pipe.written, 1, "only the first call reached the pipe");
        drop(pipe);
        assert_eq!(outbox.wait_for_work(Duration::from_secs(3600)), Work::Write);
    }

    #[test]
    fn closing_drains_and_shutting_drops() {
        let (outbox, sink) = new_outbox();
        assert_eq!(outbox.push_call(b"a\n"), Some(1));
        outbox.close();
        assert_eq!(outbox.push_call(b"late\n"), None);
        assert_eq!(outbox.wait_for_work(Duration::from_secs(3600)), Work::Write, "queued before the close");
        outbox.write_queued(&mut outbox.pipe()).unwrap();
        assert_eq!(outbox.wait_for_work(Duration::from_secs(3600)), Work::Close, "drained: stdin is closed");
        assert_eq!(lock(&sink.0).0, b"a\n");

        let (outbox, sink) = new_outbox();
        assert_eq!(outbox.push_call(b"a\n"), Some(1));
        outbox.shut();
        assert_eq!(outbox.wait_for_work(Duration::from_secs(3600)), Work::Stop);
        outbox.flush();
        assert!(lock(&sink.0).0.is_empty());
        assert!(!outbox.push_line(b"cancel\n"));
    }

    /// An outbox on a real pipe, non-blocking as a process's stdin is.
    fn on_pipe() -> (Outbox, std::io::PipeReader) {
        use std::os::fd::AsRawFd;
        let (reader, writer) = std::io::pipe().unwrap();
        let fd = writer.as_raw_fd();
        assert!(set_nonblocking(fd));
        (Outbox::with_descriptor(Box::new(writer), Some(fd)), reader)
    }

    #[test]
    fn a_caller_writes_the_queue_once_a_chunk_of_calls_waits() {
        use std::io::Read;
        let (outbox, mut reader) = on_pipe();
        let line = |i: usize| format!("call {i}\n");
        for i in 0..CHUNK_CALLS - 1 {
            outbox.push_call(line(i).as_bytes());
            outbox.write_chunk();
        }
        assert_eq!(outbox.pipe().written, 0, "fewer than a chunk: left to the writer or a waiting caller");
        outbox.push_call(line(CHUNK_CALLS - 1).as_bytes());
        outbox.write_chunk();
        assert_eq!(outbox.pipe().written, CHUNK_CALLS as u64);
        let expected: String = (0..CHUNK_CALLS).map(line).collect();
        let mut got = vec![0; expected.len()];
        reader.read_exact(&mut got).unwrap();
        assert_eq!(String::from_utf8(got).unwrap(), expected);
    }

    #[test]
    fn a_full_pipe_leaves_the_rest_of_a_chunk_to_the_writer_without_blocking() {
        use std::io::Read;
        let (outbox, mut reader) = on_pipe();
        // Far more than a pipe holds, and nobody reading yet.
        let lines: Vec<Vec<u8>> = (0..CHUNK_CALLS)
            .map(|i| {
                let mut line = vec![b'a' + i as u8; 16 << 10];
                *line.last_mut().unwrap() = b'\n';
                line
            })
            .collect();
        for line in &lines {
            outbox.push_call(line);
        }
        outbox.write_chunk();
        let partly = outbox.pipe().written;
        assert!(partly < CHUNK_CALLS as u64, "the pipe cannot have taken every call");
        // The rest is the writer thread's now: it is told to write at once.
        assert_eq!(outbox.wait_for_work(Duration::from_secs(3600)), Work::Write);
        // One more line queued meanwhile goes after the rest of the batch.
        outbox.push_call(b"last\n");
        let drain = std::thread::spawn(move || {
            let mut all = Vec::new();
            reader.read_to_end(&mut all).unwrap();
            all
        });
        {
            let mut pipe = outbox.pipe();
            outbox.write_queued(&mut pipe).unwrap();
            assert_eq!(pipe.written, CHUNK_CALLS as u64 + 1);
            pipe.stdin = None;
        }
        let mut expected = lines.concat();
        expected.extend_from_slice(b"last\n");
        assert!(drain.join().unwrap() == expected, "every line, whole and in order");
    }

    #[test]
    fn a_blocking_stdin_takes_no_chunk_from_a_caller() {
        let (outbox, sink) = new_outbox();
        for _ in 0..CHUNK_CALLS * 2 {
            outbox.push_call(b"a\n");
            outbox.write_chunk();
        }
        assert!(lock(&sink.0).0.is_empty(), "only the writer thread or a waiting caller writes to it");
    }
}
