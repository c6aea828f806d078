"""The implementation of the p13 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal

import flow_toolkit

from . import models
from .tools import P13Tools


class Implementation(P13Tools):
    """The Tools' bodies."""

    def a_b(
        self,
        n1: dict[str, list[decimal.Decimal]],
        fooBar: models.X1,
        var: models.X[models.FooBar | None],
        foo_2: models.X1_2_2fa[models.FooBar, dict[str, models.X1]] | models.X1_2X1 | models.X1_2Typing,
        X_1: models.FooBar,
        U00E9: models.X1_3[None, flow_toolkit.FlowMap[models.X1_3[flow_toolkit.JsonValue, decimal.Decimal, bool], bytes], int],  # noqa: E501
        *,
        ctx: flow_toolkit.CallContext,
    ) -> list[dict[str, models.X[flow_toolkit.Instant]]]:
        raise NotImplementedError("a_b")

    def a_b_2(
        self,
        _2fa: flow_toolkit.Duration,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> bool:
        raise NotImplementedError("a_b_2")

    def U00E9(
        self,
        n0: str,
        foo: bool,
        X_1: flow_toolkit.FlowSet[int],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> dict[str, dict[str, int]]:
        raise NotImplementedError("U00E9")
