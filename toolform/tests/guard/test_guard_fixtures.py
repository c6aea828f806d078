"""The reference's parity fixtures for the guard: guard_cases.json, 55 texts, the same findings.

Each case is one text in one field of one tool, in a catalogue and beside
parameters the case names; at strictness "strict" the findings on that field
must be the fixture's, rule id, severity, start and end, in order.
"""

from __future__ import annotations

from typing import Any

import pytest
from toolform.guard import guard
from toolform.ir import FieldIR, ToolIR, ToolSet, TypeIR
from toolform.ir.types import Kind

from support.evidence_files import evidence_json

CASES: list[dict[str, Any]] = evidence_json("guard_cases")["data"]["cases"]


def _toolset(case: dict[str, Any]) -> ToolSet:
    params = [FieldIR(name, TypeIR(Kind.STRING), required=False) for name in case["param_names"]]
    description = case["text"]
    if case["field"].startswith("param:"):
        target = case["field"].removeprefix("param:")
        for param in params:
            if param.name == target:
                param.description = case["text"]
        description = "Sends a message."
    tools = [
        ToolIR(name, description if name == case["tool"] else "Another tool.", params if name == case["tool"] else [])
        for name in case["catalogue_names"]
    ]
    return ToolSet(tools)


def test_there_are_55_cases() -> None:
    assert len(CASES) == 55


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_reference_rules_find_what_the_fixture_lists(case: dict[str, Any]) -> None:
    report = guard(_toolset(case), strictness="strict", reference_only=True)
    found = [
        (f.rule_id, f.severity.label, f.start, f.end)
        for f in report.findings
        if f.tool == case["tool"] and f.field == case["field"]
    ]
    expected = [(f["rule_id"], f["severity"], f["start"], f["end"]) for f in case["findings"]]
    assert found == expected


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_our_rules_never_change_a_reference_finding(case: dict[str, Any]) -> None:
    """Ours add findings with ids of their own (TS2xx); the TS1xx ones stay the reference's."""
    report = guard(_toolset(case), strictness="strict")
    reference_ids = [
        (f.rule_id, f.severity.label, f.start, f.end)
        for f in report.findings
        if f.tool == case["tool"] and f.field == case["field"] and f.rule_id < "TS200"
    ]
    assert reference_ids == [(f["rule_id"], f["severity"], f["start"], f["end"]) for f in case["findings"]]
    assert all(f.rule_id.startswith(("TS1", "TS2")) for f in report.findings)
