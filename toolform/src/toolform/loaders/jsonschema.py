"""JSON Schema (the parameters of OpenAI, Anthropic and MCP tools) read into IR types.

The reading is the reference's, so that the same schema gives the same IR:

- ``$ref`` to a local pointer (``#/$defs/X``, ``#/definitions/X``, any JSON
  pointer into the tool's schema) is inlined; a description beside the ``$ref``
  wins over the target's. A path that follows more than ``MAX_REFS`` references
  (a recursive schema, or a very long chain) reads as any value there.
- More than ``MAX_DEPTH`` levels of nesting read as any value below.
- ``anyOf``/``oneOf`` and type lists drop their null members; one member left
  is that member, more are a union. ``allOf`` members are merged.
- ``enum`` and ``const`` are enums; their base is the schema's type, else the
  first value's.
- The constraints the IR carries are kept (see ``CONSTRAINT_KEYS``).

Unlike the reference, every part this reading loses is named in a warning
(tool and path): a dropped null, keyword, or value, a cut recursion, an
unresolved reference. Keywords that only annotate (``title``, ``$schema``, ...)
are dropped without one, since nothing the model may send depends on them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from toolform.ir import FieldIR, JsonValue, Kind, TypeIR, is_number
from toolform.limits import SchemaNodes, schema_nodes
from toolform.loaders.notes import Notes, child

#: Levels of nesting read before the rest reads as any value (the reference's limit).
MAX_DEPTH = 12
#: References followed along one path before the rest reads as any value (the reference's limit).
MAX_REFS = 12

SCALAR_TYPES: dict[str, Kind] = {
    "string": Kind.STRING,
    "number": Kind.NUMBER,
    "integer": Kind.INTEGER,
    "boolean": Kind.BOOLEAN,
    "null": Kind.NULL,
}

#: JSON Schema keyword -> IR constraint.
CONSTRAINTS: dict[str, str] = {
    "minimum": "minimum",
    "maximum": "maximum",
    "minLength": "min_length",
    "maxLength": "max_length",
    "minItems": "min_items",
    "maxItems": "max_items",
    "pattern": "pattern",
    "format": "format",
}

#: Inclusive bound -> its exclusive keyword (draft 6 and later).
EXCLUSIVE: dict[str, str] = {"minimum": "exclusiveMinimum", "maximum": "exclusiveMaximum"}

#: Every keyword ``_constraints`` reads: a schema with none of them has no constraint and no note.
_CONSTRAINT_KEYWORDS = frozenset(CONSTRAINTS) | frozenset(EXCLUSIVE.values())

#: Keywords this reader uses.
READ = frozenset(
    {"type", "properties", "required", "items", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "description"}
    | {"default", "examples", "$defs", "definitions"}
    | set(CONSTRAINTS)
)

#: Keywords that annotate a schema without changing what it accepts: dropped without a warning.
ANNOTATIONS = frozenset(
    {"title", "$schema", "$id", "$comment", "$anchor", "readOnly", "writeOnly", "contentMediaType", "strict"}
)

#: Keywords ``_note_unread`` passes over in silence.
_SILENT_KEYS = READ | ANNOTATIONS

#: Keywords a property schema may have and still be read by the fast path of ``_fields``: the type, the
#: description, and keywords dropped without a note.
_PLAIN_KEYS = frozenset({"type", "description"}) | ANNOTATIONS

#: Keywords an object schema may have and still be read by ``plain_fields``.
PLAIN_OBJECT_KEYS = frozenset({"type", "properties", "required", "description"}) | ANNOTATIONS


def _plain_field(name: str, prop: object, required: list[str]) -> FieldIR | None:
    """The field ``SchemaReader`` reads from a property schema that is a scalar type and a description,
    read without the general path (no reference, note, constraint, default or example can apply); None
    for any other schema."""
    if type(prop) is not dict or not prop.keys() <= _PLAIN_KEYS:
        return None
    declared = prop.get("type")
    kind = SCALAR_TYPES.get(declared) if type(declared) is str else None
    text = prop.get("description", "")
    if kind is None or type(text) is not str:
        return None
    return FieldIR(name, TypeIR(kind), name in required, text)


def plain_fields(schema: Mapping[str, JsonValue]) -> list[FieldIR] | None:
    """The parameters ``SchemaReader.parameters`` reads from an object schema (keys in PLAIN_OBJECT_KEYS,
    of type object) whose every property is plain and whose required names are all properties, which the
    general path reads without a note; None when any is not, for the general path to read."""
    properties = schema.get("properties")
    required = schema.get("required")
    if properties is None:
        properties = {}
    elif type(properties) is not dict:
        return None
    if required is None:
        required_names: list[str] = []
    elif type(required) is list and all(type(r) is str and r in properties for r in required):
        required_names = required  # type: ignore[assignment]  # every member checked above
    else:
        return None
    fields = []
    for name, prop in properties.items():
        field = _plain_field(name, prop, required_names)
        if field is None:
            return None
        fields.append(field)
    return fields


@dataclass
class SchemaReader:
    """Reads one tool's schema; ``root`` is what local references point into."""

    tool: str
    root: JsonValue
    notes: Notes = field(default_factory=Notes)
    #: The schema nodes the loading may still read ($ref expansion fans out exponentially).
    nodes: SchemaNodes = field(default_factory=schema_nodes)

    def parameters(self, schema: JsonValue, path: str = "$") -> list[FieldIR]:
        """A tool's parameters from its parameters schema (an object schema, or JSON text of one)."""
        if isinstance(schema, str):
            from toolform.errors import LoaderError
            from toolform.loaders.common import refuse_constant

            try:
                schema = json.loads(schema, parse_float=Decimal, parse_constant=refuse_constant)
            except ValueError as err:
                raise LoaderError(f"tool '{self.tool}': parameters is text that is not JSON ({err})") from None
            self.root = schema
        if schema is None:
            return []
        if not isinstance(schema, dict):
            self.notes.add(self.tool, path, "the parameters schema is not a JSON object; read as no parameters")
            return []
        resolved, _ = self._follow(schema, 0, path)
        if resolved is None:
            return []
        if "allOf" in resolved:
            resolved = self._merge_all_of(resolved, 0, path)
        declared = resolved.get("type")
        if declared not in (None, "object"):
            self.notes.add(
                self.tool, path, f"the parameters schema has type {declared!r}, not 'object'; read as no parameters"
            )
            return []
        self._note_unread(resolved, path, top=True)
        return self._fields(resolved, 0, 0, path)

    def type_of(
        self, schema: JsonValue, depth: int = 0, refs: int = 0, path: str = "$", nullable: list[bool] | None = None
    ) -> TypeIR:
        """The IR type of one schema at ``depth`` levels of nesting, ``refs`` references followed.

        When the schema admits null beside other values (a null member of ``anyOf``, ``null`` in a
        type list or an enum), ``nullable`` (if given) gets True: the reference reads such a
        field as not required, which is how the IR says "may be left out".
        """
        self.nodes.count()
        if depth > MAX_DEPTH:
            self.notes.add(self.tool, path, f"nested deeper than {MAX_DEPTH} levels; read as any value below")
            return TypeIR(Kind.ANY, cut="depth")
        if schema is True or schema == {}:
            return TypeIR(Kind.ANY)
        if not isinstance(schema, dict):
            self.notes.add(
                self.tool, path, f"the schema {json.dumps(schema, default=str)} is not a JSON object; read as any value"
            )
            return TypeIR(Kind.ANY)
        if "$ref" in schema:
            # The reference follows no reference at the deepest level, and at most MAX_REFS along a path.
            if depth >= MAX_DEPTH:
                self.notes.add(
                    self.tool,
                    path,
                    f"$ref {schema['$ref']!r} at {MAX_DEPTH} levels deep is not followed (a recursive schema "
                    "cannot be inlined whole); read as any value below",
                )
                return TypeIR(Kind.ANY, cut="recursion")
            if refs + 1 > MAX_REFS:
                self.notes.add(
                    self.tool,
                    path,
                    f"$ref {schema['$ref']!r} is followed more than {MAX_REFS} times along this path "
                    "(a recursive schema cannot be inlined whole); read as any value below",
                )
                return TypeIR(Kind.ANY, cut="recursion")
            resolved = self._resolve(schema, path)
            if resolved is None:
                return TypeIR(Kind.ANY)
            return self.type_of(resolved, depth, refs + 1, path, nullable)
        self._note_unread(schema, path)
        if "allOf" in schema:
            return self.type_of(self._merge_all_of(schema, refs, path), depth + 1, refs, path, nullable)
        for keyword in ("anyOf", "oneOf"):
            if keyword in schema:
                return self._alternatives(schema, keyword, depth, refs, path, nullable)
        if "enum" in schema or "const" in schema:
            return self._enum(schema, path, nullable)
        declared = schema.get("type")
        if isinstance(declared, list):
            return self._type_list(schema, declared, depth, refs, path, nullable)
        if declared is None:
            if "properties" in schema:
                declared = "object"
            elif "items" in schema:
                declared = "array"
            else:
                return TypeIR(Kind.ANY, constraints=self._constraints(schema, path))
        if not isinstance(declared, str):
            self.notes.add(
                self.tool, path, f"type {json.dumps(declared, default=str)} is not a type name; read as any value"
            )
            return TypeIR(Kind.ANY)
        if declared == "object":
            return TypeIR(Kind.OBJECT, fields=self._fields(schema, depth + 1, refs, path))
        if declared == "array":
            return self._array(schema, depth, refs, path)
        kind = SCALAR_TYPES.get(declared)
        if kind is None:
            # The reference's own sentence, with the path.
            self.notes.add(self.tool, path, f"unknown JSON Schema type '{declared}', read as any value")
            return TypeIR(Kind.ANY)
        return TypeIR(kind, constraints=self._constraints(schema, path))

    # -- parts ---------------------------------------------------------------

    def _fields(self, schema: Mapping[str, JsonValue], depth: int, refs: int, path: str) -> list[FieldIR]:
        properties = schema.get("properties")
        required = schema.get("required")
        required_names = [r for r in required if isinstance(r, str)] if isinstance(required, list) else []
        if properties is None:
            properties = {}
        if not isinstance(properties, dict):
            self.notes.add(self.tool, path, "properties is not a JSON object; read as no properties")
            properties = {}
        for name in required_names:
            if name not in properties:
                self.notes.add(self.tool, child(path, name), "listed in required but not in properties; ignored")
        fields = []
        plain = depth <= MAX_DEPTH
        for name, prop in properties.items():
            if plain:
                found = _plain_field(name, prop, required_names)
                if found is not None:
                    fields.append(found)
                    continue
            at = child(path, name)
            described, _ = self._follow(prop, refs, at) if isinstance(prop, dict) else (None, 0)
            described = self._sole_alternative(described, refs, at)
            nullable = [False]
            type_ = self.type_of(prop, depth, refs, at, nullable)
            fields.append(
                FieldIR(
                    name=name,
                    type=type_,
                    required=name in required_names and not nullable[0],
                    description=self._description(described, at),
                    default=self._default(described, at),
                    example=self._example(described),
                )
            )
        return fields

    def _sole_alternative(
        self, schema: dict[str, JsonValue] | None, refs: int, path: str
    ) -> dict[str, JsonValue] | None:
        """A field's schema with its one non-null ``anyOf``/``oneOf`` member's description and default
        beneath its own (``Optional[X]`` as pydantic writes it puts them on either)."""
        if schema is None:
            return None
        for keyword in ("anyOf", "oneOf"):
            members = schema.get(keyword)
            if isinstance(members, list):
                kept = [m for m in members if not self._is_null(m, refs, path)]
                if len(kept) == 1 and isinstance(kept[0], dict):
                    inner = self._follow(kept[0], refs, path)[0] or {}
                    return {**inner, **{k: v for k, v in schema.items() if k != keyword}}
        return schema

    def _array(self, schema: Mapping[str, JsonValue], depth: int, refs: int, path: str) -> TypeIR:
        items = schema.get("items")
        at = f"{path}[*]"
        item: TypeIR | None
        if items is None or isinstance(items, bool):
            # items: true is any item, items: false (a tuple's rest) no more items: the reference reads neither.
            item = None
        elif isinstance(items, list):
            self.notes.add(self.tool, at, "tuple items (a list of schemas) read as an array of their union")
            item = TypeIR(Kind.UNION, union_of=[self.type_of(s, depth + 2, refs, at) for s in items])
        else:
            item = self.type_of(items, depth + 1, refs, at)
        return TypeIR(Kind.ARRAY, item=item, constraints=self._constraints(schema, path))

    def _alternatives(
        self,
        schema: Mapping[str, JsonValue],
        keyword: str,
        depth: int,
        refs: int,
        path: str,
        nullable: list[bool] | None,
    ) -> TypeIR:
        members = schema[keyword]
        if not isinstance(members, list):
            self.notes.add(self.tool, path, f"{keyword} is not a list; read as any value")
            return TypeIR(Kind.ANY)
        kept = [m for m in members if not self._is_null(m, refs, path)]
        if len(kept) < len(members):
            _null_dropped(nullable)
            self.notes.add(self.tool, path, f"{keyword} allows null: {NULL_DROPPED}")
        if not kept:
            return TypeIR(Kind.ANY)
        if len(kept) == 1:
            return self.type_of(kept[0], depth, refs, path, nullable)
        if keyword == "oneOf":
            self.notes.add(self.tool, path, "oneOf (exactly one) read as a union (any of)")
        return TypeIR(
            Kind.UNION, union_of=[self.type_of(m, depth + 1, refs, f"{path}|{i}") for i, m in enumerate(kept)]
        )

    def _type_list(
        self,
        schema: Mapping[str, JsonValue],
        declared: list[JsonValue],
        depth: int,
        refs: int,
        path: str,
        nullable: list[bool] | None,
    ) -> TypeIR:
        kept = [t for t in declared if t != "null"]
        if kept and len(kept) < len(declared):
            _null_dropped(nullable)
            self.notes.add(self.tool, path, f"the type list allows null: {NULL_DROPPED}")
        if not kept:
            return TypeIR(Kind.NULL)
        if len(kept) == 1:
            return self.type_of({**schema, "type": kept[0]}, depth, refs, path)
        return TypeIR(
            Kind.UNION,
            union_of=[self.type_of({**schema, "type": t}, depth + 1, refs, f"{path}|{i}") for i, t in enumerate(kept)],
        )

    def _enum(self, schema: Mapping[str, JsonValue], path: str, nullable: list[bool] | None) -> TypeIR:
        if "enum" in schema:
            raw = schema["enum"]
            values = list(raw) if isinstance(raw, list) else [raw]
        else:
            values = [schema["const"]]
        kept: list[JsonValue] = [v for v in values if v is not None]
        if len(kept) < len(values):
            _null_dropped(nullable)
            self.notes.add(self.tool, path, f"the enum allows null: {NULL_DROPPED}")
        if not kept:
            return TypeIR(Kind.NULL)
        declared = schema.get("type")
        base = SCALAR_TYPES.get(declared) if isinstance(declared, str) else None
        if base is None or base is Kind.NULL:
            base = enum_base(kept)
        return TypeIR(Kind.ENUM, enum_values=kept, base=base, constraints=self._constraints(schema, path))

    def _constraints(self, schema: Mapping[str, JsonValue], path: str = "$") -> dict[str, JsonValue]:
        """The constraints the IR carries, each checked as the reference checks it.

        Bounds must be numbers; lengths and item counts numbers, cut to integers; pattern and format
        text. A value of the wrong kind is dropped (with a warning; the reference drops it silently).
        """
        out: dict[str, JsonValue] = {}
        if _CONSTRAINT_KEYWORDS.isdisjoint(schema.keys()):
            return out
        for key, ir in CONSTRAINTS.items():
            value = schema.get(key)
            exclusive = EXCLUSIVE.get(key)
            if exclusive is not None and not is_number(value) and is_number(schema.get(exclusive)):
                # The reference reads an exclusive bound as the inclusive one when no valid inclusive one is given.
                self.notes.add(
                    self.tool, path, f"{exclusive} is read as an inclusive {key} (the IR has no exclusive bounds)"
                )
                key, value = exclusive, schema[exclusive]
            if value is None:
                continue
            if ir in ("pattern", "format"):
                ok = isinstance(value, str)
            else:
                ok = is_number(value)
                if ok and ir not in ("minimum", "maximum"):
                    assert isinstance(value, int | float | Decimal)
                    if value != int(value):
                        self.notes.add(self.tool, path, f"{key} {value} is not a whole number; read as {int(value)}")
                    value = int(value)
            if not ok:
                self.notes.add(self.tool, path, f"{key} {json.dumps(value, default=str)} is not a valid value; dropped")
                continue
            out[ir] = value
        return out

    def _description(self, schema: Mapping[str, JsonValue] | None, path: str) -> str:
        if schema is None:
            return ""
        text = schema.get("description")
        if text is None:
            return ""
        if not isinstance(text, str):
            self.notes.add(self.tool, path, "description is not text; dropped")
            return ""
        return text

    def _default(self, schema: Mapping[str, JsonValue] | None, path: str) -> JsonValue:
        if schema is None or "default" not in schema:
            return None
        if schema["default"] is None:
            self.notes.add(self.tool, path, "a null default is dropped (the IR does not tell it from no default)")
        return schema["default"]

    def _example(self, schema: Mapping[str, JsonValue] | None) -> JsonValue:
        if schema is None:
            return None
        examples = schema.get("examples")
        if isinstance(examples, list) and examples:
            return examples[0]
        return None

    # -- references and merging ---------------------------------------------

    def _follow(self, schema: dict[str, JsonValue], refs: int, path: str) -> tuple[dict[str, JsonValue] | None, int]:
        """``schema`` with its ``$ref`` chain inlined (siblings win), and how many references that took."""
        seen = 0
        current: dict[str, JsonValue] | None = schema
        while current is not None and "$ref" in current and refs + seen < MAX_REFS:
            current = self._resolve(current, path, quiet=True)
            seen += 1
        return current, seen

    def _resolve(self, schema: Mapping[str, JsonValue], path: str, quiet: bool = False) -> dict[str, JsonValue] | None:
        ref = schema["$ref"]
        target = follow_pointer(self.root, ref) if isinstance(ref, str) else None
        if not isinstance(target, dict):
            if not quiet:
                where = (
                    "is not a local reference"
                    if isinstance(ref, str) and not ref.startswith("#")
                    else "does not resolve"
                )
                self.notes.add(self.tool, path, f"$ref {ref!r} {where}; read as any value")
            return None
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        return {**target, **siblings}


    def _is_null(self, member: JsonValue, refs: int, path: str) -> bool:
        if not isinstance(member, dict):
            return False
        resolved, _ = self._follow(member, refs, path)
        return resolved is not None and (resolved.get("type") == "null" or resolved.get("type") == ["null"])

    def _merge_all_of(
        self, schema: Mapping[str, JsonValue], refs: int, path: str, depth: int = 0
    ) -> dict[str, JsonValue]:
        merged: dict[str, JsonValue] = {k: v for k, v in schema.items() if k != "allOf"}
        members = schema["allOf"]
        if depth >= MAX_DEPTH:
            self.notes.add(self.tool, path, f"allOf nested more than {MAX_DEPTH} deep; the deeper members are not read")
            return merged
        if not isinstance(members, list):
            self.notes.add(self.tool, path, "allOf is not a list; ignored")
            return merged
        for member in members:
            resolved = self._follow(member, refs, path)[0] if isinstance(member, dict) else None
            if resolved is None:
                continue
            if "allOf" in resolved:
                resolved = self._merge_all_of(resolved, refs, path, depth + 1)
            for key, value in resolved.items():
                if key == "properties" and isinstance(value, dict):
                    existing = merged.get("properties")
                    merged["properties"] = {**(existing if isinstance(existing, dict) else {}), **value}
                elif key == "required" and isinstance(value, list):
                    existing = merged.get("required")
                    before = list(existing) if isinstance(existing, list) else []
                    merged["required"] = before + [r for r in value if r not in before]
                else:
                    if key in merged and merged[key] != value and key not in ("description", "$defs", "definitions"):
                        self.notes.add(self.tool, path, f"allOf members disagree on {key!r}; the last one is read")
                    merged[key] = value
        return merged

    def _note_unread(self, schema: Mapping[str, JsonValue], path: str, top: bool = False) -> None:
        if schema.keys() <= _SILENT_KEYS:
            return  # the common case, found without a loop
        for key, value in schema.items():
            if key in READ or key in ANNOTATIONS:
                continue
            if key == "additionalProperties" and value is True:
                continue
            inclusive = {v: k for k, v in EXCLUSIVE.items()}.get(key)
            if inclusive is not None and is_number(value) and not is_number(schema.get(inclusive)):
                continue  # read as the inclusive bound, and said so there
            if key == "nullable" and value is False:
                continue
            if key == "example":
                self.notes.add(self.tool, path, "'example' is not read (the IR reads the first of 'examples'); dropped")
                continue
            self.notes.add(self.tool, path, f"JSON Schema keyword '{key}' is not carried by the IR; dropped")


NULL_DROPPED = "the IR has no nullable types, so null is dropped and the field is read as not required"


def _null_dropped(nullable: list[bool] | None) -> None:
    if nullable is not None:
        nullable[0] = True


def enum_base(values: list[JsonValue]) -> Kind:
    """An enum's base when its schema names no type: the kind all its values share, else string."""
    if all(isinstance(v, bool) for v in values):
        return Kind.BOOLEAN
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return Kind.INTEGER
    if all(is_number(v) for v in values):
        return Kind.NUMBER
    return Kind.STRING


def base_of(value: JsonValue) -> Kind | None:
    """The base kind of an enum whose first value is ``value``."""
    if isinstance(value, bool):
        return Kind.BOOLEAN
    if isinstance(value, int):
        return Kind.INTEGER
    if isinstance(value, float | Decimal):
        return Kind.NUMBER
    if isinstance(value, str):
        return Kind.STRING
    return None


def follow_pointer(root: JsonValue, ref: str) -> JsonValue:
    """What a local ``$ref`` (``#`` or ``#/a/b``, with JSON Pointer's ``~0`` and ``~1``) points at in ``root``;
    None where it does not resolve."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node: JsonValue = root
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node
