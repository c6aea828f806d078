"""The implementation of the p500155 Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import flow_toolkit

from .tools import P500155Tools


class Implementation(P500155Tools):
    """The Tools' bodies."""

    def x1(
        self,
        f__slots__: dict[str, flow_toolkit.JsonValue],
        U00E9: flow_toolkit.Some[list[flow_toolkit.HostToken] | None] | None,
        fOO: flow_toolkit.HostToken,
        zu00FCrich: flow_toolkit.HostToken,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> flow_toolkit.HostToken:
        raise NotImplementedError("x1")

    def None_(
        self,
        zu00FCrich: flow_toolkit.Some[flow_toolkit.Some[flow_toolkit.JsonValue] | None] | None,
        Debug: flow_toolkit.Some[flow_toolkit.Some[flow_toolkit.JsonValue] | None] | None,
        X_1: flow_toolkit.HostToken,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> None:
        raise NotImplementedError("None_")

    def Foo_2(
        self,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> str:
        raise NotImplementedError("Foo_2")
