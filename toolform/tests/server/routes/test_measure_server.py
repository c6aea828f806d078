"""ab-test over HTTP: ours and the reference on loopback against one scripted endpoint give the same scores."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from support.measure_cases import (
    EXAMPLES,
    THERMOSTAT,
    THERMOSTAT_EXAMPLES,
    TOOLS_INPUT,
    all_wrong,
    both_right,
    example_of,
    json_wins,
    thermostat_slips,
    varied,
    xml_call,
)
from support.scripted_endpoint import Answer, Prompt, ScriptedEndpoint
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server

Script = Callable[[Prompt], Answer]
SIXTEEN_FORMATS = [
    f"{language}_signature"
    for language in ("go", "rust", "java", "kotlin", "swift", "csharp", "cpp", "ocaml", "scala", "elixir", "julia",
                     "ruby", "php", "lua")
] + ["c_header", "haskell_curried"]
CORE_MARKS = {"single JSON object": "json", "<function_calls>": "xml", "Python-style call": "python"}


def by_protocol(prompt: Prompt) -> Answer:
    """The right call in whichever of json_object, xml_call or python_call the prompt asks for; prose otherwise."""
    example = example_of(prompt)
    kind = next((k for mark, k in CORE_MARKS.items() if mark in prompt.system), "prose")
    if not example["calls"] or kind == "prose":
        return Answer("No tool fits that request.", prompt_tokens=30, completion_tokens=5)
    call = example["calls"][0]
    if kind == "json":
        return Answer(json.dumps(call), prompt_tokens=30, completion_tokens=9)
    if kind == "xml":
        return Answer(xml_call(call), prompt_tokens=30, completion_tokens=12)
    arguments = ", ".join(f"{k}={json.dumps(v)}" for k, v in call["arguments"].items())
    return Answer(f"{call['name']}({arguments})", prompt_tokens=30, completion_tokens=7)


class Switch:
    """A script the test changes between jobs, so one endpoint serves both servers."""

    def __init__(self) -> None:
        self.script: Script = json_wins

    def __call__(self, prompt: Prompt) -> Answer:
        return self.script(prompt)


@pytest.fixture(scope="module")
def switch() -> Switch:
    return Switch()


@pytest.fixture(scope="module")
def endpoint(switch: Switch) -> Iterator[ScriptedEndpoint]:
    with ScriptedEndpoint(switch, models=("m1",)) as served:
        yield served


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("evidence-store")


@pytest.fixture(scope="module")
def measuring(endpoint: ScriptedEndpoint, store: Path) -> Iterator[Server]:
    arguments = ["--endpoint", endpoint.base_url, "--endpoint-model", "m1", "--evidence-dir", str(store)]
    with Server(OUR_TOOLFORM, arguments) as server:
        yield server


@pytest.fixture(scope="module")
def reference_measuring(endpoint: ScriptedEndpoint) -> Iterator[Server]:
    with Server(REFERENCE_TOOLFORM, ["--endpoint", endpoint.base_url, "--endpoint-model", "m1"]) as server:
        yield server


def finished(server: Server, body: dict[str, Any]) -> dict[str, Any]:
    started = server.post("/api/v1/ab-test", body)
    assert started.status == 202, started.body
    job_id = started.json()["job_id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job: dict[str, Any] = server.get(f"/api/v1/ab-test/{job_id}").json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish")


JOBS = [
    ("json_wins", json_wins, {"formats": ["json_schema_openai", "xml_schema"]}),
    ("both_right", both_right, {"formats": ["json_schema_openai", "xml_schema"], "rule": "main"}),
    ("all_wrong", all_wrong, {"formats": ["json_schema_openai", "xml_schema"], "rule": "as_written"}),
    ("core_eight", by_protocol, {"formats": None, "concurrency": 8}),
    *((f"varied_{rule}", varied, {"formats": None, "rule": rule}) for rule in ("main", "symmetric", "as_written")),
    ("thermostat_slips", thermostat_slips, {"tools": THERMOSTAT, "examples": THERMOSTAT_EXAMPLES,
                                            "formats": ["json_schema_openai", "xml_schema", "python_stub"]}),
]


@pytest.mark.parametrize(("name", "script", "options"), JOBS, ids=[j[0] for j in JOBS])
def test_the_same_job_scores_the_same_on_both_servers(
    name: str, script: Script, options: dict[str, Any], switch: Switch, measuring: Server,
    reference_measuring: Server,
) -> None:
    switch.script = script
    body = {"tools": TOOLS_INPUT, "examples": EXAMPLES, **options}
    ours, theirs = finished(measuring, body), finished(reference_measuring, body)
    assert ours["status"] == theirs["status"] == "done"
    ours_result, their_result = ours["result"], theirs["result"]
    for member in their_result:
        if member in ("elapsed_s", "summary", "scores"):
            continue
        assert ours_result[member] == their_result[member], member
    assert len(ours_result["scores"]) == len(their_result["scores"])
    for mine, reference in zip(ours_result["scores"], their_result["scores"], strict=True):
        assert {k: mine[k] for k in reference} == reference


def test_a_job_over_http_with_records_and_the_local_evidence(
    switch: Switch, measuring: Server, store: Path
) -> None:
    switch.script = json_wins
    job = finished(measuring, {"tools": TOOLS_INPUT, "examples": EXAMPLES, "formats": ["json_schema_openai"]})
    assert job["done"] == job["total"] == len(EXAMPLES) and job["error"] is None
    assert job["result"]["records"] == []  # as the reference answers; ?records=true has them
    full = measuring.get(f"/api/v1/ab-test/{job['id']}?records=true").json()
    records = full["result"]["records"]
    assert len(records) == len(EXAMPLES) and all(r["correct"] for r in records)
    assert {"reply", "retries", "prompt_tokens", "instance_id"} <= set(records[0])
    files = json.loads((store / "manifest.json").read_text())["files"]
    assert any(json.loads((store / f["name"]).read_text())["job_id"] == job["id"] for f in files)


def test_refusals_as_the_reference_answers(measuring: Server, reference_measuring: Server) -> None:
    cases: list[dict[str, Any]] = [
        {"examples": EXAMPLES},
        {"n_requests": 0},
        {"concurrency": 33},
        {"n_tools": 257},
        {"tier": 6},
        {"formats": [f"f{i}" for i in range(17)]},
        {"formats": ["json_schema"]},
        {"rule": "strictest"},
        # 16 formats times 1,300 examples is over max_ab_requests (20,000).
        {"tools": TOOLS_INPUT, "examples": [EXAMPLES[0]] * 1300, "formats": SIXTEEN_FORMATS},
    ]
    for body in cases:
        ours, theirs = measuring.post("/api/v1/ab-test", body), reference_measuring.post("/api/v1/ab-test", body)
        assert ours.status == theirs.status, (body, ours.body, theirs.body)
        assert ours.json()["error"] == theirs.json()["error"]
    for server in (measuring, reference_measuring):
        for method in ("GET", "DELETE"):
            missing = server.request(method, "/api/v1/ab-test/nope")
            assert missing.status == 404 and missing.json()["error"] == "job_not_found"


def test_deliberately_stricter_an_example_calling_no_listed_tool(measuring: Server) -> None:
    """The reference queues such a job and grades every reply to it wrong; ours refuses it, naming the member."""
    body = {"tools": TOOLS_INPUT, "examples": [{"request": "x", "calls": [{"name": "nope", "arguments": {}}]}]}
    answer = measuring.post("/api/v1/ab-test", body)
    assert answer.status == 400 and answer.json()["error"] == "bad_request"
    assert answer.json()["detail"].startswith("$.examples[0].calls[0].name 'nope' is not one of the tools")


def test_no_endpoint_is_409_on_both() -> None:
    body = {"formats": ["json_schema_openai"]}
    for executable in (OUR_TOOLFORM, REFERENCE_TOOLFORM):
        with Server(executable) as server:
            answer = server.post("/api/v1/ab-test", body)
            assert answer.status == 409 and answer.json()["error"] == "no_endpoint"
            assert "start the server with --endpoint URL --endpoint-model ID" in answer.json()["detail"]


def test_429_when_max_jobs_wait_and_delete_at_any_state(switch: Switch, measuring: Server) -> None:
    switch.script = lambda prompt: Answer(json_wins(prompt).text, delay_s=0.3)
    body = {"tools": TOOLS_INPUT, "examples": EXAMPLES, "formats": ["json_schema_openai"], "concurrency": 1}
    ids = [measuring.post("/api/v1/ab-test", body).json()["job_id"] for _ in range(4)]
    refused = measuring.post("/api/v1/ab-test", body)
    assert refused.status == 429 and refused.json()["error"] == "too_many_jobs"
    states = [measuring.request("DELETE", f"/api/v1/ab-test/{job_id}").json()["status"] for job_id in ids]
    assert states[1:] == ["cancelled"] * 3 and states[0] in ("running", "cancelled")
    deadline = time.monotonic() + 30
    while measuring.get(f"/api/v1/ab-test/{ids[0]}").json()["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    first = measuring.get(f"/api/v1/ab-test/{ids[0]}").json()
    assert first["status"] == "cancelled" and first["done"] < first["total"]
    switch.script = json_wins


def test_a_finished_job_is_local_evidence_that_recommend_rests_on(
    switch: Switch, endpoint: ScriptedEndpoint, tmp_path: Path
) -> None:
    switch.script = json_wins
    arguments = ["--endpoint", endpoint.base_url, "--endpoint-model", "m1", "--evidence-dir", str(tmp_path)]
    with Server(OUR_TOOLFORM, arguments) as server:
        job = finished(server, {"tools": TOOLS_INPUT, "examples": EXAMPLES, "formats": ["json_schema_openai",
                                                                                       "xml_schema"]})
        assert job["status"] == "done"
        [listed] = server.get("/api/v1/evidence").json()["local"]["files"]
        source = listed["source"]
        facts = [f for f in server.get("/api/v1/facts").json()["facts"] if f["source"] == source]
        assert [(f["value"], f["interval"]) for f in facts] == [(100.0, [70.08, 100.0]), (11.11, [1.99, 43.5])]
        situation = {"model": "m1", "rule": "symmetric"}
        advice = server.post("/api/v1/recommend", {"situation": situation, "tools": TOOLS_INPUT}).json()
    assert (advice["basis"], advice["format_id"], advice["interval"]) == (source, "json_schema_openai", [70.08, 100.0])
    assert any("rests on a measurement made here" in warning for warning in advice["warnings"])
