"""registry routes: the evidence's formats, protocols and models, filtered and looked up."""

from __future__ import annotations

from typing import Any

import pytest

from support.evidence_files import evidence_json
from support.serving import Server


def _formats() -> dict[str, dict[str, Any]]:
    formats: dict[str, dict[str, Any]] = evidence_json("formats")["data"]
    return formats


def test_formats_lists_every_registered_format_as_the_evidence_has_it(ours: Server) -> None:
    listing = ours.get("/api/v1/formats").json()
    assert listing["count_registered"] == 133
    assert listing["count_in_study"] == 129
    # As the evidence has each format, but supports_constraints, which says what the rendered text shows.
    assert [{**f, "supports_constraints": None} for f in listing["formats"]] == [
        {**f, "supports_constraints": None} for f in _formats().values()
    ]
    assert sum(1 for f in listing["formats"] if f["supports_constraints"]) == 23
    # Every measured block keeps its source label; the four two-stage variants were not measured.
    unmeasured = [entry["id"] for entry in listing["formats"] if entry["measured"] is None]
    assert all(entry["two_stage"] for entry in listing["formats"] if entry["id"] in unmeasured)
    assert len(unmeasured) == 4
    for entry in listing["formats"]:
        if entry["measured"] is not None:
            assert entry["measured"]["source"] == "export:format_leaderboard"


@pytest.mark.parametrize(
    ("query", "keep"),
    [
        ("core=true", lambda f: f["core"] is True),
        ("core=false", lambda f: f["core"] is False),
        ("core=1", lambda f: f["core"] is True),
        ("family=json", lambda f: f["family"] == "json"),
        ("family=markup&core=true", lambda f: f["family"] == "markup" and f["core"] is True),
        ("in_study=false", lambda f: f["in_study"] is False),
        ("family=", lambda f: True),
        ("family=JSON", lambda f: False),
    ],
)
def test_formats_filters_and_keeps_the_registry_counts(ours: Server, query: str, keep: Any) -> None:
    listing = ours.get(f"/api/v1/formats?{query}").json()
    assert [f["id"] for f in listing["formats"]] == [f["id"] for f in _formats().values() if keep(f)]
    assert (listing["count_registered"], listing["count_in_study"]) == (133, 129)


def test_core_is_the_eight_core_formats(ours: Server) -> None:
    assert len(ours.get("/api/v1/formats?core=true").json()["formats"]) == 8


def test_a_filter_that_is_not_a_boolean_is_a_validation_error(ours: Server) -> None:
    reply = ours.get("/api/v1/formats?core=abc")
    assert reply.status == 422
    error = reply.json()
    assert (error["error"], error["status"]) == ("validation_error", 422)
    assert error["detail"][0]["loc"] == ["query", "core"]


def test_one_format_is_its_registry_entry_with_the_sample_rendered(ours: Server) -> None:
    reply = ours.get("/api/v1/formats/xml_schema")
    assert reply.status == 200
    detail = reply.json()
    sample = detail.pop("sample")
    # xml_schema's text shows no constraint, whatever the study's registry claims.
    assert detail == {**_formats()["xml_schema"], "supports_constraints": False}
    assert sample["text"].startswith("<tools>")
    assert sample["tokens_estimate"] > 0


@pytest.mark.parametrize(
    ("wanted", "detail"),
    [
        ("xml_schem", "unknown format 'xml_schem'; close matches: xml_schema, yaml_schema, diff_schema, "
         "avro_schema, names_then_schema"),
        ("csvv", "unknown format 'csvv'; close matches: csv, tsv"),
        ("nope", "unknown format 'nope'"),
    ],
)
def test_an_unknown_format_is_404_with_close_matches(ours: Server, wanted: str, detail: str) -> None:
    reply = ours.get(f"/api/v1/formats/{wanted}")
    assert reply.status == 404
    assert reply.json() == {"error": "unknown_format", "detail": detail, "status": 404}


def test_protocols_lists_the_31_protocols_in_the_registry_order(ours: Server) -> None:
    protocols = ours.get("/api/v1/protocols").json()["protocols"]
    assert protocols == list(evidence_json("protocols")["data"].values())
    assert len(protocols) == 31


def test_models_is_the_zoo(ours: Server) -> None:
    zoo = ours.get("/api/v1/models").json()
    assert zoo == evidence_json("zoo")["data"]
    assert {"models", "families", "patterns"} <= set(zoo)
