//! The flow-gen command, compiled into the module: `npx flow-gen` runs it.

use std::io::Write;

use napi_derive::napi;

/// Runs flow-gen with `args` (the first is the program name, as in argv) and
/// returns its exit status. Output goes to the process's stdout and stderr.
#[napi]
pub fn flow_gen(args: Vec<String>) -> i32 {
    let status = flow_gen::cli::run(args);
    // Rust's stdout is buffered apart from Node's; flush before returning to
    // JavaScript, which may exit right away.
    let _ = std::io::stdout().flush();
    status
}
