"""The hot POST routes (/parse, /guard): a valid body answered without FastAPI's per-request machinery.

On a small request such as one reply to parse, FastAPI's dependency solver, its
validation of the body through the declared parameters, its response writing,
and the router's match with the exception and exit-stack middleware around it
cost several times the work the request asks for (docs/toolform-performance.md).
A hot route is declared as any other, in its router module, with a route class
made by ``fast_route``: ``FastJsonRoute``, an ``APIRoute`` that carries the
route's ``FastAnswer`` (its request model and its answer). Its fast path does
only what FastAPI's machinery does for a body the route accepts: read the body
exactly (``toolform.server.exact_json``), validate it with the route's own
request model, call the route's ``answer``, write the JSON.

``FastRoutesEntry`` takes a request to one of these routes to its fast path
ahead of the rest of the stack; its table is the application's own fast routes
(``fast_routes_of``), so a route is declared once. Reached through the router
instead (an application mounted under a root path, where the entry steps
aside), the route class takes the same fast path in its ``handle``.

Anything else goes to FastAPI's own handler for the route, the body replayed: a
body that is not JSON, a content type other than exactly ``application/json``,
a body the model refuses (so the 422 keeps FastAPI's detail). So every answer,
status and error shape is the declared route's, and /openapi.json is made from
the declarations; the tests hold the two paths to the same bytes
(``create_app(fast_routes=False)`` answers every request through FastAPI's
handler).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from fastapi import APIRouter
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toolform.errors import ToolFormError
from toolform.server import work_pool
from toolform.server.errors import error_response, http_error_response
from toolform.server.exact_json import ExactJsonRoute, request_json
from toolform.server.exact_response import json_bytes


@dataclass(frozen=True)
class FastAnswer:
    """How a route answers a valid body on the fast path: its model, its answer, how the answer is written.

    Pickled whole into a worker process for a large body: every member is a module-level name or a
    ``functools.partial`` of one.
    """

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


class FastJsonRoute(ExactJsonRoute):
    """An APIRoute answering the bodies its ``fast`` answer accepts itself, and the rest as FastAPI does.

    Subclassed per route by ``fast_route``; with ``fast`` None (or the application's ``fast_routes`` off),
    it is an ``ExactJsonRoute``.
    """

    fast: ClassVar[FastAnswer | None] = None

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        fast = self.fast
        if fast is None or not scope["app"].state.fast_routes or not _fast_request(scope):
            await super().handle(scope, receive, send)
            return
        # Reached through the router: an error of the work goes to the application's exception handlers.
        await _answer_or_pass(fast, scope, receive, send, super().handle)


class FastRoutesEntry:
    """ASGI middleware: a request to a fast route is handed to its fast path ahead of the rest of the stack.

    The table is the application's own fast routes (``fast_routes_of``), never a list of its own. Through
    the router, a small request pays for the router's match over the routes, FastAPI's exception and
    exit-stack middleware and its request wrapper: about 30 microseconds, a tenth of a parse of one short
    reply (docs/toolform-performance.md). A body the fast path does not take goes on to the application,
    replayed whole, to be answered by the declared route.
    """

    def __init__(self, app: ASGIApp, routes: Mapping[str, FastAnswer]) -> None:
        self.app = app
        self.routes = dict(routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        fast = self.routes.get(scope["path"]) if scope["type"] == "http" else None
        if fast is None or scope.get("root_path") or not _fast_request(scope):
            await self.app(scope, receive, send)
            return
        try:
            await _answer_or_pass(fast, scope, receive, send, self.app)
        except ToolFormError as error:
            await error_response(error)(scope, receive, send)
        except HTTPException as error:  # the size limit counting a body sent without a length; a non-finite
            await http_error_response(error)(scope, receive, send)


def fast_routes_of(routers: Iterable[APIRouter]) -> dict[str, FastAnswer]:
    """The fast answer of each route of ``routers`` that has one, by its path."""
    return {
        route.path: route.fast
        for router in routers
        for route in router.routes
        if isinstance(route, FastJsonRoute) and route.fast is not None
    }


def _fast_request(scope: Scope) -> bool:
    """A POST whose first Content-Type is exactly ``application/json``; any other goes to FastAPI's reading."""
    return scope["method"] == "POST" and _json_content_type(scope["headers"])


async def _answer_or_pass(fast: FastAnswer, scope: Scope, receive: Receive, send: Send, pass_on: ASGIApp) -> None:
    """Answer a body ``fast`` takes; hand any other to ``pass_on``, the body replayed whole."""
    try:
        body = await _read_body(receive)
    except _Disconnected:
        return
    try:
        valid = fast.model.model_validate(request_json(body)) if body else None
    except HTTPException:  # a number no float holds, a lone surrogate: 400 naming the path
        raise
    except Exception:  # not JSON, not UTF-8, too deep, off the model: FastAPI has the answer for each
        valid = None
    if valid is None:
        # FastAPI's handler reads the body again and answers with its own detail.
        await pass_on(scope, _replaying(body, receive), send)
        return
    status, written = await _answer(fast, valid, len(body))
    # The headers and their order are those of Starlette's JSONResponse.
    headers = [(b"content-length", str(len(written)).encode("latin-1")), (b"content-type", _JSON)]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": written})


class _Disconnected(Exception):
    pass


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


async def _answer(fast: FastAnswer, body: BaseModel, size: int) -> tuple[int, bytes]:
    """The status and the JSON of the answer; an error of the route's work is raised to the app's handlers."""
    try:
        if fast.process_above_bytes is not None and size > fast.process_above_bytes:
            return 200, await work_pool.run(_answered, fast, body)
        if fast.in_thread or (fast.on_loop is not None and not fast.on_loop(body)):
            return 200, await run_in_threadpool(_answered, fast, body)
        return 200, _answered(fast, body)
    except work_pool.WorkerError as error:
        return error.status, json_bytes(error.shape)


def _answered(fast: FastAnswer, body: BaseModel) -> bytes:
    # Answer and writing together, so a route run in a worker thread writes its answer there too, as a
    # FastAPI route declared with ``def`` renders its response in the thread.
    return fast.write(fast.answer(body))


def fast_route(fast: FastAnswer) -> type[FastJsonRoute]:
    """The route class of one route answered on the fast path by ``fast`` (a router's ``route_class``)."""
    return type(f"Fast{fast.model.__name__}Route", (FastJsonRoute,), {"fast": fast})
