
{{ record.common.doc }}#[derive({{ record.common.derives }})]
{%- if record.fields.is_empty() && record.marker.is_none() %}
pub struct {{ record.common.ident }}{{ record.common.generics }} {}
{%- else %}
pub struct {{ record.common.ident }}{{ record.common.generics }} {
{%- for field in record.fields %}
{{ field.doc }}    pub {{ field.ident }}: {{ field.ty }},
{%- endfor %}
{%- if let Some(marker) = record.marker %}
    /// Marks the type parameters no value holds.
    pub {{ marker }}: {{ record.common.marker_type.as_deref().unwrap_or_default() }},
{%- endif %}
}
{%- endif %}
{{- record.common.compare_impls }}
