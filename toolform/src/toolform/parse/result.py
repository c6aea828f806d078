"""What parsing a reply gives: each call with its validation, and the reply's verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The grading rules the study used: ``main`` (the paper's), ``symmetric`` and ``as_written``.
RULES: tuple[str, ...] = ("main", "symmetric", "as_written")


@dataclass
class Validation:
    """One call checked against its tool's schema; every list names the path of what is wrong."""

    unknown_tool: bool = False
    missing_required: list[str] = field(default_factory=list)
    unknown_args: list[str] = field(default_factory=list)
    type_errors: list[str] = field(default_factory=list)
    enum_errors: list[str] = field(default_factory=list)
    constraint_errors: list[str] = field(default_factory=list)

    @property
    def n_errors(self) -> int:
        return (
            int(self.unknown_tool)
            + len(self.missing_required)
            + len(self.unknown_args)
            + len(self.type_errors)
            + len(self.enum_errors)
            + len(self.constraint_errors)
        )

    @property
    def ok(self) -> bool:
        return self.n_errors == 0

    def to_dict(self) -> dict[str, Any]:
        # The lists are copied once and counted from the copies (the count is ``n_errors``).
        missing, unknown, types = list(self.missing_required), list(self.unknown_args), list(self.type_errors)
        enums, constraints = list(self.enum_errors), list(self.constraint_errors)
        n_errors = int(self.unknown_tool) + len(missing) + len(unknown) + len(types) + len(enums) + len(constraints)
        return {
            "ok": n_errors == 0,
            "unknown_tool": self.unknown_tool,
            "missing_required": missing,
            "unknown_args": unknown,
            "type_errors": types,
            "enum_errors": enums,
            "constraint_errors": constraints,
            "n_errors": n_errors,
        }


@dataclass
class RawCall:
    """A call as a protocol's parser read it: the name and arguments as written (text values converted)."""

    name: str
    arguments: dict[str, Any]


@dataclass
class ParsedCall:
    """One call: as written, the tool it names, its arguments normalised for comparison, and its validation.

    ``repairs`` names each repair that was needed to read it (``lenient:<protocol>``
    when it was read in another protocol's syntax). A call to a tool that does not
    exist is not accepted; ``reason`` says why.
    """

    name: str
    arguments: dict[str, Any]
    resolved_name: str | None
    normalized_arguments: dict[str, Any] | None
    validation: Validation
    repairs: list[str] = field(default_factory=list)
    accepted: bool = True
    reason: str = ""

    @property
    def valid(self) -> bool:
        return self.validation.ok

    def to_dict(self) -> dict[str, Any]:
        validation = self.validation.to_dict()
        return {
            "name": self.name,
            "arguments": self.arguments,
            "resolved_name": self.resolved_name,
            "normalized_arguments": self.normalized_arguments,
            "valid": validation["ok"],
            "validation": validation,
            "repairs": list(self.repairs),
            "accepted": self.accepted,
            "reason": self.reason,
        }


@dataclass
class ParsedReply:
    """A reply parsed under a protocol and a grading rule.

    ``ok`` is false when a call was rejected, a tool name was invented
    (``hallucinated``), or a call failed validation; a reply with no call is ok
    only when it says that no tool applies (``no_call_declared``).
    ``matched_syntax`` is the protocol whose syntax the calls were found in
    (``explicit-no-call`` for a declared refusal, empty when nothing was found);
    ``format_compliant`` is false when the calls came in another protocol's syntax.
    """

    protocol_id: str
    rule: str
    calls: list[ParsedCall] = field(default_factory=list)
    rejected: list[ParsedCall] = field(default_factory=list)
    parsed_strict: bool = False
    parsed_lenient: bool = False
    matched_syntax: str = ""
    format_compliant: bool = True
    no_call_declared: bool = False
    hallucinated: list[str] = field(default_factory=list)
    reasoning_removed: bool = False
    note: str = ""
    validated: bool = True

    @property
    def ok(self) -> bool:
        if self.rejected or self.hallucinated:
            return False
        if self.validated and any(not call.valid for call in self.calls):
            return False
        return bool(self.calls) or self.no_call_declared

    @property
    def accepted_calls(self) -> list[ParsedCall]:
        """The calls a loop may make: accepted, and valid when the reply was validated."""
        return [c for c in self.calls if c.accepted and (c.valid or not self.validated)]

    def to_dict(self) -> dict[str, Any]:
        calls = [c.to_dict() for c in self.calls]
        # ``ok``, read from the calls' dicts rather than counting each call's errors again.
        if self.rejected or self.hallucinated or (self.validated and not all(c["valid"] for c in calls)):
            ok = False
        else:
            ok = bool(calls) or self.no_call_declared
        return {
            "protocol_id": self.protocol_id,
            "rule": self.rule,
            "ok": ok,
            "calls": calls,
            "rejected": [c.to_dict() for c in self.rejected],
            "parsed_strict": self.parsed_strict,
            "parsed_lenient": self.parsed_lenient,
            "matched_syntax": self.matched_syntax,
            "format_compliant": self.format_compliant,
            "no_call_declared": self.no_call_declared,
            "hallucinated": list(self.hallucinated),
            "reasoning_removed": self.reasoning_removed,
            "note": self.note,
        }
