"""The vendor family: tools as model vendors' chat templates and agent frameworks present them."""

from __future__ import annotations

from typing import Any

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.render.families import Renderer
from toolform.render.families.json_family import flat_function, openai_function
from toolform.render.json_schema import param_schema, parameters_schema
from toolform.render.options import RenderOptions
from toolform.render.types import quoted
from toolform.render.values import capitalized, indented_json, json_dumps


def _without_returns(entry: dict[str, Any]) -> dict[str, Any]:
    function = entry.get("function")
    if isinstance(function, dict):
        function.pop("returns", None)
    entry.pop("returns", None)
    return entry


def _one_line(value: Any) -> str:
    return json_dumps(value, ensure_ascii=False)


def _minifiable(value: Any, options: RenderOptions) -> str:
    """Indented JSON, or with no optional space when the options minify."""
    return json_dumps(value, separators=(",", ":")) if options.minify else indented_json(value, 2)


def hermes_block(tools: list[ToolIR]) -> str:
    listed = "\n".join(_one_line(_without_returns(openai_function(t))) for t in tools)
    return f"<tools>\n{listed}\n</tools>"


def hermes_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    return hermes_block(tools)


_QWEN_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n"
)


def qwen_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    return _QWEN_HEAD + hermes_block(tools)


def llama3_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    listed = indented_json([flat_function(t) for t in tools], 4)
    return (
        "Here is a list of functions in JSON format that you can invoke.\n\n"
        + listed
        + "\n\nShould you decide to return the function call(s), put it in the format of "
        "[func1(params_name=params_value), func2(...)]"
    )


def mistral_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    return "[AVAILABLE_TOOLS] " + _one_line([openai_function(t) for t in tools]) + " [/AVAILABLE_TOOLS]"


_COMMAND_R = {"string": "str", "number": "float", "integer": "int", "boolean": "bool", "object": "Dict"}


def _command_r_type(t: TypeIR) -> str:
    if t.kind == "array":
        return f"List[{_command_r_type(t.item) if t.item else 'str'}]"
    return _COMMAND_R.get(t.kind, "str")


def command_r_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        params = []
        for p in t.params:
            text = f"{p.name}: {_command_r_type(p.type)}"
            if not p.required:
                # Defaults are written as JSON, as Command R's template does.
                text += f" = {json_dumps(p.default) if p.has_default else 'null'}"
            params.append(text)
        lines = [f"def {t.name}({', '.join(params)}) -> List[Dict]:", '    """']
        if t.description:
            lines.append(f"    {t.description}")
        if t.params:
            lines += ["", "    Args:"]
            for p in t.params:
                kind = _command_r_type(p.type) + ("" if p.required else ", optional")
                lines.append(f"        {p.name} ({kind}): {p.description}")
        lines += ['    """', "    pass", ""]
        blocks.append("\n".join(lines))
    return "```python\n" + "\n".join(blocks) + "\n```"


def _react_args(t: ToolIR) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for p in t.params:
        entry: dict[str, Any] = {"title": p.name, "type": p.type.kind.value}
        if p.description:
            entry["description"] = p.description
        args[p.name] = entry
    return args


def react_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = [f"{t.name}: {t.description}, args: {_one_line(_react_args(t))}" for t in tools]
    names = ", ".join(t.name for t in tools)
    return (
        "\n".join(lines)
        + "\n\nUse the following format:\nThought: think about what to do\n"
        + f"Action: the action to take, one of [{names}]\nAction Input: the input to the action as JSON"
    )


def mcp_manifest(tools: list[ToolIR], options: RenderOptions) -> str:
    listed = [_without_returns(flat_function(t, "input_schema")) for t in tools]
    return _minifiable({"jsonrpc": "2.0", "id": 1, "result": {"tools": listed}}, options)


