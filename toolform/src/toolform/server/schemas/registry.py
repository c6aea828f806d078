"""The formats, protocols and models answers."""

from __future__ import annotations

from typing import Any

from toolform.server.schemas.common import ResponseBody


class FormatsResponse(ResponseBody):
    """Formats with their registry metadata and measured block; the counts ignore the filters."""

    formats: list[dict[str, Any]]
    count_in_study: int
    count_registered: int


class FormatSample(ResponseBody):
    """The study's sample tool rendered in one format, with its protocol's instructions."""

    text: str
    instructions: str
    tokens_estimate: int


class FormatDetail(ResponseBody):
    """One format's registry entry, with the sample tool rendered in it."""

    id: str
    name: str
    family: str
    default_protocol: str
    novel: bool
    sample: FormatSample


class ProtocolsResponse(ResponseBody):
    """Every answer protocol."""

    protocols: list[dict[str, Any]]


class ModelsResponse(ResponseBody):
    """The study's model zoo (zoo.json's data)."""

    models: list[dict[str, Any]]
    families: dict[str, Any]
    patterns: list[list[str]]
