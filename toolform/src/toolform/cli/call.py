"""``toolform call``: the call loop against a model endpoint; a dry run unless ``--execute``.

With ``--execute`` the calls are run: a Python tools file's functions in this
process, or a Flow listing's Tools through the host client (each Tool process
flow.toml binds, in any language, or an MCP server through the adapter).
Exit status 4 when the loop stopped on an error (the endpoint, or the host client).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from toolform.call import (
    ANTHROPIC_BASE_URL,
    AnthropicChat,
    CallResult,
    ChatEndpoint,
    EndpointConfig,
    EndpointFailure,
    Executor,
    FlowTools,
    OpenAIChat,
    PythonTools,
    first_prompt_tokens,
    functions_of,
    run_call,
    thinking_setting,
)
from toolform.call.advice import advised
from toolform.call.endpoint import ANTHROPIC_KEY_ENV
from toolform.call.replies import flow_parser, sdk_parser
from toolform.cli.convert import add_trust_code, read_tools
from toolform.cli.exact_json import print_exact_json, text_of
from toolform.cli.output import warn
from toolform.conversion import LOCAL_SOURCES
from toolform.errors import BadRequest
from toolform.evidence import open_evidence
from toolform.ir import ToolSet
from toolform.loaders import load
from toolform.parse import flow_listing

EXIT_STOPPED_ON_ERROR = 4


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser(
        "call", help="run the call loop against a model endpoint; without --execute it is a dry run"
    )
    parser.add_argument(
        "tools",
        help="a tool file (OpenAI, Anthropic, MCP or IR JSON, a .py or .ts file, a Flow listing), or - for stdin; "
        "a .py file is imported, which runs its code (only with --trust-code)",
    )
    parser.add_argument("--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the file holds")
    add_trust_code(parser)
    parser.add_argument("--request", required=True, help="the user request")
    parser.add_argument("--base-url", help="an OpenAI-compatible base URL, for example http://localhost:8000/v1")
    parser.add_argument("--model", required=True, help="the model name the endpoint serves")
    parser.add_argument("--api-key-env", help="the variable holding the API key")
    parser.add_argument("--format", dest="format_id", help="default: the advisor's choice for the model")
    parser.add_argument("--protocol", help="default: the format's")
    parser.add_argument(
        "--rule", choices=("main", "symmetric", "as_written"), default="main", help="the parser's grading rule"
    )
    parser.add_argument(
        "--guard", choices=("lenient", "standard", "strict"), help="strip flagged description sentences first"
    )
    parser.add_argument("--max-steps", type=_at_least_one, default=8, help="at most this many requests (8)")
    parser.add_argument(
        "--thinking",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the Qwen 3 and 3.5 chat template switch (vLLM); default: off for those families, as in the study; "
        "not sent otherwise",
    )
    parser.add_argument("--anthropic", action="store_true", help="use the Anthropic Messages API")
    parser.add_argument(
        "--execute",
        action="store_true",
        help="run the calls: a Python tools file's functions, or a Flow listing's Tools through flow.toml",
    )
    parser.add_argument(
        "--manifest",
        type=Path,
        help="with a Flow listing: the directory whose flow.toml binds its Tools (default: the listing's)",
    )
    parser.add_argument("--max-tokens", type=_at_least_one, default=1024, help="each reply's token limit (1024)")
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.set_defaults(run=run)


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def _endpoint(arguments: argparse.Namespace, thinking: bool | None) -> ChatEndpoint:
    key_env = arguments.api_key_env or (ANTHROPIC_KEY_ENV if arguments.anthropic else None)
    key = os.environ.get(key_env) if key_env else None
    if arguments.anthropic:
        config = EndpointConfig(arguments.model, arguments.base_url or ANTHROPIC_BASE_URL, key, arguments.max_tokens)
        return AnthropicChat(config)
    config = EndpointConfig(arguments.model, arguments.base_url, key, arguments.max_tokens, thinking)
    return OpenAIChat(config)


def _executor(arguments: argparse.Namespace, toolset: ToolSet, payload: object) -> tuple[Executor | None, str]:
    if toolset.source == "python":
        return PythonTools(functions_of(payload)), "python"
    if toolset.source == "flow":
        if arguments.tools == "-":
            raise BadRequest("--execute with a Flow listing needs the listing's file, not stdin")
        listing = Path(arguments.tools)
        return FlowTools(listing, arguments.manifest or listing.parent), "flow"
    print(
        "these tools carry no executors (only a Python tools file or a Flow listing does); this is a dry run",
        file=sys.stderr,
    )
    return None, ""


def run(arguments: argparse.Namespace) -> int:
    if arguments.base_url is None and not arguments.anthropic:
        print("toolform call: error: give --base-url (or --anthropic)", file=sys.stderr)
        return 2
    evidence = open_evidence(arguments.study_dir)
    source, payload = read_tools(arguments.tools, arguments.source, arguments.trust_code)
    if source == "python":
        from toolform.loaders.python import import_module

        # Imported once: the tools are read from the module whose functions --execute calls.
        payload = import_module(Path(str(payload)))
    loaded = load(source, payload)
    for message in loaded.warnings:
        warn(message)
    toolset = loaded.toolset
    recommendation = None
    format_id, protocol_id = arguments.format_id, arguments.protocol
    if format_id is None:
        recommendation = advised(evidence, arguments.model, toolset, arguments.rule)
        format_id = str(recommendation["format_id"])
        protocol_id = protocol_id or str(recommendation["protocol_id"])
    thinking, note = thinking_setting(arguments.model, arguments.thinking, evidence)
    if note and not arguments.anthropic:
        print(note, file=sys.stderr)
    executor, kind = _executor(arguments, toolset, payload) if arguments.execute else (None, "")
    listing = flow_listing(loaded.kind, payload)
    try:
        endpoint = _endpoint(arguments, thinking)
    except EndpointFailure as failure:
        # As the reference: a loop that never started, reported as one that stopped on its error.
        endpoint = _Refused(str(failure))
    result = run_call(
        toolset,
        arguments.request,
        endpoint,
        format_id=format_id,
        protocol_id=protocol_id,
        rule=arguments.rule,
        max_steps=arguments.max_steps,
        executor=executor,
        executor_kind=kind,
        parser=sdk_parser if listing is None else flow_parser(listing),
        guard_strictness=arguments.guard,
        recommendation=recommendation,
        evidence=evidence,
    )
    if arguments.json:
        print_exact_json(result.to_dict())
    else:
        _print_transcript(result, first_prompt_tokens(toolset, arguments.request, format_id, protocol_id, evidence))
    return EXIT_STOPPED_ON_ERROR if result.stopped == "error" else 0


#: How the transcript names each kind of validation problem.
_PROBLEM_LABELS = (
    ("missing_required", "missing required argument"),
    ("unknown_args", "unknown argument"),
    ("type_errors", "wrong type"),
    ("enum_errors", "not an allowed value"),
    ("constraint_errors", "breaks a constraint"),
)


def _problems(validation: dict[str, Any]) -> list[str]:
    return [f"{label}: {item}" for key, label in _PROBLEM_LABELS for item in validation.get(key) or []]


class _Refused:
    """An endpoint that could not be set up: every request fails with the reason."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def reply(self, system: str, messages: list[dict[str, str]]) -> Any:
        raise EndpointFailure(self.reason)


