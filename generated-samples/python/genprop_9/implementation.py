"""The implementation of the p9 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal

import flow_toolkit

from . import models
from .tools import P9Tools


class Implementation(P9Tools):
    """The Tools' bodies."""

    def a_b(
        self,
        u00E9: flow_toolkit.HostToken,
        u00e9: models.X1X1 | models.X1U00e9[flow_toolkit.FlowMap[models.U00E9[int, decimal.Decimal, flow_toolkit.Duration], models.N2[bytes]]] | models.X1AB,  # noqa: E501
        n2: models.U00E9[list[models.U00E9[bytes, decimal.Decimal, str]], None, models.N2[flow_toolkit.Instant]],
        X1: flow_toolkit.HostToken,
        foo__bar: models.X1X1 | models.X1U00e9[flow_toolkit.JsonValue] | models.X1AB,
        Exception_: models.N2[decimal.Decimal],
        a_b: flow_toolkit.HostToken,
        x_1: flow_toolkit.HostToken,
        symbol: flow_toolkit.HostToken,
        foo: models.X1_2Strau00DFe,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> bytes:
        raise NotImplementedError("a_b")
