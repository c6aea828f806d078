// The {{ project }} Tools. flow-gen wrote this file once and never rewrites
// it: it is yours. Each function's type is in interface.ts, which flow-gen
// keeps up to date; `tsc` says when they drift apart.

{{ toolkit_imports }}{{ type_imports }}
{%- for tool in tools %}
{{ tool.doc }}export async function {{ tool.function }}(
{%- for param in tool.params %}
  {{ param.name }}: {{ param.ty }},
{%- endfor %}
  context: {{ tool.context }},
): Promise<{{ tool.returns }}> {
  throw new Error("{{ tool.function }} is not implemented yet")
}
{% endfor -%}
