"""The tools of a request, read by one FastAPI dependency for every route that takes tools.

A route that takes tools declares its body through ``with_tools``::

    def guard_route(read: Annotated[WithTools[GuardRequest], Depends(with_tools(GuardRequest))]) -> ...

The dependency validates the body (FastAPI's 422 for a body off the model, as a
plain ``body: GuardRequest`` would), checks its text members against the size
limits (``RequestBody.check_limits``), then reads its tools through
``toolform.conversion.read_tools`` (the tools object's rules, the loaders, the
tool count) with the server's limits. It is a ``def``, so FastAPI runs it in the
worker thread pool: a tool set that may expand far is read in a worker process
from there (``toolform.server.far_loads``). With ``shared``, the tool set comes
from the server's recent tool sets (``toolform.server.recent_tools``), for routes
whose work never changes the tools it is given.

``read_request_tools`` is the same reading for code that has the body already
(``toolform.server.fast_route``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from fastapi import Request

from toolform.conversion import read_tools
from toolform.limits import Limits
from toolform.loaders import LoadResult, load
from toolform.server.recent_tools import recent_load
from toolform.server.schemas import RequestBody, ToolsInput

Body = TypeVar("Body", bound=RequestBody)


@dataclass(frozen=True)
class WithTools(Generic[Body]):
    """A request's body, and its tools read (None when the body's tools are optional and absent)."""

    body: Body
    tools: LoadResult | None

    @property
    def loaded(self) -> LoadResult:
        """The tools read, for a route whose body requires them."""
        assert self.tools is not None, "the body's model requires tools"
        return self.tools


def read_request_tools(body: RequestBody, limits: Limits, shared: bool = False) -> LoadResult | None:
    """``body``'s text members checked against ``limits``, then its ``tools`` read; None without tools."""
    body.check_limits(limits)
    tools: ToolsInput | None = getattr(body, "tools", None)
    if tools is None:
        return None
    return read_tools(tools.source, tools.payload, limits, loader=recent_load if shared else load)


def with_tools(model: type[Body], shared: bool = False) -> Callable[..., WithTools[Body]]:
    """The dependency reading a ``model`` body and its tools; ``shared`` takes them from the recent tool sets."""

    def read(request: Request, body: RequestBody) -> WithTools[Body]:
        limits: Limits = request.app.state.settings.limits
        return WithTools(body, read_request_tools(body, limits, shared))  # type: ignore[arg-type]

    # FastAPI reads the body's model from the signature: this dependency's is ``model``.
    read.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter("request", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Request),
            inspect.Parameter("body", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=model),
        ],
        return_annotation=WithTools,
    )
    read.__name__ = f"read_{model.__name__}"
    return read
