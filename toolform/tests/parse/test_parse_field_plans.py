"""A field plan's quick tests agree with the full checks: seeded types of every kind, values of every kind.

A value the quick validity test passes must be one the full check finds no error
in, and a quick normal form must be the one the full normalisation gives; a plan
must also read its fields as the checks did before plans (the later of two
fields with one name, every required name in order).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from toolform.ir import FieldIR, Kind, TypeIR
from toolform.loaders import load
from toolform.parse.field_plans import FULL, Plans, plan_fields
from toolform.parse.normalize import normalize_arguments, normalize_value
from toolform.parse.result import Validation
from toolform.parse.validate import _check, validate_arguments

from support import toolsets

VALUES: list[Any] = [
    "", "a", "Draft", " draft ", "DRAFT", "signed", "x" * 41, "a b", "東京", "3", "true", None, True, False,
    0, 1, -1, 7, 8, 100, 10**12, 0.5, 2.0, -0.0, float("inf"), Decimal("1.5"), Decimal("7"), Decimal("1E+9"),
    [], ["a"], [1, "b"], {}, {"k": "v"}, {"value": 1},
]  # fmt: skip


def _types(seed: int) -> list[TypeIR]:
    """Every type of a seeded generated tool set, read by the loader as the parse route reads it."""
    tools = load("openai", toolsets.openai_list(toolsets.tool_set(seed))).toolset
    return [t for tool in tools for t in tool.types()]


def _hand_made() -> list[TypeIR]:
    enum_base = TypeIR(Kind.ENUM, enum_values=["Metric", "metric", "Imperial"], base=Kind.STRING)
    return [
        TypeIR(Kind.STRING, {"min_length": 2, "max_length": 40}),
        TypeIR(Kind.STRING, {"max_length": Decimal("3")}),
        TypeIR(Kind.STRING, {"min_length": True}),
        TypeIR(Kind.STRING, {"pattern": "^[a-z]+$"}),
        TypeIR(Kind.INTEGER, {"minimum": 1, "maximum": 7}),
        TypeIR(Kind.INTEGER, {"minimum": Decimal("0.5")}),
        TypeIR(Kind.NUMBER, {"maximum": 1e9}),
        TypeIR(Kind.NUMBER, {"minimum": 0, "max_length": 2}),
        TypeIR(Kind.BOOLEAN, {"minimum": 1}),
        TypeIR(Kind.ANY),
        TypeIR(Kind.ANY, {"min_items": 1}),
        enum_base,
        TypeIR(Kind.ENUM, enum_values=["a", 1, None]),
        TypeIR(Kind.ENUM, enum_values=[1, 2], base=Kind.INTEGER),
        TypeIR(Kind.ENUM, enum_values=[]),
        TypeIR(Kind.UNION, union_of=[TypeIR(Kind.STRING), TypeIR(Kind.INTEGER)]),
        TypeIR(Kind.ARRAY, item=TypeIR(Kind.INTEGER)),
        TypeIR(Kind.OBJECT, fields=[FieldIR("value", TypeIR(Kind.INTEGER))]),
        TypeIR(Kind.NULL),
    ]


def _errors(type_: TypeIR, value: Any) -> Validation:
    found = Validation()
    _check(type_, value, "p", found, Plans())
    return found


def test_quick_tests_agree_with_the_full_checks() -> None:
    types = _hand_made() + [t for seed in range(60) for t in _types(seed)]
    quick_passes = quick_forms = 0
    for type_ in types:
        plan = plan_fields([FieldIR("p", type_)])
        valid, normal = plan.valid["p"], plan.normal["p"]
        for value in VALUES:
            if valid is not None and valid(value):
                quick_passes += 1
                assert _errors(type_, value).n_errors == 0, (type_, value)
            if normal is not None and (form := normal(value)) is not FULL:
                quick_forms += 1
                full = normalize_value(value, type_)
                assert form == full and type(form) is type(full), (type_, value, form, full)
    assert quick_passes > 500 and quick_forms > 500


def test_a_plan_reads_fields_as_the_checks_did() -> None:
    rng = random.Random(5)
    kinds = [Kind.STRING, Kind.INTEGER, Kind.BOOLEAN, Kind.ANY]
    for _ in range(300):
        fields = [
            FieldIR(rng.choice("abc"), TypeIR(rng.choice(kinds)), required=rng.random() < 0.5)
            for _ in range(rng.randint(0, 5))
        ]
        plan = plan_fields(fields)
        assert plan.by_name == {f.name: f for f in fields}
        assert plan.required == [f.name for f in fields if f.required]
        assert plan.required_names == {f.name for f in fields if f.required}


def test_plans_are_shared_only_for_the_same_fields_list() -> None:
    plans = Plans()
    first = [FieldIR("a", TypeIR(Kind.STRING))]
    same_value = [FieldIR("a", TypeIR(Kind.STRING))]
    assert plans.of(first) is plans.of(first)
    assert plans.of(same_value) is not plans.of(first)


def test_shared_plans_give_the_answers_of_fresh_ones() -> None:
    rng = random.Random(11)
    for seed in range(40):
        tools = load("openai", toolsets.openai_list(toolsets.tool_set(seed))).toolset
        shared = Plans()
        for _ in range(20):
            tool = rng.choice(tools.tools)
            arguments = {f.name: rng.choice(VALUES) for f in tool.params if rng.random() < 0.8}
            if rng.random() < 0.2:
                arguments["extra"] = 1
            assert validate_arguments(tool, arguments, shared) == validate_arguments(tool, arguments)
            assert normalize_arguments(tool, arguments, shared) == normalize_arguments(tool, arguments)
