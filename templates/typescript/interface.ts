{{ header }}
//
// The {{ project }} Tools as TypeScript: one handler type per Tool, and the
// `Implementation` that src/implementation.ts must satisfy (src/main.ts
// checks it). A handler resolves to the Tool's result (the call is answered
// Ok). Throwing an object of the Tool's declared error type, or `Failed` with
// any value of it, answers Failed; TypeScript does not type `throw`, so write
// `throw error satisfies E` or `throw new Failed<E>(error)` to have it checked.
// Throwing anything else (an `Error`, a value of another type) answers
// Unknown and is logged to stderr. `context.signal` is aborted when the host
// cancels the call.

{{ toolkit_imports }}{{ type_imports }}
{%- for tool in tools %}
{{ tool.doc }}export type {{ tool.handler }} = (
{%- for param in tool.params %}
  {{ param.name }}: {{ param.ty }},
{%- endfor %}
  context: {{ tool.context }},
) => Promise<{{ tool.returns }}>
{% endfor %}
/** Every Tool of {{ project }}, by the name of its function. */
export interface Implementation {
{%- for tool in tools %}
  readonly {{ tool.function }}: {{ tool.handler }}
{%- endfor %}
}
