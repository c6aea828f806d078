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
import threading
from pathlib import Path

from toolform.errors import LoaderError, TooManyJobs
from toolform.ir import JsonValue, ToolSet
from toolform.limits import schema_nodes
from toolform.loaders import ir
from toolform.loaders.common import tool_set
from toolform.loaders.notes import Notes

KIND = "typescript"
SCRIPT = Path(__file__).with_name("typescript_read.js")
#: Parsing a few hundred declarations takes well under a second; this bounds a stuck or exploding Node,
#: which is killed at the end of it.
TIMEOUT_SECONDS = 20
#: Node processes reading TypeScript at once in this process; more requests wait for one to end.
MAX_READERS = 2
#: Seconds a reading waits for a free reader before it is refused (429 too_many_jobs).
QUEUE_SECONDS = 30
#: Memory one Node reader may use (its V8 heap), in megabytes.
NODE_HEAP_MB = 512
_readers = threading.BoundedSemaphore(MAX_READERS)


def load(payload: JsonValue, notes: Notes) -> ToolSet:
    """Read the functions declared in ``payload`` (TypeScript source text)."""
    if not isinstance(payload, str):
        raise LoaderError("a typescript payload must be the source text, as a string")
    node = shutil.which("node")
    if node is None:
        raise LoaderError("reading TypeScript needs Node.js (the node command) on PATH")
    limit = schema_nodes()
    if not _readers.acquire(timeout=QUEUE_SECONDS):
        raise TooManyJobs(
            f"{MAX_READERS} TypeScript readings are under way, as many as run at once; none ended within "
            f"{QUEUE_SECONDS} s, so try again later"
        )
    try:
        done = subprocess.run(
            [node, f"--max-old-space-size={NODE_HEAP_MB}", str(SCRIPT), str(max(limit.left, 1))],
            input=payload, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False,
        )
    except subprocess.TimeoutExpired:
        raise LoaderError(
            f"the TypeScript reader did not finish within {TIMEOUT_SECONDS} s and was stopped; "
            "declare fewer or simpler types"
        ) from None
    finally:
        _readers.release()
    if done.returncode != 0:
        # Node's own message carries a stack trace with this installation's paths: not for the client.
        raise LoaderError(
            "the TypeScript reader stopped without an answer (the declarations may be too large or too deeply "
            "nested to read); simplify them"
        )
    answer = json.loads(done.stdout)
    if "too_large" in answer:
        limit.count(limit.left + 1)
    if "error" in answer:
        raise LoaderError(answer["error"], line=answer.get("line"))
    for tool, path, message in answer["warnings"]:
        notes.add(tool, path, message)
    toolset = ir.load(answer["tools"], Notes()) if answer["tools"] else tool_set([])
    return tool_set(list(toolset))
