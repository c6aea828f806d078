{{ header }}
//
// The data types of the {{ project }} Tools, as @flow/toolkit decodes and
// encodes them: records are readonly interfaces with their Flow field names,
// enums are unions discriminated by `case` (the payload, if any, in `value`).
{% if !imports.is_empty() %}
{{ imports }}
{%- endif %}
{{ declarations }}