def _print_transcript(result: CallResult, first_tokens: int) -> None:
    print(
        f"format {result.format_id} + {result.protocol_id}, rule {result.rule}; "
        f"the first prompt is about {first_tokens} tokens (characters / 4)"
    )
    if result.recommendation is not None:
        print(f"chosen by the advisor: {result.recommendation.get('summary', '')}")
    for step in result.steps:
        print(f"\nstep {step.index + 1}")
        print(step.reply)
        for call in step.parsed.get("calls", []):
            verdict = "valid" if call.get("valid") else "invalid"
            print(f"  call {call.get('name')} {text_of(call.get('arguments'))}: {verdict}")
            for problem in _problems(call.get("validation") or {}):
                print(f"    {problem}")
        for call in step.parsed.get("rejected", []):
            print(f"  rejected {call.get('name')}: {call.get('reason', '')}")
        for done in step.executed:
            label = done.outcome or ("ok" if done.ok else "failed")
            shown = done.result if done.ok else done.error
            print(f"  ran {done.name}: {label} {text_of(shown)}")
    if result.stopped == "no_call":
        print(f"\nfinal answer\n{result.final_text}")
    else:
        print()
    print(
        f"stopped: {result.stopped}; {result.prompt_tokens} prompt and {result.completion_tokens} completion "
        f"tokens; cost {result.cost:.6f} (price units, frontier_api prices)"
    )
    if result.error:
        print(f"error: {result.error}", file=sys.stderr)


__all__ = ["add_parser", "run"]
