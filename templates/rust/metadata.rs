{{ header }}
//! What the package was generated from: the tools listing, and the
//! `describe` result (each Tool's identity, fingerprint and signature), which
//! the server answers once it has checked it against the listing.

{% include "rust/doc_lints.rs" %}
/// The tools listing the package was generated from (`flow tools` output).
pub const LISTING: &str = include_str!("flow.tools.json");

/// The `describe` result: each Tool's identity, fingerprint and signature.
pub const DESCRIBE: &str = include_str!("describe.json");

/// A served Tool: its identity, and the fingerprint implementations of it
/// are bound by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool {
    pub identity: &'static str,
    pub fingerprint: &'static str,
}
{%- for method in methods %}

{{ method.top_doc }}pub const {{ method.constant }}: Tool = Tool {
    identity: {{ method.identity }},
    fingerprint: {{ method.fingerprint }},
};
{%- endfor %}

/// Every served Tool, in the listing's order.
pub const TOOLS: [Tool; {{ methods.len() }}] = [{{ constants }}];
