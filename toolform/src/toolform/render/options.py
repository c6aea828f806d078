"""Render options, and how each reshapes the IR before any format sees it.

Every option but ``minify`` is a change to the tools themselves (a description
dropped, a name re-cased), so each renderer renders whatever it is given and
the options apply the same way to all 133 formats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal, get_args

from toolform.ir import FieldIR, ToolIR, TypeIR

CaseConvention = Literal["as_is", "snake", "camel", "pascal", "kebab", "screaming"]
CASE_CONVENTIONS: tuple[str, ...] = get_args(CaseConvention)


@dataclass(frozen=True)
class RenderOptions:
    """What a rendering shows: the reference's options, with its defaults."""

    descriptions: bool = True
    constraints: bool = True
    defaults: bool = True
    returns: bool = True
    minify: bool = False
    case_convention: CaseConvention = "as_is"


#: Where a name breaks into chunks; a chunk with no ASCII word in it is kept whole (``東京``, ``é``).
_CHUNK_BREAK = re.compile(r"[\s_\-]+")
#: The ASCII words of a chunk: an acronym before a capitalised word (``HTTP`` of ``HTTPServer``), a word
#: with its trailing digits (``x1``), digits with the letters after them (``1b``), a run of capitals.
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z][a-z0-9]*|[0-9][a-z0-9]*|[A-Z]+")


def _words(name: str) -> list[str]:
    words: list[str] = []
    for chunk in _CHUNK_BREAK.split(name):
        if chunk:
            words += _WORD.findall(chunk) or [chunk]
    return words


def convert_case(name: str, convention: str) -> str:
    """``name`` in ``convention``; ``as_is`` leaves it untouched."""
    if convention == "as_is":
        return name
    words = _words(name)
    if not words:
        return name
    lower = [w.lower() for w in words]
    if convention == "snake":
        return "_".join(lower)
    if convention == "kebab":
        return "-".join(lower)
    if convention == "screaming":
        return "_".join(w.upper() for w in lower)
    # str.capitalize titles the first letter (ǅ, Ss for ß, Fi for the ligature) and lowers the rest.
    if convention == "pascal":
        return "".join(w.capitalize() for w in lower)
    if convention == "camel":
        return lower[0] + "".join(w.capitalize() for w in lower[1:])
    raise ValueError(f"unknown case convention {convention!r}; use one of {', '.join(CASE_CONVENTIONS)}")


def _type(t: TypeIR, options: RenderOptions, drop_defaults: bool) -> TypeIR:
    # Inside an array's items or a union's members the reference keeps the fields' defaults whatever
    # ``defaults`` says (measured); descriptions, constraints and names change there too.
    return replace(
        t,
        constraints=t.constraints if options.constraints else {},
        fields=[_param(f, options, drop_defaults) for f in t.fields],
        item=_type(t.item, options, False) if t.item is not None else None,
        union_of=[_type(u, options, False) for u in t.union_of],
    )


def _param(p: FieldIR, options: RenderOptions, drop_defaults: bool = True) -> FieldIR:
    defaults = options.defaults or not drop_defaults
    return replace(
        p,
        name=convert_case(p.name, options.case_convention),
        type=_type(p.type, options, drop_defaults),
        description=p.description if options.descriptions else "",
        default=p.default if defaults else None,
        # An example goes with both the descriptions and the defaults, as the reference drops it (measured).
        example=p.example if options.descriptions and defaults else None,
    )


#: Options that change no tool: everything shown, names as they are (``minify`` is the renderers' own).
_SHOWS_ALL = RenderOptions()


def apply_options(tools: list[ToolIR], options: RenderOptions) -> list[ToolIR]:
    """The tools as the options want them shown: new IR objects where an option changes something. The
    renderers only read the IR, so options that change nothing give the tools back as they are rather than
    a copy of every type and parameter."""
    if replace(options, minify=False) == _SHOWS_ALL:
        return list(tools)
    return [
        replace(
            tool,
            name=convert_case(tool.name, options.case_convention),
            description=tool.description if options.descriptions else "",
            params=[_param(p, options) for p in tool.params],
            returns=tool.returns if options.returns else None,
            returns_description=tool.returns_description if options.returns and options.descriptions else "",
        )
        for tool in tools
    ]
