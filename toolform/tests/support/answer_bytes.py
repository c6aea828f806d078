"""The parse and render answers' bytes, as the application sends them, digested by group.

The groups: the parse corpus by protocol, the benchmark's long replies, replies to
seeded generated tool sets (arguments of every kind drawn from each tool's schema,
right and wrong, in every protocol, under every rule), render/compare of the
benchmark's 200 tools and of smaller seeded sets, and every format rendered for
those sets one by one. Each request goes to the application in process (the lean
path and FastAPI, as a server runs them), and a group's digest is the SHA-256 of
its answers' status and bytes in order.
``server/test_answer_bytes.py`` holds them to ``data/answer_bytes.json``;

    cd toolform/tests && ../../.venv/bin/python -m support.answer_bytes --write

writes that file again, for a change that is meant to change an answer.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

from starlette.types import Message, Scope

from support import toolsets
from support.parse_corpus import GOOD, PROTOCOLS, corpus, write
from support.paths import DATA, TOOLFORM

DIGESTS = DATA / "answer_bytes.json"

#: How many seeded tool sets the generated parse and render groups read.
PARSE_SEEDS = 24
RENDER_SEEDS = 4
LONG_REPEAT = 100  # as benches/toolform/parse.py: two calls per repeat


Request = tuple[str, dict[str, Any]]


def _call(app: Any, path: str, body: dict[str, Any]) -> bytes:
    """One POST to the application in process: its status and body bytes."""
    payload = json.dumps(body).encode()
    scope: Scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"content-length", str(len(payload)).encode()),
                    (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
    }  # fmt: skip
    messages: list[Message] = []
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": payload, "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        messages.append(message)

    asyncio.run(app(scope, receive, send))
    start, *bodies = messages
    return str(start["status"]).encode() + b" " + b"".join(m.get("body", b"") for m in bodies)


# -- generated replies ----------------------------------------------------------------------------------

_TEXTS = ["Denver", "  Mixed Case  ", "", "a b", "draft", "DRAFT", "naïve 東京", "x" * 50, "3", "true", "null"]


def _value(rng: random.Random, schema: Any, depth: int = 0) -> Any:
    """A value for ``schema``: mostly of its type, sometimes of another, as models write them."""
    if not isinstance(schema, dict) or rng.random() < 0.15:
        return _any(rng, depth)
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"] and rng.random() < 0.8:
        member = rng.choice(schema["enum"])
        return member.upper() if isinstance(member, str) and rng.random() < 0.3 else member
    for union in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(union), list) and schema[union]:
            return _value(rng, rng.choice(schema[union]), depth)
    kind = schema.get("type")
    if isinstance(kind, list) and kind:
        kind = rng.choice(kind)
    if kind == "string":
        return rng.choice(_TEXTS)
    if kind == "integer":
        return rng.choice([0, 3, -1, 30, 10**12, 2.0])
    if kind == "number":
        return rng.choice([0, 2.5, -0.125, 1e9, 7])
    if kind == "boolean":
        return rng.choice([True, False, "yes", 0])
    if kind == "null":
        return None
    if kind == "array" and depth < 3:
        return [_value(rng, schema.get("items"), depth + 1) for _ in range(rng.randint(0, 3))]
    if kind == "object" and depth < 3:
        return _arguments(rng, schema, depth + 1)
    return _any(rng, depth)


def _any(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(_TEXTS)
    if roll < 0.5:
        return rng.choice([1, -7, 0.5, 12.75])
    if roll < 0.6:
        return rng.choice([True, False])
    if roll < 0.7:
        return None
    if roll < 0.85 and depth < 3:
        return [rng.choice(_TEXTS), rng.randint(0, 9)]
    return {"k": rng.choice(_TEXTS)} if depth < 3 else "deep"


def _arguments(rng: random.Random, schema: Any, depth: int = 0) -> dict[str, Any]:
    """Arguments for an object schema: some properties left out, now and then one it does not declare."""
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    out: dict[str, Any] = {}
    for name, sub in properties.items():
        if rng.random() < 0.8:
            out[name] = _value(rng, sub, depth)
    if rng.random() < 0.2:
        out[rng.choice(["extra", "note", "city"])] = _value(rng, {}, depth)
    return out


def generated_parse(seed: int) -> Iterator[Request]:
    """Replies calling a seeded tool set's tools (and an invented one), in every protocol."""
    rng = random.Random(seed)
    tools = toolsets.tool_set(seed)
    payload = toolsets.openai_list(tools)
    for protocol in PROTOCOLS:
        calls = []
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.1:
                calls.append(("made_up_tool", {"q": "x"}))
                continue
            tool = rng.choice(tools)
            name = tool.name.upper() if rng.random() < 0.1 else tool.name
            calls.append((name, _arguments(rng, tool.parameters)))
        written_in = protocol if rng.random() < 0.8 else rng.choice(PROTOCOLS)
        try:
            text = write(written_in, calls)
        except (TypeError, ValueError, KeyError):
            continue
        body: dict[str, Any] = {"tools": {"source": "openai", "payload": payload}, "text": text, "protocol": protocol}
        body["rule"] = rng.choice(["main", "symmetric", "as_written"])
        if rng.random() < 0.2:
            body["validate"] = False
        if body["rule"] != "as_written" and rng.random() < 0.4:
            body["lenient_fallback"] = True
        yield "/api/v1/parse", body


