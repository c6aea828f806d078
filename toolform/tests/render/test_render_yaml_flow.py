"""yaml_text.flow writes what PyYAML's safe dumper writes in flow style, character for character.

The flow writer joins plain data itself and leaves the rest to PyYAML; both
are held here to PyYAML's own answer, on seeded random documents full of what
YAML quotes or escapes, and on the renderer's own input (yaml_flow of the
generated tool sets).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]
from toolform.conversion import load_tools
from toolform.render import RenderOptions
from toolform.render.families.yaml_family import _schema_entry
from toolform.render.options import apply_options
from toolform.render.yaml_text import _flow_written, flow

from support import toolsets, yaml_values


def _pyyaml(value: Any) -> str:
    text: str = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=10**9, default_flow_style=True)
    return text.rstrip("\n")


@pytest.mark.parametrize("seed", range(400))
def test_same_as_pyyaml(seed: int) -> None:
    value = yaml_values.value(random.Random(seed))
    assert flow(value) == _pyyaml(value)


def test_the_direct_writer_answers_most_documents() -> None:
    # Documents of only printable text: the direct writer answers them itself, not by handing them on.
    rng = random.Random(1)
    plain = [p for p in yaml_values.PIECES if p.isprintable() and p not in ("\xa0", "\ufeff", "\ue000")]
    for _ in range(200):
        value = {"".join(rng.choice(plain) for _ in range(3)) + "k": ["".join(rng.choice(plain) for _ in range(3))]}
        assert _flow_written(value) == _pyyaml(value)


def test_what_pyyaml_writes_its_own_way_is_left_to_it() -> None:
    shared: dict[str, Any] = {"a": 1}
    odd = ({"": 1}, {"k" * 130: 1}, {1: "a"}, [1e-7], [float("nan")], ["tab\there"], [(1, 2)], "a")
    for value in odd:
        assert _flow_written(value) is None
        assert flow(value) == _pyyaml(value)
    # A container met twice is written twice, never anchored: the reference's documents share no object.
    assert _flow_written([shared, shared]) is None
    assert flow([shared, shared]) == _pyyaml([{"a": 1}, {"a": 1}]) == "[{a: 1}, {a: 1}]"
    with pytest.raises(yaml.representer.RepresenterError):
        flow([object()])


@pytest.mark.parametrize("seed", range(1, 9))
def test_yaml_flow_of_generated_tool_sets(seed: int) -> None:
    payload = toolsets.openai_list(toolsets.tool_set(seed, 60))
    shown = apply_options(load_tools("openai", payload).toolset.tools, RenderOptions())
    entries = [_schema_entry(t) for t in shown]
    assert _flow_written(entries) == _pyyaml(entries)
