//! A small timer: warm up, then the median of several runs. Benchmarks print
//! figures; they never assert on them.

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
