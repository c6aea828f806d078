"""Turning an ab-test request into a measurement: the endpoint, the formats, the task set, the warnings.

One function for the server and the command line, so both refuse the same
requests with the same errors: 409 with no endpoint, 404 for an unknown format,
400 for examples without tools, 413 beyond the request limit.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any

from toolform.conversion import read_tools
from toolform.errors import BadRequest, NoEndpoint, PayloadTooLarge, ToolFormError
from toolform.evidence import Evidence, given_or_installed
from toolform.limits import Limits
from toolform.measure.endpoint import (
    MAX_COMPLETION_BYTES,
    REQUEST_DEADLINE_S,
    REQUEST_TIMEOUT_S,
    default_thinking,
    same_origin,
)
from toolform.measure.run import CORE_FORMATS, MeasureSpec
from toolform.measure.tasks import TaskSet, generated_tasks, generated_tasks_for, tasks_from_examples
from toolform.registry import registry_of
from toolform.render import render

#: The longest model name a measurement accepts (names run to a few dozen characters; it is stored).
MAX_MODEL_CHARS = 256
NO_ENDPOINT_DETAIL = "start the server with --endpoint URL --endpoint-model ID"
THINKING_OFF_WARNING = "thinking is off for this model, as in the study; send thinking: true to change it"
REPEATED_WARNING = "repeated formats run once"
CLIENT_ENDPOINT_IGNORED = (
    "base_url was ignored: this server does not accept client endpoints (start it with --allow-client-endpoints "
    "to allow them)"
)


@dataclass(frozen=True)
class AbTestOptions:
    """An ab-test request's members, with the reference's defaults."""

    model: str | None = None
    base_url: str | None = None
    formats: list[str] | None = None
    n_requests: int = 50
    n_tools: int = 8
    tier: int = 3
    seed: int = 0
    rule: str = "symmetric"
    tools: dict[str, Any] | None = None
    examples: list[Any] | None = None
    concurrency: int = 4
    max_tokens: int = 512
    thinking: bool | None = None
    #: With a base_url of the request's own: the variable holding its key, one the operator allows.
    api_key_env: str | None = None


@dataclass(frozen=True)
class EndpointConfig:
    """The server's configured endpoint (``--endpoint``, ``--endpoint-model``, ``--endpoint-key-env``)."""

    base_url: str | None = None
    model: str | None = None
    key_env: str = "OPENAI_API_KEY"
    allow_client_endpoints: bool = False
    #: Variables a request with its own base_url may name as its key (``--client-key-env``); none by default.
    client_key_envs: tuple[str, ...] = ()
    attempt_timeout_s: float = REQUEST_TIMEOUT_S
    request_deadline_s: float = REQUEST_DEADLINE_S
    max_completion_bytes: int = MAX_COMPLETION_BYTES


@dataclass(frozen=True)
class StartedJob:
    """The spec to run and the warnings the 202 answer carries."""

    spec: MeasureSpec
    warnings: list[str] = field(default_factory=list)


