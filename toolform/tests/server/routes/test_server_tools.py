"""tools routes through a real `toolform serve`: every loader's shape read, every export target written,
one fingerprint for one tool set in every shape, and the refusals with their statuses."""

from __future__ import annotations

import json
from typing import Any

import pytest

from support import toolsets
from support.paths import WEATHER_LISTING
from support.serving import Server

FORECAST = toolsets.Tool(
    "get_forecast",
    "Get the weather forecast for a city.",
    {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name."},
            "days": {"type": "integer", "minimum": 1, "maximum": 7},
            "units": {"type": "string", "enum": ["metric", "imperial"]},
        },
        "required": ["city"],
    },
)
READ_FILE = toolsets.Tool(
    "read_file",
    "Read a text file.",
    {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)
TOOLS = [FORECAST, READ_FILE]

SHAPES: dict[str, tuple[str, object]] = {
    "openai-list": ("openai", toolsets.openai_list(TOOLS)),
    "openai-wrapped": ("openai", toolsets.openai_wrapped(TOOLS)),
    "anthropic": ("anthropic", toolsets.anthropic(TOOLS)),
    "mcp": ("mcp", toolsets.mcp(TOOLS)),
    "mcp-jsonrpc": ("mcp", toolsets.mcp_jsonrpc(TOOLS)),
}


def load(server: Server, source: str, payload: object) -> Any:
    reply = server.post("/api/v1/tools/load", {"tools": {"source": source, "payload": payload}})
    assert reply.status == 200, reply.body
    return reply.json()


def export(server: Server, source: str, payload: object, to: str) -> Any:
    reply = server.post("/api/v1/tools/export", {"tools": {"source": source, "payload": payload}, "to": to})
    assert reply.status == 200, reply.body
    return reply.json()


def refusal(server: Server, body: object, route: str = "/api/v1/tools/load") -> tuple[int, dict[str, Any]]:
    reply = server.post(route, body)
    error: dict[str, Any] = reply.json()
    assert set(error) >= {"error", "detail", "status"} and error["status"] == reply.status
    return reply.status, error


@pytest.mark.parametrize("shape", SHAPES)
def test_each_json_shape_loads_by_name_and_by_detection(ours: Server, shape: str) -> None:
    source, payload = SHAPES[shape]
    named, detected = load(ours, source, payload), load(ours, "auto", payload)
    assert named["kind"] == detected["kind"] == source
    assert named["tools"] == detected["tools"]
    assert [tool["name"] for tool in named["tools"]] == ["get_forecast", "read_file"]
    summary = named["summary"]
    assert summary["n_tools"] == 2 and summary["names"] == ["get_forecast", "read_file"]
    assert summary["source"] == source
    assert len(summary["fingerprint"]) == 16 and int(summary["fingerprint"], 16) >= 0
    assert named["warnings"] == summary["warnings"] == []


def test_one_tool_set_has_one_fingerprint_in_every_shape(ours: Server) -> None:
    prints = {shape: load(ours, *SHAPES[shape])["summary"]["fingerprint"] for shape in SHAPES}
    ir = export(ours, "openai", toolsets.openai_list(TOOLS), "ir")["payload"]
    prints["ir"] = load(ours, "ir", ir)["summary"]["fingerprint"]
    assert len(set(prints.values())) == 1, prints


@pytest.mark.parametrize("to", ["openai", "anthropic", "mcp", "ir"])
def test_exported_tools_load_back_to_the_same_tools(ours: Server, to: str) -> None:
    original = load(ours, "openai", toolsets.openai_list(TOOLS))
    written = export(ours, "openai", toolsets.openai_list(TOOLS), to)
    assert written["to"] == to
    assert isinstance(written["warnings"], list)
    again = load(ours, to, written["payload"])
    assert again["tools"] == original["tools"]
    assert again["summary"]["fingerprint"] == original["summary"]["fingerprint"]


def test_export_shapes_are_the_targets(ours: Server) -> None:
    payload = toolsets.anthropic(TOOLS)
    assert export(ours, "anthropic", payload, "mcp")["payload"]["tools"][1]["inputSchema"]["required"] == ["path"]
    openai = export(ours, "anthropic", payload, "openai")["payload"]
    assert openai[0]["type"] == "function" and openai[0]["function"]["name"] == "get_forecast"
    anthropic = export(ours, "mcp", toolsets.mcp(TOOLS), "anthropic")["payload"]
    assert anthropic[1]["input_schema"]["properties"] == {"path": {"type": "string"}}


def test_typescript_declarations_load(ours: Server) -> None:
    loaded = load(ours, "typescript", toolsets.typescript(TOOLS))
    assert loaded["kind"] == "typescript"
    assert [tool["name"] for tool in loaded["tools"]] == ["get_forecast", "read_file"]
    assert load(ours, "auto", toolsets.typescript(TOOLS))["kind"] == "typescript"


def test_a_schema_part_not_read_faithfully_is_a_warning_naming_tool_and_type(ours: Server) -> None:
    odd = toolsets.Tool("f", "", {"type": "object", "properties": {"x": {"type": "strin"}}})
    loaded = load(ours, "openai", toolsets.openai_list([odd]))
    assert loaded["warnings"] == ["tool 'f' at $.x: unknown JSON Schema type 'strin', read as any value"]
    assert loaded["summary"]["warnings"] == loaded["warnings"]


def test_two_hundred_ugly_tools_load_in_every_shape(ours: Server) -> None:
    tools = toolsets.tool_set(7, count=200)
    counts = {shape: load(ours, source, write(tools))["summary"]["n_tools"]
              for shape, (source, write) in toolsets.JSON_SHAPES.items()}
    assert set(counts.values()) == {200}


# -- refusals -------------------------------------------------------------------------------------------

def test_python_is_refused_over_http(ours: Server) -> None:
    status, error = refusal(ours, {"tools": {"source": "python", "payload": "def f(): pass"}})
    assert (status, error["error"]) == (400, "bad_request")
    assert "executes code" in error["detail"]


def test_an_unknown_source_is_400_listing_the_known(ours: Server) -> None:
    status, error = refusal(ours, {"tools": {"source": "xyz", "payload": []}})
    assert status == 400
    known = "auto, openai, anthropic, mcp, ir, typescript, flow"
    assert error["detail"] == f"unknown tools source 'xyz'; use one of {known}"


@pytest.mark.parametrize(
    ("payload", "detail"),
    [(None, "tools.payload is empty"), (True, "tools.payload must be a JSON object, a JSON array or a string"),
     (1.5, "tools.payload must be a JSON object, a JSON array or a string")],
)
def test_a_payload_of_no_usable_shape_is_400(ours: Server, payload: object, detail: str) -> None:
    assert refusal(ours, {"tools": {"source": "auto", "payload": payload}}) == (
        400, {"error": "bad_request", "detail": detail, "status": 400})


def test_typescript_must_be_text(ours: Server) -> None:
    status, error = refusal(ours, {"tools": {"source": "typescript", "payload": {"a": 1}}})
    assert status == 400 and error["detail"] == "a typescript payload must be the source text as a string"


@pytest.mark.parametrize(("source", "article"), [("openai", "an"), ("anthropic", "an"), ("mcp", "an"), ("ir", "an"),
                                                ("flow", "a")])
@pytest.mark.parametrize("payload", ["not json", "5", '"tools"', "  true", ""])
def test_text_that_is_no_json_array_or_object_is_400_for_a_json_shape(
    ours: Server, source: str, article: str, payload: str
) -> None:
    status, error = refusal(ours, {"tools": {"source": source, "payload": payload}})
    assert (status, error["error"]) == (400, "bad_request"), error
    assert error["detail"].startswith(f"{article} {source} payload must be JSON, not text: "), error


@pytest.mark.parametrize("payload", ['[{"name": ', '  {"tools": [1,'])
def test_json_text_that_does_not_parse_is_a_loader_error_with_its_line(ours: Server, payload: str) -> None:
    status, error = refusal(ours, {"tools": {"source": "openai", "payload": payload}})
    assert (status, error["error"], error.get("line")) == (422, "loader_error", 1), error


@pytest.mark.parametrize("payload", [[], {"tools": []}])
def test_no_tools_at_all_is_a_loader_error(ours: Server, payload: object) -> None:
    status, error = refusal(ours, {"tools": {"source": "auto", "payload": payload}})
    assert (status, error["error"]) == (422, "loader_error")


def test_a_typescript_syntax_error_is_a_loader_error_with_its_line(ours: Server) -> None:
    status, error = refusal(ours, {"tools": {"source": "typescript",
                                             "payload": "function f(a: string): void;\nfunction g(: ;"}})
    assert (status, error["error"], error["line"]) == (422, "loader_error", 2)


def test_tools_that_do_not_load_are_a_loader_error(ours: Server) -> None:
    status, error = refusal(ours, {"tools": {"source": "openai", "payload": [{"bad": 1}]}})
    assert (status, error["error"]) == (422, "loader_error")


@pytest.mark.parametrize("route", ["/api/v1/tools/load", "/api/v1/tools/export"])
def test_more_tools_than_the_limit_is_413_before_loading(ours: Server, route: str) -> None:
    body: dict[str, object] = {"tools": {"source": "openai", "payload": [{"bad": 1}] * 2001}}
    if route.endswith("export"):
        body["to"] = "mcp"
    assert refusal(ours, body, route) == (
        413, {"error": "payload_too_large", "detail": "2,001 tools; the limit is 2,000", "status": 413})


def test_more_text_than_the_limit_is_413(ours: Server) -> None:
    status, error = refusal(ours, {"tools": {"source": "typescript", "payload": "x" * 1_000_001}})
    assert status == 413
    assert error["detail"] == "tools.payload has 1,000,001 characters; the limit is 1,000,000"


def test_the_openapi_example_body_loads(ours: Server) -> None:
    example = ours.get("/openapi.json").json()["components"]["schemas"]["ToolsLoadRequest"]["examples"][0]
    loaded = ours.post("/api/v1/tools/load", example)
    assert loaded.status == 200, loaded.body
    assert json.loads(loaded.body)["summary"]["names"] == ["get_forecast"]


def test_a_number_no_float_holds_is_400_naming_its_path(ours: Server) -> None:
    body = (b'{"tools": {"source": "openai", "payload": [{"type": "function", "function": {"name": "a", '
            b'"parameters": {"type": "object", "properties": {"x": {"type": "number", "default": 1e400}}}}}]}}')
    reply = ours.post("/api/v1/tools/load", raw=body, headers={"Content-Type": "application/json"})
    assert reply.status == 400
    error = reply.json()
    assert error["error"] == "bad_request"
    assert error["detail"].startswith(
        "$.tools.payload[0].function.parameters.properties.x.default is a number too large for a float"
    )


@pytest.mark.parametrize("as_text", [True, False])
def test_a_flow_listing_loads_with_each_tools_identity_and_fingerprint(ours: Server, as_text: bool) -> None:
    text = WEATHER_LISTING.read_text(encoding="utf-8")
    payload: object = text if as_text else json.loads(text)
    for source in ("flow", "auto"):
        loaded = load(ours, source, payload)
        assert loaded["kind"] == "flow" and loaded["summary"]["source"] == "flow"
        for tool in loaded["tools"]:
            flow = tool["annotations"]["flow"]
            assert flow["identity"].rsplit(".", 1)[-1] == tool["name"]
            assert len(flow["fingerprint"]) > 0


def test_a_flow_listing_exports_to_mcp(ours: Server) -> None:
    written = export(ours, "flow", WEATHER_LISTING.read_text(encoding="utf-8"), "mcp")
    names = [tool["name"] for tool in written["payload"]["tools"]]
    assert names == [tool["name"] for tool in load(ours, "flow", WEATHER_LISTING.read_text())["tools"]]


def test_a_flow_listing_flow_toolkit_refuses_is_a_loader_error_with_path_and_rule(ours: Server) -> None:
    listing = json.loads(WEATHER_LISTING.read_text(encoding="utf-8"))
    listing["tools"][0]["tool"] = 5
    status, error = refusal(ours, {"tools": {"source": "flow", "payload": listing}})
    assert (status, error["error"]) == (422, "loader_error")
    assert error["detail"].startswith("the Flow listing is refused at $.tools[0]")


def test_typescript_has_the_json_shapes_fingerprint_for_the_types_it_can_say(ours: Server) -> None:
    # TypeScript has one number type, so the set uses number, not integer; everything else it says exactly.
    said = [toolsets.Tool("read_file", "Read a text file.", {
        "type": "object",
        "properties": {"path": {"type": "string"}, "size": {"type": "number"}, "follow": {"type": "boolean"},
                       "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["path"],
    })]
    from_json = load(ours, "openai", toolsets.openai_list(said))["summary"]["fingerprint"]
    assert load(ours, "typescript", toolsets.typescript(said))["summary"]["fingerprint"] == from_json
    assert load(ours, "mcp", toolsets.mcp(said))["summary"]["fingerprint"] == from_json
