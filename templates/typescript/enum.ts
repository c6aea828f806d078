{{ doc }}export type {{ name }}{{ params }} =
{%- for v in variants %}
{{ v.doc }}
{%- if v.value.is_empty() %}  | { readonly case: {{ v.case }} }
{%- else if v.multiline %}  | {
      readonly case: {{ v.case }}
      readonly value: {{ v.value }}
    }
{%- else %}  | { readonly case: {{ v.case }}; readonly value: {{ v.value }} }
{%- endif %}
{%- endfor %}
