//! What a host can tune.

use std::sync::Arc;
use std::time::Duration;

use crate::limits::Limits;

/// Where the host's log lines go (dropped replies, stray lines, process ends).
pub type LogSink = Arc<dyn Fn(&str) + Send + Sync>;

#[derive(Clone)]
pub struct HostOptions {
    /// Decoding limits for replies; `max_bytes` is the size limit of one line.
    pub limits: Limits,
    /// How long a started process may take to answer describe. A process that
    /// never answers must not hang the host.
    pub describe_timeout: Duration,
    /// Log lines. Default: stderr, prefixed `flow-host: `.
    pub log: LogSink,
    /// Discard Tool processes' stderr instead of passing it through.
    pub quiet_stderr: bool,
}

impl Default for HostOptions {
    fn default() -> HostOptions {
        HostOptions {
            limits: Limits::default(),
            describe_timeout: Duration::from_secs(30),
            log: Arc::new(|line| eprintln!("flow-host: {line}")),
            quiet_stderr: false,
        }
    }
}

impl std::fmt::Debug for HostOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostOptions")
            .field("limits", &self.limits)
            .field("describe_timeout", &self.describe_timeout)
            .field("quiet_stderr", &self.quiet_stderr)
            .finish_non_exhaustive()
    }
}
