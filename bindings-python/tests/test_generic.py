"""A generic Tool's collections follow the caller's type, not JSON's order: a
Set<T> of the caller's records arrives ordered by the record's fields in
declaration order, and a set the handler builds with ``ctx.order("T")`` too."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from conftest import binary

LISTING = {
    "data": "0.1",
    "tools": [
        {"tool": "tools/generic.flow.smallest", "doc": "The first of a set.", "generic": ["T"],
         "params": [{"name": "items", "type": {"Set": {"Param": {"owner": "tool", "index": 0}}}}],
         "ok": {"Option": {"Param": {"owner": "tool", "index": 0}}}, "err": "Never"},
        {"tool": "tools/generic.flow.distinct", "doc": "A list's distinct items, in order.", "generic": ["T"],
         "params": [{"name": "items", "type": {"List": {"Param": {"owner": "tool", "index": 0}}}}],
         "ok": {"List": {"Param": {"owner": "tool", "index": 0}}}, "err": "Never"},
        {"tool": "tools/generic.flow.make", "doc": None, "generic": [], "params": [],
         "ok": {"Named": {"declaration": "1", "args": []}}, "err": "Never"},
        {"tool": "tools/generic.flow.broken", "doc": None, "generic": [], "params": [],
         "ok": {"Named": {"declaration": "1", "args": []}}, "err": "Never"},
    ],
    "declarations": {
        "1": {"name": "R", "identity": "tools/generic.flow.R", "lexical_ordinal": 1, "generic": [], "opaque": False,
              "kind": "record", "doc": None,
              "fields": [{"name": "z", "type": "Int", "doc": None}, {"name": "a", "type": "Int", "doc": None}]},
    },
}

IMPLEMENTATION = '''
from __future__ import annotations

import flow_toolkit

from . import models
from .tools import GenericTools


class Implementation(GenericTools):
    def smallest(self, items, *, ctx):
        assert {"a": 9, "z": 1} in items and {"z": 2, "a": 0} in items
        return flow_toolkit.Some(next(iter(items))) if items else None

    def distinct(self, items, *, ctx):
        return list(flow_toolkit.FlowSet(items, order=ctx.order("T")))

    def make(self, *, ctx):
        return models.R(z=1, a=2)

    def broken(self, *, ctx):
        return models.R(z=1.5, a=2)
'''


def call(root: Path, tool: str, args: dict[str, Any], venv_path: str, generic: bool = True) -> Any:
    type_args = ["--type-arg", 'T={"Named":{"declaration":"1","args":[]}}'] if generic else []
    run = subprocess.run(
        [str(binary("flow-host")), "call", "generic.tools.json", tool, "--manifest", ".", "--args", json.dumps(args),
         *type_args],
        cwd=root, capture_output=True, text=True, env={**os.environ, "PATH": venv_path}, timeout=120, check=False,
    )
    assert run.stdout, run.stderr
    return json.loads(run.stdout)


def test_generic_sets_use_the_callers_order(tmp_path: Path, venv_path: str) -> None:
    (tmp_path / "generic.tools.json").write_text(json.dumps(LISTING))
    made = subprocess.run([str(binary("flow-gen")), "--lang", "python", "generic.tools.json", "--out", "generic_tools"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    (tmp_path / "generic_tools" / "implementation.py").write_text(IMPLEMENTATION)
    records = [{"z": 2, "a": 0}, {"z": 1, "a": 9}]
    # By R's declared fields (z first) {"z":1,...} comes first; JSON's order
    # (keys ascending, so "a" first) would put {"a":0,...} first.
    assert call(tmp_path, "smallest", {"items": records}, venv_path) == {"Ok": {"Some": {"a": 9, "z": 1}}}
    assert call(tmp_path, "distinct", {"items": records + records}, venv_path) == {
        "Ok": [{"a": 9, "z": 1}, {"a": 0, "z": 2}]
    }
    assert call(tmp_path, "make", {}, venv_path, generic=False) == {"Ok": {"a": 2, "z": 1}}
    # A result of another type than the declared one is Unknown, naming where.
    assert call(tmp_path, "broken", {}, venv_path, generic=False) == {
        "Unknown": "the handler failed: its result is not of the declared type: "
        "$.z: expected an int, found a float: floats are not exact; use int or decimal.Decimal [encode]"
    }
