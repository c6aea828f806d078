"""ToolForm against a real model: the local llama.cpp server (local_model.py) with Qwen2.5-Coder-0.5B-Instruct.

An ab-test of two formats on the Flow weather Tools and on a tool set with
required arrays and nested objects, through the job manager as the server and
the command line run it: every request recorded with the token usage the model
reported, the intervals computed from the counts, the measurement stored and
then found by ``recommend``. The call loop reads the model's reply, checks its
call by Flow's exact decoding, runs the Python weather Tool through flow-host on
it and hands the outcome back to the model.

What these tests assert is the plumbing and its honesty, never the model's
accuracy: a format may score 0 of 2. The one behaviour relied on is that this
model, greedy at temperature 0, calls get_forecast when asked for a forecast
(the call loop's test says so when it does not). Requests are few and short
(max_tokens 96): the whole file takes well under a minute on a 2-core machine
of its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from toolform.advisor import Situation, recommend
from toolform.call import TOOL_RESULT_HEADER, EndpointConfig, FlowTools, OpenAIChat, flow_parser, run_call
from toolform.call.endpoint import ChatReply
from toolform.evidence import Evidence
from toolform.evidence.local import open_store, wilson_interval
from toolform.loaders import load
from toolform.measure import AbTestOptions, JobManager, MeasureReport, build_spec, verdict_of
from toolform.measure.start import EndpointConfig as MeasureEndpoint
from toolform.summary import summarize

from support.call_tools import FLOW_ENV, PYTHON_WEATHER
from support.local_model import MODEL_NAME, LocalModel, wait_until
from support.measure_cases import OFFICE_TOOLS
from support.paths import WEATHER_LISTING

# Two compact formats: the prompt is most of the model's time (the whole block is evaluated once per format).
FORMATS = ["json_minimal", "python_stub"]
WEATHER_TOOLS: dict[str, Any] = {"source": "flow", "payload": WEATHER_LISTING.read_text(encoding="utf-8")}
TOOL_SETS: dict[str, dict[str, Any]] = {
    "weather": WEATHER_TOOLS, "office": {"source": "openai", "payload": OFFICE_TOOLS},
}
#: Two requests per format, short replies: a measurement of plumbing, not of the model.
N_REQUESTS = 2
MAX_TOKENS = 96
JOB_SECONDS = 600.0


def _measure(model: LocalModel, tools: dict[str, Any], store: Path) -> MeasureReport:
    started = build_spec(
        AbTestOptions(model=MODEL_NAME, tools=tools, formats=FORMATS, n_requests=N_REQUESTS, seed=1,
                      max_tokens=MAX_TOKENS, concurrency=2),
        MeasureEndpoint(model.base_url, MODEL_NAME),
    )
    job = JobManager(store_dir=store).submit(started.spec)
    wait_until(lambda: job.status in ("done", "failed", "cancelled"), JOB_SECONDS)
    assert job.status == "done", job.error
    assert job.result is not None
    return job.result


@pytest.mark.parametrize("name", sorted(TOOL_SETS))
def test_an_ab_test_on_the_real_model_is_recorded_stored_and_recommended_from(
    local_model: LocalModel, tmp_path: Path, name: str, evidence: Evidence
) -> None:
    tools = TOOL_SETS[name]
    report = _measure(local_model, tools, tmp_path)
    toolset = load(str(tools["source"]), tools["payload"]).toolset
    own = summarize(toolset)

    # Every request recorded once, each with the usage the model reported.
    assert report.total_requests == len(report.records) == len(FORMATS) * N_REQUESTS
    assert sorted((r.format_id, r.instance_id) for r in report.records) == sorted(
        (f, f"generated-{i}") for f in FORMATS for i in range(N_REQUESTS))
    for record in report.records:
        assert record.error == "" and record.reply
        assert record.prompt_tokens is not None and record.prompt_tokens > 0
        assert record.completion_tokens is not None and 0 < record.completion_tokens <= MAX_TOKENS
        assert record.truncated == (record.completion_tokens == MAX_TOKENS)
    # The two formats are two different prompts: their prompt sizes are the model's own counts of each.
    sizes = {r.format_id: r.prompt_tokens for r in report.records}
    assert sizes[FORMATS[0]] != sizes[FORMATS[1]]

    # Every figure computed from the counts.
    for score in report.scores:
        mine = [r for r in report.records if r.format_id == score.format_id]
        assert (score.n, score.correct) == (len(mine), sum(r.correct for r in mine))
        assert score.interval == wilson_interval(score.correct, score.n)
        assert score.prompt_tokens == sum(r.prompt_tokens or 0 for r in mine)
    assert report.verdict == verdict_of(report.scores, report.errors, report.total_requests)

    # Stored with the tool set's own count and tier, and what the next recommendation rests on.
    [stored] = open_store(tmp_path).measurements
    measurement = stored.measurement
    assert (measurement.model, measurement.rule) == (MODEL_NAME, "symmetric")
    assert (measurement.n_tools, measurement.tier) == (own.n_tools, own.tier_estimate) == (report.n_tools, report.tier)
    assert [(s.format_id, s.n, s.correct) for s in measurement.formats] == [
        (s.format_id, s.n, s.correct) for s in report.scores]
    situation = Situation(model=MODEL_NAME, n_tools=own.n_tools, tier=own.tier_estimate, rule="symmetric")
    answer = recommend(evidence, situation, store=open_store(tmp_path)).to_dict()
    assert answer["basis"] == stored.source
    assert answer["local"]["formats"] == [s.format_id for s in measurement.formats]
    if any(s.correct for s in measurement.formats):
        chosen = next(s for s in measurement.formats if s.format_id == answer["format_id"])
        assert answer["interval"] == list(chosen.interval)
    # Under the recommendation's default rule the measurement is named, with the way to rest on it.
    default = recommend(evidence, Situation(model=MODEL_NAME, n_tools=own.n_tools, tier=own.tier_estimate),
                        store=open_store(tmp_path)).to_dict()
    assert default["basis"] != stored.source
    assert any(stored.source in w and "--rule symmetric" in w for w in default["warnings"])


class Recording:
    """The real endpoint, with every conversation it was sent kept for the test to read."""

    def __init__(self, inner: OpenAIChat) -> None:
        self.inner = inner
        self.sent: list[list[dict[str, str]]] = []

    def reply(self, system: str, messages: list[dict[str, str]]) -> ChatReply:
        self.sent.append([dict(m) for m in messages])
        return self.inner.reply(system, messages)


def test_the_call_loop_runs_the_weather_tool_on_the_models_call_and_hands_the_outcome_back(
    local_model: LocalModel,
) -> None:
    endpoint = Recording(OpenAIChat(EndpointConfig(model=MODEL_NAME, base_url=local_model.base_url,
                                                   max_tokens=MAX_TOKENS)))
    result = run_call(
        load("flow", WEATHER_TOOLS["payload"]).toolset, "What is the weather forecast for Oslo for the next 2 days?",
        endpoint, format_id="json_schema_openai", executor=FlowTools(WEATHER_LISTING, PYTHON_WEATHER, env=FLOW_ENV),
        executor_kind="flow", max_steps=2, parser=flow_parser(WEATHER_TOOLS["payload"]),
    )
    first = result.steps[0]
    assert first.prompt_tokens > 0 and first.completion_tokens > 0
    # The reply was read, and its calls checked by Flow's exact decoding, before anything ran.
    assert [c["name"] for c in first.parsed["calls"]] == [e.name for e in first.executed]
    assert first.executed, f"the model made no call the loop could run: {first.reply!r} ({result.stopped})"
    for executed in first.executed:
        assert executed.name == "get_forecast"
        # Whatever the outcome, it came from the Tool process through flow-host (or flow-host's refusal).
        assert executed.outcome in ("Ok", "Failed", "Unknown", "NotRun")
        if executed.outcome == "Ok":
            assert executed.identity.endswith("weather.flow.get_forecast")
    # The outcome went back to the model as the next user turn, after its own reply.
    assert len(endpoint.sent) >= 2
    follow_up = endpoint.sent[1]
    assert follow_up[-2] == {"role": "assistant", "content": first.reply}
    lines = follow_up[-1]["content"].splitlines()
    assert lines[0] == TOOL_RESULT_HEADER
    told = [json.loads(line) for line in lines[1:]]
    assert [entry["outcome"] for entry in told] == [e.outcome for e in first.executed]
    assert len(result.steps) == len(endpoint.sent)
