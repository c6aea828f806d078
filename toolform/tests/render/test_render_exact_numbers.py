"""Render reads the IR's numbers as they are (ints and Decimals) and writes each as the reference writes it.

The reference reads JSON numbers as Python floats; ToolForm keeps every digit
as a Decimal. Every format, rendered from a tool set whose bounds, defaults,
examples and enum values are Decimals, must give the very text it gives for the
same set read as floats (what the reference prints), with nothing turned into a
float on the way: the digits held come back unrounded wherever render hands
values back (hidden_constraints).
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest
from toolform.numbers import float_repr, number_text
from toolform.render import RenderOptions, render, render_block
from toolform.render.toolsets import tools_of

from support.evidence_files import evidence_json

FORMATS = list(evidence_json("formats")["data"])

#: Texts whose Decimal is written otherwise than its float's repr by str(): exponents, trailing zeros, digits
#: past a double's, a negative zero.
NUMBERS = [
    "0.1", "1E+21", "1E-7", "-0.0", "3.0", "1.00000000000000000001", "0.30000000000000000001", "1e16",
    "123456789.123456789", "2.5E-5", "7.50", "-1.5", "1E+2", "0.000123",
]  # fmt: skip


def _tools(number: Any) -> list[dict[str, Any]]:
    """IR tools holding ``number`` (a callable from text to a number) wherever the IR holds numbers."""
    n = [number(text) for text in NUMBERS]
    return [
        {
            "name": "measure_things",
            "description": "Measures things. Within bounds.",
            "params": [
                {
                    "name": "ratio",
                    "type": {"kind": "number", "constraints": {"minimum": n[0], "maximum": n[1]}},
                    "required": True,
                    "description": "A ratio.",
                    "example": n[2],
                },
                {
                    "name": "scale",
                    "type": {"kind": "number", "constraints": {"minimum": n[3], "maximum": n[4]}},
                    "required": False,
                    "default": n[5],
                    "example": n[6],
                },
                {
                    "name": "level",
                    "type": {"kind": "enum", "base": "number", "enum_values": [n[7], n[8], n[9]]},
                    "required": False,
                    "default": n[7],
                },
                {
                    "name": "shape",
                    "type": {
                        "kind": "object",
                        "fields": [
                            {"name": "width", "type": {"kind": "number"}, "required": True, "default": n[10]},
                            {"name": "depth", "type": {"kind": "integer"}, "required": False, "example": 4},
                        ],
                    },
                    "required": False,
                    "default": {"width": n[11], "depth": 4, "steps": [n[12], n[13]]},
                },
                {
                    "name": "series",
                    "type": {"kind": "array", "item": {"kind": "number", "constraints": {"maximum": n[12]}}},
                    "required": True,
                    "example": [n[0], n[13]],
                },
            ],
        },
        {"name": "other_tool", "description": "Another.", "params": [
            {"name": "ratio", "type": {"kind": "number"}, "required": False, "default": n[1]},
        ]},  # fmt: skip
    ]


EXACT = _tools(Decimal)
FLOATS = _tools(float)


@pytest.mark.parametrize(
    "options",
    [RenderOptions(), RenderOptions(minify=True), RenderOptions(case_convention="camel", descriptions=False)],
    ids=["default", "minify", "camel"],
)
def test_every_format_writes_decimals_as_the_reference_writes_their_floats(options: RenderOptions) -> None:
    differ = [
        format_id
        for format_id in FORMATS
        if render_block(EXACT, format_id, options) != render_block(FLOATS, format_id, options)
    ]
    assert differ == []


def test_the_tools_hold_decimals_and_hidden_constraints_keep_every_digit() -> None:
    tools = tools_of(EXACT)
    ratio = tools[0].params[0]
    assert ratio.type.constraints == {"minimum": Decimal("0.1"), "maximum": Decimal("1E+21")}
    assert isinstance(ratio.type.constraints["minimum"], Decimal)
    hidden = render(EXACT, "xml_schema").hidden_constraints
    scale = next(h for h in hidden if h["path"] == "scale")
    assert scale["constraints"] == {"minimum": Decimal("-0.0"), "maximum": Decimal("3.0")}
    assert [str(v) for v in scale["constraints"].values()] == ["-0.0", "3.0"]


def test_float_repr_is_the_repr_of_the_nearest_double() -> None:
    rng = random.Random(34)
    texts = ["0.1", "5.0", "1e21", "1e-7", "1e16", "1e15", "123.0", "1e400", "-1e400", "1e-400", "4.9e-324",
             "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
             "1.7976931348623158e308", "1.7976931348623159e308", "9.999999999999999999999", "1e23", "-0.0"]  # fmt: skip
    for _ in range(3000):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 30)))
        texts.append(f"{rng.choice(['', '-'])}{digits}e{rng.randint(-330, 315)}")
        texts.append(repr(rng.uniform(-1e6, 1e6)))
    for text in texts:
        assert float_repr(Decimal(text)) == repr(float(Decimal(text))), text


def test_an_integral_decimal_without_a_point_is_an_integer() -> None:
    assert [number_text(Decimal("3")), number_text(Decimal("3.0")), number_text(7)] == ["3", "3.0", "7"]
