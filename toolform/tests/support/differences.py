"""Every difference we mean between our server and the reference's, by name, with why. The one place.

The differential harness (test_differential.py) sends the same request to both
servers and compares status and JSON members; before comparing, each
difference below that applies to the request adjusts the two answers. A
difference that no request needed fails the harness, so this list stays true.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Path = tuple[str | int, ...]


@dataclass
class Answer:
    """One server's answer: status and parsed JSON body (None when the body is not JSON)."""

    status: int
    body: Any


@dataclass(frozen=True)
class Request:
    """One request as both servers get it: JSON ``body``, or ``raw`` bytes with ``headers``."""

    method: str
    path: str
    body: Any = None
    raw: bytes | None = None
    headers: tuple[tuple[str, str], ...] = ()


Adjust = Callable[[Request, Answer, Answer], bool]


@dataclass
class Difference:
    """A difference we mean: which requests it touches, how it adjusts the answers, and why."""

    name: str
    why: str
    route: str
    adjust: Adjust
    #: A request that needs this difference: the harness checks that it still does.
    witness: Request
    applied: int = field(default=0, compare=False)

    def applies_to(self, request: Request) -> bool:
        return re.fullmatch(self.route, f"{request.method} {request.path.split('?')[0]}") is not None


def _pop(body: Any, path: Path) -> bool:
    """Remove the member at ``path`` (``"*"`` for every list element); True when something was removed."""
    if not path:
        return False
    head, rest = path[0], path[1:]
    if head == "*" and isinstance(body, list):
        return any([_pop(item, rest) for item in body])
    if isinstance(body, dict) and head in body:
        if rest:
            return _pop(body[head], rest)
        del body[head]
        return True
    return False


def ours_adds(*path: str | int) -> Adjust:
    """Our answer carries a member the reference's does not."""

    def adjust(_request: Request, ours: Answer, _reference: Answer) -> bool:
        return _pop(ours.body, path)

    return adjust


def ours_lacks(*path: str | int) -> Adjust:
    """The reference's answer carries a member ours does not (yet)."""

    def adjust(_request: Request, _ours: Answer, reference: Answer) -> bool:
        return _pop(reference.body, path)

    return adjust


def both_differ(*path: str | int) -> Adjust:
    """Both carry the member; its value is ours by design."""

    def adjust(_request: Request, ours: Answer, reference: Answer) -> bool:
        return _pop(ours.body, path) & _pop(reference.body, path)

    return adjust


def unknown_source_lists_flow(_request: Request, ours: Answer, reference: Answer) -> bool:
    """The unknown-source detail lists one more source (flow) in ours."""
    detail = ours.body.get("detail") if isinstance(ours.body, dict) else None
    if isinstance(detail, str) and detail.startswith("unknown tools source ") and detail.endswith(", flow"):
        ours.body["detail"] = detail.removesuffix(", flow")
        return True
    return False


def flow_is_a_source(request: Request, ours: Answer, reference: Answer) -> bool:
    """A request naming source flow: ours reads it (or refuses the listing), the reference refuses the name."""
    tools = request.body.get("tools") if isinstance(request.body, dict) else None
    if not (isinstance(tools, dict) and tools.get("source") == "flow"):
        return False
    ours.body = reference.body = None
    ours.status = reference.status = 0
    return True


def parser_refusal_is_json(_request: Request, ours: Answer, reference: Answer) -> bool:
    """A request the HTTP parser refuses: both 400, the reference's body is uvicorn's plain text."""
    if ours.status == reference.status == 400 and reference.body is None and isinstance(ours.body, dict):
        ours.body = None
        return True
    return False


def non_finite_refused(_request: Request, ours: Answer, reference: Answer) -> bool:
    """A number no float holds (1e400, NaN): ours refuses it by path, the reference reads it as null."""
    detail = ours.body.get("detail") if isinstance(ours.body, dict) else None
    if not (ours.status == 400 and isinstance(detail, str)):
        return False
    if "a number too large for a float" in detail or "which is not JSON" in detail:
        ours.body = reference.body = None
        ours.status = reference.status = 0
        return True
    return False


_TOO_LARGE = (
    b'{"tools": {"source": "openai", "payload": [{"type": "function", "function": {"name": "a", '
    b'"parameters": {"type": "object", "properties": {"x": {"type": "number", "default": 1e400}}}}}]}}'
)

# -- the tools IR, loaders and export ------------------------------------------------------------------

