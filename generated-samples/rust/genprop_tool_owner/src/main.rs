//! The p0 Tool process: serves the Tools on stdin and stdout.
//! flow.toml runs it as:
//!
//! ```text
//! cargo run --quiet --release --manifest-path generated-samples/rust/genprop_tool_owner/Cargo.toml
//! ```
//!
//! flow-gen wrote this file once; it is yours to edit (to set up logging or a
//! runtime, say) and is never rewritten.

mod implementation;

fn main() -> std::io::Result<()> {
    p0_tools::serve(implementation::Implementation)
}
