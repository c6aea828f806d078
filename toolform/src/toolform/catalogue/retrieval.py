"""Retrieval: rank a catalogue's tools against a request by BM25, and keep the top ``k``.

A tool's document is its name, its description, and each top-level parameter's
name and description, as the reference builds it. The index is built once per
catalogue: ``Catalogue`` holds it, and ``retrieve`` keeps the last few in a small
cache keyed by the documents' text, so a server asked about the same catalogue
again does not tokenize it again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from threading import Lock

from toolform.catalogue.bm25 import BM25Index
from toolform.catalogue.one_query import BREAK, OneQuery
from toolform.catalogue.tokens import word_bytes
from toolform.catalogue.toolsets import as_toolset
from toolform.errors import BadRequest, PayloadTooLarge
from toolform.ir import ToolIR, ToolSet

#: The default number of tools retrieval keeps (the reference's).
DEFAULT_K = 8
#: Most tools one index holds. The reference stops at 2,000 (its server limit);
#: this index is linear in the catalogue, and 100,000 tools build in seconds.
MAX_CATALOGUE_TOOLS = 100_000
#: Scores are given to six decimals, as the reference gives them.
SCORE_DECIMALS = 6
_CACHED_INDEXES = 8


def tool_document(tool: ToolIR) -> str:
    """The text BM25 reads for ``tool``: name, description, and each parameter's name and description."""
    parts = [tool.name, tool.description]
    for param in tool.params:
        parts.append(param.name)
        parts.append(param.description)
    return "\n".join(parts)


@dataclass(frozen=True)
class Retrieval:
    """A request's BM25 ranking of every tool, and the tools kept (``keep`` first, then the best, up to ``k``)."""

    query: str
    ranked: list[tuple[str, float]]
    selected: list[str]
    tools: list[ToolIR] | None
    method: str = "bm25"

    @property
    def k(self) -> int:
        """How many tools were kept (at most the catalogue; more than asked when ``keep`` is longer)."""
        return len(self.selected)

    def to_dict(self) -> dict[str, object]:
        return {
            "query": self.query,
            "method": self.method,
            "ranked": [[name, score] for name, score in self.ranked],
            "selected": list(self.selected),
            "k": self.k,
            "tools": None if self.tools is None else [tool.to_dict() for tool in self.tools],
        }


class Catalogue:
    """A tool set with its BM25 index, built once; ``retrieve`` asks it as many times as needed."""

    def __init__(
        self, tools: object, split_identifiers: bool = False, index: BM25Index | OneQuery | None = None
    ) -> None:
        self.toolset = as_toolset(tools)
        check_catalogue_size(len(self.toolset))
        self.split_identifiers = split_identifiers
        self.names = self.toolset.names
        if index is None:
            index = BM25Index([word_bytes(tool_document(tool), split_identifiers) for tool in self.toolset])
        self.index: BM25Index | OneQuery = index

    def __len__(self) -> int:
        return len(self.names)

    def retrieve(
        self, query: str, k: int = DEFAULT_K, keep: Iterable[str] = (), include_tools: bool = True
    ) -> Retrieval:
        """Rank every tool against ``query``; keep the ``keep`` tools and the best others, ``k`` in all.

        The kept tools come in ranking order. A ``keep`` name not in the catalogue is
        BadRequest; ``k`` below 1 is BadRequest.
        """
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise BadRequest(f"k must be an integer of at least 1, not {k!r}")
        names = self.names
        kept: set[int] = set()
        if keep:
            position = {name: i for i, name in enumerate(names)}
            for name in keep:
                if name not in position:
                    raise BadRequest(f"no tool named '{name}'")
                kept.add(position[name])
        order, scores = self.index.ranked(word_bytes(query, self.split_identifiers))
        wanted = max(k, len(kept))
        if kept:
            chosen = set(kept)
            for doc in order:
                if len(chosen) >= wanted:
                    break
                chosen.add(doc)
            selected = [doc for doc in order if doc in chosen]
        else:
            selected = order[:wanted]
        tools = self.toolset.tools
        return Retrieval(
            query=query,
            # map() runs the same round() per score as a loop would, without the loop's own steps.
            ranked=list(zip(map(names.__getitem__, order), map(round, scores, repeat(SCORE_DECIMALS)), strict=True)),
            selected=[names[doc] for doc in selected],
            tools=[tools[doc] for doc in selected] if include_tools else None,
        )


