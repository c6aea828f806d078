"""The implementation of the p3 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal

import flow_toolkit

from . import models
from .tools import P3Tools


class Implementation(P3Tools):
    """The Tools' bodies."""

    def nau00EFve(
        self,
        _2fa: flow_toolkit.FlowSet[list[flow_toolkit.Instant]],
        n0: models._2faK | models._2fa_ | models._2faH,
        str_: models._2FA[dict[str, models.Foo[int]], models._2FA[flow_toolkit.JsonValue, models._2faK | models._2fa_ | models._2faH]],  # noqa: E501
        X_1: models.Foo[flow_toolkit.JsonValue],
        uFB01le: models.Mut,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> decimal.Decimal:
        raise NotImplementedError("nau00EFve")

    def tuple_(
        self,
        Implementation: int,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> flow_toolkit.FlowMap[flow_toolkit.FlowMap[models.Foo[bool], decimal.Decimal], flow_toolkit.FlowSet[decimal.Decimal]]:  # noqa: E501
        raise NotImplementedError("tuple_")

    def tab_here(
        self,
        tick: dict[str, dict[str, flow_toolkit.Duration]],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> flow_toolkit.Duration:
        raise NotImplementedError("tab_here")
