"""The Tool process runtime: serves a generated package on stdin and stdout.

Every protocol rule runs in Rust before and after the author's code: describe
is answered from the generated metadata, args are decoded at the declared types
(a call that does not decode is NotRun and no handler runs), a re-sent call is
answered from memory, and results are encoded at the declared types. This
module only runs handlers:

- a plain function runs on the runtime's pool: one thread runs handlers back
  to back while they compute (under the GIL more threads only cost hand-offs);
  when none of its calls was taken for 5 ms and a handler is blocked (a
  sleep, I/O, waiting for a cancel) the pool wakes or adds a thread, up to
  ``max_workers`` (beside a handler that computes, after 100 ms); so a
  handler that blocks holds up the calls queued behind it for about 5 ms per
  thread added. An ``async def`` runs on the asyncio loop of the main thread;
- returning a value replies Ok; raising a value of the Tool's declared error
  type (a generated class made :func:`~flow_toolkit.raisable`), or
  :class:`Failed` with one (which any error type's values fit in, a ``str`` or
  a ``list`` too), replies Failed with it; a value whose fields do not encode
  at that type replies Unknown, the reason logged to stderr; any other
  exception replies Unknown (what the handler did before it stopped is not
  known) and is logged to stderr with its traceback, and so is a raised value
  of another Tool's error type;
- every handler, sync or async, runs in :func:`~flow_toolkit.exact_context`:
  decimal arithmetic that would round raises instead (``Decimal(1) / 3`` is
  ``decimal.Inexact``, so Unknown); rounding is asked for in a local context;
- a cancel sets ``ctx.cancelled`` (and wakes ``ctx.wait_cancelled``) and
  cancels an async handler's task; a handler that stops because of it replies
  Unknown, and a call cancelled before its handler started replies NotRun;
- the runtime always reads stdin, so a cancel is never stuck behind calls:
  at most 1,024 calls (and 64 MiB of their lines) are in flight, started and
  not yet replied to, and a call past that is answered NotRun at once,
  naming the bound;
- at the end of stdin running calls finish and reply, then ``serve`` returns;
- stdout carries the protocol and nothing else: while serving, ``print`` and
  anything else written to file descriptor 1 goes to stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import decimal
import functools
import inspect
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from flow_toolkit._exact import EXACT_TEMPLATE
from flow_toolkit._native import Call, Codec, Server, front_kind
from flow_toolkit._values import JsonValue, Order

E = TypeVar("E")


class Failed(Exception, Generic[E]):
    """Raise ``Failed(error)`` in a handler to reply Failed with ``error``, a
    value of the Tool's declared error type (a value of another type replies
    Unknown, naming the path). A generated error class can be raised itself;
    ``Failed`` carries any error value, such as a ``str`` for a Text error."""

    error: E

    def __init__(self, error: E) -> None:
        super().__init__(error)
        self.error = error


class CallContext:
    """What a handler knows about its call beyond its args."""

    __slots__ = ("_call",)

    def __init__(self, call: Call) -> None:
        self._call = call

    @property
    def run_id(self) -> str:
        """The host's run id."""
        return self._call.run_id

    @property
    def call_id(self) -> str:
        """The call's history id; with :attr:`run_id` the call's only key."""
        return self._call.call_id

    @property
    def cancelled(self) -> bool:
        """Whether the host asked to stop work on this call. A request, not a
        proof of anything: what to do about it is the handler's choice."""
        return self._call.cancelled

    def wait_cancelled(self, timeout: float | None = None) -> bool:
        """Blocks until the call is cancelled or ``timeout`` seconds pass
        (sync handlers); returns :attr:`cancelled`."""
        return self._call.wait_cancelled(timeout)

    @property
    def types(self) -> JsonValue:
        """A generic call's validated types view (``bindings``, ``params``,
        ``ok``, ``err``, ``declarations``), as JSON; None for a nongeneric call."""
        types: JsonValue = self._call.types
        return types

    @property
    def schema(self) -> JsonValue:
        """A generic call's success schema, as JSON; None for a nongeneric call."""
        schema: JsonValue = self._call.schema
        return schema

    @property
    def bindings(self) -> dict[str, JsonValue]:
        """Each type parameter's concrete type term, by name (empty for a nongeneric call)."""
        return self._call.bindings

    def canonical_at(self, root: str, value: JsonValue) -> str:
        """The canonical text of JSON ``value`` at a concrete root of a generic
        call: ``"ok"``, ``"err"``, a parameter name or a type parameter name.
        Decoding it there checks it against the caller's type (DecodeError)."""
        return self._call.canonical_at(root, value)

    def order(self, root: str) -> Order:
        """Flow's order at a root of a generic call (``"ok"``, ``"err"``, a
        parameter name or a type parameter name), over the Python form the
        handler sees: pass it as ``FlowSet(items, order=ctx.order("T"))`` so a
        set of the caller's records is ordered by their fields in declaration
        order, never by a dict's keys. Sets and dicts in a generic call's args
        already carry it."""
        order: Order = self._call.order(root)
        return order

    def compare_at(self, root: str, a: JsonValue, b: JsonValue) -> int:
        """Flow's order (-1, 0, 1) of two JSON values at a concrete root of a
        generic call, by the caller's type: a record by its fields in
        declaration order, not by the JSON object's keys."""
        return self._call.compare_at(root, a, b)


Handler = Callable[..., Any]


def _log(call: Call, what: str) -> None:
    print(f"flow tool: call {call.call_id!r} of run {call.run_id!r}: {what}", file=sys.stderr, flush=True)


