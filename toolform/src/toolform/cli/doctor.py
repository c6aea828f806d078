"""``toolform doctor``: check the install: Python, versions, the evidence, the registries, the serve stack."""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
from dataclasses import dataclass
from typing import Any, Literal

from toolform import __version__
from toolform.cli.output import print_json
from toolform.errors import ToolFormError
from toolform.evidence import Evidence, open_evidence
from toolform.evidence.pinned import EVIDENCE_VERSION
from toolform.registry import Registry

CheckStatus = Literal["ok", "warn", "fail"]


@dataclass(frozen=True)
class Check:
    name: str
    status: CheckStatus
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "status": self.status, "detail": self.detail}


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("doctor", help="check the install: Python, versions, evidence, registries, serve")
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.add_argument("--study-dir", help="check the study's evidence in this folder")
    parser.set_defaults(run=run)


def evidence_checks(evidence: Evidence) -> list[Check]:
    """The evidence's state, each file that failed its check, and whether it is the pinned set."""
    if evidence.status == "missing":
        return [Check("evidence", "fail", evidence.detail)]
    checks = [Check("evidence", "ok" if evidence.status == "ok" else "fail", evidence.detail)]
    checks += [Check(f"evidence file {p.path}", "fail", p.reason) for p in evidence.problems]
    if evidence.manifest is not None and not evidence.is_pinned:
        checks.append(
            Check(
                "evidence origin",
                "warn",
                f"the manifest is not the pinned one (evidence {EVIDENCE_VERSION}); "
                "its files match it, but where it came from is not known",
            )
        )
    return checks


def registry_checks(evidence: Evidence) -> list[Check]:
    """Whether the registries read from the evidence."""
    registry = Registry(evidence)
    try:
        listing = registry.formats()
        formats = Check(
            "formats", "ok", f"{listing.count_registered} registered ({listing.count_in_study} in the study)"
        )
    except ToolFormError as error:
        formats = Check("formats", "fail", error.detail)
    try:
        protocols = Check("protocols", "ok", f"{len(registry.protocols().protocols)} registered")
    except ToolFormError as error:
        protocols = Check("protocols", "fail", error.detail)
    return [formats, protocols]


def import_check(name: str, modules: tuple[str, ...]) -> Check:
    missing = []
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(module)
    if missing:
        return Check(name, "fail", f"cannot import {', '.join(missing)}")
    return Check(name, "ok", f"{', '.join(modules)} import")


def run(arguments: argparse.Namespace) -> int:
    evidence = open_evidence(arguments.study_dir)
    python_ok = sys.version_info >= (3, 11)
    checks = [
        Check("python", "ok" if python_ok else "fail", f"{platform.python_version()} (3.11 or newer needed)"),
        Check("versions", "ok", f"toolform {__version__}, evidence {evidence.version or 'none'}"),
        *evidence_checks(evidence),
    ]
    if evidence.manifest is not None:
        checks += registry_checks(evidence)
    checks.append(import_check("flow-toolkit", ("flow_toolkit",)))
    checks.append(import_check("serve", ("fastapi", "uvicorn", "pydantic")))
    ok = all(check.status != "fail" for check in checks)
    if arguments.json:
        print_json({"ok": ok, "checks": [check.to_dict() for check in checks]})
    else:
        for check in checks:
            print(f"{check.status:<4} {check.name:<12} {check.detail}")
        print("all checks passed" if ok else "some checks failed")
    return 0 if ok else 1
