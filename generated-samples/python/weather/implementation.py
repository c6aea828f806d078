"""The implementation of the weather Tools. flow-gen wrote this file once,
with a stub per Tool; it is yours to edit and is never rewritten.
"""

from __future__ import annotations

import decimal

import flow_toolkit

from . import models
from .tools import WeatherTools


class Implementation(WeatherTools):
    """The Tools' bodies."""

    def get_forecast(
        self,
        city: str,
        days: int,
        units: models.Units | None,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.Forecast:
        raise NotImplementedError("get_forecast")

    def list_stations(
        self,
        region: models.Region,
        cursor: str | None,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.Page[models.Station]:
        raise NotImplementedError("list_stations")

    def station_history(
        self,
        station: int,
        since: flow_toolkit.Instant,
        window: flow_toolkit.Duration,
        counts: flow_toolkit.FlowMap[int, int],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> list[tuple[flow_toolkit.Instant, decimal.Decimal]]:
        raise NotImplementedError("station_history")

    def echo(
        self,
        value: flow_toolkit.JsonValue,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> flow_toolkit.JsonValue:
        raise NotImplementedError("echo")
