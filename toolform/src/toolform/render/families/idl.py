"""The IDL family: Protocol Buffers, GraphQL, Thrift, Avro, WIT, Smithy, Cap'n Proto, FlatBuffers."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.numbers import number_text
from toolform.render.families import Renderer
from toolform.render.options import RenderOptions
from toolform.render.values import camel, indented_json, json_dumps, pascal, plain, wit_name


def _smithy_string(text: str) -> str:
    """A Smithy documentation string: double quotes escaped, everything else as it stands, as measured."""
    return '"' + text.replace('"', '\\"') + '"'


def symbol_name(value: object) -> str:
    """An enum value as a member name: its spaces and hyphens become ``_``, the rest stays, as measured."""
    return plain(value).replace(" ", "_").replace("-", "_")


def _enum_name(t: ToolIR, p: FieldIR) -> str:
    return pascal(t.name) + pascal(p.name)


# --- Protocol Buffers ---------------------------------------------------------

_PROTO = {
    "string": "string",
    "number": "double",
    "integer": "int64",
    "boolean": "bool",
    "object": "google.protobuf.Struct",
}


def _proto_type(t: TypeIR) -> str:
    return _PROTO.get(t.kind, "google.protobuf.Any")


def _proto_repeated(t: TypeIR) -> str:
    """``repeated X``: a list of enum values is a list of strings, a list of lists repeats twice."""
    item = t.item
    if item is None or item.kind == "enum":
        return "repeated string"
    if item.kind == "array":
        return "repeated " + _proto_repeated(item)
    return "repeated " + _proto_type(item)


def protobuf(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = ['syntax = "proto3";', "package tools;"]
    for t in tools:
        for p in t.params:
            if p.type.kind == "enum":
                members = "".join(f"  {symbol_name(v).upper()} = {i};\n" for i, v in enumerate(p.type.enum_values))
                blocks.append(f"enum {_enum_name(t, p)} {{\n{members}}}")
        lines = [f"// {t.description}"] if t.description else []
        lines.append(f"message {pascal(t.name)}Request {{")
        for number, p in enumerate(t.params, 1):
            if p.description:
                lines.append(f"  // {p.description}")
            if p.type.kind == "array":
                kind = _proto_repeated(p.type)
            else:
                kind = _enum_name(t, p) if p.type.kind == "enum" else _proto_type(p.type)
                kind = kind if p.required else f"optional {kind}"
            lines.append(f"  {kind} {p.name} = {number};")
        lines.append("}")
        blocks.append("\n".join(lines))
    rpcs = "".join(f"  rpc {pascal(t.name)}({pascal(t.name)}Request) returns (ToolResult);\n" for t in tools)
    blocks.append(f"service ToolService {{\n{rpcs}}}")
    return "\n\n".join(blocks)


# --- GraphQL ------------------------------------------------------------------

_GRAPHQL = {"string": "String", "number": "Float", "integer": "Int", "boolean": "Boolean"}


def _graphql_type(t: TypeIR) -> str:
    if t.kind == "enum":
        return "String"
    if t.kind == "array":
        return f"[{_graphql_type(t.item) if t.item else 'JSON'}]"
    return _GRAPHQL.get(t.kind, "JSON")


def _graphql_param_type(tool: ToolIR, p: FieldIR) -> str:
    if p.type.kind == "enum":
        kind = _enum_name(tool, p)
    elif p.type.kind == "object" and p.type.fields:
        kind = _enum_name(tool, p) + "Input"
    else:
        kind = _graphql_type(p.type)
    return kind + ("!" if p.required else "")


def graphql_sdl(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        for p in t.params:
            if p.type.kind == "enum":
                members = "".join(f"  {symbol_name(v).upper()}\n" for v in p.type.enum_values)
                blocks.append(f"enum {_enum_name(t, p)} {{\n{members}}}")
            elif p.type.kind == "object" and p.type.fields:
                fields = "".join(
                    f"  {camel(f.name)}: {_graphql_type(f.type)}{'!' if f.required else ''}\n" for f in p.type.fields
                )
                blocks.append(f"input {_enum_name(t, p)}Input {{\n{fields}}}")
    lines = ["type Mutation {"]
    for t in tools:
        if t.description:
            lines.append(f'  """{t.description}"""')
        args = ", ".join(f"{camel(p.name)}: {_graphql_param_type(t, p)}" for p in t.params)
        lines.append(f"  {camel(t.name)}({args}): ToolResult")
    lines.append("}")
    blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# --- Thrift -------------------------------------------------------------------

_THRIFT = {"number": "double", "integer": "i64", "boolean": "bool", "object": "map<string,string>"}


def _thrift_type(t: TypeIR) -> str:
    if t.kind == "array":
        return f"list<{_thrift_type(t.item) if t.item else 'string'}>"
    return _THRIFT.get(t.kind, "string")


def thrift_idl(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        args = ", ".join(
            f"{n}: {'required' if p.required else 'optional'} {_thrift_type(p.type)} {p.name}"
            for n, p in enumerate(t.params, 1)
        )
        head = f"  /** {t.description} */\n" if t.description else ""
        blocks.append(f"{head}  string {t.name}({args}),")
    return "namespace py tools\n\nservice ToolService {\n" + "\n\n".join(blocks) + "\n\n}"


# --- Avro ---------------------------------------------------------------------

_AVRO = {"string": "string", "number": "double", "integer": "long", "boolean": "boolean"}


def _avro_type(t: TypeIR) -> Any:
    if t.kind == "object":
        return {
            "type": "record",
            "name": "Nested",
            "fields": [{"name": f.name, "type": _avro_type(f.type)} for f in t.fields],
        }
    if t.kind == "array":
        return {"type": "array", "items": _avro_type(t.item) if t.item else "string"}
    if t.kind == "enum":
        return {"type": "enum", "name": "E", "symbols": [symbol_name(v).upper() for v in t.enum_values]}
    if t.kind == "union":
        return [_avro_type(u) for u in t.union_of]
    return _AVRO.get(t.kind, "string")


def _avro_field(p: FieldIR) -> dict[str, Any]:
    kind = _avro_type(p.type)
    if not p.required:
        # A union's members join the null branch directly.
        kind = ["null", *(kind if isinstance(kind, list) else [kind])]
    field: dict[str, Any] = {"name": p.name, "type": kind}
    if p.description:
        field["doc"] = p.description
    if p.has_default:
        field["default"] = p.default
    elif not p.required:
        field["default"] = None
    return field


def avro_schema(tools: list[ToolIR], options: RenderOptions) -> str:
    records = []
    for t in tools:
        record: dict[str, Any] = {
            "type": "record",
            "name": f"{pascal(t.name)}Request",
            "fields": [_avro_field(p) for p in t.params],
        }
        if t.description:
            record["doc"] = t.description
        records.append(record)
    if options.minify:
        return json_dumps(records, separators=(",", ":"))
    return indented_json(records, 2)


# --- WIT ----------------------------------------------------------------------

_WIT = {"string": "string", "number": "float64", "integer": "s64", "boolean": "bool"}


def _wit_type(t: TypeIR) -> str:
    if t.kind == "array":
        item = t.item
        return f"list<{_wit_type(item) if item is not None and item.kind != 'object' else 'string'}>"
    if t.kind == "union":
        return "variant { " + ", ".join(_wit_type(u) for u in t.union_of) + " }"
    return _WIT.get(t.kind, "string")


def _wit_optional(kind: str, required: bool) -> str:
    return kind if required else f"option<{kind}>"


def wit_idl(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["interface tools {"]
    for t in tools:
        for p in t.params:
            name = f"{wit_name(t.name)}-{wit_name(p.name)}"
            if p.type.kind == "enum":
                members = ", ".join(wit_name(symbol_name(v)) for v in p.type.enum_values)
                lines += [f"  enum {name} {{", f"    {members}", "  }"]
            elif p.type.kind == "object" and p.type.fields:
                lines.append(f"  record {name} {{")
                for f in p.type.fields:
                    kind = _wit_type(f.type) if f.type.kind != "object" else "string"
                    lines.append(f"    {wit_name(f.name)}: {_wit_optional(kind, f.required)},")
                lines.append("  }")
        params = []
        for p in t.params:
            named = p.type.kind in ("enum", "object")
            kind = f"{wit_name(t.name)}-{wit_name(p.name)}" if named else _wit_type(p.type)
            params.append(f"{wit_name(p.name)}: {_wit_optional(kind, p.required)}")
        if t.description:
            lines.append(f"  /// {t.description}")
        lines += [f"  {wit_name(t.name)}: func({', '.join(params)}) -> result<string, string>;", ""]
    lines.append("}")
    return "\n".join(lines)


# --- Smithy -------------------------------------------------------------------

_SMITHY = {"string": "String", "number": "Double", "integer": "Integer", "boolean": "Boolean", "object": "Document"}


def _smithy_type(t: TypeIR) -> str:
    if t.kind == "array":
        return "StringList"
    if t.kind == "union":
        return "Document"
    return _SMITHY.get(t.kind, "String")


def smithy_idl(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = ['$version: "2"', "namespace tools"]
    for t in tools:
        name = pascal(t.name)
        doc = f"@documentation({_smithy_string(t.description)})\n" if t.description else ""
        blocks.append(f"{doc}operation {name} {{\n    input: {name}Input\n    output: ToolResult\n}}")
        members = []
        for p in t.params:
            if p.description:
                members.append(f"    @documentation({_smithy_string(p.description)})")
            if p.required:
                members.append("    @required")
            members.append(f"    {p.name}: {_smithy_type(p.type)}")
        blocks.append(f"structure {name}Input {{\n" + "".join(m + "\n" for m in members) + "}")
    return "\n\n".join(blocks)


# --- Cap'n Proto --------------------------------------------------------------

_CAPNP = {"string": "Text", "number": "Float64", "integer": "Int64", "boolean": "Bool", "object": "AnyPointer"}


def _capnp_type(t: TypeIR) -> str:
    if t.kind == "array":
        return f"List({_capnp_type(t.item) if t.item else 'Text'})"
    if t.kind == "union":
        return "AnyPointer"
    return _CAPNP.get(t.kind, "Text")


def capnproto_idl(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["@0xdeadbeefcafe1234;", "", "interface Tools {"]
    for ordinal, t in enumerate(tools):
        if t.description:
            lines.append(f"  # {t.description}")
        params = ", ".join(f"{camel(p.name)} :{_capnp_type(p.type)}" for p in t.params)
        lines.append(f"  {camel(t.name)} @{ordinal} ({params}) -> (result :Text);")
    lines.append("}")
    return "\n".join(lines)


# --- FlatBuffers --------------------------------------------------------------

_FLATBUFFERS = {"number": "double", "integer": "long", "boolean": "bool"}


def _flatbuffers_type(t: TypeIR) -> str:
    if t.kind == "array":
        # FlatBuffers has no list of lists: the inner list is a string.
        item = t.item
        return f"[{_flatbuffers_type(item) if item is not None and item.kind != 'array' else 'string'}]"
    return _FLATBUFFERS.get(t.kind, "string")


def _flatbuffers_default(value: object) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, Decimal)):
        return number_text(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return None


def flatbuffers_idl(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = ["namespace tools;"]
    for t in tools:
        lines = []
        for p in t.params:
            if p.type.kind == "enum":
                members = ", ".join(symbol_name(v).upper() for v in p.type.enum_values)
                lines.append(f"enum {_enum_name(t, p)} : byte {{ {members} }}")
        if t.description:
            lines.append(f"/// {t.description}")
        lines.append(f"table {pascal(t.name)}Request {{")
        for p in t.params:
            kind = _enum_name(t, p) if p.type.kind == "enum" else _flatbuffers_type(p.type)
            line = f"  {p.name}:{kind}"
            default = _flatbuffers_default(p.default) if p.has_default and p.type.kind != "enum" else None
            # Strings keep no default in FlatBuffers' tables.
            if default is not None and not isinstance(p.default, str):
                line += f" = {default}"
            if p.required:
                line += " (required)"
            lines.append(line + ";")
        lines.append("}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


RENDERERS: dict[str, Renderer] = {
    "protobuf": protobuf,
    "graphql_sdl": graphql_sdl,
    "thrift_idl": thrift_idl,
    "avro_schema": avro_schema,
    "wit_idl": wit_idl,
    "smithy_idl": smithy_idl,
    "capnproto_idl": capnproto_idl,
    "flatbuffers_idl": flatbuffers_idl,
}
