"""The lean path: the hot POST routes answered ahead of FastAPI's routing, dependency solving and responses.

On a small request such as one reply to parse, FastAPI's machinery (the
router's match over every route, the dependency solver, the request objects,
the exception middleware) costs several times the work the request asks for
(docs/toolform-performance.md). A lean route does only what that machinery
does for a body the route accepts: read the body, parse it as exact JSON,
validate it with the route's own request model, call the route's ``answer``,
write the JSON.

Anything else goes to FastAPI with the body it sent, replayed: a body that is
not JSON, a content type other than ``application/json``, a body the model
refuses (so the 422 keeps FastAPI's detail), another method or path. So the
answers, statuses and error shapes are those of the declared routes, which
stay as they are and still make /openapi.json. An error the route's work
raises gets the response FastAPI's handlers would give it; a bug propagates,
as it does from a route, to the server's error middleware (500 internal_error).

Adding a route is one line of ``toolform.server.app.lean_routes``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toolform.errors import ToolFormError
from toolform.server import work_pool
from toolform.server.errors import error_response, http_error_response
from toolform.server.exact_json import request_json
from toolform.server.exact_response import json_bytes


@dataclass(frozen=True)
class LeanRoute:
    """A POST route answered on the lean path: its request model, its answer, how the answer is written."""

    #: The route's request body model, the one its FastAPI declaration validates with.
    model: type[BaseModel]
    #: The route's answer to a valid body: a JSON-ready value.
    answer: Callable[[Any], Any]
    #: The answer as the route's response class writes it.
    write: Callable[[Any], bytes] = json_bytes
    #: Answer and write in a worker thread, as FastAPI runs a route declared with ``def`` (long work off the
    #: event loop).
    in_thread: bool = False
    #: Answer in a worker process (``toolform.server.work_pool``) a body larger than this many bytes, small
    #: ones on the event loop (where the hop would cost more than the work): a large body may take long
    #: whatever it holds, and a worker process keeps the event loop answering meanwhile.
    process_above_bytes: int | None = None
    #: Whether a body is answered on the event loop (else in a worker thread): a small body may still ask for
    #: long work, such as tools never read before whose schemas expand.
    on_loop: Callable[[Any], bool] | None = None


_JSON = b"application/json"


def _json_content_type(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether the first Content-Type is exactly ``application/json``; any other goes to FastAPI's reading."""
    for name, value in headers:
        if name == b"content-type":
            return value.lower() == _JSON
    return False


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            # The client went away: nothing to answer, as Starlette does.
            raise _Disconnected
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


class _Disconnected(Exception):
    pass


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that gives ``body`` whole first, then what the connection gives (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _send_json(send: Send, status: int, body: bytes) -> None:
    # The headers and their order are those of Starlette's JSONResponse.
    headers = [(b"content-length", str(len(body)).encode("latin-1")), (b"content-type", _JSON)]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class LeanRoutes:
    """ASGI middleware answering the table's POST routes for the bodies they accept; the rest goes to ``app``."""

    def __init__(self, app: ASGIApp, routes: Mapping[str, LeanRoute]) -> None:
        self.app = app
        self.routes = dict(routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = self.routes.get(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if route is None or scope.get("root_path") or not _json_content_type(scope["headers"]):
            await self.app(scope, receive, send)
            return
        try:
            body = await _read_body(receive)
        except _Disconnected:
            return
        except HTTPException as error:  # the size limit, counting a body sent without a length
            await http_error_response(error)(scope, receive, send)
            return
        try:
            request = route.model.model_validate(request_json(body)) if body else None
        except HTTPException as error:  # a number no float holds
            await http_error_response(error)(scope, receive, send)
            return
        except Exception:  # not JSON, not UTF-8, too deep, off the model: FastAPI has the answer for each
            request = None
        if request is None:
            # FastAPI reads it again and answers with its own detail.
            await self.app(scope, _replaying(body, receive), send)
            return
        try:
            if route.process_above_bytes is not None and len(body) > route.process_above_bytes:
                written = await work_pool.run(_answered, route, request)
            elif route.in_thread or (route.on_loop is not None and not route.on_loop(request)):
                written = await run_in_threadpool(_answered, route, request)
            else:
                written = _answered(route, request)
        except ToolFormError as error:
            await error_response(error)(scope, receive, send)
            return
        except work_pool.WorkerError as error:
            await _send_json(send, error.status, json_bytes(error.shape))
            return
        except HTTPException as error:
            await http_error_response(error)(scope, receive, send)
            return
        await _send_json(send, 200, written)


def _answered(route: LeanRoute, request: BaseModel) -> bytes:
    # Answer and writing together, so a route run in a worker thread writes its answer there too, as a
    # FastAPI route declared with ``def`` renders its response in the thread.
    return route.write(route.answer(request))
