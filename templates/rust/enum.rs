
{{ enumeration.common.doc }}#[derive({{ enumeration.common.derives }})]
pub enum {{ enumeration.common.ident }}{{ enumeration.common.generics }} {
{%- for variant in enumeration.variants %}
{{ variant.doc }}    {{ variant.declaration() }}
{%- endfor %}
}
