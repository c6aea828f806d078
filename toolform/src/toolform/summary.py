"""The summary of a tool set, as the reference gives it, and its fingerprint.

The fingerprint is the reference's (found by running it): each tool's dict form
as JSON with sorted keys, Python's default separators and ASCII escapes,
hashed with SHA-256 and cut to 16 hex digits; those digests joined in order and
hashed the same way. So it changes with anything the IR holds (a description's
trailing space, a parameter's order) and with nothing it does not hold (the
shape the tools came in).

The tier estimate places each tool on the study's complexity tiers
(``tiers.json``) by what it nests: 5 when three levels deep or with two unions,
4 at two levels or one union, 3 at one level (an object or an array), 2 with an
optional parameter or an enum, else 1; the set's tier is its highest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from toolform import jsontext
from toolform.ir import Kind, ToolIR, ToolSet

FINGERPRINT_DIGITS = 16


@dataclass(frozen=True)
class Summary:
    """What a person checks first about a tool set."""

    n_tools: int
    names: list[str]
    source: str
    tier_estimate: int
    max_depth: int
    desc_chars: int
    fingerprint: str
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "n_tools": self.n_tools,
            "names": list(self.names),
            "source": self.source,
            "tier_estimate": self.tier_estimate,
            "max_depth": self.max_depth,
            "desc_chars": self.desc_chars,
            "fingerprint": self.fingerprint,
            "warnings": list(self.warnings),
        }


def summarize(toolset: ToolSet, warnings: Iterable[str] = (), source: str | None = None) -> Summary:
    """The summary of ``toolset``; ``source`` defaults to the shape it was read from."""
    tools = list(toolset)
    return Summary(
        n_tools=len(tools),
        names=[t.name for t in tools],
        source=source or toolset.source,
        tier_estimate=max((tool_tier(t) for t in tools), default=1),
        max_depth=max((tool_depth(t) for t in tools), default=0),
        desc_chars=sum(description_chars(t) for t in tools),
        fingerprint=fingerprint(tools),
        warnings=list(warnings),
    )


def fingerprint(tools: Iterable[ToolIR]) -> str:
    """The tool set's fingerprint: 16 hex digits (the reference's definition, above)."""
    digests = "".join(_digest(canonical_json(tool.to_dict())) for tool in tools)
    return _digest(digests)


def tool_fingerprint(tool: ToolIR) -> str:
    """One tool's own digest, the part of the set's fingerprint that it contributes."""
    return _digest(canonical_json(tool.to_dict()))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:FINGERPRINT_DIGITS]


def canonical_json(value: object) -> str:
    """JSON as Python's ``json.dumps(value, sort_keys=True)`` writes it, Decimals included.

    A Decimal is written as the float it equals when one does (so a set read
    with exact numbers fingerprints as the reference's float-read one), else
    with every digit.
    """
    return jsontext.write(value, sort_keys=True, decimal_as_float=True)


def tool_depth(tool: ToolIR) -> int:
    """How deep the tool's parameters nest (0 for flat scalars)."""
    return max((p.type.depth() for p in tool.params), default=0)


def tool_tier(tool: ToolIR) -> int:
    """The study's complexity tier (1 to 5) this tool falls in."""
    depth = tool_depth(tool)
    types = tool.types()
    unions = sum(1 for t in types if t.kind is Kind.UNION)
    if depth >= 3 or unions >= 2:
        return 5
    if depth >= 2 or unions >= 1:
        return 4
    if depth >= 1:
        return 3
    if any(not p.required for p in tool.params) or any(t.kind is Kind.ENUM for t in types):
        return 2
    return 1


def description_chars(tool: ToolIR) -> int:
    """Characters of the tool's description and its parameters' (top level only, as the reference counts)."""
    return len(tool.description) + sum(len(p.description) for p in tool.params)
