"""The prose family: tools described in sentences, man pages, FAQs, reference cards."""

from __future__ import annotations

from decimal import Decimal

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.render.families import Renderer
from toolform.render.options import RenderOptions
from toolform.render.types import nl_type
from toolform.render.values import first_sentence, json_dumps, kebab, lower_first, plain, sentence


def and_list(items: list[str]) -> str:
    """``a``, ``a, and b``, ``a, b, and c``: the comma before ``and`` even for two."""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + ", and " + items[-1]


def _nl_param(p: FieldIR) -> str:
    # Bounds are spelled out for the parameters a call must give.
    text = f"{p.name}, which is {nl_type(p.type, bounds=p.required)}"
    # A required parameter's default is never used, so it is not mentioned.
    if p.has_default and not p.required:
        text += f" and defaults to {plain(p.default)}"
    if p.description:
        text += f" ({sentence(p.description)})"
    return text


def natural_language(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for number, tool in enumerate(tools, 1):
        text = f"{number}. The tool {tool.name}."
        if tool.description:
            text += f" {sentence(tool.description)}."
        if tool.required_params:
            text += f" It always needs {and_list([_nl_param(p) for p in tool.required_params])}."
        if tool.optional_params:
            text += f" You may also give {and_list([_nl_param(p) for p in tool.optional_params])}."
        if tool.returns_description:
            text += f" It gives back {sentence(tool.returns_description)}."
        blocks.append(text)
    return "\n\n".join(blocks)


def _period(text: str) -> str:
    return text if text.endswith(".") else text + "."


def nl_terse(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        takes = ", ".join(p.name if p.required else f"{p.name} (optional)" for p in t.params) or "no arguments"
        lines.append(f"{t.name} — {_period(t.description or t.name)} Takes: {takes}.")
    return "\n".join(lines)


def _usage(t: ToolIR) -> str:
    return " ".join(f"--{p.name} <{p.type.kind}>" if p.required else f"[--{p.name} <{p.type.kind}>]" for p in t.params)


def nl_manpage(tools: list[ToolIR], options: RenderOptions) -> str:
    pages = []
    for t in tools:
        lines = [f"{t.name.upper()}(1)", "", "NAME", f"     {t.name} - {first_sentence(t.description)}"]
        lines += ["", "SYNOPSIS", f"     {t.name} {_usage(t)}"]
        if t.description:
            lines += ["", "DESCRIPTION", f"     {t.description}"]
        if t.params:
            lines += ["", "OPTIONS"]
            for p in t.params:
                lines.append(f"     --{p.name} <{nl_type(p.type, bounds=False)}>")
                notes = [p.description] if p.description else []
                if not p.required:
                    notes.append("Optional.")
                if p.has_default and not p.required:
                    notes.append(f"Defaults to {plain(p.default)}.")
                if notes:
                    # An optional parameter's notes start at the indent, whatever white space its description
                    # starts with; a required one's description stands as written (so does the reference).
                    joined = " ".join(notes)
                    lines.append("          " + (joined if p.required else joined.lstrip()))
        pages.append("\n".join(lines))
    return "\n\n".join(pages).rstrip()


def _cli_help_notes(p: FieldIR) -> str:
    notes = [p.description] if p.description else []
    if p.type.kind == "enum":
        notes.append("(choices: " + ", ".join(plain(v) for v in p.type.enum_values) + ")")
    if p.has_default and not p.required:
        notes.append(f"(default: {plain(p.default)})")
    if p.required:
        notes.append("[required]")
    return " ".join(notes)


def cli_help(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        flags = []
        for p in t.params:
            flag = f"--{kebab(p.name)} {p.name.upper()}"
            flags.append(flag if p.required else f"[{flag}]")
        lines = [f"usage: {t.name} " + " ".join(flags), ""]
        if t.description:
            lines += [t.description, ""]
        if t.params:
            lines.append("options:")
            for p in t.params:
                left = f"  --{kebab(p.name)} {p.name.upper()}"
                # The notes are trimmed (a description's white space at either end), the padding is not.
                lines.append(f"{left:<34}{_cli_help_notes(p).strip()}")
        blocks.append("\n".join(lines))
    # Only the end of the whole block is trimmed: a padded option line inside it keeps its spaces.
    return "\n\n".join(blocks).rstrip()


def nl_faq(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        purpose = lower_first(sentence(t.description or t.name))
        needs = ", ".join(p.name for p in t.required_params) or "no arguments"
        answer = f"A: Use {t.name}. Give it {needs}."
        if t.optional_params:
            answer += " You can also set " + ", ".join(p.name for p in t.optional_params) + "."
        lines = [f"Q: How do I {purpose}?", answer]
        lines += [
            f"   ({p.name}: {p.description} It is {nl_type(p.type, bounds=False)}.)" for p in t.params if p.description
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def nl_narrative(tools: list[ToolIR], options: RenderOptions) -> str:
    sentences = ["You have several tools available."]
    for t in tools:
        text = f"There is one called {t.name}"
        if t.description:
            text += f" which {lower_first(sentence(t.description))}"
        if t.required_params:
            text += f", and it needs {and_list([p.name for p in t.required_params])}"
        if t.optional_params:
            text += f", while {and_list([p.name for p in t.optional_params])} may be left out"
        sentences.append(text + ".")
    return " ".join(sentences)


def nl_instructional(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        purpose = lower_first(sentence(t.description or t.name))
        lines = [f"When the user wants to {purpose}, call {t.name}."]
        for p in t.params:
            head = "Always fill in" if p.required else "Only fill in"
            middle = f" {p.description}" if p.description else ""
            kind = f" It is {nl_type(p.type, bounds=False)}." if options.descriptions else ""
            lines.append(f"  {head} {p.name}.{middle}{kind}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _example(t: TypeIR, name: str, first: bool) -> object:
    if t.kind == "string":
        return f"{'example' if first else 'other'}_{name}"
    if t.kind == "number":
        return Decimal("1.5") if first else Decimal("42.0")
    if t.kind == "integer":
        return 3 if first else 11
    if t.kind == "boolean":
        return first
    if t.kind == "enum":
        values = t.enum_values
        if not values:
            return ""
        return values[0] if first or len(values) < 2 else values[1]
    if t.kind == "array":
        return ["alpha", "beta"] if first else ["gamma"]
    if t.kind == "object":
        # A field's own example comes first at every depth, as for a parameter.
        return {f.name: f.example if f.has_example else _example(f.type, f.name, first) for f in t.fields}
    return f"{'example' if first else 'other'}_{name}"


def few_shot_only(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        # A parameter's own example comes first, in both calls; the calls are JSON with non-ASCII escaped.
        full = {p.name: p.example if p.has_example else _example(p.type, p.name, True) for p in t.params}
        least = {p.name: p.example if p.has_example else _example(p.type, p.name, False) for p in t.required_params}
        lines = [
            f"# {t.name}",
            json_dumps({"name": t.name, "arguments": full}),
            json_dumps({"name": t.name, "arguments": least}),
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def nl_reference_card(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        slots = " ".join(f"<{p.name}>" if p.required else f"[{p.name}]" for p in t.params)
        line = f"{t.name} {slots}"
        lines.append(line + (f"  — {first_sentence(t.description)}" if t.description else ""))
    return "\n".join(lines)


RENDERERS: dict[str, Renderer] = {
    "nl_terse": nl_terse,
    "nl_manpage": nl_manpage,
    "cli_help": cli_help,
    "nl_faq": nl_faq,
    "nl_narrative": nl_narrative,
    "nl_instructional": nl_instructional,
    "few_shot_only": few_shot_only,
    "nl_reference_card": nl_reference_card,
    "natural_language": natural_language,
}
