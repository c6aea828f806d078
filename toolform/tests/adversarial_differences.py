"""What the adversarial differential still finds, by name, with what the reference does and a witness seed.

These are not differences we mean: they are the reference's handling of hostile
text that our renderers do not imitate yet, each confined to the formats it was
seen in. ``adjust_render`` sets aside the members the tool block decides, for a
covered format, when the two blocks differ; a difference whose witness set no
longer needs it fails its test, so the list can only shrink.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Answer = dict[str, Any]

#: The members a tool block's text decides (hidden fields and their warning are read from the block).
_FROM_THE_BLOCK = ("tool_block", "system_prompt", "messages", "chars", "tokens_estimate", "hidden_fields", "warnings")


@dataclass(frozen=True)
class OpenRenderDifference:
    name: str
    why: str
    formats: frozenset[str]
    #: A set (adversarial.tool_set seed) whose render in one of ``formats`` still differs.
    witness: int


RENDER: list[OpenRenderDifference] = [
    OpenRenderDifference(
        "prose-white-space",
        "A description, default or enum value with white space at its ends or inside (a leading or trailing "
        "space, a tab, a line break in the middle): the reference trims or folds it in these layouts by rules "
        "per field not yet matched (python_stub's and cli_help's help columns, the CSV and TSV cells, comment "
        "lines, a value that is a lone no-break space in YAML); text without such white space renders byte "
        "for byte.",
        frozenset(
            {"python_stub", "cli_help", "nl_manpage", "csv", "tsv", "diff_schema", "sql_udf", "ini",
             "markdown_docs", "rest_endpoints", "question_slots", "python_dataclass", "contrastive",
             "typescript_dts", "starlark", "few_shot_only", "yaml_documented", "openapi_yaml",
             "yaml_schema"}
        ),  # fmt: skip
        41,
    ),
    OpenRenderDifference(
        "purpose-sentences",
        "The prose formats that quote a tool's purpose (its first sentence, lowered) or another tool's: the "
        "reference cuts the sentence and lowers it differently when the description holds hostile text "
        "(\"0x1F\", markup, a full stop inside a token).",
        frozenset(
            {"negative_space", "decision_tree", "two_stage_index", "state_graph", "progressive", "nl_reference_card",
             "capability_matrix"}
        ),  # fmt: skip
        98,
    ),
]


def adjust_render(format_id: str, ours: Answer, reference: Answer) -> list[str]:
    """Set aside the block's members where an open difference covers ``format_id`` and the blocks differ."""
    if ours.get("tool_block") == reference.get("tool_block"):
        return []
    for difference in RENDER:
        if format_id in difference.formats:
            for member in _FROM_THE_BLOCK:
                ours.pop(member, None)
                reference.pop(member, None)
            return [difference.name]
    return []
