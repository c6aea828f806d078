"""The differential harness's own rules: what counts as a difference, and how a listed one is applied."""

from __future__ import annotations

from support.differences import DIFFERENCES, Answer, Request, adjust
from support.differential import mismatches


def test_equal_documents_have_no_mismatch() -> None:
    assert mismatches({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}) == []


def test_members_missing_on_either_side_are_named_by_path() -> None:
    found = mismatches({"a": {"x": 1}, "ours": 1}, {"a": {"y": 1}})
    assert sorted(found) == [
        "$.a.x: only ours has it (1)",
        "$.a.y: only the reference has it (1)",
        "$.ours: only ours has it (1)",
    ]


def test_values_of_another_type_differ_even_when_python_calls_them_equal() -> None:
    assert mismatches([True, 1.0], [1, 1]) == ["$[0]: ours true, the reference 1", "$[1]: ours 1.0, the reference 1"]


def test_lists_of_another_length_differ() -> None:
    assert mismatches({"l": [1, 2]}, {"l": [1]}) == ["$.l: 2 items in ours, 1 in the reference"]


def test_a_difference_applies_only_to_its_routes_and_only_when_needed() -> None:
    ours = Answer(200, {"status": "ok", "version": "0.1.0", "evidence": {"status": "ok"}})
    reference = Answer(200, {"status": "ok", "version": "0.0.1"})
    used = adjust(Request("GET", "/api/v1/health"), ours, reference)
    assert set(used) == {"framework-version", "health-evidence-state"}
    assert mismatches(ours.body, reference.body) == []
    # The same members on another route are not explained away.
    other_ours, other_reference = Answer(200, {"version": "0.1.0"}), Answer(200, {"version": "0.0.1"})
    assert adjust(Request("GET", "/api/v1/formats"), other_ours, other_reference) == []
    assert mismatches(other_ours.body, other_reference.body) != []


def test_every_difference_has_a_name_a_reason_and_a_witness() -> None:
    names = [d.name for d in DIFFERENCES]
    assert len(names) == len(set(names))
    for difference in DIFFERENCES:
        assert len(difference.why) > 40 and difference.applies_to(difference.witness), difference.name
