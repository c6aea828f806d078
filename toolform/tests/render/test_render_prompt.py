"""The rendered prompt's own rules: its parts, its refusals, the hidden fields and their warning."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from toolform.conversion import load_tools
from toolform.errors import BadRequest, UnknownFormat, UnknownProtocol
from toolform.render import RenderOptions, compare, convert_case, hidden_fields, render, tokens_estimate
from toolform.render.prompt import NULL_CLAUSE, PERSONA_TEXT, TRUST_LINE
from toolform.render.toolsets import tools_of

NESTED = {
    "tools": [
        {
            "name": "ship",
            "description": "Ship an order.",
            "params": [
                {
                    "name": "order",
                    "type": {
                        "kind": "object",
                        "fields": [{"name": "order_id", "type": {"kind": "string"}, "required": True}],
                    },
                    "required": True,
                },
                {"name": "note", "type": {"kind": "string"}, "required": False, "description": "A note."},
            ],
        }
    ]
}


def test_the_system_prompt_joins_persona_trust_tools_instructions_and_null_clause() -> None:
    prompt = render(NESTED, "json_minimal", persona="expert", trust_line=True)
    assert prompt.system_prompt == "\n\n".join(
        [PERSONA_TEXT["expert"], TRUST_LINE, f"Available tools:\n{prompt.tool_block}", prompt.instructions, NULL_CLAUSE]
    )


def test_bare_without_null_clause_is_the_tools_and_the_instructions() -> None:
    prompt = render(NESTED, "json_minimal", persona="bare", null_clause=False)
    assert prompt.system_prompt == f"Available tools:\n{prompt.tool_block}\n\n{prompt.instructions}"


def test_messages_only_with_a_request_even_an_empty_one() -> None:
    assert render(NESTED, "xml_schema").messages is None
    messages = render(NESTED, "xml_schema", request="").messages
    assert messages is not None and messages[1] == {"role": "user", "content": ""}
    assert messages[0]["content"] == render(NESTED, "xml_schema").system_prompt


def test_the_default_protocol_is_the_formats_and_another_can_be_asked_for() -> None:
    assert render(NESTED, "xml_schema").protocol_id == "xml_call"
    react = render(NESTED, "xml_schema", "react")
    assert react.protocol_id == "react" and react.instructions.startswith("Answer in this format:")
    assert "in_crossing" not in react.protocol and "measured" not in react.format


def test_native_protocol_has_no_instructions_in_the_prompt() -> None:
    prompt = render(NESTED, "json_schema_openai", "native")
    assert prompt.instructions == ""
    assert prompt.system_prompt.endswith(f"{prompt.tool_block}\n\n{NULL_CLAUSE}")


@pytest.mark.parametrize(
    ("call", "error", "detail"),
    [
        (lambda: render(NESTED, "names_then_schema"), BadRequest, "two-stage format"),
        (lambda: render(NESTED, "xml_schem"), UnknownFormat, "close matches: xml_schema"),
        (lambda: render(NESTED, "xml_schema", "nope"), UnknownProtocol, "unknown protocol 'nope'"),
        (lambda: render(NESTED, "xml_schema", persona="robot"), BadRequest, "agent, terse, bare, expert"),
    ],
)
def test_refusals_name_what_is_wrong(call: Any, error: type[Exception], detail: str) -> None:
    with pytest.raises(error, match=detail):
        call()


def test_chars_and_tokens_measure_the_tool_block() -> None:
    prompt = render(NESTED, "typescript")
    body = prompt.to_dict()
    assert body["chars"] == len(prompt.tool_block)
    assert body["tokens_estimate"] == tokens_estimate(prompt.tool_block) == round(len(prompt.tool_block) / 4)


def test_tokens_round_half_to_even_and_are_at_least_one() -> None:
    assert [tokens_estimate("x" * n) for n in (0, 2, 6, 10, 14)] == [1, 1, 2, 2, 4]


def test_an_empty_block_leaves_the_tools_part_out() -> None:
    prompt = render({"tools": [{"name": "t", "params": []}]}, "json_dotted_paths", persona="bare")
    assert prompt.tool_block == "" and prompt.tokens_estimate == 1
    assert prompt.system_prompt == f"{prompt.instructions}\n\n{NULL_CLAUSE}"


def test_a_nested_required_field_a_format_does_not_show_is_hidden_and_warned() -> None:
    prompt = render(NESTED, "python_signature_only")
    assert prompt.hidden_fields == [{"tool": "ship", "path": "order.order_id", "required": True}]
    assert prompt.warnings == [
        "python_signature_only does not show 1 required field of nested parameters (ship.order.order_id); "
        "the model cannot see what validation then demands. "
        "Choose a format that shows nested fields, such as json_schema_openai or typescript"
    ]


def test_a_name_is_shown_whatever_case_or_separators_the_block_uses() -> None:
    tools = tools_of(NESTED)
    assert hidden_fields(tools, "ship(Order: {OrderId}, --note)") == []
    assert [h.path for h in hidden_fields(tools, "ship_order_id ship")] == ["order", "order.order_id", "note"]
    # A word is a run of word characters and hyphens, or one inside it: order_id is not in x-order-id.
    assert [h.path for h in hidden_fields(tools, "ship order x-order-id note")] == ["order.order_id"]


def test_case_conventions() -> None:
    assert [convert_case("legal_draft_v3", c) for c in ("camel", "pascal", "kebab", "screaming", "snake")] == [
        "legalDraftV3",
        "LegalDraftV3",
        "legal-draft-v3",
        "LEGAL_DRAFT_V3",
        "legal_draft_v3",
    ]
    # As the reference splits names (measured on it): an acronym before a word, a capital before digits,
    # a chunk with no ASCII word kept whole, the first letter titled as str.capitalize does.
    assert convert_case("getHTTPStatus", "snake") == "get_http_status"
    assert convert_case("x1Y2", "kebab") == "x1-y-2"
    assert convert_case("\u6771\u4eac city", "pascal") == "\u6771\u4eacCity"
    assert convert_case("stra\u00dfe_\u00df", "pascal") == "StraESs"


def test_a_toolset_object_renders_as_its_ir() -> None:
    openai = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]
    toolset = load_tools("openai", openai).toolset
    dicts = toolset.to_dicts()
    block = render(toolset, "xml_schema").tool_block
    assert block == render({"tools": dicts}, "xml_schema").tool_block == render(dicts, "xml_schema").tool_block


def test_options_reach_the_block() -> None:
    plain = render(NESTED, "json_schema_openai").tool_block
    minified = render(NESTED, "json_schema_openai", options=RenderOptions(minify=True)).tool_block
    assert "\n" in plain and "\n" not in minified
    assert "A note." not in render(NESTED, "xml_schema", options=RenderOptions(descriptions=False)).tool_block


def test_compare_sorts_by_tokens_then_id_and_covers_the_study() -> None:
    rows = compare(NESTED).rows
    assert len(rows) == 129
    keys = [(row["tokens_estimate"], row["format_id"]) for row in rows]
    assert keys == sorted(keys)
    core = {row["format_id"]: row for row in rows if row["paper_accuracy"] is not None}
    assert len(core) == 8 and all(row["study_source"] == "export:format_leaderboard" for row in core.values())


def test_compare_keeps_repeats_and_gives_formats_outside_the_study_no_accuracy() -> None:
    rows = compare(NESTED, ["names_then_schema", "json_minimal", "json_minimal"]).rows
    assert [row["format_id"] for row in rows] == ["names_then_schema", "json_minimal", "json_minimal"]
    assert rows[0]["study_accuracy"] is None and rows[0]["study_source"] is None


def test_decimals_from_json_text_render_as_the_numbers_they_are() -> None:
    exact = {
        "tools": [
            {
                "name": "f",
                "params": [
                    {
                        "name": "x",
                        "type": {"kind": "number", "constraints": {"minimum": Decimal("0.5")}},
                        "required": False,
                        "default": Decimal("1.25"),
                    },
                    {"name": "n", "type": {"kind": "integer"}, "required": False, "default": Decimal("3")},
                ],
            }
        ]
    }
    floats = {
        "tools": [
            {
                "name": "f",
                "params": [
                    {
                        "name": "x",
                        "type": {"kind": "number", "constraints": {"minimum": 0.5}},
                        "required": False,
                        "default": 1.25,
                    },
                    {"name": "n", "type": {"kind": "integer"}, "required": False, "default": 3},
                ],
            }
        ]
    }
    for format_id in ("json_schema_openai", "python_stub", "toml", "cue"):
        assert render(exact, format_id).tool_block == render(floats, format_id).tool_block
