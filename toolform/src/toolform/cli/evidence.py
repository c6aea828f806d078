"""``toolform evidence``: the headline facts, the list of files, one file as a table, or one fact."""

from __future__ import annotations

import argparse
from typing import Any

from toolform.cli.output import print_json, print_table
from toolform.errors import BadRequest, EvidenceUnavailable
from toolform.evidence import open_evidence
from toolform.evidence.local import local_facts, open_store
from toolform.registry import Registry


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("evidence", help="show the study's evidence: facts, files, one file, one fact")
    parser.add_argument("name", nargs="?", help="an evidence file, for example families or protocol_crossing")
    parser.add_argument("--list", action="store_true", help="list the evidence files")
    parser.add_argument("--fact", help="one headline fact by id")
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")
    parser.add_argument(
        "--evidence-dir",
        help="the local evidence store (default: TOOLFORM_EVIDENCE_DIR, else ~/.local/share/toolform/evidence)",
    )
    parser.set_defaults(run=run)


def _records(data: object) -> list[dict[str, Any]] | None:
    """Rows when ``data`` is a list or table of records, else None."""
    if isinstance(data, dict) and data and all(isinstance(v, dict) for v in data.values()):
        return list(data.values())
    if isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        return data
    return None


def _print_data(label: str, data: object) -> None:
    rows = _records(data)
    if rows is not None:
        scalar = [k for k, v in rows[0].items() if not isinstance(v, (dict, list))]
        print(label)
        print_table(scalar, [[row.get(k) for k in scalar] for row in rows])
        print()
    elif isinstance(data, dict):
        for key, value in data.items():
            _print_data(f"{label}.{key}", value)
    else:
        print(f"{label}: {data}")


def run(arguments: argparse.Namespace) -> int:
    evidence = open_evidence(arguments.study_dir)
    if evidence.manifest is None:
        raise EvidenceUnavailable(evidence.detail)
    for problem in evidence.problems:
        print(f"warning: {problem} (not shown)")
    store = open_store(arguments.evidence_dir)
    for stored_problem in store.problems:
        print(f"warning: local evidence {stored_problem} (not shown)")
    if arguments.fact:
        listed = [f for f in Registry(evidence).facts().facts if isinstance(f, dict)] + local_facts(store)
        fact = next((f for f in listed if f.get("id") == arguments.fact), None)
        if fact is None:
            raise BadRequest(f"no fact '{arguments.fact}'; see `toolform evidence` for their ids")
        if arguments.json:
            print_json(fact)
        else:
            unit = "%" if fact.get("unit") == "%" else ""
            print(f"{fact['id']}: {fact['value']}{unit}  {fact.get('text', '')}  ({fact.get('source', '')})")
        return 0
    if arguments.list:
        manifest = evidence.manifest
        if arguments.json:
            document = evidence.document("manifest")
            print_json({**document, "local": store.to_dict()} if isinstance(document, dict) else document)
            return 0
        print(f"Evidence {manifest.evidence_version}")
        print_table(["name", "bytes", "source"], [[e.name, e.size, ", ".join(e.sources)] for e in manifest.entries])
        print()
        print(f"Local evidence: {store.detail}")
        if store.measurements:
            print_table(
                ["name", "model", "date", "rule", "source"],
                [[s.file, s.measurement.model, s.measurement.date, s.measurement.rule, s.source]
                 for s in store.measurements],
            )
        return 0
    if arguments.name:
        document = evidence.document(arguments.name)
        if arguments.json:
            print_json(document)
            return 0
        if isinstance(document, dict) and "data" in document:
            print(f"{arguments.name}: {document.get('description', '')}")
            sources = document.get("source", [])
            print(f"source: {', '.join(sources) if isinstance(sources, list) else sources}")
            print()
            _print_data(arguments.name, document["data"])
        else:
            print_json(document)
        return 0
    facts = Registry(evidence).facts()
    local = local_facts(store)
    if arguments.json:
        print_json({"facts": [*facts.facts, *local]})
        return 0
    print(f"Headline facts (evidence {evidence.version})")
    rows = [
        [f.get("id"), f.get("value"), f.get("unit"), f.get("text"), f.get("source")]
        for f in [*facts.facts, *local]
        if isinstance(f, dict)
    ]
    print_table(["id", "value", "unit", "text", "source"], rows)
    return 0
