"""Type names shared by several formats: the IR's own words, Python's, TypeScript's, prose."""

from __future__ import annotations

from toolform.ir import FieldIR, TypeIR
from toolform.render.values import json_dumps, plain, py_repr


def kind_word(t: TypeIR) -> str:
    """The IR kind as the markup and tabular formats print it (``enum``, ``union``)."""
    return t.kind


def compact_type(t: TypeIR) -> str:
    """``{a:string,b:enum[x|y]}``, ``string[]``, ``string|integer``: the table formats' type."""
    if t.kind == "object":
        return "{" + ",".join(f"{f.name}:{compact_type(f.type)}" for f in t.fields) + "}"
    if t.kind == "array":
        return (compact_type(t.item) if t.item else "any") + "[]"
    if t.kind == "enum":
        return "enum[" + "|".join(plain(v) for v in t.enum_values) + "]"
    if t.kind == "union":
        return "|".join(compact_type(u) for u in t.union_of)
    return t.kind


def minimal_type(t: TypeIR) -> object:
    """The json_minimal shape of a type: a kind name, an enum's list, an object's fields."""
    if t.kind == "object":
        return {f.name: minimal_type(f.type) for f in t.fields}
    if t.kind == "array":
        return [minimal_type(t.item) if t.item else "any"]
    if t.kind == "enum":
        return list(t.enum_values)
    if t.kind == "union":
        # A union names its members' kinds only.
        return "|".join(u.kind for u in t.union_of)
    return t.kind.value


_PY = {"string": "str", "number": "float", "integer": "int", "boolean": "bool", "null": "None", "any": "Any"}


def quoted(text: str) -> str:
    """``text`` between double quotes as it stands, nothing escaped: the enum values the study measured."""
    return f'"{text}"'


def python_type(t: TypeIR) -> str:
    """A type as a Python annotation."""
    if t.kind == "object":
        return "dict[str, Any]"
    if t.kind == "array":
        return f"list[{python_type(t.item) if t.item else 'Any'}]"
    if t.kind == "enum":
        return "Literal[" + ", ".join(_literal_value(v) for v in t.enum_values) + "]"
    if t.kind == "union":
        return " | ".join(python_type(u) for u in t.union_of)
    return _PY.get(t.kind, "Any")


def _literal_value(value: object) -> str:
    """An enum value inside ``Literal[...]``: a string quoted, a list or an object as JSON (as measured)."""
    if isinstance(value, str):
        return quoted(value)
    return json_dumps(value) if isinstance(value, (list, dict)) else py_repr(value)


def python_value(value: object) -> str:
    """A default as a Python literal with JSON-style strings (``"a"``, ``False``, ``["a", "b"]``)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, (list, dict)):
        # A list or an object is written as JSON with non-ASCII escaped (``true``, ``"caf\\u00e9"``), as measured.
        return json_dumps(value)
    return py_repr(value)


def python_return(tool_returns: TypeIR | None) -> str:
    """The return annotation: the returned type, ``Any`` when unknown."""
    return python_type(tool_returns) if tool_returns is not None else "Any"


_TS = {
    "string": "string",
    "number": "number",
    "integer": "number",
    "boolean": "boolean",
    "null": "null",
    "any": "unknown",
}


def ts_inline(t: TypeIR) -> str:
    """A type as inline TypeScript: objects as ``{ a: string; b?: number }``."""
    if t.kind == "object":
        if not t.fields:
            return "Record<string, unknown>"
        members = "; ".join(f"{f.name}{'' if f.required else '?'}: {ts_inline(f.type)}" for f in t.fields)
        return "{ " + members + " }"
    if t.kind == "array":
        inner = ts_inline(t.item) if t.item else "unknown"
        # Not when the item's text already ends in ``]`` (``[1] | [2][]``, ``string | string[][]``), as measured.
        wrapped = t.item is not None and t.item.kind in ("union", "enum", "object") and not inner.endswith("]")
        return f"({inner})[]" if wrapped else f"{inner}[]"
    if t.kind == "enum":
        return " | ".join(quoted(v) if isinstance(v, str) else json_dumps(v) for v in t.enum_values)
    if t.kind == "union":
        return " | ".join(ts_inline(u) for u in t.union_of)
    return _TS.get(t.kind, "unknown")


def ts_value(value: object) -> str:
    """A default as a TypeScript literal; a string between quotes as it stands, anything else as JSON with
    non-ASCII escaped, as measured."""
    if isinstance(value, str):
        return quoted(value)
    return json_dumps(value)


_NL = {
    "string": "a piece of text",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "any": "any value",
    "null": "nothing",
}


def nl_constraint(t: TypeIR) -> str:
    """A type's bounds in words (`` at least 0``, `` between 1 and 600``), with a leading space."""
    c = t.constraints
    if t.kind in ("number", "integer"):
        low, high = c.get("minimum"), c.get("maximum")
        if low is not None and high is not None:
            return f" between {plain(low)} and {plain(high)}"
        if low is not None:
            return f" at least {plain(low)}"
        if high is not None:
            return f" at most {plain(high)}"
        return ""
    text = ""
    if c.get("max_length") is not None:
        text += f" no longer than {plain(c['max_length'])} characters"
    if c.get("format") is not None:
        text += f" in {plain(c['format'])} format"
    return text


def nl_type(t: TypeIR, bounds: bool = True) -> str:
    """A type in words, for the prose formats."""
    if t.kind == "object":
        if not t.fields:
            return "a group of values"
        inner = ", ".join(f"{f.name} ({nl_type(f.type, bounds=False)})" for f in t.fields)
        return f"a group of values containing {inner}"
    if t.kind == "array":
        return f"a list of {nl_type(t.item, bounds=False) if t.item else 'values'}s"
    if t.kind == "union":
        return " or ".join(nl_type(u, bounds=False) for u in t.union_of)
    if t.kind == "enum":
        words = "one of " + ", ".join(quoted(plain(v)) for v in t.enum_values)
        return words + (nl_constraint(t) if bounds else "")
    return _NL.get(t.kind, "any value") + (nl_constraint(t) if bounds else "")


def walk_fields(params: list[FieldIR], prefix: str = "") -> list[tuple[str, FieldIR]]:
    """Every parameter and nested field with its dotted path (``items[].sku`` inside arrays)."""
    found: list[tuple[str, FieldIR]] = []
    for p in params:
        path = f"{prefix}{p.name}"
        found.append((path, p))
        found += _walk_type(p.type, path)
    return found


def _walk_type(t: TypeIR, path: str) -> list[tuple[str, FieldIR]]:
    if t.kind == "object":
        return walk_fields(t.fields, path + ".")
    if t.kind == "array" and t.item is not None:
        return _walk_type(t.item, path + "[]")
    return []
