//! The smallest executor that runs a Tool's future: a call runs on a thread
//! of the stdio driver (the one that read it, or a follower), so polling the
//! future on that thread and parking it while nothing is ready is all a call
//! needs; a call that parks long has another thread take over reading. No
//! runtime, no reactor: a future that needs one (tokio's IO, say) is spawned
//! on the author's runtime and its join handle awaited here.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::Thread;

struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs `future` to completion on this thread.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(output) => return output,
            // A wake before this park leaves the token set, so park returns at
            // once; a spurious return only polls again.
            Poll::Pending => std::thread::park(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Ready once another thread has sent a value.
    struct FromThread(mpsc::Receiver<u32>, Option<mpsc::Sender<Waker>>);

    impl Future for FromThread {
        type Output = u32;
        fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
            if let Ok(v) = self.0.try_recv() {
                return Poll::Ready(v);
            }
            if let Some(tx) = self.1.take() {
                tx.send(cx.waker().clone()).unwrap();
            }
            Poll::Pending
        }
    }

    #[test]
    fn a_future_woken_from_another_thread_completes() {
        let (values, rx) = mpsc::channel();
        let (wakers, waker_rx) = mpsc::channel();
        let other = std::thread::spawn(move || {
            let waker: Waker = waker_rx.recv().unwrap();
            values.send(7).unwrap();
            waker.wake();
        });
        assert_eq!(block_on(FromThread(rx, Some(wakers))), 7);
        other.join().unwrap();
        assert_eq!(block_on(async { 1 + 1 }), 2);
    }
}
