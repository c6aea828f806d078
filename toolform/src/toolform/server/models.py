"""The request and response bodies of the API, as pydantic models.

Requests are validated by these models (unknown members refused). Responses are
the SDK objects' ``to_dict()``; their models here document them in /openapi.json
and keep the members they list, allowing more.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from toolform.conversion import EXPORT_TARGETS, HTTP_SOURCES

_FORECAST_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_forecast",
        "description": "Get the weather forecast for a city.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, for example Denver."},
                "days": {"type": "integer", "minimum": 1, "maximum": 7, "description": "How many days to forecast."},
                "units": {
                    "type": "string",
                    "enum": ["metric", "imperial"],
                    "default": "metric",
                    "description": "Unit system for temperatures.",
                },
            },
            "required": ["city"],
        },
    },
}
TOOLS_EXAMPLE: dict[str, Any] = {"source": "openai", "payload": [_FORECAST_TOOL]}


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Response(BaseModel):
    model_config = ConfigDict(extra="allow")


class ToolsInput(_Request):
    """Tools in any accepted JSON shape, or TypeScript or Flow source text."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [TOOLS_EXAMPLE]})

    # A string, not an enum, so an unknown source is a 400 that lists the known ones.
    source: str = Field(
        "auto",
        description=(
            "One of " + ", ".join(HTTP_SOURCES) + ". Python is not accepted over HTTP because loading it "
            "executes code."
        ),
        json_schema_extra={"enum": list(HTTP_SOURCES)},
    )
    payload: Any = Field(
        ...,
        description=(
            "OpenAI function JSON, Anthropic tool JSON, an MCP tools/list result (or its JSON-RPC response), "
            "the IR, or for typescript and flow the source text."
        ),
    )


class ToolsLoadRequest(_Request):
    """Tools to read into the IR and summarise."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"tools": TOOLS_EXAMPLE}]})

    tools: ToolsInput


class ToolsExportRequest(_Request):
    """Tools to write in another shape."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"tools": TOOLS_EXAMPLE, "to": "mcp"}]}
    )

    tools: ToolsInput
    to: Literal["openai", "anthropic", "mcp", "ir"] = Field(description="One of " + ", ".join(EXPORT_TARGETS) + ".")


class ErrorBody(_Response):
    """Every error the API returns has this shape."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [
                {
                    "error": "unknown_format",
                    "detail": "unknown format 'xml_schem'; close matches: xml_schema, yaml_schema",
                    "status": 404,
                }
            ]
        },
    )

    error: str = Field(
        description=(
            "A short code: bad_request, not_found, method_not_allowed, unknown_format, unknown_protocol, "
            "payload_too_large, misdirected_request, loader_error, validation_error, internal_error or "
            "evidence_unavailable."
        )
    )
    detail: Any = Field(description="What went wrong, in words (FastAPI's list for validation_error).")
    status: int = Field(description="The HTTP status, repeated in the body.")
    line: int | None = Field(None, description="For loader_error, the source line when known.")


class EvidenceState(_Response):
    """Whether the study's evidence is present and every file matched its manifest."""

    status: Literal["ok", "missing", "failed"]
    detail: str
    pinned: bool = Field(description="The manifest is the one this ToolForm was built against.")


class IndexResponse(_Response):
    """Where things are."""

    name: str
    version: str
    api: str
    docs: str
    openapi: str
    health: str


class HealthResponse(_Response):
    """Liveness and the parts of the configuration a client needs."""

    status: str
    version: str
    evidence_version: str | None
    endpoint_configured: bool
    allow_client_endpoints: bool
    evidence: EvidenceState


class VersionResponse(_Response):
    """Versions of toolform, the evidence and Python."""

    framework: str
    evidence: str | None
    python: str


class FormatsResponse(_Response):
    """Formats with their registry metadata and measured block; the counts ignore the filters."""

    formats: list[dict[str, Any]]
    count_in_study: int
    count_registered: int


class FormatDetail(_Response):
    """One format's registry entry."""

    id: str
    name: str
    family: str
    default_protocol: str
    novel: bool


class ProtocolsResponse(_Response):
    """Every answer protocol."""

    protocols: list[dict[str, Any]]


class ModelsResponse(_Response):
    """The study's model zoo (zoo.json's data)."""

    models: list[dict[str, Any]]
    families: dict[str, Any]
    patterns: list[list[str]]


class FactsResponse(_Response):
    """The headline facts, each with its source label."""

    facts: list[dict[str, Any]]


class ToolsLoadResponse(_Response):
    """The tools in the IR, a summary, the shape that was read, and what was not read faithfully."""

    tools: list[dict[str, Any]]
    summary: dict[str, Any]
    kind: str
    warnings: list[str] = Field(description="For example an unknown JSON Schema type, read as any value.")


class ToolsExportResponse(_Response):
    """The tools in the requested shape, and what was lost: in reading them, then in that shape."""

    to: str
    payload: Any
    warnings: list[str] = []
