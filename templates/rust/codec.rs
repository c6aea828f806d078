{{ header }}
//! Conversions between the types of [`crate::types`] and flow-core values:
//! fields and constructors by their Flow names, in declaration order. A
//! call's args decode from their JSON straight into these types
//! (`FromJson`, with the server core's decoding rules), or from the values
//! the core or the MCP front decoded (`FromValue`). A result writes its
//! canonical text itself (`CanonicalText`: the bytes of `into_value` and the
//! core's writer, without building the value), or goes through `IntoValue`
//! and the core's check, so these impls are all a type needs to cross.
//! (`into_value` needs no import: inside an impl of `IntoValue`, its methods
//! are in scope.)

// A Unit field or part converts like any other.
#![allow(clippy::unit_arg)]
{%- if converts %}

use flow_runtime::codec as flow;

use crate::types::*;
{%- endif %}
{%- for item in items %}
{%- if let Some(record) = item.record %}
{% include "rust/record_codec.rs" %}
{% include "rust/record_from_json.rs" %}

{% include "rust/record_writer.rs" %}
{%- endif %}
{%- if let Some(enumeration) = item.enumeration %}
{% include "rust/enum_codec.rs" %}
{% include "rust/enum_from_json.rs" %}

{% include "rust/enum_writer.rs" %}
{%- endif %}
{%- endfor %}
