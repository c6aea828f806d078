"""Each tool checked against a target's table: what the target refuses or cannot carry, as warnings.

Nothing is renamed or cut: a name or description the target refuses is the
caller's to change, and the warning says how.
"""

from __future__ import annotations

from toolform.export.targets import Target
from toolform.ir import USER, Kind, ToolIR, TypeIR
from toolform.loaders.notes import Notes, child


def check(tool: ToolIR, target: Target, notes: Notes) -> None:
    """Note every part of ``tool`` that ``target`` refuses or drops."""
    if target.name_pattern is not None and not target.name_pattern.fullmatch(tool.name):
        notes.add(
            tool.name, "$", f"{target.name} refuses this name: a tool name there is {target.name_rule}; rename the tool"
        )
    if target.description_max is not None and len(tool.description) > target.description_max:
        notes.add(
            tool.name,
            "$",
            f"the description has {len(tool.description)} characters; {target.name} accepts at most "
            f"{target.description_max}: shorten it",
        )
    for p in tool.params:
        _check_type(tool.name, p.type, child("$", p.name), target, notes)
    if not target.json_schema:
        return
    lost = []
    if (tool.domain, tool.category, tool.origin) != (USER, USER, USER):
        lost.append("domain, category and origin")
    if tool.returns is not None and not (target.carries_returns and tool.returns.kind is Kind.OBJECT):
        lost.append("the return type" + (" (MCP's outputSchema must be an object)" if target.carries_returns else ""))
    if tool.returns_description and not (
        target.carries_returns and tool.returns is not None and tool.returns.kind is Kind.OBJECT
    ):
        lost.append("returns_description")
    if tool.examples:
        lost.append("examples")
    if tool.tags:
        lost.append("tags")
    extra = [k for k in tool.annotations if not (target.name == "mcp" and k == "mcp")]
    if extra:
        lost.append("annotations " + ", ".join(repr(k) for k in extra))
    if lost:
        notes.add(
            tool.name, "$", f"{target.name} has no place for {', '.join(lost)}; dropped (the IR export keeps them)"
        )


def _check_type(tool: str, t: TypeIR, path: str, target: Target, notes: Notes) -> None:
    if t.cut == "recursion":
        notes.add(
            tool,
            path,
            "the schema here was recursive: it cannot be inlined, and was read as any value below this depth",
        )
    elif t.cut == "depth":
        notes.add(tool, path, "the schema nested too deep to read; it is any value below here")
    fmt = t.constraints.get("format")
    if target.formats is not None and isinstance(fmt, str) and fmt not in target.formats:
        notes.add(
            tool,
            path,
            f"{target.name} strict mode does not accept format {fmt!r} "
            f"(it accepts {', '.join(sorted(target.formats))})",
        )
    for f in t.fields:
        _check_type(tool, f.type, child(path, f.name), target, notes)
    if t.item is not None:
        _check_type(tool, t.item, f"{path}[*]", target, notes)
    for i, member in enumerate(t.union_of):
        _check_type(tool, member, f"{path}|{i}", target, notes)
