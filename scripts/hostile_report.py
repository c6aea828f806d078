"""Prints the table of hostile inputs in docs/testing.md: for each case
of flow-hostile's catalog, its size and the peak memory it cost each reader
(as args: the Rust, a generated Python and a generated TypeScript Tool
process; as a reply: the host client; as a text: flow_toolkit's and
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
FLOW_GEN = REPO / "target" / "debug" / "flow-gen"


def mib(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def ratio(cost: int, size: int) -> str:
    # Below a MiB the fixed part of the bound is what counts, not the ratio.
    return mib(cost) if size < 2**20 else f"{mib(cost)} ({cost / size:.1f}x)"


def protocol(side: str, name: str, command: list[str] | None = None, cwd: Path | None = None) -> tuple[int, int, str]:
    extra = ["--", *command] if command else []
    out = subprocess.run([str(HOSTILE), side, name, *extra], cwd=cwd, capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    rule = r["reason"].rsplit("[", 1)[-1].rstrip("]")
    return r["size"], r["peak"] - r["baseline"], f'{r["outcome"]} [{rule}]'


def binding(cmd: list[str], text: Path, term: str) -> tuple[int, str]:
    r = json.loads(subprocess.run([*cmd, str(text), term], capture_output=True, text=True, check=True).stdout)
    refused = [a for a in r["refusals"] if "rule" in a]
    return refused[-1]["peak"] - r["rss"], refused[0]["rule"]


def tools(root: Path) -> tuple[list[str], list[str]]:
    """Generated Python and TypeScript Tool processes for the hostile listing."""
    listing = root / "hostile.tools.json"
    subprocess.run([str(HOSTILE), "listing", str(listing)], check=True)
    gen = [str(FLOW_GEN), "--lang", "python", str(listing), "--out", str(root / "hostile_tools"), "--no-manifest"]
    subprocess.run(gen, check=True, capture_output=True)
    ts = root / "hostile-tools"
    subprocess.run(["node", str(REPO / "bindings-node/bin/flow-gen.js"), "--lang", "typescript", str(listing),
                    "--out", str(ts), "--no-manifest"], check=True, capture_output=True)
    (ts / "node_modules").symlink_to(REPO / "node_modules")
    subprocess.run(["node", str(REPO / "node_modules/typescript/bin/tsc"), "-p", str(ts)], check=True)
    return [sys.executable, "-m", "hostile_tools"], ["node", str(ts / "dist" / "main.js")]


def main() -> None:
    cases = [line.split("\t") for line in subprocess.run(
        [str(HOSTILE), "cases"], capture_output=True, text=True, check=True).stdout.splitlines()]
    print("| case | message | Rust Tool (args) | Python Tool (args) | TypeScript Tool (args) | host client (reply) "
          "| text | Python decode | Node decode |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        python_tool, node_tool = tools(Path(tmp))
        for name, _rule, term, _level, _factor, what in cases:
            size, server, server_outcome = protocol("server", name)
            _, py_server, _ = protocol("server", name, python_tool, Path(tmp))
            _, js_server, _ = protocol("server", name, node_tool)
            _, host, host_outcome = protocol("host", name)
            text = Path(tmp) / name
            subprocess.run([str(HOSTILE), "text", name, str(text)], check=True)
            text_size = text.stat().st_size
            py, py_rule = binding([sys.executable, str(REPO / "tests/hostile/decode.py")], text, term)
            js, js_rule = binding(["node", str(REPO / "tests/hostile/decode.js")], text, term)
            cells = [
                f"`{name}`: {what}", f"{size:,} B", f"{server_outcome}, {ratio(server, size)}", ratio(py_server, size),
                ratio(js_server, size), f"{host_outcome}, {ratio(host, size)}",
                f"{text_size:,} B", f"[{py_rule}] {ratio(py, text_size)}", f"[{js_rule}] {ratio(js, text_size)}",
            ]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
