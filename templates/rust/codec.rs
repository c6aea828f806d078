{{ header }}
//! Conversions between the types of [`crate::types`] and flow-core values:
//! fields and constructors by their Flow names, in declaration order. The
//! server core decodes args into values at the declared types and checks
//! results before writing their canonical text, so these impls are all a
//! type needs to cross. (`into_value` needs no import: inside an impl of
//! `IntoValue`, its methods are in scope.) Each type also writes its
//! canonical text itself, the bytes of `into_value` and the core's writer,
//! which a nongeneric call's reply takes without building the value.

// A Unit field or part converts like any other.
#![allow(clippy::unit_arg)]
{%- if converts %}

use flow_core::codec as flow;

use crate::types::*;
{%- endif %}
{%- for item in items %}
{%- if let Some(record) = item.record %}
{% include "rust/record_codec.rs" %}

{% include "rust/record_writer.rs" %}
{%- endif %}
{%- if let Some(enumeration) = item.enumeration %}
{% include "rust/enum_codec.rs" %}

{% include "rust/enum_writer.rs" %}
{%- endif %}
{%- endfor %}
