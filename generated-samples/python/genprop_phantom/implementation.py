"""The implementation of the phantom Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import flow_toolkit

from . import models
from .tools import PhantomTools


class Implementation(PhantomTools):
    """The Tools' bodies."""

    def use_tags(
        self,
        h: models.Holder,
        m: models.MarkedPlain | models.MarkedWrapped[int] | models.MarkedPhantom[int],
        e: models.Empty[int],
        half: models.Half[str, str],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.Half[int, flow_toolkit.HostToken]:
        raise NotImplementedError("use_tags")

    def generic(
        self,
        t: models.Tag[flow_toolkit.JsonValue],
        s: flow_toolkit.FlowSet[models.Tag[flow_toolkit.JsonValue]],
        h: models.Half[flow_toolkit.JsonValue, flow_toolkit.JsonValue],
        k: flow_toolkit.FlowMap[models.MarkOn | models.MarkOff, int],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.MarkedPlain | models.MarkedWrapped[flow_toolkit.JsonValue] | models.MarkedPhantom[flow_toolkit.JsonValue]:  # noqa: E501
        raise NotImplementedError("generic")
