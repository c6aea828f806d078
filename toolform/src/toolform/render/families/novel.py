"""The novel family: the study's own inventions (contrast, decision trees, graphs, slots, layers)."""

from __future__ import annotations

from decimal import Decimal

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.render.families import Renderer
from toolform.render.options import RenderOptions, convert_case
from toolform.render.values import first_sentence, indented_json, json_dumps, plain, sentence


def novel_type(t: TypeIR) -> str:
    """``{a: string, b: x|y}``, ``string[]``, ``1|2``: types as the novel formats write them."""
    if t.kind == "object":
        return "{" + ", ".join(f"{f.name}: {novel_type(f.type)}" for f in t.fields) + "}"
    if t.kind == "array":
        return (novel_type(t.item) if t.item else "any") + "[]"
    if t.kind == "enum":
        return "|".join(plain(v) for v in t.enum_values)
    if t.kind == "union":
        return " or ".join(novel_type(u) for u in t.union_of)
    return t.kind


def signature(t: ToolIR, name: str | None = None) -> str:
    """``name(a: string, b: integer?)``."""
    params = ", ".join(f"{p.name}: {novel_type(p.type)}{'' if p.required else '?'}" for p in t.params)
    return f"{name or t.name}({params})"


def purpose(t: ToolIR) -> str:
    """What the tool is for, as words after "to": its first sentence, all lowered; its name without one."""
    return first_sentence(t.description).lower() if t.description else t.name


def whole_purpose(t: ToolIR) -> str:
    """The whole description lowered, without its final full stop; the name without one."""
    return sentence(t.description or t.name).lower()


def domain_of(t: ToolIR) -> str:
    return t.domain or "generic"


def _domains(tools: list[ToolIR]) -> dict[str, list[ToolIR]]:
    grouped: dict[str, list[ToolIR]] = {}
    for t in tools:
        grouped.setdefault(domain_of(t), []).append(t)
    return grouped


def _overlap(a: ToolIR, b: ToolIR) -> float:
    names_a, names_b = {p.name for p in a.params}, {p.name for p in b.params}
    union = names_a | names_b
    return len(names_a & names_b) / len(union) if union else 0.0


def nearest(tool: ToolIR, others: list[ToolIR]) -> ToolIR:
    """The other tool whose parameter names overlap ``tool``'s most (Jaccard); the first of equals."""
    return max(others, key=lambda other: _overlap(tool, other))


def _nearest_each(tools: list[ToolIR]) -> list[ToolIR]:
    """``nearest(t, the others)`` for every tool, with each tool's parameter names gathered once rather than
    once per pair (the pairs grow with the square of the tool set)."""
    names = [frozenset(p.name for p in t.params) for t in tools]
    out: list[ToolIR] = []
    for i, t in enumerate(tools):
        best: ToolIR | None = None
        best_overlap = 0.0
        for j, other in enumerate(tools):
            if other is t:
                continue
            union = names[i] | names[j]
            overlap = len(names[i] & names[j]) / len(union) if union else 0.0
            # Strictly greater: the first of equals, as max() keeps it.
            if best is None or overlap > best_overlap:
                best, best_overlap = other, overlap
        out.append(best if best is not None else t)
    return out


