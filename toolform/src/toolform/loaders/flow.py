"""Flow listings (the JSON that ``flow tools`` prints) read as tools, through flow-toolkit.

flow-toolkit checks the listing (a refusal names its path and rule) and gives
each Tool's identity, fingerprint and describe-form signature, whose
parameters are JSON Schemas with their own ``$defs``. Each tool keeps its
identity and fingerprint under ``annotations["flow"]``; its model-facing name
is the identity's NAME (the part after the last ``.``), its description the
Tool's doc, its return type the success schema's.

The arguments a model sends are read as Flow's MCP adapter reads them (one
object, a member per parameter), so the parameters take the adapter's two
readings: an ``Option`` parameter may be left out and its schema is its
payload's, and a generic parameter is any JSON value.
"""

from __future__ import annotations

import json
from typing import Any

from toolform.errors import LoaderError
from toolform.ir import FieldIR, JsonValue, Kind, ToolIR, ToolSet, TypeIR
from toolform.loaders.common import tool_set
from toolform.loaders.jsonschema import SchemaReader
from toolform.loaders.notes import Notes, child

KIND = "flow"
ORIGIN = "flow"


def load(payload: JsonValue, notes: Notes) -> ToolSet:
    """Read a ``flow tools`` listing (its JSON text, or the parsed object)."""
    import flow_toolkit

    text = payload if isinstance(payload, str) else json.dumps(payload)
    try:
        flow_toolkit.check_listing(text)
        prints = flow_toolkit.fingerprints(text)
    except flow_toolkit.DecodeError as err:
        raise LoaderError(f"the Flow listing is refused at {err.path}: {err.reason} [{err.rule}]") from None
    docs = _docs(text)
    tools = []
    for identity, fingerprint in prints:
        signature = json.loads(flow_toolkit.tool_signature(text, identity))
        tools.append(_tool(identity, fingerprint, docs.get(identity, ""), signature, notes))
    return tool_set(tools)


def identity_name(identity: str) -> str:
    """The NAME of an identity (``...weather.flow.get_forecast`` -> ``get_forecast``), as flow-core takes it."""
    return identity.rsplit(".", 1)[-1]


def _docs(text: str) -> dict[str, str]:
    listing = json.loads(text)
    return {t["tool"]: t.get("doc") or "" for t in listing.get("tools", []) if isinstance(t, dict)}


def _tool(identity: str, fingerprint: str, doc: str, signature: dict[str, Any], notes: Notes) -> ToolIR:
    name = identity_name(identity)
    params = []
    for param_name, schema in signature.get("params", []):
        at = child("$", param_name)
        payload = _option_payload(schema)
        if isinstance(schema, dict) and "$param" in schema:
            type_ = TypeIR(Kind.ANY)
            notes.add(name, at, f"the generic parameter {schema['$param']} is shown as any JSON value")
        else:
            root = schema if payload is None else {**payload, "$defs": schema.get("$defs", {})}
            type_ = SchemaReader(name, root, notes).type_of(root, path=at)
        params.append(FieldIR(param_name, type_, required=payload is None, description=_description(schema)))
    ok = signature.get("ok")
    returns = None
    if isinstance(ok, dict) and "$param" not in ok:
        returns = SchemaReader(name, ok, notes).type_of(ok, path="$ (returns)")
    return ToolIR(
        name=name,
        description=doc,
        params=params,
        domain="user",
        category="user",
        origin=ORIGIN,
        returns=returns,
        annotations={"flow": {"identity": identity, "fingerprint": fingerprint}},
    )


def _option_payload(schema: Any) -> dict[str, Any] | None:
    """The payload schema of an ``Option`` parameter (``oneOf`` of ``"None"`` and ``{"Some": X}``), else None."""
    if not isinstance(schema, dict):
        return None
    members = schema.get("oneOf")
    if not (isinstance(members, list) and len(members) == 2 and members[0] == {"const": "None"}):
        return None
    some = members[1]
    properties = some.get("properties") if isinstance(some, dict) else None
    if not (isinstance(properties, dict) and list(properties) == ["Some"] and some.get("required") == ["Some"]):
        return None
    inner = properties["Some"]
    return inner if isinstance(inner, dict) else None


def _description(schema: Any) -> str:
    text = schema.get("description") if isinstance(schema, dict) else None
    return text if isinstance(text, str) else ""
