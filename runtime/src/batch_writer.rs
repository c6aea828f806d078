//! One writer for every outgoing line, shared by the reader and the handlers'
//! threads: lines ready together go out in one `write` and one flush, and the
//! lines not yet written are bounded.
//!
//! No thread of its own: whoever adds a line while nobody writes becomes the
//! writer, takes every line ready, writes them at once outside the lock, and
//! goes on until none is left; whoever adds a line meanwhile returns at once.
//! So one call alone is written with no hand-off (its latency is the floor's),
//! and under load each `write` carries every reply that finished during the
//! previous one.
//!
//! The thread that reads input and runs calls inline (the leader, in
//! `schedule`) defers its lines instead ([`BatchWriter::push`]) and writes
//! them ([`BatchWriter::flush`]) when no more input waits, as a trivial
//! server flushes: replies to lines read together go out together, with no
//! `write` per reply.
//!
//! Bounded: past [`WriterBounds`] an adder waits until the writer has taken
//! the lines. A host that stops reading stops the writer in `write`, then the
//! handlers that finish, then the reader (at the next line it answers), so
//! the pipe pushes back to the host and memory stays bounded.

use std::io::Write;
use std::sync::{Condvar, Mutex, MutexGuard};

/// How many lines a [`BatchWriter::push`] leaves unwritten at most: a `write`
/// carries at least this many replies under load, and a reply waits behind no
/// more than this many others.
pub const DEFERRED_LINES: usize = 64;

/// How many bytes a [`BatchWriter::push`] leaves unwritten at most.
pub const DEFERRED_BYTES: usize = 64 << 10;

/// How much may wait unwritten before adders wait: `lines` lines, or `bytes`
/// bytes (one line alone is always taken, however long).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterBounds {
    pub lines: usize,
    pub bytes: usize,
}

impl Default for WriterBounds {
    fn default() -> WriterBounds {
        WriterBounds { lines: 1024, bytes: 32 << 20 }
    }
}

struct Pending {
    buf: Vec<u8>,
    /// The buffer of the last batch written, kept for the next one: lines
    /// added while a batch is written go into it, so the two swap without
    /// allocating (a large free and a fresh growth per batch otherwise).
    spare: Vec<u8>,
    lines: usize,
    /// Someone is writing: adders leave their line for them.
    writing: bool,
    /// The output failed once: the peer is gone, and lines are dropped.
    broken: bool,
    /// Adders waiting for room.
    waiting: usize,
}

/// The shared writer.
pub struct BatchWriter<W> {
    pending: Mutex<Pending>,
    room: Condvar,
    out: Mutex<W>,
    bounds: WriterBounds,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing panics while holding these locks; if something did, writing on
    // beats dying.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<W: Write> BatchWriter<W> {
    pub fn new(out: W, bounds: WriterBounds) -> BatchWriter<W> {
        let pending =
            Pending { buf: Vec::new(), spare: Vec::new(), lines: 0, writing: false, broken: false, waiting: 0 };
        BatchWriter { pending: Mutex::new(pending), room: Condvar::new(), out: Mutex::new(out), bounds }
    }

    /// Adds one whole line (ending in `\n`); writes it, with every other line
    /// ready, unless someone else is writing. Waits while too much is unwritten.
    pub fn write(&self, line: &str) {
        self.add(line, false);
    }

    /// Adds one whole line, as [`BatchWriter::write`] does, but leaves it
    /// for a later [`BatchWriter::flush`] (or anyone's write) while fewer
    /// than [`DEFERRED_LINES`] lines and [`DEFERRED_BYTES`] bytes wait.
    pub fn push(&self, line: &str) {
        self.add(line, true);
    }

    /// Writes every line waiting, unless someone else is writing (who takes
    /// them).
    pub fn flush(&self) {
        let p = lock(&self.pending);
        if p.lines > 0 && !p.writing && !p.broken {
            self.drain(p);
        }
    }

