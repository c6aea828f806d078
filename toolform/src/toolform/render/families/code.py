"""The code family: tools as function signatures and stubs in many programming languages."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.ir.types import ordered_constraints
from toolform.render.families import Renderer
from toolform.render.options import RenderOptions
from toolform.render.types import python_return, python_type, python_value, quoted, ts_inline, ts_value
from toolform.render.values import camel, json_dumps, kebab, pascal, plain, py_repr


def signature_order(tool: ToolIR) -> list[FieldIR]:
    """Required parameters first, then optional ones, each in the tool's order."""
    return tool.required_params + tool.optional_params


# --- Python -------------------------------------------------------------------


def python_params(tool: ToolIR) -> str:
    parts = []
    for p in signature_order(tool):
        text = f"{p.name}: {python_type(p.type)}"
        if not p.required:
            text += f" = {python_value(p.default) if p.has_default else 'None'}"
        parts.append(text)
    return ", ".join(parts)


def python_def(tool: ToolIR) -> str:
    return f"def {tool.name}({python_params(tool)}) -> {python_return(tool.returns)}"


def _keys_note(t: TypeIR) -> str:
    if t.kind == "object" and t.fields:
        keys = ", ".join(f"{f.name} ({f.type.kind}{'' if f.required else ', optional'})" for f in t.fields)
        return f"Keys: {keys}."
    if t.kind == "array" and t.item is not None and t.item.kind == "object":
        return "Each item has keys: " + ", ".join(f.name for f in t.item.fields) + "."
    return ""


