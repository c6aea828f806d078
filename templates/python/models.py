{{ header }}
"""The Flow types of {{ project }}, as Python classes.

Records are frozen, slotted, keyword-only dataclasses; an enum is one frozen
dataclass per constructor and a union alias of them, so ``match`` takes an
enum's values apart by constructor class. See ``flow_toolkit`` for the mapping
of every Flow type.

The classes of a type that a Tool declares as its error are exceptions too
(``@flow_toolkit.raisable``), wherever that type is used: a handler raises
one to reply Failed. They keep their dataclass equality, hashing and read-only
fields. The classes of every other type are plain dataclasses, without an
exception's state.
"""

from __future__ import annotations

{{ imports }}
{%- for type_var in type_vars %}

{{ type_var }}
{%- endfor %}
{%- for block in blocks %}


{{ block }}
{%- endfor %}
