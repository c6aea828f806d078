"""Running a measurement: every format rendered, every task asked ``concurrency`` at a time, every reply graded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from toolform.evidence import Evidence
from toolform.evidence.local import endpoint_host_of
from toolform.measure.endpoint import (
    MAX_COMPLETION_BYTES,
    REQUEST_DEADLINE_S,
    REQUEST_TIMEOUT_S,
    ChatEndpoint,
    TransportFailure,
)
from toolform.measure.grading import Grade, grade_reply
from toolform.measure.report import FormatScore, MeasureReport, Record, ranked, verdict_of
from toolform.measure.tasks import Task, TaskSet
from toolform.render import render
from toolform.summary import summarize

#: The eight core formats, in the study's order: what a measurement runs when no formats are named.
CORE_FORMATS: tuple[str, ...] = (
    "xml_schema", "natural_language", "python_stub", "json_schema_openai",
    "yaml_schema", "typescript", "markdown_table", "json_minimal",
)

Grader = Callable[[TaskSet, Task, str, str, str], Grade]


def parse_grader(task_set: TaskSet, task: Task, reply: str, protocol_id: str, rule: str) -> Grade:
    """The grader measurements use: the parse SDK's reading of the reply (``grading.grade_reply``)."""
    return grade_reply(task_set.toolset, task, reply, protocol_id, rule, task_set.flow_listing)


class Cancelled(Exception):
    """The measurement was cancelled before it finished."""


@dataclass
class Progress:
    """How far a measurement is: requests finished of the total; ``cancelled`` stops it before its next request.

    ``on_record`` sees each record the moment it is graded (the job store writes it there); what it raises
    stops the measurement.
    """

    total: int
    done: int = 0
    cancelled: bool = False
    on_step: Callable[[int, int], None] | None = None
    on_record: Callable[[Record], None] | None = None

    def graded(self, record: Record) -> Record:
        if self.on_record is not None:
            self.on_record(record)
        self.step()
        return record

    def step(self) -> None:
        self.done += 1
        if self.on_step is not None:
            self.on_step(self.done, self.total)


@dataclass(frozen=True)
class MeasureSpec:
    """What to measure: the model and endpoint, the formats, the task set, the rule, and how hard to push."""

    model: str
    base_url: str
    task_set: TaskSet
    formats: Sequence[str] = CORE_FORMATS
    rule: str = "symmetric"
    n_requests: int = 50
    n_tools: int = 8
    tier: int = 3
    seed: int = 0
    concurrency: int = 4
    max_tokens: int = 512
    thinking: bool | None = None
    api_key: str | None = None
    retry_delays: tuple[float, ...] | None = None
    #: Seconds one attempt may take, connection to last byte; one request over all its attempts; the most
    #: bytes one completion may hold (``toolform serve --endpoint-attempt-timeout`` and the like).
    attempt_timeout_s: float = REQUEST_TIMEOUT_S
    request_deadline_s: float = REQUEST_DEADLINE_S
    max_completion_bytes: int = MAX_COMPLETION_BYTES
    extra_warnings: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.formats) * len(self.task_set.tasks)


async def measure(
    spec: MeasureSpec, progress: Progress, evidence: Evidence | None = None, grader: Grader = parse_grader
) -> MeasureReport:
    """Run ``spec`` and report; raises EndpointError when the endpoint does not answer, Cancelled when cancelled.

    ``evidence`` (the registry the prompts are rendered from) None: the installed study's.
    """
    started = time.monotonic()
    prompts = {f: render(spec.task_set.toolset, f, evidence=evidence) for f in spec.formats}
    endpoint_options = {} if spec.retry_delays is None else {"retry_delays": spec.retry_delays}
    async with ChatEndpoint(
        spec.base_url, spec.model, api_key=spec.api_key, max_tokens=spec.max_tokens, thinking=spec.thinking,
        concurrency=spec.concurrency, attempt_timeout_s=spec.attempt_timeout_s,
        request_deadline_s=spec.request_deadline_s, max_completion_bytes=spec.max_completion_bytes,
        **endpoint_options,
    ) as endpoint:
        await endpoint.check()
        gate = asyncio.Semaphore(spec.concurrency)

        async def ask(format_id: str, task: Task) -> Record:
            async with gate:
                if progress.cancelled:
                    raise Cancelled()
                prompt = prompts[format_id]
                messages = [
                    {"role": "system", "content": prompt.system_prompt},
                    {"role": "user", "content": task.request},
                ]
                try:
                    completion = await endpoint.complete(messages)
                except TransportFailure as failure:
                    return progress.graded(Record(
                        format_id, prompt.protocol_id, task.instance_id, task.request, "", False, str(failure),
                        False, False, False, None, None, False, failure.retries,
                        f"the request failed, so it counts as wrong: {failure}"))
                grade = grader(spec.task_set, task, completion.text, prompt.protocol_id, spec.rule)
                return progress.graded(Record(
                    format_id, prompt.protocol_id, task.instance_id, task.request, completion.text, grade.correct,
                    "", grade.parse_strict, grade.hallucinated, grade.schema_valid, completion.prompt_tokens,
                    completion.completion_tokens, completion.truncated, completion.retries, grade.reason))

        jobs = [asyncio.ensure_future(ask(f, t)) for f in spec.formats for t in spec.task_set.tasks]
        try:
            records = list(await asyncio.gather(*jobs))
        except BaseException:
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
            raise
    scores = ranked([
        FormatScore.of(f, prompts[f].protocol_id, [r for r in records if r.format_id == f]) for f in spec.formats
    ])
    errors = sum(1 for r in records if r.error)
    summary = summarize(spec.task_set.toolset)
    return MeasureReport(
        model=spec.model, rule=spec.rule, source=spec.task_set.source, n_requests=len(spec.task_set.tasks),
        n_tools=summary.n_tools, tier=spec.task_set.tier if spec.task_set.tier is not None else summary.tier_estimate,
        seed=spec.seed, scores=scores, verdict=verdict_of(scores, errors, len(records)), errors=errors,
        total_requests=len(records), elapsed_s=round(time.monotonic() - started, 3), records=records,
        endpoint_host=endpoint_host_of(spec.base_url), toolset_fingerprint=summary.fingerprint,
    )
