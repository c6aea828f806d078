//! The lines waiting to be written to the host, and their writing.
//!
//! Adding a line only appends it (a worker adds replies while it holds the
//! GIL, so it must never block there); [`Outbox::flush`] writes every line
//! waiting in one `write`, and is called without the GIL: by a worker before
//! it waits for work or after a few replies, by the pool's supervisor when
//! lines have waited a tick, and at once by any other thread (the reader, the
//! asyncio loop). In-flight calls are bounded, so the lines waiting are too.

use std::io::Write;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use super::lock;

thread_local! {
    /// Set on the pool's workers: their replies wait here for the worker's
    /// next write instead of being written at once.
    static ON_WORKER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks this thread as one of the pool's workers, for [`on_worker`].
pub(super) fn mark_worker() {
    ON_WORKER.with(|w| w.set(true));
}

/// Whether this thread is one of the pool's workers, whose replies wait for
/// its next write.
pub(super) fn on_worker() -> bool {
    ON_WORKER.with(|w| w.get())
}

#[derive(Default)]
struct Waiting {
    bytes: Vec<u8>,
    lines: usize,
    /// When the oldest waiting line was added.
    since: Option<Instant>,
}

/// The protocol's output (see the module doc).
pub(super) struct Outbox {
    waiting: Mutex<Waiting>,
    /// Held while writing, so lines leave in the order they were taken.
    out: Mutex<Box<dyn Write + Send>>,
}

impl Outbox {
    pub(super) fn new(out: Box<dyn Write + Send>) -> Outbox {
        Outbox { waiting: Mutex::new(Waiting::default()), out: Mutex::new(out) }
    }

    /// Appends `line` (with its `\n`); returns how many lines now wait.
    pub(super) fn add(&self, line: &str) -> usize {
        let mut waiting = lock(&self.waiting);
        waiting.bytes.extend_from_slice(line.as_bytes());
        waiting.lines += 1;
        waiting.since.get_or_insert_with(Instant::now);
        waiting.lines
    }

    /// How many lines wait, and since when.
    pub(super) fn waiting(&self) -> (usize, Option<Instant>) {
        let waiting = lock(&self.waiting);
        (waiting.lines, waiting.since)
    }

    /// Writes every waiting line in one `write`. May block on a full pipe:
    /// never call it holding the GIL.
    pub(super) fn flush(&self) {
        let mut out: MutexGuard<'_, Box<dyn Write + Send>> = lock(&self.out);
        let bytes = {
            let mut waiting = lock(&self.waiting);
            if waiting.lines == 0 {
                return;
            }
            waiting.lines = 0;
            waiting.since = None;
            std::mem::take(&mut waiting.bytes)
        };
        // A host that stopped reading is gone; there is nobody to tell.
        if out.write_all(&bytes).and_then(|()| out.flush()).is_err() {
            eprintln!("flow tool: could not write a reply: the host is gone");
        }
        // Keep the buffer's room for the next batch when nothing refilled it.
        let mut waiting = lock(&self.waiting);
        if waiting.bytes.is_empty() && bytes.capacity() <= 1 << 20 {
            let mut bytes = bytes;
            bytes.clear();
            waiting.bytes = bytes;
        }
    }
}
