"""Python functions read from their hints and docstrings (the SDK and CLI only: loading runs the module)."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Literal, TypedDict

import pytest
from toolform.errors import LoaderError

from support.paths import DATA
from toolform import loaders


def test_a_module_file_reads_as_the_reference_reads_it(tmp_path: Path) -> None:
    # The reference's `toolform convert python_tools.py --to ir`. The module is kept as .txt so that
    # the linters leave its untyped function alone.
    module = tmp_path / "python_tools.py"
    module.write_text((DATA / "python_tools.py.txt").read_text(encoding="utf-8"), encoding="utf-8")
    expected = json.loads((DATA / "python_tools.reference-ir.json").read_text(encoding="utf-8"))
    result = loaders.load("python", str(module))
    assert result.toolset.to_dict() == expected
    assert result.warnings == ["tool 'untyped' at $.a, $.b: no type hint; read as any value"]


class Mode(Enum):
    FAST = 1
    SLOW = 2


class Point(TypedDict):
    x: float
    y: float


def move(to: Point, mode: Mode = Mode.FAST, how: Literal["walk", "run"] | None = None, *rest: int) -> None:
    """Move somewhere.

    Args:
        to: Where to.
        mode: How fast.
    """


def test_functions_typeddicts_and_enums() -> None:
    result = loaders.load("python", [move])
    tool = result.toolset.to_dicts()[0]
    assert tool["description"] == "Move somewhere."
    assert tool["params"] == [
        {
            "name": "to",
            "type": {
                "kind": "object",
                "fields": [
                    {"name": "x", "type": {"kind": "number"}, "required": True},
                    {"name": "y", "type": {"kind": "number"}, "required": True},
                ],
            },
            "required": True,
            "description": "Where to.",
        },
        {
            "name": "mode",
            "type": {"kind": "enum", "enum_values": [1, 2], "base": "integer"},
            "required": False,
            "description": "How fast.",
            "default": 1,
        },
        {"name": "how", "type": {"kind": "enum", "enum_values": ["walk", "run"], "base": "string"}, "required": False},
    ]
    assert result.warnings == ["tool 'move' at $.rest: *args and **kwargs cannot be shown to a model; skipped"]


def test_a_file_that_does_not_import_is_a_loader_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    with pytest.raises(LoaderError) as caught:
        loaders.load("python", str(broken))
    assert caught.value.line == 1
