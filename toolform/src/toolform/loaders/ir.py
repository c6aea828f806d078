"""The IR's own dict form: ``{"tools": [...]}`` (an IR document), a list of tools, or one tool.

Absent parts take the IR's defaults: a parameter is a required string, a tool's
domain and category are ``generic`` and its origin ``synthetic``. A kind the IR
does not have is an error; members the IR does not have are dropped with a
warning (the reference drops them silently).
"""

from __future__ import annotations

from toolform.errors import LoaderError
from toolform.ir import CONSTRAINT_KEYS, FieldIR, JsonValue, Kind, ToolIR, ToolSet, TypeIR
from toolform.loaders.common import parse_json_text, tool_items, tool_set
from toolform.loaders.notes import Notes, child

KIND = "ir"
TOOL_MEMBERS = frozenset(
    {"name", "description", "params", "domain", "category", "origin", "returns", "returns_description"}
    | {"examples", "tags", "annotations"}
)
FIELD_MEMBERS = frozenset({"name", "type", "required", "description", "default", "example"})
TYPE_MEMBERS = frozenset({"kind", "constraints", "fields", "item", "union_of", "enum_values", "base"})
#: An IR document's own members, which the IR does not keep (they are fixed on the way out).
DOCUMENT_MEMBERS: dict[str, JsonValue] = {"universe_id": "universe", "seed": None, "meta": {}}


#: How deep an IR type may nest (the JSON Schema loaders stop at 12; this bounds a hand-written IR).
MAX_TYPE_DEPTH = 64


class _Invalid(Exception):
    """A part of a tool that is not IR; the loader names the tool."""


def load(payload: JsonValue, notes: Notes) -> ToolSet:
    """Read IR dicts; raise LoaderError for anything that is not one."""
    payload = parse_json_text(payload)
    if isinstance(payload, dict) and isinstance(payload.get("tools"), list):
        for key, fixed in DOCUMENT_MEMBERS.items():
            if key in payload and payload[key] != fixed:
                notes.add("*", "$", f"the IR document's {key} is not kept (it is written as {fixed!r})")
    tools = []
    for index, item in enumerate(tool_items(payload)):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item.get("name"):
            raise LoaderError(f"tool {index} is not a ToolIR dict (it needs a name)")
        try:
            tools.append(_tool(item, notes))
        except _Invalid as err:
            raise LoaderError(f"tool {index} ('{item['name']}') is not a valid ToolIR dict: {err}") from None
    return tool_set(tools)


def _tool(item: dict[str, JsonValue], notes: Notes) -> ToolIR:
    name = item["name"]
    assert isinstance(name, str)
    _unread(item, TOOL_MEMBERS, name, "$", notes)
    params = item.get("params") or []
    if not isinstance(params, list):
        raise _Invalid("params must be a list")
    returns = item.get("returns")
    annotations = item.get("annotations") or {}
    if not isinstance(annotations, dict):
        raise _Invalid("annotations must be an object")
    examples = item.get("examples") or []
    tags = item.get("tags") or []
    if not isinstance(examples, list) or not isinstance(tags, list):
        raise _Invalid("examples and tags must be lists")
    return ToolIR(
        name=name,
        description=_text(item, "description", ""),
        params=[_field(p, name, child("$", _name_of(p)), notes) for p in params],
        domain=_text(item, "domain", "generic"),
        category=_text(item, "category", "generic"),
        origin=_text(item, "origin", "synthetic"),
        returns=None if returns is None else _type(returns, name, "$ (returns)", notes),
        returns_description=_text(item, "returns_description", ""),
        examples=list(examples),
        tags=[str(t) for t in tags],
        annotations=dict(annotations),
    )


def _name_of(item: JsonValue) -> str:
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        name = item["name"]
        assert isinstance(name, str)
        return name
    raise _Invalid("every parameter and field needs a name")


def _field(item: JsonValue, tool: str, path: str, notes: Notes, depth: int = 0) -> FieldIR:
    if not isinstance(item, dict):
        raise _Invalid(f"{path} is not an object")
    _unread(item, FIELD_MEMBERS, tool, path, notes)
    type_ = item.get("type")
    required = item.get("required", True)
    if not isinstance(required, bool):
        raise _Invalid(f"{path}: required must be true or false")
    return FieldIR(
        name=_name_of(item),
        type=TypeIR(Kind.STRING) if type_ is None else _type(type_, tool, path, notes, depth),
        required=required,
        description=_text(item, "description", ""),
        default=item.get("default"),
        example=item.get("example"),
    )


def _type(item: JsonValue, tool: str, path: str, notes: Notes, depth: int = 0) -> TypeIR:
    if depth > MAX_TYPE_DEPTH:
        raise _Invalid(f"{path}: types nest deeper than {MAX_TYPE_DEPTH} levels")
    if not isinstance(item, dict):
        raise _Invalid(f"{path}: a type must be an object with a kind")
    _unread(item, TYPE_MEMBERS, tool, path, notes)
    raw_kind = item.get("kind", "string")
    try:
        kind = Kind(str(raw_kind))
    except ValueError:
        raise _Invalid(f"{path}: {raw_kind!r} is not a kind; use one of {', '.join(k.value for k in Kind)}") from None
    constraints = item.get("constraints") or {}
    if not isinstance(constraints, dict):
        raise _Invalid(f"{path}: constraints must be an object")
    for key in constraints:
        if key not in CONSTRAINT_KEYS:
            notes.add(tool, path, f"the constraint {key!r} is not one the IR carries; dropped")
    raw_base = item.get("base")
    try:
        base = None if raw_base is None else Kind(str(raw_base))
    except ValueError:
        raise _Invalid(f"{path}: base {raw_base!r} is not a kind") from None
    fields = item.get("fields") or []
    union_of = item.get("union_of") or []
    enum_values = item.get("enum_values") or []
    if not isinstance(fields, list) or not isinstance(union_of, list) or not isinstance(enum_values, list):
        raise _Invalid(f"{path}: fields, union_of and enum_values must be lists")
    raw_item = item.get("item")
    return TypeIR(
        kind=kind,
        constraints={k: v for k, v in constraints.items() if k in CONSTRAINT_KEYS},
        fields=[_field(f, tool, child(path, _name_of(f)), notes, depth + 1) for f in fields],
        item=None if raw_item is None else _type(raw_item, tool, f"{path}[*]", notes, depth + 1),
        union_of=[_type(m, tool, f"{path}|{i}", notes, depth + 1) for i, m in enumerate(union_of)],
        enum_values=list(enum_values),
        base=base,
    )


def _text(item: dict[str, JsonValue], key: str, default: str) -> str:
    value = item.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise _Invalid(f"{key} must be text")
    return value


def _unread(item: dict[str, JsonValue], known: frozenset[str], tool: str, path: str, notes: Notes) -> None:
    for key in item:
        if key not in known:
            notes.add(tool, path, f"{key!r} is not a member of the IR; dropped")
