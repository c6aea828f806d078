"""Classes made at run time for a listing's declarations, for code that has a
listing but no generated package (tests, tools that handle any listing). They
follow the generated classes' layout: frozen slotted dataclasses, one per record
and per enum constructor."""

from __future__ import annotations

import dataclasses
import json
import keyword
import re
from typing import Any

from flow_toolkit._native import Codec


def _attr(name: str, taken: set[str]) -> str:
    """The attribute of a field, as flow-gen names it: an identifier, never a
    keyword, never ``__x`` (name-mangled, or one of Python's own such as
    ``__slots__``, which a slotted dataclass cannot hold as a field)."""
    base = re.sub(r"\W", "_", name) or "_"
    if base[0].isdigit():
        base = "_" + base
    if base.startswith("__"):
        base = "f" + base
    if keyword.iskeyword(base) or keyword.issoftkeyword(base):
        base += "_"
    attr, n = base, 2
    while attr in taken:
        attr, n = f"{base}_{n}", n + 1
    taken.add(attr)
    return attr


def _class(name: str, attrs: list[str], index: int | None) -> type:
    namespace: dict[str, Any] = {} if index is None else {"_flow_index": index}
    return dataclasses.make_dataclass(
        name, attrs, frozen=True, slots=True, namespace=namespace
    )


def classes_for(listing: str | bytes) -> dict[str, Any]:
    """A ``classes`` mapping for :class:`Codec` with a made class for every
    record and enum constructor of ``listing``."""
    declarations = json.loads(listing)["declarations"]
    classes: dict[str, Any] = {}
    for template in declarations.values():
        if template["kind"] == "record":
            # _flow_index is a constructor class's own; no field takes it.
            taken: set[str] = {"_flow_index"}
            attrs = [_attr(f["name"], taken) for f in template["fields"]]
            classes[template["identity"]] = _class(template["name"], attrs, None)
        elif template["kind"] == "enum":
            ctors = []
            for index, c in enumerate(template["constructors"]):
                payload = c["payload"]
                if payload is None:
                    attrs = []
                elif "positional" in payload:
                    n = len(payload["positional"])
                    attrs = ["value"] if n == 1 else [f"_{i}" for i in range(n)]
                else:
                    taken = {"_flow_index"}
                    attrs = [_attr(f["name"], taken) for f in payload["named"]]
                ctors.append(_class(f"{template['name']}_{c['name']}", attrs, index))
            classes[template["identity"]] = tuple(ctors)
    return classes


def codec_for(listing: str | bytes) -> Codec:
    """A :class:`Codec` for any listing, with classes made for its declarations."""
    return Codec(listing, classes_for(listing))
