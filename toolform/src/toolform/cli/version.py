"""``toolform version``: the toolform, evidence and Python versions."""

from __future__ import annotations

import argparse
import platform
from typing import Any

from toolform import __version__
from toolform.cli.output import print_json
from toolform.evidence import open_evidence


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("version", help="print the toolform and evidence versions")
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    evidence = open_evidence(arguments.study_dir)
    versions = {"framework": __version__, "evidence": evidence.version, "python": platform.python_version()}
    if arguments.json:
        print_json(versions)
    else:
        shown = versions["evidence"] or f"none ({evidence.status})"
        print(f"toolform {__version__}, evidence {shown}, Python {versions['python']}")
    return 0
