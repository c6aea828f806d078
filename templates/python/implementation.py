"""The implementation of the {{ project }} Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

{{ imports }}


class {{ implementation }}({{ class_name }}):
    """The Tools' bodies."""
{%- for method in methods %}

    def {{ method.name }}(
        self,
{%- for param in method.params %}
        {{ param.name }}: {{ param.annotation }},
{%- endfor %}
        *,
        ctx: flow_toolkit.CallContext,
    ) -> {{ method.returns_plain }}:
        raise NotImplementedError("{{ method.name }}")
{%- endfor %}