def check_catalogue_size(count: int) -> None:
    """Refuse a catalogue larger than MAX_CATALOGUE_TOOLS, in the reference's words for its own limit."""
    if count > MAX_CATALOGUE_TOOLS:
        raise PayloadTooLarge(f"{count:,} tools; the limit is {MAX_CATALOGUE_TOOLS:,}")


#: A catalogue's key: its documents joined (``catalogue_text``), or listed when one holds the break.
_Key = tuple[bool, str | tuple[str, ...]]
_cache: OrderedDict[_Key, BM25Index] = OrderedDict()
#: Catalogues asked about once, not indexed: asked again, they are.
_seen_once: OrderedDict[_Key, None] = OrderedDict()
_cache_lock = Lock()
#: Between two documents in ``catalogue_text``.
_BETWEEN = f"\n{BREAK}\n"


def catalogue_text(toolset: ToolSet) -> str:
    """Every tool's ``tool_document``, in order, joined by a newline, BREAK and a newline."""
    parts: list[str] = []
    add = parts.append
    for tool in toolset.tools:
        add(tool.name)
        add(tool.description)
        for param in tool.params:
            add(param.name)
            add(param.description)
        add(BREAK)
    del parts[-1:]
    return "\n".join(parts)


def catalogue_for(tools: object, split_identifiers: bool = False) -> Catalogue:
    """The Catalogue of ``tools``, its index from the cache when the same documents were indexed lately.

    A catalogue not seen lately is scored without an index (``OneQuery``: the same scores, for a
    fraction of the index's cost); the second time it is asked about, it is indexed and kept.
    """
    toolset = as_toolset(tools)
    check_catalogue_size(len(toolset))
    text = catalogue_text(toolset)
    # The joined text is the key when it splits back into the documents: when no document holds BREAK.
    joined = text.count(BREAK) == len(toolset) - 1
    key: _Key = (split_identifiers, text if joined else tuple(tool_document(tool) for tool in toolset))
    with _cache_lock:
        index = _cache.get(key)
        if index is not None:
            _cache.move_to_end(key)
            return Catalogue(toolset, split_identifiers, index)
        again = key in _seen_once
        if again:
            del _seen_once[key]
    if not again and joined:
        once = OneQuery.of_joined(text, len(toolset), split_identifiers)
        with _cache_lock:
            _seen_once[key] = None
            while len(_seen_once) > _CACHED_INDEXES:
                _seen_once.popitem(last=False)
        return Catalogue(toolset, split_identifiers, once)
    documents = text.split(_BETWEEN) if joined else key[1]
    index = BM25Index([word_bytes(document, split_identifiers) for document in documents])
    with _cache_lock:
        _cache[key] = index
        while len(_cache) > _CACHED_INDEXES:
            _cache.popitem(last=False)
    return Catalogue(toolset, split_identifiers, index)


def retrieve(
    tools: object,
    query: str,
    k: int = DEFAULT_K,
    keep: Sequence[str] = (),
    *,
    split_identifiers: bool = False,
    include_tools: bool = True,
) -> Retrieval:
    """Rank ``tools`` (a ToolSet, a tools object ``{"source", "payload"}``, or IR) against ``query`` by BM25.

    ``k`` tools are kept (default 8), the ``keep`` names among them whatever their
    rank; ``split_identifiers`` also splits camelCase and digits (not the reference's).
    """
    return catalogue_for(tools, split_identifiers).retrieve(query, k, keep, include_tools)
