"""A handler fails by raising its Tool's declared error value: the classes of
an error type are raisable exceptions (generated, or made by ``codec_for``),
the runtime answers Failed with exactly the raised value, and Unknown, with
the traceback on stderr, for anything else, a value of another Tool's error
type included. Served through errors_tool.py over raw protocol lines."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import pickle
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

import pytest
from errors_tool import BUSY, CLASSES, GONE, LISTING, R

import flow_toolkit

HERE = Path(__file__).resolve().parent


def serve_calls(calls: list[tuple[str, str]]) -> tuple[dict[str, Any], str]:
    """Sends each ``(tool, kind)`` as a call (its id: ``tool/kind``), ends
    stdin, and returns the outcomes by call id and the process's stderr."""
    lines = "".join(
        json.dumps({"jsonrpc": "2.0", "method": "call", "params": {
            "run": "r", "call": f"{tool}/{kind}", "tool": f"t/errs.flow.{tool}", "args": {"kind": kind}}}) + "\n"
        for tool, kind in calls
    )
    run = subprocess.run([sys.executable, str(HERE / "errors_tool.py")], input=lines, capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    outcomes = {}
    for line in run.stdout.splitlines():
        params = json.loads(line)["params"]
        outcomes[params["call"]] = params["outcome"]
    assert len(outcomes) == len(calls), run.stdout
    return outcomes, run.stderr


def unknown(reason: str) -> dict[str, str]:
    return {"Unknown": f"the handler failed: {reason}"}


def test_raised_error_values_are_failed_or_unknown_by_the_tools_declared_error_type() -> None:
    outcomes, log = serve_calls([
        ("enum_err", "busy"), ("enum_err", "gone"), ("enum_err", "bad"), ("record_err", "r"),
        ("option_err", "busy"), ("option_err", "gone"),
        ("enum_err", "failed-busy"), ("text_err", "failed-text"),
        ("enum_err", "r"), ("record_err", "busy"), ("never_err", "busy"), ("text_err", "busy"),
        ("option_err", "r"), ("enum_err", "plain"),
    ])
    assert outcomes == {
        # The declared error, raised: Failed with exactly that value.
        "enum_err/busy": {"Failed": "Busy"},
        "enum_err/gone": {"Failed": {"Gone": "away"}},
        "enum_err/bad": {"Failed": {"Bad": {"code": 7}}},
        "record_err/r": {"Failed": {"code": 1}},
        "option_err/busy": {"Failed": {"Some": "Busy"}},  # a value of Option<E> too (async handler)
        "option_err/gone": {"Failed": {"Some": {"Gone": "away"}}},
        # Failed(error) still works, and is the way for an error type without a class.
        "enum_err/failed-busy": {"Failed": "Busy"},
        "text_err/failed-text": {"Failed": "why"},
        # A value of another Tool's error type is not this Tool's error.
        "enum_err/r": unknown("it raised R: code=1, note=None"),
        "record_err/busy": unknown("it raised E_Busy"),
        "never_err/busy": unknown("it raised E_Busy"),
        "text_err/busy": unknown("it raised E_Busy"),
        "option_err/r": unknown("it raised R: code=1, note=None"),
        "enum_err/plain": unknown("it raised RuntimeError: the model is down"),
    }
    # Failed is no fault: nothing is logged for it. Each Unknown is, with its traceback.
    for call in ("enum_err/busy", "record_err/r", "option_err/busy", "text_err/failed-text"):
        assert repr(call) not in log
    for call in ("enum_err/r", "record_err/busy", "never_err/busy", "enum_err/plain"):
        assert f"call {call!r} of run 'r': the handler raised:\nTraceback (most recent call last)" in log
    assert "\nRuntimeError: the model is down\n" in log
    assert ".R: code=1, note=None\n" in log


def test_a_raised_error_value_that_does_not_encode_is_unknown_with_the_reason_logged() -> None:
    outcomes, log = serve_calls([("record_err", "r-not-encodable")])
    reason = outcomes["record_err/r-not-encodable"]["Unknown"]
    assert reason.startswith("the handler failed: its error is not of the declared type: $.code: expected an int")
    assert reason.endswith("[encode]"), reason
    assert f"{reason.removeprefix('the handler failed: ')}; the handler raised:\nTraceback" in log


@flow_toolkit.raisable
@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Code(Exception):
    """What flow-gen writes for a record used as an error (module level, so it pickles)."""

    code: int
    note: str | None = None


def test_a_raisable_class_keeps_its_fields_read_only_and_its_exception_machinery_working() -> None:
    error = Code(code=1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'code'"):
        error.code = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'note'"):
        del error.note

    @contextlib.contextmanager
    def passing() -> Any:
        yield

    # contextmanager assigns __traceback__ to what passes through it; a
    # frozen dataclass would refuse that and raise FrozenInstanceError instead.
    with pytest.raises(Code) as caught, passing():
        raise error
    assert caught.value is error and error.__traceback__ is not None
    error.add_note("a note")
    assert error.__notes__ == ["a note"]
    assert error == Code(code=1) and hash(error) == hash(Code(code=1)) and error != Code(code=2)
    assert {Code(code=1), Code(code=1, note=None)} == {error}
    assert repr(error) == "Code(code=1, note=None)" and str(error) == "code=1, note=None"
    assert traceback.format_exception_only(error) == ["test_raised_errors.Code: code=1, note=None\n", "a note\n"]
    assert pickle.loads(pickle.dumps(error)) == error
    assert dataclasses.replace(error, note="n") == Code(code=1, note="n")


def test_raisable_takes_only_a_frozen_dataclass_exception() -> None:
    @dataclasses.dataclass(slots=True)
    class Mutable(Exception):
        code: int

    with pytest.raises(TypeError, match="not a frozen dataclass"):
        flow_toolkit.raisable(Mutable)
    with pytest.raises(TypeError, match="not an exception class"):
        flow_toolkit.raisable(int)  # type: ignore[type-var]


def test_error_values_built_in_rust_are_fresh_exceptions_that_raise() -> None:
    codec = flow_toolkit.Codec(LISTING, CLASSES)  # errors_tool's, as codec_for makes them
    enum = codec.type_of('{"Named": {"declaration": "1", "args": []}}')
    busy = enum.decode('"Busy"')
    # Not shared like a plain payload-less value: raising writes into it.
    assert type(busy) is BUSY and busy is not enum.decode('"Busy"') and busy == BUSY()
    assert busy.args == () and str(busy) == ""
    gone = enum.decode('{"Gone": "away"}')
    assert gone == GONE("away") and str(gone) == "value='away'"
    record = codec.type_of('{"Named": {"declaration": "2", "args": []}}').decode('{"code": 1}')
    assert record == R(code=1, note=None) and record.args == ()
    with pytest.raises(R) as caught:
        raise record
    assert caught.value.__traceback__ is not None
    assert codec.encode('{"Named": {"declaration": "2", "args": []}}', record) == '{"code":1}'


def test_only_a_tools_error_types_are_made_exceptions() -> None:
    # Sky's classes in the weather example stay plain: values, not errors.
    codec = flow_toolkit.codec_for((HERE.parents[1] / "tests" / "examples" / "weather.tools.json").read_text())
    sky = codec.type_of('{"Named": {"declaration": "3", "args": []}}')
    weather_error = codec.type_of('{"Named": {"declaration": "4", "args": []}}')
    assert not isinstance(sky.decode('"Clear"'), BaseException)
    assert sky.decode('"Clear"') is sky.decode('"Clear"')
    assert isinstance(weather_error.decode('"RateLimited"'), Exception)


def test_codec_for_names_an_error_class_field_args_as_flow_gen_does() -> None:
    listing = json.loads(LISTING)
    for template in listing["declarations"].values():
        if template["kind"] == "record":
            template["fields"].append({"name": "args", "type": "Text", "doc": None})
    classes = flow_toolkit._dynamic.classes_for(json.dumps(listing))
    error = classes["t/errs.flow.R"](code=1, note=None, args_="a")
    assert error.args == () and error.args_ == "a"
    codec = flow_toolkit.Codec(json.dumps(listing), classes)
    assert codec.encode('{"Named": {"declaration": "2", "args": []}}', error) == '{"args":"a","code":1}'
