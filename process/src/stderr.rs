//! A child's stderr: passed through to this process's, discarded, or read
//! into log lines labelled with the child's command, so that lines from
//! several children (and restarts of one) can be told apart.

use std::io::{BufRead, BufReader, Read};
use std::process::{ChildStderr, Stdio};

use super::log::LogSink;

/// The longest stderr line logged whole; a longer one is logged cut short.
pub const STDERR_LINE: usize = 64 * 1024;

/// What becomes of a child's stderr.
#[derive(Clone)]
pub enum StderrMode {
    /// Written straight to this process's stderr.
    Inherit,
    /// Thrown away.
    Discard,
    /// Each line logged as `LABEL: stderr: LINE`.
    Log(LogSink),
}

impl StderrMode {
    pub(crate) fn stdio(&self) -> Stdio {
        match self {
            StderrMode::Inherit => Stdio::inherit(),
            StderrMode::Discard => Stdio::null(),
            StderrMode::Log(_) => Stdio::piped(),
        }
    }
}

impl std::fmt::Debug for StderrMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StderrMode::Inherit => "Inherit",
            StderrMode::Discard => "Discard",
            StderrMode::Log(_) => "Log",
        })
    }
}

/// Starts a thread that logs `stderr` line by line until it closes (the
/// child and everything holding its stderr ended).
pub(crate) fn log_lines(stderr: ChildStderr, label: String, log: LogSink, thread_name: String) -> std::io::Result<()> {
    std::thread::Builder::new().name(thread_name).spawn(move || read_lines(stderr, &label, &log))?;
    Ok(())
}

fn read_lines(stderr: impl Read, label: &str, log: &LogSink) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        // One byte past the cap tells a line at the cap from a longer one.
        match reader.by_ref().take(STDERR_LINE as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            log(&format!("{label}: stderr: {}", String::from_utf8_lossy(&line)));
            continue;
        }
        if line.len() <= STDERR_LINE {
            // The last line, without its newline.
            log(&format!("{label}: stderr: {}", String::from_utf8_lossy(&line)));
            return;
        }
        line.truncate(STDERR_LINE);
        log(&format!("{label}: stderr: {} [cut at {STDERR_LINE} bytes]", String::from_utf8_lossy(&line)));
        // The rest of that line is skipped.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            match reader.by_ref().take(STDERR_LINE as u64).read_until(b'\n', &mut rest) {
                Ok(0) | Err(_) => return,
                Ok(_) if rest.last() == Some(&b'\n') => break,
                Ok(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    fn lines_of(input: &[u8]) -> Vec<String> {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        let log: LogSink = Arc::new(move |l| sink.lock().unwrap().push(l.to_owned()));
        read_lines(input, "tool", &log);
        let lines = seen.lock().unwrap().clone();
        lines
    }

    #[test]
    fn each_line_is_labelled() {
        assert_eq!(lines_of(b"one\ntwo\nlast"), ["tool: stderr: one", "tool: stderr: two", "tool: stderr: last"]);
    }

    #[test]
    fn a_long_line_is_cut_and_the_next_kept() {
        let mut input = vec![b'x'; STDERR_LINE * 2 + 10];
        input.extend_from_slice(b"\nafter\n");
        let lines = lines_of(&input);
        assert_eq!(lines.len(), 2, "{:?}", lines.iter().map(String::len).collect::<Vec<_>>());
        assert!(lines[0].ends_with(&format!("[cut at {STDERR_LINE} bytes]")));
        assert_eq!(lines[1], "tool: stderr: after");
    }
}
