//! The {{ project }} Tool process: serves the Tools on stdin and stdout.
//! flow.toml runs it as:
//!
//! ```text
//! {{ command }}
//! ```
//!
//! flow-gen wrote this file once; it is yours to edit (to set up logging or a
//! runtime, say) and is never rewritten.

mod implementation;

fn main() -> std::io::Result<()> {
    {{ lib_name }}::serve(implementation::{{ implementation }})
}
