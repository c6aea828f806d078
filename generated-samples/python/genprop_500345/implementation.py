"""The implementation of the p500345 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal
import typing

import flow_toolkit

from . import models
from .tools import P500345Tools


class Implementation(P500345Tools):
    """The Tools' bodies."""

    def file(
        self,
        f__slots__: models.f_[flow_toolkit.Some[flow_toolkit.JsonValue] | None, models.f_[models.Ref[str, decimal.Decimal, flow_toolkit.Instant], flow_toolkit.JsonValue, flow_toolkit.HostToken], dict[str, flow_toolkit.HostToken]],  # noqa: E501
        crate: models.Ref[typing.Any, flow_toolkit.FlowMap[bytes, bytes], flow_toolkit.HostToken],
        Future: flow_toolkit.HostToken,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> None:
        raise NotImplementedError("file")
