{{ header }}
//! The {{ project }} Tools to implement: one method per Tool.
//!
//! A method gets its call's context ([`Call`](flow_runtime::Call):
//! cancellation, and for a generic Tool the call's types view, success schema
//! and codecs) and the Tool's arguments, and returns the Tool's result: `Ok`
//! replies Ok, `Err` (the declared error) replies Failed, and a panic replies
//! Unknown. Each call runs on a thread of the runtime (the one that read it;
//! another takes over reading when a method runs long) with a small executor
//! ([`block_on`](flow_runtime::block_on)), so a method may also block.
//! A value of a generic Tool's type parameter is its JSON
//! ([`GenericValue`](flow_runtime::codec::GenericValue)); the call's codecs give
//! its typed value, equality and order.

{% include "rust/doc_lints.rs" %}
// The methods take the Tools' parameters and types as they are declared,
// and their names: a Tool called `new` or `into_x` is no constructor or
// conversion, whatever clippy's naming conventions expect of one.
#![allow(
    clippy::too_many_arguments,
    clippy::type_complexity,
    clippy::new_ret_no_self,
    clippy::wrong_self_convention
)]
{%- if !imports.is_empty() %}

{{ imports }}
{%- endif %}

/// The {{ project }} Tools. Implement every method, then serve the
/// implementation with [`serve`](crate::serve).
pub trait {{ trait_name }}: std::marker::Send + std::marker::Sync + 'static {
{%- for method in methods %}
{%- if !loop.first %}
{% endif %}
{{ method.doc }}{{ method.signature }}
{%- endfor %}
}
