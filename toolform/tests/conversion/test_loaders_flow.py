"""Flow listings read through flow-toolkit: names, identities, fingerprints, and the adapter's readings."""

from __future__ import annotations

import json
from typing import Any

import pytest
from toolform.errors import LoaderError

import flow_toolkit
from support.paths import WEATHER_LISTING
from toolform import loaders

WEATHER = WEATHER_LISTING


def _by_name() -> tuple[dict[str, dict[str, Any]], list[str]]:
    result = loaders.load("auto", WEATHER.read_text(encoding="utf-8"))
    assert result.kind == "flow"
    return {t["name"]: t for t in result.toolset.to_dicts()}, result.warnings  # type: ignore[misc]


def test_each_tool_keeps_its_identity_and_fingerprint_under_its_name() -> None:
    tools, _ = _by_name()
    listed = flow_toolkit.fingerprints(WEATHER.read_text(encoding="utf-8"))
    assert list(tools) == ["get_forecast", "list_stations", "station_history", "echo"]
    for (identity, fingerprint), tool in zip(listed, tools.values(), strict=True):
        assert tool["annotations"] == {"flow": {"identity": identity, "fingerprint": fingerprint}}
        assert identity.endswith("." + tool["name"])
    assert tools["get_forecast"]["description"] == "Forecast for a city."


def test_option_parameters_may_be_left_out_and_generics_take_any_value() -> None:
    tools, warnings = _by_name()
    params = {p["name"]: p for p in tools["get_forecast"]["params"]}
    assert params["city"] == {"name": "city", "type": {"kind": "string"}, "required": True}
    assert params["units"]["required"] is False
    assert [m["enum_values"] for m in params["units"]["type"]["union_of"]] == [["Metric"], ["Imperial"]]
    assert tools["echo"]["params"] == [{"name": "value", "type": {"kind": "any"}, "required": True}]
    assert "tool 'echo' at $.value: the generic parameter T is shown as any JSON value" in warnings
    assert any(w.startswith("tool 'list_stations' at $.region.children[*]") and "recursive" in w for w in warnings)


def test_a_listing_flow_toolkit_refuses_names_the_path_and_rule() -> None:
    listing = json.loads(WEATHER.read_text(encoding="utf-8"))
    listing["tools"][0]["params"][0]["type"] = "Txt"
    with pytest.raises(LoaderError, match=r"refused at \$\.tools\[0\]\.params\[0\]\.type: .*\[unknown-term\]"):
        loaders.load("flow", listing)
