"""The implementation of the p15 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import flow_toolkit

from . import models
from .tools import P15Tools


class Implementation(P15Tools):
    """The Tools' bodies."""

    def x1(
        self,
        end: flow_toolkit.FlowSet[tuple[str, models.InferStd | models.Infer_2fa | models.InferMap | models.InferJsonValue, models.Tick[flow_toolkit.Duration, str, str]]],  # noqa: E501
        box: flow_toolkit.HostToken,
        a_b: models.JsonValueHostToken | models.JsonValueX1[None] | models.JsonValueJsonValue | models.JsonValueX1_2,
        bytes_: models.FutureWhere | models.FutureFoo2[flow_toolkit.FlowSet[bool], dict[str, models.InferStd | models.Infer_2fa | models.InferMap | models.InferJsonValue]] | models.FutureEnd,  # noqa: E501
        dyn: models.FooFoo | models.FooSlots[flow_toolkit.JsonValue] | models.FooTabHere[flow_toolkit.JsonValue] | models.FooTick[flow_toolkit.JsonValue],  # noqa: E501
        n4: models.InferStd | models.Infer_2fa | models.InferMap | models.InferJsonValue,
        u00e9: models.Tick[flow_toolkit.JsonValue, dict[str, flow_toolkit.JsonValue], models.FooFoo | models.FooSlots[models.InferStd | models.Infer_2fa | models.InferMap | models.InferJsonValue] | models.FooTabHere[models.InferStd | models.Infer_2fa | models.InferMap | models.InferJsonValue] | models.FooTick[models.InferStd | models.Infer_2fa | models.InferMap | models.InferJsonValue]],  # noqa: E501
        *,
        ctx: flow_toolkit.CallContext,
    ) -> dict[str, flow_toolkit.HostToken]:
        raise NotImplementedError("x1")

    def ContextDict(
        self,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.FooFoo | models.FooSlots[flow_toolkit.JsonValue] | models.FooTabHere[flow_toolkit.JsonValue] | models.FooTick[flow_toolkit.JsonValue] | None:  # noqa: E501
        raise NotImplementedError("ContextDict")

    def flow_core(
        self,
        u65E5u672C: flow_toolkit.FlowSet[bool],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.FooFoo | models.FooSlots[flow_toolkit.FlowMap[models.JsonValueHostToken | models.JsonValueX1[int] | models.JsonValueJsonValue | models.JsonValueX1_2, str]] | models.FooTabHere[flow_toolkit.FlowMap[models.JsonValueHostToken | models.JsonValueX1[int] | models.JsonValueJsonValue | models.JsonValueX1_2, str]] | models.FooTick[flow_toolkit.FlowMap[models.JsonValueHostToken | models.JsonValueX1[int] | models.JsonValueJsonValue | models.JsonValueX1_2, str]]:  # noqa: E501
        raise NotImplementedError("flow_core")
