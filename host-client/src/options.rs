//! What a host can tune.

use std::sync::Arc;
use std::time::Duration;

use flow_core::limits::Limits;
use flow_mcp::client::McpOptions;
use flow_mcp::version::Implementation;

/// The default [`HostOptions::stop_grace`], which MCP servers get too
/// ([`McpOptions::stop_grace`]).
pub use flow_process::DEFAULT_STOP_GRACE;

pub use flow_process::LogSink;

/// How the host starts, describes, calls and stops Tool processes.
#[derive(Clone)]
pub struct HostOptions {
    /// Decoding limits for replies; `max_bytes` is the size limit of one line.
    pub limits: Limits,
    /// How long a started process may take to answer describe. A process that
    /// never answers must not hang the host.
    pub describe_timeout: Duration,
    /// How long a process whose stdin the host has closed (a stop, a write
    /// that failed, the host or connection dropped) may take to finish its
    /// calls and exit before it is killed; MCP servers alike. Calls still out to it then are
    /// Unknown, as for any process end. The spec names no figure; default
    /// [`DEFAULT_STOP_GRACE`], 5 s: long enough to write the replies of calls
    /// that were finishing, short enough that a Tool that ignores the end of
    /// its input, or is stuck in a handler, does not hold the host up long.
    /// Zero kills at once.
    pub stop_grace: Duration,
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
            stop_grace: DEFAULT_STOP_GRACE,
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
            .field("stop_grace", &self.stop_grace)
            .field("quiet_stderr", &self.quiet_stderr)
            .finish_non_exhaustive()
    }
}

impl From<&HostOptions> for McpOptions {
    /// The host's limits, stop grace, log and stderr choice; its describe
    /// timeout is the time to be ready, since listing the tools is the MCP
    /// adapter's describe.
    fn from(host: &HostOptions) -> McpOptions {
        McpOptions {
            limits: host.limits,
            probe_timeout: Duration::from_secs(10).min(host.describe_timeout),
            ready_timeout: host.describe_timeout,
            stop_grace: host.stop_grace,
            log: host.log.clone(),
            quiet_stderr: host.quiet_stderr,
            client: Implementation::flow_adapter(),
        }
    }
}