_REFERENCE_WARNING = re.compile(r"tool '(?P<tool>[^']*)': (?P<message>.*)")
_OUR_WARNING = re.compile(r"tool '(?P<tool>[^']*)' at (?P<paths>.*?): (?P<message>.*)")


def _covers(ours: list[Any], reference: list[Any]) -> bool:
    """Every reference warning ("tool 'f': M") has one of ours for the same tool and message ("tool 'f' at $.a: M")."""
    said = set()
    for text in ours:
        match = _OUR_WARNING.fullmatch(text) if isinstance(text, str) else None
        if match:
            said.add((match["tool"], match["message"]))
    for text in reference:
        match = _REFERENCE_WARNING.fullmatch(text) if isinstance(text, str) else None
        if not match or (match["tool"], match["message"]) not in said:
            return False
    return True


def loader_warnings_name_every_loss(_request: Request, ours: Answer, reference: Answer) -> bool:
    """Ours warns about more, with paths; each of the reference's warnings is among ours."""
    if not (isinstance(ours.body, dict) and isinstance(reference.body, dict)):
        return False
    mine, theirs = ours.body.get("warnings"), reference.body.get("warnings")
    if not (isinstance(mine, list) and isinstance(theirs, list)) or mine == theirs or not _covers(mine, theirs):
        return False
    for body in (ours.body, reference.body):
        body["warnings"] = []
        summary = body.get("summary")
        if isinstance(summary, dict):
            summary["warnings"] = []
    return True


def loader_error_wording(_request: Request, ours: Answer, reference: Answer) -> bool:
    """Both refuse with loader_error (and the same line, when known); the sentences are ours."""
    bodies = (ours.body, reference.body)
    if not all(isinstance(b, dict) and b.get("error") == "loader_error" for b in bodies):
        return False
    if ours.body.get("detail") == reference.body.get("detail"):
        return False
    ours.body.pop("detail", None)
    reference.body.pop("detail", None)
    return True


_NOT_JSON_TEXT = re.compile(r"an? \w+ payload must be JSON, not text")


def text_payload_wording(_request: Request, ours: Answer, reference: Answer) -> bool:
    """A JSON shape's payload given as text that is no JSON array or object: 400 in both; ours says how to send it."""
    bodies = (ours.body, reference.body)
    if not all(isinstance(b, dict) and b.get("error") == "bad_request" for b in bodies):
        return False
    mine, theirs = ours.body.get("detail"), reference.body.get("detail")
    if not (isinstance(mine, str) and isinstance(theirs, str) and _NOT_JSON_TEXT.fullmatch(theirs)):
        return False
    if mine == theirs or not _NOT_JSON_TEXT.match(mine):
        return False
    ours.body["detail"] = theirs
    return True


def typescript_syntax_is_refused(request: Request, ours: Answer, reference: Answer) -> bool:
    """TypeScript the compiler's parser refuses: ours 422 with the line, the reference reads what it finds."""
    tools = request.body.get("tools") if isinstance(request.body, dict) else None
    detail = ours.body.get("detail", "") if isinstance(ours.body, dict) else ""
    if not (isinstance(tools, dict) and tools.get("source") in ("typescript", "auto") and ours.status == 422):
        return False
    if not (isinstance(detail, str) and detail.startswith("TypeScript syntax error") and reference.status == 200):
        return False
    ours.body = reference.body = None
    ours.status = reference.status = 0
    return True


def _export_payload_tools(body: Any) -> list[Any]:
    payload = body.get("payload") if isinstance(body, dict) else None
    if isinstance(payload, dict):
        payload = payload.get("tools")
    return payload if isinstance(payload, list) else []


