
{{ enumeration.common.doc }}#[derive({{ enumeration.common.derives }})]
pub enum {{ enumeration.common.ident }}{{ enumeration.common.generics }} {
{%- for variant in enumeration.variants %}
{{ variant.doc }}    {{ variant.declaration() }}
{%- endfor %}
{%- if let Some(marker) = enumeration.marker %}
    /// Marks the type parameters no value holds; it has no values.
    #[doc(hidden)]
    {{ marker }}(std::convert::Infallible, {{ enumeration.common.marker_type.as_deref().unwrap_or_default() }}),
{%- endif %}
}
{{- enumeration.common.compare_impls }}
