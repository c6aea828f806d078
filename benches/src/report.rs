//! Machine-readable figures for `benches/table.py`, which runs every benchmark
//! several times and writes one table. The printed output stays as it was; the
//! figures go as JSON lines to the file named by `FLOW_BENCH_JSON`, when set.
//! `FLOW_BENCH_QUICK` asks for fewer runs and calls (a smoke run of the table).

use std::io::Write;

use serde_json::{json, Map, Value};

/// Whether a quick run was asked for: fewer repeats and calls, rougher figures.
pub fn quick() -> bool {
    std::env::var_os("FLOW_BENCH_QUICK").is_some_and(|v| !v.is_empty() && v != "0")
}

/// `full` normally, `quick` in a quick run.
pub fn scaled(full: usize, quick_value: usize) -> usize {
    if quick() {
        quick_value
    } else {
        full
    }
}

/// Appends one figure: `bench` and `id` name it for the table, `unit` is
/// `ms` (lower is better) or `calls/s` (higher is better); `extra` adds
/// fields such as `outstanding` or latencies.
pub fn record(bench: &str, id: &str, label: &str, unit: &str, value: f64, extra: &[(&str, f64)]) {
    let Some(path) = std::env::var_os("FLOW_BENCH_JSON") else { return };
    let mut line = Map::new();
    line.insert("bench".into(), json!(bench));
    line.insert("id".into(), json!(id));
    line.insert("label".into(), json!(label));
    line.insert("unit".into(), json!(unit));
    line.insert("value".into(), json!(value));
    for (key, v) in extra {
        line.insert((*key).into(), json!(v));
    }
    let mut file =
        std::fs::OpenOptions::new().create(true).append(true).open(&path).expect("FLOW_BENCH_JSON is writable");
    writeln!(file, "{}", Value::Object(line)).expect("FLOW_BENCH_JSON is writable");
}
