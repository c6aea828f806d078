"""Tool sets that may expand far are read in a worker process, not in the server's own.

Reading tools runs in the worker thread pool, which keeps the event loop free of
the work but not of the interpreter's lock, nor of its garbage collector: a
schema whose ``$ref`` fan out to hundreds of thousands of nodes allocates millions
of objects, and a collection that walks them holds every thread of the process,
``/health`` included, for a second and more. So before a reading, the nodes its
schemas would expand to are estimated (each local ``$ref`` counted as the size of
its target, each target counted once; a walk of the payload as it is, never of the
expansion), and a tool set estimated past ``FAR_NODES``, or larger than
``FAR_BYTES`` written out, is read in a worker process (``work_pool``), which
answers the same tool set or the same error. Smaller ones, nearly all, are read
where they were, at no extra cost.
"""

from __future__ import annotations

import marshal
from typing import Any

import anyio
import anyio.from_thread

from toolform.errors import ToolFormError
from toolform.loaders import LoadResult, load_here, set_far_loader
from toolform.loaders.jsonschema import follow_pointer
from toolform.server import work_pool
from toolform.server.exact_json import BODY_SHAPE

#: Estimated schema nodes past which a reading is done in a worker process.
FAR_NODES = 20_000
#: Bytes of a tools payload (as marshal writes it) past which it is read in a worker process.
FAR_BYTES = 2_000_000


def estimated_nodes(payload: object, stop_at: int = FAR_NODES) -> int:
    """The nodes ``payload``'s schemas would expand to, ``$ref`` inlined, or a number past ``stop_at`` once it
    is clear the count passes it. A reference resolves against the nearest enclosing object it resolves in."""
    sizes: dict[int, int] = {}
    under_way: set[int] = set()

    def pointer(ref: str, roots: list[Any]) -> Any:
        for root in reversed(roots):
            target = follow_pointer(root, ref)
            if target is not None:
                return target
        return None

    def size(node: Any, roots: list[Any]) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in under_way:  # a recursive reference: the reader stops there
            return 1
        under_way.add(key)
        total = 1
        if isinstance(node, dict):
            roots.append(node)
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#"):
                target = pointer(ref, roots)
                if isinstance(target, (dict, list)):
                    total += size(target, roots)
            for value in node.values():
                if isinstance(value, (dict, list)):
                    total += size(value, roots)
                if total > stop_at:
                    break
            roots.pop()
        elif isinstance(node, list):
            for value in node:
                if isinstance(value, (dict, list)):
                    total += size(value, roots)
                if total > stop_at:
                    break
        under_way.discard(key)
        sizes[key] = total
        return total

    return size(payload, [])


def reads_far(source: str, payload: object) -> bool:
    """Whether reading ``payload`` may take long enough to be done in a worker process."""
    if source == "typescript":
        return False  # read by Node, in a process of its own already
    body = BODY_SHAPE.get()
    if body is not None and body[0] <= FAR_BYTES and not body[1]:
        return False  # the request's body is small and holds no reference: nothing expands
    try:
        written = marshal.dumps(payload, 2)  # type: ignore[arg-type]  # any value; ValueError if not
    except ValueError:
        return estimated_nodes(payload) > FAR_NODES
    if len(written) > FAR_BYTES:
        return True
    # Without a reference the expansion is the payload itself, which is small: no walk needed.
    return b"$ref" in written and estimated_nodes(payload) > FAR_NODES


def _load_in_worker(source: str, payload: object) -> tuple[bool, LoadResult | ToolFormError]:
    # In the worker: the error itself comes back (it pickles with its detail and line), to be raised as it is.
    try:
        return True, load_here(source, payload)
    except ToolFormError as error:
        return False, error


def _far_load(source: str, payload: object) -> LoadResult | None:
    # Only from a thread the event loop's thread pool runs (a route's work): elsewhere (a measurement's own
    # thread, the event loop itself) the reading stays where it is.
    if not reads_far(source, payload):
        return None
    try:
        ok, value = anyio.from_thread.run(work_pool.run, _load_in_worker, source, payload)
    except anyio.NoEventLoopError:
        return None
    if not ok:
        assert isinstance(value, ToolFormError)
        raise value
    assert isinstance(value, LoadResult)
    return value


def install() -> None:
    """Read tool sets that may expand far in a worker process, from now on in this process."""
    set_far_loader(_far_load)
