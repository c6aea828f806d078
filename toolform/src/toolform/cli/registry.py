"""``toolform formats``, ``protocols`` and ``models``: the ids other verbs take, with the study's figures.

Each table ends with the source label of its figures, as the evidence gives it;
``--json`` prints the registry's entries unchanged.
"""

from __future__ import annotations

import argparse
from typing import Any

from toolform.cli.output import print_json, print_table
from toolform.errors import BadRequest, EvidenceUnavailable
from toolform.evidence import Evidence, open_evidence
from toolform.registry import Registry


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the registry's entries as JSON and nothing else")
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")


def add_parser(verbs: Any) -> None:
    formats = verbs.add_parser(
        "formats", help="list the format ids with the study's accuracy and schema tokens for each"
    )
    formats.add_argument("--core", action="store_true", help="only the eight core formats")
    formats.add_argument("--family", help="only this family, for example json or markup")
    formats.add_argument(
        "--sort", choices=("id", "accuracy", "tokens"), default="id", help="the order of the rows (default id)"
    )
    _common(formats)
    formats.set_defaults(run=run_formats)
    protocols = verbs.add_parser("protocols", help="list the answer protocol ids")
    _common(protocols)
    protocols.set_defaults(run=run_protocols)
    models = verbs.add_parser("models", help="list the study's model zoo")
    models.add_argument("--in-study", action="store_true", help="only the models the study measured")
    _common(models)
    models.set_defaults(run=run_models)


def _evidence(arguments: argparse.Namespace) -> Evidence:
    evidence = open_evidence(arguments.study_dir)
    if evidence.manifest is None:
        raise EvidenceUnavailable(evidence.detail)
    return evidence


def _sources(evidence: Evidence, name: str) -> str:
    document = evidence.document(name)
    source = document.get("source") if isinstance(document, dict) else None
    return ", ".join(str(s) for s in source) if isinstance(source, list) else str(source or "")


def _measured(entry: dict[str, Any]) -> dict[str, Any]:
    measured = entry.get("measured")
    return measured if isinstance(measured, dict) else {}


def run_formats(arguments: argparse.Namespace) -> int:
    evidence = _evidence(arguments)
    listing = Registry(evidence).formats(core=True if arguments.core else None, family=arguments.family)
    entries = listing.formats
    if arguments.family and not entries:
        families = sorted({str(e.get("family")) for e in Registry(evidence).formats().formats})
        raise BadRequest(f"no format has the family '{arguments.family}'; the families: {', '.join(families)}")
    if arguments.json:
        print_json(listing.to_dict())
        return 0
    order = {
        "id": lambda e: (str(e["id"]),),
        "accuracy": lambda e: (-float(_measured(e).get("call_exact", -1)), str(e["id"])),
        "tokens": lambda e: (float(_measured(e).get("mean_schema_tokens", float("inf"))), str(e["id"])),
    }[arguments.sort]
    rows = []
    for entry in sorted(entries, key=order):
        measured = _measured(entry)
        accuracy = measured.get("call_exact")
        tokens = measured.get("mean_schema_tokens")
        rows.append([
            entry["id"], entry.get("family"), "core" if entry.get("core") else "",
            "" if accuracy is None else f"{accuracy:.2f}%", "" if tokens is None else f"{tokens:,.1f}",
            measured.get("source", "not measured"),
        ])
    print_table(["format", "family", "core", "exact calls", "schema tokens (mean)", "source"], rows)
    as_of = sorted({str(_measured(e).get("as_of")) for e in entries if _measured(e).get("as_of")})
    print()
    print(f"{len(entries)} formats of {listing.count_registered} registered ({listing.count_in_study} in the study). "
          f"Exact calls: the share of prompts answered with exactly the right call, pooled over every cell the format "
          f"ran in; schema tokens: the mean size of its tool block per prompt. Source "
          f"{_sources(evidence, 'formats')}" + (f", as of {', '.join(as_of)}." if as_of else "."))
    return 0


def run_protocols(arguments: argparse.Namespace) -> int:
    evidence = _evidence(arguments)
    listing = Registry(evidence).protocols()
    if arguments.json:
        print_json(listing.to_dict())
        return 0
    rows = [
        [p["id"], p.get("name"), "yes" if p.get("structured") else "no", "yes" if p.get("supports_parallel") else "no",
         "yes" if p.get("in_crossing") else ""]
        for p in listing.protocols
    ]
    print_table(["protocol", "name", "structured", "parallel calls", "in the crossing experiment"], rows)
    print()
    print(f"{len(rows)} answer protocols. Source {_sources(evidence, 'protocols')}; the crossing experiment's "
          "figures: toolform evidence protocol_crossing.")
    return 0


def run_models(arguments: argparse.Namespace) -> int:
    evidence = _evidence(arguments)
    zoo = Registry(evidence).models().to_dict()
    if arguments.json:
        print_json(zoo)
        return 0
    listed = zoo.get("models")
    models = [
        m for m in (listed if isinstance(listed, list) else [])
        if isinstance(m, dict) and (m.get("in_study") or not arguments.in_study)
    ]
    rows = [
        [m["id"], m.get("family"), "not published" if m.get("params_b") is None else f"{m['params_b']:g}",
         m.get("kind"), "yes" if m.get("open") else "no", m.get("max_model_len"), "yes" if m.get("in_study") else ""]
        for m in models
    ]
    print_table(["model", "family", "size (B parameters)", "kind", "open weights", "context (tokens)", "in the study"],
                rows)
    print()
    studied = sum(1 for m in models if m.get("in_study"))
    print(f"{len(rows)} models, {studied} of them in the study. Source {_sources(evidence, 'zoo')}.")
    return 0
