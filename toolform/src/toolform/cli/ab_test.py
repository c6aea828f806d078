"""``toolform ab-test``: measure formats on your own endpoint and report the best, with a progress bar on stderr.

The same measurement as ``POST /api/v1/ab-test`` (one ``build_spec`` for both),
run in this process; the finished measurement is written to the local evidence
store unless ``--no-evidence``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from toolform.cli.convert import add_trust_code, read_tools
from toolform.cli.output import print_json, print_table
from toolform.conversion import LOCAL_SOURCES
from toolform.errors import BadRequest, ToolFormError
from toolform.evidence import Evidence, open_evidence
from toolform.evidence.local import locate_store
from toolform.measure.evidence import record_measurement
from toolform.measure.report import interval_text
from toolform.measure.run import Progress, measure
from toolform.measure.start import AbTestOptions, EndpointConfig, build_spec

_BAR_WIDTH = 30


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("ab-test", help="measure formats on your own endpoint and pick the best")
    parser.add_argument("--base-url", required=True, help="an OpenAI-compatible base URL (http://127.0.0.1:8000/v1)")
    parser.add_argument("--model", required=True, help="the model name the endpoint serves")
    parser.add_argument("--api-key-env", default="OPENAI_API_KEY", help="the variable holding the API key")
    parser.add_argument("--formats", help="comma-separated format ids; default the eight core formats")
    parser.add_argument("--n-requests", type=_at_least_one, default=50, help="generated requests per format")
    parser.add_argument("--n-tools", type=_at_least_one, default=8, help="tools in a generated tool set")
    parser.add_argument("--tier", type=int, choices=range(1, 6), default=3, help="a generated tool set's complexity")
    parser.add_argument("--seed", type=int, default=0, help="fixes the generated tools and requests")
    parser.add_argument("--rule", choices=("main", "symmetric", "as_written"), default="symmetric",
                        help="the grading rule; the study recommends symmetric for measurement")
    parser.add_argument("--tools-file", help="your tools, with --examples")
    parser.add_argument("--examples", help="labelled requests, one JSON object per line")
    parser.add_argument("--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the tool file is")
    add_trust_code(parser)
    parser.add_argument("--concurrency", type=_at_least_one, default=4, help="requests in flight at once")
    parser.add_argument("--max-tokens", type=_at_least_one, default=512, help="the reply's token budget")
    parser.add_argument("--thinking", action=argparse.BooleanOptionalAction, default=None,
                        help="the chat template's thinking switch (vLLM); default off for Qwen 3 and 3.5, as in the "
                        "study, and not sent otherwise")
    parser.add_argument("--out", type=Path, help="write the report JSON, with every record, here")
    parser.add_argument("--evidence-dir", help="the local evidence store (default: TOOLFORM_EVIDENCE_DIR, else "
                        "~/.local/share/toolform/evidence)")
    parser.add_argument("--no-evidence", action="store_true", help="do not write the measurement to the store")
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.set_defaults(run=run)


def _at_least_one(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def read_examples(path: str) -> list[object]:
    """One JSON object per line (blank lines skipped); a bad line is refused with its number."""
    examples: list[object] = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            examples.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise BadRequest(
                f"{path}, line {number}: not JSON ({error.msg}); write one example object per line"
            ) from None
    return examples


class ProgressBar:
    """Requests measured of the total on ``stream``: a redrawn bar on a terminal, a line per tenth otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.redraw = stream.isatty()
        self.shown = -1

    def __call__(self, done: int, total: int) -> None:
        if self.redraw:
            filled = _BAR_WIDTH * done // total
            bar = "#" * filled + "-" * (_BAR_WIDTH - filled)
            end = "\n" if done == total else ""
            self.stream.write(f"\r[{bar}] {done}/{total} requests measured{end}")
        else:
            tenth = 10 * done // total
            if tenth == self.shown:
                return
            self.shown = tenth
            self.stream.write(f"measured {done} of {total} requests\n")
        self.stream.flush()


def study_line(evidence: Evidence) -> str:
    """What measuring this way gained in the study, from its facts with their source label; empty without them."""
    try:
        data = evidence.data("facts")
    except ToolFormError:
        return ""
    facts = data.get("facts", data) if isinstance(data, dict) else data
    by_id = {f["id"]: f for f in facts if isinstance(f, dict) and "id" in f} if isinstance(facts, list) else {}
    chosen = [by_id.get(name) for name in ("measure_eight", "fitted_rule", "always_json")]
    if any(fact is None for fact in chosen):
        return ""
    eight, fitted, json_default = (fact for fact in chosen if fact is not None)
    sources = ", ".join(dict.fromkeys(str(fact["source"]) for fact in (eight, fitted, json_default)))
    return (
        f"In the study ({sources}), measuring eight formats this way reached {eight['value']}%, against "
        f"{fitted['value']}% for the fitted rule and {json_default['value']}% for the JSON Schema default."
    )


def run(arguments: argparse.Namespace) -> int:
    evidence = open_evidence(arguments.study_dir)
    tools: dict[str, Any] | None = None
    if arguments.tools_file:
        source, payload = read_tools(arguments.tools_file, arguments.source, arguments.trust_code)
        tools = {"source": source, "payload": payload}
    options = AbTestOptions(
        model=arguments.model,
        formats=[f.strip() for f in arguments.formats.split(",") if f.strip()] if arguments.formats else None,
        n_requests=arguments.n_requests, n_tools=arguments.n_tools, tier=arguments.tier, seed=arguments.seed,
        rule=arguments.rule, tools=tools, examples=read_examples(arguments.examples) if arguments.examples else None,
        concurrency=arguments.concurrency, max_tokens=arguments.max_tokens, thinking=arguments.thinking,
    )
    started = build_spec(options, EndpointConfig(arguments.base_url, arguments.model, arguments.api_key_env),
                         over_http=False, evidence=evidence)
    for warning in started.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    progress = Progress(started.spec.total, on_step=ProgressBar(sys.stderr))
    report = asyncio.run(measure(started.spec, progress, evidence))
    if report.errors == report.total_requests:
        first = next(r.error for r in report.records if r.error)
        raise BadRequest(f"every request failed; the first: {first}")
    stored = None
    if not arguments.no_evidence:
        stored = record_measurement(locate_store(arguments.evidence_dir)[0], report)
    if arguments.out:
        arguments.out.write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
    if arguments.json:
        print_json(report.to_dict(with_records=False))
        return 0
    where = "from your examples" if report.source == "examples" else report.source
    print(f"{report.model}: {report.n_requests} requests per format ({where}), {report.rule} rule")
    print_table(
        ["format", "protocol", "accuracy", "Wilson 95%", "strict parse", "hallucinated", "prompt tokens (mean)",
         "errors", "cut off", "retries"],
        [[s.format_id, s.protocol_id, f"{s.accuracy:.2f}%", interval_text(s.correct, s.n),
          f"{s.parse_strict:.2f}%", f"{s.hallucinated:.2f}%", f"{s.prompt_tokens_mean:g}", s.errors or "",
          s.truncated or "", s.retries or ""] for s in report.scores],
    )
    print()
    print(report.summary.splitlines()[0])
    study = study_line(evidence)
    if study:
        print(study)
    if stored is not None:
        print(f"Wrote the measurement to the local evidence store as {stored.source}.")
    if arguments.out:
        print(f"Wrote the report to {arguments.out}.")
    return 0
