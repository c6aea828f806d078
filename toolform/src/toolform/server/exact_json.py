"""Request bodies parsed as JSON with nothing coerced: a number no float can hold is refused, by path.

Python's json module reads ``1e400`` as infinity and accepts the literals
``NaN`` and ``Infinity``, which are not JSON; passed on, such a value would come
out as something else. It also reads a lone surrogate (``"\ud800"`` escaped, or
its three raw bytes) into a string no answer, file or log can encode. Every
route's body is read by ``ExactJsonRoute`` (and the lean path by ``parse_body``),
which refuses both with 400 bad_request naming where they are.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any

import orjson
from fastapi import Request, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException


def _non_finite(value: Any, path: str) -> tuple[str, float] | None:
    """The path of the first number that is not finite, depth first, or None."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return where, item
        if isinstance(item, dict):
            stack.extend((v, f"{where}.{k}") for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(item))))
    return None


#: A lone surrogate as the body may hold one: a ``\\uD800``-``\\uDFFF`` escape, or its three raw bytes.
_MAYBE_SURROGATE = re.compile(rb"\\[uU][dD][89abAB]|\\[uU][dD][c-fC-F]|\xed[\xa0-\xbf]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(value: Any, path: str) -> str | None:
    """The path of the first string (or member name) holding a lone surrogate, depth first, or None."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return where
        elif isinstance(item, dict):
            for key in item:
                if _SURROGATE.search(key):
                    return f"{where} (a member name)"
            stack.extend((v, f"{where}.{k}") for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(item))))
    return None


#: A run of digits orjson may read otherwise than json.loads: an integer beyond 64 bits it reads as a float.
#: (Digits inside a string count too, which only sends the body to json.loads.) Found as a substring of the
#: body with every digit made "0" and every other byte a space, two passes in C where a regular expression
#: tries each byte in turn.
_DIGITS_ONLY = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_DIGITS = b"0" * 19
#: Bodies nested deeper than this are read by json.loads alone, whose depth limit (the interpreter's recursion
#: limit) is below orjson's 1,024 levels. A body with no more brackets than this is no deeper; one with more
#: (a long reply of "{" in a string, a large catalogue) is read by orjson and its nesting measured.
_ORJSON_DEEPEST = 256

#: What the request's body may hold, for ``toolform.server.far_loads``: its size in bytes, and whether it may
#: hold a ``$ref`` (the key itself, or any escape that might spell it). None outside a request.
BODY_SHAPE: ContextVar[tuple[int, bool] | None] = ContextVar("toolform_body_shape", default=None)


def request_json(body: bytes) -> Any:
    """A request's body read by ``parse_body``, its shape noted in ``BODY_SHAPE`` for the rest of the request."""
    BODY_SHAPE.set((len(body), b"$ref" in body or b"\\u" in body))
    return parse_body(body)


def parse_body(body: bytes) -> Any:
    """``body`` as JSON; raises HTTPException 400 for a number that is not finite, naming its path.

    orjson reads most bodies several times faster than json.loads, with the same
    document: it refuses what ``_parse_body_json`` would refuse or look into (a
    non-finite number or literal, a lone surrogate, invalid UTF-8, a byte order mark
    or another encoding), and the bodies where it would read otherwise (an integer
    beyond 64 bits, nesting past json.loads's depth) are not given to it. Whatever
    it refuses goes to json.loads, which answers as it always did.
    """
    if _LONG_DIGITS not in body.translate(_DIGITS_ONLY):
        try:
            document = orjson.loads(body)
        except orjson.JSONDecodeError:
            pass
        else:
            if body.count(b"[") + body.count(b"{") <= _ORJSON_DEEPEST or _nested_within(document, _ORJSON_DEEPEST):
                return document
    return _parse_body_json(body)


def _nested_within(document: Any, deepest: int) -> bool:
    """Whether no array or object of ``document`` is nested more than ``deepest`` levels deep."""
    stack: list[tuple[Any, int]] = [(document, 1)] if isinstance(document, (dict, list)) else []
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            return False
        members = item.values() if isinstance(item, dict) else item
        stack.extend((member, depth + 1) for member in members if isinstance(member, (dict, list)))
    return True


def _parse_body_json(body: bytes) -> Any:
    """``parse_body`` read by json.loads, whose hooks see every literal and number with a fraction."""
    literals: list[str] = []

    def constant(name: str) -> float:
        literals.append(name)
        return float(name.lower().replace("infinity", "inf"))

    too_large: list[str] = []

    def number(text: str) -> float:
        value = float(text)
        if math.isinf(value):
            too_large.append(text)
        return value

    # The hooks see every literal and every number with a fraction or exponent (an integer is
    # exact), so the document is walked for the path only when one of them was not finite.
    document = json.loads(body, parse_constant=constant, parse_float=number)
    # A valid pair of surrogate escapes reads as one character; only the rare body with an escape or bytes
    # that might be a lone one is walked.
    if _MAYBE_SURROGATE.search(body):
        where = _lone_surrogate(document, "$")
        if where is not None:
            raise HTTPException(
                400,
                f"{where} holds a lone surrogate (a \\ud800-\\udfff escape without its pair, or its bytes), "
                "which is not a character; send text as valid UTF-8",
            )
    if not literals and not too_large:
        return document
    found = _non_finite(document, "$")
    if found is not None:
        where, value = found
        what = f"the literal {literals[0]}, which is not JSON" if literals else "a number too large for a float"
        raise HTTPException(
            400,
            f"{where} is {what} ({value}); send a finite number, or the value as a string",
        )
    return document


class ExactJsonRequest(Request):
    """A request whose ``json()`` is ``parse_body``."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = request_json(await self.body())
        return self._json


class ExactJsonRoute(APIRoute):
    """An APIRoute whose handler reads the body through ExactJsonRequest."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def exact_handler(request: Request) -> Response:
            return await handler(ExactJsonRequest(request.scope, request.receive))

        return exact_handler