def _joined(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def python_stub(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for tool in tools:
        lines = [python_def(tool) + ":"]
        if options.descriptions:
            lines.append(f'    """{tool.description or tool.name}')
            if tool.params:
                lines += ["", "    Args:"]
                for p in tool.params:
                    kind = python_type(p.type) + ("" if p.required else ", optional")
                    # The keys note follows a space even without a description ("(dict):  Keys: ...").
                    keys = _keys_note(p.type)
                    note = p.description + (f" {keys}" if keys else "")
                    # The line is trimmed at its end, so is a description's trailing white space.
                    lines.append(f"        {p.name} ({kind}): {note}".rstrip())
            if tool.returns is not None:
                lines += ["", "    Returns:", f"        {tool.returns_description or 'Result of the call.'}"]
            lines.append('    """')
        lines.append("    ...")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# --- TypeScript ---------------------------------------------------------------


def ts_interfaces(prefix: str, params: list[FieldIR]) -> list[tuple[str, list[FieldIR]]]:
    """Every object among the parameters, depth first, named after its path."""
    found: list[tuple[str, list[FieldIR]]] = []
    for p in params:
        found += _ts_type_interfaces(prefix + pascal(p.name), p.type)
    return found


def _ts_type_interfaces(name: str, t: TypeIR) -> list[tuple[str, list[FieldIR]]]:
    if t.kind == "object" and t.fields:
        return [(name, t.fields), *ts_interfaces(name, t.fields)]
    if t.kind == "array" and t.item is not None:
        return _ts_type_interfaces(name + "Item", t.item)
    return []


def ts_param_type(tool: ToolIR, p: FieldIR) -> str:
    """A parameter's type in a signature: objects by their interface's name."""
    t = p.type
    if t.kind == "object" and t.fields:
        return pascal(tool.name) + pascal(p.name)
    depth, inner = 0, t
    while inner.kind == "array" and inner.item is not None:
        depth, inner = depth + 1, inner.item
    if depth and inner.kind == "object" and inner.fields:
        # A list's objects are named after the parameter, not after their Item interface.
        return pascal(tool.name) + pascal(p.name) + "[]" * depth
    return ts_inline(t)


def ts_params(tool: ToolIR) -> str:
    parts = []
    for p in signature_order(tool):
        kind = ts_param_type(tool, p)
        if p.required:
            parts.append(f"{p.name}: {kind}")
        elif p.has_default:
            parts.append(f"{p.name}: {kind} = {ts_value(p.default)}")
        else:
            parts.append(f"{p.name}?: {kind}")
    return ", ".join(parts)


def ts_return(t: TypeIR | None, unknown: str = "unknown") -> str:
    if t is None:
        return unknown
    return ts_inline(t)


def ts_interface(name: str, fields: list[FieldIR]) -> str:
    lines = [f"interface {name} {{"]
    for f in fields:
        if f.description:
            lines.append(f"  /** {f.description} */")
        lines.append(f"  {f.name}{'' if f.required else '?'}: {ts_inline(f.type)};")
    lines.append("}")
    return "\n".join(lines)


def typescript(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for tool in tools:
        for name, fields in ts_interfaces(pascal(tool.name), tool.params):
            blocks.append(ts_interface(name, fields))
        doc = [tool.description] if tool.description else []
        doc += [f"@param {p.name} - {p.description}" for p in tool.params if p.description]
        if tool.returns_description:
            doc.append(f"@returns {tool.returns_description}")
        head = ("/**\n" + "".join(f" * {line}\n" for line in doc) + " */\n") if doc else ""
        blocks.append(f"{head}declare function {tool.name}({ts_params(tool)}): {ts_return(tool.returns)};")
    return "\n\n".join(blocks)


# --- signatures in other languages -------------------------------------------


def doc_lines(tool: ToolIR) -> list[str]:
    """The description, then ``name: description`` for each described parameter."""
    lines = [tool.description] if tool.description else []
    return lines + [f"{p.name}: {p.description}" for p in tool.params if p.description]


def javadoc_lines(tool: ToolIR, tag: str = "@param") -> list[str]:
    lines = [tool.description] if tool.description else []
    lines += [f"{tag} {p.name} {p.description}" for p in tool.params if p.description]
    if tool.returns_description:
        lines.append(f"@return {tool.returns_description}")
    return lines


def block_comment(lines: list[str], opener: str = "/**") -> str:
    if not lines:
        return ""
    return opener + "\n" + "".join(f" * {line}\n" for line in lines) + " */\n"


def line_comment(lines: list[str], marker: str) -> str:
    return "".join(f"{marker}{line}\n" for line in lines)


class Language:
    """How one language names scalar kinds, wraps lists, optionals and returns."""

    def __init__(
        self,
        scalars: dict[str, str],
        array: str,
        optional: str,
        union: tuple[str, str] | None = None,
        literal_enums: bool = False,
        returns_unknown: str | None = None,
    ) -> None:
        self.scalars = scalars
        self.array = array
        self.optional = optional
        # (template, separator) for a union's members, or None to write it as "any".
        self.union = union
        self.literal_enums = literal_enums
        self.returns_unknown = returns_unknown or scalars["any"]

    def type(self, t: TypeIR | None) -> str:
        if t is None:
            return self.scalars["any"]
        if t.kind == "array":
            return self.array.format(self.type(t.item))
        if t.kind == "enum":
            if self.literal_enums:
                return " | ".join(_literal(v) for v in t.enum_values)
            return self.scalars["string"]
        if t.kind == "union":
            if self.union is None:
                return self.scalars["any"]
            template, separator = self.union
            return template.format(separator.join(self.type(u) for u in t.union_of))
        return self.scalars.get(t.kind, self.scalars["any"])

    def returns(self, t: TypeIR | None) -> str:
        return self.returns_unknown if t is None else self.type(t)

    def param_type(self, p: FieldIR) -> str:
        kind = self.type(p.type)
        return kind if p.required else self.optional.format(kind)


def _scalars(string: str, number: str, integer: str, boolean: str, obj: str, anything: str) -> dict[str, str]:
    return {"string": string, "number": number, "integer": integer, "boolean": boolean, "object": obj, "any": anything}


GO = Language(
    _scalars("string", "float64", "int", "bool", "map[string]interface{}", "interface{}"), "[]{}", "{} | null"
)
RUST = Language(
    _scalars("String", "f64", "i64", "bool", "serde_json::Value", "serde_json::Value"), "Vec<{}>", "Option<{}>"
)
JAVA = Language(
    _scalars("String", "double", "int", "boolean", "Map<String, Object>", "Object"), "List<{}>", "Optional<{}>"
)
KOTLIN = Language(_scalars("String", "Double", "Int", "Boolean", "Map<String, Any>", "Any"), "List<{}>", "{}?")
SWIFT = Language(_scalars("String", "Double", "Int", "Bool", "[String: Any]", "Any"), "[{}]", "{}?")
CSHARP = Language(
    _scalars("string", "double", "int", "bool", "Dictionary<string, object>", "object"), "List<{}>", "{}?"
)
C = Language(_scalars("const char*", "double", "int", "bool", "json_t*", "void*"), "{}*", "{}")
CPP = Language(
    _scalars("std::string", "double", "int64_t", "bool", "nlohmann::json", "std::any"),
    "std::vector<{}>",
    "std::optional<{}>",
    union=("std::variant<{}>", ", "),
)
HASKELL = Language(
    _scalars("Text", "Double", "Int", "Bool", "Object", "Value"), "[{}]", "Maybe {}", union=("Either {}", " ")
)
OCAML = Language(_scalars("string", "float", "int", "bool", "Yojson.Safe.t", "Yojson.Safe.t"), "{} list", "{} option")
SCALA = Language(
    _scalars("String", "Double", "Int", "Boolean", "Map[String, Any]", "Any"),
    "Seq[{}]",
    "Option[{}]",
    union=("{}", " | "),
)
ELIXIR = Language(
    _scalars("String.t()", "float()", "integer()", "boolean()", "map()", "any()"),
    "[{}]",
    "{} | nil",
    union=("{}", " | "),
    literal_enums=True,
)
JULIA = Language(
    _scalars("String", "Float64", "Int", "Bool", "Dict{String,Any}", "Any"),
    "Vector{{{}}}",
    "Union{{{},Nothing}}",
    union=("Union{{{}}}", ","),
)
PHP = Language(_scalars("string", "float", "int", "bool", "array", "mixed"), "array", "?{}", union=("{}", "|"))
ZIG = Language(
    _scalars("[]const u8", "f64", "i64", "bool", "std.json.Value", "anytype"),
    "[]{}",
    "?{}",
    union=("std.json.Value", ""),
    returns_unknown="anytype",
)
RUBY = Language(_scalars("String", "Float", "Integer", "Boolean", "Hash", "Object"), "Array", "{}")


def _sig(tool: ToolIR, language: Language, name: Callable[[str], str], template: str) -> str:
    return ", ".join(template.format(name=name(p.name), type=language.param_type(p)) for p in signature_order(tool))


def _ret(tool: ToolIR, language: Language) -> str:
    return language.returns(tool.returns)


def _same(name: str) -> str:
    return name


def _each(tools: list[ToolIR], one: Callable[[ToolIR], str]) -> str:
    return "\n\n".join(one(tool) for tool in tools)


def go_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            line_comment(doc_lines(t), "// ")
            + f"func {pascal(t.name)}({_sig(t, GO, pascal, '{name} {type}')}) ({_ret(t, GO)}, error)"
        ),
    )


def rust_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            line_comment(doc_lines(t), "/// ")
            + f"pub fn {t.name}({_sig(t, RUST, _same, '{name}: {type}')}) -> Result<{_ret(t, RUST)}, ToolError>;"
        ),
    )


