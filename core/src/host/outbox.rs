//! The lines waiting to go to one Tool process's stdin, and the pipe they
//! are written to.
//!
//! Callers append whole lines and return at once. Lines are written in
//! batches, by whichever comes first:
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
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long the writer thread waits after a write before writing the lines
/// queued meanwhile (unless a caller writes them first).
pub(crate) const WRITER_LINGER: Duration = Duration::from_millis(1);

/// Queued bytes past which the writer thread writes at once.
pub(crate) const FLUSH_BYTES: usize = 64 << 10;

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
    /// The buffers of the batch being written, reused.
    batch: Batch,
}

/// The lines queued for one process, and its pipe.
pub(crate) struct Outbox {
    queue: Mutex<Queue>,
    wake: Condvar,
    pipe: Mutex<Pipe>,
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
    pub(crate) fn new(stdin: Box<dyn Write + Send>) -> Outbox {
        let queue = Queue {
            bytes: Vec::with_capacity(64 << 10),
            call_ends: Vec::new(),
            first_call: 1,
            door: Door::Open,
            writer: WriterState::Idle,
            urgent: false,
        };
        let pipe = Pipe { stdin: Some(stdin), dead: false, written: 0, failed: None, batch: Batch::default() };
        Outbox { queue: Mutex::new(queue), wake: Condvar::new(), pipe: Mutex::new(pipe) }
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
    /// and records the last call line wholly written. Nothing to write, or
    /// no stdin any more: `Ok`.
    pub(crate) fn write_queued(&self, pipe: &mut Pipe) -> std::io::Result<()> {
        let Pipe { stdin, written, batch, .. } = pipe;
        let Some(stdin) = stdin.as_mut() else { return Ok(()) };
        {
            let mut queue = self.lock();
            if queue.bytes.is_empty() {
                return Ok(());
            }
            batch.bytes.clear();
            batch.call_ends.clear();
            std::mem::swap(&mut queue.bytes, &mut batch.bytes);
            std::mem::swap(&mut queue.call_ends, &mut batch.call_ends);
            batch.first_call = queue.first_call;
            queue.first_call += batch.call_ends.len() as u64;
        }
        let (count, result) = write_counting(stdin, &batch.bytes);
        if let Some(seq) = batch.last_call_within(count) {
            *written = seq;
        }
        result
    }

    /// Writes every line queued now, on the calling thread (one about to
    /// block on a reply). A failed write is left to the writer thread,
    /// which retires the process.
    pub(crate) fn flush(&self) {
        if self.lock().bytes.is_empty() {
            return;
        }
        let mut pipe = self.pipe();
        if pipe.dead || pipe.failed.is_some() {
            return;
        }
        if let Err(e) = self.write_queued(&mut pipe) {
            pipe.dead = true;
            pipe.failed = Some(e);
            let mut queue = self.lock();
            queue.urgent = true;
            drop(queue);
            self.wake.notify_one();
        }
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

/// Writes all of `bytes`, retrying short writes; how many bytes went to the
/// pipe, and the error that stopped it, if any.
fn write_counting(out: &mut dyn Write, bytes: &[u8]) -> (usize, std::io::Result<()>) {
    let mut written = 0;
    while written < bytes.len() {
        match out.write(&bytes[written..]) {
            Ok(0) => return (written, Err(std::io::ErrorKind::WriteZero.into())),
            Ok(n) => written += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return (written, Err(e)),
        }
    }
    (written, Ok(()))
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
}
