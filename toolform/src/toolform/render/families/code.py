"""The code family: tools as function signatures and stubs in many programming languages."""

from __future__ import annotations

from toolform.render.families import Renderer
from toolform.render.model import Param, Tool, Type
from toolform.render.options import RenderOptions
from toolform.render.types import python_return, python_type, python_value, ts_inline, ts_value
from toolform.render.values import pascal


def signature_order(tool: Tool) -> list[Param]:
    """Required parameters first, then optional ones, each in the tool's order."""
    return tool.required + tool.optional


# --- Python -------------------------------------------------------------------


def python_params(tool: Tool) -> str:
    parts = []
    for p in signature_order(tool):
        text = f"{p.name}: {python_type(p.type)}"
        if not p.required:
            text += f" = {python_value(p.default) if p.has_default else 'None'}"
        parts.append(text)
    return ", ".join(parts)


def python_def(tool: Tool) -> str:
    return f"def {tool.name}({python_params(tool)}) -> {python_return(tool.returns)}"


def _keys_note(t: Type) -> str:
    if t.kind == "object" and t.fields:
        keys = ", ".join(f"{f.name} ({f.type.kind}{'' if f.required else ', optional'})" for f in t.fields)
        return f"Keys: {keys}."
    if t.kind == "array" and t.item is not None and t.item.kind == "object" and t.item.fields:
        return "Each item has keys: " + ", ".join(f.name for f in t.item.fields) + "."
    return ""


def _joined(*parts: str) -> str:
    return " ".join(part for part in parts if part)


def python_stub(tools: list[Tool], options: RenderOptions) -> str:
    blocks = []
    for tool in tools:
        lines = [python_def(tool) + ":"]
        if options.descriptions:
            lines.append(f'    """{tool.description or tool.name}')
            if tool.params:
                lines += ["", "    Args:"]
                for p in tool.params:
                    kind = python_type(p.type) + ("" if p.required else ", optional")
                    note = _joined(p.description, _keys_note(p.type))
                    lines.append(f"        {p.name} ({kind}):" + (f" {note}" if note else ""))
            if tool.returns is not None:
                lines += ["", "    Returns:", f"        {tool.returns_description or 'Result of the call.'}"]
            lines.append('    """')
        lines.append("    ...")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# --- TypeScript ---------------------------------------------------------------


def ts_interfaces(prefix: str, params: tuple[Param, ...]) -> list[tuple[str, tuple[Param, ...]]]:
    """Every object among the parameters, depth first, named after its path."""
    found: list[tuple[str, tuple[Param, ...]]] = []
    for p in params:
        found += _ts_type_interfaces(prefix + pascal(p.name), p.type)
    return found


def _ts_type_interfaces(name: str, t: Type) -> list[tuple[str, tuple[Param, ...]]]:
    if t.kind == "object" and t.fields:
        return [(name, t.fields), *ts_interfaces(name, t.fields)]
    if t.kind == "array" and t.item is not None:
        return _ts_type_interfaces(name + "Item", t.item)
    return []


def ts_param_type(tool: Tool, p: Param) -> str:
    """A parameter's type in a signature: objects by their interface's name."""
    t = p.type
    if t.kind == "object" and t.fields:
        return pascal(tool.name) + pascal(p.name)
    if t.kind == "array" and t.item is not None and t.item.kind == "object" and t.item.fields:
        # The array's element is named after the parameter, not its Item interface.
        return pascal(tool.name) + pascal(p.name) + "[]"
    return ts_inline(t)


def ts_params(tool: Tool) -> str:
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


def ts_return(t: Type | None) -> str:
    if t is None:
        return "unknown"
    return ts_inline(t)


def ts_interface(name: str, fields: tuple[Param, ...]) -> str:
    lines = [f"interface {name} {{"]
    for f in fields:
        if f.description:
            lines.append(f"  /** {f.description} */")
        lines.append(f"  {f.name}{'' if f.required else '?'}: {ts_inline(f.type)};")
    lines.append("}")
    return "\n".join(lines)


def typescript(tools: list[Tool], options: RenderOptions) -> str:
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


RENDERERS: dict[str, Renderer] = {
    "python_stub": python_stub,
    "typescript": typescript,
}
