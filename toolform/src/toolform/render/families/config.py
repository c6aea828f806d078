"""The config family: tools as TOML, INI, HCL, CUE, Dhall, Jsonnet, Nix, KDL, EDN, s-expressions, Starlark."""

from __future__ import annotations

import json

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.render.families import Renderer
from toolform.render.options import RenderOptions
from toolform.render.types import quoted
from toolform.render.values import json_dumps, pascal_underscores, plain, py_repr


def config_type(t: TypeIR) -> str:
    """``list of string``, ``string|integer``, the kind otherwise: the config formats' type words."""
    if t.kind == "array":
        return f"list of {config_type(t.item) if t.item else 'any'}"
    if t.kind == "union":
        return "|".join(config_type(u) for u in t.union_of)
    return t.kind


def _value(value: object) -> str:
    """A default or a list of values as TOML, HCL, Nix and Jsonnet all write them: JSON, non-ASCII escaped."""
    return json_dumps(value)


def _string(text: str) -> str:
    """A quoted string with non-ASCII escaped, as most of these formats write it; EDN and s-expressions quote
    their names and prose as they stand (``quoted``), as measured."""
    return json.dumps(text)


def toml(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        head = ["[[tool]]", f"name = {_string(t.name)}"]
        if t.description:
            head.append(f"description = {_string(t.description)}")
        blocks.append("\n".join(head))
        for p in t.params:
            lines = [f"[tool.params.{p.name}]", f"type = {_string(config_type(p.type))}"]
            lines.append(f"required = {'true' if p.required else 'false'}")
            if p.type.kind == "enum":
                lines.append(f"values = {_value(list(p.type.enum_values))}")
            if p.description:
                lines.append(f"description = {_string(p.description)}")
            if p.has_default:
                lines.append(f"default = {_value(p.default)}")
            blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def ini(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"[{t.name}]"]
        if t.description:
            lines.append(f"; {t.description}")
        for p in t.params:
            line = f"{p.name} = {config_type(p.type)} ({'required' if p.required else 'optional'})"
            if p.type.kind == "enum":
                line += " one of: " + "|".join(plain(v) for v in p.type.enum_values)
            lines.append(line)
            if p.description:
                lines.append(f"; {p.description}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _hcl_type(t: TypeIR) -> str:
    if t.kind == "object":
        return "object({" + ", ".join(f"{f.name} = {_hcl_type(f.type)}" for f in t.fields) + "})"
    if t.kind == "array":
        return f"list({_hcl_type(t.item) if t.item else 'any'})"
    return {"string": "string", "number": "number", "integer": "number", "boolean": "bool", "enum": "string"}.get(
        t.kind, "any"
    )


def hcl(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"tool {_string(t.name)} {{"]
        if t.description:
            lines.append(f"  description = {_string(t.description)}")
        for p in t.params:
            lines += [
                f"  variable {_string(p.name)} {{",
                f"    type      = {_hcl_type(p.type)}",
                f"    required  = {'true' if p.required else 'false'}",
            ]
            if p.description:
                lines.append(f"    description = {_string(p.description)}")
            if p.type.kind == "enum":
                lines.append(f"    allowed   = {_value(list(p.type.enum_values))}")
            if p.has_default:
                lines.append(f"    default   = {_value(p.default)}")
            lines.append("  }")
        lines.append("}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _cue_number(value: object) -> str:
    return py_repr(value)


def _cue_type(t: TypeIR) -> str:
    if t.kind == "object":
        return "{" + ", ".join(f"{f.name}{'' if f.required else '?'}: {_cue_type(f.type)}" for f in t.fields) + "}"
    if t.kind == "array":
        return f"[...{_cue_type(t.item) if t.item else '_'}]"
    if t.kind == "enum":
        return " | ".join(json_dumps(v) for v in t.enum_values)
    if t.kind == "union":
        return " | ".join(_cue_type(u) for u in t.union_of)
    base = {"string": "string", "number": "number", "integer": "int", "boolean": "bool"}.get(t.kind, "_")
    c = t.constraints
    if c.get("minimum") is not None:
        base += f" & >={_cue_number(c['minimum'])}"
    if c.get("maximum") is not None:
        base += f" & <={_cue_number(c['maximum'])}"
    if c.get("pattern") is not None:
        base += f" & =~{json_dumps(c['pattern'], ensure_ascii=False)}"
    return base


def cue(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"// {t.description}"] if t.description else []
        lines.append(f"#{pascal_underscores(t.name)}: {{")
        for p in t.params:
            line = f"  {p.name}{'' if p.required else '?'}: {_cue_type(p.type)}"
            lines.append(line + (f"  // {p.description}" if p.description else ""))
        lines.append("}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _dhall_type(t: TypeIR) -> str:
    if t.kind == "object":
        return "{ " + ", ".join(f"{f.name} : {_dhall_type(f.type)}" for f in t.fields) + " }"
    if t.kind == "array":
        return f"List {_dhall_type(t.item) if t.item else 'Text'}"
    if t.kind == "enum":
        return "< " + " | ".join(plain(v).replace(" ", "_") for v in t.enum_values) + " >"
    return {"number": "Double", "integer": "Natural", "boolean": "Bool"}.get(t.kind, "Text")


def dhall(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"-- {t.description}"] if t.description else []
        lines.append(f"let {t.name} : Type = {{")
        for index, p in enumerate(t.params):
            kind = _dhall_type(p.type)
            if not p.required:
                kind = f"Optional {kind}"
            lines.append(f"  {'  ' if index == 0 else ', '}{p.name} : {kind}")
            if p.description:
                lines.append(f"    -- {p.description}")
        lines.append("  }")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def jsonnet(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        args = []
        for p in t.params:
            if p.required:
                args.append(p.name)
            else:
                args.append(f"{p.name}={_value(p.default) if p.has_default else 'null'}")
        lines = [f"// {t.description}"] if t.description else []
        lines.append(f"local {t.name}({', '.join(args)}) = {{")
        for p in t.params:
            lines.append(f"  {p.name}: {p.name}," + (f"  // {p.description}" if p.description else ""))
        lines.append("};")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _nix_type(t: TypeIR) -> str:
    if t.kind == "array":
        return f"listOf {_nix_type(t.item) if t.item else 'str'}"
    if t.kind == "enum":
        return "enum [ " + " ".join(json_dumps(v) for v in t.enum_values) + " ]"
    return {"number": "float", "integer": "int", "boolean": "bool", "object": "attrs"}.get(t.kind, "str")


def nix_expr(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["{ lib, ... }:", "{"]
    for t in tools:
        lines.append(f"  {t.name} = {{")
        if t.description:
            lines.append(f"    # {t.description}")
        lines.append("    options = {")
        for p in t.params:
            lines += [f"      {p.name} = lib.mkOption {{", f"        type = lib.types.{_nix_type(p.type)};"]
            if p.description:
                lines.append(f"        description = {_string(p.description)};")
            if p.has_default:
                lines.append(f"        default = {_value(p.default)};")
            elif not p.required:
                lines.append("        default = null;")
            lines.append("      };")
        lines += ["    };", "  };"]
    lines.append("}")
    return "\n".join(lines)


def kdl(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        desc = f" description={_string(t.description)}" if t.description else ""
        lines.append(f"tool {_string(t.name)}{desc} {{")
        for p in t.params:
            required = "#true" if p.required else "#false"
            line = f"    param {_string(p.name)} type={_string(config_type(p.type))} required={required}"
            if p.type.kind == "enum":
                line += f" values={_string('|'.join(plain(v) for v in p.type.enum_values))}"
            if p.description:
                line += f" doc={_string(p.description)}"
            lines.append(line)
        lines.append("}")
    return "\n".join(lines)


def _edn_param(p: FieldIR) -> str:
    text = (
        f"{{:name {quoted(p.name)} :type :{config_type(p.type)} :required {'true' if p.required else 'false'}"
    )
    if p.type.kind == "enum":
        text += " :enum #{" + " ".join(json_dumps(v) for v in p.type.enum_values) + "}"
    if p.description:
        text += f" :doc {quoted(p.description)}"
    return text + "}"


def edn(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["["]
    for t in tools:
        lines.append(f" {{:name {quoted(t.name)}")
        if t.description:
            lines.append(f"  :doc {quoted(t.description)}")
        lines.append("  :params [")
        lines += [f"    {_edn_param(p)}" for p in t.params]
        lines.append("  ]}")
    lines.append("]")
    return "\n".join(lines)


def sexpr(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        lines.append(f"(deftool {t.name}")
        if t.description:
            lines.append(f"  (doc {quoted(t.description)})")
        for p in t.params:
            line = f"  (param {p.name} {config_type(p.type)} {'required' if p.required else 'optional'}"
            if p.type.kind == "enum":
                line += " (one-of " + " ".join(json_dumps(v) for v in p.type.enum_values) + ")"
            if p.description:
                line += f" {quoted(p.description)}"
            lines.append(line + ")")
        lines.append(")")
    return "\n".join(lines)


def _starlark_attr(t: TypeIR) -> str:
    if t.kind == "array":
        return "string_list"
    return {"number": "int", "integer": "int", "boolean": "bool", "object": "string_dict"}.get(t.kind, "string")


def _starlark_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json_dumps(value)


def starlark(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"{t.name} = rule("]
        if t.description:
            lines.append(f"    doc = {_string(t.description)},")
        lines.append("    attrs = {")
        for p in t.params:
            args = [f"mandatory = {p.required}"]
            if p.type.kind == "enum":
                args.append(f"values = {_value(list(p.type.enum_values))}")
            if p.description:
                args.append(f"doc = {_string(p.description)}")
            if p.has_default:
                args.append(f"default = {_starlark_value(p.default)}")
            lines.append(f"        {_string(p.name)}: attr.{_starlark_attr(p.type)}({', '.join(args)}),")
        lines += ["    },", ")"]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


RENDERERS: dict[str, Renderer] = {
    "toml": toml,
    "ini": ini,
    "hcl": hcl,
    "cue": cue,
    "dhall": dhall,
    "jsonnet": jsonnet,
    "nix_expr": nix_expr,
    "kdl": kdl,
    "edn": edn,
    "sexpr": sexpr,
    "starlark": starlark,
}
