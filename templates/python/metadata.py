{{ header }}
"""What this package serves, fixed at generation time: each Tool's identity,
fingerprint and describe-form signature, and the tools listing they were
generated from, so ``describe`` answers from the declarations and calls are
decoded at their declared types.
"""

from __future__ import annotations

import flow_toolkit
{%- if !classes.is_empty() %}

from . import models
{%- endif %}

LISTING = """{{ listing }}"""
"""The tools listing this package was generated from."""

TOOLS: tuple[tuple[str, str, str], ...] = (
{%- for tool in tools %}
    (
        {{ tool.identity }},
        "{{ tool.fingerprint }}",
        """{{ tool.signature }}""",
    ),
{%- endfor %}
)
"""Each served Tool: identity, fingerprint, describe-form signature (JSON)."""

CODEC = flow_toolkit.Codec(
    LISTING,
    {
{%- for class in classes %}
        {{ class.identity }}: {{ class.value }},
{%- endfor %}
    },
)
"""Decoding and canonical encoding at this listing's types:
``CODEC.decode(models.Forecast, text)``, ``CODEC.encode(models.Forecast, value)``,
or a type term: ``CODEC.type_of('{"List": "Int"}')``."""