def contrastive(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    nearest_of = _nearest_each(tools) if len(tools) > 1 else []
    for index, t in enumerate(tools):
        lines = [signature(t)]
        if t.description:
            lines.append(f"  does: {t.description}")
        if len(tools) > 1:
            other = nearest_of[index]
            mine = {p.name for p in t.params}
            extra = [p.name for p in other.params if p.name not in mine]
            goal = sentence(other.description).lower() if other.description else other.name
            when = f"you also need {', '.join(extra)}" if extra else f"the goal is {goal}"
            lines.append(f"  not: {other.name} — use that one instead when {when}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def decision_tree(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["Pick a branch, then a leaf. The leaf names the tool and its arguments.", ""]
    for domain, members in _domains(tools).items():
        lines.append(f"IF the request is about {domain}:")
        for t in members:
            args = ", ".join(f"{p.name}={novel_type(p.type)}{'' if p.required else ' (may omit)'}" for p in t.params)
            goal = first_sentence(t.description).lower() if t.description else t.name
            lines.append(f"    IF the goal is to {goal}")
            lines.append(f"        THEN call {t.name} with {args or 'no arguments'}")
    return "\n".join(lines)


def _short_name(t: ToolIR) -> str:
    prefix = domain_of(t) + "_"
    return t.name[len(prefix) :] if t.name.startswith(prefix) and len(t.name) > len(prefix) else t.name


def namespaced(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for domain, members in _domains(tools).items():
        lines = [f"{domain} {{"]
        for t in members:
            line = "  " + signature(t, _short_name(t))
            lines.append(line + (f"  // {t.description}" if t.description else ""))
            lines.append(f"  # full name: {t.name}")
        lines.append("}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def diff_schema(tools: list[ToolIR], options: RenderOptions) -> str:
    if not tools:
        return ""
    base = tools[0]
    lines = [f"BASE {base.name}"]
    for p in base.params:
        line = f"  {'!' if p.required else '?'}{p.name}: {novel_type(p.type)}"
        lines.append(line + (f"  # {p.description}" if p.description else ""))
    shown = {(p.name, novel_type(p.type), p.required) for p in base.params}
    base_names = {p.name for p in base.params}
    for t in tools[1:]:
        lines.append(f"{t.name} = BASE with:")
        mine = {p.name for p in t.params}
        for p in t.params:
            if (p.name, novel_type(p.type), p.required) not in shown:
                # "~" changes a base parameter, "+" adds one.
                mark = "~" if p.name in base_names else "+"
                lines.append(f"  {mark}{'!' if p.required else '?'}{p.name}: {novel_type(p.type)}")
        lines += [f"  -{p.name}" for p in base.params if p.name not in mine]
        if t.description:
            lines.append(f"  # {t.description}")
    return "\n".join(lines)


def slot_template(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        slots = {
            p.name: f"<{novel_type(p.type)}>"
            if p.required
            else f"<{novel_type(p.type)}, optional — delete this line if unused>"
            for p in t.params
        }
        head = f"// {t.description}\n" if t.description else ""
        blocks.append(head + indented_json({"name": t.name, "arguments": slots}, 2))
    return "\n\n".join(blocks)


def state_graph(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["Each line is an edge: REQUIRES -> tool -> PROVIDES", ""]
    for t in tools:
        needs = ", ".join(f"{p.name}:{novel_type(p.type)}" for p in t.required_params) or "nothing"
        # A description whose first sentence is empty ("...") gives empty brackets, as the reference writes them.
        gives = t.returns_description or (first_sentence(t.description) if t.description else "a result")
        lines.append(f"[{needs}] -> {t.name} -> [{gives}]")
        if t.optional_params:
            lines.append("    optional inputs: " + ", ".join(p.name for p in t.optional_params))
        if t.description:
            lines.append(f"    note: {t.description}")
    return "\n".join(lines)


_NAMED_OTHERS = 2


def negative_space(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [signature(t)]
        if t.description:
            lines.append(f"  use when: {t.description}")
        # At most two other tools are named.
        others = [o for o in tools if o is not t][:_NAMED_OTHERS]
        lines += [f"  do not use when: {purpose(o)} (use {o.name})" for o in others]
        lines.append("  do not use when: the request needs no tool at all")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def progressive(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["=== LAYER 1: what exists ==="]
    lines += [f"{t.name}: {first_sentence(t.description)}" for t in tools]
    lines += ["", "=== LAYER 2: argument names ==="]
    for t in tools:
        required = " ".join(p.name for p in t.required_params)
        optional = " ".join(f"[{p.name}]" for p in t.optional_params)
        lines.append(f"{t.name}: {required} {optional}".rstrip())
    lines += ["", "=== LAYER 3: full detail ==="]
    for t in tools:
        lines.append(t.name)
        for p in t.params:
            line = f"  {p.name} ({novel_type(p.type)}, {'required' if p.required else 'optional'})"
            if p.description:
                line += f": {p.description}"
            if p.has_default:
                line += f" default={plain(p.default)}"
            lines.append(line)
    return "\n".join(lines)


def _dialogue_value(p: FieldIR) -> object:
    if p.has_example:
        return p.example
    t = p.type
    if t.kind == "object":
        return {f.name: _dialogue_value(f) for f in t.fields}
    if t.kind == "number":
        return Decimal("7.5")
    if t.kind == "integer":
        return 7
    if t.kind == "boolean":
        return True
    if t.kind == "enum":
        return t.enum_values[0] if t.enum_values else ""
    if t.kind == "array":
        return ["item_one"]
    if t.kind == "object":
        return {}
    return f"the_{p.name}"


def worked_dialogue(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        call = {"name": t.name, "arguments": {p.name: _dialogue_value(p) for p in t.required_params}}
        wanted = sentence(t.description).lower() if t.description else t.name
        lines = [f"User: I need to {wanted}.", f"Assistant: {json_dumps(call)}"]
        if t.optional_params:
            more = ", ".join(f"{p.name}={novel_type(p.type)}" for p in t.optional_params)
            lines.append(f"  (you may also pass: {more})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# Names that get a question of their own, tried in this order (a name containing the word).
_QUESTIONS = (
    ("count", "How many?"),
    ("limit", "How many results at most?"),
    ("query", "What are you searching for?"),
    ("amount", "How much?"),
    ("city", "Which city?"),
    ("date", "Which date?"),
    ("name", "What name?"),
    ("id", "Which id?"),
)


def question(p: FieldIR) -> str:
    """The question a slot asks for a parameter."""
    for word, asked in _QUESTIONS:
        if word in p.name:
            return asked
    words = p.name.replace("_", " ")
    if p.type.kind == "boolean":
        return f"Should {words} be on?"
    if p.type.kind in ("number", "integer"):
        return f"How much {words}?"
    if p.type.kind == "enum":
        return f"Which {words}?"
    return f"What is the {words}?"


def question_slots(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"To {whole_purpose(t)}, call {t.name} and answer:"]
        for p in t.params:
            line = f"  - {question(p)} ({novel_type(p.type)}, {'required' if p.required else 'optional'})"
            lines.append(line + (f" — {p.description}" if p.description else ""))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def type_indexed(tools: list[ToolIR], options: RenderOptions) -> str:
    accepted: dict[tuple[str, str], list[str]] = {}
    for t in tools:
        for p in t.params:
            key = (p.name, novel_type(p.type))
            accepted.setdefault(key, []).append(t.name if p.required else f"{t.name} (optional there)")
    lines = ["ARGUMENTS -> TOOLS THAT ACCEPT THEM"]
    lines += [f"  {name}: {kind} -> {', '.join(users)}" for (name, kind), users in accepted.items()]
    lines += ["", "TOOLS -> THEIR REQUIRED ARGUMENTS"]
    for t in tools:
        line = f"  {t.name}: {', '.join(p.name for p in t.required_params) or 'none'}"
        lines.append(line + (f"  // {t.description}" if t.description else ""))
    return "\n".join(lines)


_SYMBOLS = {"string": "§", "integer": "#", "number": "%", "boolean": "¿"}


def symbol(t: TypeIR) -> str:
    """A type as the emoji format's symbols: ``§``, ``≡§``, ``¤(a§,b#)``, ``⟦x/y⟧``."""
    if t.kind == "array":
        return "≡" + (symbol(t.item) if t.item else "*")
    if t.kind == "object":
        return "¤(" + ",".join(f"{f.name}{symbol(f.type)}" for f in t.fields) + ")"
    if t.kind == "enum":
        return "⟦" + "/".join(plain(v) for v in t.enum_values) + "⟧"
    return _SYMBOLS.get(t.kind, "*")


_LEGEND = "Legend: § text  # whole number  % number  ¿ true/false  ≡ list  ¤ object  ★ required  ☆ optional"


def emoji_semantic(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = [_LEGEND, ""]
    for t in tools:
        slots = " ".join(f"{'★' if p.required else '☆'}{p.name}{symbol(p.type)}" for p in t.params)
        lines.append(f"{t.name} {slots}" + (f"  ⟨{t.description}⟩" if t.description else ""))
    return "\n".join(lines)


_CHECKS = (
    "Before you emit a call, check:",
    "  1. the tool name is copied exactly from the list above",
    "  2. every argument without a '?' is present",
    "  3. no argument is present that is not listed for that tool",
    "  4. enum values are copied exactly from the choices shown",
    "  5. numbers are numbers, not strings",
)


def checklist(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        lines.append(signature(t))
        if t.description:
            lines.append(f"  {t.description}")
    return "\n".join([*lines, "", *_CHECKS])


def capability_matrix(tools: list[ToolIR], options: RenderOptions) -> str:
    columns: list[str] = []
    kinds: dict[str, str] = {}
    for t in tools:
        for p in t.params:
            if p.name not in kinds:
                columns.append(p.name)
                kinds[p.name] = novel_type(p.type)
    first = max((len(t.name) for t in tools), default=0)
    header = f"{'tool'.ljust(first)} | " + " | ".join(columns)
    # The rule is three dashes longer than a row of the table.
    rule = "-" * (first + sum(len(c) + 3 for c in columns) + 3)
    lines = ["Legend: R = required, o = optional, . = not accepted", "", header, rule]
    for t in tools:
        # A column is marked for the parameter of its name, else for one whose name is the column's in snake
        # case (``cD`` marks ``c_d``, ``a_`` marks ``a``), as the reference marks it.
        marks = {p.name: "R" if p.required else "o" for p in t.params}
        snake = {convert_case(name, "snake"): mark for name, mark in marks.items()}
        cells = [(marks.get(c) or snake.get(convert_case(c, "snake"), ".")).ljust(len(c)) for c in columns]
        lines.append(f"{t.name.ljust(first)} | " + " | ".join(cells))
    lines += ["", "argument types: " + ", ".join(f"{c}={kinds[c]}" for c in columns)]
    # With descriptions on, the blank line comes even when no tool has one to list after it.
    if options.descriptions:
        lines += ["", *(f"{t.name}: {t.description}" for t in tools if t.description)]
    return "\n".join(lines)


RENDERERS: dict[str, Renderer] = {
    "contrastive": contrastive,
    "decision_tree": decision_tree,
    "namespaced": namespaced,
    "diff_schema": diff_schema,
    "slot_template": slot_template,
    "state_graph": state_graph,
    "negative_space": negative_space,
    "progressive": progressive,
    "worked_dialogue": worked_dialogue,
    "question_slots": question_slots,
    "type_indexed": type_indexed,
    "emoji_semantic": emoji_semantic,
    "checklist": checklist,
    "capability_matrix": capability_matrix,
}
