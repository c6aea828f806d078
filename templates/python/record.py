{%- if raisable -%}
@flow_toolkit.raisable
{% endif -%}
@dataclasses.dataclass({{ options }})
class {{ class_name }}{{ bases }}:
{{ doc }}
{%- if !fields.is_empty() %}
{% endif %}
{%- for field in fields %}
    {{ field.name }}: {{ field.annotation }}{{ field.default }}
{%- if let Some(field_doc) = field.doc %}
{{ field_doc }}
{%- endif %}
{%- endfor %}
{%- if let Some(index) = flow_index %}

    # Flow orders an enum's values by constructor first (FlowSet, FlowMap).
    _flow_index: typing.ClassVar[int] = {{ index }}
{%- endif %}
