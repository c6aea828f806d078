"""Generated requests over the caller's tools: every required argument stated, every expected call valid.

The property test draws random tool sets (required arrays of objects, patterns,
formats, bounds, enums, lengths, optional and nullable parameters) and checks
that each generated task's expected call passes the validation ``parse``
applies, and that a reply making exactly that call is graded correct.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolform.errors import BadRequest
from toolform.evidence import Evidence
from toolform.loaders import load
from toolform.measure.grading import grade_reply
from toolform.measure.regex_sample import sample_pattern
from toolform.measure.start import AbTestOptions, EndpointConfig, build_spec
from toolform.measure.tasks import generated_tasks, generated_tasks_for
from toolform.parse.validate import validate_arguments

from support.local_model import wait_until
from support.measure_cases import OFFICE_TOOLS


def office_toolset() -> Any:
    return load("openai", OFFICE_TOOLS).toolset


def test_every_required_argument_is_stated_and_valid() -> None:
    toolset = office_toolset()
    tools = {tool.name: tool for tool in toolset}
    task_set = generated_tasks_for(toolset, 30, seed=3)
    assert task_set.warnings == ()
    assert {task.calls[0].name for task in task_set.tasks} == set(tools)
    for task in task_set.tasks:
        (call,) = task.calls
        tool = tools[call.name]
        required = {p.name for p in tool.params if p.required}
        assert set(call.arguments) == required
        assert validate_arguments(tool, call.arguments).ok, (task.request, call.arguments)
        for name, value in call.arguments.items():
            assert f"{name} = {json.dumps(value, ensure_ascii=False)}" in task.request
    file_ids = [t.calls[0].arguments["file_id"] for t in task_set.tasks if t.calls[0].name == "share_file"]
    assert file_ids and all(re.fullmatch(r"file-[a-f0-9]{8}", value) for value in file_ids)


def test_a_complete_reply_grades_right_and_an_incomplete_one_wrong() -> None:
    toolset = office_toolset()
    task = next(t for t in generated_tasks_for(toolset, 20, seed=5).tasks if t.calls[0].name == "send_email")
    call = task.calls[0].to_dict()
    complete = grade_reply(toolset, task, json.dumps(call), "json_object", "symmetric")
    assert complete.correct and complete.schema_valid
    without_to = {"name": call["name"], "arguments": {k: v for k, v in call["arguments"].items() if k != "to"}}
    incomplete = grade_reply(toolset, task, json.dumps(without_to), "json_object", "symmetric")
    assert not incomplete.correct and not incomplete.schema_valid


def test_a_tool_no_valid_call_exists_for_is_left_out_and_named() -> None:
    impossible = {"type": "function", "function": {
        "name": "book_room", "description": "Book a room.",
        "parameters": {"type": "object", "required": ["seats"],
                       "properties": {"seats": {"type": "integer", "minimum": 10, "maximum": 5}}}}}
    toolset = load("openai", [*OFFICE_TOOLS, impossible]).toolset
    task_set = generated_tasks_for(toolset, 12, seed=1)
    assert all(task.calls[0].name != "book_room" for task in task_set.tasks)
    (warning,) = task_set.warnings
    assert "book_room" in warning and "seats" in warning and "minimum 10" in warning
    started = build_spec(
        AbTestOptions(model="m", tools={"source": "openai", "payload": [*OFFICE_TOOLS, impossible]}, n_requests=4,
                      formats=["json_schema_openai"]),
        EndpointConfig("http://127.0.0.1:9/v1", "m"),
    )
    assert warning in started.warnings
    with pytest.raises(BadRequest, match="book_room"):
        generated_tasks_for(load("openai", [impossible]).toolset, 3, seed=1)


def test_the_tier_task_sets_expected_calls_validate() -> None:
    for tier in range(1, 6):
        task_set = generated_tasks(40, 10, tier, seed=tier)
        tools = {tool.name: tool for tool in task_set.toolset}
        for task in task_set.tasks:
            for call in task.calls:
                assert validate_arguments(tools[call.name], call.arguments).ok, (tier, call)


@pytest.mark.parametrize("pattern", [
    r"^file-[a-f0-9]{8}$", r"^[A-Z]{2,3}-\d{4}$", r"^(foo|bar)+_\w{3}$", r"^\S+@\S+\.(com|org)$",
    r"(?i)^inv_[0-9a-f]{4}$", r"^[^,;]{3,5}$", r"^(?P<x>ab)-(?P=x)$", r"^v\d+\.\d+\.\d+(-rc\d)?$",
    r"^[\u00e0-\u00ff]{2}$", r"^.{4}$", r"^(?=.*\d)[a-z\d]{6}$",
])
def test_a_sampled_string_matches_its_pattern(pattern: str) -> None:
    rng = random.Random(0)
    hits = sum(re.search(pattern, sample_pattern(pattern, rng)) is not None for _ in range(50))
    # Lookaheads may miss (the caller draws again); everything else matches every time.
    assert hits == 50 or ("(?=" in pattern and hits > 0)


def test_hostile_patterns_and_names_leave_the_tool_out_or_ask_for_it_plainly() -> None:
    def coded(name: str, pattern: str) -> dict[str, Any]:
        return {"type": "function", "function": {"name": name, "description": "x", "parameters": {
            "type": "object", "required": ["code"], "properties": {"code": {"type": "string", "pattern": pattern}}}}}

    tools = [
        coded("huge", "^a{100000}$"),
        # A pattern Python cannot read constrains nothing parse checks: asked for like a plain string.
        coded("broken", "^(unclosed$"),
        {"type": "function", "function": {"name": "quoted", "description": "x", "parameters": {
            "type": "object", "required": ["it's \"x\""], "properties": {"it's \"x\"": {"type": "string",
                                                                               "enum": ["a \"b\" c", "d'e"]}}}}},
    ]
    toolset = load("openai", tools).toolset
    task_set = generated_tasks_for(toolset, 5, seed=2)
    assert {task.calls[0].name for task in task_set.tasks} == {"quoted", "broken"}
    (warning,) = task_set.warnings
    assert "'huge'" in warning and "100000" in warning
    tools_by_name = {tool.name: tool for tool in toolset}
    for task in task_set.tasks:
        (call,) = task.calls
        assert validate_arguments(tools_by_name[call.name], call.arguments).ok
        for value in call.arguments.values():
            assert json.dumps(value) in task.request


_PATTERNS = (r"^[A-Z]{3}-\d{3}$", r"^file-[a-f0-9]{8}$", r"^[a-z]+(_[a-z]+)*$", r"^\+?\d{7,12}$")
_FORMATS = ("date", "date-time", "time", "email", "uri", "uuid", "hostname", "ipv4", "ipv6")


def _leaf() -> st.SearchStrategy[dict[str, Any]]:
    integer = st.tuples(st.integers(-50, 50), st.integers(0, 40)).map(
        lambda b: {"type": "integer", "minimum": b[0], "maximum": b[0] + b[1]})
    number = st.tuples(st.integers(-10, 10), st.integers(1, 8)).map(
        lambda b: {"type": "number", "minimum": b[0] / 2, "maximum": b[0] / 2 + b[1]})
    lengths = st.tuples(st.integers(0, 6), st.integers(0, 20)).map(
        lambda b: {"type": "string", "minLength": b[0], "maxLength": b[0] + b[1]})
    return st.one_of(
        st.just({"type": "string"}), st.just({"type": "boolean"}), integer, number, lengths,
        st.sampled_from(_PATTERNS).map(lambda p: {"type": "string", "pattern": p}),
        st.sampled_from(_FORMATS).map(lambda f: {"type": "string", "format": f}),
        st.lists(st.sampled_from(["red", "green", "o'brien", "a b"]), min_size=1, max_size=4, unique=True).map(
            lambda values: {"type": "string", "enum": values}),
        st.just({"type": ["string", "null"]}), st.just({"type": ["integer", "null"], "minimum": 0}),
    )


def _schema(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    array = st.tuples(children, st.integers(0, 3), st.integers(0, 3)).map(
        lambda t: {"type": "array", "items": t[0], "minItems": t[1], "maxItems": t[1] + t[2]})
    return st.one_of(array, _object(children))


def _object(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    def build(members: list[tuple[str, dict[str, Any], bool]]) -> dict[str, Any]:
        return {"type": "object", "properties": {name: schema for name, schema, _ in members},
                "required": [name for name, _, required in members if required]}
    member = st.tuples(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True), children, st.booleans())
    return st.lists(member, min_size=1, max_size=4, unique_by=lambda m: m[0]).map(build)


_SCHEMAS = st.recursive(_leaf(), _schema, max_leaves=8)


@st.composite
def tool_sets(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 4))
    tools = []
    for index in range(count):
        parameters = draw(_object(_SCHEMAS))
        tools.append({"type": "function", "function": {
            "name": f"tool_{index}", "description": f"Tool number {index}.", "parameters": parameters}})
    return tools


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tools=tool_sets(), seed=st.integers(0, 1000))
def test_every_expected_call_of_random_tool_sets_validates(tools: list[dict[str, Any]], seed: int) -> None:
    toolset = load("openai", tools).toolset
    by_name = {tool.name: tool for tool in toolset}
    try:
        task_set = generated_tasks_for(toolset, 6, seed)
    except BadRequest as refused:
        # Only when no tool can be asked for, each named with its reason.
        assert all(name in str(refused) for name in by_name)
        return
    left_out = {name for name in by_name if any(f"tool '{name}'" in w for w in task_set.warnings)}
    for task in task_set.tasks:
        (call,) = task.calls
        assert call.name not in left_out
        tool = by_name[call.name]
        assert set(call.arguments) == {p.name for p in tool.params if p.required}
        assert validate_arguments(tool, call.arguments).ok, (tools, call.arguments)
        graded = grade_reply(toolset, task, json.dumps(call.to_dict()), "json_object", "symmetric")
        assert graded.correct and graded.schema_valid, (call.arguments, graded)


def test_a_measurement_stores_the_tool_sets_own_tier_and_count_and_recommend_finds_it(
    tmp_path: Any, evidence: Evidence
) -> None:
    import asyncio

    from toolform.advisor import Situation, recommend
    from toolform.evidence.local import open_store
    from toolform.measure import JobManager, Progress, measure
    from toolform.summary import summarize

    from support.scripted_endpoint import Answer, Prompt, ScriptedEndpoint

    tasks = {task.request: task for task in generated_tasks_for(office_toolset(), 4, seed=0).tasks}

    def right(prompt: Prompt) -> Answer:
        return Answer(json.dumps(tasks[prompt.user].calls[0].to_dict()), prompt_tokens=30, completion_tokens=9)

    own = summarize(office_toolset())
    assert own.tier_estimate != AbTestOptions().tier  # otherwise the default would pass unnoticed
    with ScriptedEndpoint(right) as endpoint:
        started = build_spec(
            AbTestOptions(model="m1", tools={"source": "openai", "payload": OFFICE_TOOLS}, n_requests=4, seed=0,
                          formats=["json_schema_openai"]),
            EndpointConfig(endpoint.base_url, "m1"),
        )
        report = asyncio.run(measure(started.spec, Progress(started.spec.total)))
        assert (report.tier, report.n_tools) == (own.tier_estimate, own.n_tools)
        assert report.scores[0].correct == 4
        job = JobManager(store_dir=tmp_path).submit(started.spec)
        wait_until(lambda: job.status in ("done", "failed"), 60)
    assert job.status == "done", job.error
    [stored] = open_store(tmp_path).measurements
    assert (stored.measurement.tier, stored.measurement.n_tools) == (own.tier_estimate, own.n_tools)
    situation = Situation(model="m1", n_tools=own.n_tools, tier=own.tier_estimate, rule="symmetric")
    answer = recommend(evidence, situation, store=open_store(tmp_path)).to_dict()
    assert answer["basis"] == stored.source
