"""The implementation of the carrier Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import flow_toolkit

from . import models
from .tools import CarrierTools


class Implementation(CarrierTools):
    """The Tools' bodies."""

    def echo(
        self,
        x: models.Outer[models.Page[flow_toolkit.JsonValue]],
        y: models.PairBoth[models.Page[flow_toolkit.JsonValue], models.Bag[flow_toolkit.JsonValue]] | models.PairLeft[models.Page[flow_toolkit.JsonValue]] | models.PairNeither,  # noqa: E501
        z: flow_toolkit.FlowSet[models.Page[flow_toolkit.JsonValue]],
        w: flow_toolkit.FlowMap[models.PairBoth[flow_toolkit.JsonValue, int] | models.PairLeft[flow_toolkit.JsonValue] | models.PairNeither, str],  # noqa: E501
        v: models.Page[models.Wrap[models.Page[flow_toolkit.JsonValue]]],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.Page[models.PairBoth[flow_toolkit.JsonValue, models.Holder] | models.PairLeft[flow_toolkit.JsonValue] | models.PairNeither]:  # noqa: E501
        raise NotImplementedError("echo")

    def plain(
        self,
        h: models.Holder,
        k: models.Keyed,
        s: flow_toolkit.FlowSet[models.Holder],
        o: models.Outer[int],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.Outer[models.Holder]:
        raise NotImplementedError("plain")
