"""Every registered format id and the renderer that writes it, gathered from the families."""

from __future__ import annotations

from toolform.render.families import (
    Renderer,
    code,
    config,
    grammar,
    idl,
    json_family,
    markup,
    novel,
    prose,
    tabular,
    vendor,
    yaml_family,
)

FAMILIES = (code, config, grammar, idl, json_family, markup, novel, prose, tabular, vendor, yaml_family)

RENDERERS: dict[str, Renderer] = {}
for _family in FAMILIES:
    RENDERERS.update(_family.RENDERERS)
