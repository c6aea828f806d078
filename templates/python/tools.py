{{ header }}
"""The Tools of {{ project }}: one method per Tool, to implement in a subclass
of :class:`{{ class_name }}`.

A method may be a plain ``def`` (run on a thread pool) or an ``async def`` (run
on asyncio). Returning replies Ok. Raising a value of the Tool's declared error
type (its generated classes are exceptions), or ``flow_toolkit.Failed(error)``
with one (for any error type, ``str`` or ``list`` too), replies Failed. Any
other exception, a value of another Tool's error type included, replies
Unknown and is logged to stderr with its traceback. ``ctx`` tells whether the
host asked to cancel the call.
"""

from __future__ import annotations

import abc
{{ imports }}


class {{ class_name }}(abc.ABC):
{{ doc }}
{%- for method in methods %}

    @abc.abstractmethod
    def {{ method.name }}(
        self,
{%- for param in method.params %}
        {{ param.name }}: {{ param.annotation }},
{%- endfor %}
        *,
        ctx: flow_toolkit.CallContext,
    ) -> {{ method.returns }}:
{{ method.doc }}
{%- endfor %}
