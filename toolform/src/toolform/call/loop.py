"""The call loop: render the tools, ask the model, parse its reply, run the calls, hand the results back.

A dry run (no executor) stops after the first reply, having shown what the
model would call. With an executor, each accepted call is run (a call that
failed validation is not, and the model is told why), the results go back as
one user turn (``Tool result:`` then a JSON line per call, in the reply's
order, as the reference does for every protocol), and the loop goes on until
a reply makes no call or ``max_steps`` replies were read.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from toolform import jsontext
from toolform.call.cost import Prices, prices
from toolform.call.endpoint import ChatEndpoint, EndpointFailure
from toolform.call.executed import ExecutedCall, invalid_call
from toolform.call.executor import Executor, ExecutorError
from toolform.call.replies import ReplyParser, accepted_calls, rejected_calls, sdk_parser
from toolform.call.result import CallResult, CallStep
from toolform.evidence import Evidence, given_or_installed
from toolform.ir import ToolSet
from toolform.render import render, tokens_estimate

TOOL_RESULT_HEADER = "Tool result:"


def _jsonable(value: Any) -> Any:
    """``value`` as JSON can hold it: containers walked, exact numbers kept, other objects as their text."""
    if value is None or isinstance(value, (str, bool, int, float, Decimal)):
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    return str(value)


def _named(call: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A parsed call's tool name (as resolved, else as written) and its arguments."""
    arguments = call.get("arguments")
    return str(call.get("resolved_name") or call.get("name")), arguments if isinstance(arguments, dict) else {}


def tool_result_turn(executed: list[ExecutedCall]) -> str:
    """The user turn that hands the calls' results back: a JSON line each, every digit of every number kept."""
    lines = [jsontext.write(_jsonable(e.handed_back())) for e in executed]
    return "\n".join([TOOL_RESULT_HEADER, *lines])


def run_call(
    tools: ToolSet,
    request: str,
    endpoint: ChatEndpoint,
    *,
    format_id: str,
    protocol_id: str | None = None,
    rule: str = "main",
    max_steps: int = 8,
    executor: Executor | None = None,
    executor_kind: str = "",
    parser: ReplyParser = sdk_parser,
    guard_strictness: str | None = None,
    recommendation: dict[str, Any] | None = None,
    evidence: Evidence | None = None,
) -> CallResult:
    """Run the loop and record every step; an endpoint or host-client failure ends it with ``stopped="error"``.

    ``guard_strictness`` (lenient, standard, strict) strips flagged description
    sentences before the tools are shown. ``evidence`` (the registry and the prices) None: the
    installed study's. Raises UnknownFormat or UnknownProtocol before any request is sent.
    """
    if max_steps < 1:
        raise ValueError("max_steps must be at least 1")
    chosen_evidence = given_or_installed(evidence)
    guard_record: dict[str, Any] | None = None
    if guard_strictness is not None:
        from toolform.guard import guard

        report = guard(tools, strictness=guard_strictness, action="strip", evidence=chosen_evidence)
        tools = report.toolset
        guard_record = {k: v for k, v in report.to_dict().items() if k not in ("cleaned",)}
    prompt = render(tools, format_id, protocol_id, evidence=chosen_evidence)
    price: Prices = prices(chosen_evidence)
    result = CallResult(
        request=request,
        format_id=prompt.format_id,
        protocol_id=prompt.protocol_id,
        rule=rule,
        recommendation=recommendation,
        guard=guard_record,
        cost_source=price.source,
        executor=executor_kind if executor is not None else "",
    )
    messages: list[dict[str, str]] = [{"role": "user", "content": request}]
    for index in range(max_steps):
        try:
            reply = endpoint.reply(prompt.system_prompt, messages)
        except EndpointFailure as failure:
            result.stopped, result.error = "error", str(failure)
            return result
        parsed = parser(tools, reply.text, prompt.protocol_id, rule).to_dict()
        calls = accepted_calls(parsed)
        refused = rejected_calls(parsed)
        executed: list[ExecutedCall] = []
        failure_text = ""
        if executor is not None:
            for call in calls:
                name, arguments = _named(call)
                if not call.get("valid"):
                    executed.append(invalid_call(name, arguments, call.get("validation") or {}))
                    continue
                try:
                    executed.append(executor.execute(name, arguments))
                except ExecutorError as error:
                    failure_text = str(error)
                    break
            # A call the parser rejected (an unknown tool, ...) is never run; the model is told why.
            executed.extend(invalid_call(*_named(call), call.get("validation") or {}) for call in refused)
        result.steps.append(
            CallStep(
                index=index,
                reply=reply.text,
                parsed=parsed,
                executed=executed,
                prompt_tokens=reply.prompt_tokens,
                completion_tokens=reply.completion_tokens,
                cached_tokens=reply.cached_tokens,
                latency_s=reply.latency_s,
                cost=price.cost(reply.prompt_tokens, reply.completion_tokens, reply.cached_tokens),
            )
        )
        if failure_text:
            result.stopped, result.error = "error", failure_text
            return result
        if not calls and not refused:
            result.stopped, result.final_text = "no_call", reply.text
            return result
        if executor is None:
            result.stopped = "dry_run"
            return result
        messages.append({"role": "assistant", "content": reply.text})
        messages.append({"role": "user", "content": tool_result_turn(executed)})
    result.stopped = "max_steps"
    return result


def first_prompt_tokens(
    tools: ToolSet, request: str, format_id: str, protocol_id: str | None, evidence: Evidence
) -> int:
    """The first request's size estimate (characters / 4) of the system prompt and the request, a line apart."""
    prompt = render(tools, format_id, protocol_id, evidence=evidence)
    return tokens_estimate(prompt.system_prompt + "\n" + request)


__all__ = ["TOOL_RESULT_HEADER", "first_prompt_tokens", "run_call", "tool_result_turn"]