def _walk_schemas(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        found.append(node)
        for value in node.values():
            found += _walk_schemas(value)
    elif isinstance(node, list):
        for value in node:
            found += _walk_schemas(value)
    return found


def export_writes_examples(request: Request, ours: Answer, reference: Answer) -> bool:
    """Ours writes a field's example as JSON Schema examples (read back by every loader); the reference drops it."""
    if not isinstance(request.body, dict) or request.body.get("to") == "ir":
        return False
    changed = False
    for schema in _walk_schemas(_export_payload_tools(ours.body)):
        if "examples" in schema and isinstance(schema["examples"], list) and len(schema["examples"]) == 1:
            del schema["examples"]
            changed = True
    return changed


def export_types_enums_by_value(_request: Request, ours: Answer, reference: Answer) -> bool:
    """An enum with no base: ours types it by its values, the reference writes type string whatever they are."""
    changed = False
    for mine, theirs in zip(
        _walk_schemas(_export_payload_tools(ours.body)),
        _walk_schemas(_export_payload_tools(reference.body)),
        strict=False,
    ):
        if "enum" in mine and mine.get("enum") == theirs.get("enum") and mine.get("type") != theirs.get("type"):
            mine["type"] = theirs.get("type")
            changed = True
    return changed


def supports_constraints_as_rendered(_request: Request, ours: Answer, reference: Answer) -> bool:
    """Every format record's supports_constraints: ours as its rendered text shows, the reference's as claimed."""
    def records(body: Any) -> list[Any]:
        if isinstance(body, dict) and isinstance(body.get("formats"), list):
            return list(body["formats"])
        return [body] if isinstance(body, dict) and "supports_constraints" in body else []

    changed = False
    for mine, theirs in zip(records(ours.body), records(reference.body), strict=False):
        if isinstance(mine, dict) and isinstance(theirs, dict) and "supports_constraints" in mine:
            if mine["supports_constraints"] != theirs.get("supports_constraints"):
                mine["supports_constraints"] = theirs.get("supports_constraints")
                changed = True
    return changed


_ENUM_IR = {"name": "f", "params": [{"name": "a", "type": {"kind": "enum", "enum_values": [1, 2]}}]}
_EXAMPLE_IR = {"name": "f", "params": [{"name": "a", "type": {"kind": "string"}, "example": "x"}]}


DIFFERENCES: list[Difference] = [
    Difference(
        "supports-constraints-as-rendered",
        "A format's supports_constraints says whether its rendered text shows any bound, length, item count, "
        "pattern or format (23 of 133 do); the study's registry, which the reference serves, claims 128.",
        r"GET /api/v1/formats(/[^/]+)?",
        supports_constraints_as_rendered,
        Request("GET", "/api/v1/formats/markdown_table"),
    ),
    Difference(
        "evidence-lists-local-store",
        "Our /evidence lists the local evidence store (measurements this installation made, labelled "
        "local:<file>) beside the study's manifest; the reference has no local evidence.",
        r"GET /api/v1/evidence",
        ours_adds("local"),
        Request("GET", "/api/v1/evidence"),
    ),
    Difference(
        "framework-version",
        "Ours is another package with its own version; the evidence version is the same.",
        r"GET /(api/v1/(health|version))?",
        lambda r, o, f: both_differ("version")(r, o, f) | both_differ("framework")(r, o, f),
        Request("GET", "/api/v1/version"),
    ),
    Difference(
        "health-evidence-state",
        "Our /health says whether the evidence is present and verified (ok, missing or failed), "
        "since our server starts without it; the reference always ships its evidence.",
        r"GET /api/v1/health",
        ours_adds("evidence"),
        Request("GET", "/api/v1/health"),
    ),
    Difference(
        "export-warnings",
        "Our export says what the target shape could not carry ($ref it could not inline, "
        "recursion, sizes); the reference's answer has only to and payload.",
        r"POST /api/v1/tools/export",
        ours_adds("warnings"),
        Request(
            "POST",
            "/api/v1/tools/export",
            {"tools": {"source": "mcp", "payload": {"tools": [{"name": "a"}]}}, "to": "openai"},
        ),
    ),
    Difference(
        "flow-source",
        "Ours reads Flow listings (source flow, decisions section 4); the reference does not know the "
        "name, and its list of sources in the unknown-source message lacks it.",
        r"POST /api/v1/tools/(load|export)",
        lambda r, o, f: flow_is_a_source(r, o, f) or unknown_source_lists_flow(r, o, f),
        Request("POST", "/api/v1/tools/load", {"tools": {"source": "xyz", "payload": []}}),
    ),
    Difference(
        "unparsable-request-shape",
        "A request the HTTP parser refuses (a Content-Length that is not a number) is 400 in both; "
        "ours answers in the API's error shape, the reference in uvicorn's plain text.",
        r"[A-Z]+ .*",
        parser_refusal_is_json,
        Request("POST", "/api/v1/tools/load", raw=b"{}", headers=(("Content-Length", "abc"),)),
    ),
    Difference(
        "non-finite-numbers-refused",
        "A number no float can hold (1e400) or the literals NaN and Infinity, which are not JSON: ours "
        "refuses the body with 400 naming the member's path; the reference reads the value as null, silently.",
        r"POST /api/v1/tools/(load|export)",
        non_finite_refused,
        Request("POST", "/api/v1/tools/load", raw=_TOO_LARGE, headers=(("Content-Type", "application/json"),)),
    ),
    Difference(
        "loader-warnings-name-every-loss",
        "Our loaders warn about every part they do not read faithfully (a dropped null, keyword or value, a cut "
        "recursion, an unresolved $ref), with the tool and the path; the reference warns only of unknown types, "
        "and each of its warnings is among ours.",
        r"POST /api/v1/tools/load",
        loader_warnings_name_every_loss,
        Request(
            "POST",
            "/api/v1/tools/load",
            {
                "tools": {
                    "source": "openai",
                    "payload": [
                        {
                            "type": "function",
                            "function": {
                                "name": "f",
                                "parameters": {
                                    "type": "object",
                                    "properties": {"a": {"type": "string", "multipleOf": 2}},
                                },
                            },
                        }
                    ],
                }
            },
        ),
    ),
    Difference(
        "loader-error-wording",
        "Loader refusals are loader_error 422 in both, with the same line; our sentences say what to change, "
        "and do not carry the reference's '(inline input)' label.",
        r"POST /api/v1/tools/(load|export)",
        loader_error_wording,
        Request("POST", "/api/v1/tools/load", {"tools": {"source": "auto", "payload": {}}}),
    ),
    Difference(
        "text-payload-wording",
        "A JSON shape's payload given as text that cannot be a JSON array or object is bad_request 400 in both; "
        "ours says how to send the tools (and writes 'an openai', not 'a openai').",
        r"POST /api/v1/tools/(load|export)",
        text_payload_wording,
        Request("POST", "/api/v1/tools/load", {"tools": {"source": "openai", "payload": "not json"}}),
    ),
    Difference(
        "typescript-syntax-is-refused",
        "TypeScript is read by the TypeScript compiler's parser: text it refuses is a loader_error naming the "
        "line; the reference reads the declarations it recognises and ignores the rest.",
        r"POST /api/v1/tools/(load|export)",
        typescript_syntax_is_refused,
        Request(
            "POST",
            "/api/v1/tools/load",
            {"tools": {"source": "typescript", "payload": "function f(a: string): void;\nf(: ;"}},
        ),
    ),
    Difference(
        "export-writes-examples",
        "A field's example is exported as JSON Schema examples, which every loader reads back, so an export "
        "round-trips with the same fingerprint; the reference drops it.",
        r"POST /api/v1/tools/export",
        export_writes_examples,
        Request("POST", "/api/v1/tools/export", {"tools": {"source": "ir", "payload": [_EXAMPLE_IR]}, "to": "openai"}),
    ),
    Difference(
        "export-types-enums-by-value",
        "An IR enum with no base is exported typed by its values (integer for [1, 2]); the reference writes "
        "type string, which no value of it satisfies.",
        r"POST /api/v1/tools/export",
        export_types_enums_by_value,
        Request("POST", "/api/v1/tools/export", {"tools": {"source": "ir", "payload": [_ENUM_IR]}, "to": "openai"}),
    ),
]


def adjust(request: Request, ours: Answer, reference: Answer) -> list[str]:
    """Apply every difference that touches ``request``; the names of those that changed something."""
    used = []
    for difference in DIFFERENCES:
        if difference.applies_to(request) and difference.adjust(request, ours, reference):
            difference.applied += 1
            used.append(difference.name)
    return used


# -- the SDK outside HTTP -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SdkDifference:
    """A difference we mean in a loader the server does not offer (python), compared through the CLI."""

    name: str
    why: str


PYTHON_DATES_ARE_FORMATTED_STRINGS = SdkDifference(
    "python-dates-are-formatted-strings",
    "A datetime, date, time or UUID hint is read as a string with its format (as both loaders read a "
    "TypeScript Date); the reference reads it as any value.",
)


def python_dates_are_formatted_strings(ours: Any, reference: Any) -> bool:
    """Where ours has a formatted string and the reference any value, make ours the reference's."""
    changed = False
    if isinstance(ours, dict) and isinstance(reference, dict):
        if (
            ours.get("kind") == "string"
            and reference.get("kind") == "any"
            and set(ours.get("constraints", {})) == {"format"}
            and ours["constraints"]["format"] in ("date-time", "date", "time", "uuid")
        ):
            ours.clear()
            ours.update(reference)
            return True
        for key in ours.keys() & reference.keys():
            changed |= python_dates_are_formatted_strings(ours[key], reference[key])
    elif isinstance(ours, list) and isinstance(reference, list):
        for a, b in zip(ours, reference, strict=False):
            changed |= python_dates_are_formatted_strings(a, b)
    return changed
