//! Memory readings from `/proc` (Linux): the resident set now (`VmRSS`) and
//! its peak so far (`VmHWM`), of this process or another one still running.

use std::fs;

/// A `/proc/PID/status` field in bytes (`pid` None: this process).
fn field(pid: Option<u32>, name: &str) -> Option<u64> {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/status"),
        None => "/proc/self/status".to_owned(),
    };
    let status = fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with(name))?;
    let kib: u64 = line[name.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// Peak resident memory in bytes.
pub fn peak(pid: Option<u32>) -> Option<u64> {
    field(pid, "VmHWM:")
}

/// Resident memory now, in bytes.
pub fn current(pid: Option<u32>) -> Option<u64> {
    field(pid, "VmRSS:")
}
