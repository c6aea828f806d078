"""Calls to Flow tools validated by Flow's own typed decoding (flow-toolkit): exact digits, refusals with
their path and rule code, Option parameters that may be left out."""

from __future__ import annotations

import subprocess
from decimal import Decimal
from pathlib import Path

from toolform.loaders import load
from toolform.parse import parse_reply

from support.paths import WEATHER_LISTING
from support.serving import OUR_TOOLFORM, Server

WEATHER = WEATHER_LISTING.read_text("utf-8")
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


def test_a_lone_surrogate_in_a_reply_is_refused_by_its_rule_and_written_back_escaped(ours: Server) -> None:
    # The reply's JSON escapes a lone surrogate, which UTF-8 cannot carry: Flow refuses it as Text, and
    # the answer writes it back as the escape it came as.
    text = '{"name": "get_forecast", "arguments": {"city": "Den\\ud800", "days": 3}}'
    reply = ours.post("/api/v1/parse", {"tools": {"source": "flow", "payload": WEATHER}, "text": text,
                                        "protocol": "json_object"})
    assert reply.status == 200
    assert b'"city":"Den\\ud800"' in reply.body
    errors = reply.json()["calls"][0]["validation"]["constraint_errors"]
    assert len(errors) == 1 and errors[0].startswith("city: ") and errors[0].endswith("[lone-surrogate]")


def test_the_parse_verb_prints_a_lone_surrogate_escaped(tmp_path: Path) -> None:
    listing, reply = tmp_path / "weather.tools.json", tmp_path / "reply.txt"
    listing.write_text(WEATHER, "utf-8")
    reply.write_text('{"name": "get_forecast", "arguments": {"city": "Den\\ud800", "days": 3}}', "utf-8")
    for extra in ((), ("--json",)):
        run = subprocess.run(
            [str(OUR_TOOLFORM), "parse", str(listing), "--from", "flow", "--protocol", "json_object",
             "--reply-file", str(reply), *extra],
            capture_output=True, text=True, timeout=60, check=False,
        )
        assert run.returncode == 1, run.stderr
        assert "Den\\ud800" in run.stdout and "lone-surrogate" in run.stdout
