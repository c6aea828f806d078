//! A small timer: warm up, then the median of several runs. Benchmarks print
//! figures; they never assert on them.

use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs `f` `warmup` times, then `runs` times, and returns the median duration.
pub fn median<T>(warmup: usize, runs: usize, mut f: impl FnMut() -> T) -> Duration {
    for _ in 0..warmup {
        std::hint::black_box(f());
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Runs `per_slot` calls on each of `slots` threads, each slot calling in a
/// closed loop (`call(slot, i)` makes one call and checks its outcome), and
/// returns the wall time and every call's latency.
pub fn closed_loop(
    slots: usize,
    per_slot: usize,
    call: impl Fn(usize, usize) + Send + Sync + 'static,
) -> (Duration, Vec<Duration>) {
    let call = Arc::new(call);
    let start = Instant::now();
    let threads: Vec<_> = (0..slots)
        .map(|slot| {
            let call = call.clone();
            std::thread::spawn(move || {
                let mut latencies = Vec::with_capacity(per_slot);
                for i in 0..per_slot {
                    let t0 = Instant::now();
                    call(slot, i);
                    latencies.push(t0.elapsed());
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::with_capacity(slots * per_slot);
    for t in threads {
        all.extend(t.join().unwrap());
    }
    (start.elapsed(), all)
}

/// The `p` quantile (0 to 1) of ascending durations.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}
