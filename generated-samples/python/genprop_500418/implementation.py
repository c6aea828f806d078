"""The implementation of the p500418 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal

import flow_toolkit

from . import models
from .tools import P500418Tools


class Implementation(P500418Tools):
    """The Tools' bodies."""

    def loop(
        self,
        _2fa: models.Tuple_2fa,
        n3: flow_toolkit.FlowMap[flow_toolkit.FlowMap[models.Public, models.New], flow_toolkit.HostToken | None],
        annotations_: models.New,
        CallContext: flow_toolkit.HostToken,
        u0661u0662: models.Public,
        yield_: models._2fa[tuple[models.New, flow_toolkit.HostToken, models.N1], flow_toolkit.Some[decimal.Decimal | None] | None],  # noqa: E501
        x1_: flow_toolkit.HostToken,
        fooBar: models.ImplementsFOOBAR | models.ImplementsFooBar | models.ImplementsFooBar_2[flow_toolkit.HostToken],
        Symbol: models.N1,
        n1: models.Tuple_2fa,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> None:
        raise NotImplementedError("loop")
