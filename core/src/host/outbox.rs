//! The lines waiting to go to one Tool process's stdin, and the batches its
//! writer thread takes from them.
//!
//! Callers append whole lines and return at once; the writer takes every
//! line queued so far in one swap and writes them with one `write` (more only
//! if the pipe takes part of it), so calls sent while a write is under way go
//! out together and no line is flushed alone while others wait. Each call
//! line gets the next sequence number, so the writer can say which calls
//! wholly reached the pipe by one number: lines are written in order.

use std::sync::{Condvar, Mutex, MutexGuard};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Door {
    Open,
    /// No new line is taken; what is queued is still written, then stdin
    /// is closed.
    Closing,
    /// Nothing more is written: the process ended or its stdin failed.
    Shut,
}

struct Queue {
    bytes: Vec<u8>,
    /// Where each queued call line ends in `bytes`, in order.
    call_ends: Vec<usize>,
    /// The sequence number of the first call line in `bytes`.
    first_call: u64,
    door: Door,
    writer_waiting: bool,
}

/// The lines queued for one process.
pub(crate) struct Outbox {
    queue: Mutex<Queue>,
    wake: Condvar,
}

/// Lines taken by the writer: write `bytes`; the call lines among them are
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

impl Outbox {
    pub(crate) fn new() -> Outbox {
        let queue = Queue {
            bytes: Vec::with_capacity(64 << 10),
            call_ends: Vec::new(),
            first_call: 1,
            door: Door::Open,
            writer_waiting: false,
        };
        Outbox { queue: Mutex::new(queue), wake: Condvar::new() }
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn queued(&self, mut queue: MutexGuard<'_, Queue>, line: &[u8]) {
        queue.bytes.extend_from_slice(line);
        // A futex wake only when the writer sleeps: a busy writer takes the
        // line with the rest when its write returns.
        let wake = std::mem::take(&mut queue.writer_waiting);
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

    /// Blocks until lines are queued, then moves all of them into `batch`
    /// (whose buffers it reuses). False when there is nothing more to write:
    /// the outbox is closing and drained, or shut.
    pub(crate) fn take(&self, batch: &mut Batch) -> bool {
        batch.bytes.clear();
        batch.call_ends.clear();
        let mut queue = self.lock();
        loop {
            if queue.door == Door::Shut {
                return false;
            }
            if !queue.bytes.is_empty() {
                break;
            }
            if queue.door == Door::Closing {
                return false;
            }
            queue.writer_waiting = true;
            queue = self.wake.wait(queue).unwrap_or_else(|e| e.into_inner());
        }
        std::mem::swap(&mut queue.bytes, &mut batch.bytes);
        std::mem::swap(&mut queue.call_ends, &mut batch.call_ends);
        batch.first_call = queue.first_call;
        queue.first_call += batch.call_ends.len() as u64;
        true
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_holds_every_line_queued_and_numbers_its_calls() {
        let outbox = Outbox::new();
        assert_eq!(outbox.push_call(b"a\n"), Some(1));
        assert!(outbox.push_line(b"cancel\n"));
        assert_eq!(outbox.push_call(b"bb\n"), Some(2));
        let mut batch = Batch::default();
        assert!(outbox.take(&mut batch));
        assert_eq!(batch.bytes, b"a\ncancel\nbb\n");
        assert_eq!(batch.last_call_within(batch.bytes.len()), Some(2));
        // A write that stopped inside the second call: only the first arrived whole.
        assert_eq!(batch.last_call_within(batch.bytes.len() - 1), Some(1));
        assert_eq!(batch.last_call_within(1), None);
        assert_eq!(outbox.push_call(b"c\n"), Some(3));
        assert!(outbox.take(&mut batch));
        assert_eq!((batch.bytes.as_slice(), batch.first_call), (&b"c\n"[..], 3));
    }

    #[test]
    fn closing_drains_and_shutting_drops() {
        let outbox = Outbox::new();
        assert_eq!(outbox.push_call(b"a\n"), Some(1));
        outbox.close();
        assert_eq!(outbox.push_call(b"late\n"), None);
        let mut batch = Batch::default();
        assert!(outbox.take(&mut batch), "queued before the close: still written");
        assert!(!outbox.take(&mut batch), "drained: the writer stops");

        let outbox = Outbox::new();
        assert_eq!(outbox.push_call(b"a\n"), Some(1));
        outbox.shut();
        assert!(!outbox.take(&mut batch));
        assert!(!outbox.push_line(b"cancel\n"));
    }
}
