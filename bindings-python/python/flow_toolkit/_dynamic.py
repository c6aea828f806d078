"""Classes made at run time for a listing's declarations, for code that has a
listing but no generated package (tests, tools that handle any listing). They
follow the generated classes' layout: frozen slotted dataclasses, one per record
and per enum constructor; those of a declaration a Tool's error type names are
raisable exceptions, as flow-gen makes them."""

from __future__ import annotations

import dataclasses
import json
import keyword
import re
from typing import Any

from flow_toolkit._native import Codec
from flow_toolkit._raisable import raisable

# A field of an exception class spelled like one of BaseException's
# attributes would hide it (flow-gen's rule too).
_EXCEPTION_NAMES = frozenset({"args", "with_traceback", "add_note"})


def _attr(name: str, taken: set[str], error: bool = False) -> str:
    """The attribute of a field, as flow-gen names it: an identifier, never a
    keyword, never ``__x`` (name-mangled, or one of Python's own such as
    ``__slots__``, which a slotted dataclass cannot hold as a field), never an
    attribute of ``BaseException`` in an exception class (``error``)."""
    base = re.sub(r"\W", "_", name) or "_"
    if base[0].isdigit():
        base = "_" + base
    if base.startswith("__"):
        base = "f" + base
    if keyword.iskeyword(base) or keyword.issoftkeyword(base) or (error and base in _EXCEPTION_NAMES):
        base += "_"
    attr, n = base, 2
    while attr in taken:
        attr, n = f"{base}_{n}", n + 1
    taken.add(attr)
    return attr


def _class(name: str, attrs: list[str], index: int | None, error: bool) -> type:
    namespace: dict[str, Any] = {} if index is None else {"_flow_index": index}
    bases = (Exception,) if error else ()
    made = dataclasses.make_dataclass(
        name, attrs, bases=bases, frozen=True, slots=True, namespace=namespace
    )
    return raisable(made) if error else made


def error_declarations(listing: dict[str, Any]) -> set[str]:
    """The local ids of the declarations a Tool's error type names, itself or
    as ``Option<...>`` (flow-gen's rule): their classes are raisable."""
    ids: set[str] = set()
    for tool in listing["tools"]:
        err = tool["err"]
        if isinstance(err, dict) and "Option" in err:
            err = err["Option"]
        if isinstance(err, dict) and "Named" in err:
            ids.add(err["Named"]["declaration"])
    return ids


def classes_for(listing: str | bytes) -> dict[str, Any]:
    """A ``classes`` mapping for :class:`Codec` with a made class for every
    record and enum constructor of ``listing``."""
    parsed = json.loads(listing)
    errors = error_declarations(parsed)
    classes: dict[str, Any] = {}
    for local_id, template in parsed["declarations"].items():
        error = local_id in errors
        if template["kind"] == "record":
            # _flow_index is a constructor class's own; no field takes it.
            taken: set[str] = {"_flow_index"}
            attrs = [_attr(f["name"], taken, error) for f in template["fields"]]
            classes[template["identity"]] = _class(template["name"], attrs, None, error)
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
                    attrs = [_attr(f["name"], taken, error) for f in payload["named"]]
                ctors.append(_class(f"{template['name']}_{c['name']}", attrs, index, error))
            classes[template["identity"]] = tuple(ctors)
    return classes


def codec_for(listing: str | bytes) -> Codec:
    """A :class:`Codec` for any listing, with classes made for its declarations."""
    return Codec(listing, classes_for(listing))
