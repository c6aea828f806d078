"""The parse SDK on its own: each protocol's own syntax, the repairs, exact numbers, refusals, and a
property test that parsing never raises whatever the text."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolform.errors import BadRequest, UnknownProtocol
from toolform.loaders import load
from toolform.parse import PROTOCOL_IDS, ParsedReply, parse_reply

from support.parse_corpus import GOOD, PROTOCOLS, TOOLS, write

TOOLSET = load("openai", TOOLS).toolset


def parse(text: str, protocol: str, **options: Any) -> ParsedReply:
    return parse_reply(TOOLSET, text, protocol, **options)


def test_the_parser_reads_the_registry_s_31_protocols() -> None:
    assert sorted(PROTOCOL_IDS) == sorted(PROTOCOLS)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_each_protocol_reads_its_own_syntax(protocol: str) -> None:
    reply = parse(write(protocol, [GOOD]), protocol)
    assert reply.ok and reply.parsed_strict and reply.format_compliant
    assert [(c.resolved_name, c.arguments) for c in reply.calls] == [("get_forecast", {"city": "Denver", "days": 3})]


# nl_intent names one tool in words; its rules read the first one named.
@pytest.mark.parametrize("protocol", [p for p in PROTOCOLS if p != "nl_intent"])
def test_each_protocol_reads_several_calls(protocol: str) -> None:
    second = ("send_email", {"to": "a@b.c", "subject": "Hi"})
    reply = parse(write(protocol, [GOOD, second]), protocol)
    assert [c.resolved_name for c in reply.calls] == ["get_forecast", "send_email"]
    assert reply.ok


def test_a_fence_and_a_reasoning_block_are_read_through() -> None:
    text = "<think>the user wants Denver</think>\n```json\n" + write("json_object", [GOOD]) + "\n```"
    reply = parse(text, "json_object")
    assert reply.ok and reply.reasoning_removed and reply.calls[0].repairs == []


def test_an_unclosed_reasoning_block_hides_everything_after_it() -> None:
    reply = parse("<think>maybe " + write("json_object", [GOOD]), "json_object")
    assert not reply.ok and reply.reasoning_removed and reply.calls == []


def test_the_wrong_syntax_is_named_and_taken_only_with_the_lenient_fallback() -> None:
    text = write("xml_call", [GOOD])
    strict = parse(text, "json_object")
    assert (strict.ok, strict.parsed_lenient, strict.matched_syntax, strict.format_compliant) == (
        False,
        True,
        "xml_call",
        False,
    )
    lenient = parse(text, "json_object", lenient_fallback=True)
    assert lenient.ok and lenient.calls[0].repairs == ["lenient:xml_call"]


def test_as_written_allows_no_repair() -> None:
    with pytest.raises(BadRequest, match="as_written"):
        parse("x", "json_object", rule="as_written", lenient_fallback=True)


def test_an_unknown_protocol_names_close_matches() -> None:
    with pytest.raises(UnknownProtocol, match="xml_call"):
        parse("x", "xml_cal")


def test_an_invented_tool_is_rejected_and_named() -> None:
    reply = parse('{"name": "get_weather", "arguments": {}}', "json_object")
    assert not reply.ok and reply.hallucinated == ["get_weather"]
    assert reply.rejected[0].reason == "unknown tool" and not reply.rejected[0].accepted


def test_every_validation_list_is_filled() -> None:
    text = '{"name": "get_forecast", "arguments": {"days": 30, "units": "kelvin", "detailed": "yes", "x": 1}}'
    v = parse(text, "json_object").calls[0].validation
    assert v.missing_required == ["city"]
    assert v.unknown_args == ["x"]
    assert v.type_errors == ["detailed: expected boolean, got str"]
    assert v.enum_errors == ["units: 'kelvin' not in ['metric', 'imperial']"]
    assert v.constraint_errors == ["days: 30 > maximum 7"]
    assert v.n_errors == 5


def test_text_values_are_converted_by_the_schema() -> None:
    text = (
        "<call><tool>send_email</tool><args><to>a@b.c</to><subject>Hi</subject><priority>2.50</priority></args></call>"
    )
    call = parse(text, "xml_generic_call").calls[0]
    assert call.arguments == {"to": "a@b.c", "subject": "Hi", "priority": Decimal("2.50")}
    assert call.valid


def test_numbers_keep_their_digits() -> None:
    text = '{"name": "send_email", "arguments": {"to": "a", "subject": "b", "priority": 0.1000000000000000000001}}'
    priority = parse(text, "json_object").calls[0].arguments["priority"]
    assert priority == Decimal("0.1000000000000000000001")
    python = parse('send_email(to="a", subject="b", priority=0.1000000000000000000001)', "python_call")
    assert python.calls[0].arguments["priority"] == Decimal("0.1000000000000000000001")


def test_a_declared_no_call_is_ok_and_says_so() -> None:
    reply = parse("No tool is needed.", "xml_call")
    assert reply.ok and reply.no_call_declared and reply.matched_syntax == "explicit-no-call"
    assert not parse("", "xml_call").ok


_TEXT = st.one_of(
    st.text(max_size=300),
    st.text(
        alphabet=st.sampled_from(list("{}[]()<>\"'=:,|★§#%¿≡¤-\n `\\/?&;t.0123456789abcdefget_forecast")), max_size=300
    ),
    st.builds(lambda p, junk: write(p, [GOOD])[: len(junk)] + junk, st.sampled_from(PROTOCOLS), st.text(max_size=40)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT, protocol=st.sampled_from(PROTOCOLS), lenient=st.booleans(), validate=st.booleans())
def test_parse_never_raises_whatever_the_text(text: str, protocol: str, lenient: bool, validate: bool) -> None:
    reply = parse(text, protocol, lenient_fallback=lenient, validate=validate)
    answer = reply.to_dict()
    assert answer["protocol_id"] == protocol
    assert isinstance(answer["ok"], bool)
