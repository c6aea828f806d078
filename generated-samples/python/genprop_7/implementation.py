"""The implementation of the p7 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import flow_toolkit

from . import models
from .tools import P7Tools


class Implementation(P7Tools):
    """The Tools' bodies."""

    def u00E9(
        self,
        f_: models.Foo2Iterator[None] | models.Foo2FooBar[None] | models.Foo2Package[flow_toolkit.Instant],
        self_: models.Object,
        FooBar: models.End[flow_toolkit.FlowMap[flow_toolkit.JsonValue, models.Foo2Iterator[int] | models.Foo2FooBar[int] | models.Foo2Package[int]]],  # noqa: E501
        string: models.FooBarInstant[None] | models.FooBar_2fa | models.FooBarFlowMap | models.FooBarLib,
        null: models.Decimal[dict[str, flow_toolkit.Duration], flow_toolkit.Some[models.FooBarInstant[int] | models.FooBar_2fa | models.FooBarFlowMap | models.FooBarLib | None] | None],  # noqa: E501
        *,
        ctx: flow_toolkit.CallContext,
    ) -> flow_toolkit.Some[dict[str, models.FooBarInstant[bool] | models.FooBar_2fa | models.FooBarFlowMap | models.FooBarLib] | None] | None:  # noqa: E501
        raise NotImplementedError("u00E9")