def java_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            block_comment(javadoc_lines(t))
            + f"public {_ret(t, JAVA)} {camel(t.name)}({_sig(t, JAVA, camel, '{type} {name}')});"
        ),
    )


def kotlin_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            block_comment(javadoc_lines(t))
            + f"fun {camel(t.name)}({_sig(t, KOTLIN, camel, '{name}: {type}')}): {_ret(t, KOTLIN)}"
        ),
    )


def swift_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            line_comment(doc_lines(t), "/// ")
            + f"func {camel(t.name)}({_sig(t, SWIFT, camel, '{name}: {type}')}) -> {_ret(t, SWIFT)}"
        ),
    )


def csharp_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        doc = javadoc_lines(t)
        head = line_comment(["<summary>", *doc, "</summary>"], "/// ") if doc else ""
        return head + f"public {_ret(t, CSHARP)} {pascal(t.name)}({_sig(t, CSHARP, pascal, '{type} {name}')});"

    return _each(tools, one)


def c_header(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            block_comment(javadoc_lines(t), "/*") + f"{_ret(t, C)} {t.name}({_sig(t, C, _same, '{type} {name}')});"
        ),
    )


def cpp_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: block_comment(javadoc_lines(t)) + f"{_ret(t, CPP)} {t.name}({_sig(t, CPP, _same, '{type} {name}')});",
    )


