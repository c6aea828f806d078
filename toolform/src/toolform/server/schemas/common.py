"""The tools object, the bases of every request and response body, and the error shape."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from toolform.conversion import HTTP_SOURCES
from toolform.limits import Limits

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


class RequestBody(BaseModel):
    """A request body: unknown members refused."""

    model_config = ConfigDict(extra="forbid")

    def check_limits(self, limits: Limits) -> None:
        """Refuse text members over the size limits (PayloadTooLarge); checked before the body's tools are read."""


class ResponseBody(BaseModel):
    """A response body: the members it lists, and any more the SDK object's ``to_dict()`` gives."""

    model_config = ConfigDict(extra="allow")


class ToolsInput(RequestBody):
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


class ErrorBody(ResponseBody):
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
