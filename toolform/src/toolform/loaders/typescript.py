"""TypeScript declarations (text) read with the TypeScript compiler's parser, through Node.

Each ``function`` declaration is a tool: its JSDoc is the description (``@param``
and ``@returns`` describe the parameters and the result), its parameters the
tool's (optional with ``?``, a default, or a union with ``null``/``undefined``).
Interfaces, type aliases and enums declared in the text are inlined; a type it
does not declare is an error with its line. The reference refuses ``enum``
declarations; this reads them as enums.

The parser runs as ``node typescript_read.js`` beside this file; the
``typescript`` package is the repository's (``make node-env``), or the folder
``TOOLFORM_TYPESCRIPT`` names.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from toolform.errors import LoaderError
from toolform.ir import JsonValue, ToolSet
from toolform.loaders import ir
from toolform.loaders.common import tool_set
from toolform.loaders.notes import Notes

KIND = "typescript"
SCRIPT = Path(__file__).with_name("typescript_read.js")
#: Parsing a few hundred declarations takes well under a second; this bounds a stuck Node.
TIMEOUT_SECONDS = 60


def load(payload: JsonValue, notes: Notes) -> ToolSet:
    """Read the functions declared in ``payload`` (TypeScript source text)."""
    if not isinstance(payload, str):
        raise LoaderError("a typescript payload must be the source text, as a string")
    node = shutil.which("node")
    if node is None:
        raise LoaderError("reading TypeScript needs Node.js (the node command) on PATH")
    try:
        done = subprocess.run(
            [node, str(SCRIPT)], input=payload, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False
        )
    except subprocess.TimeoutExpired:
        raise LoaderError(f"the TypeScript reader did not finish within {TIMEOUT_SECONDS} s") from None
    if done.returncode != 0:
        raise LoaderError(f"the TypeScript reader failed: {done.stderr.strip()[-500:]}")
    answer = json.loads(done.stdout)
    if "error" in answer:
        raise LoaderError(answer["error"], line=answer.get("line"))
    for tool, path, message in answer["warnings"]:
        notes.add(tool, path, message)
    toolset = ir.load(answer["tools"], Notes()) if answer["tools"] else tool_set([])
    return tool_set(list(toolset))
