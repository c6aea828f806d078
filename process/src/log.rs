//! Where log lines go: the host's dropped replies and stray lines, process
//! ends, and children's stderr.

use std::sync::Arc;

/// A sink for log lines, shared by every thread that logs.
pub type LogSink = Arc<dyn Fn(&str) + Send + Sync>;
