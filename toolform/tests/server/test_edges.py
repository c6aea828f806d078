"""The server's edge rules as functions: Host names, Content-Length, settings from the environment, limits."""

from __future__ import annotations

import math
import random

import pytest
from starlette.exceptions import HTTPException
from toolform.conversion import check_tools_input, declared_tool_count
from toolform.errors import BadRequest, PayloadTooLarge
from toolform.limits import Limits
from toolform.server.body_limit import declared_length
from toolform.server.exact_json import parse_body
from toolform.server.host_check import host_name
from toolform.server.settings import Settings, with_environment


@pytest.mark.parametrize(
    ("header", "name"),
    [("localhost", "localhost"), ("LocalHost:8765", "localhost"), ("[::1]:8765", "::1"), ("[::1]", "::1"),
     ("::1", "::1"), ("127.0.0.1:1", "127.0.0.1"), ("", ""), (" evil.example ", "evil.example")],
)
def test_host_name_drops_the_port_and_the_case(header: str, name: str) -> None:
    assert host_name(header) == name


def test_the_bound_address_is_answered_too() -> None:
    assert "10.0.0.5" in Settings(host="10.0.0.5").answered_hosts()
    assert "10.0.0.5" not in Settings().answered_hosts()


@pytest.mark.parametrize(("value", "length"), [(b"0", 0), (b" 12 ", 12), (b"8000000", 8_000_000)])
def test_a_content_length_is_a_number(value: bytes, length: int) -> None:
    assert declared_length([(b"content-length", value)]) == length


@pytest.mark.parametrize("value", [b"abc", b"-1", b"1.5", b"0x10", b"", b"1 2"])
def test_a_content_length_that_is_not_a_number_is_bad_request(value: bytes) -> None:
    with pytest.raises(BadRequest, match="is not a number of bytes"):
        declared_length([(b"content-length", value)])


def test_disagreeing_content_lengths_are_bad_request() -> None:
    assert declared_length([(b"content-length", b"3"), (b"Content-Length", b"3")]) == 3
    with pytest.raises(BadRequest, match="disagree"):
        declared_length([(b"content-length", b"3"), (b"content-length", b"4")])
    assert declared_length([(b"host", b"x")]) is None


def test_the_environment_adds_hosts_before_the_flags_and_turns_debug_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLFORM_ALLOWED_HOSTS", " a.example ,, b.example")
    monkeypatch.setenv("TOOLFORM_DEBUG", "1")
    settings = with_environment(Settings(allowed_hosts=("c.example", "a.example")))
    assert settings.allowed_hosts == ("a.example", "b.example", "c.example")
    assert settings.debug is True
    monkeypatch.setenv("TOOLFORM_DEBUG", "0")
    assert with_environment(Settings()).debug is False


def test_settings_read_back_what_they_print() -> None:
    settings = Settings(port=9, allowed_hosts=("x",), cors_origins=("http://y",), limits=Limits(max_tools=3))
    assert Settings.from_dict(settings.to_dict()) == settings
    assert "max_tools" in settings.to_dict() and "limits" not in settings.to_dict()


@pytest.mark.parametrize(
    ("payload", "count"),
    [([1, 2], 2), ({"tools": [1]}, 1), ({"result": {"tools": [1, 2, 3]}}, 3), ({"name": "a"}, None), ("t", None)],
)
def test_the_tool_count_is_read_from_the_payload_shape(payload: object, count: int | None) -> None:
    assert declared_tool_count(payload) == count


def test_the_limits_are_the_settings_not_constants() -> None:
    small = Limits(max_tools=1, max_text_chars=3)
    with pytest.raises(PayloadTooLarge, match="2 tools; the limit is 1"):
        check_tools_input("openai", [{}, {}], small)
    with pytest.raises(PayloadTooLarge, match="4 characters; the limit is 3"):
        check_tools_input("typescript", "abcd", small)
    check_tools_input("python", "t.py", Limits(), over_http=False)
    with pytest.raises(BadRequest, match="executes code"):
        check_tools_input("python", "t.py", Limits())


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"a": [1, {"b": 1e400}]}', "$.a[1].b is a number too large for a float (inf)"),
        (b'{"a": -1e999}', "$.a is a number too large for a float (-inf)"),
        (b'{"x": NaN}', "$.x is the literal NaN, which is not JSON (nan)"),
        (b'[Infinity]', "$[0] is the literal Infinity, which is not JSON (inf)"),
        (b'{"a": 1E+0400}', "$.a is a number too large for a float (inf)"),
        (b'{"a": [' + b"9" * 309 + b'.5]}', "$.a[0] is a number too large for a float (inf)"),
        (b'{"a": ' + b"9" * 250 + b'.0e60}', "$.a is a number too large for a float (inf)"),
    ],
)
def test_a_number_no_float_holds_is_refused_by_path(body: bytes, message: str) -> None:
    with pytest.raises(HTTPException) as refused:
        parse_body(body)
    assert refused.value.status_code == 400
    assert str(refused.value.detail).startswith(message)


def test_a_number_is_refused_exactly_when_no_float_holds_it() -> None:
    # Seeded numbers around the float's limit, in every written form: refused if and only if float() overflows.
    rng = random.Random(7)
    for _ in range(400):
        digits = rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 320)))
        text = rng.choice([f"{digits}.5", f"-{digits}e{rng.randint(-20, 400)}", f"0.{digits}E+{rng.randint(0, 400)}"])
        body = f'{{"n": [1, {text}]}}'.encode()
        if math.isinf(float(text)):
            with pytest.raises(HTTPException, match=r"\$\.n\[1\] is a number too large for a float"):
                parse_body(body)
        else:
            assert parse_body(body)["n"][1] == float(text)


def test_finite_numbers_pass_unchanged() -> None:
    assert parse_body(b'{"a": [1, 2.5, -0.0, 1e300, 12345678901234567890]}') == {
        "a": [1, 2.5, -0.0, 1e300, 12345678901234567890]
    }