def long_replies() -> Iterator[Request]:
    """The long replies of benches/toolform/parse.py: each protocol's two calls repeated, ~200 calls."""
    from support.parse_corpus import TOOLS

    second = ("send_email", {"to": "a@b.c", "subject": "Hi"})
    for protocol in PROTOCOLS:
        if protocol == "nl_intent":
            continue
        text = write(protocol, [GOOD, second] * LONG_REPEAT)
        yield "/api/v1/parse", {"tools": {"source": "openai", "payload": TOOLS}, "text": text, "protocol": protocol}


def _format_ids() -> list[str]:
    formats = json.loads((TOOLFORM / "src" / "toolform" / "evidence_data" / "formats.json").read_text())
    return list(formats["data"])


def render_compare(seed: int, count: int | None) -> Iterator[Request]:
    """render/compare of a seeded tool set over every format (seed 7 and 200 tools: the benchmark's body)."""
    tools = toolsets.openai_list(toolsets.tool_set(seed, count))
    yield "/api/v1/render/compare", {"tools": {"source": "openai", "payload": tools}, "formats": _format_ids(),
                                     "options": {}}  # fmt: skip


def render_each(seed: int) -> Iterator[Request]:
    """Every format rendered for a seeded tool set, under options drawn from the seed."""
    rng = random.Random(seed)
    tools = toolsets.openai_list(toolsets.tool_set(seed))
    for format_id in _format_ids():
        options = {
            "descriptions": rng.random() < 0.8,
            "constraints": rng.random() < 0.8,
            "defaults": rng.random() < 0.8,
            "minify": rng.random() < 0.3,
            "case_convention": rng.choice(["as_is", "as_is", "snake", "camel", "pascal", "kebab", "screaming"]),
        }
        body = {"tools": {"source": "openai", "payload": tools}, "format": format_id, "options": options}
        if rng.random() < 0.3:
            body["request"] = "Forecast for Denver"
        yield "/api/v1/render", body


def groups() -> Iterator[tuple[str, Iterator[Request]]]:
    """Every group's name and requests, in a fixed order."""
    by_protocol: dict[str, list[Request]] = {}
    for case in corpus():
        by_protocol.setdefault(case.protocol, []).append(("/api/v1/parse", case.body()))
    for protocol, requests in by_protocol.items():
        yield f"parse corpus {protocol}", iter(requests)
    yield "parse long replies", long_replies()
    for seed in range(PARSE_SEEDS):
        yield f"parse generated {seed}", generated_parse(seed)
    yield "render/compare benchmark", render_compare(7, 200)
    for seed in range(RENDER_SEEDS):
        yield f"render/compare generated {seed}", render_compare(100 + seed, None)
        yield f"render generated {seed}", render_each(100 + seed)


def digests() -> dict[str, str]:
    """Each group's digest, and its number of requests, as ``"<count> <sha256>"``."""
    from toolform.server import Settings, create_app

    app = create_app(Settings())
    out = {}
    for name, requests in groups():
        digest, count = hashlib.sha256(), 0
        for path, body in requests:
            answer = _call(app, path, body)
            digest.update(len(answer).to_bytes(8, "big") + answer)
            count += 1
        out[name] = f"{count} {digest.hexdigest()}"
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {DIGESTS.name} again")
    arguments = parser.parse_args()
    found = digests()
    if arguments.write:
        DIGESTS.write_text(json.dumps(found, indent=1) + "\n")
    print(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
