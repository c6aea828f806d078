"""parse: a model's reply parsed under a protocol and a grading rule, and validated (POST /api/v1/parse).

A valid body is answered by ``answer`` on the fast path of the route's class
(``toolform.server.fast_route``); the route below declares the API and answers
every other body, its tools read by the one dependency (``with_tools``).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends

from toolform.limits import Limits
from toolform.loaders import LoadResult
from toolform.server.exact_response import ExactJSONResponse, exact_json_bytes
from toolform.server.fast_route import FastAnswer, fast_route
from toolform.server.request_tools import WithTools, read_request_tools, with_tools
from toolform.server.responses import errors
from toolform.server.schemas import ParsedReplyBody, ParseRequest

#: Bodies up to this size are parsed on the event loop (a reply of a few calls parses in well under a
#: millisecond, less than the hop to a worker costs); larger ones in a worker process, so that /health and
#: every other request keep being answered meanwhile.
ON_LOOP_BYTES = 32_768


def quick(body: ParseRequest) -> bool:
    """Whether a small body is answered on the event loop: only when its tools were read lately (tools never
    read before may expand to many schema nodes, which takes a worker's time)."""
    from toolform.server.recent_tools import is_recent

    return is_recent(body.tools.source, body.tools.payload)


def answer(limits: Limits, body: ParseRequest) -> dict[str, Any]:
    """The route's answer to a valid body on the fast path: its tools read as the dependency reads them."""
    loaded = read_request_tools(body, limits, shared=True)
    assert loaded is not None
    return parsed(body, loaded)


def parsed(body: ParseRequest, loaded: LoadResult) -> dict[str, Any]:
    """The reply of ``body`` parsed against its tools, read from the recent tool sets."""
    from toolform.parse import flow_listing, parse_reply
    from toolform.server.recent_tools import recent_reading

    reply = parse_reply(
        loaded.toolset,
        body.text,
        body.protocol,
        rule=body.rule,
        validate=body.validate_,
        lenient_fallback=body.lenient_fallback,
        flow_listing=flow_listing(loaded.kind, body.tools.payload),
        reading=recent_reading(loaded),
    )
    return reply.to_dict()


def router(limits: Limits) -> APIRouter:
    fast = FastAnswer(ParseRequest, answer=partial(answer, limits), write=exact_json_bytes,
                      process_above_bytes=ON_LOOP_BYTES, on_loop=quick)
    routes = APIRouter(prefix="/api/v1", tags=["parse"], route_class=fast_route(fast))

    @routes.post(
        "/parse",
        summary="Parse and validate a reply",
        response_model=None,
        responses={200: {"model": ParsedReplyBody}, **errors(404)},
    )
    def parse_route(
        read: Annotated[WithTools[ParseRequest], Depends(with_tools(ParseRequest, shared=True))],
    ) -> ExactJSONResponse:
        """The calls found in the reply (each resolved to a tool, normalised and validated), the calls to
        tools that do not exist, whether the strict parser read it, the syntax it was found in, and whether
        the reply declared that no tool applies. ok is false when a call was rejected, a tool name was
        invented, or a call failed validation; with no call, it is no_call_declared."""
        return ExactJSONResponse(parsed(read.body, read.loaded))

    return routes