def haskell_curried(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        head = f"-- | {t.description}\n" if t.description else ""
        head += "".join(f"--   {p.name}: {p.description}\n" for p in t.params if p.description)
        arrows = [HASKELL.param_type(p) for p in t.params] + [f"IO {_ret(t, HASKELL)}"]
        return head + f"{camel(t.name)} :: " + " -> ".join(arrows)

    return _each(tools, one)


def ocaml_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        arrows = " -> ".join(f"~{p.name}:{OCAML.param_type(p)}" for p in signature_order(t))
        return line_comment(doc_lines(t), "(* ") + f"val {t.name} : {arrows} -> {_ret(t, OCAML)}"

    return _each(tools, one)


def scala_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            block_comment(javadoc_lines(t))
            + f"def {camel(t.name)}({_sig(t, SCALA, camel, '{name}: {type}')}): {_ret(t, SCALA)}"
        ),
    )


def elixir_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        kinds = ", ".join(ELIXIR.param_type(p) for p in signature_order(t))
        return line_comment(doc_lines(t), "# ") + f"@spec {t.name}({kinds}) :: {_ret(t, ELIXIR)}"

    return _each(tools, one)


def julia_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            line_comment(doc_lines(t), "# ")
            + f"function {t.name}({_sig(t, JULIA, _same, '{name}::{type}')})::{_ret(t, JULIA)}"
        ),
    )


def ruby_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        names = ", ".join(f"{p.name}:" for p in signature_order(t))
        return line_comment(doc_lines(t), "# ") + f"def {t.name}({names}) # => {_ret(t, RUBY)}"

    return _each(tools, one)


def php_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            block_comment(javadoc_lines(t))
            + f"function {t.name}({_sig(t, PHP, _same, '{type} ${name}')}): {_ret(t, PHP)};"
        ),
    )


def lua_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        names = ", ".join(p.name for p in signature_order(t))
        return line_comment(doc_lines(t), "--- ") + f"function {t.name}({names}) end"

    return _each(tools, one)


def zig_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    return _each(
        tools,
        lambda t: (
            line_comment(doc_lines(t), "/// ")
            + f"pub fn {t.name}({_sig(t, ZIG, _same, '{name}: {type}')}) !{_ret(t, ZIG)}"
        ),
    )


def r_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        names = ", ".join(p.name for p in signature_order(t))
        return line_comment(doc_lines(t), "#' ") + f"{t.name} <- function({names})"

    return _each(tools, one)


_MATLAB = {"string": "string", "number": "double", "integer": "double", "boolean": "logical", "object": "struct"}


def _matlab_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, dict)):
        # As JSON with non-ASCII escaped, as measured.
        return json_dumps(value)
    return py_repr(value)


def matlab_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        names = ", ".join(p.name for p in t.params)
        lines = [f"function result = {t.name}({names})"]
        if t.description:
            lines.append(f"% {t.description}")
        lines.append("    arguments")
        for p in t.params:
            if p.type.kind == "enum":
                members = ", ".join(f'"{plain(v)}"' for v in p.type.enum_values)
                kind = f"string {{mustBeMember({p.name}, [{members}])}}"
            elif p.type.kind == "array":
                kind = "cell"
            else:
                kind = _MATLAB.get(p.type.kind, "string")
            line = f"        {p.name} {kind}"
            if p.has_default and not p.required:
                line += f" = {_matlab_value(p.default)}"
            if p.description:
                line += f"  % {p.description}"
            lines.append(line)
        lines += ["    end", "end"]
        return "\n".join(lines)

    return _each(tools, one)


_SQL = {
    "string": "TEXT",
    "number": "DOUBLE PRECISION",
    "integer": "INTEGER",
    "boolean": "BOOLEAN",
    "object": "JSONB",
    "enum": "TEXT",
}


def _literal(value: object) -> str:
    """An enum value as a literal type: a string between quotes as it stands, true/false, or as Python prints it
    (``None``), as measured."""
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return plain(value)


def _sql_type(t: TypeIR | None) -> str:
    if t is None:
        return "JSONB"
    if t.kind == "array":
        return _sql_type(t.item) + "[]"
    return _SQL.get(t.kind, "JSONB")


def _sql_value(value: object) -> str:
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return py_repr(value)


