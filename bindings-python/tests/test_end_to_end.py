"""The example weather Tools (examples/python: generated code and a hand-written
implementation) run as a process and called through the Rust host client
(`flow-host call`, binding through flow.toml by fingerprint), and through raw
protocol lines where the CLI cannot reach: undecodable args, cancels and
re-sent calls."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from typing import Any

import pytest

from conftest import EXAMPLE, WEATHER_LISTING, binary

TOOL = "github.com/acme/weather@1.2.0/weather.flow."


def host_call(venv_path: str, tool: str, args: dict[str, Any], *type_args: str) -> tuple[int, Any]:
    command = [str(binary("flow-host")), "call", str(WEATHER_LISTING), tool, "--manifest", str(EXAMPLE),
               "--args", json.dumps(args)]
    for type_arg in type_args:
        command += ["--type-arg", type_arg]
    run = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PATH": venv_path},
                         timeout=120, check=False)
    assert run.stdout, run.stderr
    return run.returncode, json.loads(run.stdout)


FORECAST_ARGS = {"city": "Oslo", "days": 2, "units": {"Some": "Metric"}}
REGION = {"name": "Alps", "children": [{"name": "Bern", "children": []}, {"name": "Chur", "children": []}]}
HISTORY_ARGS = {"station": 3, "since": "2026-01-01T00:00:00Z", "window": "PT60S", "counts": [[3, 2]]}


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("get_forecast", FORECAST_ARGS, None),
        ("list_stations", {"region": REGION, "cursor": {"Some": "1"}}, None),
        ("station_history", HISTORY_ARGS, None),
        ("echo", {"value": 42}, {"Ok": 42}),
    ],
)
def test_ok_for_each_tool(venv_path: str, tool: str, args: dict[str, Any], expected: Any) -> None:
    type_args = ['T="Int"'] if tool == "echo" else []
    code, outcome = host_call(venv_path, tool, args, *type_args)
    assert code == 0 and "Ok" in outcome, outcome
    if expected is not None:
        assert outcome == expected
    if tool == "get_forecast":
        assert [d["sky"] for d in outcome["Ok"]["days"]] == ["Clear", {"Cloudy": 40}]
        assert outcome["Ok"]["tags"] == ["alps", "snow"]
    if tool == "list_stations":
        assert [s["raw"]["name"] for s in outcome["Ok"]["items"]] == ["Bern", "Chur"]
        assert "next" not in outcome["Ok"]


@pytest.mark.parametrize(
    ("tool", "args", "failed"),
    [
        (
            "get_forecast",
            {**FORECAST_ARGS, "city": "Atlantis"},
            {"UnknownCity": {"query": "Atlantis", "suggestions": ["Athens", "Atlanta"]}},
        ),
        ("list_stations", {"region": {"name": "closed", "children": []}, "cursor": "None"}, "RateLimited"),
        ("station_history", {**HISTORY_ARGS, "station": -1}, {"Unavailable": "PT5S"}),
    ],
)
def test_failed_for_each_tool_with_an_error_type(venv_path: str, tool: str, args: dict[str, Any], failed: Any) -> None:
    # get_forecast and list_stations raise the error value itself,
    # station_history raises Failed(error). echo's error type is Never: it
    # has no Failed.
    code, outcome = host_call(venv_path, tool, args)
    assert (code, outcome) == (1, {"Failed": failed})


def test_raising_the_declared_error_is_failed_with_exactly_that_value(venv_path: str) -> None:
    code, outcome = host_call(venv_path, "get_forecast", {**FORECAST_ARGS, "days": 0})
    assert (code, outcome) == (1, {"Failed": "RateLimited"})


def test_an_exception_is_unknown(venv_path: str) -> None:
    code, outcome = host_call(venv_path, "get_forecast", {**FORECAST_ARGS, "city": "boom"})
    assert code == 3
    assert outcome == {"Unknown": "the handler failed: it raised RuntimeError: the forecast model is down"}


def test_generic_echo_with_a_record_binding(venv_path: str) -> None:
    day = {"date": "2026-12-01", "high_c": 4.50, "low_c": -1, "sky": {"Storm": {"wind_kph": 80}}, "extra": 1}
    code, outcome = host_call(venv_path, "echo", {"value": day}, 'T={"Named":{"declaration":"2","args":[]}}')
    assert code == 0
    assert outcome == {"Ok": {"date": "2026-12-01", "high_c": 4.5, "low_c": -1, "sky": {"Storm": {"wind_kph": 80}}}}


class ToolProcess:
    """The example served over raw protocol lines."""

    def __init__(self, venv_path: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "weather_tools"], cwd=EXAMPLE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env={**os.environ, "PATH": venv_path},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, method: str, params: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}) + "\n")
        self.process.stdin.flush()

    def call(self, call: str, tool: str, args: dict[str, Any], **views: Any) -> None:
        self.send("call", {"run": "r", "call": call, "tool": TOOL + tool, "args": args, **views})

    def reply(self) -> tuple[str, Any, str]:
        line = self.lines.get(timeout=60)
        params = json.loads(line)["params"]
        return params["call"], params["outcome"], line

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=60)
        self.reader.join(timeout=60)  # every line written is queued by now
        return status


@pytest.fixture
def tool(venv_path: str) -> Any:
    process = ToolProcess(venv_path)
    yield process
    if process.process.poll() is None:
        process.process.kill()
        process.process.wait()


def test_an_exception_is_logged_with_its_traceback(tool: ToolProcess) -> None:
    tool.call("boom", "get_forecast", {**FORECAST_ARGS, "city": "boom"})
    assert "Unknown" in tool.reply()[1]
    assert tool.close() == 0
    assert tool.process.stderr is not None
    log = tool.process.stderr.read()
    assert "Traceback (most recent call last)" in log and "RuntimeError: the forecast model is down" in log


def test_an_error_value_of_a_tool_that_does_not_declare_it_is_unknown(tool: ToolProcess) -> None:
    # echo declares Never: the WeatherError it raises is an exception like any other.
    view = {"bindings": [{"name": "T", "type": "Text"}], "params": [{"name": "value", "type": "Text"}],
            "ok": "Text", "err": "Never", "declarations": {}}
    tool.call("e", "echo", {"value": "fail"}, schema={"type": "string"}, types=view)
    assert tool.reply()[:2] == ("e", {"Unknown": "the handler failed: it raised WeatherErrorRateLimited"})
    assert tool.close() == 0
    assert tool.process.stderr is not None
    log = tool.process.stderr.read()
    assert "Traceback (most recent call last)" in log
    assert "weather_tools.models.WeatherErrorRateLimited\n" in log


def test_print_in_a_handler_goes_to_stderr(tool: ToolProcess) -> None:
    tool.call("p", "get_forecast", FORECAST_ARGS)
    assert "Ok" in tool.reply()[1]
    assert tool.close() == 0
    assert tool.process.stderr is not None
    assert "forecast for Oslo, 2 days" in tool.process.stderr.read()


def test_undecodable_args_are_not_run(tool: ToolProcess) -> None:
    tool.call("bad", "get_forecast", {**FORECAST_ARGS, "days": 1.5})
    call, outcome, _ = tool.reply()
    assert call == "bad"
    assert outcome == {"NotRun": "$.params.args.days: expected an Int, found 1.5 [not-whole]"}
    tool.call("none", "get_weather", {})
    assert "NotRun" in tool.reply()[1]
    assert tool.close() == 0


def test_a_generic_call_with_a_view_that_does_not_fit_is_not_run(tool: ToolProcess) -> None:
    view = {"bindings": [{"name": "T", "type": "Int"}], "params": [{"name": "value", "type": "Text"}],
            "ok": "Int", "err": "Never", "declarations": {}}
    tool.call("g", "echo", {"value": 1}, schema={"type": "integer"}, types=view)
    _, outcome, _ = tool.reply()
    assert outcome["NotRun"].endswith("[view-mismatch]"), outcome


def test_cancel_reaches_a_sync_handler(tool: ToolProcess) -> None:
    tool.call("slow", "get_forecast", {**FORECAST_ARGS, "city": "slow"})
    # Calls start in the order they came: once the next one is answered, the
    # slow one's handler is running (else the cancel would find it waiting).
    tool.call("after", "get_forecast", FORECAST_ARGS)
    assert tool.reply()[0] == "after"
    tool.send("cancel", {"run": "r", "call": "slow"})
    # The handler saw the cancel and answered with its own choice of outcome.
    assert tool.reply()[:2] == ("slow", {"Failed": {"Unavailable": "PT90S"}})


def test_cancel_stops_an_async_handler(tool: ToolProcess) -> None:
    tool.call("slow", "list_stations", {"region": {"name": "slow", "children": []}, "cursor": "None"})
    tool.call("after", "list_stations", {"region": {"name": "Alps", "children": []}, "cursor": "None"})
    assert tool.reply()[0] == "after"
    tool.send("cancel", {"run": "r", "call": "slow"})
    assert tool.reply()[:2] == ("slow", {"Unknown": "the handler failed: it stopped after a cancel"})


def test_a_resent_call_does_not_run_twice(tool: ToolProcess) -> None:
    tool.call("h1", "station_history", HISTORY_ARGS)
    first = tool.reply()
    tool.call("h1", "station_history", HISTORY_ARGS)
    again = tool.reply()
    assert again[2] == first[2]
    tool.call("h2", "station_history", HISTORY_ARGS)
    _, outcome, _ = tool.reply()
    # The last reading counts the method's runs: h1 once, then h2.
    assert outcome["Ok"][-1] == ["2026-01-01T00:00:00Z", 2]


def test_the_end_of_stdin_lets_running_calls_finish(tool: ToolProcess) -> None:
    tool.call("last", "list_stations", {"region": REGION, "cursor": "None"})
    assert tool.close() == 0
    assert tool.reply()[0] == "last"


def test_many_pipelined_calls_each_get_exactly_one_reply(tool: ToolProcess) -> None:
    # Sync and async handlers interleaved, some pairs sent twice, some
    # cancelled: every pair is answered once, nothing is lost at the end.
    pairs = 300
    for i in range(pairs):
        if i % 2:
            tool.call(f"c{i}", "list_stations", {"region": REGION, "cursor": "None"})
        else:
            tool.call(f"c{i}", "station_history", HISTORY_ARGS)
        if i % 7 == 0:
            tool.call(f"c{i}", "station_history", HISTORY_ARGS)  # a re-send of the pair
        if i % 11 == 0:
            tool.send("cancel", {"run": "r", "call": f"c{i}"})
    assert tool.close() == 0
    replies: list[str] = []
    while not tool.lines.empty():
        replies.append(json.loads(tool.lines.get())["params"]["call"])
    # A re-send of a finished pair is answered again (the same line); of a
    # running pair, not at all: so each pair appears once or, if re-sent
    # after finishing, twice.
    assert set(replies) == {f"c{i}" for i in range(pairs)}
    for call in set(replies):
        index = int(call[1:])
        assert replies.count(call) <= (2 if index % 7 == 0 else 1), call


def call_view_cases() -> list[Any]:
    from conftest import REPO

    file = json.loads((REPO / "tests" / "vectors" / "call-views.json").read_text(encoding="utf-8"))
    return [pytest.param(case, id=case["name"]) for case in file["cases"]]


@pytest.mark.parametrize("case", call_view_cases())
def test_call_view_vectors_through_the_python_process(tool: ToolProcess, case: dict[str, Any]) -> None:
    # The shared call-view vectors, as the generic echo's call views: an
    # accepted view reaches the args (a Text probe: Ok, or NotRun at the args
    # for another type); a refused one is NotRun at the view, with its rule.
    tool.send("call", {"run": "r", "call": "v", "tool": case["tool"], "args": {"value": "probe"},
                       "schema": case["schema"], "types": case["types"]})
    _, outcome, _ = tool.reply()
    reason = outcome.get("NotRun", "")
    if case.get("ok"):
        assert "NotRun" not in outcome or reason.startswith("$.params.args"), outcome
    else:
        error = case["error"]
        assert reason.endswith(f"[{error['rule']}]"), outcome
        assert reason.startswith(("$.params.types", "$.params.schema")), outcome
        if "path" in error:
            relative = "$" + reason.split(":", 1)[0].removeprefix("$.params.types").removeprefix("$.params.schema")
            assert relative == error["path"], outcome
