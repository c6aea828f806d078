{{ header }}
"""{{ project }}: Flow Tools generated from a tools listing.

- ``models``: the Flow types as Python classes.
- ``tools``: :class:`{{ class_name }}`, one method per Tool.
- ``implementation`` (yours, written once): the methods' bodies.
- ``metadata``: identities, fingerprints, signatures and the codec.

Serve with ``{{ command }}``.
"""

{%- if !exports.is_empty() %}
from .models import (
{%- for name in exports %}
    {{ name }},
{%- endfor %}
)
{%- endif %}
from .tools import {{ class_name }}

__all__ = [
{%- for name in all %}
    "{{ name }}",
{%- endfor %}
]
