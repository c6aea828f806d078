"""``toolform catalogue``: plan one-shot, retrieval or names-first disclosure for a long tool list.

With ``--query`` the tools are ranked against it (the plan's retrieval when it
retrieves, ``ranking`` otherwise); with ``--fit`` they are shrunk to ``--budget``
and ``--out`` writes what is left, in the input's shape.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from toolform.cli.convert import add_trust_code, read_tools
from toolform.cli.output import print_json, print_table
from toolform.conversion import LOCAL_SOURCES
from toolform.evidence import open_evidence

#: Ranking rows shown to a person; --json gives them all.
SHOWN_RANKS = 10


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is below 1")
    return value


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser(
        "catalogue", help="plan one-shot, retrieval or names-first disclosure for a long tool list"
    )
    parser.add_argument("tools", help="a tool file (OpenAI, Anthropic, MCP or IR JSON, a .ts file), or - for stdin")
    parser.add_argument("--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the file holds")
    parser.add_argument("--format", default="xml_schema", help="the format the block is rendered in")
    parser.add_argument("--context", type=_positive, help="the model's context window, in tokens")
    parser.add_argument("--budget", type=_positive, help="the most tokens the tool block may take")
    parser.add_argument("--query", help="a request, to rank the tools against")
    parser.add_argument("--k", type=_positive, default=8, help="tools to keep when retrieving (default 8)")
    parser.add_argument(
        "--split-identifiers",
        action="store_true",
        help="rank with camelCase and digits split into words too (not the reference's scores)",
    )
    parser.add_argument("--fit", action="store_true", help="shrink the tools to fit --budget")
    parser.add_argument("--out", type=Path, help="with --fit, write the reduced tools here")
    parser.add_argument(
        "--verbose", action="store_true", help="with --fit, list every removal (by default they are summarized)"
    )
    add_trust_code(parser)
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.set_defaults(run=run, usage_error=parser.error)


def run(arguments: argparse.Namespace) -> int:
    from toolform.catalogue import fit_to_budget, plan, retrieve
    from toolform.catalogue.toolsets import as_toolset

    if arguments.fit and arguments.budget is None:
        arguments.usage_error("--fit needs --budget")
    if arguments.out is not None and not arguments.fit:
        arguments.usage_error("--out needs --fit")
    evidence = open_evidence(arguments.study_dir)
    source, payload = read_tools(arguments.tools, arguments.source, arguments.trust_code)
    toolset = as_toolset({"source": source, "payload": payload})
    result = plan(
        toolset,
        arguments.format,
        arguments.context,
        arguments.budget,
        arguments.query,
        arguments.k,
        evidence,
        split_identifiers=arguments.split_identifiers,
    )
    answer = result.to_dict()
    if isinstance(answer["retrieval"], dict):
        # The command shows a plan's ranking without its (empty) tools member, as the reference's does.
        del answer["retrieval"]["tools"]
    ranking = result.retrieval
    if arguments.query and ranking is None:
        ranking = retrieve(
            toolset, arguments.query, arguments.k, split_identifiers=arguments.split_identifiers, include_tools=False
        )
        shown = ranking.to_dict()
        del shown["tools"]
        answer["ranking"] = shown
    fit = (
        fit_to_budget(toolset, arguments.budget, arguments.format, evidence, query=arguments.query)
        if arguments.fit
        else None
    )
    if fit is not None:
        answer["fit"] = fit.to_dict()
    if arguments.json:
        print_json(answer)
    else:
        _print_plan(answer, arguments.verbose)
    if fit is not None and arguments.out is not None:
        from toolform import export

        target = toolset.source if toolset.source in export.TARGETS else "ir"
        written = export.export(fit.toolset, target).payload
        arguments.out.write_text(json.dumps(written, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"Wrote {len(fit.toolset)} tools to {arguments.out}.", file=sys.stderr)
    return 0


def _print_plan(answer: dict[str, Any], verbose: bool = False) -> None:
    print(f"plan       {answer['strategy']}")
    print(f"tools      {answer['n_tools']:,}")
    print(f"tokens     about {answer['schema_tokens']:,} in {answer['format_id']} (characters / 4)")
    print()
    print(answer["reason"])
    rows = [
        [f["source"], f["label"], f"{f['value']:.2f}%", "" if f["interval"] is None else json.dumps(f["interval"])]
        for f in answer["evidence"]
    ]
    if rows:
        print()
        print("Evidence")
        print_table(["source", "label", "value", "interval"], rows)
    ranking = answer["retrieval"] or answer.get("ranking")
    if ranking is not None:
        kept = set(ranking["selected"])
        print()
        print(f"BM25 ranking for {ranking['query']!r}")
        ranks = [
            [str(i), name, f"{score:.3f}", "yes" if name in kept else ""]
            for i, (name, score) in enumerate(ranking["ranked"][:SHOWN_RANKS], start=1)
        ]
        print_table(["rank", "tool", "score", "kept"], ranks)
    fit = answer.get("fit")
    if fit is not None:
        state = "fits" if fit["fits"] else "still over the budget"
        print()
        print(f"fit        {state}: about {fit['tokens_before']:,} -> {fit['tokens_after']:,} tokens, "
              f"budget {fit['budget_tokens']:,}")
        if verbose:
            for removal in fit["dropped"]:
                where = removal["tool"] + (f".{removal['param']}" if "param" in removal else "")
                print(f"  dropped {where}: {removal['reason']} ({removal['tokens']:,} tokens)")
        else:
            _print_removals(fit["dropped"])


def _print_removals(dropped: list[dict[str, Any]]) -> None:
    """The removals counted by reason, with the tokens each kind saved; --verbose lists them one by one."""
    if not dropped:
        return
    by_reason: dict[str, list[int]] = {}
    for removal in dropped:
        by_reason.setdefault(str(removal["reason"]), []).append(int(removal["tokens"]))
    print(f"  {len(dropped):,} removals ({sum(map(sum, by_reason.values())):,} tokens); --verbose lists each")
    for reason, tokens in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        print(f"  {len(tokens):>6,} x {reason} ({sum(tokens):,} tokens)")
