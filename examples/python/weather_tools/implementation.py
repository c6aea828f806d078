"""The implementation of the weather Tools: a small, deterministic stand-in for
a weather service, written on the generated code. flow-gen wrote this file
once as stubs; it is ours to edit and is never rewritten.

Some inputs exist to show each outcome (the end-to-end tests use them):
``get_forecast("Atlantis", ...)`` fails with UnknownCity, ``"boom"`` raises (an
Unknown), ``"slow"`` waits for a cancel; ``list_stations`` of a region named
``"closed"`` is rate limited and ``"slow"`` waits (async) until cancelled;
``echo("fail")`` raises a WeatherError, which echo does not declare (an
Unknown).

A handler fails by raising its Tool's error value (``raise
models.WeatherErrorRateLimited()``); ``station_history`` shows the other way,
``raise flow_toolkit.Failed(error)``, which any error type takes.
"""

from __future__ import annotations

import asyncio
import decimal
import threading

import flow_toolkit

from . import models
from .tools import WeatherTools

_D = decimal.Decimal


class Implementation(WeatherTools):
    """The Tools' bodies."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.history_runs = 0

    def get_forecast(
        self,
        city: str,
        days: int,
        units: models.Units | None,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.Forecast:
        if city == "Atlantis":
            raise models.WeatherErrorUnknownCity(query=city, suggestions=["Athens", "Atlanta"])
        if city == "boom":
            raise RuntimeError("the forecast model is down")
        if city == "slow":
            # Waits for the host's cancel, then says when to try again.
            ctx.wait_cancelled(30)
            raise models.WeatherErrorUnavailable(flow_toolkit.Duration(90 * 10**9))
        # stdout carries the protocol: while serving, print goes to stderr.
        print(f"forecast for {city}, {days} days")
        if days < 1 or days > 14:
            raise models.WeatherErrorRateLimited()
        fahrenheit = isinstance(units, models.UnitsImperial)

        def temperature(celsius: decimal.Decimal) -> decimal.Decimal:
            return celsius * 9 / 5 + 32 if fahrenheit else celsius

        skies: list[models.Sky] = [
            models.SkyClear(),
            models.SkyCloudy(40),
            models.SkyStorm(wind_kph=_D("88.5"), warning="Gale"),
        ]
        return models.Forecast(
            city=city,
            days=[
                models.Day(
                    date=f"2026-12-{day + 1:02d}",
                    high_c=temperature(_D("4.5") - day),
                    low_c=temperature(_D("-1.25") - day),
                    sky=skies[day % 3],
                    rain_mm=_D("0.7") if day % 2 else None,
                )
                for day in range(days)
            ],
            issued=flow_toolkit.Instant.parse("2026-11-30T08:15:00.5Z"),
            source="example",
            tags=flow_toolkit.FlowSet(["snow", "alps"]),
        )

    async def list_stations(
        self,
        region: models.Region,
        cursor: str | None,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> models.Page[models.Station]:
        if region.name == "closed":
            raise models.WeatherErrorRateLimited()
        if region.name == "slow":
            await asyncio.sleep(30)  # the host's cancel stops it here
        names = [region.name] + [child.name for child in region.children]
        start = int(cursor or "0")
        stations = [
            models.Station(
                id=start + i,
                position=(_D("47.37"), _D("8.54") + i),
                readings={"temp_c": _D("3.5"), "wind_kph": _D(12)},
                raw={"name": name, "sensors": [1, 2, _D("2.5")], "ok": True, "note": None},
                photo=b"\x89PNG" if i == 0 else None,
            )
            for i, name in enumerate(names[start : start + 2])
        ]
        more = start + 2 < len(names)
        return models.Page(items=stations, next=str(start + 2) if more else None)

    def station_history(
        self,
        station: int,
        since: flow_toolkit.Instant,
        window: flow_toolkit.Duration,
        counts: flow_toolkit.FlowMap[int, int],
        *,
        ctx: flow_toolkit.CallContext,
    ) -> list[tuple[flow_toolkit.Instant, decimal.Decimal]]:
        with self._lock:
            self.history_runs += 1
            runs = self.history_runs
        if station < 0:
            raise flow_toolkit.Failed(
                models.WeatherErrorUnavailable(flow_toolkit.Duration(5 * 10**9))
            )
        samples = counts.get(station, 3)
        # The last reading is how many times this method has run: a re-sent
        # call that ran the method again would show it.
        return [
            (flow_toolkit.Instant(since.nanos + i * window.nanos), _D(i) / 4)
            for i in range(samples)
        ] + [(since, _D(runs))]

    def echo(
        self,
        value: flow_toolkit.JsonValue,
        *,
        ctx: flow_toolkit.CallContext,
    ) -> flow_toolkit.JsonValue:
        if value == "fail":
            # echo's error type is Never: a WeatherError raised here is an
            # exception like any other, answered Unknown.
            raise models.WeatherErrorRateLimited()
        return value
