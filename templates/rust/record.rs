
{{ record.common.doc }}#[derive({{ record.common.derives }})]
{%- if record.fields.is_empty() %}
pub struct {{ record.common.ident }}{{ record.common.generics }} {}
{%- else %}
pub struct {{ record.common.ident }}{{ record.common.generics }} {
{%- for field in record.fields %}
{{ field.doc }}    pub {{ field.ident }}: {{ field.ty }},
{%- endfor %}
}
{%- endif %}
