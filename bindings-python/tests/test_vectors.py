"""The shared vectors of tests/vectors through the Python API: every decode case
decoded into its Python form and encoded back, byte-identical to the canonical
text the Rust core gives; every refusal with the same rule and path; listings
and signatures likewise."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import flow_toolkit
from conftest import REPO, WEATHER_LISTING

VECTORS = sorted((REPO / "tests" / "vectors").glob("*.json"))


def cases(kind: str) -> list[Any]:
    out = []
    for path in VECTORS:
        file = json.loads(path.read_text(encoding="utf-8"))
        if file["kind"] != kind:
            continue
        listing = file.get("listing")
        if listing == "weather":
            listing_text = WEATHER_LISTING.read_text(encoding="utf-8")
        elif listing is None:
            listing_text = json.dumps({"data": "0.1", "tools": [], "declarations": {}})
        else:
            listing_text = json.dumps(listing)
        for case in file["cases"]:
            out.append(pytest.param(listing_text, case, id=f"{path.stem}/{case['name']}"))
    return out


_codecs: dict[str, flow_toolkit.Codec] = {}


def codec(listing_text: str) -> flow_toolkit.Codec:
    if listing_text not in _codecs:
        _codecs[listing_text] = flow_toolkit.codec_for(listing_text)
    return _codecs[listing_text]


def expect_refusal(error: flow_toolkit.FlowError, expected: dict[str, str]) -> None:
    assert error.rule == expected["rule"], str(error)
    if "path" in expected:
        assert error.path == expected["path"], str(error)


@pytest.mark.parametrize(("listing_text", "case"), cases("decode"))
def test_decode(listing_text: str, case: dict[str, Any]) -> None:
    limits = case.get("limits", {})
    data: str | bytes = case["input"] if "input" in case else bytes.fromhex(case["input_hex"])
    if "error" in case:
        # A type that cannot cross is refused when its codec is made, before
        # any value: both steps sit inside the refusal.
        with pytest.raises(flow_toolkit.DecodeError) as refused:
            codec(listing_text).type_of(json.dumps(case["type"])).decode(data, **limits)
        expect_refusal(refused.value, case["error"])
        return
    type_codec = codec(listing_text).type_of(json.dumps(case["type"]))
    value = type_codec.decode(data, **limits)
    text = type_codec.encode(value)
    if "canonical" in case:
        assert text == case["canonical"]
    # The Python form round-trips: decoding the text gives an equal value.
    assert type_codec.encode(type_codec.decode(text)) == text


@pytest.mark.parametrize(("listing_text", "case"), cases("listing"))
def test_listing(listing_text: str, case: dict[str, Any]) -> None:
    text = case["listing_text"] if "listing_text" in case else json.dumps(case["listing"])
    if "error" in case:
        with pytest.raises(flow_toolkit.DecodeError) as refused:
            flow_toolkit.check_listing(text)
        expect_refusal(refused.value, case["error"])
    else:
        flow_toolkit.check_listing(text)


@pytest.mark.parametrize(("listing_text", "case"), cases("signature"))
def test_signature(listing_text: str, case: dict[str, Any]) -> None:
    tool = case["tool"]
    if "error" in case:
        with pytest.raises(flow_toolkit.DecodeError) as refused:
            flow_toolkit.tool_signature(listing_text, tool, stripped=True)
        expect_refusal(refused.value, case["error"])
        return
    if "signature" in case:
        assert flow_toolkit.tool_signature(listing_text, tool) == case["signature"]
    if "canonical_signature" in case:
        assert flow_toolkit.tool_signature(listing_text, tool, stripped=True) == case["canonical_signature"]
    if "fingerprint" in case:
        assert flow_toolkit.tool_fingerprint(listing_text, tool) == case["fingerprint"]


def test_every_file_ran() -> None:
    kinds = {json.loads(Path(p).read_text(encoding="utf-8"))["kind"] for p in VECTORS}
    assert {"decode", "listing", "signature", "call_view"} <= kinds
    assert sum(len(cases(k)) for k in ("decode", "listing", "signature")) > 500
