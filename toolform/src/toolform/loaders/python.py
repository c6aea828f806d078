"""Python functions read as tools, from their type hints and docstrings. Never over HTTP: loading a module runs it.

The payload is a function, a list of functions, a module, or the path of a
``.py`` file (imported under a private name). A module gives its public
functions defined in it, in order. The description is the docstring's first
paragraph; a Google-style ``Args:`` section describes the parameters and
``Returns:`` the result.

Hints read as the reference reads them: ``str``, ``int``, ``float``, ``bool``,
``None``; ``list[X]`` (and tuples, sets, sequences) as arrays; ``dict`` as an
object; ``Literal`` and ``Enum`` classes as enums; ``X | None`` as an optional
``X``; other unions as unions; dataclasses, TypedDicts and pydantic models as
objects with their fields; ``datetime``/``date`` as formatted strings.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import importlib.util
import inspect
import re
import sys
import types
import typing
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from toolform.errors import LoaderError
from toolform.ir import USER, FieldIR, JsonValue, Kind, ToolIR, ToolSet, TypeIR
from toolform.loaders.common import tool_set
from toolform.loaders.jsonschema import SchemaReader, base_of
from toolform.loaders.notes import Notes, child

KIND = "python"
SECTION = re.compile(r"^(Args|Arguments|Parameters|Params|Returns|Return|Raises|Yields|Examples?|Notes?):\s*$")
ARG_LINE = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


def load(payload: object, notes: Notes) -> ToolSet:
    """Read the functions ``payload`` holds or names."""
    return tool_set([_tool(fn, notes) for fn in _functions(payload)])


def _functions(payload: object) -> list[Callable[..., object]]:
    if isinstance(payload, str | Path):
        return _functions(_import(Path(payload)))
    if isinstance(payload, types.ModuleType):
        return [
            value
            for name, value in vars(payload).items()
            if inspect.isfunction(value) and not name.startswith("_") and value.__module__ == payload.__name__
        ]
    if callable(payload):
        return [payload]
    if isinstance(payload, Iterable):
        found: list[Callable[..., object]] = []
        for item in payload:
            if not callable(item):
                raise LoaderError(f"{item!r} is not a function")
            found.append(item)
        return found
    raise LoaderError("a python payload is a function, a list of functions, a module, or the path of a .py file")


def import_module(path: Path) -> types.ModuleType:
    """Import the ``.py`` file at ``path`` under a private name (running its code), as the loader reads it."""
    return _import(path)


def _import(path: Path) -> types.ModuleType:
    if not path.is_file():
        raise LoaderError(f"{path} is not a file")
    name = f"toolform_user_tools_{abs(hash(str(path.resolve()))):x}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise LoaderError(f"{path} cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as err:
        raise LoaderError(f"{path}: {err.msg}", line=err.lineno) from None
    except Exception as err:
        raise LoaderError(f"{path} failed to import: {type(err).__name__}: {err}") from None
    return module


def _tool(fn: Callable[..., object], notes: Notes) -> ToolIR:
    name = getattr(fn, "__name__", "")
    if not name or name == "<lambda>":
        raise LoaderError(f"{fn!r} has no name to give the model; use a def")
    description, arg_docs, returns_doc = _docstring(inspect.getdoc(fn) or "")
    try:
        hints = typing.get_type_hints(fn)
    except Exception as err:
        raise LoaderError(f"function '{name}': its type hints do not resolve ({err})") from None
    reader = _HintReader(name, notes)
    params = []
    for param in inspect.signature(fn).parameters.values():
        at = child("$", param.name)
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            notes.add(name, at, "*args and **kwargs cannot be shown to a model; skipped")
            continue
        if param.name not in hints:
            notes.add(name, at, "no type hint; read as any value")
        type_, nullable = reader.type_of(hints.get(param.name, Any), at)
        has_default = param.default is not inspect.Parameter.empty
        params.append(
            FieldIR(
                name=param.name,
                type=type_,
                required=not has_default and not nullable,
                description=arg_docs.get(param.name, ""),
                default=reader.value(param.default, at) if has_default else None,
            )
        )
    returns = None
    hint = hints.get("return")
    if hint is not None and hint is not type(None):
        returns, _ = reader.type_of(hint, "$ (returns)")
    return ToolIR(
        name=name,
        description=description,
        params=params,
        domain=USER,
        category=USER,
        origin=USER,
        returns=returns,
        returns_description=returns_doc,
    )


def _docstring(doc: str) -> tuple[str, dict[str, str], str]:
    """The first paragraph, the ``Args:`` entries, and the ``Returns:`` text, each with whitespace collapsed."""
    lines = doc.splitlines()
    first: list[str] = []
    for line in lines:
        if not line.strip() or SECTION.match(line.strip()):
            break
        first.append(line.strip())
    args: dict[str, str] = {}
    returns: list[str] = []
    section = ""
    current = ""
    for line in lines:
        stripped = line.strip()
        heading = SECTION.match(stripped)
        if heading:
            section = heading.group(1)
            current = ""
            continue
        if not stripped:
            continue
        if section in ("Args", "Arguments", "Parameters", "Params"):
            match = ARG_LINE.match(stripped)
            if match and (line.startswith(" " * 4) or line.startswith("\t")) and not line.startswith(" " * 8):
                current = match.group(1).lstrip("*")
                args[current] = match.group(2).strip()
            elif current:
                args[current] = f"{args[current]} {stripped}".strip()
        elif section in ("Returns", "Return"):
            returns.append(stripped)
    return " ".join(first), args, " ".join(returns)


class _HintReader:
    def __init__(self, tool: str, notes: Notes) -> None:
        self.tool = tool
        self.notes = notes
        self.active: list[object] = []

    def type_of(self, hint: Any, path: str) -> tuple[TypeIR, bool]:
        """The IR type of a hint, and whether the hint admits None."""
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is typing.Annotated:
            return self.type_of(args[0], path)
        if origin in (typing.Union, types.UnionType):
            kept = [a for a in args if a is not type(None)]
            nullable = len(kept) < len(args)
            if len(kept) == 1:
                return self.type_of(kept[0], path)[0], nullable
            return TypeIR(
                Kind.UNION, union_of=[self.type_of(a, f"{path}|{i}")[0] for i, a in enumerate(kept)]
            ), nullable
        if origin is typing.Literal:
            values = [a.value if isinstance(a, enum.Enum) else a for a in args]
            literals: list[JsonValue] = [v for v in values if v is not None]
            base = base_of(literals[0]) if literals else None
            return TypeIR(Kind.ENUM, enum_values=literals, base=base), len(literals) < len(values)
        return self._plain(hint, origin, args, path), False

    def _plain(self, hint: Any, origin: Any, args: tuple[Any, ...], path: str) -> TypeIR:
        scalars: dict[object, TypeIR] = {
            str: TypeIR(Kind.STRING),
            bool: TypeIR(Kind.BOOLEAN),
            int: TypeIR(Kind.INTEGER),
            float: TypeIR(Kind.NUMBER),
            decimal.Decimal: TypeIR(Kind.NUMBER),
            type(None): TypeIR(Kind.NULL),
            None: TypeIR(Kind.NULL),
            datetime.datetime: TypeIR(Kind.STRING, constraints={"format": "date-time"}),
            datetime.date: TypeIR(Kind.STRING, constraints={"format": "date"}),
            datetime.time: TypeIR(Kind.STRING, constraints={"format": "time"}),
            uuid.UUID: TypeIR(Kind.STRING, constraints={"format": "uuid"}),
        }
        if hint is Any or hint is object:
            return TypeIR(Kind.ANY)
        if hint in scalars:
            return scalars[hint]
        if typing.is_typeddict(hint):
            return self._class(hint, path)
        container = origin or hint
        if isinstance(container, type) and issubclass(container, Mapping | dict):
            return TypeIR(Kind.OBJECT)
        if (
            isinstance(container, type)
            and issubclass(container, Sequence | set | frozenset)
            and container not in (str, bytes)
        ):
            items = [a for a in args if a is not Ellipsis]
            if not items:
                return TypeIR(Kind.ARRAY)
            if len(items) == 1:
                return TypeIR(Kind.ARRAY, item=self.type_of(items[0], f"{path}[*]")[0])
            return TypeIR(
                Kind.ARRAY, item=TypeIR(Kind.UNION, union_of=[self.type_of(a, f"{path}[*]")[0] for a in items])
            )
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            values: list[JsonValue] = [m.value for m in hint]
            return TypeIR(Kind.ENUM, enum_values=values, base=base_of(values[0]) if values else None)
        if isinstance(hint, type):
            return self._class(hint, path)
        self.notes.add(self.tool, path, f"the hint {hint!r} is not one a tool parameter can take; read as any value")
        return TypeIR(Kind.ANY)

    def _class(self, cls: type, path: str) -> TypeIR:
        if cls in self.active:
            self.notes.add(self.tool, path, f"{cls.__name__} refers to itself: read as an object with no fields here")
            return TypeIR(Kind.OBJECT, cut="recursion")
        schema_of = getattr(cls, "model_json_schema", None)
        if callable(schema_of):
            schema = schema_of()
            return SchemaReader(self.tool, schema, self.notes).type_of(schema, path=path)
        self.active.append(cls)
        try:
            if dataclasses.is_dataclass(cls):
                hints = typing.get_type_hints(cls)
                fields = []
                for f in dataclasses.fields(cls):
                    type_, nullable = self.type_of(hints.get(f.name, Any), child(path, f.name))
                    has_default = f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
                    default = f.default if f.default is not dataclasses.MISSING else None
                    fields.append(
                        FieldIR(
                            f.name,
                            type_,
                            required=not has_default and not nullable,
                            default=self.value(default, child(path, f.name)),
                        )
                    )
                return TypeIR(Kind.OBJECT, fields=fields)
            if typing.is_typeddict(cls):
                hints = typing.get_type_hints(cls)
                required_keys: frozenset[str] = getattr(cls, "__required_keys__", frozenset(hints))
                fields = []
                for key, hint in hints.items():
                    type_, nullable = self.type_of(hint, child(path, key))
                    fields.append(FieldIR(key, type_, required=key in required_keys and not nullable))
                return TypeIR(Kind.OBJECT, fields=fields)
        finally:
            self.active.pop()
        self.notes.add(
            self.tool, path, f"the class {cls.__name__} is not a dataclass, TypedDict or model; read as any value"
        )
        return TypeIR(Kind.ANY)

    def value(self, value: Any, path: str) -> JsonValue:
        """A default as JSON, or None (dropped, with a warning) when it is not JSON."""
        if isinstance(value, enum.Enum):
            value = value.value
        if value is None or isinstance(value, bool | int | float | decimal.Decimal | str):
            return value
        if isinstance(value, list | tuple):
            return [self.value(v, path) for v in value]
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return {k: self.value(v, path) for k, v in value.items()}
        self.notes.add(self.tool, path, f"the default {value!r} is not a JSON value; dropped")
        return None
