"""The implementation of the p2 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal

import flow_toolkit

from . import models
from .tools import P2Tools


class Implementation(P2Tools):
    """The Tools' bodies."""

    def foo(
        self,
        u03C9mega: decimal.Decimal,
        FOO: models.PartialEq,
        fooBar: models.FOOBARPartialEq[models.FOOBARPartialEq[models.u03A9mega, models.FOOBARPartialEq[flow_toolkit.Duration, bool] | models.FOOBARuFF21 | models.FOOBARU00E9 | models.FOOBARu65E5u672C] | models.FOOBARuFF21 | models.FOOBARU00E9 | models.FOOBARu65E5u672C, flow_toolkit.FlowMap[flow_toolkit.Instant, models.FooBarFoo | models.FooBaru0661u0662]] | models.FOOBARuFF21 | models.FOOBARU00E9 | models.FOOBARu65E5u672C,  # noqa: E501
        tuple_: models.u03A9mega,
        foo__bar: models.FooBarFoo | models.FooBaru0661u0662,
        n1: flow_toolkit.HostToken,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> dict[str, tuple[bool, models.u03A9mega]]:
        raise NotImplementedError("foo")

    def tools_(
        self,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> int:
        raise NotImplementedError("tools_")

    def x(
        self,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> tuple[flow_toolkit.Duration, flow_toolkit.Duration, models.FOOBARPartialEq[bool, flow_toolkit.Duration] | models.FOOBARuFF21 | models.FOOBARU00E9 | models.FOOBARu65E5u672C] | None:  # noqa: E501
        raise NotImplementedError("x")
