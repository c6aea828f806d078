"""Tool sets the server read lately, so that a client sending one tool set with request after request
has it read once.

A client grading a model's replies sends the same tools with every reply, and
reading a tool set (every schema walked, every value checked) costs more than
parsing one reply. The key is the parsed tools object written by marshal (format
2, which writes every value whole, with no references to earlier ones): it keeps
``1``, ``1.0`` and ``True`` apart, and a value marshal does not write (a Decimal)
makes the key its repr instead, which keeps them apart too. So two bodies share an
entry only when they would load to the same tool set; marshal writes a 2,000-tool
catalogue several times faster than repr, which a catalogue sent once pays for. Only routes whose work never changes
the tools it is given use this (parse, catalogue). A tool set that fails to load is not
kept: its error is raised again, worked out again, each time.
"""

from __future__ import annotations

import marshal
from collections import OrderedDict
from threading import Lock

from toolform.ir import ToolSet
from toolform.loaders import LoadResult, load
from toolform.parse.protocols.base import ToolsReading, tools_reading

#: How many tool sets are kept: a few clients at once, each with its own.
RECENT_TOOL_SETS = 8

_recent: OrderedDict[bytes | str, LoadResult] = OrderedDict()
#: The reading of each kept tool set that replies were parsed against, by the tool set's identity.
_readings: dict[int, tuple[ToolSet, ToolsReading]] = {}
_lock = Lock()


def recent_load(source: str, payload: object) -> LoadResult:
    """``toolform.loaders.load(source, payload)``, from the last few answers where it was asked before.

    The result is shared between requests: callers must not change its tool set.
    """
    key = _asked_key(source, payload)
    with _lock:
        found = _recent.get(key)
        if found is not None:
            _recent.move_to_end(key)
            return found
    loaded = load(source, payload)
    with _lock:
        _recent[key] = loaded
        while len(_recent) > RECENT_TOOL_SETS:
            _readings.pop(id(_recent.popitem(last=False)[1].toolset), None)
    return loaded


def recent_reading(loaded: LoadResult) -> ToolsReading | None:
    """The reading of a tool set ``recent_load`` gave (``toolform.parse.reply``'s ``reading``), shared by
    every reply parsed against it while it is kept; None once it is no longer kept."""
    toolset = loaded.toolset
    with _lock:
        kept = _readings.get(id(toolset))
        if kept is not None and kept[0] is toolset:
            return kept[1]
        if not any(result.toolset is toolset for result in _recent.values()):
            return None
        reading = tools_reading(toolset)
        _readings[id(toolset)] = (toolset, reading)
        return reading


def is_recent(source: str, payload: object) -> bool:
    """Whether ``recent_load(source, payload)`` would answer from the recent tool sets, without loading.

    The key is kept for the next ``recent_load`` of this very payload object (a request asks, then loads).
    """
    global _asked
    key = _key(source, payload)
    _asked = (source, payload, key)
    with _lock:
        return key in _recent


#: The last key ``is_recent`` wrote, with what it wrote it from; the next ``recent_load`` takes it.
_asked: tuple[str, object, bytes | str] | None = None


def _asked_key(source: str, payload: object) -> bytes | str:
    """``_key(source, payload)``, taken from ``is_recent`` when it was just asked about this payload object."""
    global _asked
    asked, _asked = _asked, None
    if asked is not None and asked[1] is payload and asked[0] == source:
        return asked[2]
    return _key(source, payload)


def _key(source: str, payload: object) -> bytes | str:
    """``(source, payload)`` written whole: marshal's bytes, or for a value marshal refuses, the repr."""
    try:
        return marshal.dumps((source, payload), 2)  # type: ignore[arg-type]  # any value; ValueError if not
    except ValueError:
        return repr((source, payload))
