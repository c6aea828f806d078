{{ header }}
"""What this package serves, fixed at generation time in the JSON files beside
this module: the tools listing it was generated from (``flow.tools.json``) and
the ``describe`` result, each Tool's identity, fingerprint and describe-form
signature (``describe.json``), so ``describe`` answers from the declarations
and calls are decoded at their declared types.
"""

from __future__ import annotations

import importlib.resources
import json

import flow_toolkit
{%- if !classes.is_empty() %}

from . import models
{%- endif %}

_FILES = importlib.resources.files(__package__)

LISTING = (_FILES / "flow.tools.json").read_text(encoding="utf-8")
"""The tools listing this package was generated from (``flow.tools.json``)."""

DESCRIBE = (_FILES / "describe.json").read_text(encoding="utf-8")
"""The ``describe`` result (``describe.json``): each Tool's identity, fingerprint and signature."""

TOOLS: tuple[tuple[str, str, str], ...] = tuple(
    (entry["tool"], entry["fingerprint"], json.dumps(entry["signature"], ensure_ascii=False))
    for entry in json.loads(DESCRIBE)["tools"]
)
"""Each served Tool, in the listing's order: identity, fingerprint, describe-form signature (JSON)."""

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