    fn add(&self, line: &str, defer: bool) {
        let mut p = lock(&self.pending);
        while !p.broken && p.lines > 0 && (p.lines >= self.bounds.lines || p.buf.len() + line.len() > self.bounds.bytes)
        {
            p.waiting += 1;
            p = self.room.wait(p).unwrap_or_else(|e| e.into_inner());
            p.waiting -= 1;
        }
        if p.broken {
            return;
        }
        p.buf.extend_from_slice(line.as_bytes());
        p.lines += 1;
        if p.writing || (defer && p.lines < DEFERRED_LINES.min(self.bounds.lines) && p.buf.len() < DEFERRED_BYTES) {
            return;
        }
        self.drain(p);
    }

    /// Writes every line waiting, and those added meanwhile, until none is
    /// left: the caller becomes the writer.
    fn drain<'a>(&'a self, mut p: MutexGuard<'a, Pending>) {
        p.writing = true;
        let mut batch = std::mem::take(&mut p.spare);
        loop {
            std::mem::swap(&mut batch, &mut p.buf);
            p.lines = 0;
            if p.waiting > 0 {
                self.room.notify_all();
            }
            drop(p);
            let written = {
                let mut out = lock(&self.out);
                out.write_all(&batch).and_then(|()| out.flush())
            };
            batch.clear();
            p = lock(&self.pending);
            if written.is_err() && !p.broken {
                // A host that stopped reading for good is gone; nobody to tell
                // but stderr, once.
                eprintln!("flow tool: could not write replies: the host is gone");
                p.broken = true;
                p.buf.clear();
                p.lines = 0;
                self.room.notify_all();
            }
            if p.buf.is_empty() {
                p.writing = false;
                p.spare = batch;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;
    use std::sync::{mpsc, Arc};

    /// An output that records each write and can be held shut.
    struct Gate {
        writes: mpsc::Sender<Vec<u8>>,
        open: mpsc::Receiver<()>,
    }
    impl Write for Gate {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.open.recv().map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
            self.writes.send(buf.to_vec()).unwrap();
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_added_while_writing_go_out_together_and_adders_wait_past_the_bound() {
        let (writes_tx, writes) = mpsc::channel();
        let (open, open_rx) = mpsc::channel();
        let writer = Arc::new(BatchWriter::new(
            Gate { writes: writes_tx, open: open_rx },
            WriterBounds { lines: 3, bytes: 1 << 20 },
        ));
        // The first adder becomes the writer and is held in `write`.
        let first = {
            let writer = writer.clone();
            std::thread::spawn(move || writer.write("a\n"))
        };
        while lock(&writer.pending).lines != 0 || !lock(&writer.pending).writing {
            std::thread::yield_now();
        }
        for line in ["b\n", "c\n", "d\n"] {
            writer.write(line);
        }
        // The bound is reached: a fifth adder waits.
        let (done_tx, done) = mpsc::channel();
        let fifth = {
            let writer = writer.clone();
            std::thread::spawn(move || {
                writer.write("e\n");
                done_tx.send(()).unwrap();
            })
        };
        assert!(done.recv_timeout(std::time::Duration::from_millis(200)).is_err(), "an adder past the bound returned");
        assert_eq!(lock(&writer.pending).lines, 3);
        for _ in 0..3 {
            open.send(()).unwrap();
        }
        first.join().unwrap();
        fifth.join().unwrap();
        let got: Vec<Vec<u8>> = writes.try_iter().collect();
        assert_eq!(got[0], b"a\n");
        // Every line ready at once went out in one write.
        assert_eq!(got[1], b"b\nc\nd\n");
        assert_eq!(got.concat(), b"a\nb\nc\nd\ne\n");
    }

    #[test]
    fn a_broken_output_drops_lines_without_blocking() {
        struct Broken;
        impl Write for Broken {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let writer = BatchWriter::new(Broken, WriterBounds { lines: 1, bytes: 1 });
        for _ in 0..10 {
            writer.write("x\n");
        }
        assert!(lock(&writer.pending).broken);
    }
}
