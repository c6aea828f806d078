"""What the adversarial differential finds that we do not match, by name, with why and a witness seed.

Each difference says which renders it can touch (decided from the IR and the
options, never from the text that differs); ``adjust_render`` sets aside the
members the tool block decides for such a render when the two blocks differ. A
difference whose witness set no longer needs it fails its test, so the list
stays true.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toolform.render.options import convert_case

Answer = dict[str, Any]

#: The members a tool block's text decides (hidden fields and their warning are read from the block).
_FROM_THE_BLOCK = ("tool_block", "system_prompt", "messages", "chars", "tokens_estimate", "hidden_fields", "warnings")


@dataclass(frozen=True)
class OpenRenderDifference:
    name: str
    why: str
    #: Whether the difference can touch a render of this IR with these options.
    touches: Callable[[dict[str, Any], dict[str, Any]], bool]
    #: A set (adversarial.tool_set seed, identifier names) whose render still differs, and why it does.
    witness: int


def _scopes(ir: dict[str, Any]) -> Iterator[list[str]]:
    """The lists of names that share a scope: the tools', each tool's parameters', each object's fields'."""
    tools = ir.get("tools", [])
    yield [tool["name"] for tool in tools]

    def of_type(type_: dict[str, Any] | None) -> Iterator[list[str]]:
        if not isinstance(type_, dict):
            return
        fields = type_.get("fields") or []
        if fields:
            yield [f["name"] for f in fields]
        for field in fields:
            yield from of_type(field.get("type"))
        yield from of_type(type_.get("item"))
        for member in type_.get("union_of") or []:
            yield from of_type(member)

    for tool in tools:
        yield [p["name"] for p in tool.get("params", [])]
        for param in tool.get("params", []):
            yield from of_type(param.get("type"))


def names_collide(ir: dict[str, Any], options: dict[str, Any]) -> bool:
    """Two names of one scope become the same name under the options' case convention (``days``, ``days_``)."""
    convention = options.get("case_convention", "as_is")
    return any(len({convert_case(n, convention) for n in names}) < len(names) for names in _scopes(ir))


RENDER: list[OpenRenderDifference] = [
    OpenRenderDifference(
        "names-collide-under-case-convention",
        "Two names of one scope that the case convention makes one (``days`` and ``days_`` are both ``days`` in "
        "camel case): the reference keys what it writes by the converted name, so the later parameter replaces "
        "the earlier (one line, the later one's flags; a tool compared with itself), where ours writes both as "
        "they come. Neither text is right, since the model sees one name for two parameters; ours loses none. "
        "Only renders whose names collide are set aside.",
        lambda ir, options: names_collide(ir, options),
        63,
    ),
]


def adjust_render(ir: dict[str, Any], options: dict[str, Any], ours: Answer, reference: Answer) -> list[str]:
    """Set aside the block's members where an open difference touches the render and the blocks differ."""
    if ours.get("tool_block") == reference.get("tool_block"):
        return []
    for difference in RENDER:
        if difference.touches(ir, options):
            for member in _FROM_THE_BLOCK:
                ours.pop(member, None)
                reference.pop(member, None)
            return [difference.name]
    return []
