"""What each export target accepts: the table the exporters check every tool against.

- ``$ref``/``$defs``: no export writes one. The IR holds every schema inlined
  (OpenAI strict mode takes ``$defs``, but OpenAI-compatible servers and some
  Claude gateways refuse or drop them); a recursive schema was cut where the
  loader stopped following it, and the export says so.
- ``oneOf``: unions are written as ``anyOf`` everywhere (OpenAI strict mode
  refuses ``oneOf``).
- formats: OpenAI strict mode accepts date-time, time, date, duration, email,
  hostname, ipv4, ipv6 and uuid; Anthropic and MCP pass any format to the model.
- names: OpenAI and Anthropic ``^[a-zA-Z0-9_-]{1,64}$``; MCP 1 to 128 of
  ``[A-Za-z0-9_.-]``.
- descriptions: OpenAI at most 1024 characters; Anthropic and MCP set no limit.
- returns: MCP's ``outputSchema`` carries an object return type; OpenAI and
  Anthropic have no place for one.

docs/toolform-tools.md has the same table for people.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """One export target's limits. None means the target sets no limit there."""

    name: str
    name_pattern: re.Pattern[str] | None
    name_rule: str
    description_max: int | None
    formats: frozenset[str] | None
    carries_returns: bool
    json_schema: bool


OPENAI_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})

TARGETS: dict[str, Target] = {
    "openai": Target(
        "openai",
        re.compile(r"[a-zA-Z0-9_-]{1,64}"),
        "1 to 64 letters, digits, '_' or '-'",
        1024,
        OPENAI_FORMATS,
        False,
        True,
    ),
    "anthropic": Target(
        "anthropic", re.compile(r"[a-zA-Z0-9_-]{1,64}"), "1 to 64 letters, digits, '_' or '-'", None, None, False, True
    ),
    "mcp": Target(
        "mcp", re.compile(r"[A-Za-z0-9_.-]{1,128}"), "1 to 128 letters, digits, '_', '-' or '.'", None, None, True, True
    ),
    "ir": Target("ir", None, "any text", None, None, True, False),
}