def toolformer_inline(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["You can call these APIs inline, written as [name(arg=value)]:"]
    for t in tools:
        args = ", ".join(f"{p.name}=<{p.type.kind}>" for p in t.params)
        lines.append(f"  [{t.name}({args})]" + (f" — {t.description}" if t.description else ""))
    return "\n".join(lines)


def _gorilla_argument(p: FieldIR, options: RenderOptions) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": p.type.kind.value, "required": p.required}
    if options.descriptions:
        entry["description"] = p.description
    return entry


def _xlam_argument(p: FieldIR) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": p.type.kind.value, "required": p.required}
    if p.description:
        entry["description"] = p.description
    if p.has_default:
        entry["default"] = p.default
    if p.type.kind == "enum":
        entry["enum"] = list(p.type.enum_values)
    return entry


def gorilla_api(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        entry: dict[str, Any] = {
            "domain": t.domain or "generic",
            "api_name": t.name,
            "api_call": f"{t.name}(" + ", ".join(f"{p.name}=..." for p in t.params) + ")",
            "api_arguments": {p.name: _gorilla_argument(p, options) for p in t.params},
        }
        if t.description:
            entry["functionality"] = t.description
        lines.append(_one_line(entry))
    return "\n".join(lines)


def glaive_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    listed = "\n".join(indented_json(_without_returns(flat_function(t)), 4) for t in tools)
    return "You are a helpful assistant with access to the following functions. Use them if required -\n" + listed


def xlam_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    listed = []
    for t in tools:
        entry: dict[str, Any] = {
            "name": t.name,
            "parameters": {p.name: _xlam_argument(p) for p in t.params},
        }
        if t.description:
            entry["description"] = t.description
        listed.append(entry)
    return _minifiable(listed, options)


def granite_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    return "<|tool|>" + _one_line([flat_function(t) for t in tools])


def dspy_signature(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"class {capitalized(t.name)}(dspy.Signature):"]
        if t.description:
            lines.append(f'    """{t.description}"""')
        for p in t.params:
            # Without a description the reference still writes the comma: "InputField(, required=False)".
            args = f"desc={quoted(p.description)}" if p.description else ""
            if not p.required:
                args += ", required=False"
            lines.append(f"    {p.name} = dspy.InputField({args})")
        lines.append('    result = dspy.OutputField(desc="tool output")')
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def openai_responses(tools: list[ToolIR], options: RenderOptions) -> str:
    listed = []
    for t in tools:
        entry: dict[str, Any] = {"name": t.name}
        if t.description:
            entry["description"] = t.description
        entry["parameters"] = {**parameters_schema(t), "additionalProperties": False}
        entry["type"] = "function"
        entry["strict"] = True
        listed.append(entry)
    return indented_json(listed, 2)


def langchain_tools(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        names = ", ".join(p.name for p in t.params)
        args = {p.name: param_schema(p) for p in t.params}
        lines.append(f"{t.name}({names}) - {t.description}, args: {_one_line(args)}")
    return "\n".join(lines)


def watt_tool_tags(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        params = ",".join(f"{p.name}:{p.type.kind}{'' if p.required else '?'}" for p in t.params)
        lines.append(f"{t.name}({params})" + (f"|{t.description}" if t.description else ""))
    return "<|tools|>\n" + "\n".join(lines) + "\n<|/tools|>"


RENDERERS: dict[str, Renderer] = {
    "hermes_tools": hermes_tools,
    "qwen_tools": qwen_tools,
    "llama3_tools": llama3_tools,
    "mistral_tools": mistral_tools,
    "command_r_tools": command_r_tools,
    "react_tools": react_tools,
    "mcp_manifest": mcp_manifest,
    "toolformer_inline": toolformer_inline,
    "gorilla_api": gorilla_api,
    "glaive_tools": glaive_tools,
    "xlam_tools": xlam_tools,
    "granite_tools": granite_tools,
    "dspy_signature": dspy_signature,
    "openai_responses": openai_responses,
    "langchain_tools": langchain_tools,
    "watt_tool_tags": watt_tool_tags,
}
