"""The verbs a person reaches for first: listing ids, inspecting a tool set, and output that reads well in a pipe."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from toolform.loaders import load
from toolform.summary import summarize

from support.evidence_files import evidence_json
from support.serving import OUR_TOOLFORM, Server

TOOLS = [
    {"type": "function", "function": {"name": "send_email", "description": "Send an email.", "parameters": {
        "type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string"}}, "required": ["to"]}}},
    {"type": "function", "function": {"name": "get_forecast", "description": "The forecast.", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
]


def toolform(*arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TOOLFORM_")}
    return subprocess.run(
        [str(OUR_TOOLFORM), *arguments], capture_output=True, text=True, env=environment, timeout=60, check=False,
        input=stdin,
    )


def _tools(tmp_path: Path, tools: object = None) -> str:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(TOOLS if tools is None else tools))
    return str(path)


def test_formats_lists_every_format_with_its_figures_and_source() -> None:
    formats = evidence_json("formats")["data"]
    done = toolform("formats")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    rows = {line.split()[0]: line for line in lines[2 : 2 + len(formats)]}
    assert sorted(rows) == sorted(formats)
    xml = formats["xml_schema"]["measured"]
    assert f"{xml['call_exact']:.2f}%" in rows["xml_schema"]
    assert f"{xml['mean_schema_tokens']:,.1f}" in rows["xml_schema"]
    assert xml["source"] in rows["xml_schema"]
    unmeasured = [format_id for format_id, entry in formats.items() if entry["measured"] is None]
    assert unmeasured and all(rows[format_id].endswith("not measured") for format_id in unmeasured)
    assert "export:format_leaderboard" in lines[-1] and xml["as_of"] in lines[-1]
    core = toolform("formats", "--core", "--sort", "accuracy").stdout.splitlines()[2:10]
    accuracies = [float(line.split()[3].rstrip("%")) for line in core]
    assert accuracies == sorted(accuracies, reverse=True) and len(core) == 8
    assert json.loads(toolform("formats", "--json").stdout)["count_registered"] == len(formats)
    unknown = toolform("formats", "--family", "JSON")
    assert unknown.returncode == 3 and unknown.stdout == ""
    assert unknown.stderr.startswith("error: no format has the family 'JSON'; the families: code, config,")


def test_protocols_and_models_list_their_ids_with_the_source() -> None:
    protocols = evidence_json("protocols")["data"]
    done = toolform("protocols")
    ids = [line.split()[0] for line in done.stdout.splitlines()[2 : 2 + len(protocols)]]
    assert sorted(ids) == sorted(protocols)
    assert "registry:protocols" in done.stdout.splitlines()[-1]
    zoo = evidence_json("zoo")
    models = toolform("models", "--in-study")
    studied = [m["id"] for m in zoo["data"]["models"] if m["in_study"]]
    assert [line.split()[0] for line in models.stdout.splitlines()[2 : 2 + len(studied)]] == studied
    assert models.stdout.splitlines()[-1].endswith(f"Source {', '.join(zoo['source'])}.")


def test_inspect_prints_the_summary_and_the_fingerprint(tmp_path: Path) -> None:
    summary = summarize(load("openai", TOOLS).toolset)
    done = toolform("inspect", _tools(tmp_path))
    assert done.returncode == 0, done.stderr
    assert f"fingerprint  {summary.fingerprint}" in done.stdout.splitlines()
    assert "tools        2 tools (read as openai)" in done.stdout
    assert f"tier         {summary.tier_estimate} of 5" in done.stdout
    as_json = json.loads(toolform("inspect", "--json", _tools(tmp_path)).stdout)
    assert as_json["fingerprint"] == summary.fingerprint and as_json["names"] == ["send_email", "get_forecast"]


def test_a_closed_pipe_ends_quietly() -> None:
    # `toolform formats --json | head -1`: the reader goes away after one line.
    with subprocess.Popen(
        [str(OUR_TOOLFORM), "formats", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as writer:
        assert writer.stdout is not None and writer.stderr is not None
        writer.stdout.readline()
        writer.stdout.close()
        errors = writer.stderr.read()
        status = writer.wait(timeout=60)
    assert errors == b""
    assert status in (0, 141)


def test_fit_summarizes_its_removals_and_lists_them_when_verbose(tmp_path: Path) -> None:
    many = [
        {"type": "function", "function": {"name": f"tool_{i}", "description": f"Does thing {i} with care.",
                                          "parameters": {"type": "object", "properties": {
                                              f"p{j}": {"type": "string", "description": f"parameter {j}, at length"}
                                              for j in range(5)}, "required": ["p0"]}}}
        for i in range(40)
    ]
    path = _tools(tmp_path, many)
    short = toolform("catalogue", path, "--budget", "600", "--fit")
    assert short.returncode == 0, short.stderr
    assert "  dropped " not in short.stdout
    summary = [line for line in short.stdout.splitlines() if "removals (" in line]
    assert len(summary) == 1 and "--verbose lists each" in summary[0]
    count = int(summary[0].split()[0].replace(",", ""))
    listed = toolform("catalogue", path, "--budget", "600", "--fit", "--verbose")
    assert sum(line.startswith("  dropped ") for line in listed.stdout.splitlines()) == count > 20


def test_parse_says_what_a_name_resolved_to_and_offers_a_near_one(tmp_path: Path) -> None:
    path = _tools(tmp_path)
    resolved = toolform("parse", path, "--protocol", "json_object",
                        "--text", '{"name": "sendEmail", "arguments": {"to": "a@example.com"}}')
    assert resolved.returncode == 0, resolved.stdout + resolved.stderr
    assert "    sendEmail resolved to send_email" in resolved.stdout.splitlines()
    near = toolform("parse", path, "--protocol", "json_object",
                    "--text", '{"name": "send_mail", "arguments": {"to": "a@example.com"}}')
    assert near.returncode == 1
    assert "    did you mean send_email?" in near.stdout.splitlines()
    far = toolform("parse", path, "--protocol", "json_object", "--text", '{"name": "zzz", "arguments": {}}')
    assert "did you mean" not in far.stdout


def test_the_recommend_table_gives_the_cost_its_unit(tmp_path: Path) -> None:
    done = toolform("recommend", "--model", "Qwen/Qwen3-8B", "--tools-file", _tools(tmp_path))
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if line.startswith("alternative"))
    assert "cost/request (price units, frontier_api prices)" in header


def test_the_serve_banner_names_the_dashboard_and_the_docs() -> None:
    with Server(OUR_TOOLFORM) as server:
        url = server.base_url
        banner = server.output().splitlines()[0]
    assert banner == (
        f"ToolForm on {url}: the dashboard at {url}/ in a browser, the API under /api/v1 "
        "(docs at /docs and /redoc, OpenAPI at /openapi.json)"
    )