def _finish_exception(call: Call, error: BaseException) -> None:
    declared = isinstance(error, Failed) or call.declares(error)
    if declared:
        refused = call.failed(error.error if isinstance(error, Failed) else error)
        if refused is None:
            return
        # Replied Unknown: where the wrong value came from is in the traceback.
        text = "".join(traceback.format_exception(error))
        _log(call, f"{refused}; the handler raised:\n{text}")
        return
    if isinstance(error, asyncio.CancelledError):
        _log(call, "stopped after a cancel")
        call.error("it stopped after a cancel")
        return
    text = "".join(traceback.format_exception(error))
    _log(call, f"the handler raised:\n{text}")
    call.error(f"it raised {_said(error)}")


def _said(error: BaseException) -> str:
    """``Name: message``, or the name alone when the message is empty (a
    payload-less error value) or cannot be made."""
    name = type(error).__name__
    try:
        message = str(error)
    except Exception:  # noqa: BLE001 - the reply must still go out
        return name
    return f"{name}: {message}" if message else name


def _cancelled_early(task: asyncio.Task[Any], *, call: Call) -> None:
    # Cancelled before its first step: the handler never ran.
    if task.cancelled():
        call.not_run("cancelled before it started")


def serve(
    codec: Codec,
    entries: Sequence[tuple[str, str, str]],
    handlers: Sequence[Handler],
    *,
    max_workers: int | None = None,
    args: Sequence[str] | None = None,
) -> None:
    """Serves ``handlers`` (one per entry, in order) on stdin and stdout until
    stdin ends and every running call has replied. ``entries`` are the
    generated ``(identity, fingerprint, signature)`` triples. Each handler is
    called as ``handler(*args, ctx=CallContext)``.

    It speaks the Flow Tool process protocol, or with ``--mcp`` among the
    process's arguments (``args``, by default ``sys.argv[1:]``) serves the
    Tools to MCP clients; any other argument is a usage error: said on
    stderr, and the process exits with status 2.

    At most ``max_workers`` plain handlers run at once (by default
    ``min(32, os.cpu_count() + 4)``, as ``ThreadPoolExecutor``); threads are
    started only as handlers block (see the module doc)."""
    if len(handlers) != len(entries):
        raise ValueError(f"{len(entries)} Tools are served but {len(handlers)} handlers were given")
    if max_workers is not None and max_workers <= 0:
        raise ValueError("max_workers must be greater than 0")
    workers = max_workers if max_workers is not None else min(32, (os.cpu_count() or 1) + 4)
    try:
        mcp = front_kind(list(sys.argv[1:] if args is None else args)) == "mcp"
    except ValueError as usage:
        print(usage, file=sys.stderr)
        sys.exit(2)
    # The protocol keeps the real stdout; descriptor 1 and sys.stdout point at
    # stderr, so a stray print in a handler cannot corrupt a reply.
    sys.stdout.flush()
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    server = Server(codec, list(entries), protocol_fd, mcp=mcp)
    is_async = [inspect.iscoroutinefunction(h) for h in handlers]

    async def main() -> None:
        loop = asyncio.get_running_loop()
        ended = loop.create_future()
        pending: set[Any] = set()
        tasks: dict[int, asyncio.Task[Any]] = {}

        def run_sync(call: Call, args: list[Any]) -> None:
            # On a pool thread (the native pool: one thread while handlers
            # compute, more while they block). localcontext makes a copy of
            # the template current: one copy per call.
            try:
                with decimal.localcontext(EXACT_TEMPLATE):
                    result = handlers[call.tool](*args, ctx=CallContext(call))
            except BaseException as error:  # noqa: BLE001 - every stop is an outcome
                _finish_exception(call, error)
            else:
                call.ok(result)

        async def run_async(call: Call, args: list[Any]) -> None:
            try:
                # The task's own context: decimal's context is a ContextVar,
                # so this reaches every await of the handler and no other task.
                with decimal.localcontext(EXACT_TEMPLATE):
                    result = await handlers[call.tool](*args, ctx=CallContext(call))
            except BaseException as error:  # noqa: BLE001 - every stop is an outcome
                _finish_exception(call, error)
            else:
                call.ok(result)
            finally:
                tasks.pop(id(call), None)

        def start_async(batch: list[tuple[Call, list[Any]]]) -> None:
            for call, args in batch:
                task = loop.create_task(run_async(call, args))
                tasks[id(call)] = task
                pending.add(task)
                task.add_done_callback(pending.discard)
                # A task cancelled before its first step never enters
                # run_async's handlers: reply for it here (a second reply is
                # ignored).
                task.add_done_callback(functools.partial(_cancelled_early, call=call))

        def dispatch(batch: list[tuple[Call, list[Any]]]) -> None:
            # On the runtime's dispatcher thread: the calls of async handlers
            # (plain ones go to the native pool), one loop wakeup a batch.
            loop.call_soon_threadsafe(start_async, batch)

        def cancel(call: Call) -> None:
            def cancel_task() -> None:
                task = tasks.get(id(call))
                if task is not None:
                    task.cancel()

            loop.call_soon_threadsafe(cancel_task)

        def end() -> None:
            if not ended.done():
                ended.set_result(None)

        def done() -> None:
            loop.call_soon_threadsafe(end)

        server.start(run_sync, dispatch, cancel, done, is_async=is_async, max_workers=workers)
        await ended
        # Calls handed over just before the end are scheduled by now, in order.
        await asyncio.sleep(0)
        while pending:
            await asyncio.gather(*list(pending), return_exceptions=True)
        # Plain handlers run on the native pool: wait for them off the loop thread.
        await asyncio.to_thread(server.join)

    with contextlib.redirect_stdout(sys.stderr):
        asyncio.run(main())
