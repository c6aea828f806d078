"""The implementation of the p500276 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal

import flow_toolkit

from . import models
from .tools import P500276Tools


class Implementation(P500276Tools):
    """The Tools' bodies."""

    def IntoValue(
        self,
        x1: flow_toolkit.Some[dict[str, flow_toolkit.JsonValue] | None] | None,
        n3: None,
        k: dict[str, list[models._2FABTreeMap]],
        strau00DFe: models.Void,
        x1_: models.Object[flow_toolkit.FlowMap[models._2fa_2fa[flow_toolkit.JsonValue, decimal.Decimal] | models._2faDelete | models._2fa_ | models._2faIterator, models.N4X1 | models.N4A[int] | models.N4Foo2[int] | models.N4_2fa]],  # noqa: E501
        u00F1andu00FA: models._2fa_2fa[int, flow_toolkit.FlowSet[models.N4X1 | models.N4A[flow_toolkit.JsonValue] | models.N4Foo2[flow_toolkit.JsonValue] | models.N4_2fa]] | models._2faDelete | models._2fa_ | models._2faIterator,  # noqa: E501
        void: models.RecordTools | models.RecordFile,
        X1: flow_toolkit.HostToken,
        object_: models.N4X1 | models.N4A[bool] | models.N4Foo2[bool] | models.N4_2fa,
        add_note: models.X1[models._2FABTreeMap, flow_toolkit.Instant, None],
        K: models._2FABTreeMap,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> list[models._2fa_2fa[int, flow_toolkit.JsonValue] | models._2faDelete | models._2fa_ | models._2faIterator | None]:  # noqa: E501
        raise NotImplementedError("IntoValue")

    def n1(
        self,
        X1: models.Void,
        u00E9: flow_toolkit.JsonValue,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> tuple[flow_toolkit.Instant, tuple[flow_toolkit.JsonValue, models._2fa_2fa[flow_toolkit.JsonValue, int] | models._2faDelete | models._2fa_ | models._2faIterator], list[str]]:  # noqa: E501
        raise NotImplementedError("n1")
