"""The implementation of the p1006 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal

import flow_toolkit

from . import models
from .tools import P1006Tools


class Implementation(P1006Tools):
    """The Tools' bodies."""

    def char(
        self,
        U00E9: models.N1[flow_toolkit.FlowMap[int, models.N0[int]]],
        u00E9: flow_toolkit.HostToken,
        n1: models.X1Core | models.X1Send | models.X1String[None] | models.X1_2fa,
        Send: models.N0[models.N1[bytes]],
        x1: models.u01C4ungla[models.X1_2[flow_toolkit.JsonValue, bytes, models.N1[int]], flow_toolkit.HostToken],
        u01C6ungla: models.N1[flow_toolkit.FlowMap[flow_toolkit.JsonValue, bool]],
        trait: models.X1_2[flow_toolkit.FlowMap[models.X1Core | models.X1Send | models.X1String[bool] | models.X1_2fa, models.X1_2[decimal.Decimal, flow_toolkit.Instant, flow_toolkit.Instant]], tuple[str, models.X1_2[str, bytes, bool], int], flow_toolkit.FlowSet[models.X1_2[decimal.Decimal, int, flow_toolkit.Instant]]],  # noqa: E501
        *,
        ctx: flow_toolkit.CallContext,
    ) -> None:
        raise NotImplementedError("char")

    def u00E9(
        self,
        Foo_2: decimal.Decimal,
        x1: flow_toolkit.FlowSet[models.X1Core | models.X1Send | models.X1String[bool] | models.X1_2fa],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> flow_toolkit.FlowSet[dict[str, str]]:
        raise NotImplementedError("u00E9")

    def u00E9_2(
        self,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.X1Core | models.X1Send | models.X1String[flow_toolkit.JsonValue] | models.X1_2fa:
        raise NotImplementedError("u00E9_2")
