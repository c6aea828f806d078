{{ header }}
//! The types of the {{ project }} Tools: one per declaration that values
//! reach, with its doc and its identity.
//!
//! Fields and constructors are the declarations' own, in their order. Where a
//! type has `Ord`, it is Flow's order (`decisions.md` section 3: fields and
//! constructors in declaration order), so a `BTreeSet` or `BTreeMap` of these
//! types iterates in the order its encoding takes. A type that holds a host
//! token has no order, so no `Ord`.

{% include "rust/doc_lints.rs" %}
// Shapes and names are the declarations': a large constructor stays inline,
// a field's type is as nested as its declaration's, and constructor names
// may share a prefix or be acronyms. Written-out comparisons compare a
// Unit field like any other.
#![allow(
    clippy::large_enum_variant,
    clippy::type_complexity,
    clippy::enum_variant_names,
    clippy::upper_case_acronyms,
    clippy::unit_cmp,
    clippy::unit_arg
)]
{%- if !imports.is_empty() %}

{{ imports }}
{%- endif %}
{%- for item in items %}
{%- if let Some(record) = item.record %}
{% include "rust/record.rs" %}
{%- endif %}
{%- if let Some(enumeration) = item.enumeration %}
{% include "rust/enum.rs" %}
{%- endif %}
{%- if let Some(host) = item.host %}
{% include "rust/host.rs" %}
{%- endif %}
{%- endfor %}
