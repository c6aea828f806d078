"""Calls to Flow tools validated by Flow's own typed decoding (flow-toolkit): exact digits, refusals with
their path and rule code, Option parameters that may be left out."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from serving import Server
from toolform.loaders import load
from toolform.parse import parse_reply

WEATHER = (Path(__file__).resolve().parents[2] / "tests" / "examples" / "weather.tools.json").read_text("utf-8")
TOOLS = load("flow", WEATHER).toolset


def _call(arguments: str, protocol: str = "json_object") -> dict[str, object]:
    text = '{"name": "get_forecast", "arguments": ' + arguments + "}"
    reply = parse_reply(TOOLS, text, protocol, flow_listing=WEATHER)
    return reply.calls[0].to_dict()


def test_a_good_call_passes_and_an_option_may_be_left_out() -> None:
    assert _call('{"city": "Denver", "days": 3}')["valid"] is True
    assert _call('{"city": "Denver", "days": 3, "units": "Metric"}')["valid"] is True


def test_an_int_keeps_every_digit() -> None:
    call = _call('{"city": "Denver", "days": 123456789012345678901234567890}')
    assert call["valid"] is True
    assert call["arguments"] == {"city": "Denver", "days": 123456789012345678901234567890}


def test_refusals_name_the_path_and_the_rule() -> None:
    validation = _call('{"days": 3.50, "units": "Kelvin", "extra": 1}')["validation"]
    assert validation == {
        "ok": False,
        "unknown_tool": False,
        "missing_required": ["city"],
        "unknown_args": ["extra"],
        "type_errors": [],
        "enum_errors": [
            'units: unknown constructor "Kelvin" of github.com/acme/weather@1.2.0/weather.flow.Units [constructor]'
        ],
        "constraint_errors": ["days: expected an Int, found 3.5 [not-whole]"],
        "n_errors": 4,
    }


def test_a_decimal_is_not_rounded_into_an_int() -> None:
    call = _call('{"city": "Denver", "days": 3.0000000000000000000001}')
    assert call["arguments"]["days"] == Decimal("3.0000000000000000000001")  # type: ignore[index]
    assert call["valid"] is False


def test_the_route_validates_a_flow_tool_set_through_flow(ours: Server) -> None:
    body = {
        "tools": {"source": "flow", "payload": WEATHER},
        "text": '<function_calls><invoke name="get_forecast"><parameter name="city">Denver</parameter>'
        '<parameter name="days">three</parameter></invoke></function_calls>',
        "protocol": "xml_call",
    }
    reply = ours.post("/api/v1/parse", body)
    assert reply.status == 200
    assert reply.json()["calls"][0]["validation"]["type_errors"] == [
        "days: expected an Int (a number), found a string [type]"
    ]
