"""ab-test measurements through the SDK against the scripted endpoint: intervals, verdicts, jobs, failures."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from toolform.errors import BadRequest, JobNotFound, NoEndpoint, PayloadTooLarge, TooManyJobs, UnknownFormat
from toolform.evidence.local import open_store, wilson_interval
from toolform.limits import Limits
from toolform.measure import (
    AbTestOptions,
    FormatScore,
    JobManager,
    MeasureReport,
    MeasureSpec,
    Progress,
    build_spec,
    default_thinking,
    generated_tasks,
    measure,
    verdict_of,
)
from toolform.measure.start import EndpointConfig

from support.measure_cases import EXAMPLES, TOOLS_INPUT, all_wrong, both_right, json_wins
from support.scripted_endpoint import Answer, Fault, Prompt, ScriptedEndpoint

TWO = ["json_schema_openai", "xml_schema"]
NO_WAIT = (0.0, 0.0, 0.0)


def spec_for(endpoint: ScriptedEndpoint, **options: object) -> MeasureSpec:
    chosen: dict[str, object] = {"formats": TWO, "tools": TOOLS_INPUT, "examples": EXAMPLES, **options}
    started = build_spec(AbTestOptions(**chosen), EndpointConfig(endpoint.base_url, "m1"))  # type: ignore[arg-type]
    return MeasureSpec(**{**started.spec.__dict__, "retry_delays": NO_WAIT})


def run(spec: MeasureSpec) -> MeasureReport:
    return asyncio.run(measure(spec, Progress(spec.total)))


@pytest.mark.parametrize(
    ("correct", "n", "interval"),
    # The first three are the reference's answers; 8/10 and 0/10 are the textbook values (Wilson, 1927).
    [(0, 2, (0.0, 65.76)), (3, 3, (43.85, 100.0)), (1, 3, (6.15, 79.23)), (8, 10, (49.02, 94.33)),
     (0, 10, (0.0, 27.75)), (50, 100, (40.38, 59.62)), (9, 9, (70.08, 100.0))],
)
def test_wilson_interval_known_values(correct: int, n: int, interval: tuple[float, float]) -> None:
    assert wilson_interval(correct, n) == interval


def score(format_id: str, correct: int, n: int = 10) -> FormatScore:
    return FormatScore(format_id, "p", n, correct, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)


def test_verdict_branches_on_scores() -> None:
    winner = verdict_of([score("a", 10), score("b", 2)], errors=0, total=20)
    assert (winner.verdict, winner.winner, winner.tied_with) == ("winner", "a", [])
    partial = verdict_of([score("a", 10), score("b", 7), score("c", 1)], errors=0, total=30)
    assert (partial.verdict, partial.winner, partial.tied_with) == ("winner", "a", ["b"])
    overlap = verdict_of([score("a", 6), score("b", 5)], errors=0, total=20)
    assert (overlap.verdict, overlap.winner, overlap.tied_with) == ("no_difference", None, ["b"])
    zero = verdict_of([score("a", 0), score("b", 0)], errors=0, total=20)
    assert zero.verdict == "no_difference" and "0%" in zero.reason
    failed = verdict_of([score("a", 10), score("b", 0)], errors=6, total=20)
    assert (failed.verdict, failed.winner) == ("inconclusive", None) and "6 of 20" in failed.reason
    quarter = verdict_of([score("a", 10), score("b", 0)], errors=5, total=20)
    assert quarter.verdict == "winner"  # exactly a quarter failed: not more than a quarter


def test_winner_on_the_endpoint_with_usage_and_rates() -> None:
    with ScriptedEndpoint(json_wins) as endpoint:
        report = run(spec_for(endpoint, n_requests=3))
    assert report.verdict.verdict == "winner" and report.verdict.winner == "json_schema_openai"
    first, second = report.scores
    assert (first.format_id, first.correct, first.n, first.interval) == ("json_schema_openai", 9, 9, (70.08, 100.0))
    assert (second.correct, second.accuracy) == (1, 11.11)  # only the no-call task, by saying nothing
    assert first.prompt_tokens_mean == 40.0 and first.prompt_tokens == 360 and second.parse_strict == 0.0
    assert report.n_requests == len(EXAMPLES) and report.total_requests == 18 and report.source == "examples"


def test_no_difference_when_both_are_right_and_when_all_are_wrong() -> None:
    with ScriptedEndpoint(both_right) as endpoint:
        same = run(spec_for(endpoint))
    assert same.verdict.verdict == "no_difference" and same.verdict.tied_with == ["xml_schema"]
    assert [s.correct for s in same.scores] == [9, 9]
    with ScriptedEndpoint(all_wrong) as endpoint:
        zero = run(spec_for(endpoint))
    assert zero.verdict.verdict == "no_difference" and "0%" in zero.verdict.reason
    assert [s.correct for s in zero.scores] == [0, 0] and zero.verdict.winner is None


def test_inconclusive_when_many_requests_fail() -> None:
    def half_failing(prompt: Prompt) -> Answer:
        if "Forecast" in prompt.user:
            return Answer("", fault=Fault("status", status=500))
        return json_wins(prompt)

    with ScriptedEndpoint(half_failing) as endpoint:
        report = run(spec_for(endpoint))
    assert report.errors == 10 and report.verdict.verdict == "inconclusive" and report.verdict.winner is None
    assert all(r.retries == 3 for r in report.records if r.error)
    assert report.scores[0].errors == 5 and "500" in next(r.error for r in report.records if r.error)


def test_transport_faults_are_retried_and_counted() -> None:
    with ScriptedEndpoint(json_wins) as endpoint:
        endpoint.fail_next(Fault("drop"))
        endpoint.fail_next(Fault("malformed"))
        endpoint.fail_next(Fault("status", status=503))
        report = run(spec_for(endpoint, concurrency=1))
        posts = [r for r in endpoint.requests if r.method == "POST"]
    assert report.errors == 0 and sum(r.retries for r in report.records) == 3
    assert len(posts) == report.total_requests + 3
    assert report.verdict.verdict == "winner"


def test_a_refused_request_is_not_retried() -> None:
    with ScriptedEndpoint(lambda prompt: Answer("", fault=Fault("status", status=400))) as endpoint:
        report = run(spec_for(endpoint, formats=["json_schema_openai"]))
        posts = [r for r in endpoint.requests if r.method == "POST"]
    assert report.errors == report.total_requests == len(posts) and "400" in report.records[0].error


def test_request_body_and_the_thinking_switch() -> None:
    with ScriptedEndpoint(json_wins) as endpoint:
        for model, thinking, sent in [("Qwen/Qwen3-8B", None, False), ("m1", None, None), ("m1", True, True),
                                      ("Qwen3.5-9B", False, False)]:
            started = build_spec(
                AbTestOptions(model=model, formats=["json_schema_openai"], tools=TOOLS_INPUT, examples=EXAMPLES[:1],
                              thinking=thinking, max_tokens=77),
                EndpointConfig(endpoint.base_url, "m1"),
            )
            before = len(endpoint.prompts())
            run(started.spec)
            body = endpoint.prompts()[before].body
            assert body["model"] == model and body["max_tokens"] == 77 and body["temperature"] == 0.0
            assert body.get("chat_template_kwargs", {}).get("enable_thinking") == sent
            warned = any("thinking is off" in w for w in started.warnings)
            assert warned == (thinking is None and sent is False)
    assert default_thinking("Qwen/Qwen2.5-7B-Instruct") is None


def test_the_prompt_is_the_rendered_format() -> None:
    from toolform.render import render

    with ScriptedEndpoint(json_wins) as endpoint:
        spec = spec_for(endpoint, formats=["xml_schema"])
        run(spec)
        prompt = endpoint.prompts()[0]
    expected = render(spec.task_set.toolset, "xml_schema").system_prompt
    assert prompt.messages[0] == {"role": "system", "content": expected}
    assert prompt.messages[1]["role"] == "user" and prompt.user in {e["request"] for e in EXAMPLES}


def test_build_spec_refusals() -> None:
    with pytest.raises(NoEndpoint, match="--endpoint URL --endpoint-model ID"):
        build_spec(AbTestOptions(), EndpointConfig())
    config = EndpointConfig("http://127.0.0.1:9/v1", "m1")
    with pytest.raises(BadRequest, match="examples need the tools"):
        build_spec(AbTestOptions(examples=EXAMPLES), config)
    with pytest.raises(UnknownFormat, match="close matches"):
        build_spec(AbTestOptions(formats=["json_schema"]), config)
    with pytest.raises(PayloadTooLarge, match="limit is 20"):
        build_spec(AbTestOptions(formats=TWO), config, Limits(max_ab_requests=20))
    with pytest.raises(BadRequest, match=r"\$\.examples\[1\]\.calls\[0\]\.name 'nope'"):
        build_spec(AbTestOptions(tools=TOOLS_INPUT, examples=[EXAMPLES[0], {"request": "x", "calls": [
            {"name": "nope", "arguments": {}}]}]), config)
    ignored = build_spec(AbTestOptions(base_url="http://elsewhere/v1", formats=TWO + TWO[:1]), config)
    assert ignored.spec.base_url == config.base_url and ignored.spec.formats == tuple(TWO)
    assert any("base_url was ignored" in w for w in ignored.warnings)
    assert "repeated formats run once" in ignored.warnings
    allowed = build_spec(AbTestOptions(base_url="http://elsewhere/v1"), EndpointConfig(None, "m1", "K", True))
    assert allowed.spec.base_url == "http://elsewhere/v1" and allowed.spec.total == 8 * 50


def test_generated_task_sets_are_fixed_by_the_seed() -> None:
    first, again, other = generated_tasks(20, 8, 3, 7), generated_tasks(20, 8, 3, 7), generated_tasks(20, 8, 3, 8)
    assert first.tasks == again.tasks and first.toolset == again.toolset and first.tasks != other.tasks
    assert len(first.toolset) == 8 and len(first.tasks) == 20
    names = set(first.toolset.names)
    assert all(call.name in names for task in first.tasks for call in task.calls)
    assert any(not task.calls for task in first.tasks)


def slow(prompt: Prompt) -> Answer:
    return Answer(json_wins(prompt).text, delay_s=0.2)


def wait_for(condition: object, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_jobs_cancel_while_queued_and_while_running(tmp_path: Path) -> None:
    with ScriptedEndpoint(slow) as endpoint:
        manager = JobManager(max_jobs=2, store_dir=tmp_path)
        running = manager.submit(spec_for(endpoint, concurrency=1))
        queued = manager.submit(spec_for(endpoint, concurrency=1, formats=["typescript"]))
        with pytest.raises(TooManyJobs, match="max_jobs 2"):
            manager.submit(spec_for(endpoint))
        wait_for(lambda: running.status == "running" and running.progress.done >= 1)
        assert manager.cancel(queued.id).status == "cancelled"
        manager.cancel(running.id)
        wait_for(lambda: running.status == "cancelled")
        time.sleep(0.5)
        assert running.progress.done < running.progress.total and running.result is None
        assert queued.status == "cancelled" and queued.progress.done == 0
        assert not any("typescript" in p.system or "interface" in p.system for p in endpoint.prompts())
        assert manager.cancel(running.id).status == "cancelled"
    assert not open_store(tmp_path).measurements
    with pytest.raises(JobNotFound, match="no job 'nope'"):
        manager.get("nope")


def test_a_finished_job_is_written_to_the_local_evidence_store(tmp_path: Path) -> None:
    with ScriptedEndpoint(json_wins) as endpoint:
        manager = JobManager(store_dir=tmp_path)
        job = manager.submit(spec_for(endpoint))
        wait_for(lambda: job.status == "done")
        assert manager.cancel(job.id).status == "done"  # a finished job is left as it is
    [stored] = open_store(tmp_path).measurements
    assert job.evidence_file == stored.file
    measurement = stored.measurement
    assert (measurement.model, measurement.endpoint_host, measurement.rule) == ("m1", f"127.0.0.1:{endpoint.port}",
                                                                                "symmetric")
    assert [(s.format_id, s.n, s.correct) for s in measurement.formats] == [("json_schema_openai", 9, 9),
                                                                             ("xml_schema", 9, 1)]
    assert measurement.formats[0].interval == (70.08, 100.0) and measurement.formats[0].prompt_tokens == 360
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert [entry["name"] for entry in manifest["files"]] == [stored.file]


def test_jobs_fail_when_the_endpoint_is_down_or_every_request_fails(tmp_path: Path) -> None:
    with ScriptedEndpoint(json_wins) as endpoint:
        dead = spec_for(endpoint)
    manager = JobManager(store_dir=tmp_path)
    job = manager.submit(dead)
    wait_for(lambda: job.status == "failed")
    assert job.error is not None and "did not answer GET /models" in job.error and job.progress.done == 0
    with ScriptedEndpoint(lambda prompt: Answer("", fault=Fault("status", status=502))) as endpoint:
        every = manager.submit(spec_for(endpoint, formats=["json_schema_openai"]))
        wait_for(lambda: every.status == "failed")
    assert every.error is not None and every.error.startswith("every request failed") and "502" in every.error
    assert not open_store(tmp_path).measurements


def test_grading_is_the_calls_meaning_and_validity_is_reported_apart() -> None:
    from toolform.loaders import load
    from toolform.measure import ExpectedCall, Task, grade_reply

    from support.measure_cases import THERMOSTAT

    toolset = load("openai", THERMOSTAT["payload"]).toolset
    task = Task("t", "Set the hall to 19 for 3 hours", (ExpectedCall("set_temp", {"room": "hall", "celsius": 19,
                                                                                  "hold_hours": 3}),))
    as_text = grade_reply(toolset, task, '{"name": "set_temp", "arguments": {"room": "Hall", "celsius": 19, '
                          '"hold_hours": "3"}}', "json_object", "symmetric")
    assert as_text.correct and not as_text.schema_valid and as_text.parse_strict
    missing = grade_reply(toolset, task, '{"name": "set_temp", "arguments": {"room": "hall", "celsius": 19}}',
                          "json_object", "symmetric")
    assert not missing.correct and missing.schema_valid
    invented = grade_reply(toolset, task, '{"name": "set_heat", "arguments": {}}', "json_object", "symmetric")
    assert not invented.correct and invented.hallucinated
    nothing = Task("n", "Write a haiku.")
    assert grade_reply(toolset, nothing, "No tool fits.", "json_object", "symmetric").correct
    called = '{"name": "set_temp", "arguments": {"room": "x", "celsius": 1}}'
    assert not grade_reply(toolset, nothing, called, "json_object", "symmetric").correct


def test_the_key_is_sent_from_its_variable_and_never_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCRIPTED_KEY", "sk-test-not-a-secret")
    with ScriptedEndpoint(json_wins) as endpoint:
        started = build_spec(
            AbTestOptions(formats=["json_schema_openai"], tools=TOOLS_INPUT, examples=EXAMPLES[:2]),
            EndpointConfig(endpoint.base_url, "m1", "SCRIPTED_KEY"),
        )
        manager = JobManager(store_dir=tmp_path)
        job = manager.submit(started.spec)
        wait_for(lambda: job.status == "done")
        sent = {r.prompt.headers.get("authorization") for r in endpoint.requests if r.prompt is not None}
    assert sent == {"Bearer sk-test-not-a-secret"}
    assert "sk-test" not in json.dumps(job.to_dict(with_records=True))
    assert all("sk-test" not in path.read_text() for path in tmp_path.iterdir() if path.is_file())
