"""What every JSON loader shares: finding the tools in a payload, their names, and the set's own rules."""

from __future__ import annotations

import json

from toolform.errors import LoaderError
from toolform.ir import JsonValue, ToolIR, ToolSet
from toolform.loaders.notes import Notes

NO_TOOLS = "no tools were given; send at least one tool"

#: How deep a JSON value inside a tool (a default, an example, an annotation) may nest. Deeper
#: values are refused rather than left to overflow the stack of whatever reads them next.
MAX_VALUE_DEPTH = 64


def parse_json_text(payload: JsonValue) -> JsonValue:
    """A payload given as JSON text, parsed (numbers with a fraction or exponent as Decimal, every digit kept)."""
    if not isinstance(payload, str):
        return payload
    try:
        parsed: JsonValue = json.loads(payload, parse_float=_decimal, parse_constant=refuse_constant)
    except json.JSONDecodeError as err:
        raise LoaderError(f"the tools are text that is not JSON: {err.msg}", line=err.lineno) from None
    except RecursionError:
        raise LoaderError("the tools' JSON text nests too deep to read") from None
    except ValueError as err:
        raise LoaderError(f"the tools are text that is not JSON: {err}") from None
    return parsed


def _decimal(text: str) -> JsonValue:
    from decimal import Decimal

    return Decimal(text)


def refuse_constant(name: str) -> JsonValue:
    """The JSON reader's hook for ``NaN`` and ``Infinity``, which Python reads and JSON does not have."""
    raise ValueError(f"{name} is not a JSON number; write a finite number, or the value as a string")


def tool_items(payload: JsonValue) -> list[JsonValue]:
    """The tool entries of a payload.

    A list, ``{"tools": [...]}``, a JSON-RPC ``{"result": {"tools": [...]}}``, or one tool.
    """
    payload = parse_json_text(payload)
    if isinstance(payload, list):
        return payload
    if isinstance(payload, dict):
        tools = payload.get("tools")
        if isinstance(tools, list):
            return tools
        result = payload.get("result")
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            tools = result["tools"]
            assert isinstance(tools, list)
            return tools
        return [payload]
    raise LoaderError("the tools must be a JSON array, a JSON object, or JSON text of one")


def entry(item: JsonValue, index: int) -> dict[str, JsonValue]:
    """Tool entry ``index`` as an object, or a LoaderError naming it."""
    if not isinstance(item, dict):
        raise LoaderError(f"tool {index} is not a JSON object")
    return item


def tool_name(item: dict[str, JsonValue], index: int, key: str = "name") -> str:
    """A tool's name: non-empty text, or a LoaderError naming the tool by its place."""
    name = item.get(key)
    if not isinstance(name, str) or not name:
        raise LoaderError(f"tool {index} has no name (a non-empty string under {key!r})")
    return name


def text_member(item: dict[str, JsonValue], key: str, tool: str, notes: Notes) -> str:
    """An optional text member (a description): absent is empty, anything else but text is dropped with a warning."""
    value = item.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        notes.add(tool, "$", f"{key} is not text; dropped")
        return ""
    return value


def note_unread(item: dict[str, JsonValue], known: frozenset[str], tool: str, notes: Notes, shape: str) -> None:
    """Warn about each member of a tool entry that this shape's loader does not read."""
    if item.keys() <= known:
        return
    for key in item:
        if key not in known:
            notes.add(tool, "$", f"the {shape} tool member {key!r} is not read; dropped")


def tool_set(tools: list[ToolIR]) -> ToolSet:
    """The tools as a set: at least one, each name once."""
    if not tools:
        raise LoaderError(NO_TOOLS)
    seen: set[str] = set()
    for tool in tools:
        if tool.name in seen:
            raise LoaderError(f"duplicate tool name '{tool.name}'; each tool needs its own name")
        seen.add(tool.name)
    return ToolSet(tools)


def value_depth(value: object) -> int:
    """How many arrays and objects ``value`` nests (0 for a scalar), counted without recursion."""
    if not isinstance(value, (dict, list)):  # noqa: UP038 - a tuple is checked faster than a union
        return 0  # most values read are absent or scalars
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth) for child in children)
    return deepest


def check_values(toolset: ToolSet) -> None:
    """Refuse a tool whose defaults, examples, enum values or annotations nest deeper than MAX_VALUE_DEPTH.

    The values are looked at in a fixed order (the tool's examples and annotations, each parameter's
    default and example, then every type depth first: its enum values, each field's default), so the
    error names the first one. Nearly every value is absent, a scalar, or a container of scalars; only
    a container that holds another container is walked.
    """
    # Each call is guarded by a test of its value (most are None or empty), to save the call.
    for tool in toolset:
        if tool.examples:
            _refuse_deep(tool.name, "examples", "", tool.examples)
        if tool.annotations:
            _refuse_deep(tool.name, "annotations", "", tool.annotations)
        # The parameters' types that may hold a value (a scalar's holds none), for the walk below.
        holding = []
        for p in tool.params:
            if p.default is not None:
                _refuse_deep(tool.name, "$.{} default", p.name, p.default)
            if p.example is not None:
                _refuse_deep(tool.name, "$.{} example", p.name, p.example)
            t = p.type
            if t.enum_values or t.fields or t.union_of or t.item:
                holding.append(t)
        # Every type of those, in the order ToolIR.types() gives them, without building the list.
        stack = holding[::-1]
        while stack:
            t = stack.pop()
            if t.enum_values:
                _refuse_deep(tool.name, "an enum's values", "", t.enum_values)
            fields = t.fields
            for f in fields:
                if f.default is not None:
                    _refuse_deep(tool.name, "field {!r} default", f.name, f.default)
            if t.union_of:
                stack.extend(reversed(t.union_of))
            if t.item is not None:
                stack.append(t.item)
            if fields:
                stack.extend(f.type for f in reversed(fields))


def _refuse_deep(tool: str, where: str, name: str, value: object) -> None:
    """LoaderError when ``value`` nests deeper than MAX_VALUE_DEPTH; ``where`` and ``name`` say what it is."""
    if not isinstance(value, (dict, list)):  # noqa: UP038 - a tuple is checked faster than a union
        return
    children = value.values() if isinstance(value, dict) else value
    for child in children:
        if isinstance(child, (dict, list)):  # noqa: UP038
            break
    else:
        return  # a container of scalars nests one level
    if value_depth(value) > MAX_VALUE_DEPTH:
        raise LoaderError(
            f"tool '{tool}': {where.format(name)} nests deeper than {MAX_VALUE_DEPTH} levels; "
            "a tool's values must be flatter than that"
        )