def sql_udf(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        columns = []
        for p in t.params:
            column = f"    {p.name} {_sql_type(p.type)}"
            if not p.required:
                column += f" DEFAULT {_sql_value(p.default) if p.has_default else 'NULL'}"
            columns.append(column)
        lines = [f"CREATE FUNCTION {t.name}(", ",\n".join(columns), f") RETURNS {_sql_type(t.returns)};"]
        if t.description:
            # The comment's text is quoted as it stands, apostrophes and all: the study measured that text
            # (docs/toolform-render.md, sql_udf).
            lines.append(f"COMMENT ON FUNCTION {t.name} IS '{t.description}';")
            # The parameters' notes follow the function's comment, and only with it.
            lines += [f"-- {p.name}: {p.description}" for p in t.params if p.description]
        return "\n".join(lines)

    return _each(tools, one)


def bash_function(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        usage = [f"--{p.name} <{p.type.kind}>" if p.required else f"[--{p.name} <{p.type.kind}>]" for p in t.params]
        lines = [f"# {t.description}"] if t.description else []
        lines.append(f"# usage: {t.name} {' '.join(usage)}")
        lines += [f"#   --{p.name}: {p.description}" for p in t.params if p.description]
        lines += [f"{t.name}() {{", "  :", "}"]
        return "\n".join(lines)

    return _each(tools, one)


# --- more Python --------------------------------------------------------------


def _python_docs(p: FieldIR) -> str:
    """A parameter's numpy-style note: its description and keys; nothing without a description."""
    return _joined(p.description, _keys_note(p.type)) if p.description else ""


def python_stub_numpy(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        lines = [python_def(t) + ":"]
        if options.descriptions:
            lines += ['    """', f"    {t.description or t.name}"]
            if t.params:
                lines += ["", "    Parameters", "    ----------"]
                for p in t.params:
                    lines.append(f"    {p.name} : {python_type(p.type)}{'' if p.required else ', optional'}")
                    if _python_docs(p):
                        lines.append(f"        {_python_docs(p)}")
            if options.returns:
                lines += ["", "    Returns", "    -------", f"    {python_return(t.returns)}"]
            if options.returns and t.returns_description:
                lines.append(f"        {t.returns_description}")
            lines.append('    """')
        lines.append("    ...")
        return "\n".join(lines)

    return _each(tools, one)


def python_signature_only(tools: list[ToolIR], options: RenderOptions) -> str:
    return "\n".join(python_def(t) for t in tools)


_PYDANTIC_CONSTRAINTS = {
    "minimum": "ge",
    "maximum": "le",
    "exclusive_minimum": "gt",
    "exclusive_maximum": "lt",
    "min_length": "min_length",
    "max_length": "max_length",
    "pattern": "pattern",
}


def python_pydantic(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = ["from pydantic import BaseModel, Field\nfrom typing import Any, Literal"]
    for t in tools:
        lines = [f"class {pascal(t.name)}(BaseModel):"]
        if t.description:
            lines.append(f'    """{t.description}"""')
        for p in t.params:
            args = ["..." if p.required else (python_value(p.default) if p.has_default else "None")]
            if p.description:
                args.append(f"description={quoted(p.description)}")
            for key, value in ordered_constraints(p.type.constraints).items():
                if key in _PYDANTIC_CONSTRAINTS:
                    args.append(f"{_PYDANTIC_CONSTRAINTS[key]}={python_value(value)}")
            lines.append(f"    {p.name}: {python_type(p.type)} = Field({', '.join(args)})")
        if not t.params:
            lines.append("    pass")
        lines += ["", f"def {t.name}(args: {pascal(t.name)}) -> Any: ..."]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def python_dataclass(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = ["from dataclasses import dataclass\nfrom typing import Any, Literal"]
    for t in tools:
        lines = ["@dataclass", f"class {pascal(t.name)}Args:"]
        if t.description:
            lines.append(f'    """{t.description}"""')
        for p in t.params:
            line = f"    {p.name}: {python_type(p.type)}"
            if not p.required:
                line += f" = {python_value(p.default) if p.has_default else 'None'}"
            lines.append(line)
            if p.description:
                lines.append(f"    # {p.description}")
        if not t.params:
            lines.append("    pass")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


_ARGPARSE = {"string": "str", "number": "float", "integer": "int"}


def python_argparse(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = ["import argparse"]
    for t in tools:
        parser = f"{t.name}_parser"
        lines = [f"{parser} = argparse.ArgumentParser(", f"    prog={python_value(t.name)},"]
        if t.description:
            lines.append(f"    description={python_value(t.description)},")
        lines.append(")")
        for p in t.params:
            kind = p.type
            args = [python_value("--" + kebab(p.name))]
            if kind.kind == "boolean":
                args.append('action="store_true"')
            elif kind.kind == "enum":
                choices = (quoted(v) if isinstance(v, str) else python_value(v) for v in kind.enum_values)
                args.append("choices=[" + ", ".join(choices) + "]")
            elif kind.kind == "array":
                item = {**_ARGPARSE, "boolean": "bool"}.get(kind.item.kind if kind.item else "string", "str")
                args += ['nargs="+"', f"type={item}"]
            else:
                args.append(f"type={_ARGPARSE.get(kind.kind, 'str')}")
            args.append(f"required={p.required}")
            if p.has_default:
                args.append(f"default={python_value(p.default)}")
            if p.description:
                args.append(f"help={quoted(p.description)}")
            lines.append(f"{parser}.add_argument({', '.join(args)})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def python_protocol(tools: list[ToolIR], options: RenderOptions) -> str:
    methods = []
    for t in tools:
        lines = [f"    def {t.name}(self{', ' if t.params else ''}{python_params(t)}) -> {python_return(t.returns)}:"]
        if t.description:
            lines.append(f'        """{t.description}"""')
            # The parameters' notes follow the docstring, and only with it.
            lines += [f"        # {p.name}: {p.description}" for p in t.params if p.description]
        lines.append("        ...")
        methods.append("\n".join(lines))
    return "from typing import Any, Literal, Protocol\n\nclass Tools(Protocol):\n" + "\n\n".join(methods)


# --- more TypeScript ----------------------------------------------------------


def typescript_dts(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["declare namespace tools {"]
    for t in tools:
        if t.description:
            # The description is wrapped to 88 columns, the parameters' lines are not.
            # Runs of white space read as one space, as measured.
            words = " ".join(t.description.split())
            # A description of white space alone leaves one empty line, as measured.
            lines += textwrap.wrap(words, 88, initial_indent="  // ", subsequent_indent="  // ") or [""]
        lines += [f"  // {p.name}: {p.description}" for p in t.params if p.description]
        lines.append(f"  function {t.name}({ts_params(t)}): {ts_return(t.returns, 'any')};")
        lines.append("")
    lines.append("}")
    return "\n".join(lines)


def typescript_interface_arg(tools: list[ToolIR], options: RenderOptions) -> str:
    def one(t: ToolIR) -> str:
        lines = [f"/** {t.description} */"] if t.description else []
        lines.append(f"interface {pascal(t.name)}Args {{")
        for p in t.params:
            if p.description:
                lines.append(f"  /** {p.description} */")
            lines.append(f"  {p.name}{'' if p.required else '?'}: {ts_inline(p.type)};")
        lines += ["}", f"declare function {t.name}(args: {pascal(t.name)}Args): {ts_return(t.returns)};"]
        return "\n".join(lines)

    return _each(tools, one)


def typescript_compact(tools: list[ToolIR], options: RenderOptions) -> str:
    return "\n".join(
        f"{t.name}(" + ", ".join(f"{p.name}{'' if p.required else '?'}: {ts_inline(p.type)}" for p in t.params) + ")"
        for t in tools
    )


RENDERERS: dict[str, Renderer] = {
    "go_signature": go_signature,
    "rust_signature": rust_signature,
    "java_signature": java_signature,
    "kotlin_signature": kotlin_signature,
    "swift_signature": swift_signature,
    "csharp_signature": csharp_signature,
    "c_header": c_header,
    "cpp_signature": cpp_signature,
    "haskell_curried": haskell_curried,
    "ocaml_signature": ocaml_signature,
    "scala_signature": scala_signature,
    "elixir_signature": elixir_signature,
    "julia_signature": julia_signature,
    "ruby_signature": ruby_signature,
    "php_signature": php_signature,
    "lua_signature": lua_signature,
    "zig_signature": zig_signature,
    "r_signature": r_signature,
    "matlab_signature": matlab_signature,
    "sql_udf": sql_udf,
    "bash_function": bash_function,
    "python_stub_numpy": python_stub_numpy,
    "python_signature_only": python_signature_only,
    "python_pydantic": python_pydantic,
    "python_dataclass": python_dataclass,
    "python_argparse": python_argparse,
    "python_protocol": python_protocol,
    "typescript_dts": typescript_dts,
    "typescript_interface_arg": typescript_interface_arg,
    "typescript_compact": typescript_compact,
    "python_stub": python_stub,
    "typescript": typescript,
}