def build_spec(
    options: AbTestOptions,
    endpoint: EndpointConfig,
    limits: Limits | None = None,
    evidence: Evidence | None = None,
    over_http: bool = True,
) -> StartedJob:
    """The measurement ``options`` ask for against ``endpoint``; raises before anything is sent to the model.

    ``evidence`` (the registry the formats are checked in and rendered from) None: the installed study's.
    """
    limits = limits or Limits()
    warnings: list[str] = []
    base_url = endpoint.base_url
    if options.base_url:
        if endpoint.allow_client_endpoints:
            base_url = options.base_url
        else:
            warnings.append(CLIENT_ENDPOINT_IGNORED)
    api_key = _api_key(options, endpoint, base_url)
    if options.model is not None and len(options.model) > MAX_MODEL_CHARS:
        raise BadRequest(
            f"model has {len(options.model):,} characters; a model name may have at most {MAX_MODEL_CHARS}"
        )
    model = options.model or endpoint.model
    if not base_url or not model:
        raise NoEndpoint(NO_ENDPOINT_DETAIL)
    formats = list(dict.fromkeys(options.formats or CORE_FORMATS))
    if options.formats and len(formats) < len(options.formats):
        warnings.append(REPEATED_WARNING)
    evidence = given_or_installed(evidence)
    registry = registry_of(evidence)
    for format_id in formats:
        registry.format(format_id)  # UnknownFormat (404) with close matches
    task_set = _task_set(options, limits, over_http)
    warnings.extend(task_set.warnings)
    total = len(formats) * len(task_set.tasks)
    limits.check_ab_requests(total)
    _check_prompts(task_set, formats, limits, evidence)
    thinking = options.thinking
    if thinking is None:
        thinking = default_thinking(model)
        if thinking is False:
            warnings.append(THINKING_OFF_WARNING)
    spec = MeasureSpec(
        model=model, base_url=base_url, task_set=task_set, formats=tuple(formats), rule=options.rule,
        n_requests=len(task_set.tasks), n_tools=options.n_tools, tier=options.tier, seed=options.seed,
        concurrency=options.concurrency, max_tokens=options.max_tokens, thinking=thinking,
        api_key=api_key, attempt_timeout_s=endpoint.attempt_timeout_s,
        request_deadline_s=endpoint.request_deadline_s, max_completion_bytes=endpoint.max_completion_bytes,
    )
    return StartedJob(replace(spec, extra_warnings=list(warnings)), warnings)


def _check_prompts(task_set: TaskSet, formats: list[str], limits: Limits, evidence: Evidence | None) -> None:
    """Refuse, before the job starts, prompts (system prompt and request) beyond max_rendered_chars."""
    longest_request = max((len(task.request) for task in task_set.tasks), default=0)
    for format_id in formats:
        try:
            prompt = render(task_set.toolset, format_id, evidence=evidence)
        except PayloadTooLarge:
            raise
        except ToolFormError:
            continue  # the job reports it, as it reports every format it cannot render
        limits.check_rendered(len(prompt.system_prompt) + longest_request)


def _api_key(options: AbTestOptions, endpoint: EndpointConfig, base_url: str | None) -> str | None:
    """The key sent to ``base_url``: the operator's only to the operator's own endpoint.

    A base_url of the request's own gets no key, or the one in the variable the request
    names when the operator listed that variable with ``--client-key-env``.
    """
    if options.api_key_env is not None:
        if options.api_key_env not in endpoint.client_key_envs:
            allowed = ", ".join(endpoint.client_key_envs) or "none"
            raise BadRequest(
                f"api_key_env {options.api_key_env[:64]!r} is not a variable this server lets a request name "
                f"(allowed: {allowed}; the operator adds one with --client-key-env)"
            )
        if not options.base_url or not endpoint.allow_client_endpoints:
            raise BadRequest("api_key_env names the key of a base_url of the request's own; send base_url too")
        return os.environ.get(options.api_key_env) or None
    if base_url is None or endpoint.base_url is None or not same_origin(base_url, endpoint.base_url):
        return None
    return os.environ.get(endpoint.key_env) or None


def _task_set(options: AbTestOptions, limits: Limits, over_http: bool) -> TaskSet:
    if options.examples is not None and options.tools is None:
        raise BadRequest("examples need the tools they call")
    if options.tools is None:
        return generated_tasks(options.n_requests, options.n_tools, options.tier, options.seed)
    source = str(options.tools.get("source", "auto"))
    payload = options.tools.get("payload")
    from toolform.parse import flow_listing  # the parse SDK; imported here so that measure loads on its own

    loaded = read_tools(source, payload, limits, over_http)
    toolset = loaded.toolset
    listing = flow_listing(loaded.kind, payload)
    if options.examples is None:
        return replace(generated_tasks_for(toolset, options.n_requests, options.seed), flow_listing=listing)
    return TaskSet(toolset, tasks_from_examples(options.examples, toolset), "examples", flow_listing=listing)
