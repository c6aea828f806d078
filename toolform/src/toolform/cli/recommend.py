"""``toolform recommend``: the format and protocol for a model, from the study's evidence or a local measurement."""

from __future__ import annotations

import argparse
from typing import Any

from toolform.advisor.advise import advise
from toolform.cli.convert import add_trust_code, read_tools
from toolform.cli.output import print_json, print_table, warn
from toolform.conversion import LOCAL_SOURCES, load_tools
from toolform.errors import EvidenceUnavailable
from toolform.evidence import open_evidence
from toolform.evidence.local import open_store


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("recommend", help="recommend a format and answer protocol from the study's evidence")
    parser.add_argument("--model", help="a model id or name, for example Qwen/Qwen3-8B")
    parser.add_argument("--family", help="a model-zoo family key, for example qwen3")
    parser.add_argument("--params-b", type=float, help="parameters in billions")
    parser.add_argument("--tools-file", help="take the tool count, tier and tokens from these tools")
    parser.add_argument("--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the tool file is")
    add_trust_code(parser)
    parser.add_argument("--n-tools", type=int, help="tools shown at once (default 8, or the file's count)")
    parser.add_argument("--tier", type=int, help="complexity tier 1 to 5 (default 3, or the file's)")
    parser.add_argument("--budget", type=int, help="most tokens the tool block may take")
    parser.add_argument("--context", type=int, help="the model's context window")
    parser.add_argument("--objective", choices=("accuracy", "cost"), default="accuracy")
    parser.add_argument("--price", choices=("frontier_api", "self_hosted"), default="frontier_api",
                        help="price vector for the cost objective")
    parser.add_argument("--rule", choices=("main", "symmetric", "as_written"), default="main",
                        help="grading rule the expected accuracy is read under")
    parser.add_argument("--protocol", help="fix the answer protocol")
    parser.add_argument("--candidates", help="comma-separated core format ids to rank")
    parser.add_argument("--third-party", action="store_true", help="the tools come from someone else")
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")
    parser.add_argument("--evidence-dir", help="the local evidence store (default: TOOLFORM_EVIDENCE_DIR)")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    evidence = open_evidence(arguments.study_dir)
    if evidence.manifest is None:
        raise EvidenceUnavailable(evidence.detail)
    tools = None
    if arguments.tools_file:
        source, payload = read_tools(arguments.tools_file, arguments.source, arguments.trust_code)
        tools = load_tools(source, payload, over_http=False)
    situation: dict[str, Any] = {
        "model": arguments.model,
        "family": arguments.family,
        "params_b": arguments.params_b,
        "n_tools": arguments.n_tools,
        "tier": arguments.tier,
        "token_budget": arguments.budget,
        "context_tokens": arguments.context,
        "objective": arguments.objective,
        "price": arguments.price,
        "rule": arguments.rule,
        "protocol": arguments.protocol,
        "candidates": None if not arguments.candidates else [c.strip() for c in arguments.candidates.split(",")],
        "third_party_tools": arguments.third_party,
    }
    store = open_store(arguments.evidence_dir)
    for problem in store.problems:
        warn(f"local evidence {problem} (not used)")
    answer = advise(evidence, {k: v for k, v in situation.items() if v is not None}, tools, store).to_dict()
    if arguments.json:
        print_json(answer)
        return 0
    low, high = answer["interval"]
    print(f"{answer['format_id']} + {answer['protocol_id']}: {answer['expected_accuracy']:.2f}% expected "
          f"({low:.2f} to {high:.2f}, {answer['interval_kind']}), basis {answer['basis']}")
    print(f"tool block about {answer['schema_tokens']:,} tokens ({answer['tokens_source']}); "
          f"catalogue: {answer['catalogue']['strategy']}")
    if answer["tied_with"]:
        print(f"tied with: {', '.join(answer['tied_with'])}")
    print()
    rows = [[a["format_id"], a["protocol_id"], a["expected_accuracy"], a["schema_tokens"], a["cost_per_request"]]
            for a in answer["alternatives"]]
    if rows:
        print_table(["alternative", "protocol", "expected %", "tokens", f"cost/request ({_cost_unit(answer)})"], rows)
        print()
    print_table(["source", "figure", "value"], [[e["source"], e["label"], e["value"]] for e in answer["evidence"]])
    print()
    print(answer["explanation"])
    for message in answer["warnings"]:
        warn(message)
    return 0


def _cost_unit(answer: dict[str, Any]) -> str:
    """The unit of cost_per_request: the study's relative price units at the price vector the situation chose.

    The study prices tokens in units of its own (``cost.json``'s ``prices``), not in a currency.
    """
    price = answer.get("situation", {}).get("price") if isinstance(answer.get("situation"), dict) else None
    return f"price units, {price} prices" if price else "price units"
