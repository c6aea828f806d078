"""Prints the README's table of hostile inputs (issue 8, item 4): for each case
of flow-hostile's catalog, its size and the peak memory it cost each reader
(the Tool process's server core, the host client, flow_toolkit's and
@flow/toolkit's decoders), over the reader's resident set before the message
arrived. Run from the repository root after ``make test`` has built
everything: ``.venv/bin/python scripts/hostile_report.py``."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "target" / "debug" / "flow-hostile"


def mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def ratio(cost: int, size: int) -> str:
    # Below a MiB the fixed part of the bound is what counts, not the ratio.
    return mib(cost) if size < 2**20 else f"{mib(cost)} ({cost / size:.1f}x)"


def protocol(side: str, name: str) -> tuple[int, int, str]:
    out = subprocess.run([str(HOSTILE), side, name], capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    rule = r["reason"].rsplit("[", 1)[-1].rstrip("]")
    return r["size"], r["peak"] - r["baseline"], f'{r["outcome"]} [{rule}]'


def binding(cmd: list[str], text: Path, term: str) -> tuple[int, str]:
    r = json.loads(subprocess.run([*cmd, str(text), term], capture_output=True, text=True, check=True).stdout)
    refused = [a for a in r["refusals"] if "rule" in a]
    return refused[-1]["peak"] - r["rss"], refused[0]["rule"]


def main() -> None:
    cases = [line.split() for line in subprocess.run(
        [str(HOSTILE), "cases"], capture_output=True, text=True, check=True).stdout.splitlines()]
    print("| case | message | server core (args) | host client (reply) | text | Python decode | Node decode |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, _rule, term, _level, _factor in cases:
            size, server, server_outcome = protocol("server", name)
            _, host, host_outcome = protocol("host", name)
            text = Path(tmp) / name
            subprocess.run([str(HOSTILE), "text", name, str(text)], check=True)
            text_size = text.stat().st_size
            py, py_rule = binding([sys.executable, str(REPO / "tests/hostile/decode.py")], text, term)
            js, js_rule = binding(["node", str(REPO / "tests/hostile/decode.js")], text, term)
            cells = [
                name, f"{size:,} B", f"{server_outcome}, {ratio(server, size)}", f"{host_outcome}, {ratio(host, size)}",
                f"{text_size:,} B", f"[{py_rule}] {ratio(py, text_size)}", f"[{js_rule}] {ratio(js, text_size)}",
            ]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
