{{ header }}
"""The Flow types of {{ project }}, as Python classes.

Records are frozen, slotted, keyword-only dataclasses; an enum is one frozen
dataclass per constructor and a union alias of them, so ``match`` takes an
enum's values apart by constructor class. See ``flow_toolkit`` for the mapping
of every Flow type.
"""

from __future__ import annotations

import dataclasses
import decimal
import typing

import flow_toolkit
{%- for type_var in type_vars %}

{{ type_var }}
{%- endfor %}
{%- for block in blocks %}


{{ block }}
{%- endfor %}
