"""Two or more servers under the neutral driver in interleaved rounds: an A/B
of two builds of one runtime, beside the floor they are judged against.

Each round runs every side once (fresh process, driver.one_run, the table's
own client), in an order reversed every other round, so a spell of load on
the shared machine falls on each side alike. A side is NAME=COMMAND; COMMAND
is split as a shell would and may start with VAR=VALUE assignments, which
set that side's environment. Prints each run, then per side the median
calls/s and CPU per call, and each side's calls/s against --versus round by
round (both ran in the same round, one after the other).

    TOOL=examples/typescript/weather-tools/dist/main.js
    python3 benches/neutral/ab.py --protocol mcp --tool echo --args '{"value":"hello"}' \\
        --side "before=NAPI_RS_NATIVE_LIBRARY_PATH=$PWD/before.node node $TOOL --mcp" \\
        --side "after=node $TOOL --mcp" \\
        --side 'floor=node benches/neutral/floor_echo.js' --versus floor --rounds 15 --calls 50000

A Node Tool loads the native module NAPI_RS_NATIVE_LIBRARY_PATH names (the
napi-rs loader's override); the script checks that each side's process maps
the file it names, so a path that fails to load is not measured silently as
the default module. Server CPU per call comes from /proc in clock ticks:
with 20,000 calls a tick is 0.5 us a call, so give --calls 50,000 or more.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import driver  # noqa: E402

NATIVE_OVERRIDE = "NAPI_RS_NATIVE_LIBRARY_PATH"


def parse_side(text: str) -> tuple[str, dict[str, str], list[str]]:
    """NAME=[VAR=VALUE ...] COMMAND ARGS...: the name, the environment it adds, the command."""
    name, sep, rest = text.partition("=")
    words = shlex.split(rest)
    env: dict[str, str] = {}
    while words and re.match(r"[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        var, _, value = words.pop(0).partition("=")
        env[var] = value
    if not sep or not name or not words:
        raise SystemExit(f"--side {text!r}: expected NAME=[VAR=VALUE ...] COMMAND ARGS..., e.g. 'a=node main.js --mcp'")
    return name, env, words


def check_override(name: str, env: dict[str, str], command: list[str]) -> None:
    """Refuses a side whose native-module override its process does not load."""
    path = env.get(NATIVE_OVERRIDE)
    if path is None:
        return
    if not os.path.isabs(path):
        # The loader require()s it from its own folder, not from here.
        raise SystemExit(f"--side {name}: {NATIVE_OVERRIDE}={path} must be an absolute path")
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=os.environ | env)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if path in Path(f"/proc/{proc.pid}/maps").read_text():
                return
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        raise SystemExit(f"--side {name}: its process did not load {path} ({NATIVE_OVERRIDE}); is it a built module?")
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--side", action="append", required=True, help="NAME=COMMAND (at least two)")
    parser.add_argument("--versus", help="the side each other side's calls/s is divided by, round by round")
    parser.add_argument("--protocol", choices=["flow", "mcp"], default="flow")
    parser.add_argument("--tool", default=driver.WEATHER)
    parser.add_argument("--args", default=driver.FORECAST_ARGS)
    parser.add_argument("--calls", type=int, default=50000)
    parser.add_argument("--outstanding", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=9)
    a = parser.parse_args()
    sides = [parse_side(s) for s in a.side]
    names = [name for name, _, _ in sides]
    if len(set(names)) != len(names) or len(names) < 2:
        parser.error("--side: at least two, each with a name of its own")
    if a.versus is not None and a.versus not in names:
        parser.error(f"--versus {a.versus}: not a side's name ({', '.join(names)})")
    for name, env, command in sides:
        check_override(name, env, command)
    runs: dict[str, list[driver.Run]] = {name: [] for name in names}
    loads: list[float] = []
    base = dict(os.environ)
    for r in range(a.rounds):
        for name, env, command in sides if r % 2 == 0 else sides[::-1]:
            loads.append(os.getloadavg()[0])
            # Popen inherits this process's environment: the side's own, nothing of the last side's.
            os.environ.clear()
            os.environ.update(base | env)
            try:
                run = driver.one_run(command, a.protocol, a.tool, a.args, a.calls, a.outstanding)
            finally:
                os.environ.clear()
                os.environ.update(base)
            runs[name].append(run)
            print(
                f"round {r} {name}: {run.calls_per_s:,.0f} calls/s, server CPU {run.cpu_us_per_call:.2f} us/call, "
                f"driver CPU {run.client_cpu_us_per_call:.2f} us/call, p50 {run.p50_us:.0f} us, load {loads[-1]:.2f}",
                flush=True,
            )
    load = f"1-min load {min(loads):.2f} to {max(loads):.2f}"
    print(f"\n{a.rounds} rounds of {a.calls} calls at {a.outstanding} outstanding; {load}")
    for name in names:
        done = runs[name]
        print(
            f"{name}: median {statistics.median(r.calls_per_s for r in done):,.0f} calls/s "
            f"(min {min(r.calls_per_s for r in done):,.0f}, max {max(r.calls_per_s for r in done):,.0f}), "
            f"server CPU {statistics.median(r.cpu_us_per_call for r in done):.2f} us/call"
        )
    if a.versus is not None:
        peer = runs[a.versus]
        for name in names:
            if name == a.versus:
                continue
            ratios = sorted(x.calls_per_s / y.calls_per_s for x, y in zip(runs[name], peer, strict=True))
            print(
                f"{name} / {a.versus}, calls/s in the same round: median {statistics.median(ratios):.3f}x, "
                f"quartiles {ratios[len(ratios) // 4]:.2f} to {ratios[(3 * len(ratios)) // 4]:.2f}, "
                f"all {ratios[0]:.2f} to {ratios[-1]:.2f}"
            )


if __name__ == "__main__":
    main()
